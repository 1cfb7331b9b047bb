//! Validation fused with deserialization.
//!
//! Most answers are clean: every key a field, every value good as sent, nothing to fill
//! in. One pass of checks over the entries, with no copy and no error built, settles
//! that, and the answer then goes to serde_json's own deserializer as it is (a type with
//! `#[elicit(deserialize)]` is built from the values in that same pass instead, in
//! optimized builds: see
//! `Elicit::__read_clean` and `crate::read`). Any other answer takes one pass over its
//! entries, each value checked against its field and handed to `Deserialize` straight
//! from the client's `Value` (defaults filled, coerced values swapped in, unknown keys
//! passed over).
//!
//! At the first problem the pass stops deserializing and collects every problem of the
//! rest of the answer, in field order, exactly as [`Form::validate`] reports them (the
//! same `check_value` decides; a test holds the two paths to the same results).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::Value;

use crate::answer::{
    FieldError, Strictness, ValidationErrors, check_value, default_value, integer_bounds,
    json_type, missing, number_bounds,
};
use crate::form::{Choice, Field, FieldKind, Form};
use crate::outcome::AnswerError;

/// Validates `content` against `form` and deserializes it as `T`, reading the strings
/// from the borrowed value.
///
/// The same answers are accepted and refused, with the same errors, as with
/// [`Form::validate`] followed by `T::deserialize`; only the work is done once.
#[inline]
pub(crate) fn parse<'de, T: Deserialize<'de>>(
    form: &'de Form,
    content: Option<&'de Value>,
    strictness: Strictness,
    read_clean: impl FnOnce(
        &'de serde_json::Map<String, Value>,
        Strictness,
    ) -> Option<Result<T, serde_json::Error>>,
) -> Result<T, AnswerError> {
    // The clean answer, inlined into the caller; everything else out of line.
    if let Some(Value::Object(map)) = content
        && let Some(read) = read_clean(map, strictness)
    {
        return read.map_err(AnswerError::Parse);
    }
    parse_unclean(form, content, strictness)
}

/// [`parse`] of an answer that is not clean (or not an object).
#[inline(never)]
fn parse_unclean<'de, T: Deserialize<'de>>(
    form: &'de Form,
    content: Option<&'de Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let entries = match content {
        Some(Value::Object(map)) => Iter::Borrowed(map.iter()),
        None | Some(Value::Null) => Iter::Done,
        Some(other) => {
            return Err(AnswerError::NotAnObject {
                found: json_type(other),
            });
        }
    };
    run(form, entries, strictness)
}

/// [`parse`] from an owned value: strings move into `T` instead of being copied.
#[inline]
pub(crate) fn parse_owned<'de, T: Deserialize<'de>>(
    form: &'de Form,
    content: Option<Value>,
    strictness: Strictness,
    read_clean: impl FnOnce(
        serde_json::Map<String, Value>,
        Strictness,
    ) -> Result<Result<T, serde_json::Error>, serde_json::Map<String, Value>>,
) -> Result<T, AnswerError> {
    // As in `parse`: the clean answer inlined, everything else out of line.
    match content {
        Some(Value::Object(map)) => match read_clean(map, strictness) {
            Ok(read) => read.map_err(AnswerError::Parse),
            Err(map) => parse_owned_unclean(form, Some(Value::Object(map)), strictness),
        },
        content => parse_owned_unclean(form, content, strictness),
    }
}

/// [`parse_owned`] of an answer that is not clean (or not an object).
#[inline(never)]
fn parse_owned_unclean<'de, T: Deserialize<'de>>(
    form: &'de Form,
    content: Option<Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let entries = match content {
        Some(Value::Object(map)) => Iter::Owned(map.into_iter()),
        None | Some(Value::Null) => Iter::Done,
        Some(other) => {
            return Err(AnswerError::NotAnObject {
                found: json_type(&other),
            });
        }
    };
    run(form, entries, strictness)
}

/// Whether the answer is one `Deserialize` may read as it is: every key a field of the
/// form, every value good for its field as sent (nothing to coerce, no `null`), and no
/// field left out that is required or has a default to fill in. Most answers are; they
/// go straight to serde_json's own deserializer after this one pass of checks, which
/// makes no copy and builds no error. Anything else takes the entry-by-entry pass below,
/// which fills, coerces, passes over unknown keys and reports every problem.
pub fn clean(
    fields: &[Field],
    map: &serde_json::Map<String, Value>,
    strictness: Strictness,
) -> bool {
    let mut seen = Seen::new(fields.len());
    let mut hint = 0;
    let mut errors = Vec::new();
    for (key, value) in map {
        let Some(index) = field_index(fields, hint, key) else {
            return false;
        };
        hint = index + 1;
        if value.is_null() || check_value(&fields[index], value, strictness, &mut errors).is_some()
        {
            return false;
        }
        if !errors.is_empty() {
            return false;
        }
        seen.mark(index);
    }
    seen.all(fields.len())
        || fields
            .iter()
            .enumerate()
            .all(|(i, f)| seen.has(i) || !needed(f))
}

/// Whether a field must be in a clean answer: required, or with a default to fill in.
pub(crate) const fn needed(field: &Field) -> bool {
    field.required || field.kind.has_default()
}

/// One value of a clean answer: present, good for its field as sent, nothing to
/// coerce. Inlined into the derive's per-form check, where `field` is a constant and
/// only its kind's checks remain.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn clean_value(field: &Field, value: &Value, strictness: Strictness) -> bool {
    match &field.kind {
        // A choice is good or not, whatever the strictness; nothing is reported here,
        // so nothing is collected.
        FieldKind::Select { options, .. } => {
            matches!(value, Value::String(s) if options.iter().any(|c| c.value == s.as_str()))
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            ..
        } if options.len() <= 64 => clean_choices(options, *min_items, *max_items, value),
        // A whole number within the bounds `check_value` enforces (a float such as
        // `3.0` is coerced there, so it is not clean here).
        FieldKind::Integer {
            minimum,
            maximum,
            range,
            ..
        } => {
            let Value::Number(n) = value else {
                return false;
            };
            let (lo, hi) = integer_bounds(*minimum, *maximum, *range);
            match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => (lo..=hi).contains(&i128::from(i)),
                (None, Some(u)) => (lo..=hi).contains(&i128::from(u)),
                (None, None) => false,
            }
        }
        // A number within the bounds `check_value` enforces (it takes what serde_json
        // parsed as it is: a number value always has an `f64`).
        FieldKind::Number {
            minimum,
            maximum,
            single_precision,
            ..
        } => {
            let Some(f) = value.as_f64() else {
                return false;
            };
            let (lo, hi) = number_bounds(*minimum, *maximum, *single_precision);
            !(f < lo || f > hi)
        }
        FieldKind::Boolean { .. } => value.is_boolean(),
        _ => {
            let mut errors = Vec::new();
            !value.is_null()
                && check_value(field, value, strictness, &mut errors).is_none()
                && errors.is_empty()
        }
    }
}

/// A multi-select's list, good as sent: within its item counts, every item one of the
/// (at most 64) options, none twice.
#[cfg_attr(not(debug_assertions), inline(always))]
fn clean_choices(options: &[Choice], min: Option<u64>, max: Option<u64>, value: &Value) -> bool {
    let Value::Array(items) = value else {
        return false;
    };
    let count = items.len() as u64;
    if min.is_some_and(|m| count < m) || max.is_some_and(|m| count > m) {
        return false;
    }
    let mut chosen = 0u64;
    for item in items {
        let Value::String(s) = item else {
            return false;
        };
        let Some(option) = options.iter().position(|c| c.value == s.as_str()) else {
            return false;
        };
        let bit = 1u64 << option;
        if chosen & bit != 0 {
            return false;
        }
        chosen |= bit;
    }
    true
}

/// The fields a clean answer must have, a bit each (forms of at most 64 fields).
pub const fn needed_mask(fields: &[Field]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < fields.len() && i < 64 {
        if needed(&fields[i]) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

fn run<'de, T: Deserialize<'de>>(
    form: &'de Form,
    entries: Iter<'de>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let fields: &'de [Field] = form.fields();
    let content = Content(Entries {
        fields,
        entries,
        strictness,
        seen: Seen::new(fields.len()),
        next_unseen: 0,
        hint: 0,
        sent: None,
        made: None,
    });
    T::deserialize(content).map_err(|e| match e {
        Error::Invalid(errors) => AnswerError::Invalid(errors),
        Error::Parse(e) => AnswerError::Parse(e),
    })
}

/// Why the pass stopped.
#[derive(Debug)]
enum Error {
    /// Values broke their fields' constraints.
    Invalid(ValidationErrors),
    /// `Deserialize` refused a valid answer.
    Parse(serde_json::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(e) => e.fmt(f),
            Error::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        Error::Parse(<serde_json::Error as de::Error>::custom(msg))
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Parse(e)
    }
}

/// The answer object, as `Deserialize` sees it.
struct Content<'de>(Entries<'de>);

impl<'de> de::Deserializer<'de> for Content<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Which fields were answered; a word per 64 fields, no allocation for small forms.
struct Seen {
    small: u64,
    large: Vec<u64>,
}

impl Seen {
    fn new(fields: usize) -> Seen {
        Seen {
            small: 0,
            large: vec![0; fields.saturating_sub(1) / 64],
        }
    }

    fn mark(&mut self, i: usize) {
        match i.checked_sub(64) {
            None => self.small |= 1 << i,
            Some(rest) => self.large[rest / 64] |= 1 << (rest % 64),
        }
    }

    /// Whether all of the first `n` fields were answered.
    fn all(&self, n: usize) -> bool {
        if n < 64 {
            self.small == (1u64 << n) - 1
        } else {
            (0..n).all(|i| self.has(i))
        }
    }

    fn has(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.small & (1 << i) != 0,
            Some(rest) => self.large[rest / 64] & (1 << (rest % 64)) != 0,
        }
    }
}

/// The answer's entries, borrowed or owned.
enum Iter<'de> {
    Borrowed(serde_json::map::Iter<'de>),
    Owned(serde_json::map::IntoIter),
    Done,
}

struct Entries<'de> {
    fields: &'de [Field],
    entries: Iter<'de>,
    strictness: Strictness,
    seen: Seen,
    /// After the entries: the next field to look at for a default or a missing answer.
    next_unseen: usize,
    /// Where to look first for the next entry's field.
    hint: usize,
    /// The value `Deserialize` reads next: the client's own...
    sent: Option<&'de Value>,
    /// ...or one owned here (from an owned answer, a default, a coerced value). Two
    /// slots rather than one enum: moving a `Value` in and out of an enum on every
    /// entry cost more than the checks.
    made: Option<Value>,
}

/// What one entry is to the form.
enum Entry {
    /// Not a field of the form, or `null` ("not answered"): passed over.
    Ignored,
    /// A good answer to field `index` (its replacement, when coerced, is in `made`).
    Good(usize),
    /// A bad answer to field `index`.
    Bad(usize, Vec<FieldError>),
}

/// The field named `key`, looked for first at `hint`: clients answer in the order the
/// schema lists the fields, so the field after the last one found is nearly always the
/// next. Keys the form does not have are `None` (ignored, as the schema promises).
#[inline(always)]
fn field_index(fields: &[Field], hint: usize, key: &str) -> Option<usize> {
    let k = key.as_bytes();
    if fields.get(hint).is_some_and(|f| f.name.as_bytes() == k) {
        return Some(hint);
    }
    // Length and first byte rule out most fields before a full comparison.
    fields.iter().position(|f| {
        let name = f.name.as_bytes();
        name.len() == k.len() && name.first() == k.first() && name == k
    })
}

/// Checks one entry; a coerced replacement goes to `made`. `hint` is where to look for
/// the field first, and becomes the field after the one found.
fn look(
    fields: &[Field],
    strictness: Strictness,
    made: &mut Option<Value>,
    hint: &mut usize,
    key: &str,
    value: &Value,
) -> Entry {
    let Some(index) = field_index(fields, *hint, key) else {
        return Entry::Ignored;
    };
    *hint = index + 1;
    if value.is_null() {
        return Entry::Ignored;
    }
    let mut errors = Vec::new();
    let coerced = check_value(&fields[index], value, strictness, &mut errors);
    if !errors.is_empty() {
        return Entry::Bad(index, errors);
    }
    if coerced.is_some() {
        *made = coerced;
    }
    Entry::Good(index)
}

impl Entries<'_> {
    fn look(&mut self, key: &str, value: &Value) -> Entry {
        look(
            self.fields,
            self.strictness,
            &mut self.made,
            &mut self.hint,
            key,
            value,
        )
    }

    /// After a bad entry: every other problem, in field order, as `Form::validate`
    /// reports them.
    fn all_problems(&mut self, index: usize, errors: Vec<FieldError>) -> Error {
        let mut found = vec![(index, errors)];
        self.seen.mark(index);
        let mut add = |this: &mut Self, key: &str, value: &Value| match this.look(key, value) {
            Entry::Bad(i, e) => {
                this.seen.mark(i);
                found.push((i, e));
            }
            Entry::Good(i) => this.seen.mark(i),
            Entry::Ignored => {}
        };
        match std::mem::replace(&mut self.entries, Iter::Done) {
            Iter::Borrowed(rest) => rest.for_each(|(k, v)| add(self, k, v)),
            Iter::Owned(rest) => rest.for_each(|(k, v)| add(self, &k, &v)),
            Iter::Done => {}
        }
        for (i, field) in self.fields.iter().enumerate() {
            if !self.seen.has(i) && field.required && default_value(&field.kind).is_none() {
                found.push((i, vec![missing(field)]));
            }
        }
        found.sort_by_key(|(i, _)| *i);
        let errors = found.into_iter().flat_map(|(_, e)| e).collect();
        Error::Invalid(ValidationErrors::new(errors))
    }
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match &mut self.entries {
            Iter::Borrowed(it) => {
                for (key, value) in it.by_ref() {
                    match look(
                        self.fields,
                        self.strictness,
                        &mut self.made,
                        &mut self.hint,
                        key,
                        value,
                    ) {
                        Entry::Ignored => {}
                        Entry::Bad(index, errors) => return Err(self.all_problems(index, errors)),
                        Entry::Good(index) => {
                            self.seen.mark(index);
                            if self.made.is_none() {
                                self.sent = Some(value);
                            }
                            return seed
                                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                                .map(Some);
                        }
                    }
                }
            }
            Iter::Owned(it) => {
                for (key, value) in it.by_ref() {
                    match look(
                        self.fields,
                        self.strictness,
                        &mut self.made,
                        &mut self.hint,
                        &key,
                        &value,
                    ) {
                        Entry::Ignored => {}
                        Entry::Bad(index, errors) => return Err(self.all_problems(index, errors)),
                        Entry::Good(index) => {
                            self.seen.mark(index);
                            if self.made.is_none() {
                                self.made = Some(value);
                            }
                            return seed
                                .deserialize(de::value::StrDeserializer::new(&key))
                                .map(Some);
                        }
                    }
                }
            }
            Iter::Done => {}
        }
        self.entries = Iter::Done;
        // The entries are done: fill defaults, insist on required fields (when every
        // field was answered, there is nothing to fill or insist on).
        if self.next_unseen == 0 && self.seen.all(self.fields.len()) {
            self.next_unseen = self.fields.len();
        }
        while self.next_unseen < self.fields.len() {
            let index = self.next_unseen;
            self.next_unseen += 1;
            if self.seen.has(index) {
                continue;
            }
            let field = &self.fields[index];
            if let Some(default) = default_value(&field.kind) {
                self.made = Some(default);
                return seed
                    .deserialize(de::value::BorrowedStrDeserializer::new(&field.name))
                    .map(Some);
            }
            if field.required {
                let errors = self.fields[index..]
                    .iter()
                    .enumerate()
                    .filter(|&(i, f)| {
                        f.required && !self.seen.has(index + i) && default_value(&f.kind).is_none()
                    })
                    .map(|(_, f)| missing(f))
                    .collect();
                return Err(Error::Invalid(ValidationErrors::new(errors)));
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        if let Some(v) = self.made.take() {
            seed.deserialize(v).map_err(Error::from)
        } else if let Some(v) = self.sent.take() {
            seed.deserialize(v).map_err(Error::from)
        } else {
            Err(de::Error::custom("a value was read before its key"))
        }
    }
}
