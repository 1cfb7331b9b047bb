//! What a client needs to put a form in front of a person: the question, the
//! person's reply validated with the server side's own validator, the `ElicitResult`.

use serde_json::{Map, Value};

use crate::answer::{Action, AnswerError, Strictness};
use crate::form::Form;

/// How the user ended the form.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Submitted, with the validated answers (defaults filled in).
    Accept(Map<String, Value>),
    /// Said no.
    Decline,
    /// Dismissed the form (closed it, pressed Esc).
    Cancel,
}

impl Reply {
    /// Validates the user's answers against `form` with the server side's validator
    /// (strict), filling defaults for fields left untouched.
    pub fn accept(form: &Form, answers: Value) -> Result<Reply, AnswerError> {
        Reply::accept_with(form, answers, Strictness::Strict)
    }

    /// [`accept`](Self::accept) with a chosen [`Strictness`] (lenient reads `"42"` as a
    /// number: handy for answers typed as text).
    pub fn accept_with(
        form: &Form,
        answers: Value,
        strictness: Strictness,
    ) -> Result<Reply, AnswerError> {
        match form.validate_owned(Some(answers), strictness)? {
            Value::Object(map) => Ok(Reply::Accept(map)),
            // `validate` only passes objects (or fills an empty one).
            _ => Ok(Reply::Accept(Map::new())),
        }
    }

    /// The action of this reply.
    pub fn action(&self) -> Action {
        match self {
            Reply::Accept(_) => Action::Accept,
            Reply::Decline => Action::Decline,
            Reply::Cancel => Action::Cancel,
        }
    }
}

/// The `ElicitResult` to send back: `{"action": "accept", "content": {..}}`,
/// `{"action": "decline"}` or `{"action": "cancel"}`.
pub fn elicit_result(reply: &Reply) -> Value {
    let mut out = Map::new();
    out.insert("action".into(), Value::from(reply.action().as_str()));
    if let Reply::Accept(content) = reply {
        out.insert("content".into(), Value::Object(content.clone()));
    }
    Value::Object(out)
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
/// validate with [`Reply::accept`] before answering.
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
}

/// A closure as an [`Asker`] (for tests and simple unattended clients).
pub struct AskWith<F>(pub F);

impl<F> Asker for AskWith<F>
where
    F: Fn(Question<'_>) -> Reply + Send + Sync,
{
    fn ask(&self, question: Question<'_>) -> impl std::future::Future<Output = Reply> + Send {
        std::future::ready((self.0)(question))
    }
}
