//! Multi-step flows: a sans-IO state machine that asks one form per step.
//!
//! `#[derive(Wizard)]` declares the steps; [`Flow`] runs them. The flow does no I/O:
//! ask it for the next request ([`Flow::poll`]), hand it the client's answer
//! ([`Flow::answer`]), repeat until an [`Outcome`]. Its [`WizardState`] serializes with
//! serde, so a stateless server (MRTR) can carry it in `requestState` between rounds.
//!
//! # Declaring a wizard
//!
//! One struct, one field per step, asked in declaration order. Each field's type is a
//! form (`#[derive(Elicit, Deserialize)]`), or an `Option` of one: the user may decline
//! that step, which skips it instead of ending the flow.
//!
//! | Attribute | Meaning |
//! |---|---|
//! | `#[wizard(context = T)]` | Server-side data the hooks read (inventory, user, clock); `()` when absent. |
//! | `#[wizard(attempts = N)]` | Answers a step may get before the flow fails (default 3). |
//! | `#[step(message = "...")]` | The question shown above the step's form (required). |
//! | `#[step(check = f)]` | `fn(&Context, &Progress, &Form) -> Result<(), String>`: reject a valid answer with a reason; the step is asked again with the reason in its message. |
//! | `#[step(prepare = f)]` | `fn(&Context, &Progress) -> Prepared`: the message, options and defaults of this step computed from earlier answers. Answers are checked against the options actually offered. |
//! | `#[step(skip_if = f)]` | `fn(&Context, &Progress) -> bool`: skip the step (it must be an `Option`, left `None`). |
//! | `#[step(attempts = N)]` | This step's own attempt limit. |
//!
//! `Progress` is a struct the derive generates next to the wizard, named
//! `<Wizard>Progress`, with one `pub Option<Form>` field per step holding the answers
//! so far.
//!
//! # Example: date, then a seat for that date, then popcorn
//!
//! ```
//! use elicit_core::wizard::{Flow, Outcome, Poll, Prepared, WizardState};
//! use elicit_core::{Action, Choice, Elicit, Revision, Wizard};
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! struct Cinema {
//!     sold_out: &'static str,
//! }
//!
//! #[derive(Elicit, Deserialize)]
//! struct Day {
//!     #[elicit(format = "date")]
//!     date: String,
//! }
//!
//! #[derive(Elicit, Deserialize)]
//! struct Seat {
//!     seat: String,
//! }
//!
//! #[derive(Elicit, Deserialize)]
//! struct Popcorn {
//!     #[elicit(title = "Popcorn?", default = false)]
//!     popcorn: bool,
//! }
//!
//! #[derive(Wizard)]
//! #[wizard(context = Cinema)]
//! struct Tickets {
//!     #[step(message = "Which day?", check = has_seats)]
//!     day: Day,
//!     #[step(message = "Pick a seat", prepare = free_seats)]
//!     seat: Seat,
//!     #[step(message = "Anything to eat?", skip_if = front_row)]
//!     popcorn: Option<Popcorn>,
//! }
//!
//! fn has_seats(cinema: &Cinema, _: &TicketsProgress, day: &Day) -> Result<(), String> {
//!     if day.date == cinema.sold_out {
//!         return Err(format!("No seats left on {}: pick another day", day.date));
//!     }
//!     Ok(())
//! }
//!
//! fn free_seats(_: &Cinema, progress: &TicketsProgress) -> Prepared {
//!     let date = progress.day.as_ref().map(|d| d.date.clone()).unwrap_or_default();
//!     Prepared::new()
//!         .message(format!("Pick a seat for {date}"))
//!         .options("seat", ["A1", "B4"].map(|s| Choice::owned(s.to_owned(), None)))
//! }
//!
//! fn front_row(_: &Cinema, progress: &TicketsProgress) -> bool {
//!     progress.seat.as_ref().is_some_and(|s| s.seat.starts_with('A'))
//! }
//!
//! let cinema = Cinema { sold_out: "2025-02-01" };
//! let rev = Revision::V2025_11_25;
//! let mut flow = Flow::<Tickets>::new();
//!
//! // Step 1, a sold-out day: the check rejects it and the step is asked again.
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!(ask.message(), "Which day?");
//! flow.answer(&cinema, Action::Accept, Some(json!({"date": "2025-02-01"})))?;
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert!(ask.message().contains("No seats left on 2025-02-01"));
//! flow.answer(&cinema, Action::Accept, Some(json!({"date": "2025-02-03"})))?;
//!
//! // Between any two steps the state can leave the process and come back.
//! let saved: String = serde_json::to_string(flow.state())?;
//! let mut flow = Flow::<Tickets>::restore(serde_json::from_str::<WizardState>(&saved)?)?;
//!
//! // Step 2 offers only the free seats; a seat that was not offered is refused.
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!(ask.message(), "Pick a seat for 2025-02-03");
//! assert_eq!(serde_json::from_str::<serde_json::Value>(&ask.params())?["requestedSchema"]["properties"]["seat"]["enum"], json!(["A1", "B4"]));
//! flow.answer(&cinema, Action::Accept, Some(json!({"seat": "Z9"})))?;
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!(ask.attempt, 1); // one failed answer so far
//! assert!(ask.message().contains("Z9"), "{}", ask.message());
//! flow.answer(&cinema, Action::Accept, Some(json!({"seat": "B4"})))?;
//!
//! // Step 3, an `Option` step: declining it skips it.
//! let Poll::Ask(_) = flow.poll(&cinema, rev)? else { unreachable!() };
//! flow.answer(&cinema, Action::Decline, None)?;
//!
//! let Poll::Done(Outcome::Completed(t)) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!((t.day.date.as_str(), t.seat.seat.as_str()), ("2025-02-03", "B4"));
//! assert!(t.popcorn.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod flow;
mod state;
mod step;

use serde_json::Value;

use crate::form::Form;

#[cfg(feature = "seal")]
pub(crate) use flow::FormParams;
pub use flow::{Flow, Outcome, Poll, Question, StepId, WizardError};
pub use state::WizardState;
pub use step::{Prepared, PreparedForm};

/// How many times a step is asked before the flow fails, unless the step says otherwise
/// (for the derive's generated code; the value is documented on `#[wizard(attempts)]`).
#[doc(hidden)]
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// `problem`, as shown above a question asked again after `failed` unusable answers of
/// at most `attempts`: with a warning when the next answer is the last one taken.
pub(crate) fn with_last_try(problem: String, failed: u32, attempts: u32) -> String {
    if failed.saturating_add(1) == attempts && attempts > 1 {
        format!("{problem}\nLast try: if this answer cannot be used either, this ends here.")
    } else {
        problem
    }
}

/// What the derive knows about one step. Written by the derive; not part of the API.
#[doc(hidden)]
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
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a wizard step",
    label = "not a form",
    note = "each step of a wizard is a form: a struct deriving `Elicit` (and `Deserialize`), or an `Option` of one for a step the user may decline"
)]
pub trait Step: Sized {
    /// The form asked at this step.
    type Form: crate::Elicit;
    /// Whether a decline skips the step instead of ending the flow.
    const OPTIONAL: bool;
    /// The field's value from the step's answer (`None` when skipped).
    fn finish(answer: Option<Self::Form>) -> Option<Self>;
}

impl<T: crate::Elicit> Step for T {
    type Form = T;
    const OPTIONAL: bool = false;
    fn finish(answer: Option<T>) -> Option<T> {
        answer
    }
}

impl<T: crate::Elicit> Step for Option<T> {
    type Form = T;
    const OPTIONAL: bool = true;
    fn finish(answer: Option<T>) -> Option<Option<T>> {
        Some(answer)
    }
}

/// Why a step's answer was not taken. Used by the derive; not part of the API.
#[doc(hidden)]
#[derive(Debug)]
pub enum Rejection {
    /// The step's `check` hook refused it; the reason is shown when asking again.
    Check(String),
    /// The answer passed validation but `Deserialize` refused it.
    Parse(serde_json::Error),
}

/// A multi-step flow, implemented by `#[derive(Wizard)]`.
///
/// Everything but the two types is the glue the derive writes between [`Flow`] and the
/// step hooks, hidden from the documentation and not part of the API: run a wizard
/// through [`Flow`].
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
