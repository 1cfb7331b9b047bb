use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Profile {
    #[elicit(minimum = 1)]
    name: String,
    #[elicit(maximum = 10)]
    subscribed: Option<bool>,
}

fn main() {}
