use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
#[elicit(title = "Order")]
struct Order {
    #[elicit(crate = "elicit_core")]
    size: Size,
}

#[derive(Elicit, Deserialize)]
#[elicit(strict)]
enum Size {
    #[elicit(description = "A small one")]
    Small,
    Large,
}

fn main() {}
