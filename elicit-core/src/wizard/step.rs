//! A step's runtime changes: [`Prepared`], what a `prepare` hook returns, and
//! [`PreparedForm`], changes built into the step's form once and shared by many flows.
//! Privately, [`StepForm`] is the form a step asks (the static one or a built one).

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::form::{Choice, Choices, Field, FieldKind, Form, FormError};

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
///     .options("seat", seats.map(|s| Choice::owned(s, None)))
///     .default_value("seat", "A2");
/// # let _ = prepared;
/// ```
///
/// It serializes as a wizard's saved state holds it, between the rounds of a call.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Prepared {
    #[serde(default)]
    message: Option<String>,
    /// Per field, the choices offered. Once built into a form they live in the form
    /// (see [`Prepared::apply`]), and the built form's own `changes` keep the names.
    #[serde(default, deserialize_with = "offered::deserialize")]
    options: Offers,
    #[serde(default)]
    defaults: Vec<(Cow<'static, str>, Value)>,
    /// Per number field, the tighter bounds `[minimum, maximum]`.
    #[serde(default)]
    ranges: Vec<(Cow<'static, str>, Value, Value)>,
    /// The form these changes are built into, shared; the changes themselves are
    /// then kept there and the fields above are empty.
    #[serde(skip)]
    built: Option<PreparedForm>,
}

/// Equal changes, built into the very same form (if any).
impl PartialEq for Prepared {
    fn eq(&self, other: &Prepared) -> bool {
        self.message == other.message
            && self.options == other.options
            && self.defaults == other.defaults
            && self.ranges == other.ranges
            && match (&self.built, &other.built) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(&a.0, &b.0),
                _ => false,
            }
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
/// A flow builds a plain `Prepared` into one of these too, when its step is first
/// asked: the step's requests and its answer share it.
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
///     .options("seat", free)
///     .build(Seat::form())?;
///
/// // In the `prepare` hook, for every flow:
/// let prepared = Prepared::from(&form);
/// # let _ = prepared;
/// # Ok::<(), elicit_core::FormError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PreparedForm(Arc<Built>);

/// What a [`PreparedForm`] shares.
#[derive(Debug)]
struct Built {
    /// The static form with the runtime choices and defaults applied (the static form
    /// itself when only the message changes, or nothing).
    form: Cow<'static, Form>,
    /// The static form it was built from.
    base: &'static Form,
    /// The changes it was built from, as the state saves them: the message, the
    /// defaults and the names of the fields offered choices (the choices have moved
    /// into `form`).
    changes: Prepared,
}

impl PreparedForm {
    /// The form as asked.
    pub fn form(&self) -> &Form {
        &self.0.form
    }

    /// The message, when the changes set one.
    pub(crate) fn message(&self) -> Option<&str> {
        self.0.changes.message.as_deref()
    }
}

impl From<&PreparedForm> for Prepared {
    /// The changes of a form built once, offered as that form (shared, not rebuilt).
    fn from(form: &PreparedForm) -> Prepared {
        Prepared {
            built: Some(form.clone()),
            ..Prepared::default()
        }
    }
}

/// A step's form as asked: the static one, or one built with the runtime changes
/// (shared by the step's requests and its answer, and by every flow offering the
/// same [`PreparedForm`]).
#[derive(Clone, Debug)]
pub(crate) enum StepForm {
    Static(&'static Form),
    Built(PreparedForm),
}

impl StepForm {
    /// The hook's message, once it has moved here.
    pub(super) fn message(&self) -> Option<&str> {
        match self {
            StepForm::Static(_) => None,
            StepForm::Built(built) => built.message(),
        }
    }
}

impl std::ops::Deref for StepForm {
    type Target = Form;
    fn deref(&self) -> &Form {
        match self {
            StepForm::Static(form) => form,
            StepForm::Built(built) => built.form(),
        }
    }
}

impl Prepared {
    /// Builds these changes into `form` (the step type's form, `T::form()`) once, for
    /// many flows to offer: see [`PreparedForm`]. The changes are checked now; an
    /// error says why they do not fit the form.
    pub fn build(mut self, form: &'static Form) -> Result<PreparedForm, FormError> {
        self.unshare();
        self.build_into(form).map_err(FormError::new)
    }

    /// Changes made to a `Prepared` that came from a [`PreparedForm`] go on top of that
    /// form's: it is no longer offered as it is, and becomes the plain changes it was
    /// built from (the choices still shared when they were).
    fn unshare(&mut self) {
        let Some(PreparedForm(built)) = self.built.take() else {
            return;
        };
        self.message = built.changes.message.clone();
        self.options = built
            .changes
            .options
            .iter()
            .map(|(name, _)| {
                let choices = match built.form.field(name).map(|f| &f.kind) {
                    Some(
                        FieldKind::Select { options, .. } | FieldKind::MultiSelect { options, .. },
                    ) => options.clone(),
                    _ => Choices::default(),
                };
                (name.clone(), choices)
            })
            .collect();
        self.defaults = built.changes.defaults.clone();
        self.ranges = built.changes.ranges.clone();
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
    /// The list is kept as it is given: one a server caches as an `Arc<[Choice]>` (or a
    /// `&'static [Choice]`) is shared by every flow that offers it, so the server holds
    /// one list however many users are asking; a `Vec` or an array is taken as is, and
    /// an iterator collects into one (`.collect::<Choices>()`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use elicit_core::Choice;
    /// use elicit_core::wizard::Prepared;
    ///
    /// // Built once (say, when the inventory changes), offered to every flow.
    /// let free: Arc<[Choice]> = ["A1", "A2", "B4"].map(|s| Choice::owned(s, None)).into();
    /// let prepared = Prepared::new().options("seat", Arc::clone(&free));
    /// // Or for this flow only.
    /// let prepared = prepared.options("size", [Choice::owned("S", None), Choice::owned("L", None)]);
    /// # let _ = prepared;
    /// ```
    pub fn options(
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

    /// Narrows the bounds of the number field `field` to `minimum..=maximum` for this
    /// question: both must lie within the bounds the form declares (a form's bounds are
    /// tightened at run time, never widened), and a default outside the new bounds is
    /// refused. An integer field takes whole numbers.
    ///
    /// A range outside the form's bounds is a server mistake, found when the question is
    /// asked: the ask fails (`AskError::Schema`, naming the field, the range and the form's
    /// bounds). When the range comes from a call's arguments, check them first and answer
    /// a clear tool error instead:
    ///
    /// ```
    /// use elicit_core::wizard::Prepared;
    ///
    /// // The form's own bounds of `retention_days`: `#[elicit(minimum = 1, maximum = 3650)]`.
    /// const RETENTION: std::ops::RangeInclusive<u32> = 1..=3650;
    ///
    /// /// The approval question for a call's `days`, or the tool error to answer with.
    /// fn approval(days: u32) -> Result<Prepared, String> {
    ///     if !RETENTION.contains(&days) {
    ///         return Err(format!("`days` must be between 1 and 3650, not {days}"));
    ///     }
    ///     Ok(Prepared::new()
    ///         .range("retention_days", days, *RETENTION.end())
    ///         .default_value("retention_days", days))
    /// }
    ///
    /// assert!(approval(90).is_ok());
    /// assert_eq!(approval(0).unwrap_err(), "`days` must be between 1 and 3650, not 0");
    /// ```
    pub fn range(
        mut self,
        field: impl Into<Cow<'static, str>>,
        minimum: impl Into<Value>,
        maximum: impl Into<Value>,
    ) -> Prepared {
        self.unshare();
        self.ranges
            .push((field.into(), minimum.into(), maximum.into()));
        self
    }

    /// The message, taken out, and the changes to the form that remain: a single
    /// question (the engine's `Call::ask`) sends its message apart from its form.
    #[cfg(feature = "seal")]
    pub(crate) fn split_message(mut self) -> (Option<String>, Prepared) {
        self.unshare();
        let message = self.message.take();
        (message, self)
    }

    /// The changes as the state saves them: these, or those the form they are built
    /// into was built from.
    fn changes(&self) -> &Prepared {
        match &self.built {
            Some(PreparedForm(built)) => &built.changes,
            None => self,
        }
    }

    /// The message, as saved.
    pub(super) fn saved_message(&self) -> Option<&str> {
        self.changes().message.as_deref()
    }

    /// Whether the state saves no changes.
    pub(crate) fn saves_nothing(&self) -> bool {
        let changes = self.changes();
        changes.message.is_none()
            && changes.options.is_empty()
            && changes.defaults.is_empty()
            && changes.ranges.is_empty()
    }

    /// The choices offered, per field, as saved: from these changes, or from the form
    /// they are built into.
    fn offered(&self) -> impl Iterator<Item = (&str, offered::Iter<'_>)> + Clone {
        let built = self.built.as_ref().map(|built| &*built.0);
        self.changes().options.iter().map(move |(name, kept)| {
            let offered = match built {
                Some(built) => offered::Iter::Moved {
                    choices: options_of(&built.form, name).iter(),
                    variants: options_of(built.base, name),
                },
                None => offered::Iter::Kept(kept.iter()),
            };
            (&**name, offered)
        })
    }

    /// Whether the state saves the same changes for both: the offered choices compare
    /// wherever they are kept.
    pub(super) fn saves_same(&self, other: &Prepared) -> bool {
        let (a, b) = (self.changes(), other.changes());
        a.message == b.message
            && a.defaults == b.defaults
            && a.ranges == b.ranges
            && a.options.len() == b.options.len()
            && self
                .offered()
                .zip(other.offered())
                .all(|((n, x), (m, y))| n == m && x.eq(y))
    }

    /// The step's form: the static one when nothing changes it, else these changes
    /// built into it (once: the changes then are that [`PreparedForm`], shared by the
    /// step's requests and its answer). When the changes are refused they stay here,
    /// as they were.
    pub(crate) fn apply(&mut self, base: &'static Form) -> Result<StepForm, String> {
        if let Some(built) = &self.built {
            // Built once for this very form: shared as it is.
            let built_on = built.0.base;
            if std::ptr::eq(built_on, base) || built_on == base {
                return Ok(StepForm::Built(built.clone()));
            }
            return Err("the prepared form was built for another step's form".into());
        }
        if self.saves_nothing() {
            return Ok(StepForm::Static(base));
        }
        let built = self.build_into(base)?;
        self.built = Some(built.clone());
        Ok(StepForm::Built(built))
    }

    /// Builds these plain changes into `base`. The offered choices and the message
    /// move into what is built, which keeps the only copy of them (the state writes
    /// them out from there); when the changes are refused they stay here, as they were.
    fn build_into(&mut self, base: &'static Form) -> Result<PreparedForm, String> {
        let form = if self.options.is_empty() && self.defaults.is_empty() && self.ranges.is_empty()
        {
            Cow::Borrowed(base)
        } else {
            let mut fields = base.fields().to_vec();
            let mut moved = 0;
            let built = self.change(&mut fields, &mut moved).and_then(|()| {
                crate::form::rules::check_fields(&fields).map_err(|e: FormError| e.to_string())
            });
            if let Err(e) = built {
                self.give_back(&mut fields, moved);
                return Err(e);
            }
            let mut form = Form::from_checked(fields);
            form.consent = base.consent;
            Cow::Owned(form)
        };
        Ok(PreparedForm(Arc::new(Built {
            form,
            base,
            changes: std::mem::take(self),
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
            // A secret is typed, never picked: options would show it.
            if field.secret {
                return Err(format!(
                    "field `{name}` is a secret: it takes no options, the person types it"
                ));
            }
            field.kind = match &field.kind {
                FieldKind::String {
                    format,
                    min_length,
                    max_length,
                    ..
                } => {
                    // Each choice is a value the field itself would take.
                    for choice in choices.iter() {
                        crate::form::rules::text_fits(
                            &choice.value,
                            *format,
                            *min_length,
                            *max_length,
                        )
                        .map_err(|why| {
                            format!("option {:?} for field `{name}` {why}", choice.value)
                        })?;
                    }
                    FieldKind::Select {
                        options: choices.take(),
                        default: None,
                        legacy_enum_names: false,
                    }
                }
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
        for (name, minimum, maximum) in &self.ranges {
            let field = fields
                .iter_mut()
                .find(|f| f.name == *name)
                .ok_or_else(|| format!("the form has no field `{name}` to set a range for"))?;
            narrow_range(&mut field.kind, minimum, maximum)
                .map_err(|why| format!("the range for `{name}`: {why}"))?;
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

/// The choices of `form`'s field `name` (none when it has no such select).
fn options_of<'f>(form: &'f Form, name: &str) -> &'f [Choice] {
    form.field(name)
        .and_then(|f| f.kind.options())
        .unwrap_or_default()
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

/// A question's message, with no other change (what the engine's `Call::ask` takes
/// most often).
impl From<&str> for Prepared {
    fn from(message: &str) -> Prepared {
        Prepared::new().message(message)
    }
}

impl From<&String> for Prepared {
    fn from(message: &String) -> Prepared {
        Prepared::new().message(message.as_str())
    }
}

impl From<String> for Prepared {
    fn from(message: String) -> Prepared {
        Prepared::new().message(message)
    }
}

impl Serialize for Prepared {
    /// Written as the state saves it (the offered choices as `[value, title]` pairs).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let changes = self.changes();
        let len = usize::from(changes.message.is_some())
            + usize::from(!changes.options.is_empty())
            + usize::from(!changes.defaults.is_empty())
            + usize::from(!changes.ranges.is_empty());
        let mut map = serializer.serialize_map(Some(len))?;
        if let Some(message) = &changes.message {
            map.serialize_entry("message", message)?;
        }
        if !changes.options.is_empty() {
            let options = self
                .offered()
                .map(|(name, offered)| (name, offered::List(offered)));
            map.serialize_entry("options", &offered::List(options))?;
        }
        if !changes.defaults.is_empty() {
            map.serialize_entry("defaults", &changes.defaults)?;
        }
        if !changes.ranges.is_empty() {
            map.serialize_entry("ranges", &changes.ranges)?;
        }
        map.end()
    }
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

    /// The choices offered for one field, as `(value, title)`.
    #[derive(Clone)]
    pub(super) enum Iter<'a> {
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

    impl<'a> Iterator for Iter<'a> {
        type Item = (&'a str, Option<&'a str>);

        fn next(&mut self) -> Option<Self::Item> {
            match self {
                Iter::Kept(choices) => choices.next().map(|c| (&*c.value, c.title.as_deref())),
                Iter::Moved { choices, variants } => choices.next().map(|c| {
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

/// Narrows a number field's bounds to `minimum..=maximum`, within those it declares.
fn narrow_range(kind: &mut FieldKind, minimum: &Value, maximum: &Value) -> Result<(), String> {
    let (own_lo, own_hi) = kind.integer_bounds().unwrap_or((0, -1));
    match kind {
        FieldKind::Integer {
            minimum: lo,
            maximum: hi,
            range,
            ..
        } => {
            let whole = |v: &Value, which: &str| {
                v.as_i64()
                    .map(i128::from)
                    .or_else(|| v.as_u64().map(i128::from))
                    .ok_or_else(|| format!("the {which} must be a whole number, not {v}"))
            };
            let (new_lo, new_hi) = (whole(minimum, "minimum")?, whole(maximum, "maximum")?);
            if new_lo < own_lo || new_hi > own_hi {
                return Err(format!(
                    "{new_lo}..={new_hi} is not within the form's own {own_lo}..={own_hi}: a question narrows a field's bounds, never widens them (check the values before asking)"
                ));
            }
            if new_lo > new_hi {
                return Err(format!(
                    "the minimum {new_lo} is greater than the maximum {new_hi}"
                ));
            }
            *lo = Some(new_lo);
            *hi = Some(new_hi);
            *range = (new_lo, new_hi);
        }
        FieldKind::Number {
            minimum: lo,
            maximum: hi,
            ..
        } => {
            let number = |v: &Value, which: &str| {
                v.as_f64()
                    .filter(|n| n.is_finite())
                    .ok_or_else(|| format!("the {which} must be a finite number, not {v}"))
            };
            let (new_lo, new_hi) = (number(minimum, "minimum")?, number(maximum, "maximum")?);
            if lo.is_some_and(|own| new_lo < own) || hi.is_some_and(|own| new_hi > own) {
                return Err(format!(
                    "{new_lo}..={new_hi} is not within the form's own bounds ({}..={})",
                    lo.map_or("none".to_owned(), |v| v.to_string()),
                    hi.map_or("none".to_owned(), |v| v.to_string())
                ));
            }
            if new_lo > new_hi {
                return Err(format!(
                    "the minimum {new_lo} is greater than the maximum {new_hi}"
                ));
            }
            *lo = Some(new_lo);
            *hi = Some(new_hi);
        }
        _ => return Err("the field is not a number".into()),
    }
    Ok(())
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
