//! A question as sent ([`Question`]), and the [`Transport`] that sends it.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
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
    /// The call's `progressToken` (a string or an integer), for [`Question::keep_alive`].
    pub(crate) progress_token: Option<Value>,
    /// How many keep-alives were made.
    pub(crate) ticks: Arc<AtomicU32>,
    /// The digest of the question it answers (without a problem shown above it): what
    /// the round's state pins.
    pub(crate) pin: String,
}

impl Question {
    /// The notification that tells the client the call is alive, to send each time the
    /// question's [`progress_interval`](Self::progress_interval) passes without an
    /// answer: `notifications/progress` for the call's `progressToken`, its `progress`
    /// 1, 2, 3, ... (each call counts one more interval). `None` when the call has no
    /// token or the engine sends no keep-alives. A transport on any runtime calls it from
    /// its own timer.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use elicit_core::engine::{AskError, Engine, Peer, Question, Transport};
    /// use elicit_core::{Elicit, Revision, seal::Keyring};
    /// use serde_json::{Value, json};
    ///
    /// #[derive(Elicit, serde::Deserialize)]
    /// struct Approve { approve: bool }
    ///
    /// /// Writes what it would send; the person declines after two intervals.
    /// #[derive(Default)]
    /// struct Stdout(Mutex<Vec<String>>);
    ///
    /// impl Transport for Stdout {
    ///     async fn send(&self, question: Question) -> Result<Value, AskError> {
    ///         for _ in 1..=2 { // each time `question.progress_interval` passes
    ///             if let Some(notice) = question.keep_alive() {
    ///                 self.0.lock().unwrap().push(notice.to_string());
    ///             }
    ///         }
    ///         Ok(json!({"action": "decline"}))
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let engine = Engine::new(Keyring::generate());
    /// let client = Peer::new(Some(Revision::V2025_11_25), &json!({"elicitation": {}}));
    /// let params = json!({"name": "purge", "arguments": {}, "_meta": {"progressToken": 7}});
    /// let mut call = engine.open("", "tools/call", &params, &client)?;
    /// let stdout = Stdout::default();
    /// block_on(call.ask::<Approve>(&stdout, "Delete them?"))?;
    /// assert_eq!(stdout.0.lock().unwrap()[1], r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,"message":"waiting for the person to answer the form"}}"#);
    /// # Ok(()) }
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// ```
    pub fn keep_alive(&self) -> Option<Notice> {
        self.progress_interval?;
        let token = self.progress_token.clone()?;
        let ticks = self.ticks.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        Some(Notice::Progress { token, ticks })
    }
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
    /// `notifications/progress`: the call whose `progressToken` this is (a string or
    /// an integer) is alive, waiting for the person; `ticks` is its `progress`.
    Progress {
        /// The call's `progressToken`.
        token: Value,
        /// How many intervals it has waited.
        ticks: u32,
    },
}

impl Notice {
    /// The JSON-RPC method.
    pub fn method(&self) -> &'static str {
        match self {
            Notice::ElicitationComplete(_) => "notifications/elicitation/complete",
            Notice::Progress { .. } => "notifications/progress",
        }
    }

    /// The params, as JSON text.
    pub fn params(&self) -> String {
        match self {
            Notice::ElicitationComplete(id) => {
                format!(r#"{{"elicitationId":{}}}"#, json_string(id))
            }
            Notice::Progress { token, ticks } => format!(
                r#"{{"progressToken":{token},"progress":{ticks},"message":"waiting for the person to answer the form"}}"#
            ),
        }
    }
}

/// Writes the notification as a JSON-RPC message:
/// `{"jsonrpc":"2.0","method":..,"params":..}`.
impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"jsonrpc":"2.0","method":{},"params":{}}}"#,
            json_string(self.method()),
            self.params()
        )
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
