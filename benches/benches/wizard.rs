//! The cinema ticket wizard of `examples/src/ticket.rs`: one in-memory step (answer,
//! then poll the next request and serialize it), and a stateless round through a JSON
//! state string (parse, restore, step, save).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use elicit_core::__private::testing::Sealer;
use elicit_core::__private::testing::{Flow, Poll, WizardState};
use elicit_core::Action;
use elicit_core::Elicit;
use elicit_core::Revision;
use elicit_core::seal::{Binding, Keyring};
use elicit_core::wizard::Wizard;
use elicit_examples::ticket::{Cinema, SeatChoice, ShowDate, Snacks, TicketOrder};
use serde_json::{Value, json};

const REV: Revision = Revision::V2025_11_25;

/// Polls the next request and serializes its `params` to the wire string (straight
/// from the form, `Request::params`).
fn ask(flow: &mut Flow<TicketOrder>, cinema: &Cinema) -> String {
    match flow.poll(cinema, REV).unwrap() {
        Poll::Ask(request) => request.params(),
        Poll::Done(_) => panic!("the wizard ended early"),
    }
}

/// A flow asking step `step` (0: date, 1: seat, 2: snacks), earlier steps answered.
fn flow_at(step: usize, cinema: &Cinema) -> Flow<TicketOrder> {
    let answers = answers();
    let mut flow = Flow::<TicketOrder>::new();
    ask(&mut flow, cinema);
    for answer in &answers[..step] {
        flow.answer(cinema, Action::Accept, Some(answer.clone()))
            .unwrap();
        ask(&mut flow, cinema);
    }
    flow
}

fn answers() -> [Value; 3] {
    [
        json!({"date": "2025-02-03"}),
        json!({"seat": "A2"}),
        json!({"popcorn": true, "drink": "cola"}),
    ]
}

/// One round as a stateless server runs it: parse the state, restore, answer, ask the
/// next question, save the state.
fn round(state: &str, cinema: &Cinema, answer: Value) -> (String, String) {
    let state: WizardState = serde_json::from_str(state).unwrap();
    let mut flow = Flow::<TicketOrder>::restore(state).unwrap();
    flow.answer(cinema, Action::Accept, Some(answer)).unwrap();
    let params = ask(&mut flow, cinema);
    (params, serde_json::to_string(flow.state()).unwrap())
}

/// One round as the 2026-07-28 adapter runs it: bind the request (its arguments
/// in canonical JSON), open the sealed `requestState` (authenticate, decrypt, check expiry
/// and binding, parse), restore, answer, ask the next question, seal the new state.
/// The answer arrives owned (deserialized from the request's `inputResponses`), as in
/// the adapter.
fn sealed_round(
    sealer: &Sealer,
    arguments: &Value,
    token: &str,
    cinema: &Cinema,
    answer: Value,
) -> (String, String) {
    let binding = &Binding::new("", "tools/call", "book_tickets", arguments);
    let state: WizardState = sealer.open(binding, token).unwrap();
    let mut flow = Flow::<TicketOrder>::restore(state).unwrap();
    flow.answer(cinema, Action::Accept, Some(answer)).unwrap();
    let params = ask(&mut flow, cinema);
    (params, sealer.seal(binding, flow.state()).unwrap())
}

fn wizard(c: &mut Criterion) {
    let cinema = Cinema::demo();
    let answers = answers();
    let mut g = c.benchmark_group("wizard");
    for (step, name) in [(0, "date"), (1, "seat"), (2, "snacks")] {
        // The answer arrives owned, as the MCP adapter holds the client's result; the
        // flow and the answer are made outside the timing.
        g.bench_function(format!("step_{name}/answer_poll_to_wire"), |b| {
            b.iter_batched_ref(
                || (flow_at(step, &cinema), Some(answers[step].clone())),
                |(flow, answer)| {
                    flow.answer(&cinema, Action::Accept, black_box(answer.take()))
                        .unwrap();
                    ask(flow, &cinema)
                },
                BatchSize::SmallInput,
            )
        });
        // The step itself: answer in, next request out (not serialized).
        g.bench_function(format!("step_{name}/answer_poll"), |b| {
            b.iter_batched_ref(
                || (flow_at(step, &cinema), Some(answers[step].clone())),
                |(flow, answer)| {
                    flow.answer(&cinema, Action::Accept, black_box(answer.take()))
                        .unwrap();
                    matches!(flow.poll(&cinema, REV).unwrap(), Poll::Ask(_))
                },
                BatchSize::SmallInput,
            )
        });
        let state = serde_json::to_string(flow_at(step, &cinema).state()).unwrap();
        g.bench_function(format!("step_{name}/round_json_state"), |b| {
            b.iter_batched(
                || answers[step].clone(),
                |answer| round(black_box(&state), &cinema, answer),
                BatchSize::SmallInput,
            )
        });
        let sealer = Sealer::new(Keyring::generate());
        let arguments = json!({});
        let binding = Binding::new("", "tools/call", "book_tickets", &arguments);
        let token = sealer
            .seal(&binding, flow_at(step, &cinema).state())
            .unwrap();
        g.bench_function(format!("step_{name}/round_sealed_state"), |b| {
            b.iter_batched(
                || answers[step].clone(),
                |answer| sealed_round(&sealer, &arguments, black_box(&token), &cinema, answer),
                BatchSize::SmallInput,
            )
        });
        // The round's sealing alone: bind, open and parse the state; write and seal it.
        let state = flow_at(step, &cinema).state().clone();
        g.bench_function(format!("step_{name}/bind_open_seal_only"), |b| {
            b.iter(|| {
                let binding = Binding::new("", "tools/call", "book_tickets", &arguments);
                let opened: WizardState = sealer.open(&binding, black_box(&token)).unwrap();
                (opened, sealer.seal(&binding, black_box(&state)).unwrap())
            })
        });
    }
    // The pieces of the seat step's request on their own: its runtime options make
    // the form an owned one, so these are the costs of a prepared step.
    let mut flow = flow_at(1, &cinema);
    let Poll::Ask(request) = flow.poll(&cinema, REV).unwrap() else {
        panic!("the seat step asks")
    };
    g.bench_function("seat_request/requested_schema_to_string", |b| {
        b.iter(|| {
            serde_json::to_string(&black_box(&request).form().requested_schema(REV).unwrap())
                .unwrap()
        })
    });
    g.bench_function("seat_request/params_to_string", |b| {
        b.iter(|| black_box(&request).params())
    });
    // The example's own `prepare` hook for the seat step (user code: it formats the
    // message and copies the free seats of the date), part of the date step's cost.
    let progress = flow_at(1, &cinema);
    g.bench_function("seat_request/prepare_hook_only", |b| {
        b.iter(|| <TicketOrder as Wizard>::prepare(&cinema, black_box(progress.progress()), 1))
    });
    g.bench_function("seat_request/poll_only", |b| {
        b.iter_batched_ref(
            || flow_at(1, &cinema),
            |flow| flow.poll(&cinema, REV).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
    // One answer parse of each step's form, the unit the step cost is measured in.
    let mut g = c.benchmark_group("wizard/parse");
    g.bench_function("date", |b| {
        b.iter(|| ShowDate::from_content(Some(black_box(&answers[0]))).unwrap())
    });
    g.bench_function("seat", |b| {
        b.iter(|| SeatChoice::from_content(Some(black_box(&answers[1]))).unwrap())
    });
    g.bench_function("snacks", |b| {
        b.iter(|| Snacks::from_content(Some(black_box(&answers[2]))).unwrap())
    });
    // The same parses of a fresh copy of the answer each time, batched as the steps
    // above are (the step rows run on fresh flows; the rows above parse one value
    // over and over, always in cache).
    for (step, name) in [(0, "date"), (1, "seat"), (2, "snacks")] {
        g.bench_function(format!("{name}_batched"), |b| {
            b.iter_batched_ref(
                || answers[step].clone(),
                |answer| match step {
                    0 => ShowDate::from_content(Some(answer)).is_ok(),
                    1 => SeatChoice::from_content(Some(answer)).is_ok(),
                    _ => Snacks::from_content(Some(answer)).is_ok(),
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, wizard);
criterion_main!(benches);
