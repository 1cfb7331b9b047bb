//! A server's untrusted `requestedSchema` read into a [`Form`], or refused.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};

use crate::client::text::{MAX_MESSAGE, MAX_TITLE};
use crate::form::{Choice, Field, FieldKind, Form, Format};

/// Why a `requestedSchema` (or a message) cannot be shown. A client returns it to the
/// server as a JSON-RPC error with code `-32602` (invalid params).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaRefused {
    /// Where: `requestedSchema`, or `properties.<name>` and the keyword.
    pub path: String,
    /// What is wrong, in words.
    pub reason: String,
}

impl SchemaRefused {
    pub(crate) fn at(path: impl Into<String>, reason: impl Into<String>) -> SchemaRefused {
        SchemaRefused {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for SchemaRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the form cannot be shown: {}: {} (MCP forms are a flat object of text, numbers, booleans and choices)",
            self.path, self.reason
        )
    }
}

impl std::error::Error for SchemaRefused {}

/// The longest property name a schema may use, in bytes. A longer one is refused with a
/// [`SchemaRefused`] naming this limit.
pub(crate) const MAX_NAME: usize = 256;
/// The most fields (properties) a schema may have. More are refused, before any field is
/// read, with a [`SchemaRefused`] naming this limit.
pub(crate) const MAX_FIELDS: usize = 1000;
/// The most options one choice or multi-select may offer. More are refused, before any
/// option is read, with a [`SchemaRefused`] naming this limit. A multi-select `default`
/// longer than its list of options is refused on its length alone.
pub(crate) const MAX_OPTIONS: usize = 1000;
/// The longest schema text read, in bytes (1 MiB): it is parsed whole, so a longer one
/// is refused before any of it is read.
pub(crate) const MAX_SCHEMA: usize = 1024 * 1024;

/// Reads a `requestedSchema` of any revision (2025-06-18 `enum` + `enumNames`, 2025-11-25
/// and later `oneOf` / `items.anyOf` and defaults), given as the JSON text the server sent,
/// into a [`Form`]. The fields come in the order the server wrote them, whatever
/// serde_json's features.
///
/// Titles of options follow the schema's own precedence: a `oneOf` / `anyOf` title, else
/// the `enumNames` entry, else the raw value.
///
/// ```
/// use elicit_core::client::read_schema;
///
/// let text = r#"{"type": "object", "properties": {"seat": {"type": "string"}, "date": {"type": "string"}}}"#;
/// let form = read_schema(text)?;
/// let names: Vec<&str> = form.fields().iter().map(|f| &*f.name).collect();
/// assert_eq!(names, ["seat", "date"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_schema(text: &str) -> Result<Form, SchemaRefused> {
    let root = "requestedSchema";
    if text.len() > MAX_SCHEMA {
        return Err(SchemaRefused::at(
            root,
            format!(
                "the schema is {} bytes, more than the {MAX_SCHEMA} a client reads",
                text.len()
            ),
        ));
    }
    let unreadable = |e: serde_json::Error| SchemaRefused::at(root, format!("not JSON: {e}"));
    let schema: Value = serde_json::from_str(text).map_err(unreadable)?;
    let order: PropertyOrder = serde_json::from_str(text).unwrap_or_default();
    read_schema_in(&schema, Some(&order.properties.0))
}

/// The names of a schema's properties in the order of its text (the values are skipped).
#[derive(Default, serde::Deserialize)]
struct PropertyOrder {
    #[serde(default)]
    properties: Names,
}

#[derive(Default)]
struct Names(Vec<String>);

impl<'de> serde::Deserialize<'de> for Names {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Names, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Names;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Names, M::Error> {
                let mut names = Vec::new();
                // Bounded like the reading itself: past the cap the form is refused anyway.
                while let Some(name) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    if names.len() <= MAX_FIELDS {
                        names.push(name);
                    }
                }
                Ok(Names(names))
            }
        }
        deserializer.deserialize_map(Visit)
    }
}

/// Reads `schema`, its properties in `order` when given (names not among them follow in
/// the map's own order).
fn read_schema_in(schema: &Value, order: Option<&[String]>) -> Result<Form, SchemaRefused> {
    let root = "requestedSchema";
    let Value::Object(schema) = schema else {
        return Err(SchemaRefused::at(root, "not an object"));
    };
    for key in schema.keys() {
        if !matches!(
            key.as_str(),
            "type" | "properties" | "required" | "$schema" | "title" | "description"
        ) {
            return Err(SchemaRefused::at(
                root,
                format!("`{key}` is not part of an MCP form"),
            ));
        }
    }
    if schema.get("type") != Some(&Value::from("object")) {
        return Err(SchemaRefused::at(
            format!("{root}.type"),
            "must be \"object\"",
        ));
    }
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => p,
        None => &Map::new(),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{root}.properties"),
                "not an object",
            ));
        }
    };
    if properties.len() > MAX_FIELDS {
        return Err(SchemaRefused::at(
            format!("{root}.properties"),
            format!(
                "{} fields, more than the {MAX_FIELDS} a client shows",
                properties.len()
            ),
        ));
    }
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| {
                n.as_str().ok_or_else(|| {
                    SchemaRefused::at(format!("{root}.required"), "names must be text")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{root}.required"),
                "not a list of names",
            ));
        }
    };
    for name in &required {
        if !properties.contains_key(*name) {
            return Err(SchemaRefused::at(
                format!("{root}.required"),
                format!("`{name}` is not a property"),
            ));
        }
    }
    let mut fields = Vec::with_capacity(properties.len());
    let mut ordered: Vec<(&String, &Value)> = Vec::with_capacity(properties.len());
    let mut placed = HashSet::new();
    for name in order.unwrap_or_default() {
        if let Some((name, property)) = properties.get_key_value(name)
            && placed.insert(name)
        {
            ordered.push((name, property));
        }
    }
    ordered.extend(properties.iter().filter(|(name, _)| !placed.contains(name)));
    for (name, property) in ordered {
        let path = format!("properties.{name}");
        if name.is_empty() || name.len() > MAX_NAME {
            return Err(SchemaRefused::at(
                path,
                format!("a property name must be 1 to {MAX_NAME} bytes"),
            ));
        }
        let mut field = read_property(&path, property)?;
        field.name = Cow::Owned(name.clone());
        field.required = required.contains(&name.as_str());
        fields.push(field);
    }
    crate::form::rules::check_fields_of_schema(&fields)
        .map_err(|e| SchemaRefused::at(root, e.to_string()))?;
    Ok(Form::from_checked(fields))
}

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

fn text<'a>(
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
fn capped<'a>(
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

fn read_property(path: &str, property: &Value) -> Result<Field, SchemaRefused> {
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

/// The options of a choice: `enum` (titles from `enumNames`, else the values) or the
/// titled `oneOf` / `anyOf` of `{const, title}`; never both.
fn read_options(
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

fn option_default(
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The schema's text read (the order of a `Value`'s map is all these tests need).
    fn read_schema(schema: &Value) -> Result<Form, SchemaRefused> {
        super::read_schema(&schema.to_string())
    }

    fn multi(options: usize, default: Value) -> Value {
        let options: Vec<String> = (0..options).map(|i| format!("o{i}")).collect();
        json!({"type": "object", "properties": {"pick": {
            "type": "array", "items": {"type": "string", "enum": options}, "default": default
        }}})
    }

    /// A default longer than the options is refused on its length: the error names the
    /// count, not an item. Its items are all options (the first one repeated), so a
    /// check item by item would have passed them one by one; the work actually done is
    /// counted by `tests/tests/client_bounds.rs`.
    #[test]
    fn a_default_bomb_is_refused_before_any_comparison() {
        let bomb = vec![Value::from("o0"); 100_000];
        let e = read_schema(&multi(1000, Value::Array(bomb))).unwrap_err();
        assert_eq!(e.path, "properties.pick.default");
        assert_eq!(
            e.reason,
            "100000 items for 1000 options: a default cannot repeat an option"
        );
        // At the options' length, items are compared (and this one is not an option).
        let e = read_schema(&multi(2, json!(["o0", "x"]))).unwrap_err();
        assert_eq!(e.reason, "\"x\" is not one of the options");
        assert!(read_schema(&multi(1000, json!(["o999", "o0"]))).is_ok());
    }

    #[test]
    fn too_many_fields_are_refused_naming_the_limit() {
        let properties: Map<String, Value> = (0..=MAX_FIELDS)
            .map(|i| (format!("f{i}"), json!({"type": "boolean"})))
            .collect();
        let e = read_schema(&json!({"type": "object", "properties": properties})).unwrap_err();
        assert_eq!(e.path, "requestedSchema.properties");
        assert_eq!(
            e.reason,
            format!(
                "{} fields, more than the {MAX_FIELDS} a client shows",
                MAX_FIELDS + 1
            )
        );
        let long = json!({"type": "object", "properties": {"n".repeat(MAX_NAME + 1): {"type": "boolean"}}});
        assert_eq!(
            read_schema(&long).unwrap_err().reason,
            format!("a property name must be 1 to {MAX_NAME} bytes")
        );
    }

    #[test]
    fn too_many_options_are_refused_before_they_are_read() {
        let options = vec![Value::from(1); MAX_OPTIONS + 1];
        let schema =
            json!({"type": "object", "properties": {"s": {"type": "string", "enum": options}}});
        // Numbers would be refused as options: the count comes first.
        assert_eq!(
            read_schema(&schema).unwrap_err().reason,
            format!("1001 options, more than the {MAX_OPTIONS} a client shows")
        );
    }

    #[test]
    fn long_texts_are_refused_naming_the_limit() {
        let long_title = "t".repeat(MAX_TITLE + 1);
        let long_text = "d".repeat(MAX_MESSAGE + 1);
        let field = |property: Value| json!({"type": "object", "properties": {"f": property}});
        let cases = [
            (
                field(json!({"type": "string", "title": long_title})),
                "properties.f.title",
                MAX_TITLE,
            ),
            (
                field(json!({"type": "string", "description": long_text})),
                "properties.f.description",
                MAX_MESSAGE,
            ),
            (
                field(json!({"type": "string", "default": long_text})),
                "properties.f.default",
                MAX_MESSAGE,
            ),
            (
                field(json!({"type": "string", "enum": [long_title]})),
                "properties.f.option",
                MAX_TITLE,
            ),
            (
                field(json!({"type": "string", "oneOf": [{"const": "a", "title": long_title}]})),
                "properties.f.option title",
                MAX_TITLE,
            ),
            (
                field(json!({"type": "array", "items": {"anyOf": [{"const": long_title}]}})),
                "properties.f.items.option",
                MAX_TITLE,
            ),
        ];
        for (schema, path, limit) in cases {
            let e = read_schema(&schema).unwrap_err();
            assert_eq!(e.path, path);
            assert!(
                e.reason
                    .ends_with(&format!("more than the {limit} a client shows")),
                "{e}"
            );
        }
        // At the limit, accepted.
        let at = field(json!({"type": "string", "title": "t".repeat(MAX_TITLE)}));
        assert!(read_schema(&at).is_ok());
    }
}
