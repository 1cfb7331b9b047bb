//! The sealed `requestState` of 2026-07-28 rounds over real rmcp connections: encrypted
//! and bound to its server's key, tool, arguments and principal; good for one retry
//! (a replayed final round deletes or sells nothing twice); expiring; opened by a
//! rotated key's successor; refused when sealed in the future or older than the record
//! of used states reaches; and holding only validated answers and one call id. The
//! client side is in `support/`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::__private::testing::Sealer;
use elicit_core::seal::{Key, Keyring};
use elicit_examples::servers::purge::SAMPLE_AGES;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::servers::trip::{Inventory, TripServer};
use elicit_examples::ticket::Cinema;
use elicit_rmcp::Elicitor;
use rmcp::model::CallToolResponse;
use serde_json::{Value, json};

mod support;
use support::*;

/// One round by hand: the first `input_required` of `book_tickets` (its key, its
/// state and its request).
async fn first_round(client: &TestClient) -> (String, String, Value) {
    let response = client.round("book_tickets", json!({}), None, vec![]).await;
    let (requests, state) = asked(&response.unwrap());
    let (key, request) = requests.into_iter().next().unwrap();
    (key, state, request)
}

/// The retry of `book_tickets` answering `key` with `state`.
async fn retry(
    client: &TestClient,
    key: &str,
    state: &str,
    answer: Value,
) -> Result<CallToolResponse, String> {
    let responses = vec![(key, answer)];
    client
        .round("book_tickets", json!({}), Some(state), responses)
        .await
}

#[tokio::test]
async fn rounds_state_is_sealed_and_bound() {
    let shared = elicitor();
    let client = TestClient::scripted(ticket_server(shared.clone()), Era::Rounds, vec![]).await;
    let (key, state, request) = first_round(&client).await;
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(
        request["params"]["message"],
        "Which day would you like to go?"
    );
    // The days with seats are the choices: nothing to guess or type.
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["date"]["enum"],
        json!(["2025-02-03", "2025-02-04"])
    );
    assert!(!state.contains("2025"), "the state is encrypted");

    // A missing answer asks the same question again; extra keys are ignored.
    let mut params = call("book_tickets", json!({}));
    params.request_state = Some(state.clone());
    params.input_responses = Some(BTreeMap::from([("unrelated".to_owned(), json!(1))]));
    let again = client.call_tool_once(params).await.unwrap();
    let CallToolResponse::InputRequired(again) = again else {
        panic!("asks again")
    };
    assert!(again.input_requests.unwrap().contains_key(&key));
    let state = again.request_state.unwrap();

    // The genuine retry moves on to the seat.
    let answer = accept(json!({"date": "2025-02-03"}));
    let next = retry(&client, &key, &state, answer.clone()).await.unwrap();
    let CallToolResponse::InputRequired(next) = next else {
        panic!("asks the seat")
    };
    let seat_state = next.request_state.unwrap();
    assert!(!seat_state.contains("2025-02-03"));

    // The same retry again: each state is good for one retry.
    let error = retry(&client, &key, &state, answer.clone())
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the requestState of this retry was refused: it was used before"),
        "{error}"
    );

    // Tampered: one character changed.
    let mut bytes = state.clone().into_bytes();
    let i = bytes.len() - 5;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    let error = retry(&client, &key, &tampered, answer.clone())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("requestState"), "{error}");

    // Garbage.
    let error = retry(&client, &key, "not a state", answer.clone())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("requestState"), "{error}");

    // Foreign key: another server instance with its own key.
    let other = TestClient::scripted(ticket_server(elicitor()), Era::Rounds, vec![]).await;
    let error = retry(&other, &key, &state, answer.clone())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("requestState"), "{error}");

    // Replayed against another tool of a server with the same key.
    let trip = TestClient::scripted(
        TripServer::new(shared.clone(), Arc::new(Mutex::new(Inventory::demo()))),
        Era::Rounds,
        vec![],
    )
    .await;
    let mut params = call("book-trip", json!({"date": "2025-02-01"}));
    params.request_state = Some(state.clone());
    params.input_responses = Some(BTreeMap::from([(key.clone(), answer)]));
    let error = trip.call_tool_once(params).await.unwrap_err();
    assert!(error.to_string().contains("requestState"), "{error}");
}

#[tokio::test]
async fn rounds_state_replayed_by_another_principal_or_arguments_is_refused() {
    let (server, _) = trip_server();
    let client = TestClient::scripted(server, Era::Rounds, vec![]).await;
    let response = client
        .call_tool_once(call("book-trip", json!({"date": "2025-02-01"})))
        .await
        .unwrap();
    let CallToolResponse::InputRequired(input) = response else {
        panic!("asks")
    };
    let state = input.request_state.unwrap();
    let key = input.input_requests.unwrap().into_keys().next().unwrap();
    let mut params = call("book-trip", json!({"date": "2025-02-02"}));
    params.request_state = Some(state);
    params.input_responses = Some(BTreeMap::from([(
        key,
        accept(json!({"checkAlternatives": true, "newDate": "2025-02-03"})),
    )]));
    let error = client.call_tool_once(params).await.unwrap_err();
    assert!(error.to_string().contains("requestState"), "{error}");
}

#[tokio::test]
async fn rounds_state_expires() {
    let mut engine = elicit_core::engine::Engine::new(Keyring::new("k1", Key::generate()).unwrap());
    engine.settings_mut().state_ttl = Duration::from_secs(1);
    let short = Elicitor::with_engine(engine);
    let client = TestClient::scripted(ticket_server(short), Era::Rounds, vec![]).await;
    let (key, state, _) = first_round(&client).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let error = retry(&client, &key, &state, accept(json!({"date": "2025-02-03"})))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("expired"), "{error}");
}

#[tokio::test]
async fn rounds_rotated_key_still_opens_old_state() {
    let old = Key::generate();
    let before = Elicitor::new(Keyring::new("k1", old.clone()).unwrap());
    let after = Elicitor::new(
        Keyring::new("k2", Key::generate())
            .unwrap()
            .with_previous("k1", old)
            .unwrap(),
    );
    // Two processes (replicas, or a redeploy with both keys) whose records of used
    // states are their own: a state another record began no later than is refused as
    // possibly its own from before a restart, so the state is sealed a second later.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    tokio::time::sleep(Duration::from_nanos(
        1_000_000_000 - u64::from(now.subsec_nanos()) + 1_000_000,
    ))
    .await;
    let first = TestClient::scripted(ticket_server(before), Era::Rounds, vec![]).await;
    let (key, state, _) = first_round(&first).await;
    let second = TestClient::scripted(ticket_server(after), Era::Rounds, vec![]).await;
    let next = retry(&second, &key, &state, accept(json!({"date": "2025-02-03"})))
        .await
        .unwrap();
    assert!(matches!(next, CallToolResponse::InputRequired(_)));
}

#[tokio::test]
async fn sealed_state_keeps_only_validated_answers_and_a_call_id() {
    use elicit_core::seal::Binding;
    let key = Key::generate();
    let sealer = || Sealer::new(Keyring::new("k1", key.clone()).unwrap());
    let server = elicit_examples::servers::conformance::ConformanceServer::new(Elicitor::new(
        Keyring::new("k1", key.clone()).unwrap(),
    ));
    let client = TestClient::scripted(server, Era::Rounds, vec![]).await;
    let tool = "test_input_required_result_multi_round";
    let first = client
        .round(tool, json!({}), None, vec![])
        .await
        .expect("a result");
    let (requests, state) = asked(&first);
    let padded =
        json!({"action": "accept", "content": {"name": "Alice", "junk": "z".repeat(5000)}});
    let second = client
        .round(
            tool,
            json!({}),
            Some(&state),
            vec![(&requests[0].0, padded)],
        )
        .await
        .expect("a result");
    let (_, state2) = asked(&second);
    let binding = Binding::new("", "tools/call", tool, &json!({}));
    let (one, two): (Value, Value) = (
        sealer().open(&binding, &state).unwrap(),
        sealer().open(&binding, &state2).unwrap(),
    );
    let kept = serde_json::to_string(&two).unwrap();
    assert!(!kept.contains("zzz") && kept.contains("Alice"), "{kept}");
    assert!(state2.len() < 1000, "{}", state2.len());
    // One call id for every round; a fresh id for every round.
    assert_eq!(one["call"], two["call"]);
    assert_ne!(one["round"], two["round"]);
}

#[tokio::test]
async fn a_state_sealed_in_the_future_is_refused() {
    use elicit_core::seal::Binding;
    let key = Key::generate();
    let sealer = || Sealer::new(Keyring::new("k1", key.clone()).unwrap());
    let client = TestClient::scripted(
        ticket_server(Elicitor::new(Keyring::new("k1", key.clone()).unwrap())),
        Era::Rounds,
        vec![],
    )
    .await;
    let binding = Binding::new("", "tools/call", "book_tickets", &json!({}));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let state = json!({"call": "c", "round": "r"});
    let ahead = sealer().seal_at(&binding, &state, now + 600).unwrap();
    let error = client
        .round("book_tickets", json!({}), Some(&ahead), vec![])
        .await
        .unwrap_err();
    assert!(error.contains("issued in the future"), "{error}");
    // Within the allowed skew it opens.
    let close = sealer().seal_at(&binding, &state, now + 5).unwrap();
    client
        .round("book_tickets", json!({}), Some(&close), vec![])
        .await
        .unwrap();
}

#[tokio::test]
async fn a_full_single_use_record_refuses_what_it_can_no_longer_tell() {
    use elicit_core::store::MemoryStore;
    // Room for one id: the second redemption forgets the first, and from then states
    // sealed no later than it are refused rather than risk a replay.
    let tiny = elicitor().with_redeem_store(MemoryStore::with_capacity(1));
    let client = TestClient::scripted(ticket_server(tiny), Era::Rounds, vec![]).await;
    // Two calls: A's state is sealed no later than B's.
    let (key_a, state_a, _) = first_round(&client).await;
    let (key_b, state_b, _) = first_round(&client).await;
    let date = accept(json!({"date": "2025-02-03"}));
    asked(
        &retry(&client, &key_b, &state_b, date.clone())
            .await
            .unwrap(),
    );
    // Redeeming A forgets B's id, so A (sealed no later) can no longer be told apart
    // from a replay: refused.
    let error = retry(&client, &key_a, &state_a, date)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("older than this server's record of used states reaches back"),
        "{error}"
    );
}

#[tokio::test]
async fn a_replayed_final_purge_round_is_refused_and_deletes_nothing_more() {
    let logs = Logs::new("replay");
    let client = TestClient::scripted(logs.server(), Era::Rounds, vec![]).await;
    let args = demo_purge(90);
    let first = client
        .round(PURGE, args.clone(), None, vec![])
        .await
        .unwrap();
    let (key, message, state) = first_asked(&first);
    assert!(
        message.contains("3 objects")
            && message.contains("app-100d.log, app-200d.log, app-400d.log"),
        "{message}"
    );
    let done = client
        .round(PURGE, args.clone(), Some(&state), vec![(&key, approve(90))])
        .await
        .unwrap();
    assert_eq!(
        complete_text(&done),
        "[DELETED] demo-repo/logs (older than 90d), 3 objects, approved by ops@example.com, retention=90d"
    );
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() - 3);

    // A new old log, then the very same final request again.
    old_log(&logs.0.join("demo-repo"), "late-300d.log", 300);
    let replay = client
        .round(PURGE, args, Some(&state), vec![(&key, approve(90))])
        .await
        .unwrap_err();
    assert!(
        replay.contains("the requestState of this retry was refused: it was used before")
            && replay.contains("call the tool again without it"),
        "{replay}"
    );
    assert_eq!(logs.count("demo-repo"), SAMPLE_AGES.len() - 2);
}

#[tokio::test]
async fn a_replayed_ticket_round_sells_nothing_twice() {
    let cinema = Arc::new(Mutex::new(Cinema::demo()));
    let server = TicketServer::new(elicitor(), cinema.clone());
    let client = TestClient::scripted(server, Era::Rounds, vec![]).await;
    let answers = [
        accept(json!({"date": "2025-02-04"})),
        accept(json!({"seat": "C1"})),
        accept(json!({"popcorn": false})),
    ];
    let mut state = None;
    let mut last = None;
    let mut response = client
        .round("book_tickets", json!({}), None, vec![])
        .await
        .unwrap();
    for answer in answers {
        let (key, _, next) = first_asked(&response);
        last = Some((key.clone(), next.clone(), answer.clone()));
        response = client
            .round("book_tickets", json!({}), Some(&next), vec![(&key, answer)])
            .await
            .unwrap();
        state = Some(next);
    }
    assert_eq!(
        complete_text(&response),
        "Booked seat C1 on 2025-02-04 with no snacks."
    );
    let free = |c: &Cinema| c.free_seats("2025-02-04").map(<[_]>::len);
    let after = free(&cinema.lock().unwrap());
    let (key, final_state, answer) = last.unwrap();
    assert_eq!(state.as_deref(), Some(final_state.as_str()));
    let replay = client
        .round(
            "book_tickets",
            json!({}),
            Some(&final_state),
            vec![(&key, answer)],
        )
        .await
        .unwrap_err();
    assert!(replay.contains("it was used before"), "{replay}");
    assert_eq!(free(&cinema.lock().unwrap()), after);
}
