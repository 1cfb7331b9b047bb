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
#[wizard(context = 5, attempts = 0)]
struct Order {
    #[step(message = 1, check = "date_ok")]
    date: ShowDate,
    #[step(message = "Pick a seat", attempts = -1)]
    seat: Seat,
}

fn main() {}
