//! The two kinds of [`Asking`]: [`Items`], one or several requests asked side by side
//! (forms, pages by URL, other requests), and [`Steps`], a wizard asked one step at a
//! time. Each builds its requests and reads its answers; the exchange carries them.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::exchange::{Asking, Next};
use super::profile::{self, NOTHING_ANSWERED, Shown};
use super::state::{Params, Pending, Try, batch_digest, form_digest, question_digest};
use super::{AskError, Halt, Question, RpcError, Settings, replay_error};
use crate::answer::{Action, AnswerError, Elicitation, split_result, split_result_owned};
use crate::form::{Form, Revision};
use crate::wizard::{Flow, Poll, Wizard, WizardState, with_last_try};

/// The method of every elicitation request.
const ELICIT: &str = "elicitation/create";

/// One answer of [`Items`], read from what the log keeps of it.
pub(super) enum ItemAnswer {
    /// A form's: its content as validated (defaults filled).
    Form(Elicitation<Value>),
    /// A page's: on accept, the `elicitationId` sent with it, if one was.
    Url(Elicitation<Option<String>>),
    /// Another request's raw result.
    Value(Value),
}

/// What one item asks.
enum Kind<'q> {
    Form {
        message: &'q str,
        shown: Box<Shown<'q>>,
        revision: Revision,
    },
    Url {
        params: Params,
        /// Sent with it (2025-11-25), for `notifications/elicitation/complete`.
        id: Option<String>,
    },
    Request {
        method: &'q str,
        params: Params,
    },
}

/// One request of [`Items`] and its attempt.
struct Item<'q> {
    /// The key it is first asked under; asked again, `key.1`, `key.2`, …
    key: Cow<'q, str>,
    kind: Kind<'q>,
    /// The digest of the request as first asked.
    pin: String,
    /// The params as first asked (a form's, without a problem, as its profile shows it).
    first: Params,
    attempt: Try,
    /// Its answer as the log keeps it: a form's `{"action", "content"}` as validated,
    /// a page's `{"action"}`, another request's result.
    answer: Option<Value>,
}

impl<'q> Item<'q> {
    fn new(key: Cow<'q, str>, kind: Kind<'q>) -> Result<Item<'q>, AskError> {
        let first = match &kind {
            Kind::Form {
                message,
                shown,
                revision,
            } => {
                // Both levels must be writable before anything is sent.
                shown
                    .at(1)
                    .requested_schema(*revision)
                    .map_err(AskError::Schema)?;
                form_params(message, None, shown.at(0), *revision)?
            }
            Kind::Url { params, .. } | Kind::Request { params, .. } => params.clone(),
        };
        Ok(Item {
            pin: question_digest(method(&kind), &first),
            key,
            kind,
            first,
            attempt: Try::default(),
            answer: None,
        })
    }

    /// The key it is asked under now.
    fn current_key(&self) -> String {
        let key = match self.attempt.failed {
            0 => self.key.to_string(),
            n => format!("{}.{n}", self.key),
        };
        if self.attempt.text {
            format!("{key}.text")
        } else {
            key
        }
    }

    /// The request as it is asked now.
    fn request(&self) -> Result<Question, AskError> {
        let method = method(&self.kind);
        let (params, digest) = match (&self.kind, &self.attempt) {
            (
                _,
                Try {
                    problem: None,
                    text: false,
                    ..
                },
            ) => (self.first.clone(), self.pin.clone()),
            (
                Kind::Form {
                    message,
                    shown,
                    revision,
                },
                attempt,
            ) => {
                let form = shown.at(usize::from(attempt.text));
                let params = form_params(message, attempt.problem.as_deref(), form, *revision)?;
                let digest = question_digest(method, &params);
                (params, digest)
            }
            _ => (self.first.clone(), self.pin.clone()),
        };
        Ok(Question {
            key: self.current_key(),
            method: method.to_owned(),
            params: params.0,
            digest,
            timeout: None,
            progress_interval: None,
            progress_token: None,
            ticks: Default::default(),
            pin: self.pin.clone(),
        })
    }

    /// Reads the client's `result`: its answer, or what to ask again.
    fn take(&mut self, result: Value, settings: &Settings) -> Result<(), AskError> {
        let answer = match &self.kind {
            Kind::Form { shown, .. } => {
                let level = usize::from(self.attempt.text);
                if profile::empty_accept(shown.form, &result) {
                    if level < shown.last_level() {
                        self.attempt.text = true;
                        return Ok(());
                    }
                    if level > 0 {
                        return Err(AskError::Answer(AnswerError::Malformed(NOTHING_ANSWERED)));
                    }
                }
                let result = shown.restore(level, result);
                match validate(shown.form, result, settings) {
                    Ok(answer) => answer,
                    Err(AnswerError::Invalid(e)) if self.attempt.failed + 1 < settings.attempts => {
                        self.attempt.failed += 1;
                        let tries = (self.attempt.failed, settings.attempts);
                        self.attempt.problem = Some(with_last_try(e.to_string(), tries.0, tries.1));
                        return Ok(());
                    }
                    Err(e) => return Err(AskError::Answer(e)),
                }
            }
            Kind::Url { .. } => {
                let (action, _) = split_result(&result).map_err(AskError::Answer)?;
                logged(action, None)
            }
            Kind::Request { .. } if result.is_object() => result,
            Kind::Request { .. } => {
                return Err(AskError::Answer(AnswerError::Malformed(
                    "the result is not an object",
                )));
            }
        };
        self.answer = Some(answer);
        Ok(())
    }

    /// Its answer, from what the log keeps (validated when it was taken).
    fn read(&self, kept: Value) -> Result<ItemAnswer, AnswerError> {
        Ok(match &self.kind {
            Kind::Form { .. } => {
                let (action, content) = split_result_owned(kept)?;
                ItemAnswer::Form(match action {
                    Action::Accept => Elicitation::Accept(content.unwrap_or_default()),
                    Action::Decline => Elicitation::Decline,
                    Action::Cancel => Elicitation::Cancel,
                })
            }
            Kind::Url { id, .. } => {
                let (action, _) = split_result(&kept)?;
                ItemAnswer::Url(match action {
                    Action::Accept => Elicitation::Accept(id.clone()),
                    Action::Decline => Elicitation::Decline,
                    Action::Cancel => Elicitation::Cancel,
                })
            }
            Kind::Request { .. } if kept.is_object() => ItemAnswer::Value(kept),
            Kind::Request { .. } => {
                return Err(AnswerError::Malformed("the result is not an object"));
            }
        })
    }
}

fn method<'a>(kind: &'a Kind<'_>) -> &'a str {
    match kind {
        Kind::Form { .. } | Kind::Url { .. } => ELICIT,
        Kind::Request { method, .. } => method,
    }
}

fn form_params(
    message: &str,
    problem: Option<&str>,
    form: &Form,
    revision: Revision,
) -> Result<Params, AskError> {
    let schema = form.requested_schema(revision).map_err(AskError::Schema)?;
    Ok(Params::form(message, problem, &schema))
}

/// A form's result validated once: what the log keeps of it.
fn validate(form: &Form, result: Value, settings: &Settings) -> Result<Value, AnswerError> {
    let (action, content) = split_result_owned(result)?;
    let content = match action {
        Action::Accept => Some(form.validate_owned(content, settings.strictness)?),
        Action::Decline | Action::Cancel => None,
    };
    Ok(logged(action, content))
}

/// An `ElicitResult` as the log keeps it: the action and, on accept, the content.
fn logged(action: Action, content: Option<Value>) -> Value {
    let mut result = Map::new();
    result.insert("action".into(), action.as_str().into());
    if let Some(content) = content {
        result.insert("content".into(), content);
    }
    Value::Object(result)
}

/// Requests asked side by side (one, for a single form or page): answered together in
/// rounds, one after the other when pushed, all at once in a task.
pub(super) struct Items<'q> {
    items: Vec<Item<'q>>,
    pin: String,
    settings: &'q Settings,
}

impl<'q> Items<'q> {
    pub(super) fn new(settings: &'q Settings) -> Items<'q> {
        Items {
            items: Vec::new(),
            pin: String::new(),
            settings,
        }
    }

    /// A form, shown as `shown` to a client speaking `revision`.
    pub(super) fn form(
        mut self,
        key: impl Into<Cow<'q, str>>,
        message: &'q str,
        shown: Shown<'q>,
        revision: Revision,
    ) -> Result<Items<'q>, AskError> {
        let kind = Kind::Form {
            message,
            shown: Box::new(shown),
            revision,
        };
        self.items.push(Item::new(key.into(), kind)?);
        Ok(self.pinned())
    }

    /// A page by URL: `params` with `elicitationId` when `id` is given.
    pub(super) fn url(
        mut self,
        key: impl Into<Cow<'q, str>>,
        params: Params,
        id: Option<String>,
    ) -> Result<Items<'q>, AskError> {
        self.items
            .push(Item::new(key.into(), Kind::Url { params, id })?);
        Ok(self.pinned())
    }

    /// Another request, carried as it is.
    pub(super) fn request(
        mut self,
        key: &'q str,
        method: &'q str,
        params: Params,
    ) -> Result<Items<'q>, AskError> {
        let kind = Kind::Request { method, params };
        self.items.push(Item::new(key.into(), kind)?);
        Ok(self.pinned())
    }

    /// The pin of one item is its own; of several, the digest of theirs.
    fn pinned(mut self) -> Items<'q> {
        self.pin = match self.items.as_slice() {
            [one] => one.pin.clone(),
            items => batch_digest(items.iter().map(|i| i.pin.as_str())),
        };
        self
    }

    fn answers(&self, kept: Vec<Value>) -> Result<Vec<ItemAnswer>, AnswerError> {
        self.items
            .iter()
            .zip(kept)
            .map(|(item, kept)| item.read(kept))
            .collect()
    }
}

impl Asking for Items<'_> {
    type Answer = Vec<ItemAnswer>;

    fn pin(&self) -> &str {
        &self.pin
    }

    fn replay(&mut self, logged: Value) -> Result<Vec<ItemAnswer>, Halt> {
        let kept = match (logged, self.items.len()) {
            (Value::Array(kept), n) if n > 1 && kept.len() == n => kept,
            (kept, 1) => vec![kept],
            _ => {
                return Err(replay_error(AnswerError::Malformed(
                    "the answers of a batch do not match its questions",
                )));
            }
        };
        self.answers(kept).map_err(replay_error)
    }

    fn resume(&mut self, pending: &mut Pending) -> Result<(), Halt> {
        // The attempt of this very question only: one that changed is asked anew.
        let ours = self
            .items
            .iter()
            .any(|item| pending.asked.values().any(|pin| *pin == item.pin));
        if ours {
            for item in &mut self.items {
                item.answer = pending.answered.remove(item.key.as_ref());
                item.attempt = pending.tries.remove(item.key.as_ref()).unwrap_or_default();
            }
        }
        Ok(())
    }

    fn next(&mut self) -> Result<Next<Vec<ItemAnswer>>, Halt> {
        let waiting: Vec<Question> = self
            .items
            .iter()
            .filter(|item| item.answer.is_none())
            .map(Item::request)
            .collect::<Result<_, _>>()?;
        if !waiting.is_empty() {
            return Ok(Next::Ask(waiting));
        }
        let kept = self.items.iter().filter_map(|i| i.answer.clone()).collect();
        Ok(Next::Done(self.answers(kept).map_err(AskError::Answer)?))
    }

    fn waiting(&mut self) -> Result<Vec<(String, String)>, Halt> {
        let waiting = self.items.iter().filter(|item| item.answer.is_none());
        Ok(waiting
            .map(|item| (item.current_key(), item.pin.clone()))
            .collect())
    }

    fn take(&mut self, key: &str, result: Value) -> Result<(), Halt> {
        let settings = self.settings;
        match self.items.iter_mut().find(|i| i.current_key() == key) {
            Some(item) => Ok(item.take(result, settings)?),
            None => Ok(()),
        }
    }

    fn log(&mut self) -> Result<Value, Halt> {
        let mut kept: Vec<Value> = self
            .items
            .iter_mut()
            .filter_map(|i| i.answer.take())
            .collect();
        Ok(match kept.len() {
            1 => kept.remove(0),
            _ => Value::Array(kept),
        })
    }

    fn pending(&mut self, index: usize) -> Pending {
        let mut pending = Pending::new(index);
        for item in &mut self.items {
            let key = item.key.to_string();
            if let Some(answer) = item.answer.take() {
                pending.answered.insert(key.clone(), answer);
            }
            if item.attempt != Try::default() {
                pending.tries.insert(key, std::mem::take(&mut item.attempt));
            }
        }
        pending
    }
}

/// A wizard asked one step at a time, its state between steps sealed in rounds.
pub(super) struct Steps<'c, W: Wizard> {
    flow: Option<Flow<W>>,
    ctx: &'c W::Context,
    revision: Revision,
    index: usize,
    settings: &'c Settings,
}

impl<'c, W: Wizard> Steps<'c, W> {
    pub(super) fn new(
        ctx: &'c W::Context,
        revision: Revision,
        index: usize,
        settings: &'c Settings,
    ) -> Steps<'c, W> {
        Steps {
            flow: Some(Flow::new().with_strictness(settings.strictness)),
            ctx,
            revision,
            index,
            settings,
        }
    }

    fn flow(&mut self) -> Result<&mut Flow<W>, Halt> {
        self.flow
            .as_mut()
            .ok_or_else(|| Halt::Refused(RpcError::internal("the wizard's state was sealed")))
    }
}

/// The key of a wizard's step: the wizard's place in the call, the step, the attempt.
fn step_key(index: usize, step: usize, attempt: u32) -> String {
    format!("wizard{index}.{step}.{attempt}")
}

fn wizard_error(e: crate::wizard::WizardError) -> Halt {
    Halt::Ask(AskError::Wizard(e))
}

impl<W: Wizard> Asking for Steps<'_, W> {
    type Answer = crate::wizard::Outcome<W>;

    fn pin(&self) -> &str {
        ""
    }

    fn replay(&mut self, logged: Value) -> Result<Self::Answer, Halt> {
        let state =
            WizardState::deserialize(&logged).map_err(|e| replay_error(AnswerError::Parse(e)))?;
        self.flow = Some(Flow::restore(state).map_err(wizard_error)?);
        match self.next()? {
            Next::Done(outcome) => Ok(outcome),
            Next::Ask(_) => Err(replay_error(AnswerError::Malformed(
                "a finished wizard asked again",
            ))),
        }
    }

    fn resume(&mut self, pending: &mut Pending) -> Result<(), Halt> {
        if let Some(state) = pending.wizard.take() {
            let flow = Flow::restore(state).map_err(wizard_error)?;
            self.flow = Some(flow.with_strictness(self.settings.strictness));
        }
        Ok(())
    }

    fn next(&mut self) -> Result<Next<Self::Answer>, Halt> {
        let (ctx, revision, index) = (self.ctx, self.revision, self.index);
        match self.flow()?.poll(ctx, revision).map_err(wizard_error)? {
            Poll::Done(outcome) => Ok(Next::Done(outcome)),
            Poll::Ask(question) => {
                let params = question.form_params();
                let pin = form_digest(params);
                Ok(Next::Ask(vec![Question {
                    key: step_key(index, question.id.index, question.attempt),
                    method: ELICIT.to_owned(),
                    digest: pin.clone(),
                    timeout: None,
                    progress_interval: None,
                    progress_token: None,
                    ticks: Default::default(),
                    pin,
                    params: Params::step(params).0,
                }]))
            }
        }
    }

    fn waiting(&mut self) -> Result<Vec<(String, String)>, Halt> {
        let (ctx, revision, index) = (self.ctx, self.revision, self.index);
        Ok(
            match self.flow()?.poll(ctx, revision).map_err(wizard_error)? {
                Poll::Done(_) => Vec::new(),
                Poll::Ask(question) => vec![(
                    step_key(index, question.id.index, question.attempt),
                    form_digest(question.form_params()),
                )],
            },
        )
    }

    fn take(&mut self, _: &str, result: Value) -> Result<(), Halt> {
        let (action, content) = split_result_owned(result).map_err(AskError::Answer)?;
        let ctx = self.ctx;
        self.flow()?
            .answer(ctx, action, content)
            .map_err(wizard_error)
    }

    fn log(&mut self) -> Result<Value, Halt> {
        // The state before the final poll replays to the same outcome.
        let flow = self.flow.take();
        let before = flow.map(|flow| flow.into_state().before_completion());
        serde_json::to_value(before).map_err(|e| Halt::Refused(RpcError::internal(e.to_string())))
    }

    fn pending(&mut self, index: usize) -> Pending {
        Pending {
            wizard: self.flow.take().map(Flow::into_state),
            ..Pending::new(index)
        }
    }
}
