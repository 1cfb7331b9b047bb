//! What a call in rounds carries from one round to the next, and the digests that pin its questions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::form::{RequestedSchema, Revision};
use crate::wizard::{FormParams, WizardState};

/// The answers of earlier rounds, sealed into `requestState`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Saved {
    /// The call's id, the same in every round ([`Call::call_id`](super::Call::call_id)).
    #[serde(default)]
    pub(super) call: String,
    /// This state's own id, redeemed once.
    #[serde(default)]
    pub(super) round: String,
    /// One entry per finished question, in asking order: a form's `ElicitResult` as
    /// validated (only the form's fields), a wizard's final state, or another input
    /// request's raw result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) log: Vec<Value>,
    /// The digest of the question each log entry answered, so a replay re-reads an
    /// answer only for the same question (empty for a wizard, whose steps are replayed
    /// against the context).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) pins: Vec<String>,
    /// The question being asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pending: Option<Pending>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Pending {
    /// Which question (its position in the log).
    pub(super) index: usize,
    /// The tries of each question that failed so far or was asked again, by its key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) tries: BTreeMap<String, Try>,
    /// A wizard's state between its steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) wizard: Option<WizardState>,
    /// The answers a batch already has, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) answered: BTreeMap<String, Value>,
    /// The questions this round asked: their keys, and the digest of each question
    /// as sent (method, message, schema). An answer is read only for one of them, and
    /// only while the question is still the same.
    #[serde(default)]
    pub(super) asked: BTreeMap<String, String>,
    /// A question asked on a page: the page.
    #[cfg(feature = "web")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) page: Option<super::page::PageAttempt>,
}

/// How a question's attempt stands: the answers that failed, the last problem (shown
/// above the form when it is asked again), and whether it is asked brought down to text,
/// checkboxes and selects (the client accepted it without answering anything).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Try {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) failed: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) problem: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) text: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Pending {
    pub(super) fn new(index: usize) -> Pending {
        Pending {
            index,
            tries: BTreeMap::new(),
            wizard: None,
            answered: BTreeMap::new(),
            asked: BTreeMap::new(),
            #[cfg(feature = "web")]
            page: None,
        }
    }
}

/// The id and times of a state not yet redeemed.
pub(super) struct Unredeemed {
    pub(super) id: String,
    pub(super) issued_at: u64,
    pub(super) expires_at: u64,
}

/// A question's `params` as JSON text, written straight from typed values: a form's
/// fields in declaration order whatever serde_json's features (a `Value` map sorts
/// them unless `preserve_order` is on, and elicit turns on no feature for its users).
#[derive(Clone, Debug)]
pub(super) struct Params(pub(super) String);

impl Params {
    /// The params `value` serializes to.
    pub(super) fn of(value: &impl Serialize) -> Params {
        // Maps, strings and numbers: writing them cannot fail.
        Params(serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned()))
    }

    /// The `params` of a form-mode `elicitation/create`, the problem of the last answer
    /// above the message.
    pub(super) fn form(
        message: &str,
        problem: Option<&str>,
        schema: &RequestedSchema<'_>,
    ) -> Params {
        match problem {
            Some(problem) => Params::write_form(&format!("{problem}\n\n{message}"), schema),
            None => Params::write_form(message, schema),
        }
    }

    /// The `params` of a wizard step's question.
    pub(super) fn step(params: FormParams<'_>) -> Params {
        Params::write_form(params.message(), &params.schema())
    }

    /// `{"mode": "form", "message": .., "requestedSchema": ..}` in the order the spec lists
    /// them (no `mode` on 2025-06-18), the schema as the form keeps it written (its fields
    /// in declaration order): no field is serialized again for a question asked again.
    fn write_form(message: &str, schema: &RequestedSchema<'_>) -> Params {
        let json = std::str::from_utf8(schema.json()).unwrap_or("{}");
        let mut text = String::with_capacity(json.len() + message.len() + 64);
        text.push('{');
        if schema.revision() >= Revision::V2025_11_25 {
            text.push_str(r#""mode":"form","#);
        }
        text.push_str(r#""message":"#);
        // A string always serializes.
        text.push_str(&serde_json::to_string(message).unwrap_or_default());
        text.push_str(r#","requestedSchema":"#);
        text.push_str(json);
        text.push('}');
        Params(text)
    }
}

/// The digest of a question (its method and params as written): 128 bits of SHA-256,
/// base64url. The same question from the same code always has the same digest; a
/// question whose text, schema or options changed has another.
pub(super) fn question_digest(method: &str, params: &Params) -> String {
    use sha2::Digest;
    let mut hashing = sha2::Sha256::new();
    hashing.update(method.as_bytes());
    hashing.update([0]);
    hashing.update(params.0.as_bytes());
    encode(&hashing.finalize()[..16])
}

/// The digest of a batch of questions: of their digests, in order.
pub(super) fn batch_digest<'a>(digests: impl IntoIterator<Item = &'a str>) -> String {
    use sha2::Digest;
    let mut hashing = sha2::Sha256::new();
    hashing.update(b"batch");
    // A 2 after the name keeps these apart from the other digests (see `form_digest`).
    hashing.update([0, 2]);
    for digest in digests {
        hashing.update(digest.as_bytes());
        hashing.update([0]);
    }
    encode(&hashing.finalize()[..16])
}

/// The digest of a wizard step's question, an `elicitation/create` request with `params`:
/// like [`question_digest`], 128 bits of SHA-256 over all that the params hold (the
/// revision, which decides how the schema is written and whether `mode` is sent; the
/// message; the schema's JSON), but the schema's JSON enters as its own SHA-256, which
/// the form keeps with the JSON it keeps written: a step's schema is hashed once, not
/// for every question.
pub(super) fn form_digest(params: FormParams<'_>) -> String {
    use sha2::Digest;
    let schema = params.schema();
    let message = params.message();
    let schema_digest = schema.json_digest(|json| sha2::Sha256::digest(json).into());
    let mut hashing = sha2::Sha256::new();
    hashing.update(b"elicitation/create");
    // After the method, `question_digest` hashes JSON, which starts with `{`: a 1 here
    // keeps the two kinds of digest apart.
    hashing.update([0, 1]);
    hashing.update(schema.revision().as_str().as_bytes());
    hashing.update((message.len() as u64).to_be_bytes());
    hashing.update(message.as_bytes());
    hashing.update(schema_digest);
    encode(&hashing.finalize()[..16])
}

fn encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::{Field, FieldKind, Form};

    /// The text of a question lists the form's fields in declaration order, whatever the
    /// names sort to and whatever serde_json's features, and is the JSON serde writes.
    #[test]
    fn question_text_keeps_declaration_order() {
        let form = Form::new(vec![
            Field::new("zeta", true, FieldKind::Boolean { default: None }),
            Field::new("alpha", false, FieldKind::Boolean { default: None }),
        ])
        .unwrap();
        for &revision in Revision::ALL {
            let schema = form.requested_schema(revision).unwrap();
            let text = Params::form("Which?", Some("Try \"again\""), &schema).0;
            let (zeta, alpha) = (
                text.find("\"zeta\"").unwrap(),
                text.find("\"alpha\"").unwrap(),
            );
            assert!(zeta < alpha, "{text}");
            let read: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(read["message"], "Try \"again\"\n\nWhich?");
            assert_eq!(
                read["requestedSchema"],
                serde_json::to_value(schema).unwrap()
            );
            assert_eq!(
                read.get("mode").is_some(),
                revision >= Revision::V2025_11_25
            );
        }
    }
}
