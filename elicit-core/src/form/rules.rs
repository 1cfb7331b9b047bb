//! The rules of the MCP form subset, checked on forms built at run time. Derived forms
//! are checked at compile time by the derive and its glue (`__private`).

use std::borrow::Cow;

use crate::form::{Choice, Field, FieldKind, FormError, Format};

pub(crate) fn check_fields(fields: &[Field]) -> Result<(), FormError> {
    if fields.is_empty() {
        return Err(FormError::new(
            "a form needs at least one field (an empty form hangs some clients); for a yes/no question use `Confirm`".into(),
        ));
    }
    check_fields_of_schema(fields)
}

/// The rules of [`check_fields`] a client applies to a server's schema: the same, except
/// that an empty form (a plain "OK?") is shown rather than refused.
pub(crate) fn check_fields_of_schema(fields: &[Field]) -> Result<(), FormError> {
    if let Some(name) = repeated(fields, |f| &f.name) {
        return Err(FormError::new(format!("two fields are named `{name}`")));
    }
    for field in fields {
        if field.name.is_empty() {
            return Err(FormError::new("a field name cannot be empty".into()));
        }
        check_kind(&field.kind)
            .and_then(|()| check_secret(field))
            .map_err(|e| FormError::new(format!("field `{}`: {e}", field.name)))?;
    }
    Ok(())
}

/// A secret is text with no default: a page shows it as a password input, and a default
/// would be written into the page.
fn check_secret(field: &Field) -> Result<(), String> {
    match &field.kind {
        _ if !field.secret => Ok(()),
        FieldKind::String { default: None, .. } => Ok(()),
        FieldKind::String { .. } => {
            Err("a secret takes no default: it would be written into the page".into())
        }
        _ => Err("a secret is a text field: it cannot be a number, a checkbox or a select".into()),
    }
}

/// The rules of one field's kind: bounds in order, a default within them, options offered
/// once.
fn check_kind(kind: &FieldKind) -> Result<(), String> {
    match kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            default,
        } => check_text(*format, *min_length, *max_length, default.as_deref()),
        FieldKind::Integer {
            minimum,
            maximum,
            range,
            default,
        } => check_integer(*minimum, *maximum, *range, *default, kind.integer_bounds()),
        FieldKind::Number {
            minimum,
            maximum,
            default,
            ..
        } => check_number(*minimum, *maximum, *default),
        FieldKind::Boolean { .. } => Ok(()),
        FieldKind::Select {
            options, default, ..
        } => check_select(options, default.as_deref()),
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            default,
        } => check_multi_select(options, *min_items, *max_items, default.as_deref()),
    }
}

/// A text field: lengths in order, and a default of that length and format.
fn check_text(
    format: Option<Format>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    default: Option<&str>,
) -> Result<(), String> {
    ordered(min_length, max_length, "min_length", "max_length")?;
    if let Some(d) = default {
        text_fits(d, format, min_length, max_length).map_err(|why| format!("the default {why}"))?;
    }
    Ok(())
}

/// An integer field: bounds in order, a range that is not empty, and a default within
/// `enforced`, the bounds the validator applies.
fn check_integer(
    minimum: Option<i128>,
    maximum: Option<i128>,
    range: (i128, i128),
    default: Option<i128>,
    enforced: Option<(i128, i128)>,
) -> Result<(), String> {
    ordered(minimum, maximum, "minimum", "maximum")?;
    if range.0 > range.1 {
        return Err("the enforced range is empty".into());
    }
    if let (Some(d), Some((lo, hi))) = (default, enforced)
        && (d < lo || d > hi)
    {
        return Err("the default is outside the field's bounds".into());
    }
    Ok(())
}

/// A number field: finite bounds in order, and a finite default within them.
fn check_number(
    minimum: Option<f64>,
    maximum: Option<f64>,
    default: Option<f64>,
) -> Result<(), String> {
    for v in [minimum, maximum, default].into_iter().flatten() {
        if !v.is_finite() {
            return Err("bounds and defaults must be finite numbers".into());
        }
    }
    if let (Some(lo), Some(hi)) = (minimum, maximum)
        && lo > hi
    {
        return Err("minimum is greater than maximum".into());
    }
    if let Some(d) = default
        && (minimum.is_some_and(|m| d < m) || maximum.is_some_and(|m| d > m))
    {
        return Err("the default is outside the field's bounds".into());
    }
    Ok(())
}

/// A select: options offered once, and a default that is one of them.
fn check_select(options: &[Choice], default: Option<&str>) -> Result<(), String> {
    check_options(options)?;
    if let Some(d) = default
        && !options.iter().any(|c| c.value == *d)
    {
        return Err(format!("the default {d:?} is not one of the options"));
    }
    Ok(())
}

/// A multi-select: options offered once, item counts in order and within the options,
/// and a default of distinct options, as many as the counts allow.
fn check_multi_select(
    options: &[Choice],
    min_items: Option<u64>,
    max_items: Option<u64>,
    default: Option<&[Cow<'static, str>]>,
) -> Result<(), String> {
    check_options(options)?;
    ordered(min_items, max_items, "min_items", "max_items")?;
    if min_items.is_some_and(|m| m > options.len() as u64) {
        return Err("min_items is more than the number of options".into());
    }
    let Some(d) = default else {
        return Ok(());
    };
    for v in d {
        if !options.iter().any(|c| c.value == *v) {
            return Err(format!("the default {v:?} is not one of the options"));
        }
    }
    if let Some(v) = repeated(d, |v| v) {
        return Err(format!("the default names {v:?} twice"));
    }
    let n = d.len() as u64;
    if min_items.is_some_and(|m| n < m) || max_items.is_some_and(|m| n > m) {
        return Err("the default's item count is outside min_items..=max_items".into());
    }
    Ok(())
}

/// Whether `text` is a value of a text field with `format` and lengths `min..=max`;
/// else what is wrong, to follow "the default" or "option …".
pub(crate) fn text_fits(
    text: &str,
    format: Option<Format>,
    min: Option<u64>,
    max: Option<u64>,
) -> Result<(), String> {
    let len = text.chars().count() as u64;
    if min.is_some_and(|m| len < m) || max.is_some_and(|m| len > m) {
        let bound = |b: Option<u64>| b.map_or(String::new(), |b| b.to_string());
        return Err(format!(
            "has {len} characters, outside min_length..=max_length ({}..={})",
            bound(min),
            bound(max)
        ));
    }
    match format {
        Some(f) if !f.accepts(text) => Err(format!("is not a valid {f}")),
        _ => Ok(()),
    }
}

fn ordered<T: PartialOrd>(lo: Option<T>, hi: Option<T>, a: &str, b: &str) -> Result<(), String> {
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo > hi => Err(format!("{a} is greater than {b}")),
        _ => Ok(()),
    }
}

fn check_options(options: &[Choice]) -> Result<(), String> {
    if options.is_empty() {
        return Err("a select needs at least one option".into());
    }
    match repeated(options, |c| &c.value) {
        Some(v) => Err(format!("the option {v:?} is offered twice")),
        None => Ok(()),
    }
}

/// The first name, in order, that occurs a second time.
fn repeated<T>(items: &[T], name: impl Fn(&T) -> &str) -> Option<&str> {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().map(name).find(|n| !seen.insert(*n))
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use crate::form::{Choice, Field, FieldKind, Form};

    fn select(n: usize, dup: Option<usize>) -> FieldKind {
        let mut options: Vec<Choice> = (0..n)
            .map(|i| Choice::owned(format!("o{i}"), None))
            .collect();
        if let Some(i) = dup {
            options.push(Choice::owned(format!("o{i}"), None));
        }
        FieldKind::Select {
            options: options.into(),
            default: None,
            legacy_enum_names: false,
        }
    }

    fn text() -> FieldKind {
        FieldKind::String {
            format: None,
            min_length: None,
            max_length: None,
            default: None,
        }
    }

    #[test]
    fn repeated_names_and_options_are_refused_short_and_long() {
        for n in [2, 5, 32, 33, 200] {
            assert!(
                Form::new(vec![Field::new("f", true, select(n, None))]).is_ok(),
                "{n}"
            );
            let e = Form::new(vec![Field::new("f", true, select(n, Some(n / 2)))]).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("field `f`: the option \"o{}\" is offered twice", n / 2),
                "{n}"
            );
            let mut fields: Vec<Field> = (0..n)
                .map(|i| Field::new(format!("f{i}"), true, text()))
                .collect();
            assert!(Form::new(fields.clone()).is_ok());
            fields.push(Field::new("f1", true, text()));
            assert_eq!(
                Form::new(fields).unwrap_err().to_string(),
                "two fields are named `f1`"
            );
        }
    }

    #[test]
    fn a_multi_select_default_naming_an_option_twice_is_refused() {
        let kind = FieldKind::MultiSelect {
            options: vec![Choice::owned("a", None), Choice::owned("b", None)].into(),
            min_items: None,
            max_items: None,
            default: Some(Cow::Owned(vec![Cow::Borrowed("a"), Cow::Borrowed("a")])),
        };
        assert_eq!(
            Form::new(vec![Field::new("m", false, kind)])
                .unwrap_err()
                .to_string(),
            "field `m`: the default names \"a\" twice"
        );
    }
}
