//! What can be wrong with an answer: each field's problems, in words fit to show the
//! user, and why a whole answer could not be read.

use std::borrow::Cow;
use std::fmt;

use crate::form::Format;

/// What is wrong with one answer value.
/// Numbers carried by a variant are the limit and what was sent.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
#[allow(missing_docs)]
pub enum Problem {
    /// A required field is absent (or `null`).
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// What the field takes, in words ("text", "a whole number", ...).
        expected: &'static str,
        /// The JSON type that was sent.
        found: &'static str,
    },
    /// Text shorter than `minLength` (counted in Unicode scalar values).
    TooShort { min: u64, length: u64 },
    /// Text longer than `maxLength`.
    TooLong { max: u64, length: u64 },
    /// Text that does not match the field's format.
    BadFormat(Format),
    /// An integer field got a fractional number.
    NotWhole,
    /// A number below `minimum` (or below what the Rust type holds).
    BelowMinimum { min: String },
    /// A number above `maximum` (or above what the Rust type holds).
    AboveMaximum { max: String },
    /// A select's value is not one of the options offered.
    NotAnOption { value: String },
    /// A multi-select with fewer items than `minItems`.
    TooFewItems { min: u64, count: u64 },
    /// A multi-select with more items than `maxItems`.
    TooManyItems { max: u64, count: u64 },
    /// A multi-select naming the same option twice.
    Duplicate { value: String },
}

/// Longest piece of a client's value repeated in an error message.
const ECHO_LIMIT: usize = 40;

/// The most repeated or unknown values reported for one multi-select.
pub(crate) const MAX_ITEM_PROBLEMS: usize = 10;

pub(crate) fn echo(s: &str) -> String {
    if s.chars().nth(ECHO_LIMIT).is_none() {
        s.to_owned()
    } else {
        let mut cut: String = s.chars().take(ECHO_LIMIT).collect();
        cut.push('…');
        cut
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => f.write_str("an answer is required"),
            Problem::WrongType { expected, found } => write!(f, "expected {expected}, got {found}"),
            Problem::TooShort { min, .. } => {
                write!(f, "must be at least {min} character{}", plural(*min))
            }
            Problem::TooLong { max, .. } => {
                write!(f, "must be at most {max} character{}", plural(*max))
            }
            Problem::BadFormat(Format::Email) => f.write_str("not an e-mail address"),
            Problem::BadFormat(Format::Uri) => {
                f.write_str("not an absolute URI (such as https://example.com/page)")
            }
            Problem::BadFormat(Format::Date) => {
                f.write_str("not a date in the form YYYY-MM-DD (such as 2025-02-01)")
            }
            Problem::BadFormat(Format::DateTime) => f.write_str(
                "not a date and time with offset (RFC 3339, such as 2025-02-01T18:30:00Z)",
            ),
            Problem::NotWhole => f.write_str("must be a whole number"),
            Problem::BelowMinimum { min } => write!(f, "must be at least {min}"),
            Problem::AboveMaximum { max } => write!(f, "must be at most {max}"),
            Problem::NotAnOption { value } => write!(f, "{value:?} is not one of the options"),
            Problem::TooFewItems { min, .. } => {
                write!(f, "choose at least {min} option{}", plural(*min))
            }
            Problem::TooManyItems { max, .. } => {
                write!(f, "choose at most {max} option{}", plural(*max))
            }
            Problem::Duplicate { value } => write!(f, "{value:?} is chosen more than once"),
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One problem with one field.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FieldError {
    /// The field's wire name.
    pub field: Cow<'static, str>,
    /// The field's title (or wire name), as messages name it.
    pub label: Cow<'static, str>,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.label, self.problem)
    }
}

/// Every problem found in one answer, in field order.
///
/// `Display` renders a message fit to show the user when asking again:
/// `"E-mail: not an e-mail address; Retention days: must be at most 365"`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationErrors {
    errors: Vec<FieldError>,
}

impl ValidationErrors {
    pub(crate) fn new(errors: Vec<FieldError>) -> ValidationErrors {
        ValidationErrors { errors }
    }

    /// The problems, in field order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl IntoIterator for ValidationErrors {
    type Item = FieldError;
    type IntoIter = std::vec::IntoIter<FieldError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

/// Why a client's answer could not be turned into an [`Elicitation`](crate::Elicitation).
#[derive(Debug)]
#[non_exhaustive]
pub enum AnswerError {
    /// The action is not `accept`, `decline` or `cancel`.
    UnknownAction(String),
    /// The result is not an object with an `action` string.
    Malformed(&'static str),
    /// `content` is not an object.
    #[non_exhaustive]
    NotAnObject {
        /// The JSON type that was sent.
        found: &'static str,
    },
    /// The answer breaks the form's constraints; `Display` is fit to show the user.
    Invalid(ValidationErrors),
    /// The answer passed validation but the type's `Deserialize` refused it
    /// (a custom deserializer with rules of its own).
    Parse(serde_json::Error),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::UnknownAction(a) => write!(
                f,
                "unknown elicitation action {a:?}: expected \"accept\", \"decline\" or \"cancel\""
            ),
            AnswerError::Malformed(what) => write!(f, "malformed elicitation result: {what}"),
            AnswerError::NotAnObject { found } => {
                write!(
                    f,
                    "the answer must be an object of field values, got {found}"
                )
            }
            AnswerError::Invalid(e) => e.fmt(f),
            AnswerError::Parse(e) => write!(f, "the answer could not be read: {e}"),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnswerError::Parse(e) => Some(e),
            _ => None,
        }
    }
}
