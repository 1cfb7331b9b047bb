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
//! // The client's `ElicitResult`: accept (with the answers), decline or cancel.
//! let result = json!({"action": "accept", "content": {"checkAlternatives": true, "newDate": "2025-02-03"}});
//! match Elicitation::<Alternatives>::from_value(&result)? {
//!     Elicitation::Accept(a) if a.check_alternatives => {
//!         assert_eq!(a.new_date.as_deref(), Some("2025-02-03"))
//!     }
//!     Elicitation::Accept(_) | Elicitation::Decline => { /* the user said no */ }
//!     Elicitation::Cancel => { /* the user dismissed the form */ }
//! }
//!
//! let bad = json!({"action": "accept", "content": {"checkAlternatives": true, "newDate": "Feb 3"}});
//! let err = Elicitation::<Alternatives>::from_value(&bad).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "New Date: not a date in the form YYYY-MM-DD (such as 2025-02-01)"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod answer;
pub mod client;
mod form;
pub mod wizard;

#[cfg(feature = "seal")]
pub mod engine;
#[cfg(feature = "seal")]
pub mod seal;
#[cfg(feature = "seal")]
pub mod store;
#[cfg(feature = "web")]
pub mod web;

#[doc(hidden)]
pub mod __private;

// The traits the derives' checks name, hidden here too: a compile error names a trait by
// its public path, and this one keeps `__private` out of what a user reads.
#[doc(hidden)]
pub use __private::{
    BoolDefault, FloatDefault, FormField, IntDefault, ListDefault, MultiSelectField, NumericField,
    PlainStep, SecretField, SecretProbe, SelectField, StrDefault, TextField, Unmarked, WizardStep,
};

pub use answer::{
    Action, AnswerError, Confirm, Elicit, Elicitation, FieldError, NoSecrets, Problem, Strictness,
    ValidationErrors,
};
pub use form::{
    Choice, Choices, Field, FieldKind, Form, FormError, Format, Options, RequestedSchema, Revision,
};
/// The type of a field marked `#[elicit(secret)]` (a password, an API key, a token):
/// text whose `Debug` output shows no value and whose memory is wiped when dropped.
/// Read it with [`ExposeSecret::expose_secret`]. Re-exported from the `secrecy` crate.
pub use secrecy::{ExposeSecret, SecretString};

/// Derives [`Elicit`] for a struct of form fields, or the options of a select for a
/// unit enum. The attributes are described in `docs/attributes.md` in the repository.
#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;

/// Derives [`wizard::Wizard`] for a struct of steps; see the [`wizard`] module.
#[cfg(feature = "derive")]
pub use elicit_derive::Wizard;
pub use wizard::Wizard;

/// The example of this crate's README (its page on crates.io), compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/attributes.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/attributes.md")]
pub struct AttributesDoctests;

/// The examples of `docs/wizards.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/wizards.md")]
pub struct WizardsDoctests;

/// The examples of `docs/any-server.md`, compiled as doctests (the wizard example runs with
/// the `seal` feature and is empty without it).
#[cfg(doctest)]
#[doc = include_str!("../../docs/any-server.md")]
pub struct AnyServerDoctests;

/// The examples of `docs/client-profiles.md`, compiled as doctests (with the `seal`
/// feature, which the engine needs).
#[cfg(all(doctest, feature = "seal"))]
#[doc = include_str!("../../docs/client-profiles.md")]
pub struct ClientProfilesDoctests;
