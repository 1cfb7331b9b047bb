use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Survey {
    #[elicit(minimum = 10, maximum = 1)]
    score: u8,
    #[elicit(min_length = 20, max_length = 5)]
    comment: String,
}

fn main() {}
