//! The form model: a flat list of typed fields, built at compile time by the derive
//! or at run time (wizards with runtime choices, clients parsing a schema).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::form::Format;
use crate::form::Revision;
use crate::form::schema::SchemaJson;

/// One option of a single or multi-select: the wire value and an optional display title.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Choice {
    /// The value sent in the answer.
    pub value: Cow<'static, str>,
    /// What the user sees, when it differs from the value.
    pub title: Option<Cow<'static, str>>,
}

impl Choice {
    /// A choice from static strings (usable in constants and statics, such as a list
    /// of [`Choices`] the forms that offer it share).
    pub const fn new(value: &'static str, title: Option<&'static str>) -> Choice {
        Choice {
            value: Cow::Borrowed(value),
            title: match title {
                Some(t) => Some(Cow::Borrowed(t)),
                None => None,
            },
        }
    }

    /// A choice computed at run time.
    pub fn owned(value: impl Into<String>, title: Option<String>) -> Choice {
        Choice {
            value: Cow::Owned(value.into()),
            title: title.map(Cow::Owned),
        }
    }

    /// The title if there is one, else the value.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.value)
    }
}

/// The options of a select or multi-select, in order: a static list (what the derive
/// makes), a list built at run time, or one shared with others through an [`Arc`] (a
/// server's cached list, handed to every form that offers it without copying it).
/// It reads as a slice of [`Choice`]s.
///
/// ```
/// use std::sync::Arc;
/// use elicit_core::{Choice, Choices};
///
/// static SIZES: [Choice; 2] = [Choice::new("S", Some("Small")), Choice::new("L", Some("Large"))];
/// let fixed = Choices::from(&SIZES);
/// let built: Choices = vec![Choice::owned("A1", None), Choice::owned("B4", None)].into();
/// let cached: Arc<[Choice]> = Arc::from(vec![Choice::owned("A1", None)]);
/// let shared = Choices::from(Arc::clone(&cached)); // the list itself is shared
/// assert_eq!(fixed.len(), 2);
/// assert_eq!(built[1].value, "B4");
/// assert_eq!(shared.iter().map(|c| c.label()).collect::<Vec<_>>(), ["A1"]);
/// ```
#[derive(Clone)]
pub struct Choices(ChoicesRepr);

#[derive(Clone)]
enum ChoicesRepr {
    Static(&'static [Choice]),
    Owned(Vec<Choice>),
    Shared(Arc<[Choice]>),
}

impl Choices {
    /// A static list (usable in constants).
    pub(crate) const fn from_static(choices: &'static [Choice]) -> Choices {
        Choices(ChoicesRepr::Static(choices))
    }

    /// The options as a slice.
    fn as_slice(&self) -> &[Choice] {
        match &self.0 {
            ChoicesRepr::Static(choices) => choices,
            ChoicesRepr::Owned(choices) => choices,
            ChoicesRepr::Shared(choices) => choices,
        }
    }

    /// Takes the list out, leaving an empty one.
    pub(crate) fn take(&mut self) -> Choices {
        std::mem::replace(self, Choices::from_static(&[]))
    }

    /// The options as a `Vec`: moved when this list owns them, else copied.
    pub(crate) fn into_vec(self) -> Vec<Choice> {
        match self.0 {
            ChoicesRepr::Owned(choices) => choices,
            ChoicesRepr::Static(choices) => choices.to_vec(),
            ChoicesRepr::Shared(choices) => choices.to_vec(),
        }
    }
}

impl Default for Choices {
    /// No options.
    fn default() -> Choices {
        Choices::from_static(&[])
    }
}

impl std::ops::Deref for Choices {
    type Target = [Choice];
    fn deref(&self) -> &[Choice] {
        self.as_slice()
    }
}

impl AsRef<[Choice]> for Choices {
    fn as_ref(&self) -> &[Choice] {
        self.as_slice()
    }
}

impl<const N: usize> From<[Choice; N]> for Choices {
    fn from(list: [Choice; N]) -> Choices {
        Choices::from(Vec::from(list))
    }
}

impl From<Vec<Choice>> for Choices {
    fn from(choices: Vec<Choice>) -> Choices {
        Choices(ChoicesRepr::Owned(choices))
    }
}

impl From<Arc<[Choice]>> for Choices {
    fn from(choices: Arc<[Choice]>) -> Choices {
        Choices(ChoicesRepr::Shared(choices))
    }
}

impl From<&'static [Choice]> for Choices {
    fn from(choices: &'static [Choice]) -> Choices {
        Choices::from_static(choices)
    }
}

impl<const N: usize> From<&'static [Choice; N]> for Choices {
    fn from(choices: &'static [Choice; N]) -> Choices {
        Choices::from_static(choices)
    }
}

impl FromIterator<Choice> for Choices {
    fn from_iter<I: IntoIterator<Item = Choice>>(iter: I) -> Choices {
        Choices::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a Choices {
    type Item = &'a Choice;
    type IntoIter = std::slice::Iter<'a, Choice>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Two lists are equal when they hold the same options in the same order, however
/// they are kept.
impl PartialEq for Choices {
    fn eq(&self, other: &Choices) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Choices {}

impl std::hash::Hash for Choices {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Choices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What kind of value a field holds, with its constraints.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FieldKind {
    /// A text field (`type: "string"`).
    #[non_exhaustive]
    String {
        /// One of the four allowed formats.
        format: Option<Format>,
        /// Minimum length in Unicode scalar values.
        min_length: Option<u64>,
        /// Maximum length in Unicode scalar values.
        max_length: Option<u64>,
        /// Pre-filled value (2025-11-25 and later).
        default: Option<Cow<'static, str>>,
    },
    /// A whole number (`type: "integer"`).
    #[non_exhaustive]
    Integer {
        /// The announced `minimum`.
        minimum: Option<i128>,
        /// The announced `maximum`.
        maximum: Option<i128>,
        /// The range the validator enforces: the Rust type's range, intersected with the
        /// bounds and with `i64::MIN..=u64::MAX`, the whole numbers a JSON answer carries
        /// exactly (an `i128`/`u128` field refuses wider values as out of range).
        range: (i128, i128),
        /// Pre-filled value (2025-11-25 and later).
        default: Option<i128>,
    },
    /// A number (`type: "number"`).
    #[non_exhaustive]
    Number {
        /// The announced `minimum`.
        minimum: Option<f64>,
        /// The announced `maximum`.
        maximum: Option<f64>,
        /// The value lands in an `f32`: values beyond its range are refused.
        single_precision: bool,
        /// Pre-filled value (2025-11-25 and later).
        default: Option<f64>,
    },
    /// A checkbox (`type: "boolean"`).
    #[non_exhaustive]
    Boolean {
        /// Pre-filled value (every revision).
        default: Option<bool>,
    },
    /// Pick one of several options.
    #[non_exhaustive]
    Select {
        /// The options, in order.
        options: Choices,
        /// Pre-selected value (2025-11-25 and later).
        default: Option<Cow<'static, str>>,
        /// Emit the deprecated `enum` + `enumNames` shape even where `oneOf` is available.
        legacy_enum_names: bool,
    },
    /// Pick any number of options (2025-11-25 and later).
    #[non_exhaustive]
    MultiSelect {
        /// The options, in order.
        options: Choices,
        /// Fewest options to pick.
        min_items: Option<u64>,
        /// Most options to pick.
        max_items: Option<u64>,
        /// Pre-selected values.
        default: Option<Cow<'static, [Cow<'static, str>]>>,
    },
}

impl FieldKind {
    /// The oldest revision that can express this field.
    pub(crate) const fn min_revision(&self) -> Revision {
        match self {
            FieldKind::MultiSelect { .. } => Revision::V2025_11_25,
            _ => Revision::V2025_06_18,
        }
    }

    /// The default as the JSON value an answer would carry (what validation fills in
    /// for a field left out), if the field has one.
    pub fn default_value(&self) -> Option<Value> {
        Some(match self {
            FieldKind::String { default, .. } => Value::String(default.as_deref()?.to_owned()),
            FieldKind::Integer { default, .. } => int_value((*default)?),
            FieldKind::Number { default, .. } => {
                Value::Number(serde_json::Number::from_f64((*default)?)?)
            }
            FieldKind::Boolean { default } => Value::Bool((*default)?),
            FieldKind::Select { default, .. } => Value::String(default.as_deref()?.to_owned()),
            FieldKind::MultiSelect { default, .. } => Value::Array(
                default
                    .as_deref()?
                    .iter()
                    .map(|s| Value::String(s.to_string()))
                    .collect(),
            ),
        })
    }

    /// The whole numbers an integer field takes, lowest and highest: its announced
    /// bounds within the range the validator enforces.
    pub(crate) fn integer_bounds(&self) -> Option<(i128, i128)> {
        match self {
            FieldKind::Integer {
                minimum,
                maximum,
                range,
                ..
            } => Some((
                minimum.unwrap_or(range.0).max(range.0),
                maximum.unwrap_or(range.1).min(range.1),
            )),
            _ => None,
        }
    }

    /// The options of a select or multi-select.
    pub fn options(&self) -> Option<&[Choice]> {
        match self {
            FieldKind::Select { options, .. } | FieldKind::MultiSelect { options, .. } => {
                Some(options)
            }
            _ => None,
        }
    }
}

/// One property of a form.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Field {
    /// The property name on the wire (what `Deserialize` reads).
    pub name: Cow<'static, str>,
    /// The label shown to the user, when set.
    pub title: Option<Cow<'static, str>>,
    /// The help text shown to the user, when set.
    pub description: Option<Cow<'static, str>>,
    /// Whether the answer must contain the field (listed in `required`). A field with a
    /// default is not required: the default fills it in.
    pub required: bool,
    /// A secret (a password, an API key, a token, payment details: `#[elicit(secret)]`):
    /// text with no default, which MCP forbids asking in form mode. A form with one is
    /// asked on a web page (URL mode), which shows it as a password input.
    pub secret: bool,
    /// The field's type and constraints.
    pub kind: FieldKind,
}

impl Field {
    /// A field with no title or description (for the crate's own forms and tests; a
    /// field's kind cannot be written outside the crate).
    pub(crate) fn new(
        name: impl Into<Cow<'static, str>>,
        required: bool,
        kind: FieldKind,
    ) -> Field {
        Field {
            name: name.into(),
            title: None,
            description: None,
            required,
            secret: false,
            kind,
        }
    }

    /// Sets the title.
    pub(crate) fn with_title(mut self, title: impl Into<Cow<'static, str>>) -> Field {
        self.title = Some(title.into());
        self
    }

    /// The title if there is one, else the wire name: what to call the field in a message.
    pub fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
}

/// A flat elicitation form: the fields in declaration order.
///
/// Forms derived with `#[derive(Elicit)]` live in a `static`. At run time a form is
/// changed for one call (options computed from a database, a default from the call's
/// arguments) with `wizard::Prepared`, and a client reads the server's with
/// `client::read_schema`.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub(crate) fields: Cow<'static, [Field]>,
    pub(crate) min_revision: Revision,
    /// The `requestedSchema` JSON per revision, written once when first needed.
    pub(crate) schema_json: SchemaJson,
    /// A consent (`#[elicit(consent)]`): never asked through a link the model reads.
    pub(crate) consent: bool,
}

/// What is wrong with a form: one built at run time breaks a rule of the MCP subset,
/// it needs a newer protocol revision than the peer speaks, or a revision string is not
/// one this crate knows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormError {
    /// A form built at run time (changed for one call, or read from a schema) breaks a
    /// rule of the subset; the text says which.
    Invalid(String),
    /// The form needs a newer revision (for example a multi-select on 2025-06-18).
    #[non_exhaustive]
    Unsupported {
        /// What the peer speaks.
        revision: Revision,
        /// The oldest revision the form needs.
        needs: Revision,
        /// The first field that needs it.
        field: String,
    },
    /// A protocol version string that is not one of the [`Revision`]s this crate knows
    /// (the text as given, cut to 40 characters).
    UnknownRevision(String),
}

impl FormError {
    pub(crate) fn new(message: String) -> Self {
        FormError::Invalid(message)
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::Invalid(message) => f.write_str(message),
            FormError::Unsupported {
                revision,
                needs,
                field,
            } => write!(
                f,
                "field `{field}` needs MCP {needs} or later (a multi-select), but the client speaks {revision}"
            ),
            FormError::UnknownRevision(given) => write!(
                f,
                "unknown MCP protocol revision {given:?}: expected \"2025-06-18\", \"2025-11-25\" or \"2026-07-28\""
            ),
        }
    }
}

impl std::error::Error for FormError {}

impl Form {
    /// A form over static fields (the derive's, through `__private::static_form`;
    /// checked at compile time).
    pub(crate) const fn from_static(fields: &'static [Field]) -> Form {
        let mut min_revision = Revision::V2025_06_18;
        let mut i = 0;
        while i < fields.len() {
            min_revision = min_revision.max(fields[i].kind.min_revision());
            i += 1;
        }
        Form {
            fields: Cow::Borrowed(fields),
            min_revision,
            schema_json: SchemaJson::new(),
            consent: false,
        }
    }

    /// This form, marked a consent (`#[elicit(consent)]`).
    pub(crate) const fn into_consent(mut self) -> Form {
        self.consent = true;
        self
    }

    /// Whether the form is a consent (`#[elicit(consent)]` on its type): an approval the
    /// person must give. The engine never asks a consent through a link in a tool result,
    /// which the model reads too, unless the pages allow it
    /// (`Pages::consent_by_link`, feature `web`).
    ///
    /// ```
    /// use elicit_core::Elicit;
    ///
    /// #[derive(Elicit, serde::Deserialize)]
    /// #[elicit(consent)]
    /// struct Approve {
    ///     /// I understand this deletes the logs.
    ///     confirm: bool,
    /// }
    /// assert!(Approve::form().is_consent());
    /// ```
    pub fn is_consent(&self) -> bool {
        self.consent
    }

    /// A form built at run time from fields of other forms (a derived form's, or one
    /// `client::read_schema` read), changed or not. The
    /// same rules the derive checks at compile time are checked here: at least one
    /// field, unique names, bounds in order, defaults that fit, options that are unique
    /// and non-empty.
    ///
    /// ```
    /// use elicit_core::{Elicit, Form};
    /// use serde::Deserialize;
    ///
    /// #[derive(Elicit, Deserialize)]
    /// struct Contact {
    ///     #[elicit(format = "email")]
    ///     email: String,
    /// }
    ///
    /// #[derive(Elicit, Deserialize)]
    /// struct Shipping {
    ///     address: String,
    /// }
    ///
    /// // One form asking for both.
    /// let both = Contact::form().fields().iter().chain(Shipping::form().fields());
    /// let form = Form::new(both.cloned().collect())?;
    /// assert_eq!(form.fields().len(), 2);
    ///
    /// // The names must stay unique.
    /// let twice = Contact::form().fields().iter().chain(Contact::form().fields());
    /// assert!(Form::new(twice.cloned().collect()).is_err());
    /// # Ok::<(), elicit_core::FormError>(())
    /// ```
    pub fn new(fields: Vec<Field>) -> Result<Form, FormError> {
        crate::form::rules::check_fields(&fields)?;
        Ok(Form::from_checked(fields))
    }

    /// A form over fields that passed the checks.
    pub(crate) fn from_checked(fields: Vec<Field>) -> Form {
        let min_revision = fields
            .iter()
            .fold(Revision::V2025_06_18, |r, f| r.max(f.kind.min_revision()));
        Form {
            fields: Cow::Owned(fields),
            min_revision,
            schema_json: SchemaJson::new(),
            consent: false,
        }
    }

    /// The fields in declaration order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The fields, to change: the schema written from them so far is dropped.
    pub(crate) fn fields_mut(&mut self) -> &mut Vec<Field> {
        self.schema_json = SchemaJson::new();
        self.fields.to_mut()
    }

    /// A field by wire name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether a field of this form is a secret (`#[elicit(secret)]`). MCP forbids asking
    /// for one in form mode: such a form has no `requestedSchema` and is asked on a web
    /// page (URL mode).
    ///
    /// ```
    /// use elicit_core::{Elicit, SecretString};
    /// use serde::Deserialize;
    ///
    /// #[derive(Elicit, Deserialize)]
    /// struct Login {
    ///     user: String,
    ///     #[elicit(secret)]
    ///     password: SecretString,
    /// }
    ///
    /// assert!(Login::form().has_secret());
    /// assert!(Login::form().field("password").is_some_and(|f| f.secret));
    /// assert!(Login::requested_schema(elicit_core::Revision::LATEST).is_err());
    /// ```
    pub fn has_secret(&self) -> bool {
        self.secret().is_some()
    }

    /// The first secret field.
    pub(crate) fn secret(&self) -> Option<&Field> {
        self.fields.iter().find(|f| f.secret)
    }

    /// The oldest revision that can express every field of this form.
    pub const fn min_revision(&self) -> Revision {
        self.min_revision
    }
}

/// A whole number as the JSON value an answer carries.
pub(crate) fn int_value(v: i128) -> Value {
    if let Ok(v) = i64::try_from(v) {
        Value::from(v)
    } else if let Ok(v) = u64::try_from(v) {
        Value::from(v)
    } else {
        Value::from(v as f64)
    }
}

/// A unit enum deriving `Elicit`: the options of a single or multi-select.
///
/// `#[derive(Elicit)]` on an enum implements it, so the enum can be a field
/// (`size: Size`, `size: Option<Size>`) or the items of a multi-select
/// (`toppings: Vec<Topping>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the item of a multi-select",
    label = "not an enum deriving `Elicit`",
    note = "MCP forms are flat: the only list a form can hold is a multi-select of a unit enum deriving `Elicit` (`Vec<MyEnum>`, `BTreeSet<MyEnum>` or `HashSet<MyEnum>`)"
)]
pub trait Options {
    /// The options in declaration order: wire value (after serde renaming) and title.
    const CHOICES: &'static [Choice];
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    /// However a list is kept, it compares, hashes and prints as its options.
    #[test]
    fn choices_are_their_options_however_kept() {
        static LIST: [Choice; 2] = [Choice::new("a", None), Choice::new("b", Some("B"))];
        let kept = [
            Choices::from_static(&LIST),
            Choices::from(LIST.to_vec()),
            Choices::from(Arc::<[Choice]>::from(LIST.to_vec())),
            LIST.iter().cloned().collect(),
        ];
        let hash = |c: &Choices| {
            let mut h = DefaultHasher::new();
            c.hash(&mut h);
            h.finish()
        };
        for c in &kept {
            assert_eq!(c, &kept[0]);
            assert_eq!(hash(c), hash(&kept[0]));
            assert_eq!(format!("{c:?}"), format!("{:?}", &LIST[..]));
            assert_eq!(c.iter().map(Choice::label).collect::<Vec<_>>(), ["a", "B"]);
        }
        assert_ne!(Choices::from_static(&LIST[..1]), kept[0]);
        let mut moved = kept[1].clone();
        assert_eq!(moved.take(), kept[0]);
        assert!(moved.is_empty());
        assert_eq!(kept[2].clone().into_vec(), LIST.to_vec());
        assert!(Choices::default().is_empty());
    }
}
