// serde's own warning for the duplicate (an unreachable pattern in its derive) is not
// elicit's: the case shows elicit's error only.
#![allow(unreachable_patterns)]

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
