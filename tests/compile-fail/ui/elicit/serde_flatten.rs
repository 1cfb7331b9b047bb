use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Inner {
    city: String,
}

#[derive(Elicit, Deserialize)]
struct Outer {
    name: String,
    #[serde(flatten)]
    inner: Inner,
}

fn main() {}
