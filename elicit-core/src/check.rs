//! The rules of the MCP form subset, checked on forms built at run time. Derived forms
//! are checked at compile time by the derive and `crate::__private`.

use std::collections::HashSet;

use crate::answer::format_ok;
use crate::form::{Choice, Field, FieldKind, FormError};

pub(crate) fn check_fields(fields: &[Field]) -> Result<(), FormError> {
    if fields.is_empty() {
        return Err(FormError::new(
            "a form needs at least one field (an empty form hangs some clients); for a yes/no question use `Confirm`".into(),
        ));
    }
    let mut names = HashSet::new();
    for field in fields {
        if field.name.is_empty() {
            return Err(FormError::new("a field name cannot be empty".into()));
        }
        if !names.insert(&*field.name) {
            return Err(FormError::new(format!(
                "two fields are named `{}`",
                field.name
            )));
        }
        check_kind(&field.kind)
            .map_err(|e| FormError::new(format!("field `{}`: {e}", field.name)))?;
    }
    Ok(())
}

fn check_kind(kind: &FieldKind) -> Result<(), String> {
    match kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            default,
        } => {
            ordered(*min_length, *max_length, "min_length", "max_length")?;
            if let Some(d) = default {
                let len = d.chars().count() as u64;
                if min_length.is_some_and(|m| len < m) || max_length.is_some_and(|m| len > m) {
                    return Err("the default's length is outside min_length..=max_length".into());
                }
                if let Some(f) = format
                    && !format_ok(*f, d)
                {
                    return Err(format!("the default is not a valid {f}"));
                }
            }
        }
        FieldKind::Integer {
            minimum,
            maximum,
            range,
            default,
        } => {
            ordered(*minimum, *maximum, "minimum", "maximum")?;
            if range.0 > range.1 {
                return Err("the enforced range is empty".into());
            }
            if let Some(d) = default {
                let lo = minimum.unwrap_or(range.0).max(range.0);
                let hi = maximum.unwrap_or(range.1).min(range.1);
                if *d < lo || *d > hi {
                    return Err("the default is outside the field's bounds".into());
                }
            }
        }
        FieldKind::Number {
            minimum,
            maximum,
            default,
            ..
        } => {
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
                && (minimum.is_some_and(|m| *d < m) || maximum.is_some_and(|m| *d > m))
            {
                return Err("the default is outside the field's bounds".into());
            }
        }
        FieldKind::Boolean { .. } => {}
        FieldKind::Select {
            options, default, ..
        } => {
            check_options(options)?;
            if let Some(d) = default
                && !options.iter().any(|c| c.value == *d)
            {
                return Err(format!("the default {d:?} is not one of the options"));
            }
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            default,
        } => {
            check_options(options)?;
            ordered(*min_items, *max_items, "min_items", "max_items")?;
            if min_items.is_some_and(|m| m > options.len() as u64) {
                return Err("min_items is more than the number of options".into());
            }
            if let Some(d) = default {
                let mut seen = HashSet::new();
                for v in d.iter() {
                    if !options.iter().any(|c| c.value == *v) {
                        return Err(format!("the default {v:?} is not one of the options"));
                    }
                    if !seen.insert(v) {
                        return Err(format!("the default names {v:?} twice"));
                    }
                }
                let n = d.len() as u64;
                if min_items.is_some_and(|m| n < m) || max_items.is_some_and(|m| n > m) {
                    return Err("the default's item count is outside min_items..=max_items".into());
                }
            }
        }
    }
    Ok(())
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
    let mut seen = HashSet::new();
    for c in options {
        if !seen.insert(&*c.value) {
            return Err(format!("the option {:?} is offered twice", c.value));
        }
    }
    Ok(())
}
