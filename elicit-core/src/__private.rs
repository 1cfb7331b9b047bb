//! Support for the code `#[derive(Elicit)]` and `#[derive(Wizard)]` generate. Not a
//! public API: names here change without notice.
//!
//! The derive judges what it can from the syntax of a field's type (`u8`, `String`,
//! `Option<bool>`, ...) and reports a mistake itself. A type it cannot judge that way (an
//! enum, an alias) is judged by the type checker through [`FormField`] and the marker
//! traits below, each with a message in the user's words and no impl to recommend; the
//! traits are re-exported, hidden, at the crate root, so an error names `TextField`, not
//! a path through this module. Values (bounds against a type's range, defaults against
//! an enum's variants) are judged by `const fn`s that return a verdict, the derive's
//! code panicking at the user's attribute. Secrets: a field marked `#[elicit(secret)]`
//! through [`SecretField`], an unmarked one of a type the derive cannot judge by a
//! [`Probe`] that method resolution settles, and a wizard's step whose form has one by
//! a `Probe` too.

#![allow(missing_docs)]

use std::borrow::Cow;

pub use crate::NoSecrets;
pub use crate::form::{Choice, Field, FieldKind, Form, Format};
pub use crate::form::{Options, Revision};
pub use core::option::Option::{self, None, Some};
pub use serde_json::Value;
pub use std::borrow::Cow::Borrowed;

#[cfg(feature = "testing")]
pub mod testing;

/// The items `#[derive(Wizard)]` writes besides the `Wizard` trait.
pub use crate::wizard::derived::{DEFAULT_ATTEMPTS, Rejection, StepInfo, WizardStep};
/// The probes of a wizard's steps (defined beside `WizardStep`, so an error quotes no
/// path of this module) and the `Probe` of the fields.
pub use crate::wizard::derived::{OtherProbe, PlainProbe, PlainStep, Probe, SecretProbe};

/// The form of `#[derive(Elicit)]`: its static fields, checked at compile time.
pub const fn static_form(fields: &'static [Field]) -> Form {
    Form::from_static(fields)
}

/// The form of `#[derive(Elicit)]` with `#[elicit(consent)]`.
pub const fn consent_form(fields: &'static [Field]) -> Form {
    Form::from_static(fields).into_consent()
}

/// Parses a validated step answer for a wizard.
pub fn parse_answer<T: serde::de::DeserializeOwned>(content: &Value) -> Result<T, Rejection> {
    T::deserialize(content).map_err(Rejection::Parse)
}

/// The shape a Rust type gives a form field, before attributes.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// `String`.
    Text,
    /// An integer type with its range and the bounds worth telling the client.
    Integer {
        min: i128,
        max: i128,
        announce_min: bool,
        announce_max: bool,
        type_name: &'static str,
    },
    /// `f32` (`single`) or `f64`.
    Number { single: bool },
    /// `bool`.
    Boolean,
    /// A unit enum deriving `Elicit`.
    Select(&'static [Choice]),
    /// A `Vec`/`BTreeSet`/`HashSet` of such an enum.
    MultiSelect(&'static [Choice]),
}

/// A type that can be one field of an elicitation form.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "not a form field",
    note = "MCP forms are one flat object: a field is a `String`, an integer, `f32`/`f64`, `bool`, a unit enum deriving `Elicit`, an `Option` of one of these, or a `Vec`/`BTreeSet`/`HashSet` of such an enum (a multi-select)",
    note = "to ask for structured data, split it into several flat fields, or ask in several steps with `#[derive(Wizard)]`"
)]
pub trait FormField {
    const SHAPE: Shape;
    const REQUIRED: bool = true;
}

macro_rules! integers {
    ($($t:ty => $announce_min:expr, $announce_max:expr;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl FormField for $t {
            const SHAPE: Shape = Shape::Integer {
                min: <$t>::MIN as i128,
                // u128 answers cannot exceed u64 in JSON anyway; keep the range in i128.
                max: if (<$t>::MAX as u128) > (i128::MAX as u128) { i128::MAX } else { <$t>::MAX as i128 },
                announce_min: $announce_min,
                announce_max: $announce_max,
                type_name: stringify!($t),
            };
        }
        #[diagnostic::do_not_recommend]
        impl NumericField for $t {}
        #[diagnostic::do_not_recommend]
        impl IntDefault for $t {}
    )*};
}

// Bounds that fit a JavaScript number exactly are told to the client; unsigned types
// always say `minimum: 0`.
integers! {
    i8 => true, true;
    i16 => true, true;
    i32 => true, true;
    i64 => false, false;
    i128 => false, false;
    isize => false, false;
    u8 => true, true;
    u16 => true, true;
    u32 => true, true;
    u64 => true, false;
    u128 => true, false;
    usize => true, false;
}

#[diagnostic::do_not_recommend]
impl FormField for f64 {
    const SHAPE: Shape = Shape::Number { single: false };
}
#[diagnostic::do_not_recommend]
impl FormField for f32 {
    const SHAPE: Shape = Shape::Number { single: true };
}
#[diagnostic::do_not_recommend]
impl FormField for bool {
    const SHAPE: Shape = Shape::Boolean;
}
#[diagnostic::do_not_recommend]
impl FormField for String {
    const SHAPE: Shape = Shape::Text;
}
#[diagnostic::do_not_recommend]
impl<T: FormField> FormField for Option<T> {
    const SHAPE: Shape = T::SHAPE;
    const REQUIRED: bool = false;
}
#[diagnostic::do_not_recommend]
impl<T: Options> FormField for Vec<T> {
    const SHAPE: Shape = Shape::MultiSelect(T::CHOICES);
}
#[diagnostic::do_not_recommend]
impl<T: Options> FormField for std::collections::BTreeSet<T> {
    const SHAPE: Shape = Shape::MultiSelect(T::CHOICES);
}
#[diagnostic::do_not_recommend]
impl<T: Options, S> FormField for std::collections::HashSet<T, S> {
    const SHAPE: Shape = Shape::MultiSelect(T::CHOICES);
}
/// A text field; one that is not marked `#[elicit(secret)]` is refused by [`MarkProbe`].
#[diagnostic::do_not_recommend]
impl FormField for secrecy::SecretString {
    const SHAPE: Shape = Shape::Text;
}

/// The type of a field marked `#[elicit(secret)]`: one that keeps its value out of
/// `Debug` output. Only `SecretString` (and an `Option` of it) is one, so a secret cannot
/// land in a `String` that a log line prints.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a secret",
    label = "a field marked `#[elicit(secret)]` must be an `elicit_core::SecretString`",
    note = "make the field an `elicit_core::SecretString` (or an `Option` of one): its `Debug` output shows no value, and its memory is wiped when it is dropped; read it with `elicit_core::ExposeSecret::expose_secret`"
)]
pub trait SecretField {
    const SHAPE: Shape;
    const REQUIRED: bool = true;
}

#[diagnostic::do_not_recommend]
impl SecretField for secrecy::SecretString {
    const SHAPE: Shape = Shape::Text;
}
#[diagnostic::do_not_recommend]
impl<T: SecretField> SecretField for Option<T> {
    const SHAPE: Shape = T::SHAPE;
    const REQUIRED: bool = false;
}

/// What `#[derive(Elicit)]` probes each field not marked `#[elicit(secret)]` with, by
/// method resolution (which tries `&&Probe`, then `&Probe`):
/// `(&&Probe::<T>::NEW).marked::<T>()` picks [`MarkProbe`] for a type that holds a secret
/// (a [`SecretField`]), which requires [`Unmarked`] and so fails with its message, and
/// [`NoMarkProbe`] for every other type.
pub trait MarkProbe {
    fn marked<X: ?Sized + Unmarked>(&self) {}
}
impl<T: SecretField> MarkProbe for &Probe<T> {}

pub trait NoMarkProbe {
    fn marked<X: ?Sized>(&self) {}
}
impl<T: ?Sized> NoMarkProbe for Probe<T> {}

/// Only a type no field can have is [`Unmarked`]: a `SecretString` field not marked
/// `#[elicit(secret)]` fails on it.
#[diagnostic::on_unimplemented(
    message = "a `SecretString` field must be marked `#[elicit(secret)]`",
    label = "a secret, not marked as one",
    note = "mark it `#[elicit(secret)]`: MCP forbids asking for secrets in form mode, and the mark makes its form one asked on a web page (URL mode)"
)]
pub trait Unmarked {}
#[diagnostic::do_not_recommend]
impl<T: ?Sized + FormField + Never> Unmarked for T {}

/// Implemented by no type.
pub trait Never {}

/// Fields that `format`, `min_length` and `max_length` apply to.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text field",
    label = "this keyword applies only to `String` fields",
    note = "`format`, `min_length` and `max_length` describe text: use them on a `String` (or `Option<String>`) field"
)]
pub trait TextField {
    /// Named by the derive's check, `<FieldType as TextField>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl TextField for String {}
#[diagnostic::do_not_recommend]
impl TextField for secrecy::SecretString {}

/// Fields that `minimum` and `maximum` apply to.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number field",
    label = "this keyword applies only to integer and float fields",
    note = "`minimum` and `maximum` bound numbers: use them on an integer, `f32` or `f64` field; text has `min_length`/`max_length`, multi-selects `min_items`/`max_items`"
)]
pub trait NumericField {
    /// Named by the derive's check, `<FieldType as NumericField>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl NumericField for f32 {}
#[diagnostic::do_not_recommend]
impl NumericField for f64 {}

/// Fields that `min_items` and `max_items` apply to.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a multi-select field",
    label = "this keyword applies only to multi-selects",
    note = "`min_items` and `max_items` count the options picked in a multi-select: a `Vec`, `BTreeSet` or `HashSet` of a unit enum deriving `Elicit`"
)]
pub trait MultiSelectField {
    /// Named by the derive's check, `<FieldType as MultiSelectField>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl<T: Options> MultiSelectField for Vec<T> {}
#[diagnostic::do_not_recommend]
impl<T: Options> MultiSelectField for std::collections::BTreeSet<T> {}
#[diagnostic::do_not_recommend]
impl<T: Options, S> MultiSelectField for std::collections::HashSet<T, S> {}

/// Fields that `enum_names` applies to.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a single-select field",
    label = "`enum_names` applies only to a unit enum deriving `Elicit`",
    note = "`enum_names` asks for the legacy `enum` + `enumNames` shape of a single select"
)]
pub trait SelectField {
    /// Named by the derive's check, `<FieldType as SelectField>::FITS`, spanned at the key.
    const FITS: () = ();
}

#[diagnostic::on_unimplemented(
    message = "a text default cannot be the default of a `{Self}` field",
    label = "default of the wrong type",
    note = "text defaults (\"...\") fit `String` fields and enum fields (the wire value of a variant)"
)]
pub trait StrDefault {
    /// Named by the derive's check, `<FieldType as StrDefault>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl StrDefault for String {}
#[diagnostic::do_not_recommend]
impl<T: StrDefault> StrDefault for Option<T> {}

#[diagnostic::on_unimplemented(
    message = "`true`/`false` cannot be the default of a `{Self}` field",
    label = "default of the wrong type",
    note = "`true`/`false` defaults fit `bool` fields only"
)]
pub trait BoolDefault {
    /// Named by the derive's check, `<FieldType as BoolDefault>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl BoolDefault for bool {}
#[diagnostic::do_not_recommend]
impl<T: BoolDefault> BoolDefault for Option<T> {}

#[diagnostic::on_unimplemented(
    message = "a number cannot be the default of a `{Self}` field",
    label = "default of the wrong type",
    note = "number defaults fit integer, `f32` and `f64` fields only"
)]
pub trait IntDefault {
    /// Named by the derive's check, `<FieldType as IntDefault>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl IntDefault for f32 {}
#[diagnostic::do_not_recommend]
impl IntDefault for f64 {}
#[diagnostic::do_not_recommend]
impl<T: IntDefault> IntDefault for Option<T> {}

#[diagnostic::on_unimplemented(
    message = "a fractional number cannot be the default of a `{Self}` field",
    label = "default of the wrong type",
    note = "fractional defaults fit `f32` and `f64` fields only; an integer field needs a whole number"
)]
pub trait FloatDefault {
    /// Named by the derive's check, `<FieldType as FloatDefault>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl FloatDefault for f32 {}
#[diagnostic::do_not_recommend]
impl FloatDefault for f64 {}
#[diagnostic::do_not_recommend]
impl<T: FloatDefault> FloatDefault for Option<T> {}

#[diagnostic::on_unimplemented(
    message = "a list cannot be the default of a `{Self}` field",
    label = "default of the wrong type",
    note = "list defaults ([\"a\", \"b\"]) fit multi-selects only: a `Vec`, `BTreeSet` or `HashSet` of a unit enum deriving `Elicit`"
)]
pub trait ListDefault {
    /// Named by the derive's check, `<FieldType as ListDefault>::FITS`, spanned at the key.
    const FITS: () = ();
}
#[diagnostic::do_not_recommend]
impl<T: ListDefault> ListDefault for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: Options> ListDefault for Vec<T> {}
#[diagnostic::do_not_recommend]
impl<T: Options> ListDefault for std::collections::BTreeSet<T> {}
#[diagnostic::do_not_recommend]
impl<T: Options, S> ListDefault for std::collections::HashSet<T, S> {}

#[diagnostic::do_not_recommend]
impl<T: TextField> TextField for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: NumericField> NumericField for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: MultiSelectField> MultiSelectField for Option<T> {}
#[diagnostic::do_not_recommend]
impl<T: SelectField> SelectField for Option<T> {}

/// A default or bound literal, as written in the attribute.
#[derive(Clone, Copy, Debug)]
pub enum Lit {
    Str(&'static str),
    Bool(bool),
    Int(i128),
    Float(f64),
    List(&'static [Cow<'static, str>]),
}

/// The smallest whole number a JSON answer carries exactly (`i64::MIN`).
const JSON_INT_MIN: i128 = i64::MIN as i128;
/// The largest whole number a JSON answer carries exactly (`u64::MAX`).
const JSON_INT_MAX: i128 = u64::MAX as i128;

// The value checks below return a verdict instead of panicking: the derive writes the
// `panic!` itself, spanned at the value, so a failed evaluation quotes the user's
// attribute and nothing of this module.

/// Whether an integer bound or default fits the field's Rust type: `-1` below its
/// smallest value, `1` above its largest, `0` within (or not an integer field).
pub const fn int_fit(shape: Shape, value: i128) -> i8 {
    if let Shape::Integer { min, max, .. } = shape {
        if value < min {
            return -1;
        }
        if value > max {
            return 1;
        }
    }
    0
}

/// Whether a fractional bound or default fits the field's type: `1` outside an `f32`'s
/// range, `2` on an integer field, `0` otherwise.
pub const fn float_fit(shape: Shape, value: f64) -> u8 {
    if let Shape::Number { single: true } = shape
        && (value > f32::MAX as f64 || value < f32::MIN as f64)
    {
        return 1;
    }
    if let Shape::Integer { .. } = shape {
        return 2;
    }
    0
}

/// Whether a text default is the wire value of one of the enum's variants (always, for
/// a field that is not a select).
pub const fn is_choice(shape: Shape, value: &str) -> bool {
    match shape {
        Shape::Select(c) | Shape::MultiSelect(c) => has_choice(c, value),
        _ => true,
    }
}

const fn has_choice(choices: &[Choice], value: &str) -> bool {
    let mut i = 0;
    while i < choices.len() {
        if let Cow::Borrowed(v) = choices[i].value
            && str_eq(v, value)
        {
            return true;
        }
        i += 1;
    }
    false
}

pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The attributes of one field, as plain `Copy` data the derive can write as a literal.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    pub name: &'static str,
    pub shape: Shape,
    pub required: bool,
    pub title: Option<&'static str>,
    pub description: Option<&'static str>,
    pub format: Option<Format>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub minimum: Option<Lit>,
    pub maximum: Option<Lit>,
    pub default: Option<Lit>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub legacy_enum_names: bool,
    pub secret: bool,
}

impl FieldSpec {
    pub const fn new(name: &'static str, shape: Shape, required: bool) -> FieldSpec {
        FieldSpec {
            name,
            shape,
            required,
            title: None,
            description: None,
            format: None,
            min_length: None,
            max_length: None,
            minimum: None,
            maximum: None,
            default: None,
            min_items: None,
            max_items: None,
            legacy_enum_names: false,
            secret: false,
        }
    }

    /// Turns the spec into a field. Mismatches were rejected by the checks the derive
    /// emits beside it, so this only converts.
    pub const fn build(self) -> Field {
        let kind = match self.shape {
            Shape::Text => FieldKind::String {
                format: self.format,
                min_length: self.min_length,
                max_length: self.max_length,
                default: match self.default {
                    Some(Lit::Str(s)) => Some(Cow::Borrowed(s)),
                    _ => None,
                },
            },
            Shape::Integer {
                min,
                max,
                announce_min,
                announce_max,
                ..
            } => {
                let lo = match self.minimum {
                    Some(Lit::Int(v)) => Some(v),
                    _ => None,
                };
                let hi = match self.maximum {
                    Some(Lit::Int(v)) => Some(v),
                    _ => None,
                };
                // A JSON answer carries a whole number exactly only within
                // `i64::MIN..=u64::MAX` (serde_json holds anything wider as a float,
                // which no integer type reads), so `i128`/`u128` fields are held to
                // that: a wider value is refused as out of range, by `validate` and
                // the typed parse alike.
                let (min, max) = (
                    if min < JSON_INT_MIN {
                        JSON_INT_MIN
                    } else {
                        min
                    },
                    if max > JSON_INT_MAX {
                        JSON_INT_MAX
                    } else {
                        max
                    },
                );
                let range_lo = match lo {
                    Some(v) if v > min => v,
                    _ => min,
                };
                let range_hi = match hi {
                    Some(v) if v < max => v,
                    _ => max,
                };
                FieldKind::Integer {
                    minimum: match lo {
                        Some(v) => Some(v),
                        None if announce_min => Some(min),
                        None => None,
                    },
                    maximum: match hi {
                        Some(v) => Some(v),
                        None if announce_max => Some(max),
                        None => None,
                    },
                    range: (range_lo, range_hi),
                    default: match self.default {
                        Some(Lit::Int(v)) => Some(v),
                        _ => None,
                    },
                }
            }
            Shape::Number { single } => FieldKind::Number {
                minimum: lit_f64(self.minimum),
                maximum: lit_f64(self.maximum),
                single_precision: single,
                default: lit_f64(self.default),
            },
            Shape::Boolean => FieldKind::Boolean {
                default: match self.default {
                    Some(Lit::Bool(b)) => Some(b),
                    _ => None,
                },
            },
            Shape::Select(options) => FieldKind::Select {
                options: crate::form::Choices::from_static(options),
                default: match self.default {
                    Some(Lit::Str(s)) => Some(Cow::Borrowed(s)),
                    _ => None,
                },
                legacy_enum_names: self.legacy_enum_names,
            },
            Shape::MultiSelect(options) => FieldKind::MultiSelect {
                options: crate::form::Choices::from_static(options),
                min_items: self.min_items,
                max_items: self.max_items,
                default: match self.default {
                    Some(Lit::List(l)) => Some(Cow::Borrowed(l)),
                    _ => None,
                },
            },
        };
        Field {
            name: Cow::Borrowed(self.name),
            title: opt_cow(self.title),
            description: opt_cow(self.description),
            // A field with a default may be left out: the validator fills it in.
            required: self.required && self.default.is_none(),
            secret: self.secret,
            kind,
        }
    }
}

const fn lit_f64(lit: Option<Lit>) -> Option<f64> {
    match lit {
        Some(Lit::Int(v)) => Some(v as f64),
        Some(Lit::Float(v)) => Some(v),
        _ => None,
    }
}

const fn opt_cow(s: Option<&'static str>) -> Option<Cow<'static, str>> {
    match s {
        Some(s) => Some(Cow::Borrowed(s)),
        None => None,
    }
}
