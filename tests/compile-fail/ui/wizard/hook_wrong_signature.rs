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

struct Cinema;

// A check gets the context, the answers so far and this step's answer.
fn date_has_seats(_date: &ShowDate) -> bool {
    true
}

// A prepare hook returns `Prepared`, not the choices themselves.
fn free_seats(_cinema: &Cinema, _progress: &OrderProgress) -> Vec<String> {
    Vec::new()
}

fn sold_out(_cinema: &Cinema) -> bool {
    false
}

#[derive(Wizard)]
#[wizard(context = Cinema)]
struct Order {
    #[step(message = "Which day?", check = date_has_seats)]
    date: ShowDate,
    #[step(message = "Pick a seat", prepare = free_seats, skip_if = sold_out)]
    seat: Seat,
}

fn main() {}
