//! A server's untrusted `requestedSchema` read into a [`Form`], or refused.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};

use crate::form::{Field, Form};

mod options;
mod property;
#[cfg(test)]
mod tests;

use property::read_property;

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

/// The path of the schema itself in a [`SchemaRefused`].
const ROOT: &str = "requestedSchema";

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
    if text.len() > MAX_SCHEMA {
        return Err(SchemaRefused::at(
            ROOT,
            format!(
                "the schema is {} bytes, more than the {MAX_SCHEMA} a client reads",
                text.len()
            ),
        ));
    }
    let unreadable = |e: serde_json::Error| SchemaRefused::at(ROOT, format!("not JSON: {e}"));
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
    let Value::Object(schema) = schema else {
        return Err(SchemaRefused::at(ROOT, "not an object"));
    };
    check_root_keywords(schema)?;
    let empty = Map::new();
    let properties = properties_of(schema)?.unwrap_or(&empty);
    let required = required_names(schema, properties)?;
    let mut fields = Vec::with_capacity(properties.len());
    for (name, property) in in_order(properties, order.unwrap_or_default()) {
        fields.push(read_field(name, property, &required)?);
    }
    crate::form::rules::check_fields_of_schema(&fields)
        .map_err(|e| SchemaRefused::at(ROOT, e.to_string()))?;
    Ok(Form::from_checked(fields))
}

/// Refuses a keyword an MCP form does not have at the top, and a `type` other than
/// `"object"`.
fn check_root_keywords(schema: &Map<String, Value>) -> Result<(), SchemaRefused> {
    for key in schema.keys() {
        if !matches!(
            key.as_str(),
            "type" | "properties" | "required" | "$schema" | "title" | "description"
        ) {
            return Err(SchemaRefused::at(
                ROOT,
                format!("`{key}` is not part of an MCP form"),
            ));
        }
    }
    if schema.get("type") != Some(&Value::from("object")) {
        return Err(SchemaRefused::at(
            format!("{ROOT}.type"),
            "must be \"object\"",
        ));
    }
    Ok(())
}

/// The `properties` map (none when the key is absent), refused when it is not a map or
/// has more than [`MAX_FIELDS`] entries.
fn properties_of(
    schema: &Map<String, Value>,
) -> Result<Option<&Map<String, Value>>, SchemaRefused> {
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => p,
        None => return Ok(None),
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{ROOT}.properties"),
                "not an object",
            ));
        }
    };
    if properties.len() > MAX_FIELDS {
        return Err(SchemaRefused::at(
            format!("{ROOT}.properties"),
            format!(
                "{} fields, more than the {MAX_FIELDS} a client shows",
                properties.len()
            ),
        ));
    }
    Ok(Some(properties))
}

/// The names listed in `required`, each of them refused unless it is text naming one of
/// the `properties`.
fn required_names<'a>(
    schema: &'a Map<String, Value>,
    properties: &Map<String, Value>,
) -> Result<Vec<&'a str>, SchemaRefused> {
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| {
                n.as_str().ok_or_else(|| {
                    SchemaRefused::at(format!("{ROOT}.required"), "names must be text")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(SchemaRefused::at(
                format!("{ROOT}.required"),
                "not a list of names",
            ));
        }
    };
    for name in &required {
        if !properties.contains_key(*name) {
            return Err(SchemaRefused::at(
                format!("{ROOT}.required"),
                format!("`{name}` is not a property"),
            ));
        }
    }
    Ok(required)
}

/// The properties, those named in `order` first and in that order, then the others in
/// the map's own order.
fn in_order<'a>(
    properties: &'a Map<String, Value>,
    order: &[String],
) -> Vec<(&'a String, &'a Value)> {
    let mut ordered: Vec<(&String, &Value)> = Vec::with_capacity(properties.len());
    let mut placed = HashSet::new();
    for name in order {
        if let Some((name, property)) = properties.get_key_value(name)
            && placed.insert(name)
        {
            ordered.push((name, property));
        }
    }
    ordered.extend(properties.iter().filter(|(name, _)| !placed.contains(name)));
    ordered
}

/// The property `name` read into a field, required when `required` names it; a name
/// that is empty or longer than [`MAX_NAME`] is refused.
fn read_field(name: &str, property: &Value, required: &[&str]) -> Result<Field, SchemaRefused> {
    let path = format!("properties.{name}");
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(SchemaRefused::at(
            path,
            format!("a property name must be 1 to {MAX_NAME} bytes"),
        ));
    }
    let mut field = read_property(&path, property)?;
    field.name = Cow::Owned(name.to_owned());
    field.required = required.contains(&name);
    Ok(field)
}
