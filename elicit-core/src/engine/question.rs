//! A question as sent ([`Question`]), and the [`Transport`] that sends it.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use serde_json::Value;

use super::AskError;
use super::error::json_string;

/// One question as sent: its key (in `inputRequests`, or the push request's own), the
/// method and the params as JSON text.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Question {
    /// The key: in a round, its key in `inputRequests` and `inputResponses`; in a task,
    /// unique for the life of the task.
    pub key: String,
    /// The JSON-RPC method (`elicitation/create`, `sampling/createMessage`, ...).
    pub method: String,
    /// The params as JSON text, a form's fields in declaration order.
    pub params: String,
    /// A digest of the method and params as sent: equal for equal questions (a cache
    /// key for an adapter that parses questions into its SDK's types).
    pub digest: String,
    /// How long the transport waits for the answer ([`Settings::timeout`]); `None`:
    /// until the call ends. Past it, answer [`AskError::Timeout`].
    ///
    /// [`Settings::timeout`]: super::Settings::timeout
    pub timeout: Option<Duration>,
    /// While it waits, how often the transport tells the client the call is alive
    /// ([`Settings::progress_interval`]: `notifications/progress` for the call's
    /// `progressToken`, when the client sent one); `None`: never.
    ///
    /// [`Settings::progress_interval`]: super::Settings::progress_interval
    pub progress_interval: Option<Duration>,
    /// The digest of the question it answers (without a problem shown above it): what
    /// the round's state pins.
    pub(crate) pin: String,
}

/// Writes the question as JSON text (`to_string()`): `{"method": .., "params": ..}`.
impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"method":{},"params":{}}}"#,
            json_string(&self.method),
            self.params
        )
    }
}

/// How an adapter puts a question in front of the user on the push and task channels,
/// and waits for the answer.
pub trait Transport: Sync {
    /// Sends `question` (push: an `elicitation/create` to the client; task: a question
    /// in the task) and waits for the client's result, at most `question.timeout`
    /// ([`AskError::Timeout`] past it) and no longer than the call lives (the adapter's
    /// cancellation), whichever comes first.
    fn send(&self, question: Question) -> impl Future<Output = Result<Value, AskError>> + Send;

    /// Sends `notice` to the client. The default sends nothing: a transport that cannot
    /// notify leaves the client to learn by itself that a page was answered.
    fn notify(&self, notice: Notice) -> impl Future<Output = Result<(), AskError>> + Send {
        let _ = notice;
        std::future::ready(Ok(()))
    }
}

/// A notification the engine has a [`Transport`] send to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// `notifications/elicitation/complete` (2025-11-25): the page of the URL-mode
    /// elicitation with this `elicitationId` was answered.
    ElicitationComplete(String),
}

impl Notice {
    /// The JSON-RPC method.
    pub fn method(&self) -> &'static str {
        match self {
            Notice::ElicitationComplete(_) => "notifications/elicitation/complete",
        }
    }

    /// The params, as JSON text.
    pub fn params(&self) -> String {
        match self {
            Notice::ElicitationComplete(id) => {
                format!(r#"{{"elicitationId":{}}}"#, json_string(id))
            }
        }
    }
}

/// No transport: a call in rounds never sends. A question pushed or asked in a task
/// through it fails, saying that the call needs the adapter's transport.
impl Transport for () {
    async fn send(&self, _: Question) -> Result<Value, AskError> {
        Err(AskError::Peer(
            "this call pushes its questions (or asks them in a task), but was given no \
             transport: pass the adapter's Transport instead of ()"
                .to_owned(),
        ))
    }
}
