//! Answer validation: every constraint the schema announces is enforced on the
//! client's answer, every malformed shape is refused with an error a user can read,
//! and no input, however hostile, makes validation panic.

use elicit_core::__private::testing;
use elicit_core::Action;
use elicit_core::Problem;
use elicit_core::{AnswerError, Elicit, Elicitation, Format, Strictness};
use elicit_examples::forms::{Everything, Popcorn, PurgeApproval, Size, Topping};
use elicit_examples::ticket::Snacks;
use serde::Deserialize;
use serde_json::{Value, json};

/// Reads an accepted answer's `content` with `strictness`: the form judges it, then serde
/// reads what the form gave back (what the engine does under `Settings::strictness`).
fn read_with<T: Elicit>(content: Option<&Value>, strictness: Strictness) -> Result<T, AnswerError> {
    let valid = T::form().validate(content, strictness)?;
    T::deserialize(valid.as_ref()).map_err(AnswerError::Parse)
}

/// The same through `Form::validate_owned`, for content the caller owns.
fn read_owned_with<T: Elicit>(
    content: Option<Value>,
    strictness: Strictness,
) -> Result<T, AnswerError> {
    let valid = testing::validate_owned(T::form(), content, strictness)?;
    T::deserialize(valid).map_err(AnswerError::Parse)
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Text {
    #[elicit(title = "Nick", min_length = 2, max_length = 3)]
    nick: Option<String>,
    #[elicit(title = "Initial", max_length = 1)]
    initial: Option<String>,
    #[elicit(title = "Contact", format = "email", min_length = 6)]
    contact: Option<String>,
    plain: Option<String>,
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Ints {
    byte: Option<u8>,
    small: Option<i8>,
    unsigned: Option<u32>,
    big: Option<i64>,
    ubig: Option<u64>,
    #[elicit(title = "Retention days", minimum = 1, maximum = 365)]
    days: Option<u16>,
    #[elicit(minimum = -10, maximum = -5)]
    below_zero: Option<i32>,
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Nums {
    #[elicit(title = "Score", minimum = 0, maximum = 100)]
    score: Option<f64>,
    single: Option<f32>,
    #[elicit(minimum = -1.5, maximum = 1.5)]
    tilt: Option<f64>,
    free: Option<f64>,
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Formats {
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(format = "uri")]
    uri: Option<String>,
    #[elicit(format = "date")]
    date: Option<String>,
    #[elicit(format = "date-time")]
    date_time: Option<String>,
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Choices {
    #[elicit(title = "Size")]
    size: Option<Size>,
    #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
    toppings: Option<Vec<Topping>>,
    any: Option<Vec<Topping>>,
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Flags {
    #[elicit(title = "Agree")]
    agree: bool,
    #[elicit(title = "Count")]
    count: u8,
    #[elicit(title = "Ratio")]
    ratio: f64,
}

/// The problems of a rejected answer, as (wire name, problem).
fn problems<T: Elicit + std::fmt::Debug>(
    content: Value,
    strictness: Strictness,
) -> Vec<(String, Problem)> {
    match read_with::<T>(Some(&content), strictness) {
        Err(AnswerError::Invalid(errors)) => errors
            .errors()
            .iter()
            .map(|e| (e.field.to_string(), e.problem.clone()))
            .collect(),
        other => panic!("expected field problems for {content}, got {other:?}"),
    }
}

fn strict<T: Elicit + std::fmt::Debug>(content: Value) -> Vec<(String, Problem)> {
    problems::<T>(content, Strictness::Strict)
}

fn only<T: Elicit + std::fmt::Debug>(content: Value) -> Problem {
    let mut p = strict::<T>(content.clone());
    assert_eq!(p.len(), 1, "one problem for {content}: {p:?}");
    p.remove(0).1
}

fn message<T: Elicit + std::fmt::Debug>(content: Value) -> String {
    T::from_content(Some(&content)).unwrap_err().to_string()
}

fn ok<T: Elicit>(content: Value) -> T {
    match T::from_content(Some(&content)) {
        Ok(v) => v,
        Err(e) => panic!("refused {content}: {e}"),
    }
}

// --- actions ---------------------------------------------------------------------------

#[test]
fn the_three_actions() {
    let content = json!({"buckets": 2});
    let accepted = Popcorn::from_content(Some(&content))
        .map(Elicitation::Accept)
        .unwrap();
    assert_eq!(
        accepted,
        Elicitation::Accept(Popcorn {
            popcorn: false,
            size: None,
            buckets: 2
        })
    );
    assert_eq!(accepted.action().to_string(), "accept");
    // Decline and cancel carry no content; any sent is ignored, even garbage.
    for content in [
        None,
        Some(json!({"buckets": "nope"})),
        Some(json!([1])),
        Some(Value::Null),
    ] {
        assert_eq!(
            Elicitation::<Popcorn>::from_value(&json!({"action": "decline", "content": content}))
                .unwrap(),
            Elicitation::Decline
        );
        assert_eq!(
            Elicitation::<Popcorn>::from_value(&json!({"action": "cancel", "content": content}))
                .unwrap(),
            Elicitation::Cancel
        );
    }
}

#[test]
fn unknown_actions_name_the_allowed_ones() {
    for action in [
        "reject", "Accept", "ACCEPT", "accepted", "", " accept", "ok", "deny",
    ] {
        let result = json!({"action": action, "content": {"buckets": 1}});
        let err = Elicitation::<Popcorn>::from_value(&result).unwrap_err();
        assert_eq!(
            action.parse::<Action>().unwrap_err().to_string(),
            err.to_string()
        );
        assert!(
            matches!(&err, AnswerError::UnknownAction(a) if a == action),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "unknown elicitation action {action:?}: expected \"accept\", \"decline\" or \"cancel\""
            )
        );
    }
    // A huge action string is not echoed whole.
    let long = "x".repeat(100_000);
    let err = Elicitation::<Popcorn>::from_value(&json!({"action": long})).unwrap_err();
    assert!(err.to_string().len() < 200, "{}", err.to_string().len());
}

#[test]
fn whole_results() {
    let r = json!({"action": "accept", "content": {"buckets": 3}});
    assert!(matches!(
        Elicitation::<Popcorn>::from_value(&r).unwrap(),
        Elicitation::Accept(Popcorn { buckets: 3, .. })
    ));
    assert_eq!(
        Elicitation::<Popcorn>::from_value(&json!({"action": "cancel"})).unwrap(),
        Elicitation::Cancel
    );
    for (bad, text) in [
        (
            json!([]),
            "malformed elicitation result: the result is not an object",
        ),
        (
            json!("accept"),
            "malformed elicitation result: the result is not an object",
        ),
        (
            json!({}),
            "malformed elicitation result: `action` is missing or not a string",
        ),
        (
            json!({"action": 1}),
            "malformed elicitation result: `action` is missing or not a string",
        ),
        (
            json!({"action": null, "content": {}}),
            "malformed elicitation result: `action` is missing or not a string",
        ),
    ] {
        let err = Elicitation::<Popcorn>::from_value(&bad).unwrap_err();
        assert!(matches!(err, AnswerError::Malformed(_)), "{err:?}");
        assert_eq!(err.to_string(), text);
    }
    let err = Elicitation::<Popcorn>::from_value(&json!({"action": "reject"})).unwrap_err();
    assert!(matches!(err, AnswerError::UnknownAction(_)));
}

// --- content shape ---------------------------------------------------------------------

#[test]
fn accept_without_content() {
    // Missing or null content is read as an empty answer: required fields are missing...
    for content in [None, Some(Value::Null)] {
        let err = Popcorn::from_content(content.as_ref())
            .map(Elicitation::Accept)
            .unwrap_err();
        assert_eq!(err.to_string(), "buckets: an answer is required");
        let v = invalid(&err);
        assert_eq!(v.errors().len(), 1);
        assert_eq!(v.errors()[0].problem, Problem::Missing);
    }
    // ...and a form with none required is answered by its defaults.
    assert_eq!(
        Snacks::from_content(None).map(Elicitation::Accept).unwrap(),
        Elicitation::Accept(Snacks {
            popcorn: false,
            drink: None
        })
    );
}

#[test]
fn content_that_is_not_an_object() {
    for (content, found) in [
        (json!([]), "a list"),
        (json!([{"buckets": 1}]), "a list"),
        (json!("buckets"), "text"),
        (json!(1), "a number"),
        (json!(true), "a boolean"),
    ] {
        let err = Popcorn::from_content(Some(&content))
            .map(Elicitation::Accept)
            .unwrap_err();
        assert!(
            matches!(err, AnswerError::NotAnObject { found: f, .. } if f == found),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("the answer must be an object of field values, got {found}")
        );
        assert!(!matches!(err, elicit_core::AnswerError::Invalid(_)));
        let direct = Popcorn::form()
            .validate(Some(&content), Strictness::Strict)
            .unwrap_err();
        assert!(matches!(direct, AnswerError::NotAnObject { found: f, .. } if f == found));
    }
}

#[test]
fn required_fields() {
    let e = strict::<Flags>(json!({}));
    assert_eq!(
        e,
        [
            ("agree".to_owned(), Problem::Missing),
            ("count".to_owned(), Problem::Missing),
            ("ratio".to_owned(), Problem::Missing),
        ]
    );
    // null is no answer.
    let e = strict::<Flags>(json!({"agree": null, "count": 1, "ratio": 0.5}));
    assert_eq!(e, [("agree".to_owned(), Problem::Missing)]);
    assert_eq!(
        message::<Flags>(json!({"count": 1})),
        "Agree: an answer is required; Ratio: an answer is required"
    );
    // Optional fields may be absent or null.
    let t: Text = ok(json!({"nick": null}));
    assert_eq!(t.nick, None);
}

#[test]
fn wrong_types_per_kind() {
    let cases: &[(Value, &str, &str)] = &[
        (
            json!({"agree": "true", "count": 1, "ratio": 1}),
            "text",
            "Agree: expected true or false, got text",
        ),
        (
            json!({"agree": 1, "count": 1, "ratio": 1}),
            "a number",
            "Agree: expected true or false, got a number",
        ),
        (
            json!({"agree": true, "count": "1", "ratio": 1}),
            "text",
            "Count: expected a whole number, got text",
        ),
        (
            json!({"agree": true, "count": [1], "ratio": 1}),
            "a list",
            "Count: expected a whole number, got a list",
        ),
        (
            json!({"agree": true, "count": 1, "ratio": false}),
            "a boolean",
            "Ratio: expected a number, got a boolean",
        ),
        (
            json!({"agree": true, "count": 1, "ratio": {"v": 1}}),
            "an object",
            "Ratio: expected a number, got an object",
        ),
    ];
    for (content, found, text) in cases {
        match only::<Flags>(content.clone()) {
            Problem::WrongType { found: f, .. } => assert_eq!(f, *found),
            p => panic!("{p:?}"),
        }
        assert_eq!(message::<Flags>(content.clone()), *text);
    }
    assert_eq!(
        message::<Text>(json!({"nick": 12})),
        "Nick: expected text, got a number"
    );
    assert_eq!(
        message::<Text>(json!({"plain": ["a"]})),
        "plain: expected text, got a list"
    );
    assert_eq!(
        message::<Choices>(json!({"size": 1})),
        "Size: expected one of the options, got a number"
    );
    assert_eq!(
        message::<Choices>(json!({"size": ["Small"]})),
        "Size: expected one of the options, got a list"
    );
    assert_eq!(
        message::<Choices>(json!({"any": "salt"})),
        "any: expected a list of options, got text"
    );
    assert_eq!(
        message::<Choices>(json!({"any": {"salt": true}})),
        "any: expected a list of options, got an object"
    );
    assert_eq!(
        message::<Choices>(json!({"any": ["salt", 1]})),
        "any: expected a list of options, got a list with non-text items"
    );
    assert_eq!(
        message::<Choices>(json!({"any": [null]})),
        "any: expected a list of options, got a list with non-text items"
    );
}

// --- text --------------------------------------------------------------------------------

#[test]
fn lengths_count_unicode_scalar_values() {
    // "é" is 2 bytes, "👍" 4: both are one character.
    assert_eq!(
        only::<Text>(json!({"nick": "é"})),
        Problem::TooShort { min: 2, length: 1 }
    );
    assert_eq!(
        only::<Text>(json!({"nick": "👍"})),
        Problem::TooShort { min: 2, length: 1 }
    );
    assert_eq!(
        ok::<Text>(json!({"nick": "éé"})).nick.as_deref(),
        Some("éé")
    );
    assert_eq!(
        ok::<Text>(json!({"nick": "👍👍👍"})).nick.as_deref(),
        Some("👍👍👍")
    );
    assert_eq!(
        only::<Text>(json!({"nick": "👍👍👍👍"})),
        Problem::TooLong { max: 3, length: 4 }
    );
    // A combining accent is a scalar value of its own.
    assert_eq!(
        ok::<Text>(json!({"nick": "e\u{301}"})).nick.as_deref(),
        Some("e\u{301}")
    );
    assert_eq!(
        only::<Text>(json!({"initial": "e\u{301}"})),
        Problem::TooLong { max: 1, length: 2 }
    );
    assert_eq!(
        ok::<Text>(json!({"initial": "日"})).initial.as_deref(),
        Some("日")
    );
    // The empty string is an answer, and too short.
    assert_eq!(
        only::<Text>(json!({"nick": ""})),
        Problem::TooShort { min: 2, length: 0 }
    );
    assert_eq!(
        message::<Text>(json!({"nick": "a"})),
        "Nick: must be at least 2 characters"
    );
    assert_eq!(
        message::<Text>(json!({"nick": "abcd"})),
        "Nick: must be at most 3 characters"
    );
    assert_eq!(
        message::<Text>(json!({"initial": "ab"})),
        "Initial: must be at most 1 character"
    );
}

#[test]
fn formats() {
    let valid: &[(&str, &str)] = &[
        ("email", "ada@example.com"),
        ("email", "first.last+tag@sub.example.org"),
        ("uri", "https://example.com/page?q=1#top"),
        ("uri", "urn:isbn:0451450523"),
        ("uri", "mailto:ada@example.com"),
        ("date", "2025-02-01"),
        ("date", "2024-02-29"),
        ("dateTime", "2025-02-01T18:30:00Z"),
        ("dateTime", "2025-02-01T18:30:00.123+02:00"),
        ("dateTime", "2025-02-01T18:30:00-05:30"),
    ];
    for (key, value) in valid {
        let f: Formats = ok(json!({ *key: value }));
        let got = match *key {
            "email" => f.email,
            "uri" => f.uri,
            "date" => f.date,
            _ => f.date_time,
        };
        assert_eq!(got.as_deref(), Some(*value));
    }
    let invalid: &[(&str, &str, Format)] = &[
        ("email", "ada", Format::Email),
        ("email", "ada@", Format::Email),
        ("email", "@example.com", Format::Email),
        ("email", "a b@example.com", Format::Email),
        ("email", "", Format::Email),
        // The display form is a mailbox, not an e-mail address.
        ("email", "Ada <ada@example.com>", Format::Email),
        ("email", "ada@example..com", Format::Email),
        ("uri", "example.com/page", Format::Uri),
        ("uri", "/relative/path", Format::Uri),
        ("uri", "https://exa mple.com", Format::Uri),
        ("uri", "", Format::Uri),
        ("date", "2025-02-30", Format::Date),
        ("date", "2023-02-29", Format::Date),
        ("date", "2025-2-3", Format::Date),
        ("date", "25-02-03", Format::Date),
        ("date", "2025-02-01T00:00:00Z", Format::Date),
        ("date", "Feb 3", Format::Date),
        ("dateTime", "2025-02-01", Format::DateTime),
        ("dateTime", "2025-02-01T18:30:00", Format::DateTime),
        ("dateTime", "2025-02-01T25:30:00Z", Format::DateTime),
        ("dateTime", "2025-02-30T18:30:00Z", Format::DateTime),
        ("dateTime", "yesterday", Format::DateTime),
    ];
    for (key, value, format) in invalid {
        assert_eq!(
            only::<Formats>(json!({ *key: value })),
            Problem::BadFormat(*format),
            "{key} {value:?}"
        );
    }
    assert_eq!(
        message::<Formats>(json!({"email": "ada"})),
        "email: not an e-mail address"
    );
    assert_eq!(
        message::<Formats>(json!({"uri": "example.com"})),
        "uri: not an absolute URI (such as https://example.com/page)"
    );
    assert_eq!(
        message::<Formats>(json!({"date": "Feb 3"})),
        "date: not a date in the form YYYY-MM-DD (such as 2025-02-01)"
    );
    assert_eq!(
        message::<Formats>(json!({"dateTime": "now"})),
        "dateTime: not a date and time with offset (RFC 3339, such as 2025-02-01T18:30:00Z)"
    );
}

// --- numbers ------------------------------------------------------------------------------

#[test]
fn integers_within_the_rust_type() {
    let above = |max: &str| Problem::AboveMaximum {
        max: max.to_owned(),
    };
    let below = |min: &str| Problem::BelowMinimum {
        min: min.to_owned(),
    };
    assert_eq!(ok::<Ints>(json!({"byte": 255})).byte, Some(255));
    assert_eq!(ok::<Ints>(json!({"byte": 0})).byte, Some(0));
    assert_eq!(only::<Ints>(json!({"byte": 256})), above("255"));
    assert_eq!(only::<Ints>(json!({"byte": -1})), below("0"));
    assert_eq!(only::<Ints>(json!({"small": -129})), below("-128"));
    assert_eq!(only::<Ints>(json!({"small": 128})), above("127"));
    assert_eq!(only::<Ints>(json!({"unsigned": -1})), below("0"));
    assert_eq!(
        only::<Ints>(json!({"unsigned": 4_294_967_296_u64})),
        above("4294967295")
    );
    // The extremes of 64-bit types, and one past them.
    assert_eq!(ok::<Ints>(json!({"big": i64::MIN})).big, Some(i64::MIN));
    assert_eq!(ok::<Ints>(json!({"big": i64::MAX})).big, Some(i64::MAX));
    assert_eq!(
        only::<Ints>(json!({"big": i64::MAX as u64 + 1})),
        above("9223372036854775807")
    );
    assert_eq!(ok::<Ints>(json!({"ubig": u64::MAX})).ubig, Some(u64::MAX));
    assert_eq!(only::<Ints>(json!({"ubig": -1})), below("0"));
    // Beyond what a JSON integer in serde_json holds: still out of range, not "fractional".
    let past_i64_min: Value = serde_json::from_str(r#"{"big": -10000000000000000000}"#).unwrap();
    assert_eq!(only::<Ints>(past_i64_min), below("-9223372036854775808"));
    let past_u64_max: Value = serde_json::from_str(r#"{"ubig": 18446744073709551616}"#).unwrap();
    assert_eq!(only::<Ints>(past_u64_max), above("18446744073709551615"));
    let huge: Value = serde_json::from_str(r#"{"byte": 1e300}"#).unwrap();
    assert_eq!(only::<Ints>(huge), above("255"));
    // Announced bounds.
    assert_eq!(only::<Ints>(json!({"days": 0})), below("1"));
    assert_eq!(only::<Ints>(json!({"days": 366})), above("365"));
    assert_eq!(ok::<Ints>(json!({"days": 365})).days, Some(365));
    assert_eq!(only::<Ints>(json!({"below_zero": -4})), above("-5"));
    assert_eq!(only::<Ints>(json!({"below_zero": -11})), below("-10"));
    assert_eq!(
        message::<Ints>(json!({"days": 999})),
        "Retention days: must be at most 365"
    );
    assert_eq!(
        message::<Ints>(json!({"byte": -3})),
        "byte: must be at least 0"
    );
}

#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Wide {
    huge: Option<u128>,
    signed: Option<i128>,
    #[elicit(maximum = 3)]
    later: Option<u8>,
}

/// `i128`/`u128` fields take what a JSON answer carries exactly (`i64::MIN..=u64::MAX`)
/// and refuse wider numbers as out of range, the same way in `validate`, the borrowed
/// and the owned parse, and alongside other fields' problems (found by fuzzing: these
/// used to pass `validate` and then fail the typed parse).
#[test]
fn wide_integers_stop_where_json_does() {
    let form = Wide::form();
    let read = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    let ends = ok::<Wide>(read(
        r#"{"huge": 18446744073709551615, "signed": -9223372036854775808}"#,
    ));
    assert_eq!(ends.huge, Some(u128::from(u64::MAX)));
    assert_eq!(ends.signed, Some(i128::from(i64::MIN)));
    assert_eq!(
        ok::<Wide>(json!({"signed": u64::MAX})).signed,
        Some(i128::from(u64::MAX))
    );
    let above = |max: &str| Problem::AboveMaximum {
        max: max.to_owned(),
    };
    let below = |min: &str| Problem::BelowMinimum {
        min: min.to_owned(),
    };
    for (text, field, problem) in [
        (
            r#"{"huge": 18446744073709551616}"#,
            "huge",
            above("18446744073709551615"),
        ),
        (r#"{"huge": 1e20}"#, "huge", above("18446744073709551615")),
        (
            r#"{"signed": 18446744073709551616}"#,
            "signed",
            above("18446744073709551615"),
        ),
        (
            r#"{"signed": -1e19}"#,
            "signed",
            below("-9223372036854775808"),
        ),
    ] {
        let content = read(text);
        let expected = vec![(field.to_owned(), problem)];
        assert_eq!(strict::<Wide>(content.clone()), expected, "{text}");
        let listed: Vec<_> = match form.validate(Some(&content), Strictness::Strict) {
            Err(AnswerError::Invalid(errors)) => errors
                .errors()
                .iter()
                .map(|e| (e.field.to_string(), e.problem.clone()))
                .collect(),
            other => panic!("validate {text}: {other:?}"),
        };
        assert_eq!(listed, expected, "validate {text}");
        assert!(
            matches!(
                read_owned_with::<Wide>(Some(content), Strictness::Strict),
                Err(AnswerError::Invalid(_))
            ),
            "owned {text}"
        );
    }
    // Before: the wide value slipped through, and the parse error hid `later`'s problem.
    assert_eq!(
        strict::<Wide>(read(r#"{"huge": 1e20, "later": 9}"#)),
        [
            ("huge".to_owned(), above("18446744073709551615")),
            ("later".to_owned(), above("3")),
        ]
    );
    // Lenient reads text as a number, and holds it to the same range.
    assert_eq!(
        problems::<Wide>(json!({"huge": "18446744073709551616"}), Strictness::Lenient),
        [("huge".to_owned(), above("18446744073709551615"))]
    );
    // The schema still announces only `minimum: 0`, as for `u64`.
    let schema = serde_json::to_value(
        form.requested_schema(elicit_core::Revision::V2025_11_25)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        schema["properties"]["huge"],
        json!({"type": "integer", "minimum": 0})
    );
}

#[test]
fn integers_are_whole() {
    assert_eq!(only::<Ints>(json!({"byte": 1.5})), Problem::NotWhole);
    assert_eq!(
        message::<Ints>(json!({"days": 2.5})),
        "Retention days: must be a whole number"
    );
    // JSON Schema's `integer` takes a whole float (`1.0`), in both modes.
    let whole = ok::<Ints>(json!({"byte": 1.0, "big": -3.0}));
    assert_eq!((whole.byte, whole.big), (Some(1), Some(-3)));
    // Out of range says more than "whole" about a whole float.
    assert_eq!(
        only::<Ints>(json!({"byte": 300.0})),
        Problem::AboveMaximum {
            max: "255".to_owned()
        }
    );
    let lenient = read_with::<Ints>(
        Some(&json!({"byte": 1.0, "big": -3.0})),
        Strictness::Lenient,
    )
    .unwrap();
    assert_eq!((lenient.byte, lenient.big), (Some(1), Some(-3)));
    assert_eq!(
        problems::<Ints>(json!({"byte": 1.5}), Strictness::Lenient),
        [("byte".to_owned(), Problem::NotWhole)]
    );
}

#[test]
fn number_bounds() {
    let above = |max: &str| Problem::AboveMaximum {
        max: max.to_owned(),
    };
    let below = |min: &str| Problem::BelowMinimum {
        min: min.to_owned(),
    };
    assert_eq!(ok::<Nums>(json!({"score": 95.5})).score, Some(95.5));
    assert_eq!(ok::<Nums>(json!({"score": 0})).score, Some(0.0));
    assert_eq!(ok::<Nums>(json!({"score": 100})).score, Some(100.0));
    assert_eq!(only::<Nums>(json!({"score": -0.1})), below("0"));
    assert_eq!(only::<Nums>(json!({"score": 100.01})), above("100"));
    assert_eq!(only::<Nums>(json!({"tilt": -1.6})), below("-1.5"));
    assert_eq!(only::<Nums>(json!({"tilt": 1.6})), above("1.5"));
    assert_eq!(
        message::<Nums>(json!({"score": 101})),
        "Score: must be at most 100"
    );
    assert_eq!(
        message::<Nums>(json!({"tilt": -2})),
        "tilt: must be at least -1.5"
    );
    // An f32 field refuses what an f32 cannot hold.
    assert_eq!(ok::<Nums>(json!({"single": 3.4e38})).single, Some(3.4e38));
    assert_eq!(
        only::<Nums>(json!({"single": 3.5e38})),
        Problem::AboveMaximum {
            max: "3.4028235e38".to_owned()
        }
    );
    assert!(matches!(
        only::<Nums>(json!({"single": -1e39})),
        Problem::BelowMinimum { .. }
    ));
    // An f64 takes anything JSON can write.
    assert_eq!(ok::<Nums>(json!({"free": 1e308})).free, Some(1e308));
    assert_eq!(ok::<Nums>(json!({"free": -1e308})).free, Some(-1e308));
    assert_eq!(
        ok::<Nums>(json!({"free": u64::MAX})).free,
        Some(u64::MAX as f64)
    );
}

// --- options -------------------------------------------------------------------------------

#[test]
fn select_membership() {
    assert_eq!(
        ok::<Choices>(json!({"size": "Medium"})).size,
        Some(Size::Medium)
    );
    for bad in ["medium", "Medium (M)", "", " Medium", "Huge"] {
        assert_eq!(
            only::<Choices>(json!({"size": bad})),
            Problem::NotAnOption {
                value: bad.to_owned()
            }
        );
    }
    assert_eq!(
        message::<Choices>(json!({"size": "Huge"})),
        "Size: \"Huge\" is not one of the options"
    );
}

#[test]
fn multi_select_items() {
    let c: Choices = ok(json!({"toppings": ["salt", "butter"], "any": []}));
    assert_eq!(c.toppings, Some(vec![Topping::Salt, Topping::Butter]));
    assert_eq!(c.any, Some(vec![]));
    assert_eq!(
        only::<Choices>(json!({"toppings": []})),
        Problem::TooFewItems { min: 1, count: 0 }
    );
    assert_eq!(
        only::<Choices>(json!({"toppings": ["salt", "butter", "caramel"]})),
        Problem::TooManyItems { max: 2, count: 3 }
    );
    assert_eq!(
        only::<Choices>(json!({"toppings": ["salt", "salt"]})),
        Problem::Duplicate {
            value: "salt".to_owned()
        }
    );
    assert_eq!(
        only::<Choices>(json!({"toppings": ["mint"]})),
        Problem::NotAnOption {
            value: "mint".to_owned()
        }
    );
    // Each repeated or unknown value is named once, however often it is sent.
    assert_eq!(
        strict::<Choices>(json!({"any": ["salt", "salt", "salt", "mint", "mint", "butter"]})),
        [
            (
                "any".to_owned(),
                Problem::Duplicate {
                    value: "salt".to_owned()
                }
            ),
            (
                "any".to_owned(),
                Problem::NotAnOption {
                    value: "mint".to_owned()
                }
            ),
        ]
    );
    assert_eq!(
        message::<Choices>(json!({"toppings": []})),
        "Toppings: choose at least 1 option"
    );
    assert_eq!(
        message::<Choices>(json!({"toppings": ["salt", "butter", "caramel"]})),
        "Toppings: choose at most 2 options"
    );
    assert_eq!(
        message::<Choices>(json!({"toppings": ["butter", "butter"]})),
        "Toppings: \"butter\" is chosen more than once"
    );
    // Titles are not values.
    assert!(Choices::from_content(Some(&json!({"any": ["Butter"]}))).is_err());
    // A flood of made-up or repeated values gets a few reports, not one per value.
    let flood: Vec<String> = (0..100_000).map(|i| format!("made-up {i}")).collect();
    let reported = strict::<Choices>(json!({ "any": flood }));
    // At most ten reports for one multi-select.
    assert_eq!(reported.len(), 10);
    assert_eq!(
        reported[0].1,
        Problem::NotAnOption {
            value: "made-up 0".to_owned()
        }
    );
    let repeats: Vec<&str> = ["salt"; 100_000].to_vec();
    assert_eq!(strict::<Choices>(json!({ "any": repeats })).len(), 1);
}

// --- defaults, extra keys, several problems ---------------------------------------------------

#[test]
fn defaults_fill_missing_fields() {
    let e: Everything = ok(json!({"email": "ada@example.com", "count": 7}));
    assert_eq!(e.name, "Ada");
    assert_eq!(e.age, 30);
    assert_eq!(e.score, 95.5);
    assert!(e.verified);
    assert_eq!(e.size, Size::Medium);
    assert_eq!(e.toppings, [Topping::Butter]);
    assert_eq!(
        (e.homepage, e.arrival, e.ratio, e.legacy_size),
        (None, None, None, None)
    );
    // null is a missing answer, so it takes the default too.
    let e: Everything =
        ok(json!({"email": "ada@example.com", "count": 7, "name": null, "verified": null}));
    assert_eq!((e.name.as_str(), e.verified), ("Ada", true));
    // A value sent wins over the default.
    let e: Everything =
        ok(json!({"email": "a@b.co", "count": 0, "verified": false, "toppings": ["salt"]}));
    assert!(!e.verified);
    assert_eq!(e.toppings, [Topping::Salt]);
    let p: PurgeApproval = ok(json!({"confirm": true, "approver": "ops@example.com"}));
    assert_eq!(p.retention_days, 30);
}

#[test]
fn unknown_keys_are_ignored() {
    let p: Popcorn = ok(json!({
        "buckets": 1, "extra": {"nested": [1, 2, 3]}, "popcorn ": true, "BUCKETS": 9, "": null
    }));
    assert_eq!(
        p,
        Popcorn {
            popcorn: false,
            size: None,
            buckets: 1
        }
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    // Two problems on one field, and problems on three fields, in field order.
    let e = strict::<Text>(json!({"contact": "a b", "nick": "a", "plain": 1}));
    assert_eq!(
        e,
        [
            ("nick".to_owned(), Problem::TooShort { min: 2, length: 1 }),
            (
                "contact".to_owned(),
                Problem::TooShort { min: 6, length: 3 }
            ),
            ("contact".to_owned(), Problem::BadFormat(Format::Email)),
            (
                "plain".to_owned(),
                Problem::WrongType {
                    expected: "text",
                    found: "a number"
                }
            ),
        ]
    );
    let err =
        Text::from_content(Some(&json!({"contact": "a b", "nick": "a", "plain": 1}))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nick: must be at least 2 characters; Contact: must be at least 6 characters; \
         Contact: not an e-mail address; plain: expected text, got a number"
    );
    let v = invalid(&err);
    assert_eq!(
        v.errors().iter().filter(|e| e.field == "contact").count(),
        2
    );
    assert_eq!(
        v.errors().iter().filter(|e| e.field == "initial").count(),
        0
    );
    assert!(!v.errors().is_empty());
    assert_eq!(v.errors()[1].label, "Contact");
    // The purge example's message, as a user would be shown it.
    let bad = json!({"confirm": "yes", "approver": "not an address", "retention_days": 9999});
    assert_eq!(
        PurgeApproval::from_content(Some(&bad))
            .unwrap_err()
            .to_string(),
        "I understand the logs are deleted for good: expected true or false, got text; \
         Approver's e-mail: not an e-mail address; Retention days: must be at most 3650"
    );
}

// --- strictness -----------------------------------------------------------------------------

#[test]
fn lenient_coerces_what_clients_send() {
    let lenient = |content: Value| read_with::<Flags>(Some(&content), Strictness::Lenient);
    assert_eq!(
        lenient(json!({"agree": "true", "count": "5", "ratio": "2.5"})).unwrap(),
        Flags {
            agree: true,
            count: 5,
            ratio: 2.5
        }
    );
    assert_eq!(
        lenient(json!({"agree": "FALSE", "count": " 7 ", "ratio": "3"})).unwrap(),
        Flags {
            agree: false,
            count: 7,
            ratio: 3.0
        }
    );
    assert_eq!(
        lenient(json!({"agree": true, "count": 4.0, "ratio": 1}))
            .unwrap()
            .count,
        4
    );
    // Coerced values are checked like any other.
    let e = problems::<Flags>(
        json!({"agree": "yes", "count": "300", "ratio": "abc"}),
        Strictness::Lenient,
    );
    assert_eq!(
        e,
        [
            (
                "agree".to_owned(),
                Problem::WrongType {
                    expected: "true or false",
                    found: "text"
                }
            ),
            (
                "count".to_owned(),
                Problem::AboveMaximum {
                    max: "255".to_owned()
                }
            ),
            (
                "ratio".to_owned(),
                Problem::WrongType {
                    expected: "a number",
                    found: "text"
                }
            ),
        ]
    );
    // No NaN or infinity through the back door.
    for s in ["NaN", "inf", "-Infinity", "1e999", ""] {
        assert!(
            lenient(json!({"agree": true, "count": 1, "ratio": s})).is_err(),
            "{s}"
        );
    }
    // Leniency does not turn numbers into text or options.
    assert!(read_with::<Text>(Some(&json!({"plain": 5})), Strictness::Lenient).is_err());
    assert!(read_with::<Choices>(Some(&json!({"size": 0})), Strictness::Lenient).is_err());
    let content = json!({"buckets": "2", "popcorn": "true"});
    assert_eq!(
        read_with::<Popcorn>(Some(&content), Strictness::Lenient).unwrap(),
        Popcorn {
            popcorn: true,
            size: None,
            buckets: 2
        }
    );
}

#[test]
fn strict_refuses_coercions() {
    let e = strict::<Flags>(json!({"agree": "true", "count": "5", "ratio": "2.5"}));
    assert_eq!(
        e,
        [
            (
                "agree".to_owned(),
                Problem::WrongType {
                    expected: "true or false",
                    found: "text"
                }
            ),
            (
                "count".to_owned(),
                Problem::WrongType {
                    expected: "a whole number",
                    found: "text"
                }
            ),
            (
                "ratio".to_owned(),
                Problem::WrongType {
                    expected: "a number",
                    found: "text"
                }
            ),
        ]
    );
    assert_eq!(Strictness::default(), Strictness::Strict);
    assert!(
        Popcorn::from_content(Some(&json!({"buckets": "2"})))
            .map(Elicitation::Accept)
            .is_err()
    );
}

// --- hostile input ----------------------------------------------------------------------------

fn nested(depth: usize) -> Value {
    let mut v = json!("bottom");
    for i in 0..depth {
        v = if i % 2 == 0 {
            json!([v])
        } else {
            json!({ "k": v })
        };
    }
    v
}

#[test]
fn deep_nesting_does_not_panic() {
    // Far deeper than the 128 levels serde_json parses from text (a `Value` this deep
    // is the most a client can send); `Value`'s own drop limits how deep a test can go.
    let deep = nested(500);
    // As a field's value: a wrong type, found at the top.
    for key in ["nick", "plain"] {
        let mut content = json!({});
        content[key] = deep.clone();
        assert!(matches!(only::<Text>(content), Problem::WrongType { .. }));
    }
    let c = json!({"any": [deep.clone()], "size": deep.clone()});
    assert_eq!(strict::<Choices>(c).len(), 2);
    // As an unknown key, ignored.
    let p: Popcorn = ok(json!({"buckets": 1, "junk": deep}));
    assert_eq!(p.buckets, 1);
    // As the answer itself.
    assert!(Popcorn::from_content(Some(&nested(501))).is_err());
    // Text too deep for serde_json is refused before it reaches a form.
    let text = "[".repeat(100_000);
    assert!(serde_json::from_str::<Value>(&text).is_err());
}

#[test]
fn huge_inputs_do_not_panic_or_echo() {
    let huge = "é".repeat(1_000_000);
    assert_eq!(
        only::<Text>(json!({"nick": huge})),
        Problem::TooLong {
            max: 3,
            length: 1_000_000
        }
    );
    let err = message::<Text>(json!({"contact": huge}));
    assert!(err.len() < 200, "{}", err.len());
    // An option that is not one is echoed, cut short.
    let err = Choices::from_content(Some(&json!({"size": huge}))).unwrap_err();
    let text = err.to_string();
    assert!(text.chars().count() < 100 && text.contains('…'), "{text}");
    // A huge list is refused by its count; one without a bound, by its items.
    let many: Vec<&str> = vec!["salt"; 200_000];
    assert_eq!(
        only::<Choices>(json!({"toppings": many})),
        Problem::TooManyItems {
            max: 2,
            count: 200_000
        }
    );
    assert_eq!(
        strict::<Choices>(json!({"any": many})),
        [(
            "any".to_owned(),
            Problem::Duplicate {
                value: "salt".to_owned()
            }
        )]
    );
    // Many unknown keys.
    let mut content = serde_json::Map::new();
    for i in 0..100_000 {
        content.insert(format!("k{i}"), json!(i));
    }
    content.insert("buckets".into(), json!(4));
    let p: Popcorn = ok(Value::Object(content));
    assert_eq!(p.buckets, 4);
    // Every odd number and string shape, on every kind, never panics.
    let odd = [
        json!(null),
        json!(-0.0),
        json!(f64::MAX),
        json!(f64::MIN_POSITIVE),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(""),
        json!("\u{0}"),
        json!("\u{FFFD}"),
        json!([]),
        json!({}),
        json!([[]]),
        json!(["\u{0}"]),
    ];
    for v in &odd {
        for key in ["agree", "count", "ratio"] {
            let mut c = json!({"agree": true, "count": 1, "ratio": 1});
            c[key] = v.clone();
            for s in [Strictness::Strict, Strictness::Lenient] {
                let _ = read_with::<Flags>(Some(&c), s);
            }
        }
        for s in [Strictness::Strict, Strictness::Lenient] {
            let _ = read_with::<Everything>(
                Some(&json!({"email": v, "count": v, "toppings": v, "size": v})),
                s,
            );
            let _ = read_with::<Ints>(Some(&json!({"byte": v, "big": v, "ubig": v})), s);
            let _ = read_with::<Formats>(
                Some(&json!({"email": v, "uri": v, "date": v, "dateTime": v})),
                s,
            );
        }
    }
}

// --- borrowed and owned answers read alike ----------------------------------------------------

/// `from_content` (borrowed) and `from_content_owned` give the same value or the same
/// error, and `Form::validate` and `Form::validate_owned` the same answer, for good and
/// bad answers alike.
fn agrees<T: Elicit + PartialEq + std::fmt::Debug>(contents: &[Value]) {
    for strictness in [Strictness::Strict, Strictness::Lenient] {
        for content in contents.iter().map(Some).chain([None]) {
            let borrowed = read_with::<T>(content, strictness);
            let owned = read_owned_with::<T>(content.cloned(), strictness);
            assert_eq!(
                format!("{owned:?}"),
                format!("{borrowed:?}"),
                "owned and borrowed content read alike: {content:?}"
            );
            let valid = T::form().validate(content, strictness);
            let valid_owned = testing::validate_owned(T::form(), content.cloned(), strictness);
            match (&valid, &valid_owned) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(&**a, b, "{content:?}");
                    // Only the form's fields reach `Deserialize`, never a `null`.
                    let map = b.as_object().expect("an object");
                    assert!(
                        map.iter()
                            .all(|(k, v)| !v.is_null() && T::form().field(k).is_some()),
                        "{map:?}"
                    );
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{content:?}"),
                _ => panic!("{content:?} ({strictness:?}): {valid:?} against {valid_owned:?}"),
            }
        }
    }
}

#[test]
fn borrowed_and_owned_answers_read_alike() {
    agrees::<Ints>(&[
        json!({}),
        json!({"byte": 3, "small": -4, "unsigned": 7, "big": -9, "ubig": 10, "days": 30}),
        json!({"byte": 1.0, "days": "30", "below_zero": -7}),
        json!({"byte": 256, "days": 0, "below_zero": 1, "extra": [1, 2]}),
        json!({"byte": "x", "small": true, "big": 1.5}),
        json!({"byte": null, "days": null}),
        json!([1, 2]),
        json!("text"),
        Value::Null,
    ]);
    agrees::<Nums>(&[
        json!({"score": 50, "single": 1.5, "tilt": -1, "free": 1e300}),
        json!({"score": "50", "tilt": "0.5"}),
        json!({"score": 101, "single": 1e39, "tilt": -2}),
    ]);
    agrees::<Formats>(&[
        json!({"email": "ada@example.com", "uri": "https://x.org", "date": "2025-02-03", "dateTime": "2025-02-03T10:00:00Z"}),
        json!({"email": "nope", "uri": "x", "date": "2025-13-01", "dateTime": "soon"}),
        json!({"date_time": "2025-02-03T10:00:00Z", "EMAIL": "x"}),
    ]);
    agrees::<Choices>(&[
        json!({"size": "Small", "toppings": ["butter"], "any": []}),
        json!({"size": "Huge", "toppings": [], "any": ["butter", "butter"]}),
        json!({"toppings": ["butter", "salt", "caramel"], "any": [1]}),
        json!({"size": ["Small"], "toppings": "butter"}),
    ]);
    agrees::<Popcorn>(&[
        json!({}),
        json!({"popcorn": true, "size": "Large", "buckets": 2}),
        json!({"popcorn": "yes", "buckets": 9}),
        json!({"popcorn": false, "buckets": 1, "unknown": {"deep": [1]}}),
    ]);
    agrees::<Everything>(&[json!({}), json!({"anything": 1})]);
    agrees::<Confirmish>(&[
        json!({"ok": true, "why": "because"}),
        json!({"ok": true}),
        json!({"why": "because"}),
        json!({"ok": true, "why": null}),
        json!({"ok": "true"}),
    ]);
    agrees::<Closed>(&[
        json!({"name": "Ada"}),
        json!({"name": "Ada", "extra": true}),
        json!({"extra": true}),
    ]);
}

/// A required field and an optional one: clean answers with and without the optional.
#[derive(Debug, PartialEq, Elicit, Deserialize)]
struct Confirmish {
    ok: bool,
    why: Option<String>,
}

/// Unknown keys are ignored even for a type that denies them: the form decides.
#[derive(Debug, PartialEq, Elicit, Deserialize)]
#[serde(deny_unknown_fields)]
struct Closed {
    name: String,
}

/// The field problems of an answer refused for them.
fn invalid(e: &elicit_core::AnswerError) -> &elicit_core::ValidationErrors {
    match e {
        elicit_core::AnswerError::Invalid(v) => v,
        other => panic!("not a validation error: {other}"),
    }
}
