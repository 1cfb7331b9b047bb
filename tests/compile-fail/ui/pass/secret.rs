use elicit_core::{Elicit, ExposeSecret, NoSecrets, SecretString};
use serde::Deserialize;

// A secret's name may say what it is; its form is asked on a web page.
#[derive(Debug, Elicit, Deserialize)]
struct SignIn {
    user: String,
    #[elicit(secret, title = "Password", min_length = 8, max_length = 64)]
    password: SecretString,
    #[elicit(secret, format = "email")]
    recovery_email: Option<SecretString>,
}

#[derive(Elicit, Deserialize)]
struct Contact {
    #[elicit(format = "email")]
    email: String,
}

fn ask_in_a_form<T: Elicit + NoSecrets>() {}

fn main() {
    ask_in_a_form::<Contact>();
    assert!(SignIn::form().has_secret());
    let content = serde_json::json!({"user": "ada", "password": "hunter2-long"});
    let sign_in = SignIn::from_content(Some(&content)).unwrap();
    assert_eq!(sign_in.password.expose_secret(), "hunter2-long");
    assert!(sign_in.recovery_email.is_none());
    assert_eq!(sign_in.user, "ada");
}
