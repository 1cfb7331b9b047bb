//! Reading what the page posts: the action, and for accept the answer as JSON typed by
//! each field's kind, judged by the same validator as any client's answer.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::answer::{Action, AnswerError, FieldError, Problem, Strictness, ValidationErrors};
use crate::form::{Field, FieldKind, Form, Format};
use crate::web::inputs::utc_rfc3339;

/// The largest body [`read`] takes, in bytes.
const MAX_BODY: usize = 1 << 20;

/// The longest value of a field, in characters, unless its `maxLength` is longer.
const MAX_VALUE: u64 = 16_384;

/// What the person did on the page, as [`read`] found it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Submission {
    /// Submitted, with the answer: valid for the form, defaults filled in, read as
    /// [`Form::validate`] reads an answer (deserialize the form's type from it).
    Accept(Value),
    /// Declined to answer.
    Decline,
    /// Cancelled.
    Cancel,
    /// The answer was refused: show the page again with
    /// [`View::Refused`](crate::web::View::Refused).
    Refused {
        /// What the person typed, to show again.
        entered: Entered,
        /// Why: [`AnswerError::Invalid`] with each field's problems, or, for a body no
        /// browser would send from this page, another [`AnswerError`] (for the logs; the
        /// page just asks to try again).
        error: AnswerError,
    },
}

/// What the person typed on the page, kept to show it again after a refused answer; never
/// a secret field's value, which the person types again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entered {
    /// Each field's values by wire name, as sent; `None` when the body was not read.
    fields: Option<BTreeMap<String, Vec<String>>>,
}

impl Entered {
    /// The values of a body that was read for `form`, but for its secrets.
    fn typed(form: &Form, mut fields: BTreeMap<String, Vec<String>>) -> Entered {
        if form.has_secret() {
            fields.retain(|name, _| !form.field(name).is_some_and(|f| f.secret));
        }
        Entered {
            fields: Some(fields),
        }
    }

    /// The values sent for the field named `name` (none if it was left out), or `None`
    /// when nothing was read, so the page shows the defaults.
    pub(super) fn values(&self, name: &str) -> Option<&[String]> {
        let fields = self.fields.as_ref()?;
        Some(fields.get(name).map_or(&[][..], Vec::as_slice))
    }
}

/// Reads the body the page posted (`application/x-www-form-urlencoded`) for `form`.
///
/// Decline and cancel need nothing else. Accept turns each field's values into the JSON
/// an answer carries (a ticked checkbox `true`, an unticked one `false`, a group of
/// checkboxes a list, an empty text or number left out) and validates it as
/// [`Form::validate`] does a client's answer, leniently (numbers arrive as text).
/// Names other than the page's own (`action`, `f.…`, `s.…`) are the caller's and are
/// left alone. Never panics.
///
/// ```
/// use elicit_core::web::{self, Submission};
/// # use elicit_core::Elicit;
/// # #[derive(Elicit, serde::Deserialize)]
/// # struct Copies { #[elicit(minimum = 1)] copies: u8 }
///
/// let form = Copies::form();
/// // Decline works whatever the fields hold.
/// assert!(matches!(web::read(form, b"f.copies=&action=decline"), Submission::Decline));
/// match web::read(form, b"f.copies=0&action=accept") {
///     Submission::Refused { error, .. } => assert_eq!(error.to_string(), "copies: must be at least 1"),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn read(form: &Form, body: &[u8]) -> Submission {
    let refused = |entered, error| Submission::Refused { entered, error };
    if body.len() > MAX_BODY {
        return refused(
            Entered::default(),
            AnswerError::Malformed("the answer is larger than the page sends"),
        );
    }
    // Splitting at `&` and `=` cannot cut a UTF-8 character: the whole body decodes
    // exactly when each name and value does.
    if percent_encoding::percent_decode(body)
        .decode_utf8()
        .is_err()
    {
        return refused(
            Entered::default(),
            AnswerError::Malformed("the answer is not UTF-8"),
        );
    }
    let Sent {
        action,
        entered,
        unknown,
    } = Sent::parse(form, body);
    let action = match action {
        Ok(Some(action)) => action,
        Ok(None) => {
            let error = AnswerError::Malformed("the answer has no action");
            return refused(Entered::typed(form, entered), error);
        }
        Err(error) => return refused(Entered::typed(form, entered), error),
    };
    match action {
        Action::Decline => return Submission::Decline,
        Action::Cancel => return Submission::Cancel,
        Action::Accept => {}
    }
    if unknown {
        let error = AnswerError::Malformed("the answer has a value for a field the form lacks");
        return refused(Entered::typed(form, entered), error);
    }
    match accept(form, &entered) {
        Ok(answer) => Submission::Accept(answer),
        Err(error) => refused(Entered::typed(form, entered), error),
    }
}

/// The body's names and values, sorted out.
struct Sent {
    /// The one action; an error for two, or one not known.
    action: Result<Option<Action>, AnswerError>,
    /// Each field's values, by wire name; a field whose marker came has an entry.
    entered: BTreeMap<String, Vec<String>>,
    /// Whether a value came for a field the form does not have.
    unknown: bool,
}

impl Sent {
    fn parse(form: &Form, body: &[u8]) -> Sent {
        let mut sent = Sent {
            action: Ok(None),
            entered: BTreeMap::new(),
            unknown: false,
        };
        for (key, value) in form_urlencoded::parse(body) {
            if key == "action" {
                sent.action = match sent.action {
                    Ok(None) => value.parse().map(Some),
                    Ok(Some(_)) | Err(_) => {
                        Err(AnswerError::Malformed("the answer has two actions"))
                    }
                };
            } else if let Some(name) = key.strip_prefix("f.") {
                match form.field(name) {
                    Some(field) => sent.value(field, value),
                    None => sent.unknown = true,
                }
            } else if let Some(name) = key.strip_prefix("s.") {
                match form.field(name) {
                    Some(field) if marked(field) => {
                        sent.entered.entry(name.to_owned()).or_default();
                    }
                    _ => sent.unknown = true,
                }
            }
        }
        sent
    }

    /// Keeps one value of `field`, up to one more than the field can hold (enough to
    /// refuse the answer; a flood of repeats costs no more).
    fn value(&mut self, field: &Field, value: Cow<'_, str>) {
        let most = match &field.kind {
            FieldKind::MultiSelect { options, .. } => options.len(),
            _ => 1,
        };
        let values = self.entered.entry(field.name.to_string()).or_default();
        if values.len() <= most {
            values.push(value.into_owned());
        }
    }
}

/// Whether the field's control is checkboxes, which send a marker: nothing ticked is
/// then an answer (false, an empty list), not a field left out.
fn marked(field: &Field) -> bool {
    matches!(
        field.kind,
        FieldKind::Boolean { .. } | FieldKind::MultiSelect { .. }
    )
}

/// The answer from the values sent, validated.
fn accept(form: &Form, entered: &BTreeMap<String, Vec<String>>) -> Result<Value, AnswerError> {
    let mut content = Map::new();
    let mut own = Vec::new();
    for field in form.fields() {
        let Some(values) = entered.get(&*field.name) else {
            continue;
        };
        if let Some(length) = too_long(field, values) {
            let max = cap(field);
            own.push((field, Problem::TooLong { max, length }));
            continue;
        }
        if let Some(value) = json(field, values) {
            content.insert(field.name.to_string(), value);
        }
    }
    let checked = form.validate_owned(Some(Value::Object(content)), Strictness::Lenient);
    if own.is_empty() {
        return checked;
    }
    let mut errors = match checked {
        Ok(_) => Vec::new(),
        Err(AnswerError::Invalid(errors)) => errors.into_iter().collect(),
        Err(other) => return Err(other),
    };
    // A field refused here was left out of the content: drop the validator's word on it.
    errors.retain(|e| !own.iter().any(|(f, _)| f.name == e.field));
    errors.extend(own.into_iter().map(|(field, problem)| FieldError {
        field: field.name.clone(),
        label: field.title.clone().unwrap_or_else(|| field.name.clone()),
        problem,
    }));
    let at = |e: &FieldError| form.fields().iter().position(|f| f.name == e.field);
    errors.sort_by_key(at);
    Err(AnswerError::Invalid(ValidationErrors::new(errors)))
}

/// The longest value the field takes, in characters.
fn cap(field: &Field) -> u64 {
    match &field.kind {
        FieldKind::String {
            max_length: Some(max),
            ..
        } => MAX_VALUE.max(*max),
        _ => MAX_VALUE,
    }
}

/// The length of the first value longer than the field takes, if one is.
fn too_long(field: &Field, values: &[String]) -> Option<u64> {
    let cap = cap(field);
    values.iter().find_map(|v| {
        // Bytes bound characters from above: most values are settled without counting.
        let long = v.len() as u64 > cap && v.chars().count() as u64 > cap;
        long.then(|| v.chars().count() as u64)
    })
}

/// The JSON of one field's values, typed by its kind; `None` leaves the field out.
fn json(field: &Field, values: &[String]) -> Option<Value> {
    match &field.kind {
        // Nothing ticked in a group that needs some: a field left unanswered, unless
        // an answer is required.
        FieldKind::MultiSelect { min_items, .. }
            if values.is_empty() && !field.required && min_items.is_some_and(|n| n > 0) =>
        {
            None
        }
        // Checkboxes: a marker alone means nothing ticked.
        FieldKind::MultiSelect { .. } => Some(Value::Array(
            values.iter().cloned().map(Value::String).collect(),
        )),
        FieldKind::Boolean { .. } if values.is_empty() => Some(Value::Bool(false)),
        _ => match values {
            [] => None,
            // An empty control is a field left unanswered.
            [one] if one.is_empty() => None,
            [one] => Some(Value::String(as_answered(field, one))),
            // One control sends one value: more are refused as the wrong type.
            many => Some(Value::Array(
                many.iter().cloned().map(Value::String).collect(),
            )),
        },
    }
}

/// The value as the answer carries it: a `datetime-local` value as RFC 3339 in UTC.
fn as_answered(field: &Field, value: &str) -> String {
    match &field.kind {
        FieldKind::String {
            format: Some(Format::DateTime),
            ..
        } => utc_rfc3339(value).unwrap_or_else(|| value.to_owned()),
        _ => value.to_owned(),
    }
}
