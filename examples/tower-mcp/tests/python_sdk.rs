//! elicit on the tower-mcp SDK: `ticket-tower` (tower-mcp 0.25, `elicit_core::engine`)
//! driven by the official MCP Python SDK client (`mcp` 2.3.0) in both eras, every step
//! first answered with something unusable and asked again with the problem; in rounds, a
//! replayed state is refused. And the glue stays small. (The same checks as
//! `examples/tests/any_server.rs`, on the server without an SDK.)
//!
//! The Python SDK is found through `ELICIT_PYTHON` (an interpreter with `mcp==2.3.0`;
//! `.ci/run` makes one). Without it the drive is skipped with a note, except under CI
//! (`CI` or `ELICIT_REQUIRE_PYTHON_SDK` set), where it fails.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The Python interpreter with the SDK, or `None` (and why) when this machine has none.
fn python() -> Option<String> {
    match std::env::var("ELICIT_PYTHON") {
        Ok(python) => Some(python),
        Err(_)
            if ["CI", "ELICIT_REQUIRE_PYTHON_SDK"]
                .iter()
                .any(|v| std::env::var_os(v).is_some()) =>
        {
            panic!("ELICIT_PYTHON is not set: CI needs the Python SDK (see .ci/run)")
        }
        Err(_) => {
            eprintln!("skipped: set ELICIT_PYTHON to a python with mcp==2.3.0 to run this");
            None
        }
    }
}

/// Runs the SDK client against `ticket-tower` in `era`; what it printed.
fn drive(python: &str, era: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/python/ticket_client.py");
    let mut child = Command::new(python)
        .arg(script)
        .args([era, env!("CARGO_BIN_EXE_ticket-tower")])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the {era} drive took over a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the {era} drive failed");
    serde_json::from_slice(&output.stdout).expect("the driver prints JSON")
}

fn check_steps(era: &str, out: &Value) {
    assert_eq!(out["text"], "Booked seat A2 on 2025-02-03.", "{era}: {out}");
    let asked = out["asked"].as_array().unwrap();
    let steps = [
        (vec!["date"], "No seats left on 2025-02-01"),
        (vec!["seat"], "Seat: \"Z9\" is not one of the options"),
        (vec!["popcorn", "drink"], "Popcorn?: expected true or false"),
        (vec!["size"], "Size: \"huge\" is not one of the options"),
    ];
    assert_eq!(asked.len(), steps.len() * 2, "{era}: {out}");
    for (i, (fields, problem)) in steps.iter().enumerate() {
        let (first, again) = (&asked[2 * i], &asked[2 * i + 1]);
        // Fields in declaration order, on the wire as the client read it.
        assert_eq!(first["fields"], serde_json::json!(fields), "{era}: {out}");
        let (first, again) = (
            first["message"].as_str().unwrap(),
            again["message"].as_str().unwrap(),
        );
        assert!(!first.contains(problem), "{era}: {first}");
        assert!(
            again.starts_with(problem) && again.ends_with(first),
            "{era}: {again}"
        );
    }
}

#[test]
fn the_ticket_wizard_books_on_tower_mcp_pushed() {
    let Some(python) = python() else { return };
    check_steps("legacy", &drive(&python, "legacy"));
}

#[test]
fn the_ticket_wizard_books_on_tower_mcp_in_rounds_and_a_replay_is_refused() {
    let Some(python) = python() else { return };
    let out = drive(&python, "2026-07-28");
    check_steps("2026-07-28", &out);
    assert_eq!(out["once"], "InputRequiredResult", "{out}");
    let replay = out["replay"].as_str().unwrap();
    assert!(replay.contains("used before"), "{replay}");
}

/// The non-blank, non-comment lines between the two `// ── elicitation glue ──` lines.
fn glue_lines(source: &str) -> usize {
    let marker = "\n// ── elicitation glue ──\n";
    let glue = source
        .split(marker)
        .nth(1)
        .expect("the source marks its glue");
    glue.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

#[test]
fn the_glue_stays_under_40_lines() {
    let source = include_str!("../src/main.rs");
    let lines = glue_lines(source);
    assert!(
        lines <= 40,
        "ticket-tower's elicitation glue is {lines} lines"
    );
    assert!(
        lines >= 20,
        "the markers still frame the glue ({lines} lines)"
    );
}
