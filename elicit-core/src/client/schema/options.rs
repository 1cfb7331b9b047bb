//! The options of a choice or multi-select, and the defaults among them.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use super::property::{capped, text};
use super::{MAX_OPTIONS, SchemaRefused};
use crate::client::text::MAX_TITLE;
use crate::form::Choice;

/// The options of a choice: `enum` (titles from `enumNames`, else the values) or the
/// titled `oneOf` / `anyOf` of `{const, title}`; never both.
pub(super) fn read_options(
    path: &str,
    p: &Map<String, Value>,
    plain: &str,
    titled: &str,
) -> Result<Vec<Choice>, SchemaRefused> {
    match (p.get(plain), p.get(titled)) {
        (Some(_), Some(_)) => Err(SchemaRefused::at(
            path,
            format!("`{plain}` and `{titled}` together"),
        )),
        (Some(Value::Array(values)), None) => plain_options(path, p, plain, values),
        (None, Some(Value::Array(entries))) => titled_options(path, p, plain, titled, entries),
        (Some(_), None) | (None, Some(_)) => {
            Err(SchemaRefused::at(path, "the options must be a list"))
        }
        (None, None) => Err(SchemaRefused::at(
            path,
            format!("a choice needs `{plain}` or `{titled}`"),
        )),
    }
}

/// Refuses `n` options when they are more than [`MAX_OPTIONS`], before any is read.
fn check_count(path: &str, n: usize) -> Result<(), SchemaRefused> {
    if n > MAX_OPTIONS {
        return Err(SchemaRefused::at(
            path,
            format!("{n} options, more than the {MAX_OPTIONS} a client shows"),
        ));
    }
    Ok(())
}

/// The options of the list `values` of `plain` (`enum`), titled by `enumNames` when it
/// is given.
fn plain_options(
    path: &str,
    p: &Map<String, Value>,
    plain: &str,
    values: &[Value],
) -> Result<Vec<Choice>, SchemaRefused> {
    check_count(path, values.len())?;
    let names = enum_names(path, p, values.len())?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| plain_option(path, plain, v, names.map(|n| &n[i])))
        .collect()
}

/// `enumNames`, when given: a list of one title per option, `count` in all.
fn enum_names<'a>(
    path: &str,
    p: &'a Map<String, Value>,
    count: usize,
) -> Result<Option<&'a [Value]>, SchemaRefused> {
    match p.get("enumNames") {
        None => Ok(None),
        Some(Value::Array(names)) if names.len() == count => Ok(Some(names)),
        Some(Value::Array(names)) => Err(SchemaRefused::at(
            format!("{path}.enumNames"),
            format!("{} names for {count} options", names.len()),
        )),
        Some(_) => Err(SchemaRefused::at(
            format!("{path}.enumNames"),
            "must be a list of titles",
        )),
    }
}

/// One option of `plain`: its text `value`, titled by its `enumNames` entry `name` when
/// there is one.
fn plain_option(
    path: &str,
    plain: &str,
    value: &Value,
    name: Option<&Value>,
) -> Result<Choice, SchemaRefused> {
    let value = value
        .as_str()
        .ok_or_else(|| SchemaRefused::at(format!("{path}.{plain}"), "options must be text"))?;
    let title = match name {
        None => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{path}.enumNames"),
                "titles must be text",
            ));
        }
    };
    option(path, value, title)
}

/// The options of the list `entries` of `titled` (`oneOf` or `anyOf`), each
/// `{const, title}`; `enumNames` beside them is refused.
fn titled_options(
    path: &str,
    p: &Map<String, Value>,
    plain: &str,
    titled: &str,
    entries: &[Value],
) -> Result<Vec<Choice>, SchemaRefused> {
    check_count(path, entries.len())?;
    if p.contains_key("enumNames") {
        return Err(SchemaRefused::at(
            format!("{path}.enumNames"),
            format!("`enumNames` goes with `{plain}`, not `{titled}`"),
        ));
    }
    entries
        .iter()
        .map(|e| titled_option(path, titled, e))
        .collect()
}

/// One `{const, title}` entry of `titled`: a text `const`, and a text `title` if any.
fn titled_option(path: &str, titled: &str, entry: &Value) -> Result<Choice, SchemaRefused> {
    let Value::Object(e) = entry else {
        return Err(SchemaRefused::at(
            format!("{path}.{titled}"),
            "each option is {\"const\", \"title\"}",
        ));
    };
    if let Some(key) = e.keys().find(|k| !matches!(k.as_str(), "const" | "title")) {
        return Err(SchemaRefused::at(
            format!("{path}.{titled}.{key}"),
            "each option is {\"const\", \"title\"}",
        ));
    }
    let value = e.get("const").and_then(Value::as_str).ok_or_else(|| {
        SchemaRefused::at(format!("{path}.{titled}"), "an option needs a text `const`")
    })?;
    let title = match e.get("title") {
        None => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{path}.{titled}"),
                "titles must be text",
            ));
        }
    };
    option(path, value, title)
}

/// One option, its value and title no longer than [`MAX_TITLE`].
fn option(path: &str, value: &str, title: Option<String>) -> Result<Choice, SchemaRefused> {
    capped(path, "option", Some(value), MAX_TITLE)?;
    capped(path, "option title", title.as_deref(), MAX_TITLE)?;
    Ok(Choice::owned(value, title))
}

/// A choice's default: text that is one of the options.
pub(super) fn option_default(
    path: &str,
    p: &Map<String, Value>,
    options: &[Choice],
) -> Result<Option<Cow<'static, str>>, SchemaRefused> {
    match text(path, p, "default")? {
        None => Ok(None),
        Some(d) if options.iter().any(|c| c.value == d) => Ok(Some(Cow::Owned(d.to_owned()))),
        Some(d) => Err(SchemaRefused::at(
            format!("{path}.default"),
            format!("{d:?} is not one of the options"),
        )),
    }
}

/// A multi-select's default: a list of options, refused on its length alone when it is
/// longer than the list of options (options never repeat).
pub(super) fn multi_select_default(
    path: &str,
    p: &Map<String, Value>,
    options: &[Choice],
) -> Result<Option<Cow<'static, [Cow<'static, str>]>>, SchemaRefused> {
    match p.get("default") {
        None => Ok(None),
        // Options never repeat: a longer default is refused before any comparison, so
        // its size costs nothing.
        Some(Value::Array(values)) if values.len() > options.len() => Err(SchemaRefused::at(
            format!("{path}.default"),
            format!(
                "{} items for {} options: a default cannot repeat an option",
                values.len(),
                options.len()
            ),
        )),
        Some(Value::Array(values)) => {
            let known: HashSet<&str> = options.iter().map(|c| &*c.value).collect();
            let mut out = Vec::with_capacity(values.len());
            for v in values {
                let Some(v) = v.as_str().filter(|v| known.contains(v)) else {
                    return Err(SchemaRefused::at(
                        format!("{path}.default"),
                        format!("{v} is not one of the options"),
                    ));
                };
                out.push(Cow::Owned(v.to_owned()));
            }
            Ok(Some(Cow::Owned(out)))
        }
        Some(_) => Err(SchemaRefused::at(
            format!("{path}.default"),
            "must be a list of options",
        )),
    }
}
