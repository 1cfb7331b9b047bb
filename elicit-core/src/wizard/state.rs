//! The saved state of a flow: [`WizardState`], serialized with serde between rounds.
//! The checks a saved state passes before a flow is restored from it are the flow's
//! (`Flow::restore`). Only the engine saves one (feature `seal`).
#![cfg_attr(not(feature = "seal"), allow(dead_code))]

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::derived::Wizard;
use super::step::Prepared;

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
    // Used by elicit's own tests and fuzz targets (`__private::testing`).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
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
}
