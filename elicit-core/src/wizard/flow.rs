//! Running a wizard: [`Flow`] asks its steps one at a time ([`Step`]), takes the
//! answers, and ends with an [`Outcome`]. The engine runs it (feature `seal`); without
//! the engine only the types a wizard's outcome and errors are made of are used.
#![cfg_attr(not(feature = "seal"), allow(dead_code))]

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

use super::derived::{Rejection, Wizard};
use super::state::{End, Pending, Record, STATE_VERSION, WizardState};
use super::step::StepForm;
use crate::answer::{Action, AnswerError, Strictness};
use crate::form::{Form, FormError, RequestedSchema, Revision};

/// A step of a flow, by position and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepId {
    /// Position, from 0.
    pub index: usize,
    /// The step's field name.
    pub name: &'static str,
}

impl fmt::Display for StepId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} (`{}`)", self.index + 1, self.name)
    }
}

/// How a flow ended.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Outcome<W> {
    /// Every step answered (or skipped): the typed result.
    Completed(W),
    /// The user declined a required step.
    Declined(StepId),
    /// The user cancelled at a step.
    Cancelled(StepId),
    /// A step failed as many times as it may; `reason` is the last problem.
    #[non_exhaustive]
    Failed {
        /// The step that failed.
        step: StepId,
        /// The last validation message or check rejection.
        reason: String,
    },
}

/// The step to ask next: which one, how many answers it has refused, its message and
/// its form.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Step {
    /// Which step asks.
    pub id: StepId,
    /// How many answers to this step failed before (0 on the first ask).
    pub attempt: u32,
    message: Message,
    form: StepForm,
    revision: Revision,
}

impl Step {
    /// The message to send (with the reason when a step is asked again).
    pub fn message(&self) -> &str {
        match &self.message {
            Message::Static(message) => message,
            Message::InForm => self.form.message().unwrap_or_default(),
            Message::Owned(message) => message,
        }
    }

    /// The form, with runtime choices and defaults applied.
    // Used by the engine's pages, and by elicit's own tests, which drive a flow by hand
    // (`__private::testing`).
    #[cfg_attr(not(any(feature = "testing", feature = "web")), allow(dead_code))]
    pub fn form(&self) -> &Form {
        &self.form
    }

    /// The `requestedSchema` for the peer's revision.
    pub(crate) fn requested_schema(&self) -> RequestedSchema<'_> {
        // `poll` has checked that the revision can express the form.
        RequestedSchema::new_unchecked(&self.form, self.revision)
    }

    /// The `params` of an `elicitation/create` request (form mode) as JSON text: the
    /// message and the `requestedSchema`, written straight from the form, its fields in
    /// declaration order (send the text as it is: a `serde_json::Value` sorts them unless
    /// serde_json's `preserve_order` is on).
    // Used by elicit's own tests, which drive a flow by hand (`__private::testing`).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub fn params(&self) -> String {
        // Plain strings and a schema written by this crate: serializing cannot fail.
        serde_json::to_string(&self.form_params()).unwrap_or_default()
    }

    /// The params, to serialize (the engine writes them into its own text).
    pub(crate) fn form_params(&self) -> FormParams<'_> {
        FormParams {
            message: self.message(),
            schema: self.requested_schema(),
        }
    }
}

/// Where a [`Step`]'s message is.
#[derive(Clone, Debug)]
enum Message {
    /// The step's static message.
    Static(&'static str),
    /// The `prepare` hook's, kept in the step's built form.
    InForm,
    /// Composed for this ask (with the reason an answer was refused).
    Owned(String),
}

/// The `params` of a form-mode `elicitation/create` request, serialized straight to
/// JSON; see [`Step::params`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct FormParams<'a> {
    message: &'a str,
    schema: RequestedSchema<'a>,
}

impl<'a> FormParams<'a> {
    /// The message.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn message(&self) -> &'a str {
        self.message
    }

    /// The `requestedSchema`.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn schema(&self) -> RequestedSchema<'a> {
        self.schema
    }
}

impl Serialize for FormParams<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let with_mode = self.schema.revision() >= Revision::V2025_11_25;
        let mut map = serializer.serialize_map(Some(2 + usize::from(with_mode)))?;
        if with_mode {
            map.serialize_entry("mode", "form")?;
        }
        map.serialize_entry("message", self.message)?;
        map.serialize_entry("requestedSchema", &self.schema)?;
        map.end()
    }
}

/// What [`Flow::poll`] returns.
#[derive(Debug)]
pub enum Poll<W> {
    /// Show this form and hand the answer to [`Flow::answer`].
    Ask(Step),
    /// The flow is over.
    Done(Outcome<W>),
}

/// A flow cannot go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum WizardError {
    /// The outcome was already returned.
    Finished,
    /// [`Flow::answer`] was called with no question pending: call [`Flow::poll`] first.
    NotAsked,
    /// The peer's revision cannot express a step's form.
    Schema(FormError),
    /// A `prepare` hook asked for something the step's form cannot take
    /// (a programming error in the hook).
    #[non_exhaustive]
    Prepare {
        /// The step.
        step: StepId,
        /// What was wrong.
        message: String,
    },
    /// The client's result is malformed or has an unknown action.
    Answer(AnswerError),
    /// A saved state was written by another format version.
    #[non_exhaustive]
    StateVersion {
        /// The version in the state.
        found: u32,
    },
    /// A saved state belongs to another wizard type.
    #[non_exhaustive]
    OtherWizard {
        /// The wizard name in the state.
        found: String,
    },
    /// A saved state is inconsistent (tampered with, or saved by an older build of the
    /// wizard).
    Corrupt(String),
}

impl fmt::Display for WizardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WizardError::Finished => f.write_str("the flow has already ended"),
            WizardError::NotAsked => {
                f.write_str("no question is pending: poll the flow before answering")
            }
            WizardError::Schema(e) => e.fmt(f),
            WizardError::Prepare { step, message } => {
                write!(f, "the prepare hook of {step} is invalid: {message}")
            }
            WizardError::Answer(e) => e.fmt(f),
            WizardError::StateVersion { found } => write!(
                f,
                "the saved flow has format version {found}, this build reads version {STATE_VERSION}"
            ),
            WizardError::OtherWizard { found } => {
                let found: String = found.chars().take(60).collect();
                write!(f, "the saved flow belongs to another wizard ({found:?})")
            }
            WizardError::Corrupt(what) => write!(f, "the saved flow is invalid: {what}"),
        }
    }
}

impl std::error::Error for WizardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WizardError::Schema(e) => Some(e),
            WizardError::Answer(e) => Some(e),
            _ => None,
        }
    }
}

/// A running flow of the wizard `W`.
///
/// The engine runs it on every channel (`Call::wizard`); elicit's own tests drive it by
/// hand through `__private::testing`: `poll` gives the next [`Step`], `answer` takes the
/// client's answer, until [`Poll::Done`].
pub struct Flow<W: Wizard> {
    state: WizardState,
    progress: W::Progress,
    strictness: Strictness,
    _wizard: PhantomData<fn() -> W>,
}

impl<W: Wizard> fmt::Debug for Flow<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flow")
            .field("wizard", &W::NAME)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<W: Wizard> Default for Flow<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W: Wizard> Flow<W> {
    /// A flow at its first step.
    pub fn new() -> Self {
        Flow {
            state: WizardState::new::<W>(),
            progress: W::Progress::default(),
            strictness: Strictness::Strict,
            _wizard: PhantomData,
        }
    }

    /// Reads answers with the given [`Strictness`] (strict by default): the engine's (its
    /// `Settings::strictness`); the fuzz targets reach it through `__private::testing`
    /// (feature `testing`).
    #[cfg(any(feature = "seal", feature = "testing"))]
    pub(crate) fn with_strictness(mut self, strictness: Strictness) -> Self {
        self.strictness = strictness;
        self
    }

    /// The state to save (serialize it with serde).
    // Used by elicit's own tests, which drive a flow by hand (`__private::testing`).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub fn state(&self) -> &WizardState {
        &self.state
    }

    /// Takes the state out of the flow.
    #[cfg(feature = "seal")]
    pub(crate) fn into_state(self) -> WizardState {
        self.state
    }

    /// Restores a flow from a saved state. Every recorded answer is parsed again and
    /// every offered choice re-checked, so a state that does not fit this wizard is a
    /// typed error, never a panic.
    pub fn restore(mut state: WizardState) -> Result<Self, WizardError> {
        let progress = restored::<W>(&mut state)?;
        Ok(Flow {
            state,
            progress,
            strictness: Strictness::Strict,
            _wizard: PhantomData,
        })
    }

    /// The answers so far.
    // Used by elicit's own tests, which drive a flow by hand (`__private::testing`).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub fn progress(&self) -> &W::Progress {
        &self.progress
    }

    fn step_id(index: usize) -> StepId {
        StepId {
            index,
            name: W::STEPS[index].name,
        }
    }

    /// The next thing to do: a form to show for `revision`, or the outcome.
    pub fn poll(&mut self, ctx: &W::Context, revision: Revision) -> Result<Poll<W>, WizardError> {
        let index = self.state.done.len();
        match &self.state.end {
            None => {}
            Some(End::Completed) => return Err(WizardError::Finished),
            Some(End::Declined) => return Ok(Poll::Done(Outcome::Declined(Self::step_id(index)))),
            Some(End::Cancelled) => {
                return Ok(Poll::Done(Outcome::Cancelled(Self::step_id(index))));
            }
            Some(End::Failed { reason }) => {
                return Ok(Poll::Done(Outcome::Failed {
                    step: Self::step_id(index),
                    reason: reason.clone(),
                }));
            }
        }
        loop {
            let index = self.state.done.len();
            if index == W::STEPS.len() {
                self.state.end = Some(End::Completed);
                let progress = std::mem::take(&mut self.progress);
                return match W::finish(progress) {
                    Some(done) => Ok(Poll::Done(Outcome::Completed(done))),
                    None => Err(WizardError::Corrupt("a required step has no answer".into())),
                };
            }
            if self.state.pending.is_none() {
                if W::skip(ctx, &self.progress, index) {
                    self.state.done.push(Record::Skipped);
                    continue;
                }
                let prepared = W::prepare(ctx, &self.progress, index).unwrap_or_default();
                self.state.pending = Some(Pending {
                    reason: None,
                    prepared,
                });
            }
            return self.request(index, revision).map(Poll::Ask);
        }
    }

    /// The pending step's form, built on first use.
    fn step_form(&mut self, index: usize) -> Result<StepForm, WizardError> {
        let Some(pending) = self.state.pending.as_mut() else {
            return Err(WizardError::NotAsked);
        };
        pending
            .prepared
            .apply(W::form(index))
            .map_err(|message| WizardError::Prepare {
                step: Self::step_id(index),
                message,
            })
    }

    fn request(&mut self, index: usize, revision: Revision) -> Result<Step, WizardError> {
        let step = Self::step_id(index);
        let form = self.step_form(index)?;
        let Some(pending) = self.state.pending.as_ref() else {
            return Err(WizardError::NotAsked);
        };
        form.requested_schema(revision)
            .map_err(WizardError::Schema)?;
        let message = match (&pending.reason, pending.prepared.saved_message()) {
            (None, None) => Message::Static(W::STEPS[index].message),
            // Built with the form: the request shares it.
            (None, Some(_)) if form.message().is_some() => Message::InForm,
            (None, Some(message)) => Message::Owned(message.to_owned()),
            (Some(reason), message) => {
                let base = message.unwrap_or(W::STEPS[index].message);
                Message::Owned(format!("{reason}\n\n{base}"))
            }
        };
        Ok(Step {
            id: step,
            message,
            form,
            revision,
            attempt: self.state.attempts,
        })
    }

    /// Hands the client's answer to the pending question: its action and, for an
    /// accept, its content (kept in the state as the step's answer). An invalid or
    /// rejected answer is not an error: the next [`poll`](Self::poll) asks again with
    /// the reason, until the step's attempts run out. An action that arrives as text
    /// parses with `str::parse::<Action>()`.
    pub fn answer(
        &mut self,
        ctx: &W::Context,
        action: Action,
        content: Option<Value>,
    ) -> Result<(), WizardError> {
        if let Accepted::AsSent = self.take_answer(ctx, action, content.as_ref())? {
            self.advance(Record::Answered(content.unwrap_or(Value::Null)));
        }
        Ok(())
    }

    /// Everything of [`answer`](Self::answer) but saving an answer accepted as sent.
    fn take_answer(
        &mut self,
        ctx: &W::Context,
        action: Action,
        content: Option<&Value>,
    ) -> Result<Accepted, WizardError> {
        if self.state.end.is_some() {
            return Err(WizardError::Finished);
        }
        let index = self.state.done.len();
        if self.state.pending.is_none() {
            return Err(WizardError::NotAsked);
        }
        let info = W::STEPS[index];
        match action {
            Action::Accept => {}
            Action::Decline if info.optional => {
                self.advance(Record::Skipped);
                return Ok(Accepted::Handled);
            }
            Action::Decline => {
                self.end(End::Declined);
                return Ok(Accepted::Handled);
            }
            Action::Cancel => {
                self.end(End::Cancelled);
                return Ok(Accepted::Handled);
            }
        }
        let form = self.step_form(index)?;
        let checked = form.validate(content, self.strictness);
        let problem = match checked {
            Ok(valid) => match W::accept(Some(ctx), &mut self.progress, index, &valid) {
                Ok(()) => {
                    return Ok(match valid {
                        Cow::Borrowed(_) => Accepted::AsSent,
                        Cow::Owned(filled) => {
                            self.advance(Record::Answered(filled));
                            Accepted::Handled
                        }
                    });
                }
                Err(Rejection::Check(reason)) => reason,
                Err(Rejection::Parse(e)) => format!("the answer could not be read: {e}"),
            },
            Err(e) => e.to_string(),
        };
        self.state.attempts += 1;
        if self.state.attempts >= info.attempts {
            self.end(End::Failed { reason: problem });
        } else if let Some(pending) = &mut self.state.pending {
            pending.reason = Some(with_last_try(problem, self.state.attempts, info.attempts));
        }
        Ok(Accepted::Handled)
    }

    fn end(&mut self, end: End) {
        self.state.pending = None;
        self.state.attempts = 0;
        self.state.end = Some(end);
    }

    fn advance(&mut self, record: Record) {
        self.state.done.push(record);
        self.state.pending = None;
        self.state.attempts = 0;
    }
}

/// What [`Flow::take_answer`] left to its caller.
enum Accepted {
    /// The answer was accepted as sent and is still to be saved.
    AsSent,
    /// Nothing left to do: the step advanced, ended or asks again.
    Handled,
}

/// Checks a saved state against the wizard `W`: every recorded answer is parsed
/// again and every offered choice re-checked (the pending step's form is built), so
/// a state that does not fit is a typed error, never a panic. Returns the answers
/// so far.
fn restored<W: Wizard>(state: &mut WizardState) -> Result<W::Progress, WizardError> {
    if state.v != STATE_VERSION {
        return Err(WizardError::StateVersion { found: state.v });
    }
    if state.wizard != W::NAME {
        return Err(WizardError::OtherWizard {
            found: std::mem::take(&mut state.wizard),
        });
    }
    let steps = W::STEPS;
    if state.done.len() > steps.len() {
        return Err(WizardError::Corrupt(
            "more steps than the wizard has".into(),
        ));
    }
    let all_done = state.done.len() == steps.len();
    match (&state.end, all_done) {
        (None | Some(End::Completed), true) | (None, false) => {}
        (Some(End::Completed), false) => {
            return Err(WizardError::Corrupt(
                "completed before the last step".into(),
            ));
        }
        (Some(_), true) => {
            return Err(WizardError::Corrupt("ended after the last step".into()));
        }
        (Some(_), false) => {}
    }
    if state.end.is_some() && (state.pending.is_some() || state.attempts != 0) {
        return Err(WizardError::Corrupt(
            "a question is pending in an ended flow".into(),
        ));
    }
    let mut progress = W::Progress::default();
    for (index, record) in state.done.iter().enumerate() {
        match record {
            Record::Answered(content) => {
                let form = W::form(index);
                let valid = form
                    .validate(Some(content), Strictness::Strict)
                    .map_err(|e| corrupt(index, &e))?;
                W::accept(None, &mut progress, index, &valid).map_err(|_| {
                    WizardError::Corrupt(format!("the answer to step {} does not parse", index + 1))
                })?;
            }
            Record::Skipped => {}
        }
    }
    if let Some(pending) = &mut state.pending {
        let index = state.done.len();
        if index >= steps.len() {
            return Err(WizardError::Corrupt(
                "a question is pending after the last step".into(),
            ));
        }
        if state.attempts >= steps[index].attempts {
            return Err(WizardError::Corrupt(
                "more attempts than the step allows".into(),
            ));
        }
        pending
            .prepared
            .apply(W::form(index))
            .map_err(WizardError::Corrupt)?;
    } else if state.attempts != 0 {
        return Err(WizardError::Corrupt(
            "attempts counted with no question pending".into(),
        ));
    }
    Ok(progress)
}

fn corrupt(index: usize, e: &AnswerError) -> WizardError {
    WizardError::Corrupt(format!("the answer to step {} is invalid: {e}", index + 1))
}

/// `problem`, as shown above a question asked again after `failed` unusable answers of
/// at most `attempts`: with a warning when the next answer is the last one taken.
pub(crate) fn with_last_try(problem: String, failed: u32, attempts: u32) -> String {
    if failed.saturating_add(1) == attempts && attempts > 1 {
        format!("{problem}\nLast try: if this answer cannot be used either, this ends here.")
    } else {
        problem
    }
}
