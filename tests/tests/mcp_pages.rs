//! Forms asked on the engine's web pages over real rmcp connections: by URL mode pushed
//! on 2025-11-25 (the completion notification naming the link's elicitation), in rounds
//! on 2026-07-28 (each retry looks at the page), and by a link in the tool result for a
//! client that declares no elicitation (the next call with the same arguments goes on).
//! The person's side is the page's own `get` and `post`, as the browser would send them.

use std::sync::Arc;
use std::time::Duration;

use elicit_core::engine::Pages;
use elicit_core::{Elicit, Elicitation};
use elicit_rmcp::Elicitor;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Deserialize;
use serde_json::{Value, json};

mod support;
use support::*;

const BASE: &str = "http://127.0.0.1:9/elicit/p/";

/// An approval asked on a page.
#[derive(Elicit, Deserialize, Debug)]
struct Approval {
    /// I understand this cannot be undone.
    confirm: bool,
    /// Who approves.
    #[elicit(format = "email")]
    approver: String,
}

fn paged() -> Elicitor {
    elicitor().with_pages(Pages::new(BASE))
}

/// The tool: asks an [`Approval`] on a page and says what came back.
async fn approve(s: &mut elicit_rmcp::Session) -> elicit_rmcp::Asked<CallToolResult> {
    let said = match s.ask_on_page::<Approval>("Approve the purge?").await? {
        Elicitation::Accept(a) if a.confirm => format!("approved by {}", a.approver),
        Elicitation::Accept(_) => "not ticked".to_owned(),
        Elicitation::Decline => "declined".to_owned(),
        Elicitation::Cancel => "cancelled".to_owned(),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(said)]))
}

fn server(elicitor: Elicitor) -> OneTool {
    OneTool(elicitor, |s| Box::pin(approve(s)))
}

/// The page's id in a link.
fn id_of(url: &str) -> String {
    url.strip_prefix(BASE)
        .expect("a link to our pages")
        .to_owned()
}

/// The person: opens the page, sends an invalid e-mail (refused, the form again), then
/// ticks and signs.
async fn answer(pages: &Pages, id: &str) {
    let page = pages.get(id, None).await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("Approve the purge?"));
    let refused = pages
        .post(
            id,
            None,
            b"s.confirm=1&f.confirm=true&f.approver=ops&action=accept",
        )
        .await;
    assert_eq!(refused.status, 422);
    let done = pages
        .post(
            id,
            None,
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&action=accept",
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.html);
}

/// Waits for the client to have been asked `n` questions.
async fn asked(client: &TestClient, n: usize) -> Vec<Value> {
    for _ in 0..250 {
        let asked = client.asked();
        if asked.len() >= n {
            return asked;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("asked {} questions, not {n}", client.asked().len())
}

#[tokio::test]
async fn pushed_on_2025_11_25_the_link_goes_by_url_mode_and_completion_is_announced() {
    let elicitor = paged();
    let pages = elicitor.pages().unwrap().clone();
    let client = Arc::new(
        TestClient::scripted(
            server(elicitor),
            Era::V1125,
            vec![json!({"action": "accept"})],
        )
        .await,
    );
    let calling = tokio::spawn({
        let client = client.clone();
        async move { client.call("approve", json!({})).await }
    });
    let asked = asked(&client, 1).await;
    assert_eq!(asked[0]["mode"], "url");
    let elicitation = asked[0]["elicitationId"].as_str().unwrap().to_owned();
    answer(&pages, &id_of(asked[0]["url"].as_str().unwrap())).await;
    let said = calling.await.unwrap().unwrap();
    assert_eq!(said, "approved by ops@example.com");
    let notified = client.client().notified.lock().unwrap().clone();
    assert_eq!(notified[0].method, "notifications/elicitation/complete");
    assert_eq!(
        notified[0].params.as_ref().unwrap()["elicitationId"],
        elicitation
    );
}

#[tokio::test]
async fn in_rounds_the_retry_goes_on_once_the_page_is_answered() {
    let elicitor = paged();
    let pages = elicitor.pages().unwrap().clone();
    let client = TestClient::scripted(server(elicitor), Era::Rounds, vec![]).await;
    let first = round_with(&client, "approve", json!({}), None, vec![])
        .await
        .unwrap();
    let (requests, state) = support::asked(&first);
    let (key, request) = &requests[0];
    assert_eq!(request["params"]["mode"], "url");
    let id = id_of(request["params"]["url"].as_str().unwrap());
    // Retried before the page is answered: the link again.
    let accept = json!({"action": "accept"});
    let again = round_with(
        &client,
        "approve",
        json!({}),
        Some(&state),
        vec![(key, accept.clone())],
    )
    .await
    .unwrap();
    let (requests, state) = support::asked(&again);
    let (key, request) = &requests[0];
    assert_eq!(id_of(request["params"]["url"].as_str().unwrap()), id);
    answer(&pages, &id).await;
    let done = round_with(
        &client,
        "approve",
        json!({}),
        Some(&state),
        vec![(key, accept)],
    )
    .await
    .unwrap();
    assert_eq!(complete_text(&done), "approved by ops@example.com");
}

#[tokio::test]
async fn a_client_without_elicitation_gets_the_link_and_the_next_call_goes_on() {
    for era in [Era::V1125, Era::Rounds] {
        let elicitor = paged();
        let pages = elicitor.pages().unwrap().clone();
        let client = Scripted::new(era, vec![]).with_capabilities(json!({}));
        let client = TestClient::start(server(elicitor), client).await;
        let args = json!({"logs": "demo-repo"});
        let first = client.call("approve", args.clone()).await.unwrap();
        assert!(first.starts_with("Approve the purge?"), "{first}");
        assert!(
            first.contains("do not open it or answer it yourself"),
            "{first}"
        );
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with(BASE))
            .expect("the link in the result");
        // Other arguments are another question: no answer for them.
        let other = client
            .call("approve", json!({"logs": "other"}))
            .await
            .unwrap();
        assert!(!other.contains(url), "{era:?}");
        answer(&pages, &id_of(url)).await;
        let done = client.call("approve", args.clone()).await.unwrap();
        assert_eq!(done, "approved by ops@example.com", "{era:?}");
        // The call that used the answer ended: the call after asks anew (the unlinking
        // runs beside the call's end, so it may take a moment).
        let mut after = String::new();
        for _ in 0..50 {
            after = client.call("approve", args.clone()).await.unwrap();
            if !after.contains(url) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            after.contains(BASE) && !after.contains(url),
            "{era:?}: {after}"
        );
    }
}

#[tokio::test]
async fn without_pages_a_page_question_says_what_is_missing() {
    let client = TestClient::scripted(server(elicitor()), Era::V1125, vec![]).await;
    let error = client.call("approve", json!({})).await.unwrap_err();
    assert!(error.to_string().contains("url"), "{error}");
}

/// What the person types on each page of the ticket wizard: a day, a seat, snacks, a
/// size.
const TICKET_PAGES: [&[u8]; 4] = [
    b"f.date=2025-02-03&action=accept",
    b"f.seat=B4&action=accept",
    b"s.popcorn=1&f.popcorn=true&f.drink=cola&action=accept",
    b"f.size=Large&action=accept",
];

#[tokio::test]
async fn the_ticket_wizard_books_on_pages_by_url_mode() {
    let elicitor = paged();
    let pages = elicitor.pages().unwrap().clone();
    let client = Scripted::new(Era::V1125, vec![])
        .with_capabilities(json!({"elicitation": {"url": {}}}))
        .answering(|_| json!({"action": "accept"}));
    let client = Arc::new(TestClient::start(ticket_server(elicitor), client).await);
    let calling = tokio::spawn({
        let client = client.clone();
        async move { client.call("book_tickets", json!({})).await }
    });
    for (step, body) in TICKET_PAGES.iter().enumerate() {
        let asked = asked(&client, step + 1).await;
        assert_eq!(asked[step]["mode"], "url");
        let id = id_of(asked[step]["url"].as_str().unwrap());
        assert_eq!(pages.get(&id, None).await.status, 200);
        let done = pages.post(&id, None, body).await;
        assert_eq!(done.status, 200, "step {step}: {}", done.html);
    }
    let booked = calling.await.unwrap().unwrap();
    assert_eq!(
        booked,
        "Booked seat B4 on 2025-02-03 with large popcorn and cola."
    );
    assert_eq!(client.client().notified.lock().unwrap().len(), 4);
}

#[tokio::test]
async fn the_ticket_wizard_books_through_links_on_a_client_without_elicitation() {
    let elicitor = paged();
    let pages = elicitor.pages().unwrap().clone();
    let client = Scripted::new(Era::V1125, vec![]).with_capabilities(json!({}));
    let client = TestClient::start(ticket_server(elicitor), client).await;
    for (step, body) in TICKET_PAGES.iter().enumerate() {
        let said = client.call("book_tickets", json!({})).await.unwrap();
        let url = said
            .split_whitespace()
            .find(|w| w.starts_with(BASE))
            .unwrap_or_else(|| panic!("step {step}: a link in {said:?}"));
        let done = pages.post(&id_of(url), None, body).await;
        assert_eq!(done.status, 200, "step {step}: {}", done.html);
    }
    let booked = client.call("book_tickets", json!({})).await.unwrap();
    assert_eq!(
        booked,
        "Booked seat B4 on 2025-02-03 with large popcorn and cola."
    );
}
