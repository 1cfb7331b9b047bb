//! What the fuzz targets share: the forms and wizards they feed, the oracles they
//! check, and a filler that makes a valid-looking answer for any form so that flows
//! get past their first step.
//!
//! Every oracle panics with a message saying which promise broke; libFuzzer reports
//! the panic as a crash and keeps the input in `fuzz/artifacts/<target>/`.

use std::collections::BTreeSet;
use std::fmt::Debug;

use elicit_core::__private::testing::{Flow, Poll, WizardState};
use elicit_core::client::Reply;
use elicit_core::wizard::{Prepared, WizardError};
use elicit_core::{
    Action, AnswerError, Choice, Elicit, Elicitation, FieldKind, Form, Format, Revision,
    Strictness, ValidationErrors, Wizard,
};
use elicit_examples::forms::{PurgeApproval, Size, Topping};
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
    let valid = elicit_core::__private::testing::validate_owned(T::form(), content, strictness)?;
    T::deserialize(valid).map_err(AnswerError::Parse)
}

pub mod forms;

// ---------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------

/// A result of an answer entry point, written so that two paths can be compared:
/// the value's `Debug` on success, the error's shape on failure.
fn summary<T: Debug>(r: &Result<T, AnswerError>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(AnswerError::Parse(e)) => format!("Parse({e})"),
        Err(e) => format!("Err({e:?})"),
    }
}

fn content_summary(r: &Result<std::borrow::Cow<'_, Value>, AnswerError>) -> String {
    match r {
        Ok(v) => format!("Ok({v})"),
        Err(e) => format!("Err({e:?})"),
    }
}

/// The errors of one answer: never empty, every one names a field of the form, in
/// field order, and each renders as a message.
pub fn check_errors(form: &Form, errors: &ValidationErrors, what: &str) {
    assert!(
        !errors.errors().is_empty(),
        "{what}: an empty ValidationErrors"
    );
    let mut last = 0;
    for e in errors.errors() {
        let position = form
            .fields()
            .iter()
            .position(|f| f.name == e.field)
            .unwrap_or_else(|| panic!("{what}: an error for `{}`, not a field", e.field));
        assert!(
            position >= last,
            "{what}: errors out of field order: {errors:?}"
        );
        last = position;
        assert!(!e.to_string().is_empty());
    }
    assert!(!errors.to_string().is_empty());
}

/// What `validate` passed is a valid answer: validating it again passes, unchanged.
fn check_validated(form: &Form, valid: &Value, what: &str) {
    assert!(
        valid.is_object(),
        "{what}: validate passed a non-object: {valid}"
    );
    match form.validate(Some(valid), Strictness::Strict) {
        Ok(again) => assert_eq!(
            &*again, valid,
            "{what}: validating a validated answer changed it"
        ),
        Err(e) => panic!("{what}: a validated answer {valid} fails validation again: {e:?}"),
    }
}

/// Every answer entry point of `T` on one `content`, against the others.
///
/// - `from_content` succeeds iff `Form::validate` does, and then equals
///   deserializing what `validate` returned; when both fail, the errors are the same;
/// - the owned path (`from_content_owned`) gives the same as the borrowed one;
/// - the same holds in both strictness modes, and whatever `Strict` accepts,
///   `Lenient` accepts with the same value;
/// - the client side's `Reply::validated` agrees with `validate` (strict, as it validates).
pub fn check_form<T: Elicit + Debug>(content: Option<&Value>) {
    let form = T::form();
    let name = std::any::type_name::<T>();
    let mut accepted = Vec::new();
    for strictness in [Strictness::Strict, Strictness::Lenient] {
        let what = format!("{name} ({strictness:?})");
        let validated = form.validate(content, strictness);
        let borrowed = read_with::<T>(content, strictness);
        let owned = read_owned_with::<T>(content.cloned(), strictness);
        assert_eq!(
            summary(&borrowed),
            summary(&owned),
            "{what}: from_content and from_content_owned disagree on {content:?}"
        );
        match &validated {
            Ok(valid) => {
                check_validated(form, valid, &what);
                let direct: T =
                    serde_json::from_value(valid.clone().into_owned()).unwrap_or_else(|e| {
                        panic!("{what}: validate passed {valid} but it does not deserialize: {e}")
                    });
                match &borrowed {
                    Ok(v) => assert_eq!(
                        format!("{v:?}"),
                        format!("{direct:?}"),
                        "{what}: from_content and validate + deserialize give other values"
                    ),
                    Err(e) => {
                        panic!("{what}: validate passed {valid} but from_content failed: {e:?}")
                    }
                }
            }
            Err(AnswerError::Invalid(errors)) => {
                check_errors(form, errors, &what);
                match &borrowed {
                    Err(AnswerError::Invalid(e)) => assert_eq!(
                        e, errors,
                        "{what}: from_content and validate report other problems"
                    ),
                    other => panic!(
                        "{what}: validate refused ({errors:?}) but from_content gave {}",
                        summary(other)
                    ),
                }
            }
            Err(AnswerError::NotAnObject { found, .. }) => match &borrowed {
                Err(AnswerError::NotAnObject { found: f, .. }) => assert_eq!(f, found),
                other => panic!(
                    "{what}: validate said not an object ({found}) but from_content gave {}",
                    summary(other)
                ),
            },
            Err(e) => panic!("{what}: validate refused with {e:?}, not a content error"),
        }
        if let (Some(c), Strictness::Strict) = (content, strictness) {
            let reply = Reply::validated(form, c.clone());
            match (&reply, &validated) {
                (Ok(Reply::Accept(map)), Ok(valid)) => {
                    assert_eq!(
                        &Value::Object(map.clone()),
                        &**valid,
                        "{what}: Reply::validated and validate fill other values"
                    );
                }
                (Err(e), Err(v)) => assert_eq!(
                    e.to_string(),
                    v.to_string(),
                    "{what}: Reply::validated and validate differ"
                ),
                _ => panic!(
                    "{what}: Reply::validated gave {reply:?}, validate {}",
                    content_summary(&validated)
                ),
            }
        }
        accepted.push(borrowed.ok().map(|v| format!("{v:?}")));
    }
    if let [Some(strict), lenient] = &accepted[..] {
        assert_eq!(
            Some(strict),
            lenient.as_ref(),
            "{name}: Lenient refuses or reads otherwise what Strict accepts"
        );
    }
    if content.is_none() {
        // `None` content is an empty answer, the same as `null`.
        assert_eq!(
            summary(&T::from_content(None)),
            summary(&T::from_content(Some(&Value::Null)))
        );
    }
}

/// `Elicitation::<T>::from_result` (and `from_value`) against parsing the action and
/// `from_content`.
pub fn check_result<T: Elicit + Debug>(action: &str, content: Option<&Value>) {
    let name = std::any::type_name::<T>();
    for strictness in [Strictness::Strict, Strictness::Lenient] {
        let got = action.parse::<Action>().and_then(|a| match a {
            Action::Accept => read_with::<T>(content, strictness).map(Elicitation::Accept),
            Action::Decline => Ok(Elicitation::Decline),
            Action::Cancel => Ok(Elicitation::Cancel),
        });
        if strictness == Strictness::Strict {
            let mut whole = serde_json::Map::new();
            whole.insert("action".into(), Value::from(action));
            if let Some(c) = content {
                whole.insert("content".into(), c.clone());
            }
            let from_value = Elicitation::<T>::from_value(&Value::Object(whole));
            assert_eq!(summary(&from_value), summary(&got), "{name}: from_value");
        }
        let expected = match action.parse::<Action>() {
            Ok(Action::Accept) => read_with::<T>(content, strictness).map(Elicitation::Accept),
            Ok(Action::Decline) => Ok(Elicitation::Decline),
            Ok(Action::Cancel) => Ok(Elicitation::Cancel),
            Err(e) => Err(e),
        };
        assert_eq!(
            summary(&got),
            summary(&expected),
            "{name}: reading ({action:?}) disagrees with parsing the action + from_content"
        );
        if let Err(e) = &got {
            assert!(!e.to_string().is_empty());
        }
    }
}

/// The ready-made `Confirm` form: a valid answer always carries the box as a boolean
/// (what the engine's `confirm` reads as `Accept(true)` or `Accept(false)`), and an
/// answer without one is refused.
pub fn check_confirm(action: &str, content: Option<&Value>) {
    let confirm = elicit_core::Confirm::new("Delete 1,284 log files?")
        .with_description("Tick the box to delete them for good.");
    if action.parse::<Action>().ok() != Some(Action::Accept) {
        return;
    }
    let box_sent = content
        .and_then(|c| c.get("confirm"))
        .is_some_and(Value::is_boolean);
    match confirm.form().validate(content, Strictness::Strict) {
        Ok(valid) => {
            assert!(
                valid.get("confirm").is_some_and(Value::is_boolean),
                "Confirm: {valid}"
            );
            assert!(box_sent, "Confirm: accepted without the box");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// An `ElicitResult` object's action (text) and content, read by the spec's shape:
/// an object whose `action` is a string. The oracle the library's reading is held to.
pub fn split_result(result: &Value) -> Option<(&str, Option<&Value>)> {
    let map = result.as_object()?;
    Some((map.get("action")?.as_str()?, map.get("content")))
}

/// `Elicitation::from_value` on a whole `ElicitResult` object equals splitting it by the
/// spec's shape, parsing the action and `from_content`; a result of another shape is
/// refused as malformed.
pub fn check_whole_result<T: Elicit + Debug>(result: &Value) {
    let got = Elicitation::<T>::from_value(result);
    match split_result(result) {
        Some((action, content)) => {
            let expected = action.parse::<Action>().and_then(|a| match a {
                Action::Accept => T::from_content(content).map(Elicitation::Accept),
                Action::Decline => Ok(Elicitation::Decline),
                Action::Cancel => Ok(Elicitation::Cancel),
            });
            assert_eq!(summary(&got), summary(&expected));
        }
        None => assert!(matches!(got, Err(AnswerError::Malformed(_))), "{got:?}"),
    }
}

/// Runs `$check::<T>($args)` for every form the answer target feeds.
#[macro_export]
macro_rules! for_each_form {
    ($check:ident ( $($arg:expr),* )) => {{
        use $crate::forms::*;
        use elicit_examples::forms as ex;
        use elicit_examples::ticket as tk;
        $crate::$check::<ex::Alternatives>($($arg),*);
        $crate::$check::<ex::Popcorn>($($arg),*);
        $crate::$check::<ex::PurgeApproval>($($arg),*);
        $crate::$check::<ex::Everything>($($arg),*);
        $crate::$check::<tk::ShowDate>($($arg),*);
        $crate::$check::<tk::SeatChoice>($($arg),*);
        $crate::$check::<tk::Snacks>($($arg),*);
        $crate::$check::<tk::PopcornSize>($($arg),*);
        $crate::$check::<Form5>($($arg),*);
        $crate::$check::<Form20>($($arg),*);
        $crate::$check::<FormEnums>($($arg),*);
        $crate::$check::<Edges>($($arg),*);
        $crate::$check::<Closed>($($arg),*);
        $crate::$check::<Pick>($($arg),*);
    }};
}

// ---------------------------------------------------------------------------------
// A filler: a plausible answer for any form
// ---------------------------------------------------------------------------------

/// An answer to `form` that is valid more often than not; `seed` picks among the
/// candidates (open and sold-out show dates, options, bounds), so that flows driven
/// by it get to their later steps and also hit the checks.
pub fn fill(form: &Form, seed: u64) -> Value {
    let mut out = serde_json::Map::new();
    for (i, field) in form.fields().iter().enumerate() {
        let pick = (seed >> (i % 16 * 4)) as usize & 0xf;
        if !field.required && pick % 5 == 4 {
            continue; // leave optional fields out now and then
        }
        let value = match &field.kind {
            FieldKind::String {
                format,
                min_length,
                max_length,
                default,
                ..
            } => match (format, default) {
                (_, Some(d)) if pick.is_multiple_of(3) => Value::from(d.as_ref()),
                (Some(Format::Date), _) => {
                    Value::from(["2025-02-03", "2025-02-04", "2025-02-01", "2025-02-30"][pick % 4])
                }
                (Some(Format::DateTime), _) => Value::from("2025-02-01T18:30:00Z"),
                (Some(Format::Email), _) => {
                    Value::from(["ada@example.com", "bob@example.org", "no-at"][pick % 3])
                }
                (Some(Format::Uri), _) => Value::from("https://example.com/a"),
                (Some(_) | None, _) => {
                    let min = min_length.unwrap_or(0).min(64) as usize;
                    let max = max_length.unwrap_or(8).min(64) as usize;
                    let len = if max > min {
                        min + pick % (max - min + 1)
                    } else {
                        min
                    };
                    Value::from("é".repeat(len))
                }
            },
            FieldKind::Integer { range, default, .. } => {
                let v = match pick % 4 {
                    0 => default.unwrap_or(range.0),
                    1 => range.0,
                    2 => range.1,
                    _ => range.0.saturating_add(1).min(range.1),
                };
                i64::try_from(v)
                    .map(Value::from)
                    .or_else(|_| u64::try_from(v).map(Value::from))
                    .unwrap_or(Value::from(0))
            }
            FieldKind::Number {
                minimum,
                maximum,
                default,
                ..
            } => {
                let v = match pick % 3 {
                    0 => default.or(*minimum).unwrap_or(0.5),
                    1 => maximum.unwrap_or(1.5),
                    _ => minimum.unwrap_or(-2.25),
                };
                json!(v)
            }
            FieldKind::Boolean { .. } => Value::Bool(pick & 1 == 1),
            FieldKind::Select { options, .. } => match options.get(pick % options.len().max(1)) {
                Some(c) => Value::from(c.value.as_ref()),
                None => continue,
            },
            FieldKind::MultiSelect {
                options, min_items, ..
            } => {
                let n = (min_items.unwrap_or(0) as usize + pick % 2).min(options.len());
                options
                    .iter()
                    .take(n)
                    .map(|c| Value::from(c.value.as_ref()))
                    .collect()
            }
            _ => continue,
        };
        out.insert(field.name.to_string(), value);
    }
    Value::Object(out)
}

// ---------------------------------------------------------------------------------
// Wizards
// ---------------------------------------------------------------------------------

/// One answer for a flow: an action and its content.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The `action` string (any string; the flow must refuse unknown ones).
    pub action: String,
    /// The `content`.
    pub content: Option<Value>,
}

impl Answer {
    /// Reads an answer from one JSON value of the input: an `ElicitResult`-like object
    /// (`{"action": .., "content": ..}`), a bare action string, or else the content of
    /// an accept.
    pub fn from_value(v: Value) -> Answer {
        match v {
            Value::Object(mut m) if m.get("action").is_some_and(Value::is_string) => {
                let action = match m.remove("action") {
                    Some(Value::String(s)) => s,
                    _ => unreachable!(),
                };
                Answer {
                    action,
                    content: m.remove("content"),
                }
            }
            Value::String(action) => Answer {
                action,
                content: None,
            },
            other => Answer {
                action: "accept".into(),
                content: Some(other),
            },
        }
    }
}

/// The flow's own state always comes back: it serializes, parses, and restores.
pub fn check_state_round_trip<W: Wizard>(state: &WizardState) {
    let text = serde_json::to_string(state).expect("a WizardState serializes");
    let back: WizardState = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("a serialized WizardState does not parse: {e}\n{text}"));
    if let Err(e) = Flow::<W>::restore(back) {
        panic!("a state the flow itself produced does not restore: {e}\n{text}");
    }
}

/// How far [`drive`] got, for the targets to assert on.
#[derive(Debug, Default)]
pub struct Driven {
    /// Questions asked.
    pub asked: usize,
    /// Whether an outcome was reached.
    pub done: bool,
}

/// Polls and answers `flow` for a few rounds: answers from `answers` first, then
/// [`fill`]ed ones. Checks on every round: the state round-trips; the request's
/// schema is one our own client reads; an answer `validate` refuses never moves
/// the flow on; an outcome stays the outcome.
pub fn drive<W: Wizard>(
    mut flow: Flow<W>,
    ctx: &W::Context,
    revision: Revision,
    answers: &mut dyn Iterator<Item = Answer>,
    mut seed: u64,
) -> Driven {
    let mut driven = Driven::default();
    for _ in 0..12 {
        check_state_round_trip::<W>(flow.state());
        let request = match flow.poll(ctx, revision) {
            Ok(Poll::Ask(request)) => request,
            Ok(Poll::Done(outcome)) => {
                driven.done = true;
                let again = flow.poll(ctx, revision);
                match &outcome {
                    elicit_core::wizard::Outcome::Completed(_) => assert!(
                        matches!(again, Err(WizardError::Finished)),
                        "a completed flow polled again is not Finished"
                    ),
                    _ => assert!(
                        matches!(again, Ok(Poll::Done(_))),
                        "an ended flow polled again is not its outcome"
                    ),
                }
                check_state_round_trip::<W>(flow.state());
                assert!(matches!(
                    flow.answer(ctx, Action::Accept, None),
                    Err(WizardError::Finished)
                ));
                break;
            }
            // Typed errors: a form the revision cannot express, a restored state whose
            // required step was skipped, ... Nothing more to drive.
            Err(e) => {
                assert!(!e.to_string().is_empty());
                break;
            }
        };
        driven.asked += 1;
        check_request(&request);
        let answer = answers.next().unwrap_or_else(|| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Answer {
                action: "accept".into(),
                content: Some(fill(request.form(), seed >> 11)),
            }
        });
        let before = flow.state().step();
        let valid = request
            .form()
            .validate(answer.content.as_ref(), Strictness::Strict)
            .is_ok();
        let Ok(action) = answer.action.parse::<Action>() else {
            // An unknown action never reaches the flow: the adapter refuses it first.
            continue;
        };
        match flow.answer(ctx, action, answer.content.clone()) {
            Ok(()) => {
                if answer.action == "accept" && !valid && !lenient_passes(&request, &answer) {
                    assert_eq!(
                        flow.state().step(),
                        before,
                        "an answer validate refuses moved the flow on: {:?}",
                        answer.content
                    );
                }
            }
            Err(e) => panic!("answering the pending question failed: {e}"),
        }
    }
    driven
}

fn lenient_passes(request: &elicit_core::__private::testing::Step, answer: &Answer) -> bool {
    request
        .form()
        .validate(answer.content.as_ref(), Strictness::Lenient)
        .is_ok()
}

/// A request the server sends is well-formed and our own client reads its schema
/// back to the same fields.
fn check_request(request: &elicit_core::__private::testing::Step) {
    assert!(!request.message().is_empty());
    let params = serde_json::from_str::<Value>(&request.params()).unwrap();
    let schema = &params["requestedSchema"];
    assert!(
        schema.is_object(),
        "requestedSchema is not an object: {params}"
    );
    match elicit_core::client::read_schema(&schema.to_string()) {
        Ok(read) => {
            let names = |f: &Form| f.fields().iter().map(|f| f.name.to_string()).collect();
            let (a, b): (BTreeSet<String>, BTreeSet<String>) =
                (names(&read), names(request.form()));
            assert_eq!(a, b, "the client reads other fields than the server asks");
        }
        Err(e) => panic!("the client refuses a schema the server sent: {e}\n{schema}"),
    }
}

/// The context of [`Survey`]: nothing.
pub type NoContext = ();

/// Step 2 of [`Survey`].
#[derive(Debug, elicit_core::Elicit, Deserialize)]
pub struct Pick {
    /// One or two toppings, among those offered.
    #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
    pub toppings: Vec<Topping>,
    /// The size, among those offered.
    #[elicit(title = "Size")]
    pub size: Size,
    /// Free text that the step turns into a select.
    pub note: Option<String>,
}

/// Step 3 of [`Survey`].
#[derive(Debug, elicit_core::Elicit, Deserialize)]
pub struct Count {
    /// How many.
    #[elicit(minimum = 1, maximum = 9)]
    pub count: u8,
    /// Where to write.
    #[elicit(format = "email")]
    pub email: Option<String>,
}

/// A second wizard, with what the ticket wizard lacks: a multi-select narrowed at run
/// time, runtime defaults on several kinds, a text field turned into a select, a
/// skipped optional step with its own attempt limit.
#[derive(elicit_core::Wizard)]
#[wizard(attempts = 2)]
pub struct Survey {
    /// Every field kind.
    #[step(message = "Tell us everything")]
    pub everything: elicit_examples::forms::Everything,
    /// Options that depend on step 1.
    #[step(message = "Pick", prepare = narrow)]
    pub pick: Pick,
    /// Asked only when step 1 was verified.
    #[step(
        message = "How many?",
        prepare = count_default,
        skip_if = unverified,
        attempts = 1
    )]
    pub count: Option<Count>,
    /// A check that refuses some approvers.
    #[step(message = "Approve", check = approver_ok)]
    pub purge: PurgeApproval,
}

fn verified(progress: &SurveyProgress) -> bool {
    progress.everything.as_ref().is_some_and(|e| e.verified)
}

fn narrow(_: &NoContext, progress: &SurveyProgress) -> Prepared {
    let toppings: &[(&str, Option<&str>)] = if verified(progress) {
        &[("butter", Some("Butter")), ("salt", None)]
    } else {
        &[("caramel", Some("Caramel!"))]
    };
    let choices = |list: &[(&str, Option<&str>)]| {
        list.iter()
            .map(|(v, t)| Choice::owned(*v, t.map(str::to_owned)))
            .collect::<Vec<_>>()
    };
    Prepared::new()
        .message("Pick from what is left")
        .options("toppings", choices(toppings))
        .options("size", choices(&[("Small", None), ("Large", Some("Big"))]))
        .options("note", choices(&[("a", None), ("b", Some("B"))]))
        .default_value("size", "Large")
}

fn count_default(_: &NoContext, _: &SurveyProgress) -> Prepared {
    Prepared::new()
        .default_value("count", 3)
        .default_value("email", "ada@example.com")
}

fn unverified(_: &NoContext, progress: &SurveyProgress) -> bool {
    !verified(progress)
}

fn approver_ok(_: &NoContext, _: &SurveyProgress, a: &PurgeApproval) -> Result<(), String> {
    if a.approver.ends_with("@example.com") {
        Ok(())
    } else {
        Err(format!("{} may not approve", a.approver))
    }
}

/// The time the wizard target seals and opens at (2026-01-01), so runs are
/// reproducible.
pub const NOW: u64 = 1_767_225_600;

/// The fixed keys of the wizard target: `k1` current, `k0` previous.
pub fn keyring() -> elicit_core::seal::Keyring {
    use elicit_core::seal::{Key, Keyring};
    Keyring::new("k1", Key::from_bytes([7; 32]))
        .and_then(|r| r.with_previous("k0", Key::from_bytes([9; 32])))
        .expect("fixed keys are valid")
}

/// The binding the wizard target seals for.
pub fn binding() -> elicit_core::seal::Binding {
    elicit_core::seal::Binding::new(
        "alice",
        "tools/call",
        "book_tickets",
        &json!({"film": "Metropolis"}),
    )
}

/// The revision picked by a mode byte.
pub fn revision(n: u8) -> Revision {
    Revision::ALL[usize::from(n) % Revision::ALL.len()]
}

/// A reading of a seed's first byte: which mode, which revision (see the targets).
pub fn mode_byte(mode: u8, revision: u8, modes: u8) -> u8 {
    // Printable: 6*(3k + revision) + mode for the smallest k that lands at '0' or later.
    let mut k = 0u8;
    loop {
        let b = modes * (3 * k + revision) + mode;
        if b >= b'0' {
            return b;
        }
        k += 1;
    }
}
