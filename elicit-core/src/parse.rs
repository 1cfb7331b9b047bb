//! The one answer pipeline: [`Form::validate`] judges the content and gives back the
//! answer as the form reads it, then the type's own `Deserialize` reads that. Every way
//! an answer comes in (a form, a wizard step, an MCP round, a client's reply) goes
//! through here.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::answer::Strictness;
use crate::form::Form;
use crate::outcome::AnswerError;

/// Validates `content` against `form` and reads it as `T`.
pub(crate) fn read<T: DeserializeOwned>(
    form: &Form,
    content: Option<&Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let valid = form.validate(content, strictness)?;
    read_valid(&valid)
}

/// [`read`] of content the caller owns: strings move into `T` instead of being copied.
pub(crate) fn read_owned<T: DeserializeOwned>(
    form: &Form,
    content: Option<Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let valid = form.validate_owned(content, strictness)?;
    T::deserialize(valid).map_err(AnswerError::Parse)
}

/// Reads an answer [`Form::validate`] gave back as `T`.
pub(crate) fn read_valid<T: DeserializeOwned>(valid: &Value) -> Result<T, AnswerError> {
    T::deserialize(valid).map_err(AnswerError::Parse)
}
