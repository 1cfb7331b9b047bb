use elicit_core::Elicit;

// With `#[elicit(deserialize)]` the derive writes `Deserialize` itself; serde attributes
// it does not read would silently change nothing, so they are refused.
#[derive(Elicit)]
#[elicit(deserialize)]
#[serde(default)]
struct Contact {
    #[serde(alias = "mail")]
    email: String,
    #[serde(deserialize_with = "read_size")]
    size: Size,
}

#[derive(Elicit)]
#[elicit(deserialize)]
enum Size {
    Small,
    #[serde(other)]
    Large,
}

// The type takes only `deserialize`.
#[derive(Elicit, serde::Deserialize)]
#[elicit(title = "Contact")]
struct Titled {
    email: String,
}

fn main() {}
