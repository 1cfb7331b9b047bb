use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Purge {
    #[elicit(minimum = 1, maximum = 365, default = 400)]
    days: u16,
    #[elicit(max_length = 3, default = "four")]
    code: String,
    #[elicit(default = 300)]
    level: u8,
}

fn main() {}
