//! The saved state of a flow: [`WizardState`], serialized with serde between rounds,
//! and the checks a saved state passes before a flow is restored from it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Wizard;
use super::flow::WizardError;
use super::step::Prepared;
use crate::answer::{AnswerError, Strictness};

/// The version of [`WizardState`]'s serialized format.
pub(crate) const STATE_VERSION: u32 = 1;

/// The serializable state of a [`Flow`](super::Flow): answers so far, the question
/// pending with the choices it offered, the attempt count. Restore it with
/// [`Flow::restore`](super::Flow::restore).
///
/// The engine seals it between rounds and reads every number back exactly. Saving it
/// yourself, pick a format that does too: with serde_json, a number with 17 significant
/// digits can read back one unit off in the last place unless the application turns on
/// serde_json's `float_roundtrip` feature (elicit turns on no feature of yours).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WizardState {
    /// Format version (`STATE_VERSION`).
    pub(super) v: u32,
    pub(super) wizard: String,
    pub(super) done: Vec<Record>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pending: Option<Pending>,
    #[serde(default)]
    pub(super) attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) end: Option<End>,
}

/// Where one step stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Record {
    Answered(Value),
    Skipped,
}

/// How the flow ended, at the step after the `done` ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum End {
    Completed,
    Declined,
    Cancelled,
    Failed { reason: String },
}

/// The question being asked.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct Pending {
    #[serde(default)]
    pub(super) reason: Option<String>,
    /// The step's runtime changes. Once the step is asked they are built into its
    /// form, which holds the offered choices (and is shared by the step's requests and
    /// its answer); the state writes them out of that form.
    #[serde(default)]
    pub(super) prepared: Prepared,
}

impl Serialize for Pending {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let with_prepared = !self.prepared.saves_nothing();
        let len = usize::from(self.reason.is_some()) + usize::from(with_prepared);
        let mut map = serializer.serialize_map(Some(len))?;
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        if with_prepared {
            map.serialize_entry("prepared", &self.prepared)?;
        }
        map.end()
    }
}

/// Two pending questions are the same when they save the same: the offered choices
/// compare wherever they are kept.
impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.reason == other.reason && self.prepared.saves_same(&other.prepared)
    }
}

impl WizardState {
    /// The index of the step being asked or to be asked next.
    pub fn step(&self) -> usize {
        self.done.len()
    }

    /// This state as it was before the poll that completed it: restored and polled, it
    /// completes again (a completed state itself does not poll). Other states are
    /// unchanged: a poll does not change them.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn before_completion(mut self) -> WizardState {
        if self.end == Some(End::Completed) {
            self.end = None;
        }
        self
    }

    /// The state of a flow of `W` at its first step.
    pub(super) fn new<W: Wizard>() -> WizardState {
        WizardState {
            v: STATE_VERSION,
            wizard: W::NAME.to_owned(),
            done: Vec::with_capacity(W::STEPS.len()),
            pending: None,
            attempts: 0,
            end: None,
        }
    }

    /// Checks a saved state against the wizard `W`: every recorded answer is parsed
    /// again and every offered choice re-checked (the pending step's form is built), so
    /// a state that does not fit is a typed error, never a panic. Returns the answers
    /// so far.
    pub(super) fn restore<W: Wizard>(&mut self) -> Result<W::Progress, WizardError> {
        if self.v != STATE_VERSION {
            return Err(WizardError::StateVersion { found: self.v });
        }
        if self.wizard != W::NAME {
            return Err(WizardError::OtherWizard {
                found: std::mem::take(&mut self.wizard),
            });
        }
        let steps = W::STEPS;
        if self.done.len() > steps.len() {
            return Err(WizardError::Corrupt(
                "more steps than the wizard has".into(),
            ));
        }
        let all_done = self.done.len() == steps.len();
        match (&self.end, all_done) {
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
        if self.end.is_some() && (self.pending.is_some() || self.attempts != 0) {
            return Err(WizardError::Corrupt(
                "a question is pending in an ended flow".into(),
            ));
        }
        let mut progress = W::Progress::default();
        for (index, record) in self.done.iter().enumerate() {
            match record {
                Record::Answered(content) => {
                    let form = W::form(index);
                    let valid = form
                        .validate(Some(content), Strictness::Strict)
                        .map_err(|e| corrupt(index, &e))?;
                    W::accept(None, &mut progress, index, &valid).map_err(|_| {
                        WizardError::Corrupt(format!(
                            "the answer to step {} does not parse",
                            index + 1
                        ))
                    })?;
                }
                Record::Skipped => {}
            }
        }
        if let Some(pending) = &mut self.pending {
            let index = self.done.len();
            if index >= steps.len() {
                return Err(WizardError::Corrupt(
                    "a question is pending after the last step".into(),
                ));
            }
            if self.attempts >= steps[index].attempts {
                return Err(WizardError::Corrupt(
                    "more attempts than the step allows".into(),
                ));
            }
            pending
                .prepared
                .apply(W::form(index))
                .map_err(WizardError::Corrupt)?;
        } else if self.attempts != 0 {
            return Err(WizardError::Corrupt(
                "attempts counted with no question pending".into(),
            ));
        }
        Ok(progress)
    }
}

fn corrupt(index: usize, e: &AnswerError) -> WizardError {
    WizardError::Corrupt(format!("the answer to step {} is invalid: {e}", index + 1))
}
