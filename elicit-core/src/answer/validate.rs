//! Answer validation: the `content` of an accepted elicitation checked against exactly
//! the constraints the form emitted. Every problem of every field is reported at once.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::answer::error::{
    AnswerError, FieldError, MAX_ITEM_PROBLEMS, Problem, ValidationErrors, echo,
};
use crate::form::{Field, FieldKind, Form};

/// How strictly answers are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
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

#[cfg(test)]
thread_local! {
    /// How many answers were checked against a form on this thread: tests count
    /// validations with it.
    pub(crate) static CHECKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
            _ => Cow::Owned(Value::Object(
                changes.apply(self, |name| map.and_then(|m| m.get(name)).cloned()),
            )),
        })
    }

    /// [`validate`](Self::validate) for content the caller owns: the values move into
    /// the answer instead of being copied. The engine's and the client kit's path; the
    /// tests hold it to `validate` through `__private::testing` (feature `testing`).
    pub(crate) fn validate_owned(
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
        if changes.is_empty() {
            return Ok(Value::Object(map));
        }
        Ok(Value::Object(changes.apply(self, |name| map.remove(name))))
    }

    /// Judges every field; what the answer needs changed to be read as the form reads it.
    fn check<'f>(
        &'f self,
        map: Option<&Map<String, Value>>,
        strictness: Strictness,
    ) -> Result<Changes<'f>, AnswerError> {
        #[cfg(test)]
        CHECKED.with(|checked| checked.set(checked.get() + 1));
        let mut errors = Vec::new();
        let mut changes = Changes::default();
        for field in self.fields.iter() {
            match map.and_then(|m| m.get(&*field.name)) {
                None | Some(Value::Null) => {
                    if let Some(default) = field.kind.default_value() {
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
            return Err(AnswerError::Invalid(ValidationErrors::new(errors)));
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

    /// The answer as the form reads it, built from the form's fields alone: each field's
    /// new value, else its answered value (`take` gives it; a `null` is left out). Keys
    /// the form does not have are never looked at, however many there are.
    fn apply(self, form: &Form, mut take: impl FnMut(&str) -> Option<Value>) -> Map<String, Value> {
        let mut out = Map::new();
        // `check` records the new values in field order.
        let mut set = self.set.into_iter().peekable();
        for field in form.fields.iter() {
            let value = match set.next_if(|(name, _)| *name == &*field.name) {
                Some((_, value)) => Some(value),
                None => take(&field.name).filter(|v| !v.is_null()),
            };
            if let Some(value) = value {
                out.insert(field.name.to_string(), value);
            }
        }
        out
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

/// Checks one present value; returns a replacement when it was coerced.
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
                && !format.accepts(s)
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
                return Some(crate::form::int_value(whole));
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
