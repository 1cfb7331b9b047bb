//! The example servers' forms answered on their own web pages (`--pages`, served on a
//! loopback listener of a stdio server), driven by the official MCP Python SDK client in
//! both eras: by URL mode (a client that takes only URL mode, with the completion
//! notification on 2025-11-25), and by links in the tool result (a client with no
//! elicitation, the tool called again until it answers). The person's side opens each
//! page and posts what the page's form would. (How the SDK is found:
//! `elicit_examples::python_sdk`.)

use elicit_examples::python_sdk::drive_pages;
use serde_json::{Value, json};

/// The ticket wizard's pages: a day; a seat not offered (refused beside its field), then
/// one that is; snacks; a size.
fn ticket_pages() -> Value {
    json!([
        "f.date=2025-02-03&action=accept",
        ["f.seat=Z9&action=accept", "f.seat=B4&action=accept"],
        "s.popcorn=1&f.popcorn=true&f.drink=cola&action=accept",
        "f.size=Large&action=accept",
    ])
}

fn book(era: &str, client: &str) -> Value {
    let server = [
        env!("CARGO_BIN_EXE_ticket-booking"),
        "--pages",
        "--today",
        "2025-01-31",
    ];
    drive_pages(
        &server,
        era,
        client,
        "book_tickets",
        &json!({}),
        &ticket_pages(),
    )
}

fn check_booked(era: &str, client: &str, out: &Value) {
    assert_eq!(
        out["text"], "Booked seat B4 on 2025-02-03 with large popcorn and cola.",
        "{era} {client}: {out}"
    );
    // Every page opened (200); the seat not offered refused (422), then taken.
    assert_eq!(
        out["statuses"],
        json!([[200, 200], [200, 422, 200], [200, 200], [200, 200]]),
        "{era} {client}: {out}"
    );
    let asked = out["asked"].as_array().unwrap();
    assert_eq!(asked.len(), 4, "{era} {client}: {out}");
    assert!(
        asked[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("Pick a seat for 2025-02-03")
    );
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_pages_by_url_mode_pushed() {
    let out = book("legacy", "url");
    check_booked("legacy", "url", &out);
    // Each page's completion announced under the id its link was sent with.
    let ids: Vec<&Value> = out["asked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["elicitationId"])
        .collect();
    assert_eq!(
        out["completed"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        ids,
        "{out}"
    );
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_pages_by_url_mode_in_rounds() {
    let out = book("2026-07-28", "url");
    check_booked("2026-07-28", "url", &out);
    assert_eq!(out["completed"], json!([]), "{out}");
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_through_links_without_elicitation() {
    for era in ["legacy", "2026-07-28"] {
        let out = book(era, "none");
        check_booked(era, "none", &out);
        let first = out["asked"][0]["message"].as_str().unwrap();
        assert!(
            first.contains("do not open it or answer it yourself"),
            "{first}"
        );
    }
}

/// `connect-service`'s API key, a secret asked on a page: a key too short is refused
/// beside its field, then a good one taken; the tool says it connected, and no text the
/// client saw holds the key.
#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn an_api_key_is_asked_on_a_page_and_never_reaches_the_client() {
    const KEY: &str = "wk_0123456789abcdef";
    let server = [env!("CARGO_BIN_EXE_connect-service")];
    for (era, client) in [("legacy", "url"), ("2026-07-28", "url"), ("legacy", "none")] {
        let bodies = json!([[
            "f.key=wk_1&f.region=Us&action=accept",
            format!("f.key={KEY}&f.region=Us&action=accept"),
        ]]);
        let args = json!({"city": "Paris"});
        let out = drive_pages(&server, era, client, "connect_weather", &args, &bodies);
        assert_eq!(
            out["text"],
            "Connected to the Us region with a key of 19 characters; Paris: sunny, 21 °C.",
            "{era} {client}: {out}"
        );
        assert_eq!(
            out["statuses"],
            json!([[200, 422, 200]]),
            "{era} {client}: {out}"
        );
        let seen = out["asked"].to_string() + out["text"].as_str().unwrap();
        assert!(!seen.contains(KEY), "{era} {client}: {out}");
    }
}

/// Seed 002's purge on pages, a consent (`#[elicit(consent)]`): on a client that takes
/// URL mode the person approves on the page (tick, e-mail, keep the default retention,
/// submit) and the logs go; on a client with no elicitation the approval is never sent as
/// a link the model could follow, unless the server was started with `--consent-by-link`.
#[cfg(unix)]
#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_purge_is_approved_on_a_page_and_never_by_a_link_unless_allowed() {
    let approve = json!([
        "s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.retention_days=90&action=accept"
    ]);
    let args = json!({"repo": "demo-repo", "days": 90, "dry_run": false});
    let cases = [
        (
            "legacy",
            "url",
            &[][..],
            "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
        ),
        (
            "2026-07-28",
            "url",
            &[][..],
            "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
        ),
        (
            "legacy",
            "none",
            &[][..],
            "[BLOCKED] this client cannot show the approval form; nothing deleted from demo-repo/logs (older than 90d)",
        ),
        (
            "legacy",
            "none",
            &["--consent-by-link"][..],
            "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
        ),
    ];
    for (i, (era, client, extra, said)) in cases.into_iter().enumerate() {
        let root =
            std::env::temp_dir().join(format!("elicit-pages-purge-{i}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let repo = elicit_examples::servers::purge::create_samples(&root).expect("sample logs");
        let root_arg = root.display().to_string();
        let mut server = vec![
            env!("CARGO_BIN_EXE_purge-approval"),
            "--pages",
            "--root",
            &root_arg,
        ];
        server.extend_from_slice(extra);
        let out = drive_pages(&server, era, client, "purge_old_logs", &args, &approve);
        let left = std::fs::read_dir(&repo)
            .map(|d| d.count())
            .unwrap_or_default();
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(out["text"], said, "{era} {client} {extra:?}: {out}");
        let deleted = said.starts_with("[DELETED]");
        assert_eq!(
            left,
            if deleted { 3 } else { 6 },
            "{era} {client} {extra:?}: {out}"
        );
    }
}
