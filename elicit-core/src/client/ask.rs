//! What a client needs to put a form in front of a person: the question, the
//! person's reply validated with the server side's own validator, the `ElicitResult`.

use serde_json::{Map, Value};

use crate::answer::{Action, AnswerError, Elicitation, Strictness};
use crate::form::Form;

/// How the user ended the form: an [`Elicitation`] whose accepted content is the
/// validated answers, as the client sends them back.
///
/// It serializes as the `ElicitResult` to send back: `{"action": "accept", "content":
/// {..}}`, `{"action": "decline"}` or `{"action": "cancel"}`.
///
/// ```
/// use elicit_core::client::Reply;
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(Reply::Decline)?, json!({"action": "decline"}));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub type Reply = Elicitation<Map<String, Value>>;

impl Elicitation<Map<String, Value>> {
    /// Validates the user's answers against `form` with the server side's validator
    /// ([strict](Strictness::Strict): a number is a JSON number, not text), filling
    /// defaults for fields left untouched: the [`Reply`] to send.
    pub fn validated(form: &Form, answers: Value) -> Result<Reply, AnswerError> {
        match form.validate_owned(Some(answers), Strictness::Strict)? {
            Value::Object(map) => Ok(Reply::Accept(map)),
            // `validate` only passes objects (or fills an empty one).
            _ => Ok(Reply::Accept(Map::new())),
        }
    }

    // Hidden: the old name, kept for one release; it shared its name with the variant
    // `Reply::Accept`, which does not validate.
    #[doc(hidden)]
    #[deprecated(note = "renamed to `Reply::validated`")]
    pub fn accept(form: &Form, answers: Value) -> Result<Reply, AnswerError> {
        Reply::validated(form, answers)
    }
}

/// One form to put in front of a person.
#[derive(Clone, Copy, Debug)]
pub struct Question<'a> {
    /// The name of the server that asks (show it first: the user must know who asks).
    pub server: Option<&'a str>,
    /// The server's message.
    pub message: &'a str,
    /// The fields, read from the server's schema.
    pub form: &'a Form,
}

/// Something that asks a human: a terminal, a GUI, a chat surface, a script.
///
/// Implementations must offer decline and cancel as distinct choices and should
/// validate with [`Reply::validated`] before answering.
///
/// A closure `Fn(Question<'_>) -> Reply` is an `Asker` too (for tests and simple
/// unattended clients); name the argument's type so that it takes any lifetime:
///
/// ```
/// use elicit_core::client::{Asker, Question, Reply};
///
/// fn takes(asker: impl Asker) {}
/// takes(|_: Question<'_>| Reply::Decline);
/// ```
pub trait Asker: Send + Sync {
    /// Puts `question` in front of the user and returns how they ended it.
    fn ask(&self, question: Question<'_>) -> impl std::future::Future<Output = Reply> + Send;

    /// A URL-mode elicitation: ask whether to open `url` (never open it unasked).
    /// Declines unless implemented.
    fn ask_url(
        &self,
        server: Option<&str>,
        message: &str,
        url: &str,
    ) -> impl std::future::Future<Output = Action> + Send {
        let _ = (server, message, url);
        std::future::ready(Action::Decline)
    }

    /// A request from `server` was refused without asking: its schema is outside the MCP
    /// form subset or past a limit ([`SchemaRefused`](crate::client::SchemaRefused)), or
    /// its message or URL is too long. `why` names the place and the limit (server text
    /// in it is raw: pass it through [`safe_text`](crate::client::safe_text) to show it).
    /// The server is answered `-32602` whatever this does; it does nothing unless
    /// implemented.
    fn refused(&self, server: Option<&str>, why: &str) {
        let _ = (server, why);
    }

    /// How far a long call got: a task's status message, each time it changes (see
    /// `call_tool` of `elicit_rmcp::client`). The text is raw server text:
    /// pass it through [`safe_text`](crate::client::safe_text) to show it. Does nothing
    /// unless implemented.
    fn progress(&self, server: Option<&str>, message: &str) {
        let _ = (server, message);
    }
}

/// A closure as an [`Asker`]: it answers every form at once; URL mode declines.
impl<F> Asker for F
where
    F: Fn(Question<'_>) -> Reply + Send + Sync,
{
    fn ask(&self, question: Question<'_>) -> impl std::future::Future<Output = Reply> + Send {
        std::future::ready(self(question))
    }
}
