//! Multi-step flows: a sans-IO state machine that asks one form per step.
//!
//! `#[derive(Wizard)]` declares the steps; [`Flow`] runs them. The flow does no I/O:
//! ask it for the next request ([`Flow::poll`]), hand it the client's answer
//! ([`Flow::answer`]), repeat until an [`Outcome`]. Its [`WizardState`] serializes with
//! serde, so a call in rounds can carry it in `requestState` from one round to the next.
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

pub(crate) mod derived;
mod flow;
mod state;
mod step;

/// The engine's default (`Settings::attempts`).
#[cfg(feature = "seal")]
pub(crate) use derived::DEFAULT_ATTEMPTS;
pub use derived::Wizard;
pub use flow::{Flow, Outcome, Poll, Step, StepId, WizardError};

// Hidden: the old name, kept for one release so that code using it gets a warning
// instead of an error.
#[doc(hidden)]
#[deprecated(note = "renamed to `wizard::Step` (its field `step` is `id`)")]
pub type Question = Step;
#[cfg(feature = "seal")]
pub(crate) use flow::{FormParams, with_last_try};
pub use state::WizardState;
pub use step::{Prepared, PreparedForm};
