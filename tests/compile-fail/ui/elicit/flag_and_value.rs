use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit, Deserialize)]
struct Order {
    #[elicit(title)]
    name: String,
    #[elicit(enum_names = true)]
    size: Size,
    #[elicit(enum_names, enum_names)]
    other_size: Size,
}

fn main() {}
