//! Answer validation: the `content` of an accepted elicitation checked against exactly
//! the constraints the form emitted. Every problem of every field is reported at once.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::form::{Field, FieldKind, Form, Format};
use crate::outcome::AnswerError;

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

impl Form {
    /// Checks an accepted answer's `content` against the form and returns the answer as
    /// the form reads it: exactly the form's fields, with defaults filled in for fields
    /// left out and values coerced under [`Strictness::Lenient`]; keys the form does not
    /// have and `null`s ("not answered") are left out. Borrowed when the content is that
    /// already, which is what clients usually send. `None` content is read as an empty
    /// object. Every problem of every field is reported at once.
    pub fn validate<'a>(
        &self,
        content: Option<&'a Value>,
        strictness: Strictness,
    ) -> Result<Cow<'a, Value>, AnswerError> {
        let map = answer_map(content)?;
        let changes = self.check(map, strictness)?;
        Ok(match (content, changes.is_empty()) {
            (Some(whole @ Value::Object(_)), true) => Cow::Borrowed(whole),
            _ => {
                let mut out = map.cloned().unwrap_or_default();
                changes.apply(self, &mut out);
                Cow::Owned(Value::Object(out))
            }
        })
    }

    /// [`validate`](Self::validate) for content the caller owns: the answer is fixed
    /// up in place, nothing is copied.
    pub fn validate_owned(
        &self,
        content: Option<Value>,
        strictness: Strictness,
    ) -> Result<Value, AnswerError> {
        let mut map = match content {
            Some(Value::Object(map)) => map,
            None | Some(Value::Null) => Map::new(),
            Some(other) => return Err(not_an_object(&other)),
        };
        let changes = self.check(Some(&map), strictness)?;
        changes.apply(self, &mut map);
        Ok(Value::Object(map))
    }

    /// Judges every field; what the answer needs changed to be read as the form reads it.
    fn check<'f>(
        &'f self,
        map: Option<&Map<String, Value>>,
        strictness: Strictness,
    ) -> Result<Changes<'f>, AnswerError> {
        let mut errors = Vec::new();
        let mut changes = Changes::default();
        for field in self.fields.iter() {
            match map.and_then(|m| m.get(&*field.name)) {
                None | Some(Value::Null) => {
                    if let Some(default) = default_value(&field.kind) {
                        changes.set.push((&field.name, default));
                    } else if field.required {
                        push(&mut errors, field, Problem::Missing);
                    }
                }
                Some(v) => {
                    if let Some(coerced) = check_value(field, v, strictness, &mut errors) {
                        changes.set.push((&field.name, coerced));
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Err(AnswerError::Invalid(ValidationErrors { errors }));
        }
        changes.drop = map.is_some_and(|m| {
            m.iter()
                .any(|(k, v)| v.is_null() || self.field(k).is_none())
        });
        Ok(changes)
    }
}

/// What a valid answer needs changed before it is read.
#[derive(Default)]
struct Changes<'f> {
    /// Values to put in: defaults and coerced values.
    set: Vec<(&'f str, Value)>,
    /// Whether there are unknown keys or `null`s to leave out.
    drop: bool,
}

impl Changes<'_> {
    fn is_empty(&self) -> bool {
        self.set.is_empty() && !self.drop
    }

    fn apply(self, form: &Form, map: &mut Map<String, Value>) {
        if self.drop {
            map.retain(|k, v| !v.is_null() && form.field(k).is_some());
        }
        for (k, v) in self.set {
            map.insert(k.to_owned(), v);
        }
    }
}

/// The answer's entries; `None` for no content.
fn answer_map(content: Option<&Value>) -> Result<Option<&Map<String, Value>>, AnswerError> {
    match content {
        Some(Value::Object(map)) => Ok(Some(map)),
        None | Some(Value::Null) => Ok(None),
        Some(other) => Err(not_an_object(other)),
    }
}

fn not_an_object(content: &Value) -> AnswerError {
    AnswerError::NotAnObject {
        found: json_type(content),
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

/// Whether `s` matches one of the four MCP formats. Each is decided by a crate:
/// `email_address` (e-mail), `fluent_uri` (URI, RFC 3986), `time` (date and date-time,
/// RFC 3339).
pub fn format_ok(format: Format, s: &str) -> bool {
    match format {
        Format::Email => email_ok(s),
        Format::Uri => fluent_uri::Uri::parse(s).is_ok(),
        Format::Date => date_ok(s),
        Format::DateTime => {
            time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
        }
    }
}

/// An addr-spec (`local@domain`), not the display form `Name <local@domain>` that
/// `EmailAddress::is_valid` also takes: the part after the last `@` must be a domain
/// and the part before it a local part, as `email_address` checks them.
fn email_ok(s: &str) -> bool {
    s.rsplit_once('@').is_some_and(|(local, domain)| {
        email_address::EmailAddress::is_valid_local_part(local)
            && email_address::EmailAddress::is_valid_domain(domain)
    })
}

/// An RFC 3339 `full-date`: exactly `YYYY-MM-DD` (ten characters, so no sign and no
/// wider year), a day that exists.
fn date_ok(s: &str) -> bool {
    s.len() == 10
        && time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]")).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each format accepts and refuses, at the edges callers meet.
    #[test]
    fn formats_accept_and_refuse() {
        let local64 = "a".repeat(64);
        let label63 = "b".repeat(63);
        // A domain of 254 bytes (four labels) and one of 255.
        let domain254 = [label63.as_str(); 4].join(".").replacen('b', "", 1);
        let domain255 = [label63.as_str(); 4].join(".");
        assert_eq!((domain254.len(), domain255.len()), (254, 255));
        let cases: Vec<(Format, String, bool)> = [
            (Format::Email, "ada@example.com", true),
            (Format::Email, "a.b+c@x-y.example", true),
            (Format::Email, "a!#$%&'*/=?^_`{|}~-@x.org", true),
            (Format::Email, "ada@localhost", true),
            (Format::Email, "\"ada lovelace\"@example.com", true),
            (Format::Email, "\"a@b\"@example.com", true),
            (Format::Email, "ada@[192.168.0.1]", true),
            (Format::Email, "ada@exämple.com", true),
            (Format::Email, "Ada <ada@example.com>", false),
            (Format::Email, " <ada@example.com>", false),
            (Format::Email, "<ada@example.com>", false),
            (Format::Email, "ada@example.com ", false),
            (Format::Email, "ada", false),
            (Format::Email, "ada@", false),
            (Format::Email, "@example.com", false),
            (Format::Email, ".ada@x.org", false),
            (Format::Email, "ada.@x.org", false),
            (Format::Email, "a..b@x.org", false),
            (Format::Email, "a@b@x.org", false),
            (Format::Email, "ada@-x.org", false),
            (Format::Email, "ada@x-.org", false),
            (Format::Email, "ada@x..org", false),
            (Format::Email, "ada@x.org.", false),
            (Format::Email, "", false),
            (Format::Uri, "https://example.com/ada", true),
            (Format::Uri, "http://a.b-c.d/x/y?q=1&r=2#top", true),
            (Format::Uri, "urn:isbn:0451450523", true),
            (Format::Uri, "https://example.com:8080/", true),
            (Format::Uri, "https://user@example.com/", true),
            (Format::Uri, "https://[::1]/", true),
            (Format::Uri, "mailto:ada@example.com", true),
            (Format::Uri, "HTTPS://EXAMPLE.COM/%7E", true),
            (Format::Uri, "https://", true),
            (Format::Uri, "https:///path", true),
            (Format::Uri, "https://ex ample.com/", false),
            (Format::Uri, "https://example.com/a b", false),
            (Format::Uri, "https://example.com/#a#b", false),
            (Format::Uri, "https://example.com/%4", false),
            (Format::Uri, "https://example.com/é", false),
            (Format::Uri, "1http://x/", false),
            (Format::Uri, "//example.com/", false),
            (Format::Uri, "example.com/page", false),
            (Format::Uri, "", false),
            (Format::Date, "2025-02-03", true),
            (Format::Date, "2024-02-29", true),
            (Format::Date, "0000-01-01", true),
            (Format::Date, "9999-12-31", true),
            (Format::Date, "2025-02-29", false),
            (Format::Date, "2100-02-29", false),
            (Format::Date, "2025-13-01", false),
            (Format::Date, "2025-00-10", false),
            (Format::Date, "2025-01-00", false),
            (Format::Date, "2025-01-32", false),
            (Format::Date, "2025-2-03", false),
            (Format::Date, "2025-02-3", false),
            (Format::Date, "+2025-02-03", false),
            (Format::Date, "-999-01-01", false),
            (Format::Date, "+999-01-01", false),
            (Format::Date, "2025/02/03", false),
            (Format::Date, "2025-02-03T", false),
            (Format::Date, "２０２５-02-03", false),
            (Format::Date, "", false),
            (Format::DateTime, "2025-02-03T18:30:00Z", true),
            (Format::DateTime, "2025-02-03t18:30:00z", true),
            (
                Format::DateTime,
                "2025-02-03T18:30:00.123456789+01:00",
                true,
            ),
            (Format::DateTime, "2025-02-03T18:30:00-23:59", true),
            (Format::DateTime, "2016-12-31T23:59:60Z", true),
            (Format::DateTime, "2024-02-29T00:00:00Z", true),
            (Format::DateTime, "2025-02-03T18:30:00", false),
            (Format::DateTime, "2025-02-03 18:30:00Z", true),
            (Format::DateTime, "2025-02-03T24:00:00Z", false),
            (Format::DateTime, "2025-02-03T12:60:00Z", false),
            (Format::DateTime, "2025-02-03T18:30:00.Z", false),
            (Format::DateTime, "2025-02-03T18:30:00.1234567890Z", true),
            (Format::DateTime, "2025-02-03T18:30:00+0100", false),
            (Format::DateTime, "2025-02-03T18:30:00+24:00", false),
            (Format::DateTime, "2025-02-29T18:30:00Z", false),
            (Format::DateTime, "2025-02-03T18:30:00Z ", false),
            (Format::DateTime, "2025-02-03", false),
            (Format::DateTime, "", false),
        ]
        .into_iter()
        .map(|(f, s, ok)| (f, s.to_owned(), ok))
        .chain([
            (Format::Email, format!("{local64}@x.org"), true),
            (Format::Email, format!("a{local64}@x.org"), false),
            (Format::Email, format!("a@{label63}.org"), true),
            (Format::Email, format!("a@b{label63}.org"), false),
            (Format::Email, format!("a@{domain254}"), true),
            (Format::Email, format!("a@{domain255}"), false),
            (Format::Email, format!("{local64}@{domain254}"), true),
        ])
        .collect();
        for (format, s, ok) in cases {
            assert_eq!(format_ok(format, &s), ok, "{format:?} {s:?}");
        }
    }
}
