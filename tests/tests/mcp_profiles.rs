//! Clients that render part of a form, over real rmcp connections: a Codex-like client
//! (no number, integer or multi-select fields) known by its `clientInfo.name` is asked
//! the purge's retention as text from the first form, one of no known profile after its
//! empty accept, and both purges complete in every era; a complete client keeps the
//! integer field, a client that accepts without answering gets a clear error, and the
//! ticket wizard books on a Codex-like client. The client side is in `support/`.

use std::sync::{Arc, Mutex};

use elicit_examples::servers::purge::SAMPLE_AGES;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use serde_json::{Value, json};

mod support;
use support::*;

/// A person at a client like Codex CLI (openai/codex#41797): a form holding a number,
/// integer or multi-select field is shown as a bare Yes/No that accepts with empty
/// content; any other form is filled in: boxes ticked, an e-mail typed, a date with
/// seats typed, the first option picked, every default kept, other text left empty.
fn codex_like(params: &Value) -> Value {
    let properties = params["requestedSchema"]["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let unrenderable = properties
        .values()
        .any(|p| matches!(p["type"].as_str(), Some("integer" | "number" | "array")));
    if unrenderable {
        return json!({"action": "accept", "content": {}});
    }
    let mut content = serde_json::Map::new();
    for (name, p) in &properties {
        let value = if let Some(default) = p.get("default") {
            default.clone()
        } else if let Some(first) = p["enum"].get(0) {
            first.clone()
        } else if let Some(first) = p["oneOf"].get(0) {
            first["const"].clone()
        } else if p["type"] == "boolean" {
            json!(true)
        } else if p["format"] == "email" {
            json!("ops@example.com")
        } else if p["format"] == "date" {
            json!("2025-02-03")
        } else {
            // Text with nothing to go on is left empty.
            continue;
        };
        content.insert(name.clone(), value);
    }
    json!({"action": "accept", "content": content})
}

/// Codex CLI, known by its `clientInfo.name`, is asked the retention as text from the
/// first form; a client of no known profile that answers the same way is asked again
/// with text fields after its empty accept. Both purges complete, deleting exactly the
/// old files, in every era.
#[tokio::test]
async fn the_purge_completes_on_a_client_without_number_fields() {
    for era in ALL_ERAS {
        for (name, forms) in [("codex-mcp-client", 1), ("some-other-client", 2)] {
            let logs = Logs::new(&format!("codex-{name}-{era:?}"));
            let client = Scripted::new(era, vec![]).named(name).answering(codex_like);
            let result = TestClient::start(logs.server(), client.clone())
                .await
                .call(PURGE, demo_purge(90))
                .await;
            assert_eq!(
                result.unwrap(),
                "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
                "{name} {era:?}"
            );
            assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() - 3);
            let asked = client.asked();
            assert_eq!(asked.len(), forms, "{name} {era:?}: {asked:?}");
            let days = &asked[forms - 1]["requestedSchema"]["properties"]["retention_days"];
            assert_eq!(days["type"], "string", "{name} {era:?}");
            assert_eq!(
                days["description"],
                "Logs older than this many days are deleted. (a whole number from 90 to 3650)"
            );
        }
    }
}

/// A complete client still gets the integer field; a client that accepts every form
/// without answering gets a clear error after the text-only form, not endless forms.
#[tokio::test]
async fn a_complete_client_gets_integers_and_an_empty_client_a_clear_error() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("complete-{era:?}"));
        let client = Scripted::new(era, vec![])
            .named("claude-code")
            .answering(|_| json!({"action": "accept", "content": {"confirm": true, "approver": "ops@example.com"}}));
        let result = TestClient::start(logs.server(), client.clone())
            .await
            .call(PURGE, demo_purge(90))
            .await;
        assert!(result.unwrap().starts_with("[DELETED]"), "{era:?}");
        let asked = client.asked();
        assert_eq!(asked.len(), 1);
        let days = &asked[0]["requestedSchema"]["properties"]["retention_days"];
        assert_eq!(days["type"], "integer", "{era:?}");

        let logs = Logs::new(&format!("empty-{era:?}"));
        let client = Scripted::new(era, vec![])
            .named("some-other-client")
            .answering(|_| json!({"action": "accept", "content": {}}));
        let result = TestClient::start(logs.server(), client.clone())
            .await
            .call(PURGE, demo_purge(90))
            .await;
        let shown = format!("{result:?}");
        assert!(
            shown.contains("without answering any of its fields"),
            "{era:?}: {shown}"
        );
        assert_eq!(client.asked().len(), 2, "{era:?}");
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    }
}

/// The ticket wizard books on a Codex-like client: its steps hold no field Codex
/// cannot show.
#[tokio::test]
async fn the_ticket_wizard_books_on_a_codex_like_client() {
    for era in ALL_ERAS {
        let cinema = Arc::new(Mutex::new(Cinema::demo()));
        let server = TicketServer::new(elicitor(), cinema.clone());
        let client = Scripted::new(era, vec![])
            .named("codex-mcp-client")
            .answering(codex_like);
        let client = TestClient::start(server, client).await;
        let result = client.call("book_tickets", json!({})).await.unwrap();
        assert!(result.starts_with("Booked seat"), "{era:?}: {}", result);
    }
}
