use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Address {
    street: String,
    city: String,
}

#[derive(Elicit, Deserialize)]
struct Order {
    name: String,
    address: Address,
}

fn main() {}
