//! The forms of the book's examples: the travel booking's alternatives, the log purge
//! approval and the cinema's popcorn order.

use elicit_core::Elicit;
use serde::Deserialize;

/// "No trip on that date: check other dates?"
#[derive(Debug, Elicit, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Alternatives {
    /// Tick to look for another date.
    #[elicit(title = "Alternate date")]
    pub check_alternatives: bool,
    /// The date to try instead.
    #[elicit(title = "New Date", format = "date")]
    pub new_date: Option<String>,
}

/// Popcorn sizes.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
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

/// Toppings, a multi-select.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Topping {
    /// Butter.
    Butter,
    /// Salt.
    Salt,
    /// Caramel.
    Caramel,
}

/// Snacks for the film.
#[derive(Debug, Elicit, Deserialize, PartialEq)]
pub struct Popcorn {
    /// Whether to add popcorn.
    #[elicit(title = "Popcorn?", default = false)]
    pub popcorn: bool,
    /// Bucket size.
    pub size: Option<Size>,
    /// How many buckets.
    #[elicit(minimum = 1, maximum = 4)]
    pub buckets: u8,
}

/// The purge approval of the tutorial: a consent, which the person gives, never the model
/// (never asked through a link in a tool result unless the pages allow it).
#[derive(Debug, Elicit, Deserialize, PartialEq)]
#[elicit(consent)]
pub struct PurgeApproval {
    /// Tick to delete the logs for good.
    #[elicit(title = "I understand the logs are deleted for good")]
    pub confirm: bool,
    /// Who approves the purge.
    #[elicit(title = "Approver's e-mail", format = "email", max_length = 254)]
    pub approver: String,
    // The purge offers the call's days as the default and the least (`Prepared::range`):
    // approving can narrow the purge, never widen it.
    /// Logs older than this many days are deleted.
    #[elicit(title = "Retention days", minimum = 1, maximum = 3650, default = 30)]
    pub retention_days: u16,
}

/// A form using every field kind, for snapshots and benchmarks.
#[derive(Debug, Elicit, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Everything {
    /// Your name.
    #[elicit(title = "Name", min_length = 1, max_length = 50, default = "Ada")]
    pub name: String,
    #[elicit(title = "E-mail", format = "email")]
    pub email: String,
    #[elicit(format = "uri")]
    pub homepage: Option<String>,
    #[elicit(format = "date-time")]
    pub arrival: Option<String>,
    #[elicit(minimum = 0, maximum = 130, default = 30)]
    pub age: i32,
    #[elicit(minimum = 0, maximum = 100, default = 95.5)]
    pub score: f64,
    pub ratio: Option<f32>,
    #[elicit(title = "Verified", default = true)]
    pub verified: bool,
    #[elicit(title = "Size", default = "Medium")]
    pub size: Size,
    #[elicit(title = "Legacy size", enum_names)]
    pub legacy_size: Option<Size>,
    #[elicit(title = "Toppings", min_items = 1, max_items = 2, default = ["butter"])]
    pub toppings: Vec<Topping>,
    pub count: u64,
}
