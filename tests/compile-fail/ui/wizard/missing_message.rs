use elicit_core::{Elicit, Wizard};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct ShowDate {
    #[elicit(format = "date")]
    date: String,
}

#[derive(Elicit, Deserialize)]
struct Seat {
    seat: String,
}

#[derive(Wizard)]
struct Order {
    date: ShowDate,
    #[step(message = "Pick a seat")]
    seat: Seat,
}

fn main() {}
