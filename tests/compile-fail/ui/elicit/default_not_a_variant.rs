use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Elicit, Deserialize)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit, Deserialize)]
enum Topping {
    Butter,
    Salt,
}

#[derive(Elicit, Deserialize)]
struct Popcorn {
    #[elicit(default = "Medium")]
    size: Size,
    #[elicit(default = ["Butter", "Caramel"])]
    toppings: Vec<Topping>,
}

fn main() {}
