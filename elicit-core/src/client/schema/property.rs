//! One property of a schema read into a [`Field`]: its type, the keywords that type
//! takes, and the values of those keywords.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use super::SchemaRefused;
use super::options::{option_default, read_options};
use crate::client::text::{MAX_MESSAGE, MAX_TITLE};
use crate::form::{Field, FieldKind, Format};

/// The keywords each type may carry.
fn allowed(kind: &str) -> &'static [&'static str] {
    match kind {
        "string" => &[
            "type",
            "title",
            "description",
            "minLength",
            "maxLength",
            "format",
            "default",
            "enum",
            "enumNames",
            "oneOf",
        ],
        "integer" | "number" => &[
            "type",
            "title",
            "description",
            "minimum",
            "maximum",
            "default",
        ],
        "boolean" => &["type", "title", "description", "default"],
        "array" => &[
            "type",
            "title",
            "description",
            "minItems",
            "maxItems",
            "items",
            "default",
            "uniqueItems",
        ],
        _ => &[],
    }
}

pub(super) fn text<'a>(
    path: &str,
    p: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, SchemaRefused> {
    match p.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(SchemaRefused::at(format!("{path}.{key}"), "must be text")),
    }
}

/// `text` of `key`, refused when longer than `max` bytes (the limit named in the error).
pub(super) fn capped<'a>(
    path: &str,
    key: &str,
    text: Option<&'a str>,
    max: usize,
) -> Result<Option<&'a str>, SchemaRefused> {
    match text {
        Some(t) if t.len() > max => Err(SchemaRefused::at(
            format!("{path}.{key}"),
            format!("{} bytes, more than the {max} a client shows", t.len()),
        )),
        t => Ok(t),
    }
}

fn count(path: &str, p: &Map<String, Value>, key: &str) -> Result<Option<u64>, SchemaRefused> {
    match p.get(key) {
        None => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            SchemaRefused::at(
                format!("{path}.{key}"),
                "must be a whole number of at least 0",
            )
        }),
    }
}

fn number(path: &str, p: &Map<String, Value>, key: &str) -> Result<Option<f64>, SchemaRefused> {
    match p.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|f| f.is_finite())
            .map(Some)
            .ok_or_else(|| SchemaRefused::at(format!("{path}.{key}"), "must be a finite number")),
        Some(_) => Err(SchemaRefused::at(
            format!("{path}.{key}"),
            "must be a number",
        )),
    }
}

fn whole(path: &str, p: &Map<String, Value>, key: &str) -> Result<Option<i128>, SchemaRefused> {
    Ok(match number(path, p, key)? {
        None => None,
        Some(f) if f.fract() == 0.0 && f.abs() < 9.3e18 => Some(f as i128),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{path}.{key}"),
                "must be a whole number",
            ));
        }
    })
}

pub(super) fn read_property(path: &str, property: &Value) -> Result<Field, SchemaRefused> {
    let Value::Object(p) = property else {
        return Err(SchemaRefused::at(path, "not an object"));
    };
    let kind = match p.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{path}.type"),
                "must be one type name",
            ));
        }
        None if p.contains_key("enum") || p.contains_key("oneOf") => "string",
        None => return Err(SchemaRefused::at(path, "has no `type`")),
    };
    let keys = allowed(kind);
    if keys.is_empty() {
        let why = if kind == "object" {
            "a nested object: MCP forms are one flat object".to_owned()
        } else {
            format!("type `{kind}` is not a form field")
        };
        return Err(SchemaRefused::at(format!("{path}.type"), why));
    }
    if let Some(key) = p.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(SchemaRefused::at(
            format!("{path}.{key}"),
            format!("`{key}` is not allowed on a {kind} field"),
        ));
    }
    let title = capped(path, "title", text(path, p, "title")?, MAX_TITLE)?
        .map(|t| Cow::Owned(t.to_owned()));
    let description = capped(
        path,
        "description",
        text(path, p, "description")?,
        MAX_MESSAGE,
    )?
    .map(|t| Cow::Owned(t.to_owned()));
    let kind = match kind {
        "string" if p.contains_key("enum") || p.contains_key("oneOf") => {
            let options = read_options(path, p, "enum", "oneOf")?;
            if p.contains_key("minLength")
                || p.contains_key("maxLength")
                || p.contains_key("format")
            {
                return Err(SchemaRefused::at(
                    path,
                    "a choice cannot also have lengths or a format",
                ));
            }
            let default = option_default(path, p, &options)?;
            FieldKind::Select {
                legacy_enum_names: p.contains_key("enumNames"),
                options: options.into(),
                default,
            }
        }
        "string" => {
            let format = match text(path, p, "format")? {
                None => None,
                Some(f) => Some(Format::from_keyword(f).ok_or_else(|| {
                    SchemaRefused::at(
                        format!("{path}.format"),
                        format!("unknown format `{f}` (MCP allows email, uri, date, date-time)"),
                    )
                })?),
            };
            FieldKind::String {
                format,
                min_length: count(path, p, "minLength")?,
                max_length: count(path, p, "maxLength")?,
                default: capped(path, "default", text(path, p, "default")?, MAX_MESSAGE)?
                    .map(|d| Cow::Owned(d.to_owned())),
            }
        }
        "integer" => FieldKind::Integer {
            minimum: whole(path, p, "minimum")?,
            maximum: whole(path, p, "maximum")?,
            range: (i128::from(i64::MIN), i128::from(u64::MAX)),
            default: whole(path, p, "default")?,
        },
        "number" => FieldKind::Number {
            minimum: number(path, p, "minimum")?,
            maximum: number(path, p, "maximum")?,
            single_precision: false,
            default: number(path, p, "default")?,
        },
        "boolean" => FieldKind::Boolean {
            default: match p.get("default") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => {
                    return Err(SchemaRefused::at(
                        format!("{path}.default"),
                        "must be true or false",
                    ));
                }
            },
        },
        _ => {
            // "array": only the two multi-select shapes.
            let Some(Value::Object(items)) = p.get("items") else {
                return Err(SchemaRefused::at(
                    format!("{path}.items"),
                    "a list must be a multi-select: `items` with `enum` or `anyOf`",
                ));
            };
            if let Some(u) = p.get("uniqueItems")
                && u != &Value::Bool(true)
            {
                return Err(SchemaRefused::at(
                    format!("{path}.uniqueItems"),
                    "a multi-select never repeats an option",
                ));
            }
            let item_path = format!("{path}.items");
            if let Some(key) = items
                .keys()
                .find(|k| !matches!(k.as_str(), "type" | "enum" | "anyOf"))
            {
                return Err(SchemaRefused::at(
                    format!("{item_path}.{key}"),
                    "a multi-select's items are only `enum` or `anyOf`",
                ));
            }
            match items.get("type") {
                None | Some(Value::String(_))
                    if items.get("type").is_none_or(|t| t == "string") => {}
                _ => {
                    return Err(SchemaRefused::at(
                        format!("{item_path}.type"),
                        "the options of a multi-select are text",
                    ));
                }
            }
            let options = read_options(&item_path, items, "enum", "anyOf")?;
            let default = match p.get("default") {
                None => None,
                // Options never repeat: a longer default is refused before any
                // comparison, so its size costs nothing.
                Some(Value::Array(values)) if values.len() > options.len() => {
                    return Err(SchemaRefused::at(
                        format!("{path}.default"),
                        format!(
                            "{} items for {} options: a default cannot repeat an option",
                            values.len(),
                            options.len()
                        ),
                    ));
                }
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
                    Some(Cow::Owned(out))
                }
                Some(_) => {
                    return Err(SchemaRefused::at(
                        format!("{path}.default"),
                        "must be a list of options",
                    ));
                }
            };
            FieldKind::MultiSelect {
                options: options.into(),
                min_items: count(path, p, "minItems")?,
                max_items: count(path, p, "maxItems")?,
                default,
            }
        }
    };
    Ok(Field {
        name: Cow::Borrowed(""),
        title,
        description,
        required: false,
        kind,
    })
}
