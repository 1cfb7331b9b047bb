//! The forms the benchmarks compare, each described three ways: `#[derive(Elicit)]`,
//! `#[derive(schemars::JsonSchema)]` (what rmcp's `ElicitationSchema::from_type` and
//! `schemars::schema_for!` read) and rmcp's `ElicitationSchema::builder()`, plus one
//! valid answer per form.
//!
//! The three descriptions carry the same fields, titles, descriptions, bounds and
//! formats, so every contender emits a schema of comparable size. The JSON is not
//! byte-identical (schemars adds `$schema`, `format: "uint8"` and the like; rmcp sorts
//! properties), which the tests below check only as far as "same property names".

use elicit_core::Elicit;
use rmcp::model::{ElicitationSchema, EnumSchema, IntegerSchema, NumberSchema, StringSchema};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A five-field sign-up form.
#[derive(Debug, Elicit, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Form5 {
    /// Your full name.
    #[elicit(title = "Name", min_length = 1, max_length = 100)]
    #[schemars(title = "Name", length(min = 1, max = 100))]
    pub name: String,
    /// Where we write to you.
    #[elicit(title = "E-mail", format = "email")]
    #[schemars(title = "E-mail", email)]
    pub email: String,
    /// In years.
    #[elicit(title = "Age", minimum = 0, maximum = 150)]
    #[schemars(title = "Age", range(min = 0, max = 150))]
    pub age: u8,
    /// Tick to get the newsletter.
    #[elicit(title = "Newsletter")]
    #[schemars(title = "Newsletter")]
    pub newsletter: bool,
    /// Optional.
    #[elicit(title = "Birthday", format = "date")]
    #[schemars(title = "Birthday", extend("format" = "date"))]
    pub birthday: Option<String>,
}

/// A twenty-field form: text with and without formats, integers, numbers, checkboxes.
#[derive(Debug, Elicit, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Form20 {
    /// Given name.
    #[elicit(title = "First name", min_length = 1, max_length = 50)]
    #[schemars(title = "First name", length(min = 1, max = 50))]
    pub first_name: String,
    /// Family name.
    #[elicit(title = "Last name", min_length = 1, max_length = 50)]
    #[schemars(title = "Last name", length(min = 1, max = 50))]
    pub last_name: String,
    /// Work address.
    #[elicit(title = "E-mail", format = "email")]
    #[schemars(title = "E-mail", email)]
    pub email: String,
    /// Private address.
    #[elicit(title = "Other e-mail", format = "email")]
    #[schemars(title = "Other e-mail", email)]
    pub other_email: Option<String>,
    /// Personal page.
    #[elicit(title = "Homepage", format = "uri")]
    #[schemars(title = "Homepage", url)]
    pub homepage: Option<String>,
    /// Day of birth.
    #[elicit(title = "Birthday", format = "date")]
    #[schemars(title = "Birthday", extend("format" = "date"))]
    pub birthday: String,
    /// When you arrive.
    #[elicit(title = "Arrival", format = "date-time")]
    #[schemars(title = "Arrival", extend("format" = "date-time"))]
    pub arrival: String,
    /// Street and number.
    #[elicit(title = "Street", max_length = 200)]
    #[schemars(title = "Street", length(max = 200))]
    pub street: String,
    /// Town.
    #[elicit(title = "City", max_length = 100)]
    #[schemars(title = "City", length(max = 100))]
    pub city: String,
    /// Postal code.
    #[elicit(title = "Postcode", min_length = 3, max_length = 10)]
    #[schemars(title = "Postcode", length(min = 3, max = 10))]
    pub postcode: String,
    /// Country name.
    #[elicit(title = "Country")]
    #[schemars(title = "Country")]
    pub country: String,
    /// In years.
    #[elicit(title = "Age", minimum = 0, maximum = 150)]
    #[schemars(title = "Age", range(min = 0, max = 150))]
    pub age: u8,
    /// Adults travelling.
    #[elicit(title = "Adults", minimum = 1, maximum = 9)]
    #[schemars(title = "Adults", range(min = 1, max = 9))]
    pub adults: u32,
    /// Children travelling.
    #[elicit(title = "Children", minimum = 0, maximum = 9)]
    #[schemars(title = "Children", range(min = 0, max = 9))]
    pub children: Option<u32>,
    /// Nights to stay.
    #[elicit(title = "Nights", minimum = 1, maximum = 365)]
    #[schemars(title = "Nights", range(min = 1, max = 365))]
    pub nights: i64,
    /// Most you want to pay per night.
    #[elicit(title = "Budget", minimum = 0, maximum = 10000)]
    #[schemars(title = "Budget", range(min = 0.0, max = 10000.0))]
    pub budget: f64,
    /// Lowest acceptable rating.
    #[elicit(title = "Rating", minimum = 0, maximum = 5)]
    #[schemars(title = "Rating", range(min = 0.0, max = 5.0))]
    pub rating: Option<f64>,
    /// Tick if you travel with a pet.
    #[elicit(title = "Pet")]
    #[schemars(title = "Pet")]
    pub pet: bool,
    /// Tick for breakfast.
    #[elicit(title = "Breakfast")]
    #[schemars(title = "Breakfast")]
    pub breakfast: bool,
    /// Anything else.
    #[elicit(title = "Notes", max_length = 500)]
    #[schemars(title = "Notes", length(max = 500))]
    pub notes: Option<String>,
}

/// Popcorn sizes: a select whose options have titles.
///
/// `extend("type" = "string")`: schemars writes a titled enum as a bare `oneOf`, which
/// rmcp's `from_type` reads only with the `type` MCP requires next to it.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, JsonSchema, PartialEq, Eq)]
#[schemars(inline, extend("type" = "string"))]
pub enum Size {
    /// Small.
    #[elicit(title = "Small (S)")]
    #[schemars(title = "Small (S)")]
    Small,
    /// Medium.
    #[elicit(title = "Medium (M)")]
    #[schemars(title = "Medium (M)")]
    Medium,
    /// Large.
    #[elicit(title = "Large (L)")]
    #[schemars(title = "Large (L)")]
    Large,
}

/// Toppings: the items of a multi-select.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
pub enum Topping {
    // No doc comments on these variants: with one, schemars would emit `oneOf`
    // entries without titles, which rmcp's `from_type` cannot read as a multi-select.
    Butter,
    Salt,
    Caramel,
    Cheese,
}

/// A form with a titled single select and a multi-select (2025-11-25 and later).
#[derive(Debug, Elicit, Deserialize, JsonSchema)]
pub struct FormEnums {
    /// Bucket size.
    #[elicit(title = "Size")]
    #[schemars(title = "Size")]
    pub size: Size,
    /// Pick one or two.
    #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
    #[schemars(title = "Toppings", length(min = 1, max = 2))]
    pub toppings: Vec<Topping>,
    /// How many buckets.
    #[elicit(title = "Buckets", minimum = 1, maximum = 4)]
    #[schemars(title = "Buckets", range(min = 1, max = 4))]
    pub buckets: u8,
}

/// rmcp's builder for [`Form5`].
pub fn form5_builder() -> ElicitationSchema {
    ElicitationSchema::builder()
        .required_string_property("name", |s| {
            s.title("Name")
                .description("Your full name.")
                .length(1, 100)
        })
        .required_string_property("email", |_| {
            StringSchema::email()
                .title("E-mail")
                .description("Where we write to you.")
        })
        .required_integer_property("age", |s| {
            s.title("Age").description("In years.").range(0, 150)
        })
        .required_bool_property("newsletter", |s| {
            s.title("Newsletter")
                .description("Tick to get the newsletter.")
        })
        .string_property("birthday", |_| {
            StringSchema::date()
                .title("Birthday")
                .description("Optional.")
        })
        .build_unchecked()
}

/// A valid answer to [`Form5`].
pub fn form5_answer() -> Value {
    json!({
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "age": 36,
        "newsletter": true,
        "birthday": "1815-12-10"
    })
}

/// rmcp's builder for [`Form20`].
pub fn form20_builder() -> ElicitationSchema {
    ElicitationSchema::builder()
        .required_string_property("firstName", |s| {
            s.title("First name")
                .description("Given name.")
                .length(1, 50)
        })
        .required_string_property("lastName", |s| {
            s.title("Last name")
                .description("Family name.")
                .length(1, 50)
        })
        .required_string_property("email", |_| {
            StringSchema::email()
                .title("E-mail")
                .description("Work address.")
        })
        .string_property("otherEmail", |_| {
            StringSchema::email()
                .title("Other e-mail")
                .description("Private address.")
        })
        .string_property("homepage", |_| {
            StringSchema::uri()
                .title("Homepage")
                .description("Personal page.")
        })
        .required_string_property("birthday", |_| {
            StringSchema::date()
                .title("Birthday")
                .description("Day of birth.")
        })
        .required_string_property("arrival", |_| {
            StringSchema::date_time()
                .title("Arrival")
                .description("When you arrive.")
        })
        .required_string_property("street", |s| {
            s.title("Street")
                .description("Street and number.")
                .max_length(200)
        })
        .required_string_property("city", |s| {
            s.title("City").description("Town.").max_length(100)
        })
        .required_string_property("postcode", |s| {
            s.title("Postcode")
                .description("Postal code.")
                .length(3, 10)
        })
        .required_string_property("country", |s| {
            s.title("Country").description("Country name.")
        })
        .required_integer_property("age", |s| {
            s.title("Age").description("In years.").range(0, 150)
        })
        .required_integer_property("adults", |s| {
            s.title("Adults")
                .description("Adults travelling.")
                .range(1, 9)
        })
        .integer_property("children", |s| {
            s.title("Children")
                .description("Children travelling.")
                .range(0, 9)
        })
        .required_integer_property("nights", |s| {
            s.title("Nights")
                .description("Nights to stay.")
                .range(1, 365)
        })
        .required_number_property("budget", |_| {
            NumberSchema::new()
                .title("Budget")
                .description("Most you want to pay per night.")
                .range(0.0, 10000.0)
        })
        .number_property("rating", |s| {
            s.title("Rating")
                .description("Lowest acceptable rating.")
                .range(0.0, 5.0)
        })
        .required_bool_property("pet", |s| {
            s.title("Pet").description("Tick if you travel with a pet.")
        })
        .required_bool_property("breakfast", |s| {
            s.title("Breakfast").description("Tick for breakfast.")
        })
        .string_property("notes", |s| {
            s.title("Notes")
                .description("Anything else.")
                .max_length(500)
        })
        .build_unchecked()
}

/// A valid answer to [`Form20`].
pub fn form20_answer() -> Value {
    json!({
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "otherEmail": "ada.lovelace@example.org",
        "homepage": "https://example.com/ada",
        "birthday": "1815-12-10",
        "arrival": "2025-02-03T18:30:00Z",
        "street": "12 St James's Square",
        "city": "London",
        "postcode": "SW1Y 4JH",
        "country": "United Kingdom",
        "age": 36,
        "adults": 2,
        "children": 1,
        "nights": 3,
        "budget": 180.5,
        "rating": 4.5,
        "pet": false,
        "breakfast": true,
        "notes": "A quiet room, please."
    })
}

/// rmcp's builder for [`FormEnums`].
pub fn form_enums_builder() -> ElicitationSchema {
    let size = EnumSchema::builder(vec!["Small".into(), "Medium".into(), "Large".into()])
        .enum_titles(vec![
            "Small (S)".into(),
            "Medium (M)".into(),
            "Large (L)".into(),
        ])
        .expect("three titles for three values")
        .title("Size")
        .description("Bucket size.")
        .build();
    let toppings = EnumSchema::builder(vec![
        "butter".into(),
        "salt".into(),
        "caramel".into(),
        "cheese".into(),
    ])
    .multiselect()
    .title("Toppings")
    .description("Pick one or two.")
    .min_items(1)
    .and_then(|b| b.max_items(2))
    .expect("1 <= 2")
    .build();
    ElicitationSchema::builder()
        .required_enum_schema("size", size)
        .required_enum_schema("toppings", toppings)
        .required_integer_property("buckets", |_| {
            IntegerSchema::new()
                .title("Buckets")
                .description("How many buckets.")
                .range(1, 4)
        })
        .build_unchecked()
}

/// A valid answer to [`FormEnums`].
pub fn form_enums_answer() -> Value {
    json!({"size": "Medium", "toppings": ["butter", "caramel"], "buckets": 2})
}

#[cfg(test)]
mod tests {
    use super::*;
    use elicit_core::Revision;

    fn names(v: &Value) -> Vec<String> {
        let mut names: Vec<String> = v["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        names.sort();
        names
    }

    fn check<T: Elicit + JsonSchema>(builder: ElicitationSchema, answer: Value) {
        let ours = serde_json::to_value(T::requested_schema(Revision::V2025_11_25).unwrap())
            .expect("serializes");
        let from_type =
            serde_json::to_value(ElicitationSchema::from_type::<T>().unwrap()).expect("serializes");
        let built = serde_json::to_value(&builder).expect("serializes");
        let schemars = serde_json::to_value(schemars::schema_for!(T)).expect("serializes");
        assert_eq!(names(&ours), names(&from_type));
        assert_eq!(names(&ours), names(&built));
        assert_eq!(names(&ours), names(&schemars));
        assert_eq!(ours["required"], built["required"]);
        T::from_content(Some(&answer)).expect("the answer is valid for elicit");
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&ours)
            .expect("our schema compiles");
        assert!(validator.is_valid(&answer), "{ours}");
    }

    #[test]
    fn form5_agrees() {
        check::<Form5>(form5_builder(), form5_answer());
    }

    #[test]
    fn form20_agrees() {
        check::<Form20>(form20_builder(), form20_answer());
    }

    #[test]
    fn form_enums_agrees() {
        check::<FormEnums>(form_enums_builder(), form_enums_answer());
    }
}
