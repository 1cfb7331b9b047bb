use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Trip {
    new_date: String,
    #[serde(rename = "newDate")]
    other_date: String,
}

fn main() {}
