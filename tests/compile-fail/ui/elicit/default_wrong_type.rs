use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Settings {
    #[elicit(default = "yes")]
    enabled: bool,
    #[elicit(default = true)]
    name: String,
    #[elicit(default = 2.5)]
    retries: u8,
}

fn main() {}
