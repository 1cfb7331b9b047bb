use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignIn {
    user: String,
    password: String,
    api_key: String,
    credit_card_number: String,
    #[serde(rename = "accessToken")]
    access: String,
}

fn main() {}
