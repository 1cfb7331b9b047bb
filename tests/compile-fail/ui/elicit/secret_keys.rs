use elicit_core::{Elicit, SecretString};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Connect {
    #[elicit(secret, not_secret)]
    api_key: SecretString,
    #[elicit(secret, default = "hunter2")]
    password: SecretString,
}

fn main() {}
