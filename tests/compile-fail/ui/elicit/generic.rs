use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Wrapper<T> {
    value: T,
}

fn main() {}
