//! Back doors for elicit's own tests, benchmarks and fuzz targets (feature `testing`).
//!
//! **Unstable, not for users**: what is here reaches inside the crate (a sealer with a
//! clock of the caller's, validation by value, a flow's strictness) so that the tests can
//! hold the engine's parts to their contracts. Not part of the API, not covered by semver:
//! anything here may change or go in any release.

use serde_json::Value;

use crate::answer::{AnswerError, Strictness};
use crate::form::Form;
use crate::wizard::Wizard;

/// The state machine that runs a wizard step by step, driven by hand: the engine runs it
/// on every channel; the tests hold its parts to their contracts.
pub use crate::wizard::flow::{Flow, Poll, Step};
/// What a [`Flow`] saves between two steps.
pub use crate::wizard::state::WizardState;

/// Seals and opens tokens as the engine does, with `seal_at`/`open_at` for a fixed clock.
#[cfg(feature = "seal")]
pub use crate::seal::sealer::Sealer;

/// `form.validate(content, strictness)` for content the caller owns: the values move
/// into the answer instead of being copied (the engine's and the client kit's path).
pub fn validate_owned(
    form: &Form,
    content: Option<Value>,
    strictness: Strictness,
) -> Result<Value, AnswerError> {
    form.validate_owned(content, strictness)
}

/// `flow`, reading answers with `strictness` (strict by default; the engine's comes from
/// its `Settings::strictness`).
pub fn with_strictness<W: Wizard>(flow: Flow<W>, strictness: Strictness) -> Flow<W> {
    flow.with_strictness(strictness)
}
