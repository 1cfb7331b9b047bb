use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Range {
    span: (u32, u32),
}

fn main() {}
