use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Tags {
    tags: Vec<String>,
}

fn main() {}
