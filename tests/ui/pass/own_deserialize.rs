//! `#[elicit(deserialize)]` compiles cleanly under `deny(warnings)`, with every serde
//! attribute it reads, an enum of its own and one with serde's `Deserialize`.
#![deny(warnings)]

use elicit_core::Elicit;

#[derive(Debug, Elicit)]
#[elicit(deserialize)]
#[serde(rename_all = "lowercase")]
enum Seat {
    Aisle,
    #[serde(rename = "by the window")]
    Window,
    #[serde(skip)]
    #[allow(dead_code)]
    Cockpit,
}

#[derive(Debug, Elicit, serde::Deserialize)]
enum Meal {
    Veggie,
    Fish,
}

fn two() -> u8 {
    2
}

#[derive(Debug, Elicit)]
#[elicit(deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Booking {
    seat: Seat,
    meal: Option<Meal>,
    #[serde(default = "two")]
    #[elicit(minimum = 1, maximum = 4)]
    party_size: u8,
    #[serde(default)]
    note: String,
    #[serde(skip)]
    internal: u64,
    #[serde(rename = "r#type")]
    r#type: Option<String>,
}

fn main() {
    let answer = serde_json::json!({"seat": "by the window", "partySize": 3});
    let booking = Booking::from_content(Some(&answer)).unwrap();
    assert_eq!(booking.party_size, 3);
    assert_eq!(booking.internal, 0);
    assert!(booking.meal.is_none() && booking.note.is_empty() && booking.r#type.is_none());
    assert!(matches!(booking.seat, Seat::Window));
}
