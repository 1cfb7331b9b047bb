use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
struct Everything {
    #[elicit(format = "phone")]
    phone: String,
    #[elicit(minimum = 5, maximum = 1)]
    count: u8,
    #[elicit(titel = "Tags")]
    tags: Vec<String>,
    password: String,
    #[elicit(default = 3)]
    ok: bool,
}

fn main() {}
