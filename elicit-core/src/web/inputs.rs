//! Each field as its native control: a label tied to it, the description and the
//! problems tied by `aria-describedby`, the value shown (the default, or what was typed;
//! never a secret's: a secret is a password input, always empty).

use std::borrow::Cow;

use maud::{Markup, html};

use crate::answer::{FieldError, Problem};
use crate::form::{Choice, Field, FieldKind, Format};
use crate::web::page::clean;
use crate::web::read::Entered;

/// A single select with fewer options than this is a group of radios, else a list.
const MOST_RADIOS: usize = 7;

/// What a field shows: its values (the default, or what was typed) and its problems.
pub(super) struct Shown<'a> {
    values: Vec<String>,
    problems: Vec<&'a Problem>,
}

impl<'a> Shown<'a> {
    /// The field's default, or what was typed when `entered` holds a read answer; nothing
    /// for a secret, which is typed again after a refused answer.
    pub(super) fn new(
        field: &Field,
        entered: Option<&Entered>,
        problems: &'a [FieldError],
    ) -> Shown<'a> {
        let values = match entered.and_then(|e| e.values(&field.name)) {
            _ if field.secret => Vec::new(),
            Some(typed) => typed.to_vec(),
            None => default_values(field),
        };
        let problems = problems
            .iter()
            .filter(|p| p.field == field.name)
            .map(|p| &p.problem)
            .collect();
        Shown { values, problems }
    }

    fn first(&self) -> Option<&str> {
        self.values.first().map(String::as_str)
    }

    fn has(&self, value: &str) -> bool {
        self.values.iter().any(|v| v == value)
    }

    fn invalid(&self) -> Option<&'static str> {
        (!self.problems.is_empty()).then_some("true")
    }
}

/// The id a link to the field points at: its control, or the first of its group.
pub(super) fn anchor(index: usize, field: &Field) -> String {
    if grouped(field) {
        format!("f{index}-0")
    } else {
        format!("f{index}")
    }
}

/// Whether the field is a group of radios or checkboxes in a `<fieldset>`.
fn grouped(field: &Field) -> bool {
    match &field.kind {
        FieldKind::Select { options, .. } => options.len() < MOST_RADIOS,
        FieldKind::MultiSelect { .. } => true,
        _ => false,
    }
}

/// The ids a field's texts carry.
struct Ids {
    control: String,
    hint: Option<String>,
    error: Option<String>,
}

impl Ids {
    fn new(index: usize, has_hint: bool, shown: &Shown<'_>) -> Ids {
        let control = format!("f{index}");
        Ids {
            hint: has_hint.then(|| format!("{control}-hint")),
            error: (!shown.problems.is_empty()).then(|| format!("{control}-error")),
            control,
        }
    }

    /// The value of `aria-describedby`: the hint and the error, when there are.
    fn described_by(&self) -> Option<String> {
        match (&self.hint, &self.error) {
            (Some(h), Some(e)) => Some(format!("{h} {e}")),
            (Some(one), None) | (None, Some(one)) => Some(one.clone()),
            (None, None) => None,
        }
    }
}

/// One field, as its control with label, hint and problems.
pub(super) fn field(index: usize, field: &Field, shown: &Shown<'_>) -> Markup {
    let extra = extra_hint(field);
    let ids = Ids::new(index, field.description.is_some() || extra.is_some(), shown);
    let texts = texts(field, &ids, extra.as_deref(), shown);
    let class = if shown.problems.is_empty() {
        "field"
    } else {
        "field field-error"
    };
    let name = format!("f.{}", field.name);
    match &field.kind {
        FieldKind::Boolean { .. } => html! {
            div class=(class) {
                input type="hidden" name={ "s." (field.name) } value="1";
                (texts)
                div.choice {
                    input type="checkbox" id=(ids.control) name=(name) value="true"
                        checked[shown.values.iter().any(|v| v.eq_ignore_ascii_case("true"))]
                        aria-describedby=[ids.described_by()] aria-invalid=[shown.invalid()];
                    label for=(ids.control) { (label_text(field)) }
                }
            }
        },
        FieldKind::Select { options, .. } if options.len() < MOST_RADIOS => html! {
            fieldset class=(class) aria-describedby=[ids.described_by()] {
                legend { (label(field)) }
                (texts)
                (radios(field, options, &ids.control, &name, shown))
            }
        },
        FieldKind::Select { options, .. } => html! {
            div class=(class) {
                label for=(ids.control) { (label(field)) }
                (texts)
                select id=(ids.control) name=(name) required[field.required]
                    aria-describedby=[ids.described_by()] aria-invalid=[shown.invalid()] {
                    option value="" { @if field.required { "Choose one" } @else { "No answer" } }
                    @for option in options.iter() {
                        option value=(option.value) selected[shown.first() == Some(&*option.value)] {
                            (clean(option.label()))
                        }
                    }
                }
            }
        },
        FieldKind::MultiSelect { options, .. } => html! {
            fieldset class=(class) aria-describedby=[ids.described_by()] {
                legend { (label(field)) }
                input type="hidden" name={ "s." (field.name) } value="1";
                (texts)
                @for (j, option) in options.iter().enumerate() {
                    (Item {
                        kind: "checkbox",
                        id: &format!("{}-{j}", ids.control),
                        name: &name,
                        value: &option.value,
                        label: &clean(option.label()),
                        checked: shown.has(&option.value),
                        required: false,
                    }.render(shown))
                }
            }
        },
        FieldKind::String { .. } | FieldKind::Integer { .. } | FieldKind::Number { .. } => html! {
            div class=(class) {
                label for=(ids.control) { (label(field)) }
                (texts)
                (single(field, &ids, &name, shown))
            }
        },
    }
}

/// The field's hint (its description, and what the page adds) and its problems.
fn texts(field: &Field, ids: &Ids, extra: Option<&str>, shown: &Shown<'_>) -> Markup {
    html! {
        @if let Some(hint) = &ids.hint {
            p.hint id=(hint) {
                @if let Some(description) = &field.description { (clean(description)) }
                @if let Some(extra) = extra {
                    @if field.description.is_some() { " " }
                    (extra)
                }
            }
        }
        @if let Some(error) = &ids.error {
            p.error id=(error) {
                span.visually-hidden { "Error: " }
                @for (i, problem) in shown.problems.iter().enumerate() {
                    @if i > 0 { "; " }
                    (problem)
                }
            }
        }
    }
}

/// The radios of a single select; a "No answer" one first when the field may be left
/// unanswered (radios cannot be unticked).
fn radios(
    field: &Field,
    options: &[Choice],
    control: &str,
    name: &str,
    shown: &Shown<'_>,
) -> Markup {
    let unanswerable = !field.required && field.kind.default_value().is_none();
    html! {
        @if unanswerable {
            (Item {
                kind: "radio",
                id: &format!("{control}-none"),
                name,
                value: "",
                label: "No answer",
                checked: shown.values.is_empty() || shown.has(""),
                required: false,
            }.render(shown))
        }
        @for (j, option) in options.iter().enumerate() {
            (Item {
                kind: "radio",
                id: &format!("{control}-{j}"),
                name,
                value: &option.value,
                label: &clean(option.label()),
                checked: shown.first() == Some(&*option.value),
                required: field.required,
            }.render(shown))
        }
    }
}

/// The label's text: the title or the name, and whether an answer is required.
fn label(field: &Field) -> Markup {
    html! {
        (label_text(field))
        @if field.required { " " span.required { "(required)" } }
    }
}

/// The title shown as the label, or the wire name when the title shows nothing (a
/// label must not be empty).
fn label_text(field: &Field) -> Cow<'_, str> {
    match field.title.as_deref().map(clean) {
        Some(title) if !title.trim().is_empty() => title,
        _ => clean(&field.name),
    }
}

/// What the page adds to a field's description: the counts a multi-select takes, the
/// time zone of a date and time.
fn extra_hint(field: &Field) -> Option<String> {
    match &field.kind {
        FieldKind::MultiSelect {
            min_items,
            max_items,
            ..
        } => match (min_items.filter(|n| *n > 0), max_items) {
            (Some(min), Some(max)) if min == *max => Some(format!("Choose {min}.")),
            (Some(min), Some(max)) => Some(format!("Choose between {min} and {max}.")),
            (Some(min), None) => Some(format!("Choose at least {min}.")),
            (None, Some(max)) => Some(format!("Choose at most {max}.")),
            (None, None) => Some("Choose any number.".to_owned()),
        },
        FieldKind::String {
            format: Some(Format::DateTime),
            ..
        } => Some("The time is in UTC.".to_owned()),
        _ => None,
    }
}

/// One radio or checkbox of a group.
struct Item<'a> {
    kind: &'a str,
    id: &'a str,
    name: &'a str,
    value: &'a str,
    label: &'a str,
    checked: bool,
    required: bool,
}

impl Item<'_> {
    /// The control and its label.
    fn render(&self, shown: &Shown<'_>) -> Markup {
        html! {
            div.choice {
                input type=(self.kind) id=(self.id) name=(self.name) value=(self.value)
                    checked[self.checked] required[self.required] aria-invalid=[shown.invalid()];
                label for=(self.id) { (self.label) }
            }
        }
    }
}

/// A text, password, e-mail, URL, date, date-time or number input. A secret is a password
/// input the browser does not fill in or remember, whatever its format.
fn single(field: &Field, ids: &Ids, name: &str, shown: &Shown<'_>) -> Markup {
    let (kind, min, max, step, lengths) = match &field.kind {
        FieldKind::String {
            min_length,
            max_length,
            ..
        } if field.secret => (
            "password",
            None,
            None,
            None,
            Some((*min_length, *max_length)),
        ),
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            let (kind, step) = match format {
                None => ("text", None),
                Some(Format::Email) => ("email", None),
                Some(Format::Uri) => ("url", None),
                Some(Format::Date) => ("date", None),
                // Seconds may be given (a default has them).
                Some(Format::DateTime) => ("datetime-local", Some("1")),
            };
            let lengths = matches!(format, None | Some(Format::Email | Format::Uri));
            let lengths = lengths.then_some((*min_length, *max_length));
            (kind, None, None, step, lengths)
        }
        FieldKind::Integer { .. } => {
            let bounds = field.kind.integer_bounds();
            let min = bounds.map(|(lo, _)| lo.to_string());
            let max = bounds.map(|(_, hi)| hi.to_string());
            ("number", min, max, Some("1"), None)
        }
        FieldKind::Number {
            minimum, maximum, ..
        } => {
            let show = |bound: &Option<f64>| bound.map(|b| b.to_string());
            ("number", show(minimum), show(maximum), Some("any"), None)
        }
        _ => ("text", None, None, None, None),
    };
    let (min_length, max_length) = lengths.unwrap_or_default();
    html! {
        input type=(kind) autocomplete=[field.secret.then_some("off")] id=(ids.control)
            name=(name) value=[shown.first()]
            required[field.required] minlength=[min_length] maxlength=[max_length]
            min=[min] max=[max] step=[step]
            aria-describedby=[ids.described_by()] aria-invalid=[shown.invalid()];
    }
}

/// The default as the control's values (a date and time in UTC, as `datetime-local`
/// shows it); none for a field without one.
fn default_values(field: &Field) -> Vec<String> {
    let one = |s: String| vec![s];
    match &field.kind {
        FieldKind::String {
            format: Some(Format::DateTime),
            default: Some(d),
            ..
        } => one(utc_local(d).unwrap_or_else(|| d.to_string())),
        FieldKind::String { default, .. } | FieldKind::Select { default, .. } => {
            default.iter().map(|d| d.to_string()).collect()
        }
        FieldKind::Integer { default, .. } => default.iter().map(i128::to_string).collect(),
        FieldKind::Number { default, .. } => default.iter().map(f64::to_string).collect(),
        FieldKind::Boolean { default } => match default {
            Some(true) => one("true".to_owned()),
            _ => Vec::new(),
        },
        FieldKind::MultiSelect { default, .. } => default
            .iter()
            .flat_map(|d| d.iter().map(|v| v.to_string()))
            .collect(),
    }
}

/// An RFC 3339 date and time as a `datetime-local` value in UTC (`2025-02-03T17:30:00`).
fn utc_local(rfc3339: &str) -> Option<String> {
    use time::format_description::well_known::Rfc3339;
    let utc = time::OffsetDateTime::parse(rfc3339, &Rfc3339)
        .ok()?
        .checked_to_offset(time::UtcOffset::UTC)?;
    (0..=9999).contains(&utc.year()).then(|| {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            utc.year(),
            u8::from(utc.month()),
            utc.day(),
            utc.hour(),
            utc.minute(),
            utc.second()
        )
    })
}

/// A `datetime-local` value (`2025-02-03T17:30`, seconds and fraction optional) as the
/// RFC 3339 date and time it means in UTC; `None` for anything else, which is left for
/// the validator to judge as it is.
pub(super) fn utc_rfc3339(local: &str) -> Option<String> {
    let b = local.as_bytes();
    let digits = |range: std::ops::Range<usize>| b[range].iter().all(u8::is_ascii_digit);
    let minutes = b.len() >= 16
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16);
    if !minutes {
        return None;
    }
    match &b[16..] {
        [] => Some(format!("{local}:00Z")),
        [b':', s1, s2, rest @ ..]
            if s1.is_ascii_digit()
                && s2.is_ascii_digit()
                && (rest.is_empty()
                    || rest[0] == b'.'
                        && rest.len() > 1
                        && rest[1..].iter().all(u8::is_ascii_digit)) =>
        {
            Some(format!("{local}Z"))
        }
        _ => None,
    }
}
