//! The exchange over a scripted transport, on each channel: what is sent, under which
//! key, what an answer comes back as, and that each answer is validated once.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;

use serde_json::{Value, json};

use super::*;
use crate::answer::{CHECKED, Confirm, Elicitation};
use crate::form::{Field, FieldKind, Form};

/// Answers each request sent with the next scripted result, recording what was sent;
/// with a barrier, every send waits until `barrier` sends are under way.
struct Script {
    results: Mutex<VecDeque<Value>>,
    sent: Mutex<Vec<Question>>,
    barrier: Option<tokio::sync::Barrier>,
}

impl Script {
    fn new(results: impl IntoIterator<Item = Value>) -> Script {
        Script {
            results: Mutex::new(results.into_iter().collect()),
            sent: Mutex::default(),
            barrier: None,
        }
    }

    fn keys(&self) -> Vec<String> {
        self.sent
            .lock()
            .unwrap()
            .iter()
            .map(|r| r.key.clone())
            .collect()
    }
}

impl Transport for Script {
    async fn send(&self, request: Question) -> Result<Value, AskError> {
        self.sent.lock().unwrap().push(request);
        if let Some(barrier) = &self.barrier {
            barrier.wait().await;
        }
        let next = self.results.lock().unwrap().pop_front();
        next.ok_or_else(|| AskError::Peer("the script ran out".to_owned()))
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn checked() -> usize {
    CHECKED.with(std::cell::Cell::get)
}

/// A form of one required whole number from 1 to 10.
fn copies() -> Form {
    let kind = FieldKind::Integer {
        minimum: Some(1),
        maximum: Some(10),
        range: (1, 10),
        default: None,
    };
    Form::new(vec![Field::new("copies", true, kind)]).expect("a valid form")
}

fn client(revision: Revision) -> Peer {
    Peer::new(Some(revision), &json!({"elicitation": {}}))
}

#[tokio::test]
async fn pushed_a_question_is_sent_again_under_a_new_key_until_it_is_valid() {
    let engine = Engine::new(Keyring::generate());
    let mut call = engine.push(client(Revision::V2025_11_25));
    let script = Script::new([
        accept(json!({"confirm": "yes"})),
        accept(json!({"confirm": true})),
    ]);
    let before = checked();
    let answer = call.confirm(&script, "Sure?", &Confirm::new("I am")).await;
    assert_eq!(answer.ok(), Some(Elicitation::Accept(true)));
    assert_eq!(script.keys(), ["ask0", "ask0.1"]);
    let sent = script.sent.lock().unwrap();
    // Asked again with the problem above the message.
    assert!(
        sent[0].params.contains(r#""message":"Sure?""#),
        "{}",
        sent[0].params
    );
    assert!(
        sent[1].params.contains(r#"\n\nSure?""#),
        "{}",
        sent[1].params
    );
    assert_eq!(checked() - before, 2, "each answer checked once");
}

#[tokio::test]
async fn the_transport_is_told_how_long_to_wait_and_how_often_to_say_the_call_is_alive() {
    let mut engine = Engine::new(Keyring::generate());
    engine.settings_mut().timeout = Some(std::time::Duration::from_secs(42));
    engine.settings_mut().progress_interval = None;
    for call in [
        engine.push(client(Revision::V2025_11_25)),
        engine.push(client(Revision::V2026_07_28)).into_task(),
    ] {
        let mut call = call;
        let script = Script::new([accept(json!({"confirm": true}))]);
        let answer = call.confirm(&script, "Sure?", &Confirm::new("I am")).await;
        assert_eq!(answer.ok(), Some(Elicitation::Accept(true)));
        let sent = script.sent.lock().unwrap();
        assert_eq!(sent[0].timeout, Some(std::time::Duration::from_secs(42)));
        assert_eq!(sent[0].progress_interval, None);
    }
}

/// Keep-alives name the request's `progressToken` when it is a short string or an
/// integer; anything else, or no interval, leaves the question without them.
#[test]
fn a_pushed_question_keeps_the_call_alive_for_its_progress_token() {
    let mut engine = Engine::new(Keyring::generate());
    let keep_alive = |engine: &Engine, token: Value| {
        let params = json!({"name": "t", "arguments": {}, "_meta": {"progressToken": token}});
        let mut call = engine
            .open("", "tools/call", &params, &client(Revision::V2025_11_25))
            .unwrap();
        let script = Script::new([json!({"action": "decline"})]);
        let answer = poll_ready(call.confirm(&script, "Sure?", &Confirm::new("I am")));
        assert_eq!(answer.ok(), Some(Elicitation::Decline));
        let sent = script.sent.lock().unwrap();
        sent[0].keep_alive();
        sent[0].keep_alive();
        sent[0].keep_alive().map(|notice| notice.to_string())
    };
    let said = keep_alive(&engine, json!("call-1")).expect("a keep-alive");
    let said: Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["method"], "notifications/progress");
    assert_eq!(said["params"]["progressToken"], "call-1");
    assert_eq!(said["params"]["progress"], 3);
    assert!(keep_alive(&engine, json!(12)).is_some());
    for refused in [
        json!("p".repeat(257)),
        json!(1.5),
        json!({"a": 1}),
        Value::Null,
    ] {
        assert_eq!(keep_alive(&engine, refused.clone()), None, "{refused}");
    }
    engine.settings_mut().progress_interval = None;
    assert_eq!(keep_alive(&engine, json!("call-1")), None);
}

/// Runs a future that never waits on anything outside it to its end.
fn poll_ready<F: std::future::Future>(f: F) -> F::Output {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let mut f = std::pin::pin!(f);
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[tokio::test]
async fn in_a_task_a_batch_is_sent_all_at_once() {
    let engine = Engine::new(Keyring::generate());
    let mut call = engine.push(client(Revision::V2026_07_28)).into_task();
    let (first, second) = (copies(), copies());
    let mut script = Script::new([accept(json!({"copies": 2})), accept(json!({"copies": 3}))]);
    // Each send waits for the other: sent one after the other, they never return.
    script.barrier = Some(tokio::sync::Barrier::new(2));
    let inputs = vec![
        Input::Form {
            key: "a",
            message: "A?",
            form: &first,
        },
        Input::Form {
            key: "b",
            message: "B?",
            form: &second,
        },
    ];
    let asked = tokio::time::timeout(Duration::from_secs(5), call.inputs(&script, inputs));
    let answers = asked.await.expect("both sent together").expect("answers");
    assert_eq!(answers.len(), 2);
    assert_eq!(script.keys(), ["a", "b"]);
}

#[tokio::test]
async fn pushed_a_batch_is_sent_one_question_at_a_time() {
    let engine = Engine::new(Keyring::generate());
    let mut call = engine.push(client(Revision::V2025_11_25));
    let form = copies();
    let script = Script::new([
        accept(json!({"copies": 99})),
        accept(json!({"copies": 2})),
        json!({"roots": []}),
    ]);
    let inputs = vec![
        Input::Form {
            key: "a",
            message: "A?",
            form: &form,
        },
        Input::request("b", "ping", json!({})),
    ];
    let answers = call.inputs(&script, inputs).await.expect("answers");
    // The invalid answer is asked again before the next question.
    assert_eq!(script.keys(), ["a", "a.1", "b"]);
    assert_eq!(answers[1], InputAnswer::Value(json!({"roots": []})));
}

/// A round's call: a first call of `tool` (no state), or a retry with `state` and
/// `responses`.
fn round(engine: &Engine, state: Option<&str>, responses: BTreeMap<String, Value>) -> Call {
    let binding = Binding::new("alice", "tools/call", "tool", &json!({}));
    engine
        .rounds(client(Revision::V2026_07_28), binding, state, responses)
        .expect("the state opens")
}

fn input_required<T: fmt::Debug>(result: Result<T, Halt>) -> InputRequired {
    match result {
        Err(Halt::InputRequired(asked)) => asked,
        other => panic!("expected input_required, got {other:?}"),
    }
}

#[tokio::test]
async fn in_rounds_a_question_ends_the_round_and_its_answer_is_read_from_the_retry() {
    let engine = Engine::new(Keyring::generate());
    let confirm = Confirm::new("I am");
    let asked = input_required(
        round(&engine, None, BTreeMap::new())
            .confirm(&(), "Sure?", &confirm)
            .await,
    );
    assert_eq!(asked.requests.len(), 1);
    let key = asked.requests[0].key.clone();
    assert_eq!(key, "ask0");

    // An invalid answer: asked again under the next key, the problem above it.
    let retry = [(key.clone(), accept(json!({"confirm": "yes"})))].into();
    let again = input_required(
        round(&engine, Some(&asked.state), retry)
            .confirm(&(), "Sure?", &confirm)
            .await,
    );
    assert_eq!(again.requests[0].key, "ask0.1");
    assert_ne!(again.requests[0].digest, asked.requests[0].digest);
    // An answer under the old key is not read any more.
    let stale = [(key, accept(json!({"confirm": true})))].into();
    let still = input_required(
        round(&engine, Some(&again.state), stale)
            .confirm(&(), "Sure?", &confirm)
            .await,
    );
    assert_eq!(still.requests[0].key, "ask0.1");

    // The valid answer, then a second question: the first is replayed from the log.
    let before = checked();
    let valid = [("ask0.1".to_owned(), accept(json!({"confirm": true})))].into();
    let mut call = round(&engine, Some(&still.state), valid);
    assert_eq!(
        call.confirm(&(), "Sure?", &confirm).await.ok(),
        Some(Elicitation::Accept(true))
    );
    let second = input_required(call.confirm(&(), "Really?", &confirm).await);
    assert_eq!(second.requests[0].key, "ask1");
    assert_eq!(checked() - before, 1, "the answer is checked once");

    let before = checked();
    let last = [("ask1".to_owned(), json!({"action": "decline"}))].into();
    let mut call = round(&engine, Some(&second.state), last);
    assert_eq!(
        call.confirm(&(), "Sure?", &confirm).await.ok(),
        Some(Elicitation::Accept(true))
    );
    assert_eq!(
        call.confirm(&(), "Really?", &confirm).await.ok(),
        Some(Elicitation::Decline)
    );
    assert_eq!(
        checked() - before,
        0,
        "a logged answer is read as it was validated"
    );
}

#[tokio::test]
async fn in_rounds_a_batch_keeps_its_answers_until_every_one_is_in() {
    let engine = Engine::new(Keyring::generate());
    let form = copies();
    let inputs = || {
        vec![
            Input::Form {
                key: "a",
                message: "A?",
                form: &form,
            },
            Input::Form {
                key: "b",
                message: "B?",
                form: &form,
            },
        ]
    };
    let asked = input_required(
        round(&engine, None, BTreeMap::new())
            .inputs(&(), inputs())
            .await,
    );
    let keys: Vec<&str> = asked.requests.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["a", "b"]);
    // One valid, one invalid: the valid one is kept, the other asked again.
    let retry = [
        ("a".to_owned(), accept(json!({"copies": 2}))),
        ("b".to_owned(), accept(json!({"copies": 0}))),
    ]
    .into();
    let again = input_required(
        round(&engine, Some(&asked.state), retry)
            .inputs(&(), inputs())
            .await,
    );
    let keys: Vec<&str> = again.requests.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["b.1"]);
    let last = [("b.1".to_owned(), accept(json!({"copies": 3})))].into();
    let answers = round(&engine, Some(&again.state), last)
        .inputs(&(), inputs())
        .await
        .expect("answers");
    let copies: Vec<Value> = answers
        .into_iter()
        .map(|a| match a {
            InputAnswer::Form(Elicitation::Accept(content)) => content["copies"].clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(copies, [json!(2), json!(3)]);
}
