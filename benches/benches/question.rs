//! A question as rmcp carries it: rmcp 3.11 takes an `input_required` round's questions
//! (and a task's) only as its typed structs, so elicit-rmcp parses the JSON text the
//! engine wrote into them (`InputRequest`), and rmcp writes them back to text. Rows: the
//! parse, the clone a cached parse costs instead, and rmcp writing the typed question.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_benches::{Form5, Form20};
use elicit_core::engine::{Engine, Halt, Peer, Question};
use elicit_core::seal::{Binding, Keyring};
use elicit_core::{Elicit, NoSecrets, Revision};
use rmcp::model::InputRequest;
use serde_json::json;

/// The engine's question for the form `T`, in a 2026-07-28 round.
fn question<T: Elicit + NoSecrets>() -> Question {
    let engine = Engine::new(Keyring::generate());
    let client = Peer::new(Some(Revision::V2026_07_28), &json!({"elicitation": {}}));
    let binding = Binding::new("", "tools/call", "t", &json!({}));
    let mut call = engine
        .rounds(client, binding, None, BTreeMap::new())
        .unwrap();
    let mut asked = std::pin::pin!(call.ask::<T>(&(), "Fill in the form"));
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match asked.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(Err(Halt::InputRequired(mut round))) => round.requests.remove(0),
        _ => panic!("the question ends the round"),
    }
}

fn group<T: Elicit + NoSecrets>(c: &mut Criterion, name: &str) {
    let request = question::<T>();
    let envelope = request.to_string();
    let parsed = InputRequest::Elicitation(serde_json::from_str(&envelope).unwrap());
    let mut g = c.benchmark_group(format!("question/{name}"));
    g.bench_function("rmcp_parse", |b| {
        b.iter(|| {
            let text = black_box(&request).to_string();
            InputRequest::Elicitation(serde_json::from_str(&text).unwrap())
        })
    });
    g.bench_function("rmcp_cached_clone", |b| {
        b.iter(|| black_box(&parsed).clone())
    });
    g.bench_function("rmcp_to_string", |b| {
        b.iter(|| serde_json::to_string(black_box(&parsed)).unwrap())
    });
    g.bench_function("engine_text", |b| {
        b.iter(|| black_box(&request).to_string())
    });
    g.finish();
}

fn questions(c: &mut Criterion) {
    group::<Form5>(c, "form5");
    group::<Form20>(c, "form20");
}

criterion_group!(benches, questions);
criterion_main!(benches);
