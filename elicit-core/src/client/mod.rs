//! The client side: read a server's untrusted `requestedSchema` into a [`Form`](crate::Form), let
//! something that asks a human fill it, validate the answers with the very validator the
//! server side uses, and build the `ElicitResult`.
//!
//! ```
//! use elicit_core::client::{Reply, read_schema};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "size": {"type": "string", "title": "Size",
//!                  "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
//!                  "default": "s"},
//!         "buckets": {"type": "integer", "minimum": 1, "maximum": 4}
//!     },
//!     "required": ["buckets"]
//! });
//! let form = read_schema(&schema.to_string())?;
//! let size = form.field("size").unwrap();
//! assert_eq!(size.kind.options().unwrap()[1].label(), "Large");
//!
//! // The user typed only the buckets; the default fills the size.
//! let reply = Reply::validated(&form, json!({"buckets": 2}))?;
//! // It serializes as the `ElicitResult` to send back.
//! assert_eq!(
//!     serde_json::to_value(&reply)?,
//!     json!({"action": "accept", "content": {"buckets": 2, "size": "s"}})
//! );
//! // Out of bounds: a message fit to show the user, field by field.
//! assert!(Reply::validated(&form, json!({"buckets": 9})).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A schema outside the MCP subset — a nested object, `pattern`, an unknown format, an
//! array that is not one of the two multi-select shapes, `enumNames` of the wrong length,
//! a default that is not an option — is refused with a [`SchemaRefused`] naming the
//! place, never rendered half-way. Return it to the server as `-32602` (invalid params).
//!
//! Everything a server sends is untrusted. [`safe_text`] makes any of its strings safe to
//! print (escape sequences removed, control characters made visible): pass every server
//! string through it before showing it. Reading is bounded by these limits, each named in
//! the error past it:
//!
//! | What | Most |
//! |---|---|
//! | a title, an option value, an option title | 4 KiB (4,096 bytes) |
//! | a message ([`check_message`]), a description, a text default | 64 KiB (65,536 bytes) |
//! | a property name | 256 bytes |
//! | the whole schema's text | 1 MiB (1,048,576 bytes), refused before it is parsed |
//! | fields of one form | 1,000 |
//! | options of one choice or multi-select | 1,000 |
//!
//! A multi-select `default` longer than its list of options is refused before a
//! single item is compared, and a default that breaks its own field's bounds (longer
//! than its `maxLength`, outside `minimum..=maximum`) is refused too.
//!
//! ```
//! use elicit_core::client::{read_schema, safe_text};
//! use serde_json::json;
//!
//! assert_eq!(safe_text("Delete\x1b[8m everything"), "Delete everything");
//!
//! let options: Vec<String> = (0..=1000).map(|i| i.to_string()).collect();
//! let schema = json!({"type": "object", "properties": {"n": {"type": "string", "enum": options}}});
//! let refused = read_schema(&schema.to_string()).unwrap_err();
//! assert!(refused.reason.contains("1000"), "{}", refused.reason);
//! ```

mod ask;
mod schema;
mod text;

pub use ask::{Asker, Question, Reply};
pub use schema::{SchemaRefused, read_schema};
pub use text::{check_message, safe_text};
