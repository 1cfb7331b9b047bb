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
    #[step(message = "Which day?", check = date_has_seats)]
    date: ShowDate,
    #[step(message = "Pick a seat", prepare = free_seats, skip_if = sold_out)]
    seat: Seat,
}

fn main() {}
