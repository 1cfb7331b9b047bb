use elicit_core::Elicit;
use serde::Deserialize;

struct Coordinates {
    lat: f64,
    lon: f64,
}

#[derive(Elicit, Deserialize)]
struct Place {
    name: String,
    at: Coordinates,
}

fn main() {}
