//! The options of a choice or multi-select, and a choice's default among them.

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
    let too_many = |n: usize| {
        (n > MAX_OPTIONS).then(|| {
            SchemaRefused::at(
                path,
                format!("{n} options, more than the {MAX_OPTIONS} a client shows"),
            )
        })
    };
    let options: Vec<Choice> = match (p.get(plain), p.get(titled)) {
        (Some(_), Some(_)) => {
            return Err(SchemaRefused::at(
                path,
                format!("`{plain}` and `{titled}` together"),
            ));
        }
        (Some(Value::Array(values)), None) => {
            if let Some(e) = too_many(values.len()) {
                return Err(e);
            }
            let names = match p.get("enumNames") {
                None => None,
                Some(Value::Array(names)) if names.len() == values.len() => Some(names),
                Some(Value::Array(names)) => {
                    return Err(SchemaRefused::at(
                        format!("{path}.enumNames"),
                        format!("{} names for {} options", names.len(), values.len()),
                    ));
                }
                Some(_) => {
                    return Err(SchemaRefused::at(
                        format!("{path}.enumNames"),
                        "must be a list of titles",
                    ));
                }
            };
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let value = v.as_str().ok_or_else(|| {
                        SchemaRefused::at(format!("{path}.{plain}"), "options must be text")
                    })?;
                    let title = match names.map(|n| &n[i]) {
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
                })
                .collect::<Result<_, _>>()?
        }
        (None, Some(Value::Array(entries))) => {
            if let Some(e) = too_many(entries.len()) {
                return Err(e);
            }
            if p.contains_key("enumNames") {
                return Err(SchemaRefused::at(
                    format!("{path}.enumNames"),
                    format!("`enumNames` goes with `{plain}`, not `{titled}`"),
                ));
            }
            entries
                .iter()
                .map(|e| {
                    let Value::Object(e) = e else {
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
                        SchemaRefused::at(
                            format!("{path}.{titled}"),
                            "an option needs a text `const`",
                        )
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
                })
                .collect::<Result<_, _>>()?
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(SchemaRefused::at(path, "the options must be a list"));
        }
        (None, None) => {
            return Err(SchemaRefused::at(
                path,
                format!("a choice needs `{plain}` or `{titled}`"),
            ));
        }
    };
    Ok(options)
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
