use elicit_core::Elicit;
use serde::Deserialize;

// `#[elicit(deserialize)]` writes `Deserialize`: serde's derive beside it is a second one.
#[derive(Elicit, Deserialize)]
#[elicit(deserialize)]
struct Feedback {
    rating: u8,
}

fn main() {}
