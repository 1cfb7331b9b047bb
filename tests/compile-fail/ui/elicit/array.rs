use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Rgb {
    color: [u8; 3],
}

fn main() {}
