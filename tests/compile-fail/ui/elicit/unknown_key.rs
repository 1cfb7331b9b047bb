use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Size {
    #[elicit(label = "Small")]
    Small,
    Large,
}

#[derive(Elicit, Deserialize)]
struct Form {
    #[elicit(placeholder = "you@example.com")]
    email: String,
    size: Size,
}

fn main() {}
