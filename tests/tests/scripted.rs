//! The client kit end to end: `FormClient` with a `Script` (the unattended responder)
//! drives every example server over real rmcp connections, in push mode and over
//! 2026-07-28 `input_required` rounds, and never accepts a form it was not scripted for.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::seal::{Key, Keyring};
use elicit_examples::script::Script;
use elicit_examples::servers::purge::{PurgeServer, create_samples};
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::servers::trip::{Inventory, TripServer};
use elicit_examples::ticket::Cinema;
use elicit_rmcp::Elicitor;
use elicit_rmcp::client::FormClient;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug)]
enum Era {
    Push0618,
    Push1125,
    Rounds,
}

fn elicitor() -> Elicitor {
    Elicitor::new(Keyring::new("k1", Key::generate()).unwrap())
}

/// A script entry for the form with exactly these fields.
fn entry(fields: &[&str], action: &str, content: Value) -> Value {
    json!({"fields": fields, "action": action, "content": content})
}

/// A script of these entries, through its JSON text.
fn script_of(entries: Vec<Value>) -> Script {
    Value::Array(entries).to_string().parse().unwrap()
}

async fn connect<S: ServerHandler + Send + 'static>(
    server: S,
    script: Script,
    era: Era,
) -> RunningService<RoleClient, FormClient<Script>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = FormClient::new(script);
    match era {
        Era::Push0618 => client
            .with_protocol_version(ProtocolVersion::V_2025_06_18)
            .serve(client_io)
            .await
            .unwrap(),
        Era::Push1125 => client
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .serve(client_io)
            .await
            .unwrap(),
        Era::Rounds => client
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .unwrap(),
    }
}

async fn call(
    running: &RunningService<RoleClient, FormClient<Script>>,
    tool: &str,
    args: Value,
) -> String {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    let result = tokio::time::timeout(
        LIMIT,
        running.call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args)),
    )
    .await
    .expect("bounded")
    .expect("a result");
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

const ERAS: [Era; 3] = [Era::Push0618, Era::Push1125, Era::Rounds];

#[tokio::test]
async fn script_books_tickets_in_every_era() {
    for era in ERAS {
        let script = script_of(vec![
            entry(&["date"], "accept", json!({"date": "2025-02-03"})),
            entry(&["seat"], "accept", json!({"seat": "A2"})),
            // `popcorn` has a default (false); only the drink is scripted.
            entry(&["popcorn", "drink"], "accept", json!({"drink": "water"})),
        ]);
        let server = TicketServer::new(elicitor(), Arc::new(Mutex::new(Cinema::demo())));
        let running = connect(server, script, era).await;
        let text = call(&running, "book_tickets", json!({})).await;
        assert_eq!(text, "Booked seat A2 on 2025-02-03 with water.", "{era:?}");
        let events = running.service().asker().events();
        assert_eq!(events.len(), 3, "{era:?}: {events:?}");
        assert!(
            events.iter().all(|e| e.starts_with("accepted")),
            "{events:?}"
        );
        assert_eq!(running.service().asker().unused(), 0);
    }
}

#[tokio::test]
async fn a_form_nobody_scripted_is_cancelled_not_accepted() {
    for era in ERAS {
        // Only the date is scripted: the seat step is cancelled, nothing is booked.
        let script = script_of(vec![entry(
            &["date"],
            "accept",
            json!({"date": "2025-02-03"}),
        )]);
        let cinema = Arc::new(Mutex::new(Cinema::demo()));
        let server = TicketServer::new(elicitor(), cinema.clone());
        let running = connect(server, script, era).await;
        let text = call(&running, "book_tickets", json!({})).await;
        assert_eq!(text, "Booking cancelled at the seat step.", "{era:?}");
        let events = running.service().asker().events();
        assert!(
            events[1].contains("no script entry for this form"),
            "{events:?}"
        );
        assert_eq!(
            cinema
                .lock()
                .unwrap()
                .free_seats("2025-02-03")
                .unwrap()
                .len(),
            3,
            "nothing sold"
        );
    }
}

#[tokio::test]
async fn a_scripted_answer_the_form_refuses_is_cancelled() {
    let script = script_of(vec![entry(
        &["date"],
        "accept",
        json!({"date": "tomorrow"}),
    )]);
    let server = TicketServer::new(elicitor(), Arc::new(Mutex::new(Cinema::demo())));
    let running = connect(server, script, Era::Push1125).await;
    let text = call(&running, "book_tickets", json!({})).await;
    assert_eq!(text, "Booking cancelled at the date step.");
    let events = running.service().asker().events();
    assert!(events[0].contains("does not fit the form"), "{events:?}");
}

#[tokio::test]
async fn script_drives_book_trip_and_purge() {
    for era in ERAS {
        let inventory = Arc::new(Mutex::new(Inventory::demo()));
        let script = r#"[{"message": "alternative", "action": "accept",
                 "content": {"checkAlternatives": true, "newDate": "2025-02-05"}}]"#
            .parse::<Script>()
            .unwrap();
        let running = connect(TripServer::new(elicitor(), inventory.clone()), script, era).await;
        let text = call(&running, "book-trip", json!({"date": "2025-02-01"})).await;
        assert!(text.contains("2025-02-05"), "{era:?}: {text}");
        assert_eq!(inventory.lock().unwrap().booked(), ["2025-02-05"]);

        let root =
            std::env::temp_dir().join(format!("elicit-scripted-{}-{era:?}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        create_samples(&root).unwrap();
        let script = script_of(vec![entry(
            &["confirm", "approver", "retention_days"],
            "decline",
            json!({}),
        )]);
        let running = connect(PurgeServer::new(elicitor(), root.clone()), script, era).await;
        let text = call(
            &running,
            "purge_old_logs",
            json!({"repo": "demo-repo", "days": 90, "dry_run": false}),
        )
        .await;
        assert!(text.contains("[BLOCKED]"), "{era:?}: {text}");
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn bad_scripts_are_refused_with_a_reason() {
    let e = r#"[{"action": "accept"}]"#.parse::<Script>().unwrap_err();
    assert!(e.to_string().contains("say which form it answers"), "{e}");
    let e = r#"[{"fields": ["a"], "action": "reject"}]"#.parse::<Script>().unwrap_err();
    assert!(e.to_string().contains("entry 1"), "{e}");
    let e = r#"{"fields": ["a"]}"#.parse::<Script>().unwrap_err();
    assert!(e.to_string().contains("not a script"), "{e}");
    let e = r#"[{"fields": ["a"], "action": "accept", "extra": 1}]"#
        .parse::<Script>()
        .unwrap_err();
    assert!(e.to_string().contains("unknown field"), "{e}");
}
