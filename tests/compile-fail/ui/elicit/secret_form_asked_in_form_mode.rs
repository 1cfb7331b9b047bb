use elicit_core::engine::{Call, Transport};
use elicit_core::{Elicit, SecretString};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct SignIn {
    user: String,
    #[elicit(secret)]
    password: SecretString,
}

async fn sign_in(call: &mut Call, to: &impl Transport) {
    let _ = call.ask::<SignIn>(to, "Sign in").await;
}

fn main() {}
