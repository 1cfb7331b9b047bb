//! What a form is, and what may be sent as one: the model (fields and their kinds), the
//! MCP form subset's rules (checked when a form is built at run time; the derive checks
//! the same at compile time), the protocol revisions, and the `requestedSchema` for
//! each revision.
//!
//! Depends on nothing else in the crate.

mod format;
mod model;
mod revision;
pub(crate) mod rules;
mod schema;

pub use format::Format;
pub(crate) use model::int_value;
pub use model::{Choice, Choices, Field, FieldKind, Form, FormError, Options};
pub use revision::Revision;
pub use schema::RequestedSchema;
