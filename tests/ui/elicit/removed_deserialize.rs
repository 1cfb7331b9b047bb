// The opt-in reading path `#[elicit(deserialize)]` is gone: the key names what to do.
use elicit_core::Elicit;
use serde::Deserialize;

fn map() -> u8 {
    2
}

#[derive(Debug, Elicit, Deserialize)]
#[elicit(deserialize)]
struct F {
    #[serde(default = "map")]
    #[elicit(minimum = 1, maximum = 4)]
    party: u8,
}

fn main() {}
