use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Contact {
    #[elicit(format = "phone")]
    phone: String,
}

fn main() {}
