//! URL mode over real rmcp connections, on the ticket server's `pay_tickets`: the
//! payment page asked in both eras that have it (pushed on 2025-11-25, with the
//! completion notification naming the same elicitation; in rounds on 2026-07-28), the
//! `URLElicitationRequiredError` (-32042) on 2025-11-25, and a client without the `url`
//! capability told so rather than asked. The client side is in `support/`.

use std::time::Duration;

use rmcp::service::ServiceError;
use serde_json::json;

mod support;
use support::*;

#[tokio::test]
async fn url_mode_in_both_eras() {
    for era in [Era::V1125, Era::Rounds] {
        let answers = vec![json!({"action": "accept"})];
        let client = TestClient::scripted(ticket_server(elicitor()), era, answers).await;
        let result = client.call("pay_tickets", json!({"order": "A-17"})).await;
        assert_eq!(
            result.unwrap(),
            "Payment page opened for order A-17.",
            "{era:?}"
        );
        let asked = client.asked();
        assert_eq!(asked[0]["mode"], "url");
        assert_eq!(asked[0]["url"], "https://pay.example.com/checkout/A-17");
        assert!(asked[0].get("requestedSchema").is_none());
        if era == Era::V1125 {
            let id = asked[0]["elicitationId"].as_str().unwrap().to_owned();
            assert!(!id.is_empty());
            // The completion notification names the same elicitation.
            let mut notified = Vec::new();
            for _ in 0..50 {
                notified = client.client().notified.lock().unwrap().clone();
                if !notified.is_empty() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert_eq!(notified[0].method, "notifications/elicitation/complete");
            assert_eq!(notified[0].params.as_ref().unwrap()["elicitationId"], id);
        } else {
            assert!(client.client().notified.lock().unwrap().is_empty());
        }
        let answers = vec![json!({"action": "decline"})];
        let client = TestClient::scripted(ticket_server(elicitor()), era, answers).await;
        let result = client.call("pay_tickets", json!({"order": "A-17"})).await;
        assert_eq!(result.unwrap(), "Payment for order A-17 declined.");
    }
}

#[tokio::test]
async fn url_required_error_on_2025_11_25() {
    let client = TestClient::scripted(ticket_server(elicitor()), Era::V1125, vec![]).await;
    let args = json!({"order": "A-17", "via_error": true});
    let error = client.call("pay_tickets", args).await.unwrap_err();
    let ServiceError::McpError(error) = error else {
        panic!("a JSON-RPC error: {error}")
    };
    assert_eq!(error.code.0, -32042);
    let data = error.data.unwrap();
    assert_eq!(data["elicitations"][0]["mode"], "url");
    assert_eq!(
        data["elicitations"][0]["url"],
        "https://pay.example.com/checkout/A-17"
    );
    assert!(data["elicitations"][0]["elicitationId"].is_string());
}

#[tokio::test]
async fn url_mode_needs_the_capability() {
    for era in [Era::V0618, Era::V1125, Era::Rounds] {
        let client =
            Scripted::new(era, vec![]).with_capabilities(json!({"elicitation": {"form": {}}}));
        let client = TestClient::start(ticket_server(elicitor()), client).await;
        let result = client.call("pay_tickets", json!({"order": "A-17"})).await;
        assert!(
            result.unwrap().contains("cannot open payment pages"),
            "{era:?}"
        );
        assert!(client.asked().is_empty());
    }
}
