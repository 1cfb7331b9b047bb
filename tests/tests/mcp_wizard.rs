//! The ticket wizard over real rmcp connections: booked in every era (a day or seat not
//! offered asked again with the form's reason), a decline or cancel naming the step it
//! ended at, a skipped step (no popcorn, no size), and a wizard completed in an earlier
//! round replayed from the sealed state to the same outcome on 2026-07-28. The wizard's
//! own paths (no MCP) are in `wizard.rs`; the client side is in `support/`.

use elicit_examples::ticket::Cinema;
use rmcp::model::CallToolResult;
use serde_json::json;

mod support;
use support::*;

#[tokio::test]
async fn ticket_wizard_every_era() {
    for era in [Era::V1125, Era::Rounds, Era::V0618] {
        let client = TestClient::scripted(ticket_server(elicitor()), era, happy_answers()).await;
        let result = client.call("book_tickets", json!({})).await.unwrap();
        assert_eq!(
            result, "Booked seat B4 on 2025-02-03 with large popcorn and cola.",
            "{era:?}"
        );
        let messages = client.messages();
        assert_eq!(messages.len(), 6, "{era:?}: {messages:?}");
        // A day the question did not offer: asked again with the form's reason, no
        // line said twice.
        assert!(
            messages[1].starts_with("Date: \"2025-02-01\" is not one of the options"),
            "{}",
            messages[1]
        );
        let lines: Vec<&str> = messages[1].lines().filter(|l| !l.is_empty()).collect();
        let once: std::collections::BTreeSet<&str> = lines.iter().copied().collect();
        assert_eq!(lines.len(), once.len(), "{}", messages[1]);
        assert_eq!(messages[2], "Pick a seat for 2025-02-03");
        assert!(
            messages[3].contains("Z9") || messages[3].contains("Seat"),
            "{}",
            messages[3]
        );
        let seat = &client.asked()[2]["requestedSchema"]["properties"]["seat"];
        assert_eq!(seat["enum"], json!(["A1", "A2", "B4"]), "{era:?}");
    }
}

#[tokio::test]
async fn ticket_wizard_decline_and_cancel_name_the_step() {
    for era in [Era::V1125, Era::Rounds] {
        let answers = vec![
            accept(json!({"date": "2025-02-03"})),
            json!({"action": "decline"}),
        ];
        let client = TestClient::scripted(ticket_server(elicitor()), era, answers).await;
        let result = client.call("book_tickets", json!({})).await.unwrap();
        assert_eq!(result, "Nothing booked: you declined the seat step.");
        let answers = vec![json!({"action": "cancel"})];
        let client = TestClient::scripted(ticket_server(elicitor()), era, answers).await;
        let result = client.call("book_tickets", json!({})).await.unwrap();
        assert_eq!(result, "Booking cancelled at the date step.");
    }
}

#[tokio::test]
async fn ticket_wizard_without_popcorn_skips_the_size() {
    let answers = vec![
        accept(json!({"date": "2025-02-04"})),
        accept(json!({"seat": "C1"})),
        accept(json!({"popcorn": false})),
    ];
    let client = TestClient::scripted(ticket_server(elicitor()), Era::Rounds, answers).await;
    let result = client.call("book_tickets", json!({})).await.unwrap();
    assert_eq!(result, "Booked seat C1 on 2025-02-04 with no snacks.");
    assert_eq!(client.asked().len(), 3);
}

/// A wizard, then another question, on 2026-07-28: once the wizard has completed, every
/// later round replays it from the sealed state to the same outcome.
#[tokio::test]
async fn a_completed_wizard_replays_in_later_rounds() {
    use elicit_core::wizard::Outcome;
    use elicit_core::{Elicit, Elicitation};
    use elicit_examples::ticket::TicketOrder;
    use elicit_rmcp::{Asked, Session};

    #[derive(Elicit, serde::Deserialize)]
    struct Pay {
        confirm: bool,
    }

    async fn order_then_pay(s: &mut Session) -> Asked<CallToolResult> {
        let Outcome::Completed(order) = s.wizard::<TicketOrder>(&Cinema::demo()).await? else {
            return Ok(CallToolResult::success(vec![]));
        };
        let paid = matches!(
            s.ask::<Pay>("Pay now?").await?,
            Elicitation::Accept(Pay { confirm: true })
        );
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(format!("{} {}", order.seat.seat, paid)),
        ]))
    }

    let client = TestClient::scripted(
        OneTool(elicitor(), |s| Box::pin(order_then_pay(s))),
        Era::Rounds,
        vec![],
    )
    .await;
    let answers = [
        accept(json!({"date": "2025-02-04"})),
        accept(json!({"seat": "C1"})),
        accept(json!({"popcorn": false})),
        accept(json!({"confirm": true})),
    ];
    let mut response = client.round("then", json!({}), None, vec![]).await.unwrap();
    for answer in answers {
        let (key, _, state) = first_asked(&response);
        response = client
            .round("then", json!({}), Some(&state), vec![(&key, answer)])
            .await
            .unwrap();
    }
    assert_eq!(complete_text(&response), "C1 true");
}
