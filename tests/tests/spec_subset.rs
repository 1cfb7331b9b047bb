//! The project's own checker of the MCP form subset: whether a JSON value is a valid
//! `requestedSchema` for a protocol revision, written from the spec's schema
//! definitions (`ElicitRequest.params.requestedSchema`, `PrimitiveSchemaDefinition`
//! and the string, number, boolean and enum schemas of each revision) plus the two
//! rules the conformance suite adds (an enum default is one of its values;
//! `enumNames` has the enum's length). It is stricter than the JSON files in one way:
//! a key the revision does not define is an error, since a client may refuse it.
//!
//! Every example form and `Confirm` must pass for every revision it supports, and
//! hand-made bad schemas must fail, so the checker itself is tested.

use std::collections::BTreeSet;

use elicit_core::client::read_schema;
use elicit_core::{Confirm, Elicit, Form, Revision};
use elicit_examples::forms::{Alternatives, Everything, Popcorn, PurgeApproval};
use elicit_examples::ticket::{PopcornSize, SeatChoice, ShowDate, Snacks};
use serde_json::{Map, Value, json};

/// Every violation found, each as `path: what is wrong`.
fn check(schema: &Value, revision: Revision) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    check_schema(schema, revision, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn later(revision: Revision) -> bool {
    revision >= Revision::V2025_11_25
}

fn err(errors: &mut Vec<String>, path: &str, what: impl Into<String>) {
    errors.push(format!("{path}: {}", what.into()));
}

fn only_keys(map: &Map<String, Value>, allowed: &[&str], path: &str, errors: &mut Vec<String>) {
    for key in map.keys() {
        if !allowed.contains(&key.as_str()) {
            err(errors, path, format!("key `{key}` is not allowed here"));
        }
    }
}

fn check_schema(schema: &Value, revision: Revision, errors: &mut Vec<String>) {
    let Value::Object(top) = schema else {
        return err(errors, "$", "requestedSchema must be an object");
    };
    // requestedSchema: {type: "object", properties, required?} (+ `$schema` from 2025-11-25).
    let allowed: &[&str] = if later(revision) {
        &["$schema", "type", "properties", "required"]
    } else {
        &["type", "properties", "required"]
    };
    only_keys(top, allowed, "$", errors);
    if let Some(s) = top.get("$schema")
        && !s.is_string()
    {
        err(errors, "$.$schema", "must be a string");
    }
    if top.get("type") != Some(&json!("object")) {
        err(errors, "$.type", "must be \"object\"");
    }
    let names: BTreeSet<&str> = match top.get("properties") {
        Some(Value::Object(props)) => {
            for (name, field) in props {
                check_field(field, revision, &format!("$.properties.{name}"), errors);
            }
            props.keys().map(String::as_str).collect()
        }
        Some(_) => {
            err(errors, "$.properties", "must be an object");
            BTreeSet::new()
        }
        None => {
            err(errors, "$.properties", "is required");
            BTreeSet::new()
        }
    };
    match top.get("required") {
        None => {}
        Some(Value::Array(items)) => {
            let mut seen = BTreeSet::new();
            for (i, item) in items.iter().enumerate() {
                let path = format!("$.required[{i}]");
                match item.as_str() {
                    None => err(errors, &path, "must be a string"),
                    Some(n) if !names.contains(n) => {
                        err(errors, &path, format!("`{n}` is not a property"))
                    }
                    Some(n) if !seen.insert(n) => {
                        err(errors, &path, format!("`{n}` is listed twice"))
                    }
                    Some(_) => {}
                }
            }
        }
        Some(_) => err(errors, "$.required", "must be an array of property names"),
    }
}

fn check_string_key(map: &Map<String, Value>, key: &str, path: &str, errors: &mut Vec<String>) {
    if let Some(v) = map.get(key)
        && !v.is_string()
    {
        err(errors, &format!("{path}.{key}"), "must be a string");
    }
}

fn check_count(
    map: &Map<String, Value>,
    key: &str,
    path: &str,
    errors: &mut Vec<String>,
) -> Option<u64> {
    let v = map.get(key)?;
    match v.as_u64() {
        Some(n) => Some(n),
        None => {
            err(
                errors,
                &format!("{path}.{key}"),
                "must be a non-negative integer",
            );
            None
        }
    }
}

fn check_number_key(
    map: &Map<String, Value>,
    key: &str,
    path: &str,
    errors: &mut Vec<String>,
) -> Option<f64> {
    let v = map.get(key)?;
    match v.as_f64() {
        Some(n) => Some(n),
        None => {
            err(errors, &format!("{path}.{key}"), "must be a number");
            None
        }
    }
}

/// `["a", "b"]`: a non-empty array of distinct strings.
fn string_list<'a>(v: &'a Value, path: &str, errors: &mut Vec<String>) -> Vec<&'a str> {
    let Value::Array(items) = v else {
        err(errors, path, "must be an array of strings");
        return Vec::new();
    };
    if items.is_empty() {
        err(errors, path, "must not be empty");
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some(s) if out.contains(&s) => err(
                errors,
                &format!("{path}[{i}]"),
                format!("{s:?} appears twice"),
            ),
            Some(s) => out.push(s),
            None => err(errors, &format!("{path}[{i}]"), "must be a string"),
        }
    }
    out
}

/// `[{"const": v, "title": t}, ..]`, each with exactly those two string keys.
fn titled_list<'a>(v: &'a Value, path: &str, errors: &mut Vec<String>) -> Vec<&'a str> {
    let Value::Array(items) = v else {
        err(errors, path, "must be an array of {const, title} objects");
        return Vec::new();
    };
    if items.is_empty() {
        err(errors, path, "must not be empty");
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("{path}[{i}]");
        let Value::Object(option) = item else {
            err(errors, &path, "must be an object");
            continue;
        };
        only_keys(option, &["const", "title"], &path, errors);
        if !option.get("title").is_some_and(Value::is_string) {
            err(
                errors,
                &format!("{path}.title"),
                "is required and must be a string",
            );
        }
        match option.get("const").and_then(Value::as_str) {
            Some(s) if out.contains(&s) => err(errors, &path, format!("{s:?} appears twice")),
            Some(s) => out.push(s),
            None => err(
                errors,
                &format!("{path}.const"),
                "is required and must be a string",
            ),
        }
    }
    out
}

fn check_field(field: &Value, revision: Revision, path: &str, errors: &mut Vec<String>) {
    let Value::Object(map) = field else {
        return err(errors, path, "must be an object");
    };
    check_string_key(map, "title", path, errors);
    check_string_key(map, "description", path, errors);
    let defaults = later(revision);
    match map.get("type").and_then(Value::as_str) {
        Some("string") if map.contains_key("oneOf") => {
            // TitledSingleSelectEnumSchema (2025-11-25+)
            if !later(revision) {
                err(
                    errors,
                    path,
                    "a titled single-select (`oneOf`) needs 2025-11-25 or later",
                );
            }
            only_keys(
                map,
                &["type", "title", "description", "oneOf", "default"],
                path,
                errors,
            );
            let values = titled_list(&map["oneOf"], &format!("{path}.oneOf"), errors);
            check_choice_default(map, &values, path, errors);
        }
        Some("string") if map.contains_key("enum") => {
            // EnumSchema (2025-06-18); Untitled single-select and LegacyTitledEnumSchema (2025-11-25+)
            let allowed: &[&str] = if defaults {
                &[
                    "type",
                    "title",
                    "description",
                    "enum",
                    "enumNames",
                    "default",
                ]
            } else {
                &["type", "title", "description", "enum", "enumNames"]
            };
            only_keys(map, allowed, path, errors);
            let values = string_list(&map["enum"], &format!("{path}.enum"), errors);
            if let Some(names) = map.get("enumNames") {
                match names.as_array() {
                    Some(names) if names.iter().all(Value::is_string) => {
                        if names.len() != values.len() {
                            err(
                                errors,
                                &format!("{path}.enumNames"),
                                format!("has {} names for {} values", names.len(), values.len()),
                            );
                        }
                    }
                    _ => err(
                        errors,
                        &format!("{path}.enumNames"),
                        "must be an array of strings",
                    ),
                }
            }
            check_choice_default(map, &values, path, errors);
        }
        Some("string") => {
            // StringSchema
            let allowed: &[&str] = if defaults {
                &[
                    "type",
                    "title",
                    "description",
                    "minLength",
                    "maxLength",
                    "format",
                    "default",
                ]
            } else {
                &[
                    "type",
                    "title",
                    "description",
                    "minLength",
                    "maxLength",
                    "format",
                ]
            };
            only_keys(map, allowed, path, errors);
            let min = check_count(map, "minLength", path, errors);
            let max = check_count(map, "maxLength", path, errors);
            if let (Some(min), Some(max)) = (min, max)
                && min > max
            {
                err(errors, path, "minLength is greater than maxLength");
            }
            if let Some(f) = map.get("format")
                && !matches!(f.as_str(), Some("email" | "uri" | "date" | "date-time"))
            {
                err(
                    errors,
                    &format!("{path}.format"),
                    format!("{f} is not one of email, uri, date, date-time"),
                );
            }
            check_string_key(map, "default", path, errors);
        }
        Some(kind @ ("number" | "integer")) => {
            // NumberSchema
            let allowed: &[&str] = if defaults {
                &[
                    "type",
                    "title",
                    "description",
                    "minimum",
                    "maximum",
                    "default",
                ]
            } else {
                &["type", "title", "description", "minimum", "maximum"]
            };
            only_keys(map, allowed, path, errors);
            let min = check_number_key(map, "minimum", path, errors);
            let max = check_number_key(map, "maximum", path, errors);
            let default = check_number_key(map, "default", path, errors);
            if let (Some(min), Some(max)) = (min, max)
                && min > max
            {
                err(errors, path, "minimum is greater than maximum");
            }
            if let Some(d) = default {
                if min.is_some_and(|m| d < m) || max.is_some_and(|m| d > m) {
                    err(
                        errors,
                        &format!("{path}.default"),
                        "is outside minimum..=maximum",
                    );
                }
                if kind == "integer" && !(map["default"].is_i64() || map["default"].is_u64()) {
                    err(
                        errors,
                        &format!("{path}.default"),
                        "must be a whole number for an integer",
                    );
                }
            }
        }
        Some("boolean") => {
            // BooleanSchema: `default` in every revision
            only_keys(
                map,
                &["type", "title", "description", "default"],
                path,
                errors,
            );
            if let Some(d) = map.get("default")
                && !d.is_boolean()
            {
                err(errors, &format!("{path}.default"), "must be true or false");
            }
        }
        Some("array") => {
            // Untitled and TitledMultiSelectEnumSchema (2025-11-25+)
            if !later(revision) {
                err(
                    errors,
                    path,
                    "a multi-select (`type: array`) needs 2025-11-25 or later",
                );
            }
            only_keys(
                map,
                &[
                    "type",
                    "title",
                    "description",
                    "items",
                    "minItems",
                    "maxItems",
                    "default",
                ],
                path,
                errors,
            );
            let min = check_count(map, "minItems", path, errors);
            let max = check_count(map, "maxItems", path, errors);
            if let (Some(min), Some(max)) = (min, max)
                && min > max
            {
                err(errors, path, "minItems is greater than maxItems");
            }
            let items_path = format!("{path}.items");
            let values = match map.get("items") {
                Some(Value::Object(items)) if items.contains_key("anyOf") => {
                    only_keys(items, &["anyOf"], &items_path, errors);
                    titled_list(&items["anyOf"], &format!("{items_path}.anyOf"), errors)
                }
                Some(Value::Object(items)) => {
                    only_keys(items, &["type", "enum"], &items_path, errors);
                    if items.get("type") != Some(&json!("string")) {
                        err(errors, &format!("{items_path}.type"), "must be \"string\"");
                    }
                    match items.get("enum") {
                        Some(e) => string_list(e, &format!("{items_path}.enum"), errors),
                        None => {
                            err(errors, &format!("{items_path}.enum"), "is required");
                            Vec::new()
                        }
                    }
                }
                _ => {
                    err(
                        errors,
                        &items_path,
                        "is required: {type: \"string\", enum} or {anyOf}",
                    );
                    Vec::new()
                }
            };
            if let Some(d) = map.get("default") {
                let path = format!("{path}.default");
                match d.as_array() {
                    Some(items) => {
                        for item in items {
                            match item.as_str() {
                                Some(s) if values.contains(&s) => {}
                                _ => {
                                    err(errors, &path, format!("{item} is not one of the options"))
                                }
                            }
                        }
                        let n = items.len() as u64;
                        if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                            err(
                                errors,
                                &path,
                                "has an item count outside minItems..=maxItems",
                            );
                        }
                    }
                    None => err(errors, &path, "must be an array of strings"),
                }
            }
        }
        Some(other) => err(
            errors,
            &format!("{path}.type"),
            format!("{other:?} is not a form field type"),
        ),
        None => err(
            errors,
            &format!("{path}.type"),
            "is required and must be a string",
        ),
    }
}

/// A single-select's default is one of its values (a conformance-suite rule).
fn check_choice_default(
    map: &Map<String, Value>,
    values: &[&str],
    path: &str,
    errors: &mut Vec<String>,
) {
    if let Some(d) = map.get("default") {
        match d.as_str() {
            Some(s) if values.contains(&s) => {}
            _ => err(
                errors,
                &format!("{path}.default"),
                format!("{d} is not one of the values"),
            ),
        }
    }
}

fn assert_valid(schema: &Value, revision: Revision) {
    if let Err(errors) = check(schema, revision) {
        panic!(
            "invalid for {revision}:\n  {}\n{}",
            errors.join("\n  "),
            serde_json::to_string_pretty(schema).unwrap()
        );
    }
}

/// Asserts the checker refuses `schema` with a message at `path` mentioning `needle`.
fn assert_invalid(schema: Value, revision: Revision, path: &str, needle: &str) {
    let errors = check(&schema, revision).expect_err(&format!("accepted for {revision}: {schema}"));
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with(&format!("{path}: ")) && e.contains(needle)),
        "no error at {path} mentioning {needle:?} in {errors:?}"
    );
}

fn example_forms() -> Vec<(&'static str, Form)> {
    vec![
        ("Alternatives", Alternatives::form().clone()),
        ("Popcorn", Popcorn::form().clone()),
        ("PurgeApproval", PurgeApproval::form().clone()),
        ("Everything", Everything::form().clone()),
        ("ShowDate", ShowDate::form().clone()),
        ("SeatChoice", SeatChoice::form().clone()),
        ("Snacks", Snacks::form().clone()),
        ("PopcornSize", PopcornSize::form().clone()),
        ("Confirm", Confirm::new("Sure?").form().clone()),
        (
            "Confirm+description",
            Confirm::new("Sure?")
                .with_description("Really.")
                .form()
                .clone(),
        ),
    ]
}

#[test]
fn every_example_form_is_valid_for_every_revision_it_supports() {
    let mut checked = 0;
    for (name, form) in example_forms() {
        for revision in Revision::ALL.iter().copied() {
            match form.requested_schema(revision) {
                Ok(schema) => {
                    assert_valid(&serde_json::to_value(schema).unwrap(), revision);
                    checked += 1;
                }
                Err(_) => assert!(
                    revision < form.min_revision(),
                    "{name} refused on {revision}"
                ),
            }
        }
    }
    // Everything has a multi-select: 10 forms x 3 revisions, minus one.
    assert_eq!(checked, 29);
}

#[test]
fn confirm_is_valid_everywhere() {
    for revision in Revision::ALL.iter().copied() {
        let confirm = Confirm::new("Delete 1,284 log files?").with_description("For good.");
        let schema =
            serde_json::to_value(confirm.form().requested_schema(revision).unwrap()).unwrap();
        assert_valid(&schema, revision);
        assert_eq!(schema["required"], json!(["confirm"]));
        assert_eq!(schema["properties"]["confirm"]["type"], "boolean");
    }
}

/// A newer revision's schema of a titled form is not a 2025-06-18 schema: the emitter
/// really does pick the shape per revision.
#[test]
fn newer_shapes_are_not_valid_on_2025_06_18() {
    let popcorn =
        serde_json::to_value(Popcorn::requested_schema(Revision::V2025_11_25).unwrap()).unwrap();
    assert_invalid(
        popcorn,
        Revision::V2025_06_18,
        "$.properties.size",
        "2025-11-25 or later",
    );
    let purge =
        serde_json::to_value(PurgeApproval::requested_schema(Revision::V2025_11_25).unwrap())
            .unwrap();
    assert_invalid(
        purge,
        Revision::V2025_06_18,
        "$.properties.retention_days",
        "`default`",
    );
    let everything =
        serde_json::to_value(Everything::requested_schema(Revision::V2025_11_25).unwrap()).unwrap();
    assert_invalid(
        everything,
        Revision::V2025_06_18,
        "$.properties.toppings",
        "multi-select",
    );
}

/// The options `a`, `b`, `c`: plain, or each with a title (as `oneOf` / `anyOf`, or as
/// `enumNames` when `legacy`).
fn opts(titled: bool, legacy: bool, multi: bool) -> Value {
    let values = json!(["a", "b", "c"]);
    let titled_list = json!([{"const": "a", "title": "A"}, {"const": "b", "title": "B"}, {"const": "c", "title": "C"}]);
    match (titled, legacy, multi) {
        (false, _, false) => json!({"type": "string", "enum": values}),
        (true, true, false) => {
            json!({"type": "string", "enum": values, "enumNames": ["A", "B", "C"]})
        }
        (true, false, false) => json!({"type": "string", "oneOf": titled_list}),
        (false, _, true) => json!({"type": "array", "items": {"type": "string", "enum": values}}),
        (true, _, true) => json!({"type": "array", "items": {"anyOf": titled_list}}),
    }
}

fn with(mut schema: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        schema[k] = v.clone();
    }
    schema
}

/// Runtime forms (read from a server's schema by the client kit) over every kind and
/// option combination emit valid schemas too.
#[test]
fn runtime_forms_of_every_kind_are_valid() {
    let mut kinds = vec![
        json!({"type": "string"}),
        json!({"type": "string", "format": "date-time", "minLength": 1, "maxLength": 40,
               "default": "2025-02-01T18:30:00Z"}),
        json!({"type": "integer", "minimum": -5, "maximum": 5, "default": 0}),
        json!({"type": "integer"}),
        json!({"type": "number", "minimum": 0.5, "maximum": 99.5, "default": 1.25}),
        json!({"type": "number"}),
        json!({"type": "boolean"}),
        json!({"type": "boolean", "default": false}),
    ];
    for titled in [false, true] {
        for legacy in [false, true] {
            for default in [None, Some(json!("b"))] {
                let select = opts(titled, legacy, false);
                kinds.push(match default {
                    Some(d) => with(select, json!({"default": d})),
                    None => select,
                });
            }
        }
        for default in [None, Some(json!(["a", "c"]))] {
            let multi = with(
                opts(titled, false, true),
                json!({"minItems": 0, "maxItems": 2}),
            );
            kinds.push(match default {
                Some(d) => with(multi, json!({"default": d})),
                None => multi,
            });
        }
    }
    // Options where only some carry a title still make a valid titled shape.
    let mixed = json!([{"const": "x", "title": "Ex"}, {"const": "y", "title": "y"}]);
    kinds.push(json!({"type": "string", "oneOf": mixed}));
    kinds.push(json!({"type": "array", "items": {"anyOf": mixed}}));
    let mut checked = 0;
    for (i, kind) in kinds.into_iter().enumerate() {
        for required in [false, true] {
            let name = format!("f{i}");
            let required = required && kind.get("default").is_none();
            let field = with(
                kind.clone(),
                json!({"title": "A title", "description": "Some help"}),
            );
            let mut names = vec![json!("other")];
            if required {
                names.push(json!(name));
            }
            let schema = json!({"type": "object",
                "properties": {name.clone(): field, "other": {"type": "boolean"}},
                "required": names});
            let form = read_schema(&schema.to_string()).unwrap_or_else(|e| panic!("{e}\n{schema}"));
            assert_eq!(form.field(&name).unwrap().required, required);
            for revision in Revision::ALL.iter().copied() {
                if let Ok(emitted) = form.requested_schema(revision) {
                    assert_valid(&serde_json::to_value(emitted).unwrap(), revision);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Hand-written schemas of every allowed shape, as the spec and the conformance
/// suite's sep1330/sep1034 scenarios write them, pass.
#[test]
fn checker_accepts_every_allowed_shape() {
    let later = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "d", "minLength": 1, "maxLength": 5, "format": "email", "default": "x"},
            "age": {"type": "integer", "minimum": 0, "maximum": 130, "default": 30},
            "score": {"type": "number", "minimum": 0.5, "maximum": 100, "default": 95.5},
            "verified": {"type": "boolean", "default": true},
            "untitledSingle": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "titledSingle": {"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "a"},
            "legacyEnum": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"], "default": "b"},
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "maxItems": 2, "default": ["a"]},
            "titledMulti": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}, "default": []}
        },
        "required": ["name", "age"]
    });
    assert_valid(&later, Revision::V2025_11_25);
    assert_valid(&later, Revision::V2026_07_28);
    let first = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "format": "date"},
            "n": {"type": "number", "minimum": -1.5},
            "ok": {"type": "boolean", "title": "OK?", "default": false},
            "pick": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"], "description": "d"}
        }
    });
    assert_valid(&first, Revision::V2025_06_18);
    assert_valid(
        &json!({"type": "object", "properties": {}}),
        Revision::V2025_06_18,
    );
}

#[test]
fn checker_refuses_bad_top_levels() {
    let rev = Revision::V2025_11_25;
    assert_invalid(json!([]), rev, "$", "must be an object");
    assert_invalid(json!({"properties": {}}), rev, "$.type", "\"object\"");
    assert_invalid(
        json!({"type": "array", "properties": {}}),
        rev,
        "$.type",
        "\"object\"",
    );
    assert_invalid(
        json!({"type": "object"}),
        rev,
        "$.properties",
        "is required",
    );
    assert_invalid(
        json!({"type": "object", "properties": []}),
        rev,
        "$.properties",
        "must be an object",
    );
    assert_invalid(
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        rev,
        "$",
        "`additionalProperties`",
    );
    assert_invalid(
        json!({"type": "object", "properties": {}, "$schema": "x"}),
        Revision::V2025_06_18,
        "$",
        "`$schema`",
    );
    assert_invalid(
        json!({"type": "object", "properties": {}, "$schema": 7}),
        rev,
        "$.$schema",
        "string",
    );
    let a = json!({"a": {"type": "boolean"}});
    assert_invalid(
        json!({"type": "object", "properties": a, "required": "a"}),
        rev,
        "$.required",
        "array",
    );
    assert_invalid(
        json!({"type": "object", "properties": a, "required": [1]}),
        rev,
        "$.required[0]",
        "string",
    );
    assert_invalid(
        json!({"type": "object", "properties": a, "required": ["b"]}),
        rev,
        "$.required[0]",
        "not a property",
    );
    assert_invalid(
        json!({"type": "object", "properties": a, "required": ["a", "a"]}),
        rev,
        "$.required[1]",
        "twice",
    );
}

fn one(field: Value) -> Value {
    json!({"type": "object", "properties": {"f": field}})
}

#[test]
fn checker_refuses_bad_fields() {
    let old = Revision::V2025_06_18;
    let new = Revision::V2025_11_25;
    let p = "$.properties.f";
    let cases: Vec<(Value, Revision, String, &str)> = vec![
        // Not in any revision.
        (
            json!({"type": "object", "properties": {}}),
            new,
            format!("{p}.type"),
            "not a form field type",
        ),
        (
            json!({"type": "null"}),
            new,
            format!("{p}.type"),
            "not a form field type",
        ),
        (
            json!({"title": "no type"}),
            new,
            format!("{p}.type"),
            "is required",
        ),
        (json!("string"), new, p.to_owned(), "must be an object"),
        (
            json!({"type": "string", "pattern": "^a$"}),
            new,
            p.to_owned(),
            "`pattern`",
        ),
        (
            json!({"type": "string", "format": "phone"}),
            new,
            format!("{p}.format"),
            "not one of",
        ),
        (
            json!({"type": "string", "minLength": -1}),
            new,
            format!("{p}.minLength"),
            "non-negative integer",
        ),
        (
            json!({"type": "string", "maxLength": 1.5}),
            new,
            format!("{p}.maxLength"),
            "non-negative integer",
        ),
        (
            json!({"type": "string", "minLength": 3, "maxLength": 2}),
            new,
            p.to_owned(),
            "greater",
        ),
        (
            json!({"type": "string", "default": 3}),
            new,
            format!("{p}.default"),
            "string",
        ),
        (
            json!({"type": "string", "title": 3}),
            new,
            format!("{p}.title"),
            "string",
        ),
        (
            json!({"type": "string", "description": false}),
            new,
            format!("{p}.description"),
            "string",
        ),
        (
            json!({"type": "number", "exclusiveMinimum": 0}),
            new,
            p.to_owned(),
            "`exclusiveMinimum`",
        ),
        (
            json!({"type": "number", "multipleOf": 2}),
            new,
            p.to_owned(),
            "`multipleOf`",
        ),
        (
            json!({"type": "number", "minimum": "0"}),
            new,
            format!("{p}.minimum"),
            "number",
        ),
        (
            json!({"type": "number", "minimum": 2, "maximum": 1}),
            new,
            p.to_owned(),
            "greater",
        ),
        (
            json!({"type": "number", "maximum": 1, "default": 2}),
            new,
            format!("{p}.default"),
            "outside",
        ),
        (
            json!({"type": "integer", "default": 1.5}),
            new,
            format!("{p}.default"),
            "whole",
        ),
        (
            json!({"type": "boolean", "default": "true"}),
            new,
            format!("{p}.default"),
            "true or false",
        ),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "number"}]}),
            new,
            format!("{p}.type"),
            "is required",
        ),
        (
            json!({"type": ["string", "null"]}),
            new,
            format!("{p}.type"),
            "is required",
        ),
        // 2025-06-18 has no defaults but the boolean's, no oneOf, no arrays.
        (
            json!({"type": "string", "default": "x"}),
            old,
            p.to_owned(),
            "`default`",
        ),
        (
            json!({"type": "integer", "default": 1}),
            old,
            p.to_owned(),
            "`default`",
        ),
        (
            json!({"type": "string", "enum": ["a"], "default": "a"}),
            old,
            p.to_owned(),
            "`default`",
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
            old,
            p.to_owned(),
            "2025-11-25",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}),
            old,
            p.to_owned(),
            "2025-11-25",
        ),
        // Enums.
        (
            json!({"type": "string", "enum": []}),
            new,
            format!("{p}.enum"),
            "empty",
        ),
        (
            json!({"type": "string", "enum": [1, 2]}),
            new,
            format!("{p}.enum[0]"),
            "string",
        ),
        (
            json!({"type": "integer", "enum": [1, 2]}),
            new,
            p.to_owned(),
            "`enum`",
        ),
        (
            json!({"type": "string", "enum": ["a", "a"]}),
            new,
            format!("{p}.enum[1]"),
            "twice",
        ),
        (
            json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
            new,
            format!("{p}.enumNames"),
            "1 names for 2 values",
        ),
        (
            json!({"type": "string", "enum": ["a"], "enumNames": "A"}),
            old,
            format!("{p}.enumNames"),
            "array of strings",
        ),
        (
            json!({"type": "string", "enum": ["a"], "default": "z"}),
            new,
            format!("{p}.default"),
            "not one of",
        ),
        (
            json!({"type": "string", "enum": ["a"], "format": "email"}),
            new,
            p.to_owned(),
            "`format`",
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a"}]}),
            new,
            format!("{p}.oneOf[0].title"),
            "is required",
        ),
        (
            json!({"type": "string", "oneOf": [{"title": "A"}]}),
            new,
            format!("{p}.oneOf[0].const"),
            "is required",
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A", "description": "x"}]}),
            new,
            format!("{p}.oneOf[0]"),
            "`description`",
        ),
        (
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}], "default": "b"}),
            new,
            format!("{p}.default"),
            "not one of",
        ),
        (
            json!({"type": "string", "oneOf": []}),
            new,
            format!("{p}.oneOf"),
            "empty",
        ),
        // Multi-selects.
        (
            json!({"type": "array", "items": {"type": "number"}}),
            new,
            format!("{p}.items.type"),
            "\"string\"",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}}),
            new,
            format!("{p}.items.enum"),
            "is required",
        ),
        (
            json!({"type": "array"}),
            new,
            format!("{p}.items"),
            "is required",
        ),
        (
            json!({"type": "array", "items": {"type": "object", "properties": {}}}),
            new,
            format!("{p}.items"),
            "`properties`",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "anyOf": [{"const": "a", "title": "A"}]}}),
            new,
            format!("{p}.items"),
            "`type`",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "uniqueItems": true}),
            new,
            p.to_owned(),
            "`uniqueItems`",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": 2, "maxItems": 1}),
            new,
            p.to_owned(),
            "greater",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": ["b"]}),
            new,
            format!("{p}.default"),
            "not one of",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": "a"}),
            new,
            format!("{p}.default"),
            "array",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]}),
            new,
            format!("{p}.default"),
            "item count",
        ),
    ];
    let count = cases.len();
    for (field, revision, path, needle) in cases {
        assert_invalid(one(field), revision, &path, needle);
    }
    assert_eq!(count, 49);
}

/// All problems of a schema are reported, not only the first.
#[test]
fn checker_reports_every_problem() {
    let errors = check(
        &json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "pattern": "x"},
                "b": {"type": "object"},
                "c": {"type": "array", "items": {"type": "string", "enum": ["x"]}}
            },
            "required": ["z"]
        }),
        Revision::V2025_06_18,
    )
    .unwrap_err();
    assert_eq!(errors.len(), 4, "{errors:?}");
}
