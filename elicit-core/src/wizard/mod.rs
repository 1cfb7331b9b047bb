//! Multi-step flows: one form per step, asked in order, each step's options and checks
//! computed from the answers before it.
//!
//! `#[derive(Wizard)]` declares the steps; the engine runs them on every channel
//! (`engine::Call::wizard`, feature `seal`, or an adapter's, such as `elicit-rmcp`'s
//! `Session::wizard`): pushed one step at a time, in a task, or one
//! `input_required` round per step, the wizard's state sealed in the `requestState` from
//! one round to the next. The tool receives the [`Outcome`].
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
//! # #[cfg(feature = "seal")] fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Mutex;
//!
//! use elicit_core::engine::{AskError, Engine, Peer, Question, Transport};
//! use elicit_core::seal::Keyring;
//! use elicit_core::wizard::{Outcome, Prepared};
//! use elicit_core::{Choice, Elicit, Revision, Wizard};
//! use serde::Deserialize;
//! use serde_json::{Value, json};
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
//! /// A person who answers each question from a list, and the questions as sent.
//! struct Person(Mutex<(Vec<Value>, Vec<Value>)>);
//!
//! impl Transport for Person {
//!     async fn send(&self, question: Question) -> Result<Value, AskError> {
//!         let mut person = self.0.lock().unwrap();
//!         person.1.push(serde_json::from_str(&question.params).unwrap());
//!         Ok(person.0.remove(0))
//!     }
//! }
//!
//! let person = Person(Mutex::new((vec![
//!     // Step 1, a sold-out day: the check refuses it and the step is asked again.
//!     json!({"action": "accept", "content": {"date": "2025-02-01"}}),
//!     json!({"action": "accept", "content": {"date": "2025-02-03"}}),
//!     // Step 2 offers only the free seats: a seat that was not offered is refused.
//!     json!({"action": "accept", "content": {"seat": "Z9"}}),
//!     json!({"action": "accept", "content": {"seat": "B4"}}),
//!     // Step 3, an `Option` step: declining it skips it.
//!     json!({"action": "decline"}),
//! ], Vec::new())));
//!
//! let engine = Engine::new(Keyring::generate());
//! let peer = Peer::new(Some(Revision::V2025_11_25), &json!({"elicitation": {}}));
//! let mut call = engine.push(peer);
//! let cinema = Cinema { sold_out: "2025-02-01" };
//! let outcome = block_on(call.wizard::<Tickets>(&person, &cinema))?;
//!
//! let Outcome::Completed(t) = outcome else { unreachable!() };
//! assert_eq!((t.day.date.as_str(), t.seat.seat.as_str()), ("2025-02-03", "B4"));
//! assert!(t.popcorn.is_none());
//!
//! let asked = &person.0.lock().unwrap().1;
//! assert_eq!(asked[0]["message"], "Which day?");
//! assert!(asked[1]["message"].as_str().unwrap().contains("No seats left on 2025-02-01"));
//! assert_eq!(asked[2]["message"], "Pick a seat for 2025-02-03");
//! assert_eq!(asked[2]["requestedSchema"]["properties"]["seat"]["enum"], json!(["A1", "B4"]));
//! assert!(asked[3]["message"].as_str().unwrap().contains("Z9"));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "seal"))] fn main() {}
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     let mut f = std::pin::pin!(f);
//! #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
//! # }
//! ```

pub(crate) mod derived;
pub(crate) mod flow;
pub(crate) mod state;
mod step;

/// The engine's default (`Settings::attempts`).
#[cfg(feature = "seal")]
pub(crate) use derived::DEFAULT_ATTEMPTS;
pub use derived::Wizard;
pub use flow::{Outcome, StepId, WizardError};
// The state machine that runs a wizard, step by step: the engine's (`Call::wizard`), and
// through `__private::testing` elicit's own tests'.
#[cfg(feature = "seal")]
pub(crate) use flow::{Flow, Poll};
#[cfg(feature = "seal")]
pub(crate) use flow::{FormParams, with_last_try};
#[cfg(feature = "seal")]
pub(crate) use state::WizardState;
#[cfg(feature = "seal")]
pub(crate) use step::StepForm;
pub use step::{Prepared, PreparedForm};
