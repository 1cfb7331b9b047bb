//! The questions: each one does redeem → its place in the call → replay → capability, and
//! then asks on the call's channel, once for every kind of question.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::profile::{self, NOTHING_ANSWERED, Shown};
use super::state::{Params, Pending, batch_digest, form_digest, question_digest};
use super::{AskError, Call, Channel, Halt, Request, RpcError, Transport, replay_error};
use crate::answer::{
    Action, AnswerError, Confirm, Elicit, Elicitation, Strictness, read, read_valid, split_result,
    split_result_owned,
};
use crate::form::{Form, FormError};
use crate::seal::random_id;
use crate::wizard::{Flow, Outcome, Poll, Prepared, Wizard, WizardState, with_last_try};

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
    pub fn form<T: Elicit>(key: &'a str, message: &'a str) -> Input<'a> {
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

    fn key(&self) -> &'a str {
        match self {
            Input::Form { key, .. } | Input::Request { key, .. } => key,
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
    /// The answer as kept in sealed state (a form's: validated).
    fn into_result(self) -> Value {
        match self {
            InputAnswer::Form(answer) => {
                let action = answer.action();
                result_value(action, answer.accepted())
            }
            InputAnswer::Value(value) => value,
        }
    }

    /// A form's answer as the typed [`Elicitation`] of `T`.
    pub fn typed<T: Elicit>(self) -> Result<Elicitation<T>, AskError> {
        match self {
            InputAnswer::Form(answer) => Ok(match answer {
                Elicitation::Accept(content) => {
                    Elicitation::Accept(read_valid(&content).map_err(AskError::Answer)?)
                }
                Elicitation::Decline => Elicitation::Decline,
                Elicitation::Cancel => Elicitation::Cancel,
            }),
            InputAnswer::Value(_) => Err(AskError::Answer(AnswerError::Malformed(
                "this answer is not a form's",
            ))),
        }
    }
}

/// How a question's accepted content is read: validated against the form and read as
/// the asker's type, or validated and kept as a value.
type Reader<R> = fn(&Form, Option<&Value>, Strictness) -> Result<R, AnswerError>;

/// An `ElicitResult` as kept in sealed state: the action and, on accept, the content.
fn result_value(action: Action, content: Option<Value>) -> Value {
    let mut result = Map::new();
    result.insert("action".into(), action.as_str().into());
    if let Some(content) = content {
        result.insert("content".into(), content);
    }
    Value::Object(result)
}

/// The validated content with defaults filled, as a value.
fn valid_value(
    form: &Form,
    content: Option<&Value>,
    strictness: Strictness,
) -> Result<Value, AnswerError> {
    Ok(form.validate(content, strictness)?.into_owned())
}

/// The key of the `attempt`-th asking of the question `key` where each key is used
/// once (push, task): `key`, then `key.1`, `key.2`, ...
fn attempt_key(key: &str, attempt: u32) -> String {
    if attempt == 0 {
        key.to_owned()
    } else {
        format!("{key}.{attempt}")
    }
}

/// A question pushed or asked in a task.
fn request(key: String, method: &str, params: Params) -> Request {
    Request {
        key,
        method: method.to_owned(),
        params: params.0,
        pin: String::new(),
        digest: String::new(),
    }
}

impl Call {
    /// Reads a client's `ElicitResult`: the action and, on accept, the content.
    fn check<R>(
        &self,
        form: &Form,
        result: &Value,
        read: Reader<R>,
    ) -> Result<Elicitation<R>, AnswerError> {
        let (action, content) = split_result(result)?;
        Ok(match action {
            Action::Accept => Elicitation::Accept(read(form, content, self.settings.strictness)?),
            Action::Decline => Elicitation::Decline,
            Action::Cancel => Elicitation::Cancel,
        })
    }

    /// The question of a round: `method` with `params`, pinned by `pin` (the digest
    /// of the question without a problem above it), `sent` the digest of the params
    /// when they differ from the pinned question's (a problem above the message).
    fn asked(
        &self,
        key: String,
        pin: String,
        sent: Option<String>,
        method: &str,
        params: Params,
    ) -> Request {
        Request {
            key,
            method: method.to_owned(),
            digest: sent.unwrap_or_else(|| pin.clone()),
            params: params.0,
            pin,
        }
    }

    /// Asks the form `T`; an invalid answer is asked again with the problems above the
    /// message, up to the attempts of the [`Settings`](super::Settings).
    ///
    /// `question` is the message (a `&str` or `String`), or a [`Prepared`] with the
    /// message and this call's changes to the form: defaults, tighter bounds and choices
    /// taken from the call (`Prepared::new().message(m).default_value("days", days)`).
    /// The changes are checked against the form's own rules (a bound is tightened, never
    /// widened; a default lies within the bounds; choices are among an enum's variants);
    /// changes that do not fit are [`AskError::Schema`], before anything is sent. The
    /// answer is validated against the form as asked.
    pub async fn ask<T: Elicit>(
        &mut self,
        to: &impl Transport,
        question: impl Into<Prepared>,
    ) -> Result<Elicitation<T>, Halt> {
        let (message, mut changes) = question.into().split_message();
        let message = message.unwrap_or_default();
        if changes.saves_nothing() {
            return self
                .ask_form(to, None, &message, T::form(), read::<T>)
                .await;
        }
        let form = changes
            .apply(T::form())
            .map_err(|e| AskError::Schema(FormError::new(e)))?;
        self.ask_form(to, None, &message, &form, read::<T>).await
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
            .ask_form(to, None, message, confirm.form(), valid_value)
            .await?;
        Ok(answer.map(|content| {
            content
                .get(Confirm::FIELD)
                .and_then(Value::as_bool)
                .unwrap_or(false)
        }))
    }

    /// Asks on the push or task channel until a valid answer or the attempts run out:
    /// as the client's profile shows the form, and once more brought down to text,
    /// checkboxes and selects when the client accepts it without answering anything.
    async fn send_form<R>(
        &self,
        to: &impl Transport,
        key: &str,
        shown: &Shown<'_>,
        params: &(dyn Fn(usize, Option<&str>) -> Params + Sync),
        read: Reader<R>,
    ) -> Result<Elicitation<R>, Halt> {
        let mut problem: Option<String> = None;
        let mut failed = 0;
        let mut level = 0;
        loop {
            let key = match level {
                0 => attempt_key(key, failed),
                _ => format!("{}.text", attempt_key(key, failed)),
            };
            let sent = request(key, "elicitation/create", params(level, problem.as_deref()));
            let result = to.send(sent).await?;
            if profile::empty_accept(shown.form, &result) {
                if level < shown.last_level() {
                    level += 1;
                    continue;
                }
                if level > 0 {
                    return Err(AskError::Answer(AnswerError::Malformed(NOTHING_ANSWERED)).into());
                }
            }
            let result = shown.restore(level, result);
            match self.check(shown.form, &result, read) {
                Ok(answer) => return Ok(answer),
                Err(AnswerError::Invalid(e)) if failed + 1 < self.settings.attempts => {
                    failed += 1;
                    problem = Some(with_last_try(e.to_string(), failed, self.settings.attempts));
                }
                Err(e) => return Err(AskError::Answer(e).into()),
            }
        }
    }

    async fn ask_form<R>(
        &mut self,
        to: &impl Transport,
        key: Option<&str>,
        message: &str,
        form: &Form,
        read: Reader<R>,
    ) -> Result<Elicitation<R>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        let revision = self.require("form")?;
        let shown = Shown::new(form, self.renders)?;
        let schemas = [
            shown.at(0).requested_schema(revision),
            shown.at(1).requested_schema(revision),
        ];
        let [Ok(schema), Ok(text_schema)] = schemas else {
            let [a, b] = schemas;
            return Err(AskError::Schema(
                a.and(b)
                    .err()
                    .unwrap_or_else(|| FormError::new("the form cannot be written".into())),
            )
            .into());
        };
        let params = |level: usize, problem: Option<&str>| match level {
            0 => Params::form(message, problem, &schema),
            _ => Params::form(message, problem, &text_schema),
        };
        if self.channel != Channel::Rounds {
            let key = match key {
                Some(key) => key.to_owned(),
                None => format!("ask{index}"),
            };
            return self.send_form(to, &key, &shown, &params, read).await;
        }
        // Rounds: the answer, if this question was asked, is in this retry's
        // inputResponses.
        let first = params(0, None);
        let digest = question_digest("elicitation/create", &first);
        if let Some(logged) = self.logged(index, &digest) {
            return self.check(form, &logged, read).map_err(replay_error);
        }
        let (mut failed, mut problem, mut level) = match self.pending(index) {
            Some(p) if p.asked.values().any(|d| *d == digest) => {
                (p.failed, p.problem.clone(), usize::from(p.text))
            }
            _ => (0, None, 0),
        };
        let key_for = |failed: u32, level: usize| {
            let key = match key {
                Some(k) => k.to_owned(),
                None => format!("ask{index}.{failed}"),
            };
            match level {
                0 => key,
                _ => format!("{key}.text"),
            }
        };
        if let Some(result) = self.response(index, &key_for(failed, level), &digest) {
            let empty = profile::empty_accept(form, &result);
            if empty && level > 0 {
                return Err(AskError::Answer(AnswerError::Malformed(NOTHING_ANSWERED)).into());
            }
            if empty && level < shown.last_level() {
                level += 1;
            } else {
                let result = shown.restore(level, result);
                match self.check(form, &result, valid_value) {
                    Ok(valid) => {
                        let kept = result_value(valid.action(), valid.accepted());
                        let answer = self.check(form, &kept, read).map_err(AskError::Answer)?;
                        self.log(kept, digest);
                        return Ok(answer);
                    }
                    Err(AnswerError::Invalid(e)) if failed + 1 < self.settings.attempts => {
                        failed += 1;
                        problem =
                            Some(with_last_try(e.to_string(), failed, self.settings.attempts));
                    }
                    Err(e) => return Err(AskError::Answer(e).into()),
                }
            }
        }
        let (sent, sent_digest) = match (&problem, level) {
            (None, 0) => (first, None),
            (problem, level) => {
                let sent = params(level, problem.as_deref());
                let digest = question_digest("elicitation/create", &sent);
                (sent, Some(digest))
            }
        };
        let asked = self.asked(
            key_for(failed, level),
            digest,
            sent_digest,
            "elicitation/create",
            sent,
        );
        self.suspend(
            Pending {
                failed,
                problem,
                text: level > 0,
                ..Pending::new(index)
            },
            vec![asked],
        )
    }

    /// Runs the wizard `W` to its outcome: one question per step, pushed, in a task, or
    /// one `input_required` round per step (the wizard's state rides in the sealed
    /// `requestState`).
    pub async fn wizard<W: Wizard>(
        &mut self,
        to: &impl Transport,
        ctx: &W::Context,
    ) -> Result<Outcome<W>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        if let Some(logged) = self.logged(index, "") {
            let state = WizardState::deserialize(&logged)
                .map_err(|e| replay_error(AnswerError::Parse(e)))?;
            let mut flow = Flow::<W>::restore(state).map_err(|e| Halt::Ask(AskError::Wizard(e)))?;
            return match self.poll(&mut flow, ctx)? {
                Poll::Done(outcome) => Ok(outcome),
                Poll::Ask(_) => Err(replay_error(AnswerError::Malformed(
                    "a finished wizard asked again",
                ))),
            };
        }
        self.require("form")?;
        if self.channel != Channel::Rounds {
            let mut flow = Flow::<W>::new().with_strictness(self.settings.strictness);
            loop {
                match self.poll(&mut flow, ctx)? {
                    Poll::Done(outcome) => return Ok(outcome),
                    Poll::Ask(question) => {
                        let key =
                            format!("wizard{index}.{}.{}", question.step.index, question.attempt);
                        let params = Params::step(question.form_params());
                        let result = to.send(request(key, "elicitation/create", params)).await?;
                        let (action, content) = split_result_owned(result)
                            .map_err(|e| Halt::Ask(AskError::Answer(e)))?;
                        flow.answer(ctx, action, content)
                            .map_err(|e| Halt::Ask(AskError::Wizard(e)))?;
                    }
                }
            }
        }
        let mut flow = match self.pending(index).and_then(|p| p.wizard.take()) {
            Some(state) => Flow::<W>::restore(state).map_err(|e| Halt::Ask(AskError::Wizard(e)))?,
            None => Flow::<W>::new(),
        }
        .with_strictness(self.settings.strictness);
        let mut answered = false;
        loop {
            match self.poll(&mut flow, ctx)? {
                Poll::Done(outcome) => {
                    // The state before the final poll replays to the same outcome.
                    let before = flow.into_state().before_completion();
                    let snapshot = serde_json::to_value(&before)
                        .map_err(|e| Halt::Refused(RpcError::internal(e.to_string())))?;
                    self.log(snapshot, String::new());
                    return Ok(outcome);
                }
                Poll::Ask(question) => {
                    let key = format!("wizard{index}.{}.{}", question.step.index, question.attempt);
                    let digest = form_digest(question.form_params());
                    if !answered && let Some(result) = self.response(index, &key, &digest) {
                        answered = true;
                        let (action, content) = split_result_owned(result)
                            .map_err(|e| Halt::Ask(AskError::Answer(e)))?;
                        flow.answer(ctx, action, content)
                            .map_err(|e| Halt::Ask(AskError::Wizard(e)))?;
                        continue;
                    }
                    let params = Params::step(question.form_params());
                    let asked = self.asked(key, digest, None, "elicitation/create", params);
                    return self.suspend(
                        Pending {
                            wizard: Some(flow.into_state()),
                            ..Pending::new(index)
                        },
                        vec![asked],
                    );
                }
            }
        }
    }

    fn poll<W: Wizard>(&self, flow: &mut Flow<W>, ctx: &W::Context) -> Result<Poll<W>, Halt> {
        let revision = self
            .client
            .revision
            .unwrap_or(crate::form::Revision::V2025_06_18);
        flow.poll(ctx, revision)
            .map_err(|e| Halt::Ask(AskError::Wizard(e)))
    }

    /// Sends the user to `url` (URL-mode elicitation) for what a form must not ask: a
    /// sign-in, a payment, an API key. `Accept` means they went (or will go) to the
    /// page; it carries the `elicitationId` sent with the request when there is one
    /// (pushed on 2025-11-25), for the `notifications/elicitation/complete` that tells
    /// the client the page is done; on 2026-07-28 there is none.
    pub async fn ask_url(
        &mut self,
        to: &impl Transport,
        message: &str,
        url: &str,
    ) -> Result<Elicitation<Option<String>>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        let check = |result: &Value| -> Result<Elicitation<Option<String>>, AnswerError> {
            let (action, _) = split_result(result)?;
            let id = result.get("elicitationId").and_then(Value::as_str);
            Ok(match action {
                Action::Accept => Elicitation::Accept(id.map(str::to_owned)),
                Action::Decline => Elicitation::Decline,
                Action::Cancel => Elicitation::Cancel,
            })
        };
        self.require("url")?;
        let mut params = Map::new();
        params.insert("mode".into(), "url".into());
        params.insert("message".into(), message.into());
        params.insert("url".into(), url.into());
        let key = format!("url{index}");
        match self.channel {
            Channel::Task => {
                // 2026-07-28: no `elicitationId`, as in rounds.
                let sent = request(key, "elicitation/create", Params::of(&params));
                let result = to.send(sent).await?;
                return check(&result).map_err(|e| AskError::Answer(e).into());
            }
            Channel::Push => {
                let id = random_id();
                params.insert("elicitationId".into(), id.clone().into());
                let sent = request(key, "elicitation/create", Params::of(&params));
                let result = to.send(sent).await?;
                let answer = check(&result).map_err(AskError::Answer)?;
                return Ok(answer.map(|_| Some(id)));
            }
            Channel::Rounds => {}
        }
        let params = Params::of(&params);
        let digest = question_digest("elicitation/create", &params);
        if let Some(logged) = self.logged(index, &digest) {
            return check(&logged).map_err(replay_error);
        }
        if let Some(result) = self.response(index, &key, &digest) {
            let answer = check(&result).map_err(AskError::Answer)?;
            self.log(result_value(answer.action(), None), digest);
            return Ok(answer);
        }
        let asked = self.asked(key, digest, None, "elicitation/create", params);
        self.suspend(Pending::new(index), vec![asked])
    }

    /// Several questions at once: in rounds they travel in **one** `input_required`
    /// round (a form, a sampling request and a roots request side by side); pushed or in
    /// a task they are sent one after the other. Answers come back in the order asked.
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
        self.redeem().await?;
        let index = self.next_index();
        let mut prepared = Vec::with_capacity(inputs.len());
        for input in &inputs {
            prepared.push(match input {
                Input::Form { message, form, .. } => {
                    let revision = self.require("form")?;
                    let schema = form.requested_schema(revision).map_err(AskError::Schema)?;
                    (
                        "elicitation/create",
                        Params::form(message, None, &schema),
                        Some(schema),
                    )
                }
                Input::Request { method, params, .. } => {
                    self.require_request(method)?;
                    (*method, Params::of(params), None)
                }
            });
        }
        if self.channel != Channel::Rounds {
            let this = &*self;
            let asks =
                inputs
                    .iter()
                    .zip(prepared)
                    .map(|(input, (method, params, schema))| async move {
                        Ok(match (input, schema) {
                            (Input::Form { key, message, form }, Some(schema)) => {
                                // Sent as the adapter wrote it: a batch's forms are not
                                // brought down to the client's profile.
                                let shown = Shown::plain(form);
                                let params = |_: usize, problem: Option<&str>| {
                                    Params::form(message, problem, &schema)
                                };
                                let answer = this
                                    .send_form(to, key, &shown, &params, valid_value)
                                    .await?;
                                InputAnswer::Form(answer)
                            }
                            _ => InputAnswer::Value(
                                to.send(request(input.key().to_owned(), method, params))
                                    .await?,
                            ),
                        })
                    });
            if self.channel == Channel::Task {
                // All at once: a task waits on every question in one `tasks/get`.
                return futures_util::future::join_all(asks)
                    .await
                    .into_iter()
                    .collect();
            }
            let mut answers = Vec::with_capacity(inputs.len());
            for ask in asks {
                answers.push(ask.await?);
            }
            return Ok(answers);
        }
        // Rounds: answers of earlier rounds, then this retry's.
        let digests: Vec<String> = prepared
            .iter()
            .map(|(method, params, _)| question_digest(method, params))
            .collect();
        let pin = batch_digest(digests.iter().map(String::as_str));
        match self.logged(index, &pin) {
            Some(Value::Array(logged)) if logged.len() == inputs.len() => {
                return inputs
                    .iter()
                    .zip(logged)
                    .map(|(input, result)| self.read_input(input, result).map_err(replay_error))
                    .collect();
            }
            Some(_) => {
                return Err(replay_error(AnswerError::Malformed(
                    "the answers of a batch do not match its questions",
                )));
            }
            None => {}
        }
        let (mut failed, mut answered) = match self.pending(index) {
            Some(p) => (p.failed, std::mem::take(&mut p.answered)),
            None => (0, BTreeMap::new()),
        };
        let mut missing = Vec::new();
        let mut invalid = false;
        for ((input, (method, params, schema)), digest) in inputs.iter().zip(prepared).zip(digests)
        {
            let key = input.key();
            if answered.contains_key(key) {
                continue;
            }
            let mut problem = None;
            if let Some(result) = self.response(index, key, &digest) {
                match self.read_input(input, result) {
                    Ok(answer) => {
                        answered.insert(key.to_owned(), answer.into_result());
                        continue;
                    }
                    Err(AnswerError::Invalid(e)) if failed + 1 < self.settings.attempts => {
                        invalid = true;
                        let attempts = self.settings.attempts;
                        problem = Some(with_last_try(e.to_string(), failed + 1, attempts));
                    }
                    Err(e) => return Err(AskError::Answer(e).into()),
                }
            }
            let (params, sent) = match (input, problem, schema) {
                (Input::Form { message, .. }, Some(problem), Some(schema)) => {
                    let params = Params::form(message, Some(&problem), &schema);
                    let sent = question_digest(method, &params);
                    (params, Some(sent))
                }
                _ => (params, None),
            };
            missing.push(self.asked(key.to_owned(), digest, sent, method, params));
        }
        if missing.is_empty() {
            let mut results = Vec::with_capacity(inputs.len());
            let mut answers = Vec::with_capacity(inputs.len());
            for input in &inputs {
                let result = answered.remove(input.key()).unwrap_or(Value::Null);
                answers.push(
                    self.read_input(input, result.clone())
                        .map_err(AskError::Answer)?,
                );
                results.push(result);
            }
            self.log(Value::Array(results), pin);
            return Ok(answers);
        }
        if invalid {
            failed += 1;
        }
        self.suspend(
            Pending {
                failed,
                answered,
                ..Pending::new(index)
            },
            missing,
        )
    }

    /// Reads one answer of a batch.
    fn read_input(&self, input: &Input<'_>, result: Value) -> Result<InputAnswer, AnswerError> {
        match input {
            Input::Form { form, .. } => {
                let answer = self.check(form, &result, valid_value)?;
                Ok(InputAnswer::Form(answer))
            }
            Input::Request { .. } if result.is_object() => Ok(InputAnswer::Value(result)),
            Input::Request { .. } => Err(AnswerError::Malformed("the result is not an object")),
        }
    }

    fn require_request(&self, method: &str) -> Result<(), AskError> {
        let mode = match method {
            "sampling/createMessage" => "sampling",
            "roots/list" => "roots",
            "elicitation/create" => "form",
            _ => return Ok(()),
        };
        if self.client.supports(mode) {
            Ok(())
        } else {
            Err(AskError::Unsupported {
                mode,
                revision: self.client.revision,
            })
        }
    }
}
