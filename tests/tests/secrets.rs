//! A form with a secret field (`#[elicit(secret)]`): the field carries the flag, the form
//! has no `requestedSchema` on any revision (MCP forbids secrets in form mode: such a form
//! is asked on a web page), its answer validates and reads like any other, and the value
//! read never shows in `Debug` output. Forms built at run time are held to the same.

use std::sync::Mutex;

use elicit_core::engine::{AskError, Engine, Halt, Input, Peer, Question, Transport};
use elicit_core::seal::Keyring;
use elicit_core::wizard::Prepared;
use elicit_core::{
    AnswerError, Choice, Elicit, ExposeSecret, FieldKind, Form, FormError, NoSecrets, Revision,
    SecretString, Strictness,
};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignIn {
    #[elicit(title = "User name", min_length = 1)]
    user_name: String,
    /// The password of your account.
    #[elicit(secret, title = "Password", min_length = 8, max_length = 128)]
    password: SecretString,
    #[elicit(secret)]
    one_time_code: Option<SecretString>,
}

#[derive(Debug, Elicit, Deserialize)]
#[allow(dead_code)]
struct Contact {
    #[elicit(format = "email")]
    email: String,
    #[elicit(default = true)]
    newsletter: bool,
}

#[derive(Debug, Elicit, Deserialize)]
enum Plan {
    Free,
    Paid,
}

/// The password typed in every answer below.
const PASSWORD: &str = "correct-horse-battery";

/// What a form with the secret field `name` is refused with in form mode.
fn refusal(name: &str) -> String {
    format!(
        "field `{name}` is a secret: MCP forbids asking for passwords, tokens, API keys or payment details in form mode; ask this form on a web page (URL mode) instead"
    )
}

/// Forms and enums with no secret may be asked in form mode.
#[test]
fn forms_without_secrets_may_be_asked_in_form_mode() {
    fn no_secrets<T: NoSecrets>() {}
    no_secrets::<Contact>();
    no_secrets::<Plan>();
    assert!(!Contact::form().has_secret());
    assert!(Contact::form().fields().iter().all(|f| !f.secret));
}

/// The derived fields carry the flag, as text fields with their own rules.
#[test]
fn a_secret_field_carries_the_flag() {
    let form = SignIn::form();
    assert!(form.has_secret());
    let flags: Vec<(&str, bool, bool)> = form
        .fields()
        .iter()
        .map(|f| (&*f.name, f.secret, f.required))
        .collect();
    assert_eq!(
        flags,
        [
            ("userName", false, true),
            ("password", true, true),
            ("oneTimeCode", true, false)
        ]
    );
    let password = form.field("password").expect("the field");
    assert_eq!(password.title.as_deref(), Some("Password"));
    assert_eq!(
        password.description.as_deref(),
        Some("The password of your account.")
    );
    assert!(matches!(
        password.kind,
        FieldKind::String {
            format: None,
            min_length: Some(8),
            max_length: Some(128),
            default: None,
            ..
        }
    ));
}

/// No revision gets a `requestedSchema` of a form with a secret: the error says to ask it
/// on a page.
#[test]
fn a_secret_form_has_no_requested_schema() {
    for &revision in Revision::ALL {
        for refused in [
            SignIn::requested_schema(revision),
            SignIn::form().requested_schema(revision),
        ] {
            match refused {
                Err(FormError::Invalid(text)) => assert_eq!(text, refusal("password")),
                other => panic!("{revision}: {other:?}"),
            }
        }
        assert!(Contact::requested_schema(revision).is_ok(), "{revision}");
    }
}

/// The answer (as a page reads it) validates against the form's rules and reads into the
/// struct; the value read prints as redacted.
#[test]
fn a_secret_answer_validates_and_reads() {
    let answer = json!({"userName": "ada", "password": PASSWORD, "oneTimeCode": "123456"});
    let valid = SignIn::form()
        .validate(Some(&answer), Strictness::Strict)
        .expect("valid");
    let read = SignIn::deserialize(&*valid).expect("read");
    assert_eq!(read.user_name, "ada");
    assert_eq!(read.password.expose_secret(), PASSWORD);
    assert_eq!(
        read.one_time_code.as_ref().map(|c| c.expose_secret()),
        Some("123456")
    );
    let printed = format!("{read:?}");
    assert!(printed.contains("ada"), "{printed}");
    assert!(!printed.contains(PASSWORD), "{printed}");
    assert!(!printed.contains("123456"), "{printed}");

    // The form's own rules hold the secret, and the message names it, not its value.
    let short = json!({"userName": "ada", "password": "short"});
    let err = SignIn::from_content(Some(&short)).unwrap_err();
    assert_eq!(err.to_string(), "Password: must be at least 8 characters");
    let missing = json!({"userName": "ada"});
    let err = SignIn::form()
        .validate(Some(&missing), Strictness::Strict)
        .unwrap_err();
    assert_eq!(err.to_string(), "Password: an answer is required");
}

/// A form built at run time keeps the flag of the fields it is built from, and a field
/// marked secret at run time makes its form one to ask on a page too.
#[test]
fn forms_built_at_run_time_keep_the_flag() {
    let both = Contact::form()
        .fields()
        .iter()
        .chain(SignIn::form().fields());
    let form = Form::new(both.cloned().collect()).expect("a valid form");
    assert!(form.has_secret());
    match form.requested_schema(Revision::LATEST) {
        Err(FormError::Invalid(text)) => assert_eq!(text, refusal("password")),
        other => panic!("{other:?}"),
    }

    let mut email = Contact::form().fields()[0].clone();
    email.secret = true;
    let form = Form::new(vec![email]).expect("a secret may have a format");
    match form.requested_schema(Revision::V2025_06_18) {
        Err(FormError::Invalid(text)) => assert_eq!(text, refusal("email")),
        other => panic!("{other:?}"),
    }
}

/// A secret built at run time is text without a default, as the derive requires.
#[test]
fn a_secret_built_at_run_time_is_text_without_a_default() {
    let mut newsletter = Contact::form().fields()[1].clone();
    newsletter.secret = true;
    assert_eq!(
        Form::new(vec![newsletter]).unwrap_err().to_string(),
        "field `newsletter`: a secret is a text field: it cannot be a number, a checkbox or a select"
    );
    let mut user = SignIn::form().fields()[0].clone();
    if let FieldKind::String { default, .. } = &mut user.kind {
        *default = Some("ada".into());
    }
    user.secret = true;
    assert_eq!(
        Form::new(vec![user]).unwrap_err().to_string(),
        "field `userName`: a secret takes no default: it would be written into the page"
    );
}

/// Changes for one call keep the flag, and cannot turn a secret into a select or give it
/// a default.
#[test]
fn changes_for_one_call_keep_the_flag() {
    let users = [Choice::owned("ada", None), Choice::owned("bob", None)];
    let changed = Prepared::new()
        .options("userName", users.clone())
        .build(SignIn::form())
        .expect("options for a plain text field");
    let flags: Vec<bool> = changed.form().fields().iter().map(|f| f.secret).collect();
    assert_eq!(flags, [false, true, true]);
    assert!(changed.form().requested_schema(Revision::LATEST).is_err());

    let refused = Prepared::new()
        .options("password", users)
        .build(SignIn::form())
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "field `password` is a secret: it takes no options, the person types it"
    );
    let refused = Prepared::new()
        .default_value("password", "hunter2-hunter2")
        .build(SignIn::form())
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "field `password`: a secret takes no default: it would be written into the page"
    );
}

/// Records what is sent; answers nothing.
struct Nobody(Mutex<Vec<Question>>);

impl Transport for Nobody {
    async fn send(&self, question: Question) -> Result<Value, AskError> {
        self.0.lock().unwrap().push(question);
        Err(AskError::Peer("no answer".to_owned()))
    }
}

/// The engine refuses a form with a secret built at run time (which no bound can catch)
/// before anything is sent.
#[tokio::test]
async fn the_engine_sends_no_secret_form() {
    let both = Contact::form()
        .fields()
        .iter()
        .chain(SignIn::form().fields());
    let form = Form::new(both.cloned().collect()).expect("a valid form");
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let engine = Engine::new(Keyring::generate());
        let mut call = engine.push(Peer::new(Some(revision), &json!({"elicitation": {}})));
        let nobody = Nobody(Mutex::default());
        let asked = vec![Input::Form {
            key: "sign-in",
            message: "Sign in",
            form: &form,
        }];
        match call.inputs(&nobody, asked).await {
            Err(Halt::Ask(AskError::Schema(FormError::Invalid(text)))) => {
                assert_eq!(text, refusal("password"));
            }
            other => panic!("{revision}: {other:?}"),
        }
        assert!(nobody.0.lock().unwrap().is_empty(), "{revision}");
    }
}

/// An answer that is not valid is refused before anything is read into a `SecretString`.
#[test]
fn a_secret_of_the_wrong_type_is_refused() {
    let answer = json!({"userName": "ada", "password": 12345678});
    match SignIn::from_content(Some(&answer)) {
        Err(AnswerError::Invalid(errors)) => {
            assert_eq!(errors.to_string(), "Password: expected text, got a number");
        }
        other => panic!("{other:?}"),
    }
}
