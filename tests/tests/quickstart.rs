//! The README's quick start ("In an MCP server (rmcp)") as a user meets it: its
//! `Cargo.toml` lines and its program are copied as they are into a new crate outside the
//! workspace, next to a checkout of elicit (the README's `path` lines), built with cargo,
//! and the server it makes is driven over stdio: `initialize`, `tools/list`, and a
//! `tools/call` whose form reaches the client with its fields in declaration order and
//! whose question is answered.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// How long one answer of the server may take.
const ANSWER: Duration = Duration::from_secs(20);

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The first fenced block opening with `fence` after `heading` in the README, without
/// rustdoc's hidden lines (`# ...`).
fn block(readme: &str, heading: &str, fence: &str) -> String {
    let section = &readme[readme.find(heading).expect("the README has the section")..];
    let start = section.find(fence).expect("the section has the block") + fence.len();
    let body = &section[start..];
    let body = &body[body.find('\n').unwrap() + 1..body.find("\n```").unwrap()];
    body.lines()
        .filter(|l| !(l.starts_with("# ") || *l == "#"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_readme_quick_start_builds_outside_the_workspace_and_asks() {
    let root = workspace().canonicalize().unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let heading = "## In an MCP server (rmcp)";
    let deps = block(&readme, heading, "```toml");
    let program = block(&readme, heading, "```rust");
    assert!(
        program.lines().count() <= 45,
        "the quick start stays short: {} lines",
        program.lines().count()
    );

    // The crate a user makes with `cargo new purge` next to a checkout of elicit (here the
    // workspace itself, linked), its dependencies pasted as the README has them.
    for krate in ["elicit-core", "elicit-rmcp"] {
        let documented = format!("{krate} = {{ path = \"../elicit/{krate}\" }}");
        assert!(
            deps.contains(&documented),
            "the README depends on {documented}"
        );
    }
    let outside = std::env::temp_dir().join(format!("elicit-quickstart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    let dir = outside.join("purge");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::os::unix::fs::symlink(&root, outside.join("elicit")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"purge\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [workspace]\n\n{deps}"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), program).unwrap();
    // The workspace's versions, so the build is the one the rest of the tests use.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let target = root.join("target").join("quickstart");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // Without debug info (the workspace's own dependencies are built without it too):
    // the same program, in half the disk (361 MB against 788 MB).
    let built = Command::new(cargo)
        .args(["build", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        .status()
        .expect("cargo runs");
    assert!(built.success(), "the quick start builds");
    let _ = std::fs::remove_dir_all(&outside);

    let mut server = Command::new(target.join("debug").join("purge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut input = server.stdin.take().unwrap();
    let output = server.stdout.take().unwrap();
    let errors = server.stderr.take().unwrap();
    let (lines, received) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |message: Value| {
        writeln!(input, "{message}").unwrap();
        input.flush().unwrap();
    };
    // Each message as its text (the order of its keys as sent) and as JSON.
    let next_text = || received.recv_timeout(ANSWER).expect("the server answers");
    let next = || -> Value { serde_json::from_str(&next_text()).expect("a JSON message") };

    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "quickstart-test", "version": "0"}
        }}),
    );
    let init = next();
    assert_eq!(init["id"], 1);
    // It introduces itself by its own name, not as "rmcp".
    assert_eq!(init["result"]["serverInfo"]["name"], "purge", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let list = next();
    assert_eq!(list["result"]["tools"][0]["name"], "purge", "{list}");

    send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "purge", "arguments": {}}}));
    let asked_text = next_text();
    let asked: Value = serde_json::from_str(&asked_text).unwrap();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(asked["params"]["message"], "Really delete 1,284 logs?");
    assert_eq!(
        asked["params"]["requestedSchema"]["properties"]["confirm"]["title"],
        "Delete them for good"
    );
    // The fields reach the client in the order the struct declares them (the README's
    // dependencies turn serde_json's `preserve_order` on), not alphabetically.
    let (confirm, approver) = (
        asked_text
            .find(r#""confirm":{"#)
            .expect("the field confirm"),
        asked_text
            .find(r#""approver":{"#)
            .expect("the field approver"),
    );
    assert!(confirm < approver, "fields out of order: {asked_text}");
    send(
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept",
                "content": {"confirm": true, "approver": "ana@example.com"}}}),
    );
    let done = next();
    assert_eq!(done["id"], 3, "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "[DELETED] by ana@example.com",
        "{done}"
    );

    let _ = server.kill();
    let _ = server.wait();
    // Nothing to warn about: no warning of lost field order on standard error.
    let mut said = String::new();
    std::io::Read::read_to_string(&mut { errors }, &mut said).unwrap();
    assert!(
        !said.contains("preserve_order"),
        "the server warned: {said}"
    );
}

/// The README renders on GitHub and crates.io as written: its Rust blocks hold no
/// rustdoc hidden lines (`# ...`), which would show there and break a paste.
#[test]
fn the_readme_shows_no_hidden_lines() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let mut in_rust = false;
    for (n, line) in readme.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            in_rust = !in_rust && info.starts_with("rust");
            continue;
        }
        assert!(
            !(in_rust && (line.starts_with("# ") || line == "#")),
            "README.md line {}: a rustdoc hidden line shows when rendered: {line}",
            n + 1
        );
    }
}
