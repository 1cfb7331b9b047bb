use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Payment {
    Cash,
    Card { number: String },
    Voucher(u32),
}

fn main() {}
