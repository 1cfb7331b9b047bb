//! Driving a ticket-wizard server with the official MCP Python SDK client (`mcp` 2.3.0),
//! for the tests of the servers on other stacks (`examples/tests/any_server.rs`,
//! `examples/tower-mcp/tests/python_sdk.rs`).
//!
//! The Python SDK is found through `ELICIT_PYTHON` (an interpreter with `mcp==2.3.0`;
//! `.ci/run` makes one), and a drive without it panics. The tests that drive carry
//! `#[cfg_attr(no_python_sdk, ignore = "...")]`: their package's build script
//! (`tests/programs.rs`) sets `no_python_sdk` when `ELICIT_PYTHON` names no program,
//! unless `CI` or `ELICIT_REQUIRE_PYTHON_SDK` requires the SDK.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The Python interpreter with the SDK, `ELICIT_PYTHON`; panics when it is not set.
fn python() -> String {
    std::env::var("ELICIT_PYTHON").unwrap_or_else(|_| {
        panic!("ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK; .ci/run makes one)")
    })
}

/// Runs the SDK client (`tests/python/ticket_client.py`) against the server `binary` in
/// `era` (`legacy` or `2026-07-28`); what it printed.
fn drive(python: &str, era: &str, binary: &str) -> Value {
    drive_script(python, "ticket_client.py", era, &[binary])
}

/// Runs the SDK client `tests/python/SCRIPT` in `era` against the server started with
/// `command`; what it printed.
fn drive_script(python: &str, script: &str, era: &str, command: &[&str]) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/python")
        .join(script);
    let mut child = Command::new(python)
        .arg(script)
        .arg(era)
        .args(command)
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

/// Checks a drive: booked, every step asked twice (the second time with the problem of
/// the unusable first answer above the message), the fields in declaration order.
fn check_steps(era: &str, out: &Value) {
    assert_eq!(out["text"], "Booked seat A2 on 2025-02-03.", "{era}: {out}");
    let asked = out["asked"].as_array().unwrap();
    let steps = [
        (
            vec!["date"],
            "Date: \"2025-02-01\" is not one of the options",
        ),
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

/// The non-blank, non-comment lines between the two `// ── elicitation glue ──` lines.
pub fn glue_lines(source: &str) -> usize {
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

/// The pushed era (`initialize`, 2025-11-25) through the server `binary`: booked, every
/// step asked again after an unusable answer.
pub fn check_pushed(binary: &str) {
    let python = python();
    check_steps("legacy", &drive(&python, "legacy", binary));
}

/// 2026-07-28 through the server `binary`: the same booking in rounds, and a replayed
/// state refused.
pub fn check_rounds(binary: &str) {
    let python = python();
    let out = drive(&python, "2026-07-28", binary);
    check_steps("2026-07-28", &out);
    assert_eq!(out["once"], "InputRequiredResult", "{out}");
    let replay = out["replay"].as_str().unwrap();
    assert!(replay.contains("used before"), "{replay}");
}

/// Seed 002's purge through the server `binary` (`purge-approval`) in `era` (`legacy`
/// or `2026-07-28`): `days=90`, the box ticked, the approver's e-mail typed, the other
/// defaults kept, submitted: `[DELETED]`, and exactly the logs older than 90 days gone.
#[cfg(unix)]
pub fn check_seed_purge(binary: &str, era: &str) {
    let python = python();
    let root = std::env::temp_dir().join(format!("elicit-seed-purge-{era}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = crate::servers::purge::create_samples(&root).expect("sample logs");
    let root_arg = root.display().to_string();
    let out = drive_script(
        &python,
        "purge_client.py",
        era,
        &[binary, "--root", &root_arg],
    );
    let mut left: Vec<String> = std::fs::read_dir(&repo)
        .expect("the repository")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    let _ = std::fs::remove_dir_all(&root);
    assert_eq!(
        out["text"],
        "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
        "{era}: {out}"
    );
    assert_eq!(
        left,
        ["app-003d.log", "app-020d.log", "app-045d.log"],
        "{era}: {out}"
    );
    let schema = &out["asked"][0]["schema"]["properties"]["retention_days"];
    assert_eq!(schema["default"], 90, "{era}: {out}");
    assert_eq!(schema["minimum"], 90, "{era}: {out}");
}

/// A tool call whose forms are answered on the server's web pages
/// (`tests/python/pages_client.py`): `client` is `url` (URL mode only) or `none` (no
/// elicitation: links in the tool result); `bodies` what the person posts on each page
/// (a JSON list; a list of bodies for one page posts each in turn). What it printed.
pub fn drive_pages(
    command: &[&str],
    era: &str,
    client: &str,
    tool: &str,
    args: &Value,
    bodies: &Value,
) -> Value {
    let python = python();
    let (args, bodies) = (args.to_string(), bodies.to_string());
    let mut line = vec![client, tool, args.as_str(), bodies.as_str()];
    line.extend_from_slice(command);
    drive_script(&python, "pages_client.py", era, &line)
}

/// The elicitation glue of the server whose `source` this is, named `name`, stays at
/// most 40 lines (and the markers still frame it).
pub fn check_glue(name: &str, source: &str) {
    let lines = glue_lines(source);
    assert!(lines <= 40, "{name}'s elicitation glue is {lines} lines");
    assert!(
        lines >= 20,
        "the markers still frame {name}'s glue ({lines} lines)"
    );
}
