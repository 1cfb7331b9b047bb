use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Names {
    names: Box<[String]>,
}

fn main() {}
