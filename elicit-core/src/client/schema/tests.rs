//! Limits of schema reading: each refused past its limit, named in the error.

use serde_json::{Map, Value, json};

use super::*;
use crate::client::text::{MAX_MESSAGE, MAX_TITLE};

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
    let long =
        json!({"type": "object", "properties": {"n".repeat(MAX_NAME + 1): {"type": "boolean"}}});
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
