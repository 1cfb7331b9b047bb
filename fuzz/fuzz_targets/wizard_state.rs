//! Wizard state decoding: arbitrary bytes as a saved `WizardState` (JSON), as a sealed
//! rounds `requestState` token, as a payload sealed and opened again, or as a keyring's
//! text. Restoring must give a typed error or a flow that then runs: a restored flow is
//! polled and answered a few rounds (see `elicit_fuzz::drive`).
//!
//! The first byte picks the mode (`byte % 6`) and the revision (`byte / 6 % 3`); the
//! rest is the mode's input, mostly a stream of JSON values (a state, then answers).
#![no_main]

use std::sync::OnceLock;

use elicit_core::Action;

/// The longest token the sealer writes or opens (64 KiB; documented in `elicit_core::seal`).
const MAX_TOKEN_LEN: usize = 64 * 1024;
use elicit_core::__private::testing::{Flow, Poll, WizardState};
use elicit_core::__private::testing::{Sealer, with_strictness};
use elicit_core::seal::{Key, Keyring, SealError};
use elicit_core::wizard::WizardError;
use elicit_core::{Revision, Strictness};
use elicit_examples::ticket::{Cinema, TicketOrder};
use elicit_fuzz::{Answer, NOW, Survey, binding, drive, keyring};
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::{Value, json};

const MODES: u8 = 6;

fn cinema() -> &'static Cinema {
    static CINEMA: OnceLock<Cinema> = OnceLock::new();
    CINEMA.get_or_init(Cinema::demo)
}

fn sealer() -> &'static Sealer {
    static SEALER: OnceLock<Sealer> = OnceLock::new();
    SEALER.get_or_init(|| Sealer::new(keyring()))
}

/// A real token: the ticket wizard waiting for a seat on 2025-02-03.
fn real_token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        let mut flow = Flow::<TicketOrder>::new();
        let rev = Revision::V2026_07_28;
        assert!(matches!(flow.poll(cinema(), rev), Ok(Poll::Ask(_))));
        flow.answer(
            cinema(),
            Action::Accept,
            Some(json!({"date": "2025-02-03"})),
        )
        .expect("a valid date");
        assert!(matches!(flow.poll(cinema(), rev), Ok(Poll::Ask(_))));
        let token = sealer()
            .seal_at(&binding(), flow.state(), NOW)
            .expect("a small state seals");
        let other =
            elicit_core::seal::Binding::new("bob", "tools/call", "book_tickets", &json!({}));
        assert!(matches!(
            sealer().open_at::<WizardState>(&other, &token, NOW + 1),
            Err(SealError::Tampered)
        ));
        token
    })
}

fn stream(bytes: &[u8]) -> Vec<Value> {
    serde_json::Deserializer::from_slice(bytes)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .take(16)
        .collect()
}

fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// Restores `state` as each wizard; a restored flow keeps the state as given and runs.
fn restore_and_drive(state: &WizardState, rev: Revision, answers: &[Value], seed: u64) {
    let restored = Flow::<TicketOrder>::restore(state.clone());
    match restored {
        Ok(flow) => {
            assert_eq!(flow.state(), state, "restore changed the state");
            let mut it = answers.iter().cloned().map(Answer::from_value);
            drive(flow, cinema(), rev, &mut it, seed);
        }
        Err(e) => check_state_error(&e),
    }
    match Flow::<Survey>::restore(state.clone()) {
        Ok(flow) => {
            assert_eq!(flow.state(), state, "restore changed the state");
            let mut it = answers.iter().cloned().map(Answer::from_value);
            drive(flow, &(), rev, &mut it, seed);
        }
        Err(e) => check_state_error(&e),
    }
}

fn check_state_error(e: &WizardError) {
    assert!(!e.to_string().is_empty());
}

fn open_and_drive(token: &str, rev: Revision, answers: &[Value], seed: u64) -> bool {
    let _ = sealer().open_at::<Value>(&binding(), token, NOW + 60);
    match sealer().open_at::<WizardState>(&binding(), token, NOW + 60) {
        Ok(state) => {
            restore_and_drive(&state, rev, answers, seed);
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let mode = first % MODES;
    let rev = elicit_fuzz::revision(first / MODES);
    let seed = seed_of(rest);
    match mode {
        // A saved state (JSON), then answers.
        0 => {
            let values = stream(rest);
            let Some((state, answers)) = values.split_first() else {
                return;
            };
            if let Ok(state) = WizardState::deserialize(state) {
                restore_and_drive(&state, rev, answers, seed);
            }
        }
        // Fresh flows answered from the input, strictly and leniently.
        1 => {
            let answers = stream(rest);
            for strictness in [Strictness::Strict, Strictness::Lenient] {
                let mut it = answers.iter().cloned().map(Answer::from_value);
                let flow = with_strictness(Flow::<TicketOrder>::new(), strictness);
                drive(flow, cinema(), rev, &mut it, seed);
                let mut it = answers.iter().cloned().map(Answer::from_value);
                let flow = with_strictness(Flow::<Survey>::new(), strictness);
                drive(flow, &(), rev, &mut it, seed);
            }
        }
        // A `requestState` token as the client sent it, then answers.
        2 => {
            let (token, answers) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], stream(&rest[i + 1..])),
                None => (rest, Vec::new()),
            };
            open_and_drive(&String::from_utf8_lossy(token), rev, &answers, seed);
        }
        // A real token, changed by the input: it must not open.
        3 => {
            let original = real_token();
            let mut token = original.as_bytes().to_vec();
            for op in rest.chunks(4).take(8) {
                let [kind, hi, lo, byte] = [
                    op[0],
                    *op.get(1).unwrap_or(&0),
                    *op.get(2).unwrap_or(&0),
                    *op.get(3).unwrap_or(&0),
                ];
                let at = (usize::from(hi) << 8 | usize::from(lo)) % (token.len() + 1);
                match kind % 4 {
                    0 if at < token.len() => token[at] = byte,
                    1 => token.insert(at, byte),
                    2 if at < token.len() => {
                        token.remove(at);
                    }
                    3 => token.truncate(at),
                    _ => {}
                }
            }
            let token = String::from_utf8_lossy(&token);
            let opened = open_and_drive(&token, rev, &[], seed);
            if token != original {
                assert!(!opened, "a changed token opened: {token:?}");
                assert!(
                    sealer()
                        .open_at::<Value>(&binding(), &token, NOW + 60)
                        .is_err()
                );
            } else {
                assert!(opened, "the real token does not open");
            }
        }
        // A payload sealed and opened again: the same value comes back, for this
        // binding only and until it expires; then read as a state.
        4 => {
            let values = stream(rest);
            let Some((payload, answers)) = values.split_first() else {
                return;
            };
            match sealer().seal_at(&binding(), payload, NOW) {
                Ok(token) => {
                    assert!(token.len() <= MAX_TOKEN_LEN);
                    let back: Value = sealer()
                        .open_at(&binding(), &token, NOW + 1)
                        .unwrap_or_else(|e| panic!("a sealed payload does not open: {e}"));
                    // Exactly: elicit-core turns on serde_json's `float_roundtrip`
                    // (this target found a number one ulp off without it).
                    assert_eq!(&back, payload, "the payload changed through seal and open");
                    let late = NOW + 15 * 60; // a sealer's default lifetime
                    assert!(matches!(
                        sealer().open_at::<Value>(&binding(), &token, late),
                        Err(SealError::Expired { .. })
                    ));
                    let other = elicit_core::seal::Binding::new(
                        "alice",
                        "tools/call",
                        "pay_tickets",
                        &json!({}),
                    );
                    assert!(matches!(
                        sealer().open_at::<Value>(&other, &token, NOW + 1),
                        Err(SealError::Tampered)
                    ));
                    // Another keyring with the same ids does not open it either.
                    let foreign = Sealer::new(
                        Keyring::new("k1", Key::from_bytes([8; 32])).expect("a fixed key"),
                    );
                    assert!(matches!(
                        foreign.open_at::<Value>(&binding(), &token, NOW + 1),
                        Err(SealError::Tampered)
                    ));
                    open_and_drive(&token, rev, answers, seed);
                }
                Err(SealError::TooLarge { len, .. }) => {
                    assert!(len > MAX_TOKEN_LEN)
                }
                Err(e) => panic!("sealing a JSON value failed: {e}"),
            }
        }
        // A keyring's text (environment variable or key file), and a key alone.
        _ => {
            let text = String::from_utf8_lossy(rest);
            if let Ok(ring) = text.parse::<Keyring>() {
                let again: Keyring = ring
                    .to_text()
                    .parse()
                    .unwrap_or_else(|e| panic!("a keyring's own text does not parse: {e}"));
                assert_eq!(
                    again.to_text(),
                    ring.to_text(),
                    "the text changes on a round trip"
                );
                // A state sealed by it opens with its round-tripped copy.
                let token = Sealer::new(ring)
                    .seal_at(&binding(), &json!({"n": 1}), NOW)
                    .expect("a small payload seals");
                let back: Value = Sealer::new(again)
                    .open_at(&binding(), &token, NOW + 1)
                    .expect("the same keys open it");
                assert_eq!(back, json!({"n": 1}));
            }
            if let Ok(key) = text.parse::<Key>() {
                let ring = Keyring::new("k1", key.clone()).expect("a valid id");
                let again: Keyring = ring.to_text().parse().expect("a keyring's text parses");
                assert_eq!(again.to_text(), ring.to_text());
            }
        }
    }
});
