use elicit_core::Elicit;
use serde::Deserialize;

// Deserializable, so the one error is elicit's: a nested struct is no form field.
#[derive(Deserialize)]
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
