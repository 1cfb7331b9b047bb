use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Never {}

fn main() {}
