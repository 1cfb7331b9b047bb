use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Tickets {
    #[elicit(maximum = 300)]
    seats: u8,
    #[elicit(minimum = -1)]
    rows: u32,
    #[elicit(minimum = 0.5)]
    count: i64,
}

fn main() {}
