use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit, Deserialize)]
struct Cup {
    #[elicit(min_items = 1)]
    size: Size,
    #[elicit(max_items = 2)]
    note: String,
}

fn main() {}
