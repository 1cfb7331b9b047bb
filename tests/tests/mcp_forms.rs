//! One form per question over real rmcp connections, in every era (pushed on 2025-06-18
//! and 2025-11-25, in rounds on 2026-07-28): the trip and purge servers' outcomes
//! (accept, no, decline, cancel, a dry run, an unticked box), an invalid answer asked
//! again with its problem, the last try announced and the call given up after it, the
//! call's values as the form's bounds and defaults (a shorter retention never widens the
//! purge), clients without the form capability told so, and a form built at run time.
//! The client side is in `support/`.

use elicit_examples::servers::purge::SAMPLE_AGES;
use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use rmcp::service::ServiceError;
use serde_json::{Value, json};

mod support;
use support::*;

/// Books a trip on `date` with a client of `era` giving `answers`: the call's text, the
/// client, and the dates booked.
async fn book_trip(
    era: Era,
    date: &str,
    answers: Vec<Value>,
) -> (Result<String, ServiceError>, TestClient, Vec<String>) {
    let (server, inventory) = trip_server();
    let client = TestClient::scripted(server, era, answers).await;
    let result = client.call("book-trip", json!({"date": date})).await;
    let booked = inventory.lock().unwrap().booked().to_vec();
    (result, client, booked)
}

#[tokio::test]
async fn book_trip_free_date_asks_nothing() {
    for era in ALL_ERAS {
        let (result, client, booked) = book_trip(era, "2025-02-03", vec![]).await;
        assert_eq!(result.unwrap(), "Trip booked on 2025-02-03", "{era:?}");
        assert!(client.asked().is_empty());
        assert_eq!(booked, ["2025-02-03"]);
    }
}

#[tokio::test]
async fn book_trip_alternative_date_accepted() {
    for era in ALL_ERAS {
        let answer = json!({"action": "accept", "content": {"checkAlternatives": true, "newDate": "2025-02-03"}});
        let (result, client, booked) = book_trip(era, "2025-02-01", vec![answer]).await;
        assert_eq!(
            result.unwrap(),
            "Trip booked on alternate date: 2025-02-03",
            "{era:?}"
        );
        assert_eq!(booked, ["2025-02-03"], "{era:?}");
        let asked = client.asked();
        assert_eq!(asked.len(), 1, "{era:?}");
        assert_eq!(
            asked[0]["message"],
            "No trip available on 2025-02-01. Would you like to check alternative dates?"
        );
        let schema = &asked[0]["requestedSchema"];
        assert_eq!(schema["properties"]["checkAlternatives"]["type"], "boolean");
        assert_eq!(schema["properties"]["newDate"]["format"], "date");
        assert_eq!(schema["required"], json!(["checkAlternatives"]));
    }
}

#[tokio::test]
async fn book_trip_distinct_results_for_no_decline_cancel() {
    for era in ALL_ERAS {
        let no = json!({"action": "accept", "content": {"checkAlternatives": false}});
        let (result, _, booked) = book_trip(era, "2025-02-01", vec![no]).await;
        assert_eq!(
            result.unwrap(),
            "You chose not to look for another date. Nothing booked."
        );
        assert!(booked.is_empty());
        let (result, _, _) = book_trip(era, "2025-02-01", vec![json!({"action": "decline"})]).await;
        assert_eq!(
            result.unwrap(),
            "You declined to pick another date. Nothing booked."
        );
        let (result, _, booked) =
            book_trip(era, "2025-02-01", vec![json!({"action": "cancel"})]).await;
        assert_eq!(result.unwrap(), "Booking cancelled.");
        assert!(booked.is_empty());
        let sold_out = json!({"action": "accept", "content": {"checkAlternatives": true, "newDate": "2025-02-02"}});
        let (result, _, _) = book_trip(era, "2025-02-01", vec![sold_out]).await;
        assert_eq!(
            result.unwrap(),
            "No trip available on 2025-02-02 either. Nothing booked."
        );
    }
}

#[tokio::test]
async fn book_trip_invalid_answer_is_asked_again_with_the_problem() {
    for era in ALL_ERAS {
        let bad = json!({"action": "accept", "content": {"checkAlternatives": "yes", "newDate": "next friday"}});
        let good = json!({"action": "accept", "content": {"checkAlternatives": true, "newDate": "2025-02-05"}});
        let (result, client, _) = book_trip(era, "2025-02-01", vec![bad, good]).await;
        assert_eq!(
            result.unwrap(),
            "Trip booked on alternate date: 2025-02-05",
            "{era:?}"
        );
        let messages = client.messages();
        assert_eq!(messages.len(), 2, "{era:?}");
        assert!(messages[1].contains("Alternate date"), "{}", messages[1]);
        assert!(messages[1].contains("New Date"), "{}", messages[1]);
        assert!(messages[1].ends_with("Would you like to check alternative dates?"));
    }
}

#[tokio::test]
async fn book_trip_gives_up_after_three_invalid_answers() {
    for era in ALL_ERAS {
        let bad = json!({"action": "accept", "content": {"newDate": "2025-02-03"}});
        let (result, client, booked) =
            book_trip(era, "2025-02-01", vec![bad.clone(), bad.clone(), bad]).await;
        let error = result.expect_err("three invalid answers fail the call");
        assert!(
            error.to_string().contains("Alternate date"),
            "{era:?}: {error}"
        );
        assert_eq!(client.asked().len(), 3, "{era:?}");
        assert!(booked.is_empty());
    }
}

#[tokio::test]
async fn book_trip_client_without_elicitation() {
    for era in ALL_ERAS {
        let (server, _) = trip_server();
        let client = Scripted::new(era, vec![]).with_capabilities(json!({}));
        let client = TestClient::start(server, client).await;
        let result = client
            .call("book-trip", json!({"date": "2025-02-01"}))
            .await;
        assert!(result.unwrap().contains("cannot show forms"), "{era:?}");
        assert!(client.asked().is_empty());
    }
}

#[tokio::test]
async fn book_trip_url_only_client_gets_no_form() {
    for era in [Era::V1125, Era::Rounds] {
        let (server, _) = trip_server();
        let client =
            Scripted::new(era, vec![]).with_capabilities(json!({"elicitation": {"url": {}}}));
        let client = TestClient::start(server, client).await;
        let result = client
            .call("book-trip", json!({"date": "2025-02-01"}))
            .await;
        assert!(result.unwrap().contains("cannot show forms"), "{era:?}");
        assert!(client.asked().is_empty());
    }
}

#[tokio::test]
async fn purge_dry_run_only_reports() {
    let logs = Logs::new("dry");
    for era in ALL_ERAS {
        let client = TestClient::scripted(logs.server(), era, vec![]).await;
        let result = client
            .call(
                PURGE,
                json!({"repo": "demo-repo", "days": 90, "dry_run": true}),
            )
            .await;
        assert_eq!(
            result.unwrap(),
            "[DRY-RUN] would delete demo-repo/logs (older than 90d), 3 objects (nothing removed)"
        );
        assert!(client.asked().is_empty());
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    }
}

#[tokio::test]
async fn purge_deletes_only_after_a_ticked_accept() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("accept-{era:?}"));
        let client = TestClient::scripted(logs.server(), era, vec![approve(150)]).await;
        let result = client.call(PURGE, demo_purge(90)).await;
        assert_eq!(
            result.unwrap(),
            "[DELETED] demo-repo/logs (older than 150d), 2 objects, approved by ops@example.com, retention=150d",
            "{era:?}"
        );
        // 200 and 400 days old are gone; the rest and the other repository stay.
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() - 2);
        assert_eq!(logs.count("other-repo"), SAMPLE_AGES.len());
        let asked = client.asked();
        assert!(asked[0]["message"].as_str().unwrap().contains("3 objects"));
        let properties = &asked[0]["requestedSchema"]["properties"];
        assert_eq!(properties["approver"]["format"], "email");
        assert_eq!(properties["retention_days"]["maximum"], 3650);
        // The call's days are the least retention offered (and, from 2025-11-25, the default).
        assert_eq!(properties["retention_days"]["minimum"], 90);
        if era != Era::V0618 {
            assert_eq!(properties["retention_days"]["default"], 90);
        }
    }
}

/// Seed 002's story: `purge_old_logs(repo, days=90, dry_run=false)`; the person ticks the
/// box, types the approver's e-mail, keeps the form's defaults and submits: the tool
/// deletes exactly the listed old files, in every era.
#[tokio::test]
async fn the_seeds_purge_with_the_forms_defaults_deletes() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("seed-{era:?}"));
        let keep_defaults = json!({"action": "accept", "content": {"confirm": true, "approver": "ops@example.com"}});
        let client = TestClient::scripted(logs.server(), era, vec![keep_defaults]).await;
        let result = client.call(PURGE, demo_purge(90)).await;
        assert_eq!(
            result.unwrap(),
            "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d",
            "{era:?}"
        );
        let message = client.messages()[0].clone();
        assert!(
            message.contains("app-100d.log, app-200d.log, app-400d.log"),
            "{message}"
        );
        let mut left: Vec<String> = std::fs::read_dir(logs.0.join("demo-repo"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["app-003d.log", "app-020d.log", "app-045d.log"],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn purge_blocked_and_cancelled_delete_nothing() {
    let logs = Logs::new("blocked");
    let args = demo_purge(30);
    for era in ALL_ERAS {
        let unticked = json!({"action": "accept", "content": {"confirm": false, "approver": "ops@example.com", "retention_days": 30}});
        let client = TestClient::scripted(logs.server(), era, vec![unticked]).await;
        let result = client.call(PURGE, args.clone()).await;
        assert_eq!(
            result.unwrap(),
            "[BLOCKED] confirmation checkbox not ticked; aborted"
        );
        let client =
            TestClient::scripted(logs.server(), era, vec![json!({"action": "decline"})]).await;
        let result = client.call(PURGE, args.clone()).await;
        assert_eq!(result.unwrap(), "[BLOCKED] user declined; nothing deleted");
        let client =
            TestClient::scripted(logs.server(), era, vec![json!({"action": "cancel"})]).await;
        let result = client.call(PURGE, args.clone()).await;
        assert_eq!(result.unwrap(), "[CANCELLED] user dismissed the dialog");
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    }
}

#[tokio::test]
async fn purge_invalid_approval_is_asked_again() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("invalid-{era:?}"));
        let bad = json!({"action": "accept", "content": {"confirm": true, "approver": "not-an-email", "retention_days": 5}});
        let good = json!({"action": "accept", "content": {"confirm": true, "approver": "ops@example.com"}});
        let client = TestClient::scripted(logs.server(), era, vec![bad, good]).await;
        let result = client.call(PURGE, demo_purge(10)).await;
        // The default retention (the call's 10 days) was filled in.
        assert_eq!(
            result.unwrap(),
            "[DELETED] demo-repo/logs (older than 10d), 5 objects, approved by ops@example.com, retention=10d"
        );
        let messages = client.messages();
        assert!(
            messages[1].contains("Approver's e-mail: not an e-mail address"),
            "{}",
            messages[1]
        );
        assert!(messages[1].contains("Retention days"), "{}", messages[1]);
    }
}

#[tokio::test]
async fn a_shorter_retention_never_widens_the_purge() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("retention-{era:?}"));
        // 30 days would widen the purge: the form refuses it and asks again; the script
        // then dismisses the form.
        let client = TestClient::scripted(logs.server(), era, vec![approve(30)]).await;
        let result = client.call(PURGE, demo_purge(90)).await;
        assert_eq!(
            result.unwrap(),
            "[CANCELLED] user dismissed the dialog",
            "{era:?}"
        );
        let messages = client.messages();
        assert!(
            messages[1].contains("Retention days") && messages[1].contains("90"),
            "{}",
            messages[1]
        );
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    }
}

/// Before the last answer a question takes, the person is told it is the last try;
/// not before.
#[tokio::test]
async fn the_last_try_is_announced() {
    for era in ALL_ERAS {
        let logs = Logs::new(&format!("last-try-{era:?}"));
        let bad =
            json!({"action": "accept", "content": {"confirm": true, "approver": "not-an-email"}});
        let client =
            TestClient::scripted(logs.server(), era, vec![bad.clone(), bad.clone(), bad]).await;
        let result = client.call(PURGE, demo_purge(90)).await;
        let shown = format!("{result:?}");
        assert!(shown.contains("not an e-mail address"), "{era:?}: {shown}");
        let messages = client.messages();
        assert_eq!(messages.len(), 3, "{era:?}");
        assert!(!messages[1].contains("Last try"), "{}", messages[1]);
        assert!(
            messages[2].starts_with(
                "Approver's e-mail: not an e-mail address\nLast try: if this answer cannot be used either, this ends here.\n\n"
            ),
            "{era:?}: {}",
            messages[2]
        );
        assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len());
    }
}

/// A form built at run time is asked as `Input::Form`, alone in its batch, in every era:
/// an invalid answer is asked again with the problem, and the valid one comes back with
/// its defaults filled.
#[tokio::test]
async fn a_form_built_at_run_time() {
    use elicit_core::client::read_schema;
    use elicit_rmcp::{Asked, Input, InputAnswer, Session};

    async fn seats(s: &mut Session) -> Asked<CallToolResult> {
        // Read from configuration, say: not a type known at compile time.
        let form = read_schema(
            &json!({
                "type": "object",
                "properties": {
                    "seats": {"type": "integer", "title": "Seats", "minimum": 1, "maximum": 4},
                    "window": {"type": "boolean", "default": true}
                },
                "required": ["seats"]
            })
            .to_string(),
        )
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let answers = s
            .inputs(vec![Input::Form {
                key: "seats",
                message: "How many seats?",
                form: &form,
            }])
            .await?;
        let answer = match answers.into_iter().next() {
            Some(InputAnswer::Form(elicit_core::Elicitation::Accept(content))) => {
                format!("accept {content}")
            }
            other => format!("{other:?}"),
        };
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(answer),
        ]))
    }

    for era in ALL_ERAS {
        let answers = vec![accept(json!({"seats": 9})), accept(json!({"seats": 2}))];
        let server = OneTool(elicitor(), |s| Box::pin(seats(s)));
        let client = TestClient::scripted(server, era, answers).await;
        let result = client.call("seats", json!({})).await.expect("a result");
        assert_eq!(result, r#"accept {"seats":2,"window":true}"#, "{era:?}");
        let messages = client.messages();
        assert_eq!(messages.len(), 2, "{era:?}: {messages:?}");
        assert!(
            messages[1].contains("Seats") && messages[1].ends_with("How many seats?"),
            "{era:?}: {}",
            messages[1]
        );
    }
}
