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

struct Snacks {
    popcorn: bool,
}

#[derive(Wizard)]
struct Order {
    #[step(message = "Which day?")]
    date: ShowDate,
    #[step(message = "Your name?")]
    name: String,
    #[step(message = "Anything to eat?")]
    snacks: Snacks,
}

fn main() {}
