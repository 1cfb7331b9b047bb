//! `requestedSchema` emission: a form seen through one protocol revision.
//!
//! Nothing is built per call: [`RequestedSchema`] borrows the form and serializes it
//! in declaration order, emitting only keys of the MCP subset that the revision knows.

use std::fmt;
use std::sync::OnceLock;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::form::{Choice, Field, FieldKind, Form, FormError, Format, Revision};

/// The `requestedSchema` of a form for one protocol revision.
///
/// Serializes to the exact JSON the revision expects; obtain it from
/// [`Form::requested_schema`] (or `T::requested_schema` for a type deriving `Elicit`).
#[derive(Clone, Copy, Debug)]
pub struct RequestedSchema<'a> {
    form: &'a Form,
    revision: Revision,
}

impl Form {
    /// The `requestedSchema` of this form for `revision`, or an error when the
    /// revision cannot express it ([`FormError::Unsupported`]), or when the form has a
    /// secret field ([`FormError::Invalid`]: MCP forbids asking for one in form mode; ask
    /// the form on a web page, URL mode, instead).
    pub fn requested_schema(&self, revision: Revision) -> Result<RequestedSchema<'_>, FormError> {
        if let Some(field) = self.secret() {
            return Err(FormError::new(secret_in_form_mode(&field.name)));
        }
        if revision < self.min_revision {
            let needs = self.min_revision;
            let field = self
                .fields
                .iter()
                .find(|f| f.kind.min_revision() > revision)
                .map(|f| f.name.to_string())
                .unwrap_or_default();
            return Err(FormError::Unsupported {
                revision,
                needs,
                field,
            });
        }
        Ok(RequestedSchema {
            form: self,
            revision,
        })
    }
}

/// Why a form with the secret field `name` has no `requestedSchema`.
pub(crate) fn secret_in_form_mode(name: &str) -> String {
    format!(
        "field `{name}` is a secret: MCP forbids asking for passwords, tokens, API keys or payment details in form mode; ask this form on a web page (URL mode) instead"
    )
}

impl<'a> RequestedSchema<'a> {
    /// A schema for a form the caller has checked against the revision (a wizard's step,
    /// which only the engine asks: feature `seal`).
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn new_unchecked(form: &'a Form, revision: Revision) -> Self {
        RequestedSchema { form, revision }
    }

    /// The revision this schema is written for.
    pub(crate) fn revision(&self) -> Revision {
        self.revision
    }

    /// The compact JSON text, written once per form and revision and kept in the form
    /// (what serde writes: the form's fields do not change once it is built).
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn json(&self) -> &'a [u8] {
        &self.written().json
    }

    /// A 256-bit digest of [`json`](Self::json), made by `digest` the first time and
    /// kept with the JSON. The crate digests a schema with one function only (the
    /// question digest of `mcp`), so what is kept is always that function's.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) fn json_digest(&self, digest: impl FnOnce(&[u8]) -> [u8; 32]) -> [u8; 32] {
        *self.written().digest.get_or_init(|| digest(self.json()))
    }

    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    fn written(&self) -> &'a Written {
        self.form.schema_json.get(self.revision, || {
            // Plain maps, strings and numbers: writing them to a `Vec` cannot fail.
            serde_json::to_vec(self).unwrap_or_default()
        })
    }
}

/// A form's `requestedSchema` JSON per revision, written when first asked for. A clone
/// starts empty (it may be changed), and two caches always compare equal: it is not
/// part of what a form is.
pub(crate) struct SchemaJson([OnceLock<Written>; Revision::ALL.len()]);

/// One revision's schema JSON, and its digest once asked for.
#[cfg_attr(not(feature = "seal"), allow(dead_code))]
struct Written {
    json: Box<[u8]>,
    digest: OnceLock<[u8; 32]>,
}

impl SchemaJson {
    pub(crate) const fn new() -> SchemaJson {
        SchemaJson([const { OnceLock::new() }; Revision::ALL.len()])
    }

    /// The JSON for `revision`, written by `write` the first time.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    fn get(&self, revision: Revision, write: impl FnOnce() -> Vec<u8>) -> &Written {
        let slot = match revision {
            Revision::V2025_06_18 => &self.0[0],
            Revision::V2025_11_25 => &self.0[1],
            Revision::V2026_07_28 => &self.0[2],
        };
        slot.get_or_init(|| Written {
            json: write().into_boxed_slice(),
            digest: OnceLock::new(),
        })
    }
}

impl Clone for SchemaJson {
    fn clone(&self) -> SchemaJson {
        SchemaJson::new()
    }
}

impl PartialEq for SchemaJson {
    fn eq(&self, _: &SchemaJson) -> bool {
        true
    }
}

impl fmt::Debug for SchemaJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SchemaJson")
    }
}

impl fmt::Display for RequestedSchema<'_> {
    /// The compact JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for RequestedSchema<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let any_required = self.form.fields.iter().any(|f| f.required);
        let mut map = serializer.serialize_map(Some(2 + usize::from(any_required)))?;
        map.serialize_entry("type", "object")?;
        map.serialize_entry(
            "properties",
            &Properties {
                fields: &self.form.fields,
                revision: self.revision,
            },
        )?;
        if any_required {
            map.serialize_entry("required", &Required(&self.form.fields))?;
        }
        map.end()
    }
}

struct Properties<'a> {
    fields: &'a [Field],
    revision: Revision,
}

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for field in self.fields {
            map.serialize_entry(
                &*field.name,
                &Property {
                    field,
                    revision: self.revision,
                },
            )?;
        }
        map.end()
    }
}

struct Required<'a>(&'a [Field]);

impl Serialize for Required<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().filter(|f| f.required).map(|f| &*f.name))
    }
}

struct Property<'a> {
    field: &'a Field,
    revision: Revision,
}

/// A number written as an integer when it is one, so `minimum = 0` prints `0`, not `0.0`.
struct Num(f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
            serializer.serialize_i64(v as i64)
        } else {
            serializer.serialize_f64(v)
        }
    }
}

/// `[{"const": v, "title": t}, ..]`
struct TitledOptions<'a>(&'a [Choice]);

impl Serialize for TitledOptions<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for choice in self.0 {
            seq.serialize_element(&TitledOption(choice))?;
        }
        seq.end()
    }
}

struct TitledOption<'a>(&'a Choice);

impl Serialize for TitledOption<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", &*self.0.value)?;
        map.serialize_entry("title", self.0.label())?;
        map.end()
    }
}

struct Values<'a>(&'a [Choice]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|c| &*c.value))
    }
}

struct Labels<'a>(&'a [Choice]);

impl Serialize for Labels<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Choice::label))
    }
}

/// `{"type": "string", "enum": [..]}` as the items of an untitled multi-select.
struct EnumItems<'a>(&'a [Choice]);

impl Serialize for EnumItems<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("type", "string")?;
        map.serialize_entry("enum", &Values(self.0))?;
        map.end()
    }
}

struct AnyOfItems<'a>(&'a [Choice]);

impl Serialize for AnyOfItems<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("anyOf", &TitledOptions(self.0))?;
        map.end()
    }
}

fn has_titles(options: &[Choice]) -> bool {
    options.iter().any(|c| c.title.is_some())
}

impl Serialize for Property<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let field = self.field;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", type_name(&field.kind))?;
        entry(&mut map, "title", field.title.as_deref())?;
        entry(&mut map, "description", field.description.as_deref())?;
        kind_keywords(&mut map, &field.kind, self.revision.supports_defaults())?;
        map.end()
    }
}

/// The JSON Schema `type` of a field of `kind`.
fn type_name(kind: &FieldKind) -> &'static str {
    match kind {
        FieldKind::String { .. } | FieldKind::Select { .. } => "string",
        FieldKind::Integer { .. } => "integer",
        FieldKind::Number { .. } => "number",
        FieldKind::Boolean { .. } => "boolean",
        FieldKind::MultiSelect { .. } => "array",
    }
}

/// Writes `key: value` when there is a value.
fn entry<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    key: &'static str,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(v) => map.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// Writes the keywords of the field's kind: its bounds, format, options and default (a
/// text, number or select default only when the revision supports defaults).
fn kind_keywords<M: SerializeMap>(
    map: &mut M,
    kind: &FieldKind,
    defaults: bool,
) -> Result<(), M::Error> {
    match kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            default,
        } => {
            entry(map, "minLength", min_length.as_ref())?;
            entry(map, "maxLength", max_length.as_ref())?;
            entry(map, "format", format.map(Format::as_str))?;
            entry(map, "default", default.as_deref().filter(|_| defaults))
        }
        FieldKind::Integer {
            minimum,
            maximum,
            default,
            ..
        } => {
            entry(map, "minimum", minimum.as_ref())?;
            entry(map, "maximum", maximum.as_ref())?;
            entry(map, "default", default.as_ref().filter(|_| defaults))
        }
        FieldKind::Number {
            minimum,
            maximum,
            default,
            ..
        } => {
            entry(map, "minimum", minimum.map(Num).as_ref())?;
            entry(map, "maximum", maximum.map(Num).as_ref())?;
            entry(
                map,
                "default",
                default.filter(|_| defaults).map(Num).as_ref(),
            )
        }
        FieldKind::Boolean { default } => entry(map, "default", default.as_ref()),
        FieldKind::Select {
            options,
            default,
            legacy_enum_names,
        } => {
            select_options(map, options, defaults, *legacy_enum_names)?;
            entry(map, "default", default.as_deref().filter(|_| defaults))
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            default,
        } => {
            entry(map, "minItems", min_items.as_ref())?;
            entry(map, "maxItems", max_items.as_ref())?;
            if has_titles(options) {
                map.serialize_entry("items", &AnyOfItems(options))?;
            } else {
                map.serialize_entry("items", &EnumItems(options))?;
            }
            entry(map, "default", default.as_deref())
        }
    }
}

/// Writes a select's options: titled `oneOf` where the revision has it (and legacy
/// `enumNames` are not asked for), else `enum` with `enumNames` when there are titles.
fn select_options<M: SerializeMap>(
    map: &mut M,
    options: &[Choice],
    defaults: bool,
    legacy_enum_names: bool,
) -> Result<(), M::Error> {
    let titled = has_titles(options);
    if titled && defaults && !legacy_enum_names {
        map.serialize_entry("oneOf", &TitledOptions(options))?;
    } else {
        map.serialize_entry("enum", &Values(options))?;
        if titled || legacy_enum_names {
            map.serialize_entry("enumNames", &Labels(options))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::form::{Field, FieldKind, Form, Revision};

    /// The kept JSON is what serde writes, per revision, and a changed form writes
    /// its own.
    #[test]
    fn the_kept_json_is_the_written_schema() {
        let field = |name: &'static str| {
            Field::new(
                name,
                true,
                FieldKind::Boolean {
                    default: Some(true),
                },
            )
        };
        let form = Form::new(vec![field("a")]).expect("a valid form");
        for &revision in Revision::ALL {
            let schema = form.requested_schema(revision).expect("any revision");
            let written = serde_json::to_vec(&schema).expect("plain JSON");
            assert_eq!(schema.json(), written.as_slice());
            assert!(std::ptr::eq(schema.json(), schema.json()));
        }
        let mut changed = form.clone();
        changed.fields_mut().push(field("b"));
        let schema = changed.requested_schema(Revision::LATEST).expect("valid");
        assert_eq!(
            schema.json(),
            serde_json::to_vec(&schema).expect("plain JSON")
        );
        assert_ne!(
            schema.json(),
            form.requested_schema(Revision::LATEST)
                .expect("valid")
                .json()
        );
    }

    /// The digest of the kept JSON is made once per form and revision, from that JSON,
    /// and a changed form digests its own.
    #[test]
    fn the_kept_digest_is_made_once_from_the_kept_json() {
        let field =
            |name: &'static str| Field::new(name, true, FieldKind::Boolean { default: None });
        let form = Form::new(vec![field("a")]).expect("a valid form");
        let schema = form.requested_schema(Revision::LATEST).expect("valid");
        let first = schema.json_digest(|json| {
            assert_eq!(json, schema.json());
            [json.len() as u8; 32]
        });
        let again = schema.json_digest(|_| unreachable!("kept"));
        assert_eq!([first, again], [[schema.json().len() as u8; 32]; 2]);
        let other = form.requested_schema(Revision::V2025_06_18).expect("valid");
        assert_eq!(other.json_digest(|_| [7; 32]), [7; 32]);
        let mut changed = form.clone();
        changed.fields_mut().push(field("b"));
        let changed = changed.requested_schema(Revision::LATEST).expect("valid");
        assert_eq!(changed.json_digest(|_| [9; 32]), [9; 32]);
    }
}
