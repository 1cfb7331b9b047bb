//! Answer validation: the `content` of an accepted elicitation checked against exactly
//! the constraints the form emitted. Every problem of every field is reported at once.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::form::{Field, FieldKind, Form, Format};

/// How strictly answers are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// Values must have the JSON type the schema announced (the default).
    #[default]
    Strict,
    /// Also accept what real clients are known to send: numbers and booleans as
    /// strings (`"42"`, `"true"`). Everything else is checked as strictly as in
    /// `Strict`. (Whole numbers written as floats, `3.0`, are integers in JSON Schema
    /// and accepted for integer fields in both modes.)
    Lenient,
}

/// What is wrong with one answer value.
/// Numbers carried by a variant are the limit and what was sent.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
#[allow(missing_docs)]
pub enum Problem {
    /// A required field is absent (or `null`).
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// What the field takes, in words ("text", "a whole number", ...).
        expected: &'static str,
        /// The JSON type that was sent.
        found: &'static str,
    },
    /// Text shorter than `minLength` (counted in Unicode scalar values).
    TooShort { min: u64, length: u64 },
    /// Text longer than `maxLength`.
    TooLong { max: u64, length: u64 },
    /// Text that does not match the field's format.
    BadFormat(Format),
    /// An integer field got a fractional number.
    NotWhole,
    /// A number below `minimum` (or below what the Rust type holds).
    BelowMinimum { min: String },
    /// A number above `maximum` (or above what the Rust type holds).
    AboveMaximum { max: String },
    /// A select's value is not one of the options offered.
    NotAnOption { value: String },
    /// A multi-select with fewer items than `minItems`.
    TooFewItems { min: u64, count: u64 },
    /// A multi-select with more items than `maxItems`.
    TooManyItems { max: u64, count: u64 },
    /// A multi-select naming the same option twice.
    Duplicate { value: String },
}

/// Longest piece of a client's value repeated in an error message.
const ECHO_LIMIT: usize = 40;

/// The most repeated or unknown values reported for one multi-select.
pub const MAX_ITEM_PROBLEMS: usize = 10;

fn echo(s: &str) -> String {
    if s.chars().nth(ECHO_LIMIT).is_none() {
        s.to_owned()
    } else {
        let mut cut: String = s.chars().take(ECHO_LIMIT).collect();
        cut.push('…');
        cut
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => f.write_str("an answer is required"),
            Problem::WrongType { expected, found } => write!(f, "expected {expected}, got {found}"),
            Problem::TooShort { min, .. } => {
                write!(f, "must be at least {min} character{}", plural(*min))
            }
            Problem::TooLong { max, .. } => {
                write!(f, "must be at most {max} character{}", plural(*max))
            }
            Problem::BadFormat(Format::Email) => f.write_str("not an e-mail address"),
            Problem::BadFormat(Format::Uri) => {
                f.write_str("not an absolute URI (such as https://example.com/page)")
            }
            Problem::BadFormat(Format::Date) => {
                f.write_str("not a date in the form YYYY-MM-DD (such as 2025-02-01)")
            }
            Problem::BadFormat(Format::DateTime) => f.write_str(
                "not a date and time with offset (RFC 3339, such as 2025-02-01T18:30:00Z)",
            ),
            Problem::NotWhole => f.write_str("must be a whole number"),
            Problem::BelowMinimum { min } => write!(f, "must be at least {min}"),
            Problem::AboveMaximum { max } => write!(f, "must be at most {max}"),
            Problem::NotAnOption { value } => write!(f, "{value:?} is not one of the options"),
            Problem::TooFewItems { min, .. } => {
                write!(f, "choose at least {min} option{}", plural(*min))
            }
            Problem::TooManyItems { max, .. } => {
                write!(f, "choose at most {max} option{}", plural(*max))
            }
            Problem::Duplicate { value } => write!(f, "{value:?} is chosen more than once"),
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One problem with one field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The field's wire name.
    pub field: Cow<'static, str>,
    /// The field's title (or wire name), for messages.
    pub label: Cow<'static, str>,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.label, self.problem)
    }
}

/// Every problem found in one answer, in field order.
///
/// `Display` renders a message fit to show the user when asking again:
/// `"E-mail: not an e-mail address; Retention days: must be at most 365"`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationErrors {
    errors: Vec<FieldError>,
}

impl ValidationErrors {
    pub(crate) fn new(errors: Vec<FieldError>) -> Self {
        ValidationErrors { errors }
    }

    /// The problems, in field order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The problems of one field (by wire name).
    pub fn for_field<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a FieldError> + 'a {
        self.errors.iter().filter(move |e| e.field == name)
    }

    /// Number of problems (never zero).
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Always `false`: a `ValidationErrors` holds at least one problem.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

impl IntoIterator for ValidationErrors {
    type Item = FieldError;
    type IntoIter = std::vec::IntoIter<FieldError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Why `content` could not even be looked at field by field.
#[derive(Clone, Debug, PartialEq)]
pub enum ContentError {
    /// `content` is not a JSON object.
    NotAnObject {
        /// The JSON type that was sent.
        found: &'static str,
    },
    /// The fields have problems.
    Invalid(ValidationErrors),
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentError::NotAnObject { found } => {
                write!(
                    f,
                    "the answer must be an object of field values, got {found}"
                )
            }
            ContentError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ContentError {}

impl Form {
    /// Checks an accepted answer's `content` against the form.
    ///
    /// Returns the content to deserialize: borrowed when it is fine as sent, owned when
    /// defaults were filled in, values coerced ([`Strictness::Lenient`]) or unknown keys
    /// stripped (for types with `#[serde(deny_unknown_fields)]`). `None` content is
    /// read as an empty object.
    pub fn validate<'a>(
        &self,
        content: Option<&'a Value>,
        strictness: Strictness,
    ) -> Result<Cow<'a, Value>, ContentError> {
        let map = match content {
            // What clients send: one pass, no lookups, nothing to copy.
            Some(whole @ Value::Object(map))
                if crate::parse::clean(&self.fields, map, strictness) =>
            {
                return Ok(Cow::Borrowed(whole));
            }
            Some(Value::Object(map)) => Some(map),
            None | Some(Value::Null) => None,
            Some(other) => {
                return Err(ContentError::NotAnObject {
                    found: json_type(other),
                });
            }
        };
        let mut errors = Vec::new();
        let mut changes: Vec<(&str, Value)> = Vec::new();
        for field in self.fields.iter() {
            let value = map
                .and_then(|m| m.get(&*field.name))
                .filter(|v| !v.is_null());
            match value {
                None => {
                    if let Some(default) = default_value(&field.kind) {
                        changes.push((&field.name, default));
                    } else if field.required {
                        push(&mut errors, field, Problem::Missing);
                    }
                }
                Some(v) => {
                    if let Some(coerced) = check_value(field, v, strictness, &mut errors) {
                        changes.push((&field.name, coerced));
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Err(ContentError::Invalid(ValidationErrors { errors }));
        }
        let strip =
            self.strip_unknown && map.is_some_and(|m| m.keys().any(|k| self.field(k).is_none()));
        if changes.is_empty() && !strip {
            return Ok(match content {
                Some(v @ Value::Object(_)) => Cow::Borrowed(v),
                _ => Cow::Owned(Value::Object(Map::new())),
            });
        }
        let mut out = Map::new();
        if let Some(m) = map {
            for (k, v) in m {
                if !strip || self.field(k).is_some() {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        for (k, v) in changes {
            out.insert(k.to_owned(), v);
        }
        Ok(Cow::Owned(Value::Object(out)))
    }
}

fn push(errors: &mut Vec<FieldError>, field: &Field, problem: Problem) {
    errors.push(field_error(field, problem));
}

fn field_error(field: &Field, problem: Problem) -> FieldError {
    FieldError {
        field: field.name.clone(),
        label: field.title.clone().unwrap_or_else(|| field.name.clone()),
        problem,
    }
}

/// A required field without an answer.
pub(crate) fn missing(field: &Field) -> FieldError {
    field_error(field, Problem::Missing)
}

pub(crate) fn default_value(kind: &FieldKind) -> Option<Value> {
    Some(match kind {
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

/// The numbers a number field takes: its type's range within its bounds.
#[inline(always)]
pub(crate) fn number_bounds(
    minimum: Option<f64>,
    maximum: Option<f64>,
    single_precision: bool,
) -> (f64, f64) {
    let (type_lo, type_hi) = if single_precision {
        (f64::from(f32::MIN), f64::from(f32::MAX))
    } else {
        (f64::MIN, f64::MAX)
    };
    let lo = minimum.map_or(type_lo, |m| m.max(type_lo));
    let hi = maximum.map_or(type_hi, |m| m.min(type_hi));
    (lo, hi)
}

/// The whole numbers an integer field takes: its type's range within its bounds, and
/// within what JSON carries exactly (see `FieldKind::Integer::range`), even for a
/// hand-built field with a wider range.
#[inline(always)]
pub(crate) fn integer_bounds(
    minimum: Option<i128>,
    maximum: Option<i128>,
    range: (i128, i128),
) -> (i128, i128) {
    let lo = minimum
        .map_or(range.0, |m| m.max(range.0))
        .max(i128::from(i64::MIN));
    let hi = maximum
        .map_or(range.1, |m| m.min(range.1))
        .min(i128::from(u64::MAX));
    (lo, hi)
}

fn int_value(v: i128) -> Value {
    if let Ok(v) = i64::try_from(v) {
        Value::from(v)
    } else if let Ok(v) = u64::try_from(v) {
        Value::from(v)
    } else {
        Value::from(v as f64)
    }
}

/// Checks one present value; returns a replacement when it was coerced.
///
/// Always inlined in optimized builds: the derive's per-form check calls it with a
/// constant field, so only that field's checks are compiled in. Builds with debug
/// assertions (unoptimized ones) call it, which keeps their compile time down.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn check_value(
    field: &Field,
    value: &Value,
    strictness: Strictness,
    errors: &mut Vec<FieldError>,
) -> Option<Value> {
    let lenient = strictness == Strictness::Lenient;
    let wrong = |errors: &mut Vec<FieldError>, expected| {
        push(
            errors,
            field,
            Problem::WrongType {
                expected,
                found: json_type(value),
            },
        );
        None
    };
    match &field.kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            let Value::String(s) = value else {
                return wrong(errors, "text");
            };
            // A string has between a quarter of its bytes and all of them in characters:
            // most lengths are settled without counting.
            let bytes = s.len() as u64;
            if min_length.is_some_and(|min| bytes.div_ceil(4) < min)
                || max_length.is_some_and(|max| bytes > max)
            {
                let length = s.chars().count() as u64;
                if let Some(min) = *min_length
                    && length < min
                {
                    push(errors, field, Problem::TooShort { min, length });
                }
                if let Some(max) = *max_length
                    && length > max
                {
                    push(errors, field, Problem::TooLong { max, length });
                }
            }
            if let Some(format) = *format
                && !format_ok(format, s)
            {
                push(errors, field, Problem::BadFormat(format));
            }
            None
        }
        FieldKind::Integer {
            minimum,
            maximum,
            range,
            ..
        } => {
            let (n, coerced) = match value {
                Value::Number(n) => (n.clone(), false),
                Value::String(s) if lenient => match s.trim().parse::<serde_json::Number>() {
                    Ok(n) => (n, true),
                    Err(_) => return wrong(errors, "a whole number"),
                },
                _ => return wrong(errors, "a whole number"),
            };
            let (lo, hi) = integer_bounds(*minimum, *maximum, *range);
            let whole: i128 = if let Some(i) = n.as_i64() {
                i128::from(i)
            } else if let Some(u) = n.as_u64() {
                i128::from(u)
            } else {
                // JSON Schema's `integer` takes any number without a fractional part,
                // `3.0` included; serde_json holds integers beyond i64/u64 as floats.
                // `as` is exact for whole floats within i128 and saturates beyond, so
                // those come out as out of range.
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.is_finite() && f.fract() == 0.0 {
                    f as i128
                } else {
                    push(errors, field, Problem::NotWhole);
                    return None;
                }
            };
            if whole < lo {
                push(
                    errors,
                    field,
                    Problem::BelowMinimum {
                        min: lo.to_string(),
                    },
                );
            } else if whole > hi {
                push(
                    errors,
                    field,
                    Problem::AboveMaximum {
                        max: hi.to_string(),
                    },
                );
            } else if coerced || n.is_f64() {
                return Some(int_value(whole));
            }
            None
        }
        FieldKind::Number {
            minimum,
            maximum,
            single_precision,
            ..
        } => {
            let (f, coerced) = match value {
                Value::Number(n) => (n.as_f64().unwrap_or(f64::NAN), false),
                Value::String(s) if lenient => match s.trim().parse::<serde_json::Number>() {
                    Ok(n) => (n.as_f64().unwrap_or(f64::NAN), true),
                    Err(_) => return wrong(errors, "a number"),
                },
                _ => return wrong(errors, "a number"),
            };
            let (lo, hi) = number_bounds(*minimum, *maximum, *single_precision);
            if f < lo {
                push(
                    errors,
                    field,
                    Problem::BelowMinimum {
                        min: number_text(lo, *single_precision),
                    },
                );
            } else if f > hi {
                push(
                    errors,
                    field,
                    Problem::AboveMaximum {
                        max: number_text(hi, *single_precision),
                    },
                );
            } else if coerced {
                return serde_json::Number::from_f64(f).map(Value::Number);
            }
            None
        }
        FieldKind::Boolean { .. } => match value {
            Value::Bool(_) => None,
            Value::String(s) if lenient && s.eq_ignore_ascii_case("true") => {
                Some(Value::Bool(true))
            }
            Value::String(s) if lenient && s.eq_ignore_ascii_case("false") => {
                Some(Value::Bool(false))
            }
            _ => wrong(errors, "true or false"),
        },
        FieldKind::Select { options, .. } => {
            let Value::String(s) = value else {
                return wrong(errors, "one of the options");
            };
            if !options.iter().any(|c| c.value == s.as_str()) {
                push(errors, field, Problem::NotAnOption { value: echo(s) });
            }
            None
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            ..
        } => {
            let Value::Array(items) = value else {
                return wrong(errors, "a list of options");
            };
            let count = items.len() as u64;
            if let Some(min) = *min_items
                && count < min
            {
                push(errors, field, Problem::TooFewItems { min, count });
            }
            if let Some(max) = *max_items
                && count > max
            {
                push(errors, field, Problem::TooManyItems { max, count });
                // A huge list is refused without looking at every item.
                return None;
            }
            // Options are few; each item is looked up in them, and which were chosen is
            // a bit per option (a list for the rare form with more than 64).
            let mut chosen = 0u64;
            let mut chosen_many: Vec<usize> = Vec::new();
            // Each repeated or unknown value is reported once, however often it is sent,
            // and at most `MAX_ITEM_PROBLEMS` of them: a list of a million made-up values
            // costs a few reports, not a million.
            let mut repeated: Vec<&str> = Vec::new();
            let mut unknown: Vec<&str> = Vec::new();
            for item in items {
                if repeated.len() + unknown.len() >= MAX_ITEM_PROBLEMS {
                    return None;
                }
                let Value::String(s) = item else {
                    push(
                        errors,
                        field,
                        Problem::WrongType {
                            expected: "a list of options",
                            found: "a list with non-text items",
                        },
                    );
                    return None;
                };
                let Some(option) = options.iter().position(|c| c.value == s.as_str()) else {
                    if !unknown.contains(&s.as_str()) {
                        unknown.push(s);
                        push(errors, field, Problem::NotAnOption { value: echo(s) });
                    }
                    continue;
                };
                let again = if option < 64 {
                    let again = chosen & (1 << option) != 0;
                    chosen |= 1 << option;
                    again
                } else if chosen_many.contains(&option) {
                    true
                } else {
                    chosen_many.push(option);
                    false
                };
                if again && !repeated.contains(&s.as_str()) {
                    repeated.push(s);
                    push(errors, field, Problem::Duplicate { value: echo(s) });
                }
            }
            None
        }
    }
}

/// A number bound as a user reads it: `2.5`, `1000`; the type's own limits, which only
/// absurd answers reach, in scientific notation (`3.4028235e38`, not 39 digits).
fn number_text(bound: f64, single_precision: bool) -> String {
    if bound.abs() < 1e15 {
        bound.to_string()
    } else if single_precision {
        // The bound is an f32 widened to f64; print it as the f32 it is.
        format!("{:e}", bound as f32)
    } else {
        format!("{bound:e}")
    }
}

/// Whether `s` matches one of the four MCP formats.
pub fn format_ok(format: Format, s: &str) -> bool {
    match format {
        Format::Email => email_ok(s),
        Format::Uri => plain_uri(s.as_bytes()) || fluent_uri::Uri::parse(s).is_ok(),
        Format::Date => date_ok(s),
        Format::DateTime => {
            plain_date_time(s.as_bytes())
                || time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
                    .is_ok()
        }
    }
}

/// An addr-spec (`local@domain`), not the display form `Name <local@domain>` that
/// `EmailAddress::is_valid` also takes. `email_address` decides; the common shape
/// (`ada.lovelace+tag@example.com`) is recognised first without it, and only ever
/// where `email_address` agrees (a test holds the two together).
fn email_ok(s: &str) -> bool {
    // `email_address` allows at most 64 bytes before the `@` and 254 after it.
    if s.len() > MAX_EMAIL_LEN {
        return false;
    }
    if plain_email(s.as_bytes()) {
        return true;
    }
    let Some(at) = s.bytes().rposition(|b| b == b'@') else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    email_address::EmailAddress::is_valid_local_part(local)
        && email_address::EmailAddress::is_valid_domain(domain)
}

/// The longest addr-spec `email_address` accepts: a 64-byte local part, `@`, a 254-byte
/// domain.
const MAX_EMAIL_LEN: usize = 64 + 1 + 254;

/// The common shape in one forward pass: a local part of dot-separated atoms of ASCII
/// letters, digits and `!#$%&'*+/=?^_`{|}~-` (at most 64 bytes, so no `@` in it: the
/// first `@` is the last), then a [`plain_domain`].
fn plain_email(b: &[u8]) -> bool {
    let mut atom_start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if class(c, ATEXT) {
        } else if c == b'.' {
            if i == atom_start {
                return false;
            }
            atom_start = i + 1;
        } else if c == b'@' {
            return i > atom_start && i <= 64 && plain_domain(&b[i + 1..]);
        } else {
            return false;
        }
        i += 1;
    }
    false
}

/// Dot-separated labels of ASCII letters, digits and inner hyphens, each at most 63
/// bytes, at most 253 in all.
fn plain_domain(domain: &[u8]) -> bool {
    // A label is `start..end`: not empty, at most 63 bytes, not ending in a hyphen.
    let label_ok =
        |start: usize, end: usize| end > start && end - start <= 63 && domain[end - 1] != b'-';
    let mut start = 0;
    for (i, &b) in domain.iter().enumerate() {
        if class(b, ALNUM) {
            continue;
        }
        if b == b'-' && i > start {
            continue;
        }
        if b == b'.' && label_ok(start, i) {
            start = i + 1;
            continue;
        }
        return false;
    }
    label_ok(start, domain.len()) && domain.len() <= 253
}

/// The common URI shape, `scheme://host/path?query#fragment`, recognised in one pass
/// and only where RFC 3986 (`fluent_uri`, which decides everything else) agrees: a
/// scheme, a host of letters, digits, dots and hyphens (no user, port or IP literal),
/// then path, query and fragment characters, with no percent-escapes.
fn plain_uri(b: &[u8]) -> bool {
    // One pass: scheme, `://`, host, then path, query and fragment.
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut i = 1;
    while i < b.len() && class(b[i], SCHEME) {
        i += 1;
    }
    if b.get(i..i + 3) != Some(b"://") {
        return false;
    }
    i += 3;
    while i < b.len() && class(b[i], HOST) {
        i += 1;
    }
    // path-abempty, query and fragment: pchar, `/` and `?`, one `#` before the fragment.
    if i < b.len() && !matches!(b[i], b'/' | b'?' | b'#') {
        return false;
    }
    let mut hashes = 0;
    b[i..].iter().all(|&c| {
        if c == b'#' {
            hashes += 1;
            return hashes == 1;
        }
        class(c, URI_TAIL)
    })
}

/// Byte classes of the fast paths, one bit each in [`CLASSES`].
const ALNUM: u8 = 1;
/// `atext` of an e-mail local part.
const ATEXT: u8 = 2;
/// A URI scheme after its first letter.
const SCHEME: u8 = 4;
/// A host name of the URI fast path.
const HOST: u8 = 8;
/// pchar, `/` and `?`, without percent-escapes.
const URI_TAIL: u8 = 16;

const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        let alnum = b.is_ascii_alphanumeric();
        if alnum {
            t[c] |= ALNUM | ATEXT | SCHEME | HOST | URI_TAIL;
        }
        c += 1;
    }
    t = mark(t, b"!#$%&'*+/=?^_`{|}~-", ATEXT);
    t = mark(t, b"+-.", SCHEME);
    t = mark(t, b".-", HOST);
    mark(t, b"-._~!$&'()*+,;=:@/?", URI_TAIL)
};

const fn mark(mut table: [u8; 256], bytes: &[u8], bit: u8) -> [u8; 256] {
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] |= bit;
        i += 1;
    }
    table
}

fn class(b: u8, bit: u8) -> bool {
    CLASSES[b as usize] & bit != 0
}

/// The common RFC 3339 `date-time`, `2025-02-03T18:30:00Z` or with up to nine digits of
/// a second and a `+01:00` offset, recognised in one pass; leap seconds, lower-case `t`
/// and `z` and everything else go to `time`, which decides (a test holds the two together).
fn plain_date_time(b: &[u8]) -> bool {
    if b.len() < 20 || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return false;
    }
    let two = |i: usize| {
        let (x, y) = (b[i], b[i + 1]);
        (x.is_ascii_digit() && y.is_ascii_digit()).then(|| (x - b'0') * 10 + (y - b'0'))
    };
    let in_range = |i: usize, max: u8| two(i).is_some_and(|n| n <= max);
    if !(in_range(11, 23) && in_range(14, 59) && in_range(17, 59)) {
        return false;
    }
    let mut rest = &b[19..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=9).contains(&digits) {
            return false;
        }
        rest = &fraction[digits..];
    }
    let offset_ok = match rest {
        [b'Z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            let hh = [*h1, *h2];
            let mm = [*m1, *m2];
            hh.iter().chain(&mm).all(u8::is_ascii_digit)
                && (hh[0] - b'0') * 10 + (hh[1] - b'0') <= 23
                && (mm[0] - b'0') * 10 + (mm[1] - b'0') <= 59
        }
        _ => false,
    };
    offset_ok && date_bytes_ok(&b[..10])
}

/// An RFC 3339 `full-date`: exactly `YYYY-MM-DD`, a day that exists (the calendar is
/// `time`'s).
fn date_ok(s: &str) -> bool {
    date_bytes_ok(s.as_bytes())
}

/// [`date_ok`] on bytes (the date part of a `date-time`).
fn date_bytes_ok(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| {
        b[range].iter().try_fold(0u16, |n, c| {
            c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0'))
        })
    };
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let Ok(month) = time::Month::try_from(month as u8) else {
        return false;
    };
    time::Date::from_calendar_date(i32::from(year), month, day as u8).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings built from pieces that make e-mail checks interesting.
    fn corpus() -> Vec<String> {
        let pieces = [
            "a", "Z", "0", ".", "..", "@", "-", "_", "+", "\"", " ", "[", "]", "(", ")", "é", "<",
            ">", "ab-c", "x.y", "1.2.3.4", "!", "#", "~", "\\", ",",
        ];
        let mut out = Vec::new();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            let mut s = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 9) as usize;
            let mut r = seed;
            for _ in 0..len {
                s.push_str(pieces[(r % pieces.len() as u64) as usize]);
                r /= pieces.len() as u64;
                if r == 0 {
                    r = seed.rotate_left(29);
                }
            }
            out.push(s);
        }
        out.extend(
            [
                "ada@example.com",
                "a.b+c@x-y.example",
                &format!("{}@x.org", "a".repeat(64)),
                &format!("{}@x.org", "a".repeat(65)),
                &format!("a@{}.org", "b".repeat(63)),
                &format!("a@{}.org", "b".repeat(64)),
                &format!("a@{}", vec!["c".repeat(60); 5].join(".")),
                "a@-x.org",
                "a@x-.org",
                "a@[1.2.3.4]",
                ".a@x.org",
                "a.@x.org",
                "Ada <ada@example.com>",
            ]
            .map(str::to_owned),
        );
        // Around the longest address: local parts and domains at and past their limits.
        for local in [63, 64, 65] {
            for labels in [3, 4] {
                for last in [58, 59, 60, 61, 62, 63] {
                    let mut domain = vec!["d".repeat(63); labels - 1];
                    domain.push("e".repeat(last));
                    out.push(format!("{}@{}", "a".repeat(local), domain.join(".")));
                    out.push(format!(
                        "\"{}\"@[{}]",
                        "b".repeat(local - 2),
                        "1".repeat(last * 4)
                    ));
                }
            }
        }
        out
    }

    #[test]
    fn email_fast_path_only_accepts_what_email_address_accepts() {
        let mut fast = 0;
        for s in corpus() {
            let Some((local, domain)) = s.rsplit_once('@') else {
                assert!(!email_ok(&s), "{s:?}");
                assert!(!plain_email(s.as_bytes()), "{s:?}");
                continue;
            };
            let full = email_address::EmailAddress::is_valid_local_part(local)
                && email_address::EmailAddress::is_valid_domain(domain);
            if plain_email(s.as_bytes()) {
                fast += 1;
                assert!(full, "{s:?}: fast path says valid, email_address does not");
            }
            assert_eq!(email_ok(&s), full, "{s:?}");
        }
        assert!(
            fast > 20,
            "the corpus exercises the fast path ({fast} times)"
        );
    }

    #[test]
    fn uri_fast_path_only_accepts_what_fluent_uri_accepts() {
        let pieces = [
            "https",
            "h",
            "1",
            "+",
            "-",
            ".",
            ":",
            "//",
            "/",
            "?",
            "#",
            "@",
            "%",
            "%41",
            "[",
            "]",
            "example.com",
            "a-b",
            " ",
            "é",
            "~",
            "_",
            "!",
            "'",
            "(",
            "=",
            ";",
            ",",
            "*",
            "&",
            "$",
            "\\",
            "|",
            "^",
            "`",
            "{",
            "\"",
            "<",
            ":8080",
            "[::1]",
        ];
        let mut fast = 0;
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut strings: Vec<String> = [
            "https://example.com/ada",
            "http://a.b-c.d/x/y?q=1&r=2#top",
            "urn:isbn:0451450523",
            "https://example.com:8080/",
            "https://user@example.com/",
            "https://[::1]/",
            "https://ex ample.com/",
            "https://example.com/a b",
            "https://example.com/#a#b",
            "1http://x/",
            "//example.com/",
            "mailto:ada@example.com",
            "https://",
            "https:///path",
            "HTTPS://EXAMPLE.COM/%7E",
        ]
        .map(str::to_owned)
        .to_vec();
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut s = String::from(if seed.is_multiple_of(3) {
                ""
            } else {
                "https://"
            });
            let mut r = seed / 3;
            for _ in 0..(1 + seed % 7) {
                s.push_str(pieces[(r % pieces.len() as u64) as usize]);
                r = r / pieces.len() as u64 + seed.rotate_left(17) % 997;
            }
            strings.push(s);
        }
        for s in strings {
            let full = fluent_uri::Uri::parse(s.as_str()).is_ok();
            if plain_uri(s.as_bytes()) {
                fast += 1;
                assert!(full, "{s:?}: fast path says valid, fluent_uri does not");
            }
            assert_eq!(format_ok(Format::Uri, &s), full, "{s:?}");
        }
        assert!(
            fast > 1000,
            "the corpus exercises the fast path ({fast} times)"
        );
    }

    #[test]
    fn date_time_fast_path_only_accepts_what_time_accepts() {
        let rfc3339 = &time::format_description::well_known::Rfc3339;
        let mut strings = Vec::new();
        for date in [
            "0000-01-01",
            "2024-02-29",
            "2025-02-29",
            "9999-12-31",
            "2025-13-01",
        ] {
            for clock in [
                "00:00:00", "23:59:59", "23:59:60", "24:00:00", "12:60:00", "1:00:00",
            ] {
                for fraction in ["", ".5", ".123456789", ".1234567890", ".", ".x"] {
                    for offset in [
                        "Z", "z", "+00:00", "-00:00", "+23:59", "-23:59", "+24:00", "+01:60",
                        "+0100", "", " Z", "Z ",
                    ] {
                        for t in ["T", "t", " "] {
                            strings.push(format!("{date}{t}{clock}{fraction}{offset}"));
                        }
                    }
                }
            }
        }
        let mut fast = 0;
        for s in strings {
            let by_time = time::OffsetDateTime::parse(&s, rfc3339).is_ok();
            if plain_date_time(s.as_bytes()) {
                fast += 1;
                assert!(by_time, "{s:?}: fast path says valid, time does not");
            }
            assert_eq!(format_ok(Format::DateTime, &s), by_time, "{s:?}");
        }
        assert!(
            fast > 50,
            "the corpus exercises the fast path ({fast} times)"
        );
    }

    #[test]
    fn date_agrees_with_time() {
        let fmt = time::macros::format_description!("[year]-[month]-[day]");
        let mut dates: Vec<String> = Vec::new();
        for y in [0, 1, 999, 1900, 2000, 2023, 2024, 2100, 9999] {
            for m in 0..=13 {
                for d in 0..=32 {
                    dates.push(format!("{y:04}-{m:02}-{d:02}"));
                }
            }
        }
        dates.extend(
            [
                "2025-2-03",
                "2025-02-3",
                "+2025-02-03",
                "2025/02/03",
                "2025-02-03T",
                "２０２５-02-03",
                "20a5-02-03",
                "-999-01-01",
                "",
                "2025-02-0x",
            ]
            .map(str::to_owned),
        );
        for s in dates {
            let by_time = s.len() == 10 && time::Date::parse(&s, &fmt).is_ok();
            assert_eq!(date_ok(&s), by_time, "{s:?}");
        }
    }
}
