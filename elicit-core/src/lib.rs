//! Typed, compile-time checked MCP elicitation forms.
//!
//! In the Model Context Protocol a server can ask the user, through the client, for a
//! few structured values: a flat form described by a small subset of JSON Schema
//! (`requestedSchema`), answered with accept (and the values), decline or cancel.
//!
//! `#[derive(Elicit)]` checks every rule of that subset at compile time, emits the
//! exact `requestedSchema` for each protocol [`Revision`], and turns the client's
//! answer into a validated, typed [`Elicitation`].
//!
//! ```
//! use elicit_core::{Elicit, Elicitation, Revision};
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Debug, Elicit, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! struct Alternatives {
//!     #[elicit(title = "Alternate date")]
//!     check_alternatives: bool,
//!     /// The date to try instead.
//!     #[elicit(title = "New Date", format = "date")]
//!     new_date: Option<String>,
//! }
//!
//! let schema = Alternatives::requested_schema(Revision::V2025_06_18)?;
//! assert_eq!(
//!     serde_json::to_value(schema)?,
//!     json!({
//!         "type": "object",
//!         "properties": {
//!             "checkAlternatives": {"type": "boolean", "title": "Alternate date"},
//!             "newDate": {"type": "string", "title": "New Date",
//!                         "description": "The date to try instead.", "format": "date"}
//!         },
//!         "required": ["checkAlternatives"]
//!     })
//! );
//!
//! let content = json!({"checkAlternatives": true, "newDate": "2025-02-03"});
//! match Elicitation::<Alternatives>::from_result("accept", Some(&content))? {
//!     Elicitation::Accept(a) if a.check_alternatives => {
//!         assert_eq!(a.new_date.as_deref(), Some("2025-02-03"))
//!     }
//!     Elicitation::Accept(_) | Elicitation::Decline => { /* the user said no */ }
//!     Elicitation::Cancel => { /* the user dismissed the form */ }
//! }
//!
//! let bad = json!({"checkAlternatives": true, "newDate": "Feb 3"});
//! let err = Elicitation::<Alternatives>::from_result("accept", Some(&bad)).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "New Date: not a date in the form YYYY-MM-DD (such as 2025-02-01)"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod answer;
mod check;
pub mod client;
mod confirm;
mod form;
mod outcome;
mod parse;
mod revision;
mod schema;
pub mod wizard;

#[cfg(feature = "seal")]
pub mod seal;

#[cfg(feature = "rmcp")]
pub mod mcp;

#[cfg(feature = "rmcp-client")]
pub mod mcp_client;

#[doc(hidden)]
pub mod __private;

pub use answer::{FieldError, MAX_ITEM_PROBLEMS, Problem, Strictness, ValidationErrors, format_ok};
pub use confirm::Confirm;
pub use form::{Choice, Choices, Field, FieldKind, Form, FormError, Format};
pub use outcome::{Action, AnswerError, Elicitation, split_result};
pub use revision::{ParseRevisionError, Revision};
pub use schema::{RequestedSchema, SchemaError};

/// Derives [`Elicit`] for a struct of form fields, or the options of a select for a
/// unit enum. See the crate documentation and the README for the attributes.
#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;

/// Derives [`wizard::Wizard`] for a struct of steps; see the [`wizard`] module.
#[cfg(feature = "derive")]
pub use elicit_derive::Wizard;
pub use wizard::Wizard;

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A type that is an MCP elicitation form.
///
/// Implement it with `#[derive(Elicit, Deserialize)]`: the derive checks the MCP form
/// subset at compile time and builds the form once, in a `static`; serde's derive reads
/// the answer once the form has judged it (see [`Form::validate`]).
///
/// ```
/// use elicit_core::Elicit;
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Debug, PartialEq, Elicit, Deserialize)]
/// #[serde(rename_all = "lowercase")]
/// enum Size {
///     Small,
///     Large,
/// }
///
/// #[derive(Debug, Elicit, Deserialize)]
/// struct Popcorn {
///     size: Size,
///     #[elicit(minimum = 1, maximum = 4)]
///     buckets: u8,
/// }
///
/// let popcorn = Popcorn::from_content(Some(&json!({"size": "large", "buckets": 2})))?;
/// assert_eq!((popcorn.size, popcorn.buckets), (Size::Large, 2));
/// let err = Popcorn::from_content(Some(&json!({"size": "huge", "buckets": 9}))).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "size: \"huge\" is not one of the options; buckets: must be at most 4"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an elicitation form",
    label = "not a form",
    note = "derive it: `#[derive(Elicit, Deserialize)]` on a struct of named fields"
)]
pub trait Elicit: DeserializeOwned {
    /// The oldest protocol revision that can express this form
    /// (2025-11-25 when it has a multi-select).
    const MIN_REVISION: Revision;

    /// The form description, built at compile time.
    fn form() -> &'static Form;

    /// The `requestedSchema` for a peer speaking `revision`; an error when the revision
    /// cannot express the form.
    fn requested_schema(revision: Revision) -> Result<RequestedSchema<'static>, SchemaError> {
        Self::form().requested_schema(revision)
    }

    /// Validates an accepted answer's `content` strictly and reads it.
    fn from_content(content: Option<&Value>) -> Result<Self, AnswerError> {
        Self::from_content_with(content, Strictness::Strict)
    }

    /// Validates an accepted answer's `content` with the given [`Strictness`] and reads it.
    fn from_content_with(
        content: Option<&Value>,
        strictness: Strictness,
    ) -> Result<Self, AnswerError> {
        parse::read(Self::form(), content, strictness)
    }

    /// [`from_content`](Self::from_content) for content the caller owns (a server
    /// holding the client's result): strings move into `Self` instead of being copied.
    /// Same rules, same errors.
    fn from_content_owned(content: Option<Value>) -> Result<Self, AnswerError> {
        Self::from_content_owned_with(content, Strictness::Strict)
    }

    /// [`from_content_owned`](Self::from_content_owned) with the given [`Strictness`].
    fn from_content_owned_with(
        content: Option<Value>,
        strictness: Strictness,
    ) -> Result<Self, AnswerError> {
        parse::read_owned(Self::form(), content, strictness)
    }
}

/// A unit enum deriving `Elicit`: the options of a single or multi-select.
///
/// `#[derive(Elicit)]` on an enum implements it, so the enum can be a field
/// (`size: Size`, `size: Option<Size>`) or the items of a multi-select
/// (`toppings: Vec<Topping>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the item of a multi-select",
    label = "not an enum deriving `Elicit`",
    note = "MCP forms are flat: the only list a form can hold is a multi-select of a unit enum deriving `Elicit` (`Vec<MyEnum>`, `BTreeSet<MyEnum>` or `HashSet<MyEnum>`)"
)]
pub trait Options {
    /// The options in declaration order: wire value (after serde renaming) and title.
    const CHOICES: &'static [Choice];
}

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
