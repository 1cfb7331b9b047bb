use elicit_core::Elicit;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Elicit, Deserialize)]
struct Labels {
    labels: HashMap<String, String>,
}

fn main() {}
