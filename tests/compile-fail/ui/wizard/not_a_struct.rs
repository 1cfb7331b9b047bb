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
enum Order {
    Date(ShowDate),
    Seat(Seat),
}

#[derive(Wizard)]
struct Pair(ShowDate, Seat);

fn main() {}
