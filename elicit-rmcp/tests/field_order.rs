//! What a client receives of a three-field form through rmcp, as the bytes on the wire:
//! the fields in declaration order when serde_json's `preserve_order` is on in the build,
//! in alphabetical order when it is not (and then the elicitor warns on standard error).
//!
//! `cargo test --workspace` unifies features, and the example servers turn
//! `preserve_order` on; `.ci/run` also runs this test alone (`cargo test -p elicit-rmcp
//! --test field_order`), a build without it, so both branches run in CI.

use std::process::Command;
use std::time::Duration;

use elicit_core::seal::Keyring;
use elicit_core::{Elicit, Elicitation};
use elicit_rmcp::{Asked, Elicitor, Session, Tools};
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Declared "I understand" first, the approver second, the retention last: alphabetical
/// order would put the approver first.
#[derive(Elicit, serde::Deserialize)]
struct Purge {
    #[elicit(title = "I understand the logs are gone for good")]
    understood: bool,
    #[elicit(title = "Approver's e-mail", format = "email")]
    approver: String,
    #[elicit(
        title = "Keep the last days",
        default = 30,
        minimum = 1,
        maximum = 3650
    )]
    days: u32,
}

#[derive(Clone)]
struct Server {
    tools: Tools<Server>,
}

#[tool_router]
impl Server {
    #[tool(description = "Deletes old logs once a person approves")]
    async fn purge(&self, mut s: Session) -> Asked<CallToolResult> {
        let text = match s.ask::<Purge>("Really delete 1,284 logs?").await? {
            Elicitation::Accept(p) if p.understood => {
                format!("[DELETED] by {}, {} days kept", p.approver, p.days)
            }
            _ => "[BLOCKED]".to_owned(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Server {}

/// Whether serde_json keeps insertion order in this build.
fn preserve_order() -> bool {
    let mut probe = serde_json::Map::new();
    probe.insert("b".into(), Value::Null);
    probe.insert("a".into(), Value::Null);
    probe.keys().next().is_some_and(|k| k == "b")
}

/// The names of `properties` in the order the raw `text` of a request lists them.
fn order_on_the_wire(text: &str, names: &[&str]) -> Vec<String> {
    let properties = text.find(r#""properties""#).expect("a requestedSchema");
    let mut found: Vec<(usize, &str)> = names
        .iter()
        .map(|name| {
            let at = text[properties..]
                .find(&format!(r#""{name}":{{"#))
                .unwrap_or_else(|| panic!("{name} is not among the properties: {text}"));
            (at, *name)
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, name)| name.to_owned()).collect()
}

#[tokio::test]
async fn a_forms_fields_reach_the_client_in_the_order_serde_json_keeps() {
    let (client, server_end) = tokio::io::duplex(64 * 1024);
    let server = Server {
        tools: Tools::new(Elicitor::new(Keyring::generate()), Server::tool_router()),
    };
    let running = tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_end);
        let service = server
            .serve((read, write))
            .await
            .expect("the server starts");
        let _ = service.waiting().await;
    });
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();
    let mut send = async |message: Value| {
        let mut line = message.to_string();
        line.push('\n');
        write.write_all(line.as_bytes()).await.unwrap();
    };

    let deadline = Duration::from_secs(20);
    let next = async |lines: &mut tokio::io::Lines<BufReader<_>>| -> String {
        tokio::time::timeout(deadline, lines.next_line())
            .await
            .expect("the server answers within 20 s")
            .unwrap()
            .expect("the server is still there")
    };

    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    let initialized: Value = serde_json::from_str(&next(&mut lines).await).unwrap();
    assert_eq!(initialized["id"], 1, "{initialized}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "purge", "arguments": {}}}))
    .await;

    // The elicitation request, as the client reads it.
    let asked = loop {
        let line = next(&mut lines).await;
        if line.contains(r#""method":"elicitation/create""#) {
            break line;
        }
    };
    let seen = order_on_the_wire(&asked, &["understood", "approver", "days"]);
    eprintln!("the client sees the fields in this order: {seen:?}");
    if preserve_order() {
        assert_eq!(seen, ["understood", "approver", "days"], "{asked}");
    } else {
        assert_eq!(seen, ["approver", "days", "understood"], "{asked}");
    }

    // Answered, the call goes on as usual.
    let id = serde_json::from_str::<Value>(&asked).unwrap()["id"].clone();
    send(
        json!({"jsonrpc": "2.0", "id": id, "result": {"action": "accept",
        "content": {"understood": true, "approver": "ana@example.com", "days": 30}}}),
    )
    .await;
    let done = loop {
        let reply: Value = serde_json::from_str(&next(&mut lines).await).unwrap();
        if reply["id"] == 2 {
            break reply;
        }
    };
    assert_eq!(
        done["result"]["content"][0]["text"], "[DELETED] by ana@example.com, 30 days kept",
        "{done}"
    );
    running.abort();
}

/// A process whose build loses the order says so once on standard error, however many
/// elicitors it makes; one that keeps it says nothing.
#[test]
fn a_build_that_loses_the_order_says_so_once() {
    const CHILD: &str = "ELICIT_FIELD_ORDER_CHILD";
    if std::env::var_os(CHILD).is_some() {
        let _ = Elicitor::new(Keyring::generate());
        let _ = Elicitor::new(Keyring::generate());
        return;
    }
    let name = "a_build_that_loses_the_order_says_so_once";
    let child = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs again");
    assert!(child.status.success());
    let said = String::from_utf8_lossy(&child.stderr);
    let warnings = said.matches("warning: elicit-rmcp:").count();
    if preserve_order() {
        assert_eq!(warnings, 0, "{said}");
    } else {
        assert_eq!(warnings, 1, "{said}");
        assert!(
            said.contains(r#"serde_json = { version = "1", features = ["preserve_order"] }"#),
            "the warning says what to add: {said}"
        );
    }
}
