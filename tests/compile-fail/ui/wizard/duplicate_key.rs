use elicit_core::{Elicit, Wizard};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct ShowDate {
    #[elicit(format = "date")]
    date: String,
}

struct Cinema;

fn date_ok(_: &Cinema, _: &OrderProgress, _: &ShowDate) -> Result<(), String> {
    Ok(())
}

#[derive(Wizard)]
#[wizard(context = Cinema, attempts = 2)]
#[wizard(attempts = 3)]
struct Order {
    #[step(message = "Which day?", check = date_ok, check = date_ok)]
    date: ShowDate,
}

fn main() {}
