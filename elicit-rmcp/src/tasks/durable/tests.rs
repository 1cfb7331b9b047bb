//! Two replicas' views of one store: the durable side's rules, store-level.
use super::*;
use ::rmcp::model::{ContentBlock, InputRequest};
use elicit_core::store::MemoryStore;

/// Two replicas' views of one store, with small caps.
fn replicas() -> (Durable, Durable) {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::default());
    let replica = |store| {
        let ttl = Some(Duration::from_secs(3600));
        Durable::new(&Stored::new(store), ttl, Duration::ZERO, 2, 3)
    };
    (replica(store.clone()), replica(store))
}

fn question(key: &str) -> InputRequests {
    let request: InputRequest = serde_json::from_value(serde_json::json!({
        "method": "elicitation/create",
        "params": {"message": key, "requestedSchema": {"type": "object", "properties": {}}},
    }))
    .expect("an input request");
    [(key.to_owned(), request)].into()
}

fn answer(key: &str) -> InputResponses {
    [(
        key.to_owned(),
        serde_json::json!({"action": "accept", "content": {}}),
    )]
    .into()
}

async fn start(d: &Durable, principal: &str) -> Run {
    d.create(principal, "book", None, JsonObject::new())
        .await
        .expect("created")
        .1
}

/// A run that reached the question `key`.
async fn asking(d: &Durable, principal: &str, key: &str) -> String {
    let run = start(d, principal).await;
    let id = run.id.clone();
    d.finish(run, asked(question(key)), None).await;
    id
}

/// A run's end at `questions`, its state opening for the next hour.
fn asked(questions: InputRequests) -> RunEnd {
    RunEnd::Asked(questions, Some("state".into()), now() + 3600)
}

#[tokio::test]
async fn the_last_answer_starts_one_run_on_any_replica_and_a_replay_none() {
    let (a, b) = replicas();
    let id = asking(&a, "alice", "q0").await;
    // Another principal's update is an unknown task, as is an id too long to be
    // ours; an unasked key changes nothing.
    assert!(b.update(&id, "bob", answer("q0")).await.is_err());
    let long = "x".repeat(MAX_ID_LEN + 1);
    let refused = b.get(&long, "alice").await.expect_err("unknown");
    let cut = &long[..MAX_ID_LEN];
    assert_eq!(refused.message, format!("unknown task: {cut}…"));
    assert!(
        b.update(&id, "alice", answer("other"))
            .await
            .unwrap()
            .is_none()
    );
    let run = b.update(&id, "alice", answer("q0")).await.unwrap();
    let run = run.expect("the answer starts a run");
    assert_eq!(run.record.state.as_deref(), Some("state"));
    assert_eq!(run.record.answers, answer("q0"));
    assert_eq!(
        a.get(&id, "alice").await.unwrap().status(),
        TaskStatus::Working
    );
    // Replayed, on either replica: nothing more runs.
    assert!(
        a.update(&id, "alice", answer("q0"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        b.update(&id, "alice", answer("q0"))
            .await
            .unwrap()
            .is_none()
    );
    let result = CallToolResult::success(vec![ContentBlock::text("booked")]);
    b.finish(run, RunEnd::Completed(result), Some("done".into()))
        .await;
    let task = a.get(&id, "alice").await.unwrap();
    assert_eq!(task.status(), TaskStatus::Completed);
    assert_eq!(task.task.status_message.as_deref(), Some("done"));
}

#[tokio::test]
async fn questions_asked_together_may_be_answered_one_by_one() {
    let (a, b) = replicas();
    let run = start(&a, "alice").await;
    let id = run.id.clone();
    let mut both = question("copies");
    both.extend(question("paper"));
    a.finish(run, asked(both), None).await;
    assert!(
        b.update(&id, "alice", answer("paper"))
            .await
            .unwrap()
            .is_none()
    );
    let task = a.get(&id, "alice").await.unwrap();
    let TaskPayload::InputRequired { input_requests } = &task.payload else {
        panic!("{task:?}")
    };
    let left: Vec<&String> = input_requests.keys().collect();
    assert_eq!(left, ["copies"], "the answered question left the task");
    let run = a.update(&id, "alice", answer("copies")).await.unwrap();
    let answered: Vec<String> = run.expect("a run").record.answers.into_keys().collect();
    assert_eq!(answered, ["copies", "paper"]);
}

/// The cancel rule: a cancel that comes while the body runs ends the task as the
/// run ends — `completed` when it completed (its side effect happened), `cancelled`
/// when it stopped at a question — and one that comes while the task waits for
/// answers ends it `cancelled` at once.
#[tokio::test]
async fn a_cancel_during_a_run_ends_the_task_as_the_run_ends() {
    let (a, b) = replicas();
    let booked = CallToolResult::success(vec![ContentBlock::text("booked")]);

    // The last answer, then a cancel on the other replica: the run completes.
    let id = asking(&a, "alice", "q0").await;
    let mut run = a.update(&id, "alice", answer("q0")).await.unwrap().unwrap();
    b.cancel(&id, "alice").await.unwrap();
    assert_eq!(
        b.get(&id, "alice").await.unwrap().status(),
        TaskStatus::Working,
        "the run decides"
    );
    // The running replica learns of it at its renewal, and keeps the task.
    assert_eq!(a.renew(&mut run).await, Renewal::Cancelling);
    a.finish(run, RunEnd::Completed(booked.clone()), Some("done".into()))
        .await;
    let task = b.get(&id, "alice").await.unwrap();
    assert_eq!(task.status(), TaskStatus::Completed, "{task:?}");
    assert_eq!(task.task.status_message.as_deref(), Some("done"));
    // Cancelling again is acknowledged and changes nothing.
    a.cancel(&id, "alice").await.unwrap();
    assert_eq!(
        b.get(&id, "alice").await.unwrap().status(),
        TaskStatus::Completed
    );

    // A run that reaches another question after the cancel: cancelled, and its
    // place under the caps is free.
    let id = asking(&a, "alice", "q0").await;
    let run = a.update(&id, "alice", answer("q0")).await.unwrap().unwrap();
    b.cancel(&id, "alice").await.unwrap();
    a.finish(run, asked(question("q1")), None).await;
    let task = b.get(&id, "alice").await.unwrap();
    assert_eq!(task.status(), TaskStatus::Cancelled, "{task:?}");

    // Waiting for answers: cancelled at once; a late run of it writes nothing.
    let id = asking(&a, "alice", "q0").await;
    b.cancel(&id, "alice").await.unwrap();
    assert_eq!(
        a.get(&id, "alice").await.unwrap().status(),
        TaskStatus::Cancelled
    );
    assert!(
        a.update(&id, "alice", answer("q0"))
            .await
            .unwrap()
            .is_none()
    );
    asking(&b, "alice", "q0").await;
    asking(&b, "alice", "q0").await;
}

#[tokio::test]
async fn the_caps_hold_across_replicas_and_ended_tasks_make_room() {
    let (a, b) = replicas();
    let first = asking(&a, "alice", "q0").await;
    asking(&b, "alice", "q0").await;
    let refused = a.create("alice", "book", None, JsonObject::new()).await;
    let refused = refused.expect_err("past alice's cap");
    assert!(
        refused.message.contains("of this client (at most 2)"),
        "{refused:?}"
    );
    asking(&b, "bob", "q0").await;
    let refused = b.create("carol", "book", None, JsonObject::new()).await;
    let refused = refused.expect_err("past the server's cap");
    assert!(
        refused.message.contains("on this server (at most 3)"),
        "{refused:?}"
    );
    b.cancel(&first, "alice").await.unwrap();
    asking(&a, "alice", "q0").await;
}

#[tokio::test]
async fn a_task_whose_replica_stopped_running_it_ends_failed() {
    let (a, b) = replicas();
    let id = asking(&a, "alice", "q0").await;
    let mut run = a.update(&id, "alice", answer("q0")).await.unwrap().unwrap();
    // While its replica renews the lease, the task is working.
    assert_eq!(a.renew(&mut run).await, Renewal::Held);
    assert_eq!(
        b.get(&id, "alice").await.unwrap().status(),
        TaskStatus::Working
    );
    // The replica stops: its lease lapses (written here as if long past).
    let (version, mut record) = b.load(&id).await.unwrap().unwrap();
    record.lease = now() - 1;
    assert!(b.save(&id, version, &record).await.unwrap());
    let task = b.get(&id, "alice").await.unwrap();
    assert_eq!(task.status(), TaskStatus::Failed);
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("{task:?}")
    };
    assert_eq!(error["message"], STOPPED);
    // Its place under the cap is free again.
    asking(&b, "alice", "q0").await;
    asking(&b, "alice", "q0").await;
}

/// A principal at her cap calling again and again leaves the indexes as they were:
/// each refused call changes nothing, and every other principal keeps its place.
#[tokio::test]
async fn calls_refused_at_a_cap_change_nothing_in_the_store() {
    let store = Arc::new(MemoryStore::default());
    let ttl = Some(Duration::from_secs(3600));
    let d = Durable::new(&Stored::new(store.clone()), ttl, Duration::ZERO, 2, 4);
    asking(&d, "alice", "q0").await;
    asking(&d, "alice", "q0").await;
    let flood = (0..500).map(|_| d.create("alice", "book", None, JsonObject::new()));
    for refused in futures_util::future::join_all(flood).await {
        let refused = refused.expect_err("past alice's cap");
        assert!(refused.message.contains("of this client"), "{refused:?}");
    }
    // The server's index still counts alice's two: bob takes the other two places.
    asking(&d, "bob", "q0").await;
    asking(&d, "bob", "q0").await;
    let refused = d.create("carol", "book", None, JsonObject::new()).await;
    assert!(
        refused
            .expect_err("full")
            .message
            .contains("on this server")
    );
}

/// What a client sends is kept only up to the bounds: larger arguments or `_meta`
/// refuse the call before anything is stored, larger answers refuse the update.
#[tokio::test]
async fn a_record_keeps_what_a_client_sends_only_within_bounds() {
    let store = Arc::new(MemoryStore::default());
    let ttl = Some(Duration::from_secs(3600));
    let d = Durable::new(&Stored::new(store.clone()), ttl, Duration::ZERO, 2, 4);
    let huge = |n: usize| -> JsonObject {
        [("note".to_owned(), Value::String("x".repeat(n)))]
            .into_iter()
            .collect()
    };
    let refused = d
        .create("alice", "book", Some(huge(4 << 20)), JsonObject::new())
        .await
        .expect_err("4 MB of arguments");
    assert_eq!(refused.code, ::rmcp::model::ErrorCode::INVALID_PARAMS);
    assert!(refused.message.contains("16 KiB"), "{refused:?}");
    let refused = d
        .create("alice", "book", None, huge(MAX_META))
        .await
        .expect_err("a huge _meta");
    assert!(refused.message.contains("8 KiB"), "{refused:?}");
    // Nothing was counted: both of alice's places are free.
    asking(&d, "alice", "q0").await;
    let id = asking(&d, "alice", "q0").await;
    let big: InputResponses = [(
        "q0".to_owned(),
        serde_json::json!({"action": "accept", "content": {"note": "x".repeat(MAX_ANSWERS)}}),
    )]
    .into();
    let refused = d.update(&id, "alice", big).await.expect_err("too large");
    assert!(refused.message.contains("64 KiB"), "{refused:?}");
    assert_eq!(
        d.get(&id, "alice").await.unwrap().status(),
        TaskStatus::InputRequired
    );
    // At its bounds, what the client sent takes at most the sum of the bounds.
    let (_, record) = d.load(&id).await.unwrap().unwrap();
    let mut full = record.clone();
    full.arguments = Some(huge(MAX_ARGUMENTS - 20));
    full.meta = huge(MAX_META - 20);
    full.answers = [("q0".to_owned(), Value::String("x".repeat(MAX_ANSWERS - 20)))].into();
    let sent = json_len(&full.arguments) + json_len(&full.meta) + json_len(&full.answers);
    assert!(sent <= MAX_ARGUMENTS + MAX_META + MAX_ANSWERS, "{sent}");
    let rest = json_len(&record);
    assert!(
        rest < 2048,
        "a record without a client's input: {rest} bytes"
    );
}

/// Only the client's revision, capabilities, name and version are kept of `_meta`,
/// the name and version cut to 256 characters.
#[test]
fn the_client_is_kept_by_its_revision_capabilities_name_and_version() {
    let meta = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {
            "name": "n".repeat(1000), "version": "1.0", "icons": ["x".repeat(5000)],
        },
        "progressToken": "p".repeat(5000),
    });
    let Value::Object(meta) = meta else {
        unreachable!()
    };
    let kept = client_of(&meta);
    assert_eq!(
        Value::Object(kept),
        serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "n".repeat(256), "version": "1.0"},
        })
    );
}

/// A question nobody answers while its state can open ends the task `failed`, and
/// its place under the caps is free from then on, read or not.
#[tokio::test]
async fn a_question_unanswered_while_its_state_opens_ends_the_task() {
    let (a, b) = replicas();
    let run = start(&a, "alice").await;
    let id = run.id.clone();
    a.finish(
        run,
        RunEnd::Asked(question("q0"), Some("state".into()), now() - 1),
        None,
    )
    .await;
    // Its places lapsed with its state: alice starts two more.
    asking(&b, "alice", "q0").await;
    asking(&b, "alice", "q0").await;
    let task = b.get(&id, "alice").await.unwrap();
    assert_eq!(task.status(), TaskStatus::Failed, "{task:?}");
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("{task:?}")
    };
    assert_eq!(error["message"], UNANSWERED);
    assert!(
        b.update(&id, "alice", answer("q0"))
            .await
            .unwrap()
            .is_none()
    );
}
