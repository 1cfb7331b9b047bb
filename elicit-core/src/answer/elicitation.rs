//! The three ways a user ends a form, and turning a client's `ElicitResult` into one.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::answer::{AnswerError, Elicit, Strictness, read};

/// How the user ended an elicitation: the one accept / decline / cancel type, typed
/// (`Elicitation<T>` for a form `T`), as a client sends it back
/// (the client kit's `client::Reply` is `Elicitation<Map<String, Value>>`).
///
/// It serializes as an `ElicitResult`: `{"action": "accept", "content": ..}`,
/// `{"action": "decline"}` or `{"action": "cancel"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "action", content = "content", rename_all = "lowercase")]
pub enum Elicitation<T> {
    /// The user submitted the form; the answer is validated and typed.
    Accept(T),
    /// The user explicitly said no.
    Decline,
    /// The user dismissed the form without deciding.
    Cancel,
}

/// The `action` of an `ElicitResult`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `"accept"`
    Accept,
    /// `"decline"`
    Decline,
    /// `"cancel"`
    Cancel,
}

impl Action {
    /// The wire string.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Cancel => "cancel",
        }
    }
}

impl FromStr for Action {
    type Err = AnswerError;

    /// Parses the wire string; anything but the three actions is an error.
    fn from_str(s: &str) -> Result<Action, AnswerError> {
        match s {
            "accept" => Ok(Action::Accept),
            "decline" => Ok(Action::Decline),
            "cancel" => Ok(Action::Cancel),
            other => Err(AnswerError::UnknownAction(other.chars().take(40).collect())),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<T> Elicitation<T> {
    /// The action this outcome stands for.
    pub fn action(&self) -> Action {
        match self {
            Elicitation::Accept(_) => Action::Accept,
            Elicitation::Decline => Action::Decline,
            Elicitation::Cancel => Action::Cancel,
        }
    }

    /// Maps the accepted value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Elicitation<U> {
        match self {
            Elicitation::Accept(v) => Elicitation::Accept(f(v)),
            Elicitation::Decline => Elicitation::Decline,
            Elicitation::Cancel => Elicitation::Cancel,
        }
    }
}

impl<T: Elicit> Elicitation<T> {
    /// Reads a client's `ElicitResult` given as its `action` and `content`, validated
    /// with `strictness`.
    fn from_result_with(
        action: Action,
        content: Option<&Value>,
        strictness: Strictness,
    ) -> Result<Self, AnswerError> {
        Ok(match action {
            Action::Accept => Elicitation::Accept(read(T::form(), content, strictness)?),
            Action::Decline => Elicitation::Decline,
            Action::Cancel => Elicitation::Cancel,
        })
    }

    /// Reads a whole `ElicitResult` object, `{"action": "accept", "content": {..}}`, as
    /// it arrives from a client: the action as text, the content if any.
    ///
    /// ```
    /// # use elicit_core::{Elicit, Elicitation};
    /// # use serde::Deserialize;
    /// # use serde_json::json;
    /// # #[derive(Elicit, Deserialize)]
    /// # struct Approve { approve: bool }
    /// let result = json!({"action": "accept", "content": {"approve": true}});
    /// assert!(matches!(Elicitation::<Approve>::from_value(&result)?, Elicitation::Accept(a) if a.approve));
    /// let result = json!({"action": "decline"});
    /// assert!(matches!(Elicitation::<Approve>::from_value(&result)?, Elicitation::Decline));
    /// # Ok::<(), elicit_core::AnswerError>(())
    /// ```
    pub fn from_value(result: &Value) -> Result<Self, AnswerError> {
        let (action, content) = split_result(result)?;
        Self::from_result_with(action, content, Strictness::Strict)
    }
}

/// Splits an `ElicitResult` object into its action and content.
pub(crate) fn split_result(result: &Value) -> Result<(Action, Option<&Value>), AnswerError> {
    let Value::Object(map) = result else {
        return Err(AnswerError::Malformed(NOT_AN_OBJECT));
    };
    let Some(Value::String(action)) = map.get("action") else {
        return Err(AnswerError::Malformed(NO_ACTION));
    };
    Ok((action.parse()?, map.get("content")))
}

/// [`split_result`] for a result the caller owns: the action and the content move out.
#[cfg(feature = "seal")]
pub(crate) fn split_result_owned(result: Value) -> Result<(Action, Option<Value>), AnswerError> {
    let Value::Object(mut map) = result else {
        return Err(AnswerError::Malformed(NOT_AN_OBJECT));
    };
    let content = map.remove("content");
    let Some(Value::String(action)) = map.remove("action") else {
        return Err(AnswerError::Malformed(NO_ACTION));
    };
    Ok((action.parse()?, content))
}

const NOT_AN_OBJECT: &str = "the result is not an object";
const NO_ACTION: &str = "`action` is missing or not a string";
