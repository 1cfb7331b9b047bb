use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Form {
    #[elicit(title = "E-mail", title = "Mail")]
    email: String,
    #[elicit(maximum = 3)]
    #[elicit(maximum = 4)]
    count: u8,
}

fn main() {}
