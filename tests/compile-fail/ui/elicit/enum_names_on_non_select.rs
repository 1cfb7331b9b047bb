use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Cup {
    #[elicit(enum_names)]
    note: String,
}

fn main() {}
