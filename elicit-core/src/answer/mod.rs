//! What the user answered: validation of an accepted answer against exactly the
//! constraints its form emitted, every problem of every field in words fit to show
//! the user, and the typed outcome (accept with the value, decline, cancel).
//!
//! One pipeline reads every answer, whichever way it comes in (a form, a wizard step,
//! an MCP round, a client's reply): [`Form::validate`] judges the content and gives back
//! the answer as the form reads it, then the type's own `Deserialize` reads that.
//!
//! Depends on [`form`](crate::form).

mod confirm;
mod elicitation;
mod error;
#[cfg(test)]
mod properties;
mod validate;

pub use confirm::Confirm;
#[cfg(feature = "seal")]
pub(crate) use elicitation::split_result;
#[cfg(feature = "seal")]
pub(crate) use elicitation::split_result_owned;
pub use elicitation::{Action, Elicitation};
pub use error::{AnswerError, FieldError, Problem, ValidationErrors};
#[cfg(all(test, feature = "seal"))]
pub(crate) use validate::CHECKED;
pub use validate::Strictness;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::form::{Form, FormError, RequestedSchema, Revision};

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
    /// The form description, built at compile time.
    fn form() -> &'static Form;

    /// The `requestedSchema` for a peer speaking `revision`; an error when the revision
    /// cannot express the form (a multi-select needs 2025-11-25 or later).
    fn requested_schema(revision: Revision) -> Result<RequestedSchema<'static>, FormError> {
        Self::form().requested_schema(revision)
    }

    /// Validates an accepted answer's `content` strictly and reads it. For another
    /// [`Strictness`], or for the whole `ElicitResult`, see [`Elicitation`].
    fn from_content(content: Option<&Value>) -> Result<Self, AnswerError> {
        read(Self::form(), content, Strictness::Strict)
    }
}

/// A form that may be asked in form mode: it has no secret field.
///
/// MCP forbids asking for passwords, API keys, tokens or payment details in form mode;
/// they are asked on a web page (URL mode). `#[derive(Elicit)]` implements this trait for
/// every form with no field marked `#[elicit(secret)]` (and for every enum of options),
/// and the ways of asking in form mode (the engine's `Call::ask` and `Input::form`, an
/// adapter's `ask`, a wizard's steps) require it, so asking a form with a secret there
/// does not compile. A hand-written `Elicit` impl whose form has no secret adds
/// `impl NoSecrets for MyForm {}`.
///
/// ```
/// use elicit_core::{Elicit, ExposeSecret, NoSecrets, SecretString};
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Elicit, Deserialize)]
/// struct Contact {
///     #[elicit(format = "email")]
///     email: String,
/// }
///
/// #[derive(Debug, Elicit, Deserialize)]
/// struct ApiKey {
///     /// The key from your account page.
///     #[elicit(secret, min_length = 20)]
///     api_key: SecretString,
/// }
///
/// fn ask_in_a_form<T: Elicit + NoSecrets>() -> bool {
///     !T::form().has_secret()
/// }
/// assert!(ask_in_a_form::<Contact>());
/// // `ask_in_a_form::<ApiKey>()` does not compile: `ApiKey` has a secret field.
///
/// // A secret form has no `requestedSchema`; its page's answer reads as any other.
/// assert!(ApiKey::requested_schema(elicit_core::Revision::LATEST).is_err());
/// let key = ApiKey::from_content(Some(&json!({"api_key": "sk-0123456789abcdefghij"})))?;
/// assert_eq!(key.api_key.expose_secret(), "sk-0123456789abcdefghij");
/// assert!(!format!("{key:?}").contains("sk-"));
/// # Ok::<(), elicit_core::AnswerError>(())
/// ```
///
/// ```compile_fail,E0277
/// # use elicit_core::{Elicit, NoSecrets, SecretString};
/// # #[derive(Elicit, serde::Deserialize)]
/// # struct ApiKey { #[elicit(secret)] api_key: SecretString }
/// fn ask_in_a_form<T: Elicit + NoSecrets>() {}
/// ask_in_a_form::<ApiKey>(); // `ApiKey` has a secret field, so it cannot be asked in a form
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has a secret field, so it cannot be asked in a form",
    label = "asked in form mode here",
    note = "MCP forbids asking for passwords, tokens, API keys or payment details in form mode: ask `{Self}` on a web page instead (URL mode), with `call.ask_on_page::<{Self}>(..)`, or with elicit-rmcp `session.ask_on_page::<{Self}>(..)`",
    note = "a hand-written `Elicit` impl whose form has no secret field adds `impl elicit_core::NoSecrets for {Self} {{}}`"
)]
pub trait NoSecrets {}

/// Validates `content` against `form` and reads it as `T`.
pub(crate) fn read<T: DeserializeOwned>(
    form: &Form,
    content: Option<&Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let valid = form.validate(content, strictness)?;
    read_valid(&valid)
}

/// Reads an answer [`Form::validate`] gave back as `T`.
pub(crate) fn read_valid<T: DeserializeOwned>(valid: &Value) -> Result<T, AnswerError> {
    T::deserialize(valid).map_err(AnswerError::Parse)
}
