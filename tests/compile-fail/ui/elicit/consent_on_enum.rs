use elicit_core::Elicit;
use serde::Deserialize;

// A consent is a form the person approves: the options of a select are not one.
#[derive(Elicit, Deserialize)]
#[elicit(consent)]
enum Answer {
    Yes,
    No,
}

fn main() {}
