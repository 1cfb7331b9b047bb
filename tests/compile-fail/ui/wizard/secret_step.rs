use elicit_core::{Elicit, SecretString, Wizard};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Account {
    user: String,
}

#[derive(Elicit, Deserialize)]
struct Password {
    #[elicit(secret)]
    password: SecretString,
}

#[derive(Wizard)]
struct SignUp {
    #[step(message = "Your account")]
    account: Account,
    #[step(message = "Choose a password")]
    password: Password,
    #[step(message = "A second password, if you like")]
    second: Option<Password>,
}

fn main() {}
