//! What `read` makes of a body: the action, the typed answer, and every hostile body
//! refused with a problem, never a panic.

use serde_json::json;

use super::{choices, every_kind, multi, select, text, with_defaults};
use crate::answer::{AnswerError, Problem};
use crate::form::{Field, FieldKind, Form, Format};
use crate::web::{Submission, read};

/// What a browser posts for every kind, filled in.
const FILLED: &str = "token=t&f.name=Ada+L%C3%B6w&f.email=ada%40example.com&f.site=https%3A%2F%2Fexample.com%2F\
    &f.day=2025-02-03&f.at=2025-02-03T18%3A30&f.copies=3&f.score=95.5&s.agree=1&f.agree=true\
    &f.size=l&f.city=c&s.toppings=1&f.toppings=ham&f.toppings=corn&action=accept";

fn accepted(form: &Form, body: &str) -> serde_json::Value {
    match read(form, body.as_bytes()) {
        Submission::Accept(answer) => answer,
        other => panic!("{body}: {other:?}"),
    }
}

/// The problems of a refused body, as (field, problem).
fn problems(form: &Form, body: &[u8]) -> Vec<(String, Problem)> {
    match read(form, body) {
        Submission::Refused {
            error: AnswerError::Invalid(errors),
            ..
        } => errors
            .into_iter()
            .map(|e| (e.field.into_owned(), e.problem))
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// A body refused as a whole: the reason, for the logs.
fn malformed(form: &Form, body: &[u8]) -> String {
    match read(form, body) {
        Submission::Refused { error, .. } if !matches!(error, AnswerError::Invalid(_)) => {
            error.to_string()
        }
        other => panic!("{other:?}"),
    }
}

/// Each value is typed by its field's kind; the caller's own names are left alone.
#[test]
fn accept_is_typed_by_kind() {
    assert_eq!(
        accepted(&every_kind(), FILLED),
        json!({
            "name": "Ada Löw", "email": "ada@example.com", "site": "https://example.com/",
            "day": "2025-02-03", "at": "2025-02-03T18:30:00Z", "copies": 3, "score": 95.5,
            "agree": true, "size": "l", "city": "c", "toppings": ["ham", "corn"]
        })
    );
}

/// Unticked boxes with their markers are false and an empty list; empty optional
/// controls are left out; seconds of a date and time are kept.
#[test]
fn empty_controls() {
    let body = "f.name=Ada&f.email=&f.site=&f.day=&f.at=2025-02-03T18%3A30%3A15.5&f.copies=1&f.score=\
                &s.agree=1&f.size=s&f.city=&s.toppings=1&action=accept";
    assert_eq!(
        accepted(&every_kind(), body),
        json!({"name": "Ada", "at": "2025-02-03T18:30:15.5Z", "copies": 1, "agree": false, "size": "s"})
    );
    // A group needing some, on an optional field, ticked none: unanswered. Not needing
    // any: an empty list.
    let form = Form::new(vec![Field::new("t", false, multi(&["a"], None, None))]).unwrap();
    assert_eq!(accepted(&form, "s.t=1&action=accept"), json!({"t": []}));
}

/// Fields left out get their defaults; unticking a default is an answer.
#[test]
fn defaults_fill_what_was_left_out() {
    assert_eq!(
        accepted(&with_defaults(), "action=accept"),
        json!({"name": "Ada", "at": "2025-02-03T18:30:05+01:00", "copies": 3, "score": 95.5,
               "agree": true, "size": "m", "city": "f", "toppings": ["egg", "corn"]})
    );
    let answer = accepted(
        &with_defaults(),
        "f.name=&s.agree=1&s.toppings=1&f.size=&action=accept",
    );
    assert_eq!(
        (
            &answer["name"],
            &answer["agree"],
            &answer["toppings"],
            &answer["size"]
        ),
        (&json!("Ada"), &json!(false), &json!([]), &json!("m"))
    );
}

/// Decline and cancel need nothing filled in, whatever the fields hold.
#[test]
fn decline_and_cancel_without_filling() {
    let form = every_kind();
    assert!(matches!(
        read(&form, b"action=decline"),
        Submission::Decline
    ));
    assert!(matches!(read(&form, b"action=cancel"), Submission::Cancel));
    assert!(matches!(
        read(&form, b"f.copies=abc&f.size=zzz&f.nope=1&action=decline"),
        Submission::Decline
    ));
    // Required fields left empty, accepted: each is missing.
    let missing = problems(&form, b"f.name=&f.copies=&s.agree=1&action=accept");
    let names: Vec<&str> = missing.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(names, ["name", "copies", "size"]);
    assert!(missing.iter().all(|(_, p)| *p == Problem::Missing));
    // A checkbox that was never on the page (no marker): missing, not false.
    assert_eq!(
        problems(&form, b"f.name=Ada&f.copies=2&f.size=s&action=accept"),
        [("agree".to_owned(), Problem::Missing)]
    );
}

/// The action: one of three, exactly once.
#[test]
fn action_must_be_one_of_three() {
    let form = every_kind();
    assert_eq!(
        malformed(&form, FILLED.replace("&action=accept", "").as_bytes()),
        "malformed elicitation result: the answer has no action"
    );
    assert!(malformed(&form, b"action=reject").contains("unknown elicitation action \"reject\""));
    assert!(malformed(&form, b"action=ACCEPT").contains("unknown elicitation action"));
    assert!(malformed(&form, b"action=decline&action=accept").contains("two actions"));
    assert!(malformed(&form, b"action=accept&action=accept").contains("two actions"));
    // What was typed is kept for the page.
    match read(&form, b"f.name=Ada&action=nope") {
        Submission::Refused { entered, .. } => {
            assert_eq!(entered.values("name"), Some(&["Ada".to_owned()][..]))
        }
        other => panic!("{other:?}"),
    }
}

/// Names and values no page of this form sends.
#[test]
fn hostile_bodies_are_refused() {
    let form = every_kind();
    let with = |extra: &str| format!("{FILLED}&{extra}");
    // A field the form does not have, or a marker for one that takes none.
    assert!(malformed(&form, with("f.admin=1").as_bytes()).contains("a field the form lacks"));
    assert!(malformed(&form, with("s.name=1").as_bytes()).contains("a field the form lacks"));
    assert!(malformed(&form, with("s.ghost=1").as_bytes()).contains("a field the form lacks"));
    // Names that are not the page's own are the caller's: ignored.
    assert!(matches!(
        read(&form, with("admin=1&x.y=2").as_bytes()),
        Submission::Accept(_)
    ));
}

/// Values no control of the page sends: repeated, not an option, of the wrong type.
#[test]
fn hostile_values_are_the_fields_problems() {
    let form = every_kind();
    let with = |extra: &str| format!("{FILLED}&{extra}");
    // A value repeated where one is sent, and one that is not an option.
    let wrong = problems(&form, with("f.copies=4&f.size=s&f.city=zz").as_bytes());
    assert_eq!(
        wrong,
        [
            (
                "copies".to_owned(),
                Problem::WrongType {
                    expected: "a whole number",
                    found: "a list"
                }
            ),
            (
                "size".to_owned(),
                Problem::WrongType {
                    expected: "one of the options",
                    found: "a list"
                }
            ),
            (
                "city".to_owned(),
                Problem::WrongType {
                    expected: "one of the options",
                    found: "a list"
                }
            ),
        ]
    );
    let body = FILLED
        .replace("f.city=c", "f.city=zz")
        .replace("f.toppings=corn", "f.toppings=ham");
    assert_eq!(
        problems(&form, body.as_bytes()),
        [
            (
                "city".to_owned(),
                Problem::NotAnOption { value: "zz".into() }
            ),
            (
                "toppings".to_owned(),
                Problem::Duplicate {
                    value: "ham".into()
                }
            ),
        ]
    );
    // Wrong types: text for numbers and a checkbox.
    let body = FILLED
        .replace("f.copies=3", "f.copies=abc")
        .replace("f.score=95.5", "f.score=1e999")
        .replace("f.agree=true", "f.agree=yes");
    let found: Vec<String> = problems(&form, body.as_bytes())
        .into_iter()
        .map(|(f, p)| format!("{f}: {p}"))
        .collect();
    assert_eq!(
        found,
        [
            "copies: expected a whole number, got text",
            "score: expected a number, got text",
            "agree: expected true or false, got text"
        ]
    );
    let body = FILLED.replace("f.copies=3", "f.copies=2.5");
    assert_eq!(
        problems(&form, body.as_bytes()),
        [("copies".to_owned(), Problem::NotWhole)]
    );
}

/// Size limits: the whole body, and each value.
#[test]
fn oversized_input_is_refused() {
    let form = every_kind();
    let huge = format!("{FILLED}&pad={}", "x".repeat(1 << 20));
    assert!(malformed(&form, huge.as_bytes()).contains("larger than the page sends"));
    // A value past the cap, counted in characters.
    let long = FILLED.replace(
        "f.name=Ada+L%C3%B6w",
        &format!("f.name={}", "%C3%B6".repeat(16_385)),
    );
    assert_eq!(
        problems(&form, long.as_bytes()),
        [(
            "name".to_owned(),
            Problem::TooLong {
                max: 16_384,
                length: 16_385
            }
        )]
    );
    let fits = FILLED.replace(
        "f.name=Ada+L%C3%B6w",
        &format!("f.name={}", "%C3%B6".repeat(40)),
    );
    assert!(matches!(
        read(&form, fits.as_bytes()),
        Submission::Accept(_)
    ));
    // The cap is the field's own when that is longer; the maxLength still holds.
    let field = Field::new(
        "essay",
        true,
        FieldKind::String {
            format: None,
            min_length: None,
            max_length: Some(20_000),
            default: None,
        },
    );
    let essay = Form::new(vec![field]).unwrap();
    assert!(matches!(
        read(
            &essay,
            format!("f.essay={}&action=accept", "a".repeat(20_000)).as_bytes()
        ),
        Submission::Accept(_)
    ));
    assert_eq!(
        problems(
            &essay,
            format!("f.essay={}&action=accept", "a".repeat(20_001)).as_bytes()
        ),
        [(
            "essay".to_owned(),
            Problem::TooLong {
                max: 20_000,
                length: 20_001
            }
        )]
    );
    // A flood of repeats of a group's values is cut short, and refused.
    let flood = format!("{FILLED}{}", "&f.toppings=egg".repeat(10_000));
    match read(&form, flood.as_bytes()) {
        Submission::Refused {
            entered,
            error: AnswerError::Invalid(_),
        } => assert!(entered.values("toppings").is_some_and(|v| v.len() == 4)),
        other => panic!("{other:?}"),
    }
}

/// Bytes that are not UTF-8, raw or percent-encoded, and other oddities never panic.
#[test]
fn bytes_that_are_not_text() {
    let form = every_kind();
    for body in [
        &b"f.name=%FF&action=accept"[..],
        b"f.name=\xff&action=accept",
        b"f.%C3=1&action=accept",
        b"action=acc%E9pt",
    ] {
        assert!(malformed(&form, body).contains("not UTF-8"), "{body:?}");
    }
    for body in [
        &b""[..],
        b"&&&",
        b"=",
        b"%",
        b"%%%41",
        b"action",
        b"f.=1&action=accept",
        b"action=%00",
    ] {
        assert!(
            matches!(read(&form, body), Submission::Refused { .. }),
            "{body:?}"
        );
    }
    // A replacement character that was typed is text like any other.
    let typed = FILLED.replace("f.name=Ada+L%C3%B6w", "f.name=A%EF%BF%BDa");
    assert_eq!(accepted(&form, &typed)["name"], "A\u{fffd}a");
}

/// A date and time typed with an offset (a browser without the control) is kept; one
/// that is neither is judged by the validator.
#[test]
fn dates_and_times() {
    let form = Form::new(vec![Field::new("at", true, text(Some(Format::DateTime)))]).unwrap();
    assert_eq!(
        accepted(
            &form,
            "f.at=2025-02-03T18%3A30%3A00%2B01%3A00&action=accept"
        )["at"],
        "2025-02-03T18:30:00+01:00"
    );
    assert_eq!(
        problems(&form, b"f.at=2025-02-03T18%3A3&action=accept"),
        [("at".to_owned(), Problem::BadFormat(Format::DateTime))]
    );
    assert_eq!(
        problems(&form, b"f.at=2025-02-30T18%3A30&action=accept"),
        [("at".to_owned(), Problem::BadFormat(Format::DateTime))]
    );
    assert_eq!(
        problems(&form, b"f.at=2025-02-03T18%3A30%3A1&action=accept"),
        [("at".to_owned(), Problem::BadFormat(Format::DateTime))]
    );
    let sizes = Form::new(vec![Field::new("s", true, select(choices(&["a"]), None))]).unwrap();
    assert_eq!(accepted(&sizes, "f.s=a&action=accept"), json!({"s": "a"}));
}

/// Pieces a hostile body is made of: the page's own names, values of every kind, and
/// the bytes that trip decoders.
fn piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("action=".to_owned()),
        Just("f.".to_owned()),
        Just("s.".to_owned()),
        prop::sample::select(vec![
            "name",
            "copies",
            "score",
            "agree",
            "size",
            "toppings",
            "at",
            "city",
            "accept",
            "decline",
            "true",
            "ham",
            "%",
            "%FF",
            "%C3",
            "%C3%B6",
            "+",
            "=",
            "&",
            "\u{fffd}",
            "2025-02-03T18%3A30",
            "1e999",
            "-0",
            "",
        ])
        .prop_map(str::to_owned),
        "[ -~]{0,8}",
    ]
}

proptest::proptest! {
    /// Whatever the body, `read` answers, and the page it leads to renders: what was
    /// refused as a field's problem names a field of the form.
    #[test]
    fn any_body_is_read_without_panic(
        pieces in proptest::collection::vec(piece(), 0..24),
        raw in proptest::collection::vec(proptest::num::u8::ANY, 0..64),
    ) {
        let form = every_kind();
        for body in [pieces.concat().into_bytes(), raw] {
            match read(&form, &body) {
                Submission::Refused { entered, error } => {
                    if let AnswerError::Invalid(errors) = &error {
                        proptest::prop_assert!(errors.errors().iter().all(|e| form.field(&e.field).is_some()));
                    }
                    let view = crate::web::View::Refused { form: &form, entered: &entered, error: &error };
                    let html = crate::web::Page::new("", "/").render(&view);
                    proptest::prop_assert!(html.contains("There is a problem"));
                }
                Submission::Accept(answer) => {
                    proptest::prop_assert!(form.validate(Some(&answer), crate::answer::Strictness::Strict).is_ok());
                }
                _ => {}
            }
        }
    }
}
