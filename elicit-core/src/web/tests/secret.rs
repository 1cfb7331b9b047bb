//! A secret field on the page: a password input, never filled in, never written back
//! after a refused answer, never kept in what was typed.

use serde_json::json;

use super::tag;
use crate::answer::{AnswerError, Problem};
use crate::form::{Field, FieldKind, Form, Format};
use crate::web::{Entered, Page, Submission, View, read};

/// What the person types as the secret in every body below.
const TYPED: &str = "hunter2-correct-horse";

/// A user name (at least 2 characters) and a secret PIN (at least 8), both required.
fn sign_in() -> Form {
    let text = |min_length| FieldKind::String {
        format: None,
        min_length: Some(min_length),
        max_length: None,
        default: None,
    };
    let mut pin = Field::new("pin", true, text(8)).with_title("PIN");
    pin.secret = true;
    Form::new(vec![Field::new("user", true, text(2)), pin]).expect("a valid form")
}

fn refused(form: &Form, body: &str) -> (Entered, AnswerError) {
    match read(form, body.as_bytes()) {
        Submission::Refused { entered, error } => (entered, error),
        other => panic!("{body}: {other:?}"),
    }
}

/// The page again after a refused answer.
fn again(form: &Form, entered: &Entered, error: &AnswerError) -> String {
    Page::new("Sign in", "/a").render(&View::Refused {
        form,
        entered,
        error,
    })
}

/// A secret is a password input the browser does not fill in, with its length rules.
#[test]
fn a_secret_is_a_password_input() {
    let html = Page::new("Sign in", "/a").render(&View::Form(&sign_in()));
    assert_eq!(
        tag(&html, "f1"),
        r#"<input type="password" autocomplete="off" id="f1" name="f.pin" required minlength="8">"#
    );
    assert!(
        html.contains(r#"<label for="f1">PIN <span class="required">(required)</span></label>"#)
    );
    // Other text stays text.
    assert_eq!(
        tag(&html, "f0"),
        r#"<input type="text" id="f0" name="f.user" required minlength="2">"#
    );
}

/// A secret with a format is still a password input.
#[test]
fn a_secret_with_a_format_is_a_password_input() {
    let mut email = Field::new(
        "recovery",
        false,
        FieldKind::String {
            format: Some(Format::Email),
            min_length: None,
            max_length: None,
            default: None,
        },
    );
    email.secret = true;
    let form = Form::new(vec![email]).expect("a valid form");
    let html = Page::new("", "/a").render(&View::Form(&form));
    assert_eq!(
        tag(&html, "f0"),
        r#"<input type="password" autocomplete="off" id="f0" name="f.recovery">"#
    );
}

/// The answer carries the secret, read like any text.
#[test]
fn an_accepted_secret_is_in_the_answer() {
    let body = format!("f.user=ada&f.pin={TYPED}&action=accept");
    match read(&sign_in(), body.as_bytes()) {
        Submission::Accept(answer) => assert_eq!(answer, json!({"user": "ada", "pin": TYPED})),
        other => panic!("{other:?}"),
    }
}

/// Another field refused: what was typed there comes back, the secret does not, neither
/// in the page nor in what `Entered` keeps (or prints).
#[test]
fn a_refused_answer_never_writes_the_secret_back() {
    let form = sign_in();
    let (entered, error) = refused(&form, &format!("f.user=A&f.pin={TYPED}&action=accept"));
    assert_eq!(error.to_string(), "user: must be at least 2 characters");
    assert_eq!(entered.values("user"), Some(&["A".to_owned()][..]));
    assert_eq!(entered.values("pin"), Some(&[][..]));
    assert!(!format!("{entered:?}").contains(TYPED));
    let html = again(&form, &entered, &error);
    assert!(!html.contains(TYPED), "{html}");
    assert_eq!(
        tag(&html, "f0"),
        r#"<input type="text" id="f0" name="f.user" value="A" required minlength="2" aria-describedby="f0-error" aria-invalid="true">"#
    );
    assert_eq!(
        tag(&html, "f1"),
        r#"<input type="password" autocomplete="off" id="f1" name="f.pin" required minlength="8">"#
    );
}

/// The secret itself refused: its problem is shown beside it, its value is not.
#[test]
fn a_refused_secret_is_typed_again() {
    let form = sign_in();
    let (entered, error) = refused(&form, "f.user=ada&f.pin=s3cr3t&action=accept");
    let AnswerError::Invalid(errors) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(
        errors.errors()[0].problem,
        Problem::TooShort { min: 8, length: 6 }
    );
    assert!(!format!("{entered:?}").contains("s3cr3t"));
    let html = again(&form, &entered, &error);
    assert!(!html.contains("s3cr3t"), "{html}");
    assert!(html.contains(r##"<a href="#f1">PIN: must be at least 8 characters</a>"##));
    assert_eq!(
        tag(&html, "f1"),
        r#"<input type="password" autocomplete="off" id="f1" name="f.pin" required minlength="8" aria-describedby="f1-error" aria-invalid="true">"#
    );
}

/// A body refused as a whole (no action, an unknown field) keeps no secret either.
#[test]
fn a_malformed_body_keeps_no_secret() {
    let form = sign_in();
    for body in [
        format!("f.user=ada&f.pin={TYPED}"),
        format!("f.user=ada&f.pin={TYPED}&action=accept&action=accept"),
        format!("f.user=ada&f.pin={TYPED}&f.other=1&action=accept"),
    ] {
        let (entered, error) = refused(&form, &body);
        assert!(!matches!(error, AnswerError::Invalid(_)), "{body}");
        assert_eq!(
            entered.values("user"),
            Some(&["ada".to_owned()][..]),
            "{body}"
        );
        assert!(!format!("{entered:?}").contains(TYPED), "{body}");
        assert!(!again(&form, &entered, &error).contains(TYPED), "{body}");
    }
}
