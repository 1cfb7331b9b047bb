//! The client kit: every schema the derive emits, for every revision, reads back into the
//! same form (and re-emits byte-equal JSON); every shape outside the MCP subset is
//! refused with the place named; answers are validated and completed with defaults.

use elicit_core::client::{Reply, SchemaRefused};
use elicit_core::{Elicit, FieldKind, Revision};
use elicit_examples::forms::{Alternatives, Everything, Popcorn, PurgeApproval};
use elicit_examples::servers::conformance::{Defaults, Enums, UserInfo};
use elicit_examples::ticket::{PopcornSize, SeatChoice, ShowDate, Snacks};
use serde_json::{Value, json};

const REVISIONS: [Revision; 3] = [
    Revision::V2025_06_18,
    Revision::V2025_11_25,
    Revision::V2026_07_28,
];

fn sorted_required(mut schema: Value) -> Value {
    if let Some(Value::Array(names)) = schema.get_mut("required") {
        names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    schema
}

/// Reads `T`'s schema for every revision it supports and re-emits it.
/// The client kit's reader, given the schema as a value (sent as its text).
fn read_schema(schema: &Value) -> Result<elicit_core::Form, SchemaRefused> {
    elicit_core::client::read_schema(&schema.to_string())
}

fn round_trip<T: Elicit>() -> usize {
    let mut checked = 0;
    for revision in REVISIONS {
        let Ok(schema) = T::requested_schema(revision) else {
            continue;
        };
        let sent = serde_json::to_value(schema).unwrap();
        let form = read_schema(&sent).unwrap_or_else(|e| panic!("{revision}: {e}\n{sent:#}"));
        let again = serde_json::to_value(form.requested_schema(revision).unwrap()).unwrap();
        // Without serde_json's `preserve_order` the properties come back sorted, and
        // `required` follows them: compare it as a set.
        assert_eq!(
            sorted_required(again),
            sorted_required(sent.clone()),
            "{revision}: the form read back re-emits the same schema"
        );
        for field in T::form().fields() {
            let read = form.field(&field.name).expect("every field is read");
            assert_eq!(read.required, field.required, "{}", field.name);
            assert_eq!(read.title, field.title, "{}", field.name);
            if let (Some(a), Some(b)) = (read.kind.options(), field.kind.options()) {
                let labels = |o: &[elicit_core::Choice]| {
                    o.iter().map(|c| c.label().to_owned()).collect::<Vec<_>>()
                };
                assert_eq!(labels(a), labels(b), "{revision} {}", field.name);
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_emitted_schema_reads_back_in_every_revision() {
    let checked = round_trip::<Alternatives>()
        + round_trip::<Popcorn>()
        + round_trip::<PurgeApproval>()
        + round_trip::<Everything>()
        + round_trip::<ShowDate>()
        + round_trip::<SeatChoice>()
        + round_trip::<Snacks>()
        + round_trip::<PopcornSize>()
        + round_trip::<UserInfo>()
        + round_trip::<Defaults>()
        + round_trip::<Enums>();
    // Forms with a multi-select have no 2025-06-18 schema.
    assert!(checked >= 30, "{checked} schemas checked");
}

#[test]
fn option_titles_follow_the_schema_precedence() {
    let form = read_schema(&json!({
        "type": "object",
        "properties": {
            "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]},
            "plain": {"type": "string", "enum": ["x", "y"]},
            "titled": {"type": "string", "oneOf": [{"const": "1", "title": "One"}, {"const": "2"}]},
            "multi": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "Pop"}]}}
        }
    }))
    .unwrap();
    let labels = |name: &str| -> Vec<String> {
        form.field(name)
            .unwrap()
            .kind
            .options()
            .unwrap()
            .iter()
            .map(|c| c.label().to_owned())
            .collect()
    };
    assert_eq!(labels("legacy"), ["Alpha", "Beta"]);
    assert_eq!(labels("plain"), ["x", "y"]);
    assert_eq!(labels("titled"), ["One", "2"]);
    assert_eq!(labels("multi"), ["Pop"]);
    assert!(matches!(
        form.field("legacy").unwrap().kind,
        FieldKind::Select {
            legacy_enum_names: true,
            ..
        }
    ));
}

#[test]
fn an_empty_form_is_shown_not_refused() {
    let form = read_schema(&json!({"type": "object", "properties": {}})).unwrap();
    assert!(form.fields().is_empty());
    assert_eq!(
        result(&Reply::validated(&form, json!({})).unwrap()),
        json!({"action": "accept", "content": {}})
    );
}

/// The `ElicitResult` a reply serializes as.
fn result(reply: &Reply) -> Value {
    serde_json::to_value(reply).unwrap()
}

fn refused(schema: Value) -> SchemaRefused {
    match read_schema(&schema) {
        Err(e) => e,
        Ok(form) => panic!("accepted {schema}: {form:?}"),
    }
}

fn prop(p: Value) -> Value {
    json!({"type": "object", "properties": {"f": p}})
}

#[test]
fn shapes_outside_the_subset_are_refused_with_the_place() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!([]), "requestedSchema", "not an object"),
        (
            json!({"type": "array"}),
            "requestedSchema.type",
            "must be \"object\"",
        ),
        (
            json!({"type": "object", "properties": {}, "additionalProperties": true}),
            "requestedSchema",
            "`additionalProperties` is not part",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
            "requestedSchema.required",
            "`b` is not a property",
        ),
        (
            prop(json!({"type": "object", "properties": {}})),
            "properties.f.type",
            "nested object",
        ),
        (
            prop(json!({"type": "string", "pattern": "^a"})),
            "properties.f.pattern",
            "not allowed",
        ),
        (
            prop(json!({"type": "string", "format": "ipv4"})),
            "properties.f.format",
            "unknown format",
        ),
        (
            prop(json!({"type": "array", "items": {"type": "string"}})),
            "properties.f.items",
            "`enum` or `anyOf`",
        ),
        (
            prop(json!({"type": "array", "items": {"type": "object"}})),
            "properties.f.items.type",
            "text",
        ),
        (
            prop(json!({"type": "array"})),
            "properties.f.items",
            "multi-select",
        ),
        (
            prop(json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]})),
            "properties.f.enumNames",
            "1 names for 2 options",
        ),
        (
            prop(json!({"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]})),
            "properties.f",
            "together",
        ),
        (
            prop(json!({"type": "string", "enum": ["a", "b"], "default": "c"})),
            "properties.f.default",
            "not one of the options",
        ),
        (
            prop(json!({"type": "array", "items": {"enum": ["a"]}, "default": ["z"]})),
            "properties.f.default",
            "not one of the options",
        ),
        (
            prop(json!({"type": "string", "oneOf": [{"title": "no const"}]})),
            "properties.f.oneOf",
            "text `const`",
        ),
        (
            prop(json!({"type": "string", "minLength": 5, "maxLength": 2})),
            "requestedSchema",
            "min_length is greater",
        ),
        (
            prop(json!({"type": "integer", "minimum": 1.5})),
            "properties.f.minimum",
            "whole number",
        ),
        (
            prop(json!({"type": "number", "maximum": "10"})),
            "properties.f.maximum",
            "must be a number",
        ),
        (
            prop(json!({"type": "boolean", "default": "yes"})),
            "properties.f.default",
            "true or false",
        ),
        (
            prop(json!({"type": ["string", "null"]})),
            "properties.f.type",
            "one type name",
        ),
        (
            prop(json!({"$ref": "#/defs/x"})),
            "properties.f",
            "no `type`",
        ),
        (
            prop(json!({"type": "string", "enum": [1, 2]})),
            "properties.f.enum",
            "options must be text",
        ),
        (
            prop(json!({"type": "string", "enum": ["a", "a"]})),
            "requestedSchema",
            "offered twice",
        ),
    ];
    for (schema, path, reason) in cases {
        let e = refused(schema.clone());
        assert_eq!(e.path, path, "{schema}: {e}");
        assert!(e.reason.contains(reason), "{schema}: {e}");
        assert!(e.to_string().starts_with("the form cannot be shown"), "{e}");
    }
}

#[test]
fn replies_are_validated_and_completed_with_defaults() {
    let schema =
        serde_json::to_value(Defaults::requested_schema(Revision::V2025_11_25).unwrap()).unwrap();
    let form = read_schema(&schema).unwrap();
    // Untouched fields take their defaults.
    let reply = Reply::validated(&form, json!({"name": "Jane"})).unwrap();
    assert_eq!(
        result(&reply),
        json!({"action": "accept", "content": {
            "name": "Jane", "age": 30, "score": 95.5, "status": "active", "verified": true
        }})
    );
    // The server's validator, with its messages.
    let e = Reply::validated(&form, json!({"status": "gone", "age": "x"})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "age: expected a whole number, got text; status: \"gone\" is not one of the options"
    );
    assert_eq!(result(&Reply::Decline), json!({"action": "decline"}));
    assert_eq!(result(&Reply::Cancel), json!({"action": "cancel"}));
}
