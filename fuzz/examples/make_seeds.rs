//! Writes the committed seed inputs under `fuzz/seeds/<target>/`:
//! `cargo run --manifest-path fuzz/Cargo.toml --example make_seeds`.
//!
//! Seeds are valid answers to every form, a few invalid and lenient ones, real wizard
//! states at each step, real sealed tokens, and each form's `requestedSchema` per
//! revision. Tokens carry a random nonce, so rerunning changes those files.

use elicit_core::Action;
use std::fs;
use std::path::{Path, PathBuf};

use elicit_core::__private::testing::{Flow, Poll};
use elicit_core::wizard::Wizard;
use elicit_core::{Elicit, Revision};
use elicit_examples::ticket::{Cinema, TicketOrder};
use elicit_fuzz::{NOW, Survey, binding, keyring, mode_byte};
use serde_json::{Value, json};

fn dir(target: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    fs::create_dir_all(&d).expect("seed directory");
    d
}

fn write(target: &str, name: &str, bytes: &[u8]) {
    fs::write(dir(target).join(name), bytes).expect("seed file");
}

fn jsonl(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        out.extend_from_slice(serde_json::to_string(v).expect("json").as_bytes());
        out.push(b'\n');
    }
    out
}

fn with_mode(mode: u8, rev: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![mode_byte(mode, rev, 6)];
    out.extend_from_slice(body);
    out
}

fn answers() -> Vec<(&'static str, Value)> {
    vec![
        (
            "alternatives",
            json!({"checkAlternatives": true, "newDate": "2025-02-03"}),
        ),
        (
            "popcorn",
            json!({"popcorn": true, "size": "Large", "buckets": 2}),
        ),
        (
            "purge",
            json!({"confirm": true, "approver": "ada@example.com", "retentionDays": 90}),
        ),
        (
            "purge_bad",
            json!({"confirm": "yes", "approver": "ada(at)example", "retentionDays": 999}),
        ),
        (
            "everything",
            json!({"name": "Ada", "email": "ada@example.com", "homepage": "https://example.com",
                   "arrival": "2025-02-01T18:30:00+01:00", "age": 36, "score": 12.5, "ratio": 0.25,
                   "verified": false, "size": "Small", "legacySize": "Large",
                   "toppings": ["salt", "caramel"], "count": 18446744073709551615u64}),
        ),
        ("show_date", json!({"date": "2025-02-03"})),
        ("seat", json!({"seat": "A1"})),
        ("snacks", json!({"popcorn": true, "drink": "cola"})),
        ("popcorn_size", json!({"size": "Medium"})),
        (
            "form5",
            json!({"name": "Ada Lovelace", "email": "ada@example.com", "age": 36,
                   "newsletter": true, "birthday": "1815-12-10"}),
        ),
        (
            "form20",
            json!({"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                   "otherEmail": "ada.lovelace@example.org", "homepage": "https://example.com/ada",
                   "birthday": "1815-12-10", "arrival": "2025-02-03T18:30:00Z",
                   "street": "12 St James's Square", "city": "London", "postcode": "SW1Y 4JH",
                   "country": "United Kingdom", "age": 36, "adults": 2, "children": 1,
                   "nights": 3, "budget": 180.5, "rating": 4.5, "pet": false,
                   "breakfast": true, "notes": "A quiet room, please."}),
        ),
        (
            "form_enums",
            json!({"size": "Medium", "toppings": ["butter", "cheese"], "buckets": 2}),
        ),
        (
            "edges",
            json!({"type": "ab", "tiny": -128, "huge": 18446744073709551615u64, "wide": -9223372036854775808i64,
                   "size": 0, "delta": -1, "ratio": 3.0e38, "small": -5, "Flag!": false,
                   "skipped": 1, "set": ["butter", "salt"], "when": "2025-02-01T18:30:00.5-02:30",
                   "link": "urn:isbn:0451450523", "score": -0.5}),
        ),
        (
            "closed",
            json!({"email": "bob@example.org", "size": "Small", "code": "ÄÖÜ", "extra": 1}),
        ),
        (
            "lenient",
            json!({"buckets": "3", "popcorn": "true", "retentionDays": "30", "confirm": "false"}),
        ),
        (
            "floats",
            json!({"buckets": 3.0, "age": 36.0, "tiny": 1e2, "huge": 1.5}),
        ),
        (
            "whole_result",
            json!({"action": "accept", "content": {"confirm": true, "seat": "B4"}}),
        ),
        ("decline", json!({"action": "decline"})),
        ("not_object", json!(["accept", {"confirm": true}])),
    ]
}

fn ticket_states() -> Vec<Value> {
    let cinema = Cinema::demo();
    let rev = Revision::V2025_11_25;
    let mut flow = Flow::<TicketOrder>::new();
    let mut states = vec![serde_json::to_value(flow.state()).expect("state")];
    let answers = [
        json!({"date": "2025-02-01"}),
        json!({"date": "2025-02-03"}),
        json!({"seat": "B4"}),
        json!({"popcorn": true, "drink": "water"}),
        json!({"size": "Large"}),
    ];
    for answer in &answers {
        let Ok(Poll::Ask(_)) = flow.poll(&cinema, rev) else {
            panic!("the ticket wizard asks")
        };
        states.push(serde_json::to_value(flow.state()).expect("state"));
        flow.answer(&cinema, Action::Accept, Some(answer.clone()))
            .expect("answer");
    }
    let Ok(Poll::Done(_)) = flow.poll(&cinema, rev) else {
        panic!("the ticket wizard ends")
    };
    states.push(serde_json::to_value(flow.state()).expect("state"));
    states
}

fn survey_state() -> Value {
    let rev = Revision::V2025_11_25;
    let mut flow = Flow::<Survey>::new();
    let Ok(Poll::Ask(_)) = flow.poll(&(), rev) else {
        panic!("the survey asks")
    };
    flow.answer(
        &(),
        Action::Accept,
        Some(json!({"email": "ada@example.com", "count": 1, "verified": true})),
    )
    .expect("answer");
    let Ok(Poll::Ask(_)) = flow.poll(&(), rev) else {
        panic!("the survey asks again")
    };
    serde_json::to_value(flow.state()).expect("state")
}

fn schemas<T: Elicit>(name: &str, answer: &Value) {
    for (i, rev) in Revision::ALL.iter().enumerate() {
        if let Ok(schema) = T::requested_schema(*rev) {
            write(
                "client_schema",
                &format!("{name}_{i}.jsonl"),
                &jsonl(&[serde_json::to_value(schema).unwrap(), answer.clone()]),
            );
        }
    }
}

fn main() {
    // answer
    for (name, v) in answers() {
        write(
            "answer",
            &format!("{name}.json"),
            &serde_json::to_vec(&v).expect("json"),
        );
    }
    write("answer", "action_reject.txt", b"reject\n{\"confirm\":true}");
    write(
        "answer",
        "action_accept.txt",
        b"accept\n{\"confirm\":true,\"date\":\"2025-02-30\"}",
    );
    write("answer", "null.json", b"null");

    // wizard_state
    let states = ticket_states();
    assert_eq!(TicketOrder::STEPS.len(), 4);
    for (i, state) in states.iter().enumerate() {
        let body = jsonl(&[state.clone(), json!({"seat": "A2"}), json!("decline")]);
        write(
            "wizard_state",
            &format!("0_ticket_state_{i}.jsonl"),
            &with_mode(0, 1, &body),
        );
    }
    let survey = survey_state();
    write(
        "wizard_state",
        "0_survey_state.jsonl",
        &with_mode(
            0,
            2,
            &jsonl(&[
                survey.clone(),
                json!({"toppings": ["butter"], "size": "Large"}),
            ]),
        ),
    );
    let fresh = jsonl(&[
        json!({"date": "2025-02-04"}),
        json!({"action": "accept", "content": {"seat": "C1"}}),
        json!({"popcorn": "true"}),
        json!("cancel"),
    ]);
    write(
        "wizard_state",
        "1_fresh_ticket.jsonl",
        &with_mode(1, 0, &fresh),
    );
    write(
        "wizard_state",
        "1_fresh_filled.jsonl",
        &with_mode(1, 2, b""),
    );
    let sealer = elicit_core::__private::testing::Sealer::new(keyring());
    for (i, state) in [&states[2], &survey].into_iter().enumerate() {
        let token = sealer.seal_at(&binding(), state, NOW).expect("seal");
        let mut body = token.into_bytes();
        body.push(b'\n');
        body.extend_from_slice(&jsonl(&[json!({"seat": "A1"})]));
        write(
            "wizard_state",
            &format!("2_token_{i}.txt"),
            &with_mode(2, 1, &body),
        );
    }
    write(
        "wizard_state",
        "3_tamper.bin",
        &with_mode(3, 1, &[0, 0, 10, b'A', 3, 0, 40, 0]),
    );
    write("wizard_state", "3_untouched.bin", &with_mode(3, 2, b""));
    write(
        "wizard_state",
        "4_seal_state.jsonl",
        &with_mode(
            4,
            1,
            &jsonl(&[states[3].clone(), json!({"popcorn": false})]),
        ),
    );
    write(
        "wizard_state",
        "5_keyring.txt",
        &with_mode(
            5,
            0,
            b"k2:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w,\n# old\nk1:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ),
    );

    // client_schema
    use elicit_examples::forms as ex;
    use elicit_fuzz::forms as fz;
    let a: std::collections::BTreeMap<_, _> = answers().into_iter().collect();
    schemas::<ex::Everything>("everything", &a["everything"]);
    schemas::<ex::PurgeApproval>("purge", &a["purge"]);
    schemas::<ex::Popcorn>("popcorn", &a["popcorn"]);
    schemas::<fz::Form20>("form20", &a["form20"]);
    schemas::<fz::FormEnums>("form_enums", &a["form_enums"]);
    schemas::<fz::Edges>("edges", &a["edges"]);
    write(
        "client_schema",
        "legacy_enum.jsonl",
        &jsonl(&[
            json!({"type": "object", "properties": {
                "size": {"type": "string", "enum": ["s", "l"], "enumNames": ["Small", "Large"], "default": "s"},
                "toppings": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]},
                             "minItems": 1, "maxItems": 2, "uniqueItems": true},
                "n": {"type": "number", "minimum": -1.5, "maximum": 1e6}},
                "required": ["size"], "$schema": "http://json-schema.org/draft-07/schema#"}),
            json!({"size": "l", "toppings": ["b"]}),
        ]),
    );
}
