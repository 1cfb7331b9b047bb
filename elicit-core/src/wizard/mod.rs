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
//! | `#[wizard(attempts = N)]` | Answers a step may get before the flow fails (default [`DEFAULT_ATTEMPTS`]). |
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
//! use elicit_core::{Choice, Elicit, Revision, Wizard};
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
//! flow.answer(&cinema, "accept", Some(&json!({"date": "2025-02-01"})))?;
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert!(ask.message().contains("No seats left on 2025-02-01"));
//! flow.answer(&cinema, "accept", Some(&json!({"date": "2025-02-03"})))?;
//!
//! // Between any two steps the state can leave the process and come back.
//! let saved: String = serde_json::to_string(flow.state())?;
//! let mut flow = Flow::<Tickets>::restore(serde_json::from_str::<WizardState>(&saved)?)?;
//!
//! // Step 2 offers only the free seats; a seat that was not offered is refused.
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!(ask.message(), "Pick a seat for 2025-02-03");
//! assert_eq!(ask.to_params()["requestedSchema"]["properties"]["seat"]["enum"], json!(["A1", "B4"]));
//! flow.answer(&cinema, "accept", Some(&json!({"seat": "Z9"})))?;
//! let Poll::Ask(ask) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!(ask.attempt(), 1); // one failed answer so far
//! assert!(ask.message().contains("Z9"), "{}", ask.message());
//! flow.answer(&cinema, "accept", Some(&json!({"seat": "B4"})))?;
//!
//! // Step 3, an `Option` step: declining it skips it.
//! let Poll::Ask(_) = flow.poll(&cinema, rev)? else { unreachable!() };
//! flow.answer(&cinema, "decline", None)?;
//!
//! let Poll::Done(Outcome::Completed(t)) = flow.poll(&cinema, rev)? else { unreachable!() };
//! assert_eq!((t.day.date.as_str(), t.seat.seat.as_str()), ("2025-02-03", "B4"));
//! assert!(t.popcorn.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answer::{Action, AnswerError, Strictness};
use crate::form::{
    Choice, Choices, Field, FieldKind, Form, FormError, RequestedSchema, Revision, SchemaError,
};

/// How many times a step is asked before the flow fails, unless the step says otherwise.
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// The version of [`WizardState`]'s serialized format.
pub const STATE_VERSION: u32 = 1;

/// What the derive knows about one step.
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
/// step the user may decline (or that `skip_if` may skip).
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

/// Why a step's answer was not taken.
#[derive(Debug)]
pub enum Rejection {
    /// The step's `check` hook refused it; the reason is shown when asking again.
    Check(String),
    /// The answer passed validation but `Deserialize` refused it.
    Parse(serde_json::Error),
}

/// A multi-step flow, implemented by `#[derive(Wizard)]`.
///
/// The methods are the glue the derive writes between [`Flow`] and the step hooks;
/// call them through [`Flow`].
pub trait Wizard: Sized {
    /// Server-side data the hooks read (inventory, user, clock).
    type Context: ?Sized;
    /// The answers so far: one `Option` per step, readable by the hooks.
    type Progress: Default;
    /// A name that tells this wizard's saved state from another's.
    const NAME: &'static str;
    /// The steps in order.
    const STEPS: &'static [StepInfo];

    /// The static form of step `index`.
    fn form(index: usize) -> &'static Form;
    /// Whether step `index` is skipped given the answers so far.
    fn skip(ctx: &Self::Context, progress: &Self::Progress, index: usize) -> bool;
    /// Runtime changes to step `index` (choices, defaults, message).
    fn prepare(ctx: &Self::Context, progress: &Self::Progress, index: usize) -> Option<Prepared>;
    /// Parses a validated answer to step `index`, runs its check when `ctx` is given,
    /// and stores it in `progress`.
    fn accept(
        ctx: Option<&Self::Context>,
        progress: &mut Self::Progress,
        index: usize,
        content: &Value,
    ) -> Result<(), Rejection>;
    /// Builds the final value from a complete progress.
    fn finish(progress: Self::Progress) -> Option<Self>;
}

/// Per field, the choices a `Prepared` offers.
type Offers = Vec<(Cow<'static, str>, Choices)>;

/// Runtime changes to a step, returned by its `prepare` hook.
///
/// Changes that many flows offer alike (one show's free seats) can be built into the
/// step's form once with [`Prepared::build`] and offered with
/// `Prepared::from(&prepared_form)`: see [`PreparedForm`].
///
/// ```
/// use elicit_core::Choice;
/// use elicit_core::wizard::Prepared;
///
/// let seats = ["A1", "A2", "B4"];
/// let prepared = Prepared::new()
///     .message("Pick a seat for 2025-02-03")
///     .options("seat", seats.iter().map(|s| Choice::owned(*s, None)))
///     .default_value("seat", "A2");
/// # let _ = prepared;
/// ```
///
/// It serializes as a saved state holds it (see [`WizardState`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Prepared {
    #[serde(default)]
    message: Option<String>,
    /// Per field, the choices offered. Once the step's form is built they live in the
    /// form (see [`Prepared::apply`]) and this list keeps the field names.
    #[serde(default, deserialize_with = "offered::deserialize")]
    options: Offers,
    #[serde(default)]
    defaults: Vec<(Cow<'static, str>, Value)>,
    /// The form these changes were built into once ([`PreparedForm`]), shared.
    #[serde(skip)]
    built: Option<Shared>,
}

/// A [`PreparedForm`] as offered by a flow: shared by every flow it is offered to, and
/// equal to another only when it is the very same.
#[derive(Clone, Debug)]
struct Shared(Arc<SharedForm>);

#[derive(Debug)]
struct SharedForm {
    /// What the state saves beside the form: the field names offered and the defaults
    /// (the choices and the message live in the form).
    skeleton: Prepared,
    form: StepForm,
}

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A step's runtime changes built into its form once, for any number of flows to
/// offer without building it again: the changes are checked when built, and every
/// flow's step shares the one form (its choices, defaults and message).
///
/// A server whose steps offer the same runtime choices to many users (the free seats
/// of one show) builds a `PreparedForm` when the data changes and returns
/// `Prepared::from(&form)` from the step's `prepare` hook. The saved state is the same
/// as with the `Prepared` it was built from, and restores to an equal form.
///
/// ```
/// use std::sync::Arc;
/// use elicit_core::{Choice, Elicit};
/// use elicit_core::wizard::{Prepared, PreparedForm};
///
/// #[derive(Elicit, serde::Deserialize)]
/// struct Seat {
///     seat: String,
/// }
///
/// // When the inventory changes:
/// let free: Arc<[Choice]> = ["A1", "A2", "B4"].map(|s| Choice::owned(s, None)).into();
/// let form: PreparedForm = Prepared::new()
///     .message("Pick a seat for 2025-02-03")
///     .options_from("seat", free)
///     .build(Seat::form())?;
///
/// // In the `prepare` hook, for every flow:
/// let prepared = Prepared::from(&form);
/// # let _ = prepared;
/// # Ok::<(), elicit_core::form::FormError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PreparedForm(Arc<SharedForm>);

impl PreparedForm {
    /// The form as asked.
    pub fn form(&self) -> &Form {
        &self.0.form
    }

    /// The message, when the changes set one.
    pub fn message(&self) -> Option<&str> {
        self.0.form.message()
    }
}

impl From<&PreparedForm> for Prepared {
    /// The changes of a form built once: offering them builds and copies nothing.
    fn from(form: &PreparedForm) -> Prepared {
        Prepared {
            built: Some(Shared(Arc::clone(&form.0))),
            ..Prepared::default()
        }
    }
}

impl Prepared {
    /// Builds these changes into `form` (the step type's form, `T::form()`) once, for
    /// many flows to offer: see [`PreparedForm`]. The changes are checked now; an
    /// error says why they do not fit the form.
    pub fn build(mut self, form: &'static Form) -> Result<PreparedForm, FormError> {
        self.unshare();
        let form = self.apply(form).map_err(FormError::new)?;
        Ok(PreparedForm(Arc::new(SharedForm {
            skeleton: self,
            form,
        })))
    }

    /// The changes as saved: from the step's `form` once built (the offered choices and
    /// the message have moved there), or from the `PreparedForm` these came from.
    fn view<'a>(&'a self, form: Option<&'a StepForm>) -> PreparedView<'a> {
        match &self.built {
            Some(Shared(shared)) => PreparedView {
                prepared: &shared.skeleton,
                form: Some(form.unwrap_or(&shared.form)),
            },
            None => PreparedView {
                prepared: self,
                form,
            },
        }
    }

    /// Changes made to a `Prepared` that came from a [`PreparedForm`] go on top of that
    /// form's: it is no longer offered as it is, and becomes the plain changes it was
    /// built from (the choices shared, not copied, when they were).
    fn unshare(&mut self) {
        let Some(Shared(shared)) = self.built.take() else {
            return;
        };
        let view = shared.skeleton.view(Some(&shared.form));
        self.message = view.message().map(str::to_owned);
        self.options = shared
            .skeleton
            .options
            .iter()
            .map(|(name, _)| {
                let choices = match shared.form.field(name).map(|f| &f.kind) {
                    Some(
                        FieldKind::Select { options, .. } | FieldKind::MultiSelect { options, .. },
                    ) => options.clone(),
                    _ => Choices::default(),
                };
                (name.clone(), choices)
            })
            .collect();
        self.defaults = shared.skeleton.defaults.clone();
    }

    /// No changes.
    pub fn new() -> Prepared {
        Prepared::default()
    }

    /// Replaces the step's message.
    pub fn message(mut self, message: impl Into<String>) -> Prepared {
        self.unshare();
        self.message = Some(message.into());
        self
    }

    /// Offers exactly these choices for `field`. A `String` field becomes a select of
    /// them; an enum field (single or multi) is narrowed to them, which must be among its
    /// variants. Answers are checked against the choices offered. Offering choices for
    /// the same field again replaces the earlier ones.
    ///
    /// A field named by a `&'static str` (the usual literal) is not copied.
    pub fn options(
        self,
        field: impl Into<Cow<'static, str>>,
        choices: impl IntoIterator<Item = Choice>,
    ) -> Prepared {
        self.options_from(field, choices.into_iter().collect::<Choices>())
    }

    /// [`options`](Self::options) from a list kept as it is given: a list the server
    /// caches as an `Arc<[Choice]>` (or a `&'static [Choice]`) goes into the step's form
    /// without a copy, however many flows offer it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use elicit_core::Choice;
    /// use elicit_core::wizard::Prepared;
    ///
    /// // Built once (say, when the inventory changes), offered to every flow.
    /// let free: Arc<[Choice]> = ["A1", "A2", "B4"].map(|s| Choice::owned(s, None)).into();
    /// let prepared = Prepared::new().options_from("seat", Arc::clone(&free));
    /// # let _ = prepared;
    /// ```
    pub fn options_from(
        mut self,
        field: impl Into<Cow<'static, str>>,
        choices: impl Into<Choices>,
    ) -> Prepared {
        self.unshare();
        let field = field.into();
        let choices = choices.into();
        match self.options.iter_mut().find(|(name, _)| *name == field) {
            Some((_, earlier)) => *earlier = choices,
            None => self.options.push((field, choices)),
        }
        self
    }

    /// Pre-fills `field` with `value` (checked against the field's type and bounds).
    pub fn default_value(
        mut self,
        field: impl Into<Cow<'static, str>>,
        value: impl Into<Value>,
    ) -> Prepared {
        self.unshare();
        self.defaults.push((field.into(), value.into()));
        self
    }

    /// Builds the step's form: the static one when nothing changes it, else a copy
    /// with the changes applied. The offered choices and the message move into what
    /// is built, which keeps the only copy of them (the state writes them out from
    /// there); when the changes are refused they stay here, as they were.
    fn apply(&mut self, base: &'static Form) -> Result<StepForm, String> {
        if let Some(Shared(shared)) = &self.built {
            // Built once for this very form: shared as it is.
            let built = &shared.form;
            if std::ptr::eq(built.base(), base) || built.base() == base {
                return Ok(built.clone());
            }
            return Err("the prepared form was built for another step's form".into());
        }
        if self.options.is_empty() && self.defaults.is_empty() {
            return Ok(match self.message.take() {
                None => StepForm::Static(base),
                message @ Some(_) => StepForm::Built(Arc::new(Built {
                    form: base.clone(),
                    base,
                    message,
                })),
            });
        }
        let mut fields = base.fields().to_vec();
        let mut moved = 0;
        let built = self.change(&mut fields, &mut moved).and_then(|()| {
            crate::form::rules::check_fields(&fields).map_err(|e: FormError| e.to_string())
        });
        if let Err(e) = built {
            self.give_back(&mut fields, moved);
            return Err(e);
        }
        let form = Form::from_checked(fields);
        Ok(StepForm::Built(Arc::new(Built {
            form,
            base,
            message: self.message.take(),
        })))
    }

    /// Applies the options and defaults to `fields`, moving the offered choices;
    /// `moved` counts the fields whose choices have moved.
    fn change(&mut self, fields: &mut [Field], moved: &mut usize) -> Result<(), String> {
        for (i, (name, _)) in self.options.iter().enumerate() {
            if self.options[..i].iter().any(|(n, _)| n == name) {
                return Err(format!("options for field `{name}` are given twice"));
            }
        }
        for (name, choices) in &mut self.options {
            let field = fields
                .iter_mut()
                .find(|f| f.name == *name)
                .ok_or_else(|| format!("the form has no field `{name}` to offer options for"))?;
            field.kind = match &field.kind {
                FieldKind::String { .. } => FieldKind::Select {
                    options: choices.take(),
                    default: None,
                    legacy_enum_names: false,
                },
                FieldKind::Select {
                    options,
                    legacy_enum_names,
                    default,
                } => FieldKind::Select {
                    options: narrow(name, options, choices)?.into(),
                    default: default.clone(),
                    legacy_enum_names: *legacy_enum_names,
                },
                FieldKind::MultiSelect {
                    options,
                    min_items,
                    max_items,
                    default,
                } => FieldKind::MultiSelect {
                    options: narrow(name, options, choices)?.into(),
                    min_items: *min_items,
                    max_items: *max_items,
                    default: default.clone(),
                },
                _ => {
                    return Err(format!(
                        "field `{name}` is not text or an enum: it cannot take options"
                    ));
                }
            };
            *moved += 1;
            // A static default that is no longer offered is dropped.
            match &mut field.kind {
                FieldKind::Select {
                    options, default, ..
                } if default
                    .as_ref()
                    .is_some_and(|d| !options.iter().any(|c| c.value == *d)) =>
                {
                    *default = None;
                }
                FieldKind::MultiSelect {
                    options, default, ..
                } => {
                    if let Some(d) = default
                        && !d.iter().all(|v| options.iter().any(|c| c.value == *v))
                    {
                        *default = None;
                    }
                }
                _ => {}
            }
        }
        for (name, value) in &self.defaults {
            let field = fields
                .iter_mut()
                .find(|f| f.name == *name)
                .ok_or_else(|| format!("the form has no field `{name}` to set a default for"))?;
            set_default(&mut field.kind, value)
                .map_err(|what| format!("the default for `{name}` must be {what}"))?;
            field.required = false;
        }
        Ok(())
    }

    /// Moves back the choices of the first `moved` fields, which
    /// [`change`](Self::change) moved into `fields`.
    fn give_back(&mut self, fields: &mut [Field], moved: usize) {
        for (name, choices) in self.options.iter_mut().take(moved) {
            let options =
                fields
                    .iter_mut()
                    .find(|f| f.name == *name)
                    .and_then(|f| match &mut f.kind {
                        FieldKind::Select { options, .. }
                        | FieldKind::MultiSelect { options, .. } => Some(options),
                        _ => None,
                    });
            if let Some(options) = options {
                *choices = options.take();
            }
        }
    }
}

/// An enum field's options narrowed to the `offered` ones, which must be among its
/// variants; an offered choice without a title takes its variant's. The choices move
/// out of `offered` only when all of them are variants.
fn narrow(name: &str, variants: &[Choice], offered: &mut Choices) -> Result<Vec<Choice>, String> {
    if let Some(c) = offered
        .iter()
        .find(|c| !variants.iter().any(|v| v.value == c.value))
    {
        return Err(format!("{:?} is not a variant of field `{name}`", c.value));
    }
    Ok(offered
        .take()
        .into_vec()
        .into_iter()
        .map(|mut c| {
            if c.title.is_none() {
                c.title = variants
                    .iter()
                    .find(|v| v.value == c.value)
                    .and_then(|v| v.title.clone());
            }
            c
        })
        .collect())
}

/// The offered choices of a `Prepared` as the state saves them: per field
/// `[name, [[value, title or null], ...]]`.
mod offered {
    use std::borrow::Cow;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::form::Choice;

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<super::Offers, D::Error> {
        let saved = Vec::<(String, Vec<(String, Option<String>)>)>::deserialize(deserializer)?;
        Ok(saved
            .into_iter()
            .map(|(name, choices)| {
                let choices = choices
                    .into_iter()
                    .map(|(value, title)| Choice::owned(value, title))
                    .collect();
                (Cow::Owned(name), choices)
            })
            .collect())
    }

    pub(super) fn pair(c: &Choice) -> (&str, Option<&str>) {
        (&c.value, c.title.as_deref())
    }

    /// The items of an iterator written as a list.
    pub(super) struct List<I>(pub(super) I);

    impl<I> Serialize for List<I>
    where
        I: Iterator + Clone,
        I::Item: Serialize,
    {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.clone())
        }
    }
}

fn set_default(kind: &mut FieldKind, value: &Value) -> Result<(), &'static str> {
    match (kind, value) {
        (FieldKind::String { default, .. }, Value::String(s))
        | (FieldKind::Select { default, .. }, Value::String(s)) => {
            *default = Some(Cow::Owned(s.clone()));
        }
        (FieldKind::Integer { default, .. }, Value::Number(n)) => {
            let v = n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from))
                .ok_or("a whole number")?;
            *default = Some(v);
        }
        (FieldKind::Number { default, .. }, Value::Number(n)) => {
            *default = Some(n.as_f64().ok_or("a number")?);
        }
        (FieldKind::Boolean { default }, Value::Bool(b)) => *default = Some(*b),
        (FieldKind::MultiSelect { default, .. }, Value::Array(items)) => {
            let values = items
                .iter()
                .map(|v| v.as_str().map(|s| Cow::Owned(s.to_owned())))
                .collect::<Option<Vec<_>>>()
                .ok_or("a list of option values")?;
            *default = Some(Cow::Owned(values));
        }
        (FieldKind::String { .. } | FieldKind::Select { .. }, _) => return Err("text"),
        (FieldKind::Integer { .. }, _) => return Err("a whole number"),
        (FieldKind::Number { .. }, _) => return Err("a number"),
        (FieldKind::Boolean { .. }, _) => return Err("true or false"),
        (FieldKind::MultiSelect { .. }, _) => return Err("a list of option values"),
    }
    Ok(())
}

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
pub enum Outcome<W> {
    /// Every step answered (or skipped): the typed result.
    Completed(W),
    /// The user declined a required step.
    Declined(StepId),
    /// The user cancelled at a step.
    Cancelled(StepId),
    /// A step failed as many times as it may; `reason` is the last problem.
    Failed {
        /// The step that failed.
        step: StepId,
        /// The last validation message or check rejection.
        reason: String,
    },
}

/// The next form to show.
#[derive(Clone, Debug)]
pub struct Request {
    step: StepId,
    message: Message,
    form: StepForm,
    revision: Revision,
    attempt: u32,
}

impl Request {
    /// Which step asks.
    pub fn step(&self) -> StepId {
        self.step
    }

    /// The message to send (with the reason when a step is asked again).
    pub fn message(&self) -> &str {
        match &self.message {
            Message::Static(message) => message,
            Message::InForm => self.form.message().unwrap_or_default(),
            Message::Owned(message) => message,
        }
    }

    /// The form, with runtime choices and defaults applied.
    pub fn form(&self) -> &Form {
        &self.form
    }

    /// The `requestedSchema` for the peer's revision.
    pub fn requested_schema(&self) -> RequestedSchema<'_> {
        // `poll` has checked that the revision can express the form.
        RequestedSchema::new_unchecked(&self.form, self.revision)
    }

    /// How many answers to this step failed before (0 on the first ask).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// The `params` of an `elicitation/create` request (form mode), as a
    /// `serde_json::Value` (what an SDK that takes a `Value` needs).
    pub fn to_params(&self) -> Value {
        // Serializing plain maps, strings and numbers into a `Value` cannot fail.
        serde_json::to_value(self.params()).unwrap_or(Value::Null)
    }

    /// The same `params`, serialized straight from the form: write it to the wire
    /// (`serde_json::to_writer`) without building a `Value` first.
    ///
    /// ```
    /// # use elicit_core::wizard::{Flow, Poll};
    /// # use elicit_core::{Elicit, Revision, Wizard};
    /// # #[derive(Elicit, serde::Deserialize)]
    /// # struct Name { name: String }
    /// # #[derive(Wizard)]
    /// # struct SignUp { #[step(message = "Your name?")] name: Name }
    /// let mut flow = Flow::<SignUp>::new();
    /// let Poll::Ask(request) = flow.poll(&(), Revision::V2025_11_25)? else { unreachable!() };
    /// let wire = serde_json::to_string(&request.params())?;
    /// assert_eq!(serde_json::from_str::<serde_json::Value>(&wire)?, request.to_params());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn params(&self) -> FormParams<'_> {
        FormParams {
            message: self.message(),
            schema: self.requested_schema(),
        }
    }
}

/// Where a [`Request`]'s message is.
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
/// JSON; see [`Request::params`].
#[derive(Clone, Copy, Debug)]
pub struct FormParams<'a> {
    message: &'a str,
    schema: RequestedSchema<'a>,
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
    Ask(Request),
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
    Schema(SchemaError),
    /// A `prepare` hook asked for something the step's form cannot take
    /// (a programming error in the hook).
    Prepare {
        /// The step.
        step: StepId,
        /// What was wrong.
        message: String,
    },
    /// The client's result is malformed or has an unknown action.
    Answer(AnswerError),
    /// A saved state cannot be restored.
    State(StateError),
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
            WizardError::State(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WizardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WizardError::Schema(e) => Some(e),
            WizardError::Answer(e) => Some(e),
            WizardError::State(e) => Some(e),
            _ => None,
        }
    }
}

/// A saved state that does not belong to this flow or is not well-formed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Saved by another format version.
    Version {
        /// The version in the state.
        found: u32,
    },
    /// Saved by another wizard type.
    OtherWizard {
        /// The wizard name in the state.
        found: String,
    },
    /// The state is inconsistent (tampered with, or saved by an older build of the wizard).
    Corrupt(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Version { found } => write!(
                f,
                "the saved flow has format version {found}, this build reads version {STATE_VERSION}"
            ),
            StateError::OtherWizard { found } => {
                let found: String = found.chars().take(60).collect();
                write!(f, "the saved flow belongs to another wizard ({found:?})")
            }
            StateError::Corrupt(what) => write!(f, "the saved flow is invalid: {what}"),
        }
    }
}

impl std::error::Error for StateError {}

/// Where one step stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    Answered(Value),
    Skipped,
}

/// The question being asked.
#[derive(Clone, Debug, Deserialize)]
struct Pending {
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    prepared: Prepared,
    /// The step's form, built from `prepared` on first use and shared by its requests
    /// and its answer; it holds the offered choices. Not saved: `prepared` is, with
    /// the choices written out of this form.
    #[serde(skip)]
    form: Option<StepForm>,
}

impl Pending {
    /// The runtime changes as saved.
    fn prepared(&self) -> PreparedView<'_> {
        self.prepared.view(self.form.as_ref())
    }
}

impl Serialize for Pending {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let prepared = self.prepared();
        let with_prepared = !prepared.is_empty();
        let len = usize::from(self.reason.is_some()) + usize::from(with_prepared);
        let mut map = serializer.serialize_map(Some(len))?;
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        if with_prepared {
            map.serialize_entry("prepared", &prepared)?;
        }
        map.end()
    }
}

/// Two pending questions are the same when they save the same: the offered choices
/// compare wherever they are kept.
impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.reason == other.reason && self.prepared() == other.prepared()
    }
}

/// A step's runtime changes with the offered choices read from wherever they are:
/// still in the `Prepared`, or moved into the step's form.
#[derive(Clone, Copy)]
struct PreparedView<'a> {
    prepared: &'a Prepared,
    form: Option<&'a StepForm>,
}

impl<'a> PreparedView<'a> {
    fn is_empty(&self) -> bool {
        let p = self.prepared;
        self.message().is_none() && p.options.is_empty() && p.defaults.is_empty()
    }

    /// The message, still in the `Prepared` or moved into the step's form.
    fn message(&self) -> Option<&'a str> {
        let moved = || self.form.and_then(StepForm::message);
        self.prepared.message.as_deref().or_else(moved)
    }

    /// The choices offered for one field, as `(value, title)`.
    fn offered(&self, name: &str, kept: &'a [Choice]) -> Offered<'a> {
        match self.form {
            Some(StepForm::Built(built)) if kept.is_empty() => {
                let (form, base) = (&built.form, built.base);
                let options = |form: &'a Form| {
                    form.field(name)
                        .and_then(|f| f.kind.options())
                        .unwrap_or_default()
                };
                Offered::Moved {
                    choices: options(form).iter(),
                    variants: options(base),
                }
            }
            _ => Offered::Kept(kept.iter()),
        }
    }

    fn options(&self) -> impl Iterator<Item = (&'a str, Offered<'a>)> + Clone + '_ {
        self.prepared
            .options
            .iter()
            .map(|(name, kept)| (&**name, self.offered(name, kept)))
    }
}

impl Serialize for Prepared {
    /// Written as the state saves it (the offered choices as `[value, title]` pairs).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view(None).serialize(serializer)
    }
}

impl PartialEq for PreparedView<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.prepared, other.prepared);
        self.message() == other.message()
            && a.defaults == b.defaults
            && a.options.len() == b.options.len()
            && self
                .options()
                .zip(other.options())
                .all(|((n, x), (m, y))| n == m && x.eq(y))
    }
}

impl Serialize for PreparedView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let p = self.prepared;
        let message = self.message();
        let len = usize::from(message.is_some())
            + usize::from(!p.options.is_empty())
            + usize::from(!p.defaults.is_empty());
        let mut map = serializer.serialize_map(Some(len))?;
        if let Some(message) = message {
            map.serialize_entry("message", message)?;
        }
        if !p.options.is_empty() {
            let options = self
                .options()
                .map(|(name, offered)| (name, offered::List(offered)));
            map.serialize_entry("options", &offered::List(options))?;
        }
        if !p.defaults.is_empty() {
            map.serialize_entry("defaults", &p.defaults)?;
        }
        map.end()
    }
}

/// The choices offered for one field.
#[derive(Clone)]
enum Offered<'a> {
    /// Still in the `Prepared`.
    Kept(std::slice::Iter<'a, Choice>),
    /// Moved into the step's form. A narrowed enum field gave the choices without a
    /// title its variant's title (the very `&'static str` of `variants`): those are
    /// saved without one, as they were offered.
    Moved {
        choices: std::slice::Iter<'a, Choice>,
        variants: &'a [Choice],
    },
}

impl<'a> Iterator for Offered<'a> {
    type Item = (&'a str, Option<&'a str>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Offered::Kept(choices) => choices.next().map(offered::pair),
            Offered::Moved { choices, variants } => choices.next().map(|c| {
                let from_variant = |t: &str| {
                    variants.iter().any(|v| {
                        v.value == c.value
                            && v.title.as_deref().is_some_and(|vt| std::ptr::eq(vt, t))
                    })
                };
                (&*c.value, c.title.as_deref().filter(|t| !from_variant(t)))
            }),
        }
    }
}

/// The serializable state of a [`Flow`]: answers so far, the question pending with
/// the choices it offered, the attempt count. Restore it with [`Flow::restore`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WizardState {
    /// Format version ([`STATE_VERSION`]).
    v: u32,
    wizard: String,
    done: Vec<Record>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Pending>,
    #[serde(default)]
    attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    end: Option<End>,
}

/// How the flow ended, at the step after the `done` ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum End {
    Completed,
    Declined,
    Cancelled,
    Failed { reason: String },
}

impl WizardState {
    /// The index of the step being asked or to be asked next.
    pub fn step(&self) -> usize {
        self.done.len()
    }

    /// Whether the flow has ended.
    pub fn is_finished(&self) -> bool {
        self.end.is_some()
    }
}

/// A running flow of the wizard `W`.
///
/// ```
/// use elicit_core::wizard::{Flow, Outcome, Poll};
/// use elicit_core::{Elicit, Revision, Wizard};
/// use serde::Deserialize;
/// use serde_json::json;
///
/// #[derive(Elicit, Deserialize)]
/// struct Name {
///     #[elicit(title = "Your name", min_length = 1)]
///     name: String,
/// }
///
/// #[derive(Elicit, Deserialize)]
/// struct Age {
///     #[elicit(minimum = 0, maximum = 150)]
///     age: u8,
/// }
///
/// #[derive(Wizard)]
/// struct SignUp {
///     #[step(message = "What is your name?")]
///     name: Name,
///     #[step(message = "How old are you?")]
///     age: Age,
/// }
///
/// let mut flow = Flow::<SignUp>::new();
/// let answers = [json!({"name": "Ada"}), json!({"age": 36})];
/// for answer in &answers {
///     let Poll::Ask(request) = flow.poll(&(), Revision::V2025_11_25)? else { unreachable!() };
///     assert!(!request.message().is_empty());
///     flow.answer(&(), "accept", Some(answer))?;
/// }
/// match flow.poll(&(), Revision::V2025_11_25)? {
///     Poll::Done(Outcome::Completed(s)) => assert_eq!((s.name.name.as_str(), s.age.age), ("Ada", 36)),
///     _ => unreachable!("every step was answered"),
/// }
/// # Ok::<(), elicit_core::wizard::WizardError>(())
/// ```
pub struct Flow<W: Wizard> {
    state: WizardState,
    progress: W::Progress,
    strictness: Strictness,
    _wizard: PhantomData<fn() -> W>,
}

/// A step's form as asked: the static one, or one built with the runtime changes.
#[derive(Clone, Debug)]
enum StepForm {
    Static(&'static Form),
    Built(Arc<Built>),
}

/// A step's runtime changes applied, kept once and shared by its requests and its
/// answer.
#[derive(Debug)]
struct Built {
    /// The static form with the runtime choices and defaults applied (the static form
    /// itself when only the message changes).
    form: Form,
    /// The static form it was built from.
    base: &'static Form,
    /// The hook's message, moved out of the `Prepared`.
    message: Option<String>,
}

impl StepForm {
    /// The static form this one was built from.
    fn base(&self) -> &'static Form {
        match self {
            StepForm::Static(form) => form,
            StepForm::Built(built) => built.base,
        }
    }

    /// The hook's message, once it has moved here.
    fn message(&self) -> Option<&str> {
        match self {
            StepForm::Static(_) => None,
            StepForm::Built(built) => built.message.as_deref(),
        }
    }
}

impl std::ops::Deref for StepForm {
    type Target = Form;
    fn deref(&self) -> &Form {
        match self {
            StepForm::Static(f) => f,
            StepForm::Built(built) => &built.form,
        }
    }
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
            state: WizardState {
                v: STATE_VERSION,
                wizard: W::NAME.to_owned(),
                done: Vec::with_capacity(W::STEPS.len()),
                pending: None,
                attempts: 0,
                end: None,
            },
            progress: W::Progress::default(),
            strictness: Strictness::Strict,
            _wizard: PhantomData,
        }
    }

    /// Reads answers with the given [`Strictness`] (strict by default).
    pub fn with_strictness(mut self, strictness: Strictness) -> Self {
        self.strictness = strictness;
        self
    }

    /// The state to save (serialize it with serde).
    pub fn state(&self) -> &WizardState {
        &self.state
    }

    /// Takes the state out of the flow.
    pub fn into_state(self) -> WizardState {
        self.state
    }

    /// Restores a flow from a saved state. Every recorded answer is parsed again and
    /// every offered choice re-checked, so a state that does not fit this wizard is a
    /// typed error, never a panic.
    pub fn restore(state: WizardState) -> Result<Self, StateError> {
        if state.v != STATE_VERSION {
            return Err(StateError::Version { found: state.v });
        }
        if state.wizard != W::NAME {
            return Err(StateError::OtherWizard {
                found: state.wizard,
            });
        }
        let steps = W::STEPS;
        if state.done.len() > steps.len() {
            return Err(StateError::Corrupt("more steps than the wizard has".into()));
        }
        let all_done = state.done.len() == steps.len();
        match (&state.end, all_done) {
            (None | Some(End::Completed), true) | (None, false) => {}
            (Some(End::Completed), false) => {
                return Err(StateError::Corrupt("completed before the last step".into()));
            }
            (Some(_), true) => {
                return Err(StateError::Corrupt("ended after the last step".into()));
            }
            (Some(_), false) => {}
        }
        if state.end.is_some() && (state.pending.is_some() || state.attempts != 0) {
            return Err(StateError::Corrupt(
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
                        StateError::Corrupt(format!(
                            "the answer to step {} does not parse",
                            index + 1
                        ))
                    })?;
                }
                Record::Skipped => {}
            }
        }
        let mut state = state;
        if let Some(pending) = &mut state.pending {
            let index = state.done.len();
            if index >= steps.len() {
                return Err(StateError::Corrupt(
                    "a question is pending after the last step".into(),
                ));
            }
            if state.attempts >= steps[index].attempts {
                return Err(StateError::Corrupt(
                    "more attempts than the step allows".into(),
                ));
            }
            let form = pending
                .prepared
                .apply(W::form(index))
                .map_err(StateError::Corrupt)?;
            pending.form = Some(form);
        } else if state.attempts != 0 {
            return Err(StateError::Corrupt(
                "attempts counted with no question pending".into(),
            ));
        }
        Ok(Flow {
            state,
            progress,
            strictness: Strictness::Strict,
            _wizard: PhantomData,
        })
    }

    /// The answers so far.
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
                    None => Err(WizardError::State(StateError::Corrupt(
                        "a required step has no answer".into(),
                    ))),
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
                    form: None,
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
        if let Some(form) = &pending.form {
            return Ok(form.clone());
        }
        let form =
            pending
                .prepared
                .apply(W::form(index))
                .map_err(|message| WizardError::Prepare {
                    step: Self::step_id(index),
                    message,
                })?;
        pending.form = Some(form.clone());
        Ok(form)
    }

    fn request(&mut self, index: usize, revision: Revision) -> Result<Request, WizardError> {
        let step = Self::step_id(index);
        let form = self.step_form(index)?;
        let Some(pending) = self.state.pending.as_ref() else {
            return Err(WizardError::NotAsked);
        };
        form.requested_schema(revision)
            .map_err(WizardError::Schema)?;
        let message = match (&pending.reason, pending.prepared().message()) {
            (None, None) => Message::Static(W::STEPS[index].message),
            // Built with the form: the request shares it.
            (None, Some(_)) if form.message().is_some() => Message::InForm,
            (None, Some(message)) => Message::Owned(message.to_owned()),
            (Some(reason), message) => {
                let base = message.unwrap_or(W::STEPS[index].message);
                Message::Owned(format!("{reason}\n\n{base}"))
            }
        };
        Ok(Request {
            step,
            message,
            form,
            revision,
            attempt: self.state.attempts,
        })
    }

    /// Hands the client's answer to the pending question. An invalid or rejected answer
    /// is not an error: the next [`poll`](Self::poll) asks again with the reason, until
    /// the step's attempts run out.
    pub fn answer(
        &mut self,
        ctx: &W::Context,
        action: &str,
        content: Option<&Value>,
    ) -> Result<(), WizardError> {
        if let Accepted::AsSent = self.take_answer(ctx, action, content)? {
            // Saved in the state as sent: the one copy of the answer.
            self.advance(Record::Answered(content.cloned().unwrap_or(Value::Null)));
        }
        Ok(())
    }

    /// [`answer`](Self::answer) for content the caller owns (a server holding the
    /// client's result): the answer moves into the state instead of being copied.
    pub fn answer_value(
        &mut self,
        ctx: &W::Context,
        action: &str,
        content: Option<Value>,
    ) -> Result<(), WizardError> {
        if let Accepted::AsSent = self.take_answer(ctx, action, content.as_ref())? {
            self.advance(Record::Answered(content.unwrap_or(Value::Null)));
        }
        Ok(())
    }

    /// Everything of [`answer`](Self::answer) but saving an answer accepted as sent,
    /// which the caller does (copying or moving it).
    fn take_answer(
        &mut self,
        ctx: &W::Context,
        action: &str,
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
        let action = Action::parse(action).map_err(WizardError::Answer)?;
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
            pending.reason = Some(problem);
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

fn corrupt(index: usize, e: &AnswerError) -> StateError {
    StateError::Corrupt(format!("the answer to step {} is invalid: {e}", index + 1))
}
