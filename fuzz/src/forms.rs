//! Forms fed to the answer target besides the examples' own: the benchmarks' forms
//! (copied here without their schemars side, so the fuzz build does not pull
//! schemars and jsonschema in) and two forms for the corners the others miss.

use std::collections::BTreeSet;

use elicit_core::Elicit;
use elicit_examples::forms::Topping;
use serde::Deserialize;

pub use crate::Pick;

/// `benches/src/lib.rs`'s five-field sign-up form.
#[derive(Debug, Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Form5 {
    /// Your full name.
    #[elicit(title = "Name", min_length = 1, max_length = 100)]
    pub name: String,
    /// Where we write to you.
    #[elicit(title = "E-mail", format = "email")]
    pub email: String,
    /// In years.
    #[elicit(title = "Age", minimum = 0, maximum = 150)]
    pub age: u8,
    /// Tick to get the newsletter.
    #[elicit(title = "Newsletter")]
    pub newsletter: bool,
    /// Optional.
    #[elicit(title = "Birthday", format = "date")]
    pub birthday: Option<String>,
}

/// `benches/src/lib.rs`'s twenty-field form.
#[derive(Debug, Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Form20 {
    /// Given name.
    #[elicit(title = "First name", min_length = 1, max_length = 50)]
    pub first_name: String,
    /// Family name.
    #[elicit(title = "Last name", min_length = 1, max_length = 50)]
    pub last_name: String,
    /// Work address.
    #[elicit(title = "E-mail", format = "email")]
    pub email: String,
    /// Private address.
    #[elicit(title = "Other e-mail", format = "email")]
    pub other_email: Option<String>,
    /// Personal page.
    #[elicit(title = "Homepage", format = "uri")]
    pub homepage: Option<String>,
    /// Day of birth.
    #[elicit(title = "Birthday", format = "date")]
    pub birthday: String,
    /// When you arrive.
    #[elicit(title = "Arrival", format = "date-time")]
    pub arrival: String,
    /// Street and number.
    #[elicit(title = "Street", max_length = 200)]
    pub street: String,
    /// Town.
    #[elicit(title = "City", max_length = 100)]
    pub city: String,
    /// Postal code.
    #[elicit(title = "Postcode", min_length = 3, max_length = 10)]
    pub postcode: String,
    /// Country name.
    #[elicit(title = "Country")]
    pub country: String,
    /// In years.
    #[elicit(title = "Age", minimum = 0, maximum = 150)]
    pub age: u8,
    /// Adults travelling.
    #[elicit(title = "Adults", minimum = 1, maximum = 9)]
    pub adults: u32,
    /// Children travelling.
    #[elicit(title = "Children", minimum = 0, maximum = 9)]
    pub children: Option<u32>,
    /// Nights to stay.
    #[elicit(title = "Nights", minimum = 1, maximum = 365)]
    pub nights: i64,
    /// Most you want to pay per night.
    #[elicit(title = "Budget", minimum = 0, maximum = 10000)]
    pub budget: f64,
    /// Lowest acceptable rating.
    #[elicit(title = "Rating", minimum = 0, maximum = 5)]
    pub rating: Option<f64>,
    /// Tick if you travel with a pet.
    #[elicit(title = "Pet")]
    pub pet: bool,
    /// Tick for breakfast.
    #[elicit(title = "Breakfast")]
    pub breakfast: bool,
    /// Anything else.
    #[elicit(title = "Notes", max_length = 500)]
    pub notes: Option<String>,
}

/// `benches/src/lib.rs`'s popcorn sizes.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq)]
pub enum BenchSize {
    /// Small.
    #[elicit(title = "Small (S)")]
    Small,
    /// Medium.
    #[elicit(title = "Medium (M)")]
    Medium,
    /// Large.
    #[elicit(title = "Large (L)")]
    Large,
}

/// `benches/src/lib.rs`'s toppings.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum BenchTopping {
    /// Butter.
    Butter,
    /// Salt.
    Salt,
    /// Caramel.
    Caramel,
    /// Cheese.
    Cheese,
}

/// `benches/src/lib.rs`'s form with a titled select and a multi-select.
#[derive(Debug, Elicit, Deserialize)]
pub struct FormEnums {
    /// Bucket size.
    #[elicit(title = "Size")]
    pub size: BenchSize,
    /// Pick one or two.
    #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
    pub toppings: Vec<BenchTopping>,
    /// How many buckets.
    #[elicit(title = "Buckets", minimum = 1, maximum = 4)]
    pub buckets: u8,
}

/// The integer and float types at their limits, a raw identifier, serde renames and
/// defaults, a skipped field, a set multi-select, lengths counted in scalar values.
#[derive(Debug, Elicit, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Edges {
    /// Sent as `type`.
    #[elicit(min_length = 2, max_length = 3)]
    pub r#type: String,
    /// -128..=127.
    pub tiny: i8,
    /// The widest unsigned type.
    pub huge: u128,
    /// The widest signed type.
    pub wide: Option<i128>,
    /// Pointer-sized.
    pub size: Option<usize>,
    /// Pointer-sized, signed.
    pub delta: Option<isize>,
    /// Lands in an `f32`.
    pub ratio: f32,
    /// A narrow range inside an `i16`.
    #[elicit(minimum = -5, maximum = 5)]
    pub small: Option<i16>,
    /// Renamed on the wire.
    #[serde(rename = "Flag!")]
    #[elicit(default = true)]
    pub flag: bool,
    /// Never on the wire.
    #[serde(skip)]
    pub skipped: u32,
    /// A set of options.
    #[elicit(max_items = 2)]
    pub set: BTreeSet<Topping>,
    /// A date and time.
    #[elicit(format = "date-time")]
    pub when: Option<String>,
    /// An absolute URI.
    #[elicit(format = "uri", default = "https://example.com/")]
    pub link: String,
    /// A number with fractional bounds.
    #[elicit(minimum = -0.5, maximum = 1e3)]
    pub score: Option<f64>,
}

/// `deny_unknown_fields`: the form leaves unknown keys out before deserializing.
#[derive(Debug, Elicit, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Closed {
    /// An e-mail address, with a default.
    #[elicit(format = "email", default = "ada@example.com")]
    pub email: String,
    /// A select of the examples' sizes.
    pub size: Option<elicit_examples::forms::Size>,
    /// Up to 10 characters.
    #[elicit(max_length = 10)]
    pub code: Option<String>,
}
