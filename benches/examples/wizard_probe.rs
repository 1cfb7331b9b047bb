//! A probe for instruction counts (callgrind), which stay the same from run to run
//! where wall-clock times on a shared VM do not: runs N ticket-wizard steps of one kind.
//!
//! ```sh
//! cargo build --release -p elicit-benches --example wizard_probe
//! P=target/release/examples/wizard_probe
//! valgrind --tool=callgrind $P setup 0 2000   # the flows alone
//! valgrind --tool=callgrind $P step 0 2000    # ... and 2000 date steps
//! ```
//!
//! (step minus setup) / 2000 is one step's count. Kinds: `setup`; `parse` (one parse
//! of the step's form, the unit of a step's cost); `prepare` (the seat step's `prepare`
//! hook alone, given step 1); `step` (owned answer in, next request out); `params` (and
//! the request written to the wire); `value` (and written through `to_params()`'s
//! `Value`); `sealed` (a whole MRTR round: bind, open, restore, answer, poll, write the
//! params, seal); the round's sealing alone: `bind`, `open`, `seal`, `random` (the nonce).
//! Steps: 0 date, 1 seat, 2 snacks. The wall-clock time per iteration goes to stderr.

use elicit_core::Elicit;
use elicit_core::Revision;
use elicit_core::seal::{Binding, Keyring, Sealer};
use elicit_core::wizard::{Flow, Poll, Wizard, WizardState};
use elicit_examples::ticket::{Cinema, SeatChoice, ShowDate, Snacks, TicketOrder};
use serde_json::{Value, json};
use std::hint::black_box;
const REV: Revision = Revision::V2025_11_25;
fn answers() -> [Value; 3] {
    [
        json!({"date": "2025-02-03"}),
        json!({"seat": "A2"}),
        json!({"popcorn": true, "drink": "cola"}),
    ]
}
fn flow_at(step: usize, cinema: &Cinema) -> Flow<TicketOrder> {
    let answers = answers();
    let mut flow = Flow::<TicketOrder>::new();
    let _ = flow.poll(cinema, REV).unwrap();
    for a in &answers[..step] {
        flow.answer(cinema, "accept", Some(a)).unwrap();
        let _ = flow.poll(cinema, REV).unwrap();
    }
    flow
}
fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap();
    let step: usize = args.next().unwrap().parse().unwrap();
    let n: usize = args.next().unwrap().parse().unwrap();
    let cinema = Cinema::demo();
    let answers = answers();
    let sealer = Sealer::new(Keyring::generate());
    let binding = Binding::new("", "tools/call", "book_tickets", &json!({}));
    let token = sealer
        .seal(&binding, flow_at(step, &cinema).state())
        .unwrap();
    let mut flows: Vec<_> = (0..n)
        .map(|_| (flow_at(step, &cinema), Some(answers[step].clone())))
        .collect();
    let mut sink = 0usize;
    let started = std::time::Instant::now();
    match what.as_str() {
        "setup" => {}
        "step" => {
            for (flow, a) in &mut flows {
                flow.answer_value(&cinema, "accept", black_box(a.take()))
                    .unwrap();
                sink += matches!(flow.poll(&cinema, REV).unwrap(), Poll::Ask(_)) as usize;
            }
        }
        "params" => {
            for (flow, a) in &mut flows {
                flow.answer_value(&cinema, "accept", black_box(a.take()))
                    .unwrap();
                if let Poll::Ask(r) = flow.poll(&cinema, REV).unwrap() {
                    sink += serde_json::to_string(&r.params()).unwrap().len();
                }
            }
        }
        "parse" => {
            for (_, a) in &flows {
                let answer = black_box(a.as_ref());
                sink += match step {
                    0 => ShowDate::from_content(answer).is_ok(),
                    1 => SeatChoice::from_content(answer).is_ok(),
                    _ => Snacks::from_content(answer).is_ok(),
                } as usize;
            }
        }
        "prepare" => {
            for (flow, _) in &flows {
                let prepared = <TicketOrder as Wizard>::prepare(&cinema, flow.progress(), 1);
                sink += black_box(prepared).is_some() as usize;
            }
        }
        "bind" => {
            for _ in &flows {
                let binding = Binding::new("", "tools/call", "book_tickets", &json!({}));
                sink += black_box(binding).name().len();
            }
        }
        "open" => {
            for _ in &flows {
                let state: WizardState = sealer.open(&binding, black_box(&token)).unwrap();
                sink += state.step();
            }
        }
        "seal" => {
            let state = flow_at(step, &cinema).into_state();
            for _ in &flows {
                sink += sealer.seal(&binding, black_box(&state)).unwrap().len();
            }
        }
        "random" => {
            for _ in &flows {
                let mut nonce = [0u8; 24];
                getrandom::fill(&mut nonce).unwrap();
                sink += black_box(nonce)[0] as usize;
            }
        }
        "value" => {
            for (flow, a) in &mut flows {
                flow.answer_value(&cinema, "accept", black_box(a.take()))
                    .unwrap();
                if let Poll::Ask(r) = flow.poll(&cinema, REV).unwrap() {
                    sink += serde_json::to_string(&r.to_params()).unwrap().len();
                }
            }
        }
        "sealed" => {
            for (_, a) in &mut flows {
                let binding = Binding::new("", "tools/call", "book_tickets", &json!({}));
                let state: WizardState = sealer.open(&binding, black_box(&token)).unwrap();
                let mut flow = Flow::<TicketOrder>::restore(state).unwrap();
                flow.answer_value(&cinema, "accept", a.take()).unwrap();
                if let Poll::Ask(r) = flow.poll(&cinema, REV).unwrap() {
                    sink += serde_json::to_string(&r.params()).unwrap().len();
                }
                sink += sealer.seal(&binding, &flow.into_state()).unwrap().len();
            }
        }
        _ => panic!(),
    }
    eprintln!(
        "{:.0} ns each",
        started.elapsed().as_nanos() as f64 / n as f64
    );
    println!("{sink}");
}
