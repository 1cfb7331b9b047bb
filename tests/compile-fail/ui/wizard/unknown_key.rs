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
#[wizard(context = (), retries = 2)]
struct Order {
    #[step(message = "Which day?", prompt = "Date")]
    date: ShowDate,
    #[step(message = "Pick a seat", message = "Seat?")]
    seat: Seat,
}

fn main() {}
