use elicit_core::{Elicit, SecretString};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Connect {
    host: String,
    #[elicit(not_secret)]
    token: SecretString,
    backup: Option<SecretString>,
}

fn main() {}
