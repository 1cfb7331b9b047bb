//! What a wizard is: the [`Wizard`] trait `#[derive(Wizard)]` implements, and the items
//! its generated code names (a step's [`StepInfo`], the [`WizardStep`] a field type is, why a
//! step's answer was not taken). Those items are public for the generated code only:
//! this module is private, and they are reached as `elicit_core::__private::…`.

use serde_json::Value;

use super::step::Prepared;
use crate::form::Form;

/// How many times a step is asked before the flow fails, unless the step says otherwise
/// (for the derive's generated code; the value is documented on `#[wizard(attempts)]`).
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// What the derive knows about one step. Written by the derive; not part of the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The field name of the step.
    pub name: &'static str,
    /// The message shown with the form.
    pub message: &'static str,
    /// An `Option<Form>` step: a decline skips it instead of ending the flow.
    pub optional: bool,
    /// How many answers may fail (invalid or rejected by the check) before the flow fails.
    pub attempts: u32,
}

/// A field type of a `#[derive(Wizard)]` struct: a form, or an `Option` of one for a
/// step the user may decline (or that `skip_if` may skip). Used by the derive; not part
/// of the API.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a wizard step",
    label = "not a form",
    note = "each step of a wizard is a form: a struct deriving `Elicit` (and `Deserialize`), or an `Option` of one for a step the user may decline"
)]
pub trait WizardStep: Sized {
    /// The form asked at this step.
    type Form: crate::Elicit;
    /// Whether a decline skips the step instead of ending the flow.
    const OPTIONAL: bool;
    /// The field's value from the step's answer (`None` when skipped).
    fn finish(answer: Option<Self::Form>) -> Option<Self>;
}

impl<T: crate::Elicit> WizardStep for T {
    type Form = T;
    const OPTIONAL: bool = false;
    fn finish(answer: Option<T>) -> Option<T> {
        answer
    }
}

impl<T: crate::Elicit> WizardStep for Option<T> {
    type Form = T;
    const OPTIONAL: bool = true;
    fn finish(answer: Option<T>) -> Option<Option<T>> {
        Some(answer)
    }
}

// The probes below are the derive's, undocumented like the rest of `__private`.
#[allow(missing_docs)]
mod probes {
    use super::WizardStep;

    /// A wizard's step whose form has no secret field: a wizard asks its steps in form mode.
    #[diagnostic::on_unimplemented(
        message = "this step's form has a secret field, so it cannot be a step of a wizard",
        label = "a field of this form is marked `#[elicit(secret)]`",
        note = "a wizard's steps are asked in form mode, where MCP forbids secrets: ask the secret on a web page of its own (URL mode) with `ask_on_page`, before or after the wizard"
    )]
    pub trait PlainStep {}
    #[diagnostic::do_not_recommend]
    impl<S: WizardStep> PlainStep for S where S::Form: crate::NoSecrets {}

    /// What `#[derive(Wizard)]` probes each step type `S` with, by method resolution (which
    /// tries `&&&Probe`, then `&&Probe`, then `&Probe`, then `Probe`):
    /// `(&&&Probe::<S>::NEW).plain_step::<S>()` picks [`PlainProbe`] for a step whose form has
    /// no secret, [`SecretProbe`] (which requires [`PlainStep`], so fails with its message)
    /// for one whose form has, and [`OtherProbe`] for a type that is no step at all, which has
    /// its own error (`WizardStep`) and gets no second one here.
    pub struct Probe<S: ?Sized>(core::marker::PhantomData<S>);

    impl<S: ?Sized> Probe<S> {
        pub const NEW: Probe<S> = Probe(core::marker::PhantomData);
    }

    pub trait PlainProbe {
        fn plain_step<X: ?Sized>(&self) {}
    }
    impl<S: WizardStep> PlainProbe for &&Probe<S> where S::Form: crate::NoSecrets {}

    pub trait SecretProbe {
        fn plain_step<X: ?Sized + PlainStep>(&self) {}
    }
    impl<S: WizardStep> SecretProbe for &Probe<S> {}

    pub trait OtherProbe {
        fn plain_step<X: ?Sized>(&self) {}
    }
    impl<S: ?Sized> OtherProbe for Probe<S> {}
}
pub use probes::{OtherProbe, PlainProbe, PlainStep, Probe, SecretProbe};

/// Why a step's answer was not taken. Used by the derive; not part of the API.
#[derive(Debug)]
pub enum Rejection {
    /// The step's `check` hook refused it; the reason is shown when asking again.
    Check(String),
    /// The answer passed validation but `Deserialize` refused it.
    Parse(serde_json::Error),
}

/// A multi-step flow, implemented by `#[derive(Wizard)]`.
///
/// Everything but the two types is the glue the derive writes between the engine and
/// the step hooks, hidden from the documentation and not part of the API: run a wizard
/// with the engine's `Call::wizard` (feature `seal`), or an adapter's (`elicit-rmcp`'s
/// `Session::wizard`).
//
// The glue stays `#[doc(hidden)]` here rather than under `__private`: the derive's impl
// must write every item of the trait, so they are public with it. The types they name
// (`StepInfo`, `Rejection`) are `__private`'s.
pub trait Wizard: Sized {
    /// Server-side data the hooks read (inventory, user, clock).
    type Context: ?Sized;
    /// The answers so far: one `Option` per step, readable by the hooks.
    type Progress: Default;
    /// A name that tells this wizard's saved state from another's.
    #[doc(hidden)]
    const NAME: &'static str;
    /// The steps in order.
    #[doc(hidden)]
    const STEPS: &'static [StepInfo];

    /// The static form of step `index`.
    #[doc(hidden)]
    fn form(index: usize) -> &'static Form;
    /// Whether step `index` is skipped given the answers so far.
    #[doc(hidden)]
    fn skip(ctx: &Self::Context, progress: &Self::Progress, index: usize) -> bool;
    /// Runtime changes to step `index` (choices, defaults, message).
    #[doc(hidden)]
    fn prepare(ctx: &Self::Context, progress: &Self::Progress, index: usize) -> Option<Prepared>;
    /// Parses a validated answer to step `index`, runs its check when `ctx` is given,
    /// and stores it in `progress`.
    #[doc(hidden)]
    fn accept(
        ctx: Option<&Self::Context>,
        progress: &mut Self::Progress,
        index: usize,
        content: &Value,
    ) -> Result<(), Rejection>;
    /// Builds the final value from a complete progress.
    #[doc(hidden)]
    fn finish(progress: Self::Progress) -> Option<Self>;
}
