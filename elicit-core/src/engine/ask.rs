//! What a tool asks: forms, yes/no questions, pages by URL, batches and wizards, each
//! built into a question for the call's one [exchange](super::exchange) and its answer
//! read back into what the asker wants.

use std::future::Future;
use std::pin::Pin;

use serde_json::{Map, Value};

use super::profile::Shown;
use super::questions::{ItemAnswer, Items, Steps};
use super::state::Params;
use super::{AskError, Call, Halt, Transport};
use crate::answer::{AnswerError, Confirm, Elicit, Elicitation, NoSecrets, read_valid};
use crate::form::{Form, FormError, Revision};
use crate::seal::random_id;
use crate::wizard::{Outcome, Prepared, StepForm, Wizard};

/// One question of a batch ([`Call::inputs`]), under the key it has in `inputRequests`
/// on 2026-07-28. A form built at run time (a [`Form`]) is asked as
/// `Input::Form { key, message, form: &form }`, alone or with others.
#[derive(Debug)]
#[non_exhaustive]
pub enum Input<'a> {
    /// A form (an `elicitation/create` in form mode).
    Form {
        /// The key in `inputRequests` / `inputResponses`.
        key: &'a str,
        /// The message above the form.
        message: &'a str,
        /// The form.
        form: &'a Form,
    },
    /// Any other request (`sampling/createMessage`, `roots/list`, ...), carried as it is.
    Request {
        /// The key in `inputRequests` / `inputResponses`.
        key: &'a str,
        /// The JSON-RPC method.
        method: &'a str,
        /// Its params.
        params: Value,
    },
}

impl<'a> Input<'a> {
    /// The form `T` under `key`.
    pub fn form<T: Elicit + NoSecrets>(key: &'a str, message: &'a str) -> Input<'a> {
        Input::Form {
            key,
            message,
            form: T::form(),
        }
    }

    /// Another request under `key`.
    pub fn request(key: &'a str, method: &'a str, params: Value) -> Input<'a> {
        Input::Request {
            key,
            method,
            params,
        }
    }
}

/// One answer of a batch, in the order of the questions.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum InputAnswer {
    /// A form's answer: accept with the validated content (defaults filled), decline
    /// or cancel.
    Form(Elicitation<Value>),
    /// The client's raw result of another request.
    Value(Value),
}

impl InputAnswer {
    /// A form's answer as the typed [`Elicitation`] of `T`.
    pub fn typed<T: Elicit>(self) -> Result<Elicitation<T>, AskError> {
        match self {
            InputAnswer::Form(answer) => typed(answer),
            InputAnswer::Value(_) => Err(AskError::Answer(AnswerError::Malformed(
                "this answer is not a form's",
            ))),
        }
    }
}

impl Call {
    /// Asks the form `T`; an invalid answer is asked again with the problems above the
    /// message, up to the attempts of the [`Settings`](super::Settings).
    ///
    /// `question` is the message (a `&str` or `String`), or a [`Prepared`] with the
    /// message and this call's changes to the form: defaults, tighter bounds and choices
    /// taken from the call (`Prepared::new().message(m).default_value("days", days)`).
    /// The changes are checked against the form's own rules (a bound is tightened, never
    /// widened; a default lies within the bounds; choices are among an enum's variants,
    /// or values a text field takes); changes that do not fit are [`AskError::Schema`],
    /// before anything is sent. The answer is validated against the form as asked.
    ///
    /// Awaited like an `async fn`; the future is boxed so that asking a form with a
    /// secret field is one compile error, at this call.
    pub fn ask<'a, T: Elicit + NoSecrets + 'a>(
        &'a mut self,
        to: &'a impl Transport,
        question: impl Into<Prepared>,
    ) -> Pin<Box<dyn Future<Output = Result<Elicitation<T>, Halt>> + Send + 'a>> {
        Box::pin(self.ask_typed::<T>(to, question.into()))
    }

    /// [`ask`](Self::ask) without the `NoSecrets` bound, which `ask` checks at the
    /// user's call.
    async fn ask_typed<T: Elicit>(
        &mut self,
        to: &impl Transport,
        question: Prepared,
    ) -> Result<Elicitation<T>, Halt> {
        let (message, form) = prepared::<T>(question)?;
        let answer = self.ask_form_or_page(to, &message, &form, false).await?;
        Ok(typed(answer)?)
    }

    /// Asks a yes/no question with the ready-made [`Confirm`] form: `Accept(true)` only
    /// when the box was ticked.
    pub async fn confirm(
        &mut self,
        to: &impl Transport,
        message: &str,
        confirm: &Confirm,
    ) -> Result<Elicitation<bool>, Halt> {
        let answer = self
            .ask_form_or_page(to, message, confirm.form(), true)
            .await?;
        Ok(answer.map(|content| {
            content
                .get(Confirm::FIELD)
                .and_then(Value::as_bool)
                .unwrap_or(false)
        }))
    }

    /// Asks one form in the client's form, or on a page where the client shows no forms
    /// and the engine has pages; `consent`: a consent, asked by a link only where the
    /// pages allow it.
    async fn ask_form_or_page(
        &mut self,
        to: &impl Transport,
        message: &str,
        form: &Form,
        consent: bool,
    ) -> Result<Elicitation<Value>, Halt> {
        #[cfg(feature = "web")]
        if self.forms_on_pages() {
            return self
                .ask_page(to, message, form, consent || form.is_consent())
                .await;
        }
        let _ = consent;
        self.ask_form(to, message, form).await
    }

    /// Asks one form as the client's profile shows it: its content, validated.
    async fn ask_form(
        &mut self,
        to: &impl Transport,
        message: &str,
        form: &Form,
    ) -> Result<Elicitation<Value>, Halt> {
        let index = self.begin().await?;
        let revision = self.require("form")?;
        let shown = Shown::new(form, self.renders)?;
        let settings = self.settings.clone();
        let question =
            Items::new(&settings).form(format!("ask{index}"), message, shown, revision)?;
        match self.one(to, index, question).await? {
            ItemAnswer::Form(answer) => Ok(answer),
            _ => Err(not_asked()),
        }
    }

    /// Runs the wizard `W` to its outcome: one question per step, pushed, in a task, or
    /// one `input_required` round per step (the wizard's state rides in the sealed
    /// `requestState`). Where the client shows no forms and the engine has pages, each
    /// step is asked on a page instead, as [`ask`](Self::ask) does.
    pub async fn wizard<W: Wizard>(
        &mut self,
        to: &impl Transport,
        ctx: &W::Context,
    ) -> Result<Outcome<W>, Halt> {
        #[cfg(feature = "web")]
        if self.forms_on_pages() {
            return self.wizard_on_pages::<W>(to, ctx).await;
        }
        let index = self.begin().await?;
        let revision = self.require("form")?;
        let settings = self.settings.clone();
        let steps = Steps::<W>::new(ctx, revision, index, &settings);
        self.exchange(to, index, steps).await
    }

    /// Sends the user to `url` (URL-mode elicitation) for what a form must not ask: a
    /// sign-in, a payment, an API key. `Accept` means they went (or will go) to the
    /// page; it carries the `elicitationId` sent with the request when there is one
    /// (2025-11-25), for the `notifications/elicitation/complete` that tells the client
    /// the page is done; on 2026-07-28 there is none.
    pub async fn ask_url(
        &mut self,
        to: &impl Transport,
        message: &str,
        url: &str,
    ) -> Result<Elicitation<Option<String>>, Halt> {
        let index = self.begin().await?;
        let revision = self.require("url")?;
        let mut params = Map::new();
        params.insert("mode".into(), "url".into());
        params.insert("message".into(), message.into());
        params.insert("url".into(), url.into());
        // 2025-11-25 names the page by an id, for its completion notification.
        let id = (revision < Revision::V2026_07_28).then(random_id);
        if let Some(id) = &id {
            params.insert("elicitationId".into(), id.clone().into());
        }
        let settings = self.settings.clone();
        let question = Items::new(&settings).url(format!("url{index}"), Params::of(&params), id)?;
        match self.one(to, index, question).await? {
            ItemAnswer::Url(answer) => Ok(answer),
            _ => Err(not_asked()),
        }
    }

    /// Several questions at once: in rounds they travel in **one** `input_required`
    /// round (a form, a sampling request and a roots request side by side); pushed they
    /// are sent one after the other, in a task all at once. Answers come back in the
    /// order asked.
    ///
    /// A form's answer is validated like [`ask`](Self::ask)'s (an invalid one is asked
    /// again, with the problems above its message, up to the attempts); a
    /// `sampling/createMessage` or `roots/list` needs the client's capability for it
    /// (else [`AskError::Unsupported`]); other requests are carried as they are.
    pub async fn inputs(
        &mut self,
        to: &impl Transport,
        inputs: Vec<Input<'_>>,
    ) -> Result<Vec<InputAnswer>, Halt> {
        let index = self.begin().await?;
        let settings = self.settings.clone();
        let mut question = Items::new(&settings);
        for input in &inputs {
            question = match input {
                Input::Form { key, message, form } => {
                    let revision = self.require("form")?;
                    // Sent as the adapter wrote it: a batch's forms are not brought down
                    // to the client's profile.
                    question.form(*key, message, Shown::plain(form), revision)?
                }
                Input::Request {
                    key,
                    method,
                    params,
                } => {
                    self.require_request(method)?;
                    question.request(key, method, Params::of(params))?
                }
            };
        }
        let answers = self.exchange(to, index, question).await?;
        Ok(answers
            .into_iter()
            .map(|answer| match answer {
                ItemAnswer::Form(answer) => InputAnswer::Form(answer),
                ItemAnswer::Url(answer) => {
                    InputAnswer::Value(serde_json::json!({"action": answer.action().as_str()}))
                }
                ItemAnswer::Value(value) => InputAnswer::Value(value),
            })
            .collect())
    }

    /// Redeems the retry's state, then gives the question its place in the call.
    pub(super) async fn begin(&mut self) -> Result<usize, Halt> {
        self.redeem().await?;
        Ok(self.next_index())
    }

    /// The answer of a question of one item.
    async fn one(
        &mut self,
        to: &impl Transport,
        index: usize,
        question: Items<'_>,
    ) -> Result<ItemAnswer, Halt> {
        let answers = self.exchange(to, index, question).await?;
        answers.into_iter().next().ok_or_else(not_asked)
    }

    fn require_request(&self, method: &str) -> Result<(), AskError> {
        let mode = match method {
            "sampling/createMessage" => "sampling",
            "roots/list" => "roots",
            "elicitation/create" => "form",
            _ => return Ok(()),
        };
        if self.peer.supports(mode) {
            Ok(())
        } else {
            Err(AskError::Unsupported {
                mode,
                revision: self.peer.revision,
            })
        }
    }
}

/// The message of `question`, and the form `T` as this call changes it (its own when
/// nothing changes it).
pub(super) fn prepared<T: Elicit>(
    question: impl Into<Prepared>,
) -> Result<(String, StepForm), AskError> {
    let (message, mut changes) = question.into().split_message();
    let form = changes
        .apply(T::form())
        .map_err(|e| AskError::Schema(FormError::new(e)))?;
    Ok((message.unwrap_or_default(), form))
}

/// A form's answer, its content validated already, read as `T`.
pub(super) fn typed<T: Elicit>(answer: Elicitation<Value>) -> Result<Elicitation<T>, AskError> {
    Ok(match answer {
        Elicitation::Accept(content) => {
            Elicitation::Accept(read_valid(&content).map_err(AskError::Answer)?)
        }
        Elicitation::Decline => Elicitation::Decline,
        Elicitation::Cancel => Elicitation::Cancel,
    })
}

/// A question's answers do not match what it asked (not expected: each question reads
/// its own).
fn not_asked() -> Halt {
    Halt::Ask(AskError::Answer(AnswerError::Malformed(
        "the answer does not match the question",
    )))
}
