//! Why a question stopped a call, and the JSON-RPC error to answer with.

use std::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use super::Question;
use crate::answer::AnswerError;
use crate::form::{FormError, Revision};
use crate::wizard::WizardError;

/// Why a question could not be asked or answered.
#[derive(Debug)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability (`elicitation`, its form or URL mode)
    /// on this revision, or speaks a revision without elicitation.
    Unsupported {
        /// `"form"` or `"url"`; `"sampling"` or `"roots"` for those requests; `"tasks"`
        /// for the Tasks extension; `"input"` for an input request outside rounds and
        /// tasks.
        mode: &'static str,
        /// The negotiated revision, when it is one elicitation knows.
        revision: Option<Revision>,
    },
    /// The revision cannot express the form (a multi-select on 2025-06-18).
    Schema(FormError),
    /// The answer was malformed, or still invalid after every attempt.
    Answer(AnswerError),
    /// A wizard could not go on.
    Wizard(WizardError),
    /// Nobody answered within the timeout.
    Timeout(Duration),
    /// The call was cancelled, or the connection closed, while waiting.
    Cancelled,
    /// The connection failed.
    Peer(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported { mode: "tasks", .. } => f.write_str(
                "the client cannot run this tool as a task: it did not declare the \
                 io.modelcontextprotocol/tasks extension (protocol 2026-07-28 or later)",
            ),
            AskError::Unsupported { mode, .. } if matches!(*mode, "sampling" | "roots") => {
                write!(
                    f,
                    "the client does not take {mode} requests: it did not declare the capability"
                )
            }
            AskError::Unsupported {
                mode: "input",
                revision,
            } => match revision {
                Some(r) => write!(
                    f,
                    "input requests need a 2026-07-28 call in rounds or a task (protocol {r})"
                ),
                None => f.write_str("input requests need a 2026-07-28 call in rounds or a task"),
            },
            AskError::Unsupported { mode, revision } => match revision {
                Some(r) => write!(
                    f,
                    "the client cannot show {mode}-mode elicitations: it did not declare the capability (protocol {r})"
                ),
                None => write!(
                    f,
                    "the client cannot show {mode}-mode elicitations: its protocol version has no elicitation"
                ),
            },
            AskError::Schema(e) => e.fmt(f),
            AskError::Answer(e) => write!(f, "the answer was not usable: {e}"),
            AskError::Wizard(e) => e.fmt(f),
            AskError::Timeout(t) if t.as_secs() >= 1 && t.subsec_millis() == 0 => {
                write!(f, "nobody answered within {} s", t.as_secs())
            }
            AskError::Timeout(t) => write!(f, "nobody answered within {} ms", t.as_millis()),
            AskError::Cancelled => {
                f.write_str("the request was cancelled while waiting for an answer")
            }
            AskError::Peer(e) => write!(f, "the connection failed while asking: {e}"),
        }
    }
}

impl std::error::Error for AskError {}

/// The JSON-RPC error to answer the call with. A missing capability is `-32021` with
/// `data.requiredCapabilities` on 2026-07-28 and `invalid request` (`-32600`) before; an
/// unusable answer is `invalid params` (`-32602`); the rest are internal errors (`-32603`).
impl From<&AskError> for RpcError {
    fn from(e: &AskError) -> RpcError {
        let message = e.to_string();
        match e {
            AskError::Unsupported {
                mode,
                revision: Some(r),
            } if r.has_rounds() => {
                let required = match *mode {
                    "tasks" => json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
                    "sampling" | "roots" => json!({ *mode: {} }),
                    _ => json!({ "elicitation": { *mode: {} } }),
                };
                RpcError::new(
                    RpcError::MISSING_CAPABILITY,
                    message,
                    Some(json!({ "requiredCapabilities": required })),
                )
            }
            AskError::Unsupported { .. } => RpcError::new(RpcError::INVALID_REQUEST, message, None),
            AskError::Answer(_) => RpcError::new(RpcError::INVALID_PARAMS, message, None),
            _ => RpcError::new(RpcError::INTERNAL_ERROR, message, None),
        }
    }
}

/// A JSON-RPC error object: what to answer a request with when a call cannot go on.
///
/// It serializes as the `error` member of a JSON-RPC response (`data` left out when
/// there is none):
///
/// ```
/// use elicit_core::engine::RpcError;
///
/// let error = RpcError::new(-32602, "no such tool", None);
/// let response = serde_json::json!({"jsonrpc": "2.0", "id": 7, "error": error});
/// assert_eq!(response["error"], serde_json::json!({"code": -32602, "message": "no such tool"}));
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct RpcError {
    /// The error code (`-32602` invalid params, `-32021` a missing capability, ...).
    pub code: i64,
    /// The message, in words fit to show.
    pub message: String,
    /// Details, as the spec defines them for the code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    pub(super) const INVALID_REQUEST: i64 = -32600;
    pub(super) const INVALID_PARAMS: i64 = -32602;
    pub(super) const INTERNAL_ERROR: i64 = -32603;
    pub(super) const MISSING_CAPABILITY: i64 = -32021;

    /// An error with `code`, `message` and `data`.
    pub fn new(code: i64, message: impl Into<String>, data: Option<Value>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data,
        }
    }

    pub(super) fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(Self::INVALID_PARAMS, message, None)
    }

    pub(super) fn internal(message: impl Into<String>) -> RpcError {
        RpcError::new(Self::INTERNAL_ERROR, message, None)
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RpcError {}

/// Why a question stopped the call before its answer: the call waits for input
/// (2026-07-28 rounds), the question failed, or the call's state was refused. `?` on
/// any question propagates it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Halt {
    /// The call needs answers first: the `input_required` result to answer it with.
    InputRequired(InputRequired),
    /// A question could not be asked or answered.
    Ask(AskError),
    /// The call cannot go on: its state was refused or replayed, or does not fit the
    /// tool any more; answer with this error.
    Refused(RpcError),
    /// The question waits on a page, for a client that takes no URL-mode elicitation:
    /// answer the call with a tool result that shows the person the link
    /// ([`PageLink::text`]); the same tool called again with the same arguments goes on
    /// with the page's answer.
    Link(PageLink),
}

/// A page's link for the person, for a client with no URL mode (see [`Halt::Link`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PageLink {
    /// Where the page is.
    pub url: String,
    /// The question, as the page shows it.
    pub message: String,
}

impl PageLink {
    /// The link `url` to a page asking `message`.
    pub fn new(url: impl Into<String>, message: impl Into<String>) -> PageLink {
        PageLink {
            url: url.into(),
            message: message.into(),
        }
    }

    /// The text of the tool result: the question and the link for the person, and a
    /// sentence for the model.
    ///
    /// ```
    /// use elicit_core::engine::PageLink;
    ///
    /// let link = PageLink::new("https://example.com/elicit/p/x", "Which seat?");
    /// assert!(link.text().starts_with("Which seat?\n\nTo answer, open this page: https://example.com/elicit/p/x"));
    /// ```
    pub fn text(&self) -> String {
        format!(
            "{}\n\nTo answer, open this page: {}\n\n(For the assistant: this question is for the \
             person. Show them the link; do not open it or answer it yourself. When they say \
             they have answered, call this tool again with the same arguments.)",
            self.message, self.url
        )
    }
}

impl From<AskError> for Halt {
    fn from(e: AskError) -> Halt {
        Halt::Ask(e)
    }
}

impl Halt {
    /// What to answer the call with: the `input_required` result, or the JSON-RPC
    /// error. A [`Halt::Link`] is meant for a tool result (see [`PageLink::text`]);
    /// here it becomes an `invalid request` error carrying that text.
    pub fn into_result(self) -> Result<InputRequired, RpcError> {
        match self {
            Halt::InputRequired(round) => Ok(round),
            Halt::Ask(e) => Err(RpcError::from(&e)),
            Halt::Refused(e) => Err(e),
            Halt::Link(link) => Err(RpcError::new(-32600, link.text(), None)),
        }
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::InputRequired(r) => {
                write!(f, "waiting for {} input request(s)", r.requests.len())
            }
            Halt::Ask(e) => e.fmt(f),
            Halt::Refused(e) => e.fmt(f),
            Halt::Link(link) => write!(f, "waiting for the page {}", link.url),
        }
    }
}

impl std::error::Error for Halt {}

/// An `input_required` result (2026-07-28): the questions of a round and the sealed
/// state of the call.
#[derive(Debug)]
#[non_exhaustive]
pub struct InputRequired {
    /// The questions, each under its key in `inputRequests`.
    pub requests: Vec<Question>,
    /// The sealed `requestState`.
    pub state: String,
}

/// Writes the whole result as JSON text (`to_string()`), each question's params as
/// written (a form's fields in declaration order): `{"resultType": "input_required",
/// "inputRequests": {..}, "requestState": ".."}`.
impl fmt::Display for InputRequired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"{"resultType":"input_required","inputRequests":{"#)?;
        for (i, r) in self.requests.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{r}", json_string(&r.key))?;
        }
        write!(f, r#"}},"requestState":{}}}"#, json_string(&self.state))
    }
}

/// `text` as a JSON string.
pub(super) fn json_string(text: &str) -> String {
    // A string always serializes.
    serde_json::to_string(text).unwrap_or_default()
}
