use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct SignIn {
    user: String,
    #[elicit(secret)]
    password: String,
    #[elicit(secret)]
    pin: Option<u32>,
}

fn main() {}
