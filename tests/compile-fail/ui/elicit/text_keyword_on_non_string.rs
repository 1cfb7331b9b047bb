use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Booking {
    #[elicit(format = "date")]
    nights: u32,
    #[elicit(min_length = 1, max_length = 3)]
    breakfast: bool,
}

fn main() {}
