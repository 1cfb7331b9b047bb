//! One property of a schema read into a [`Field`]: its type, the keywords that type
//! takes, and the values of those keywords.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::SchemaRefused;
use super::options::{multi_select_default, option_default, read_options};
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

/// Reads one property into a field, its name and `required` left to the caller: its
/// type, the keywords that type takes, then their values.
pub(super) fn read_property(path: &str, property: &Value) -> Result<Field, SchemaRefused> {
    let Value::Object(p) = property else {
        return Err(SchemaRefused::at(path, "not an object"));
    };
    let kind = type_of(path, p)?;
    check_keywords(path, p, kind)?;
    let title = capped(path, "title", text(path, p, "title")?, MAX_TITLE)?
        .map(|t| Cow::Owned(t.to_owned()));
    let description = capped(
        path,
        "description",
        text(path, p, "description")?,
        MAX_MESSAGE,
    )?
    .map(|t| Cow::Owned(t.to_owned()));
    let kind = read_kind(path, p, kind)?;
    Ok(Field {
        name: Cow::Borrowed(""),
        title,
        description,
        required: false,
        // A schema that travels is form mode, which has no secrets.
        secret: false,
        kind,
    })
}

/// The property's `type`, `"string"` when a choice (`enum` or `oneOf`) leaves it out.
fn type_of<'a>(path: &str, p: &'a Map<String, Value>) -> Result<&'a str, SchemaRefused> {
    match p.get("type") {
        Some(Value::String(t)) => Ok(t.as_str()),
        Some(_) => Err(SchemaRefused::at(
            format!("{path}.type"),
            "must be one type name",
        )),
        None if p.contains_key("enum") || p.contains_key("oneOf") => Ok("string"),
        None => Err(SchemaRefused::at(path, "has no `type`")),
    }
}

/// Refuses a type that is not a form field, and a keyword the type `kind` does not take.
fn check_keywords(path: &str, p: &Map<String, Value>, kind: &str) -> Result<(), SchemaRefused> {
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
    Ok(())
}

/// The field's kind, read from the keywords of its type `kind` (one [`allowed`] takes).
fn read_kind(path: &str, p: &Map<String, Value>, kind: &str) -> Result<FieldKind, SchemaRefused> {
    Ok(match kind {
        "string" if p.contains_key("enum") || p.contains_key("oneOf") => read_select(path, p)?,
        "string" => read_text(path, p)?,
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
            default: boolean_default(path, p)?,
        },
        // "array": only the two multi-select shapes.
        _ => read_multi_select(path, p)?,
    })
}

/// A choice: its options, no lengths or format, and a default among the options.
fn read_select(path: &str, p: &Map<String, Value>) -> Result<FieldKind, SchemaRefused> {
    let options = read_options(path, p, "enum", "oneOf")?;
    if p.contains_key("minLength") || p.contains_key("maxLength") || p.contains_key("format") {
        return Err(SchemaRefused::at(
            path,
            "a choice cannot also have lengths or a format",
        ));
    }
    let default = option_default(path, p, &options)?;
    Ok(FieldKind::Select {
        legacy_enum_names: p.contains_key("enumNames"),
        options: options.into(),
        default,
    })
}

/// A text field: one of the formats MCP allows, lengths, and a default no longer than
/// [`MAX_MESSAGE`].
fn read_text(path: &str, p: &Map<String, Value>) -> Result<FieldKind, SchemaRefused> {
    let format = match text(path, p, "format")? {
        None => None,
        Some(f) => Some(Format::from_keyword(f).ok_or_else(|| {
            SchemaRefused::at(
                format!("{path}.format"),
                format!("unknown format `{f}` (MCP allows email, uri, date, date-time)"),
            )
        })?),
    };
    Ok(FieldKind::String {
        format,
        min_length: count(path, p, "minLength")?,
        max_length: count(path, p, "maxLength")?,
        default: capped(path, "default", text(path, p, "default")?, MAX_MESSAGE)?
            .map(|d| Cow::Owned(d.to_owned())),
    })
}

/// A checkbox's default: `true` or `false`.
fn boolean_default(path: &str, p: &Map<String, Value>) -> Result<Option<bool>, SchemaRefused> {
    match p.get("default") {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(SchemaRefused::at(
            format!("{path}.default"),
            "must be true or false",
        )),
    }
}

/// A multi-select: the options of its `items`, counts of items, and a default of
/// options.
fn read_multi_select(path: &str, p: &Map<String, Value>) -> Result<FieldKind, SchemaRefused> {
    let item_path = format!("{path}.items");
    let items = multi_select_items(path, &item_path, p)?;
    let options = read_options(&item_path, items, "enum", "anyOf")?;
    let default = multi_select_default(path, p, &options)?;
    Ok(FieldKind::MultiSelect {
        options: options.into(),
        min_items: count(path, p, "minItems")?,
        max_items: count(path, p, "maxItems")?,
        default,
    })
}

/// The `items` of a list (at `item_path`), refused unless the list is one of the two
/// multi-select shapes: text items of `enum` or `anyOf`, never repeated.
fn multi_select_items<'a>(
    path: &str,
    item_path: &str,
    p: &'a Map<String, Value>,
) -> Result<&'a Map<String, Value>, SchemaRefused> {
    let Some(Value::Object(items)) = p.get("items") else {
        return Err(SchemaRefused::at(
            item_path,
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
        None | Some(Value::String(_)) if items.get("type").is_none_or(|t| t == "string") => {
            Ok(items)
        }
        _ => Err(SchemaRefused::at(
            format!("{item_path}.type"),
            "the options of a multi-select are text",
        )),
    }
}
