#![deny(warnings)]
//! A name that only looks like a secret can opt out, field by field.

use elicit_core::{Elicit, Revision};
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Feedback {
    /// How many tokens the answer used, not a credential.
    #[elicit(not_secret)]
    tokens_spent: u32,
    #[elicit(not_secret, title = "Token of appreciation")]
    token_gift: Option<String>,
}

fn main() {
    let schema = Feedback::requested_schema(Revision::LATEST).unwrap();
    let json = serde_json::to_value(&schema).unwrap();
    assert!(json["properties"]["token_gift"].is_object());
}
