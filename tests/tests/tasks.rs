//! The Tasks channel of `Session` (the Tasks extension, SEP-2663) over real rmcp
//! connections: a form and the ticket wizard asked from inside a task (accept, decline,
//! cancel, an invalid answer then a valid one, the task cancelled mid-question, a task
//! nobody answers expiring, for each), nothing left behind, rounds that go on as a task, the
//! same tool body on all three channels, and the client kit following a task. The form,
//! the wizard and a batch also run in tasks kept in a store (`Tasks::with_task_store`, this
//! process's `MemoryStore`), whose bodies run in rounds. The conformance server's task
//! tools: refused (-32021) to a client without the extension, and completed, failed and
//! cancelled through `tasks/get`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::client::{Asker, Question, Reply};
use elicit_core::store::MemoryStore;
use elicit_core::{Elicit, Elicitation};
use elicit_rmcp::client::FormClient;
use elicit_rmcp::{Asked, Channel, Elicitor, Input, Session, TaskSupport, Tasks, Tools};
use rmcp::model::{
    CallToolResponse, CallToolResult, CancelTaskParams, ContentBlock, DetailedTask, GetTaskParams,
    ProtocolVersion, TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::{ServerHandler, ServiceError, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

mod support;
use support::*;

/// `print`'s question: bounded, so an answer can be invalid.
#[derive(Debug, Elicit, Deserialize)]
struct Copies {
    /// How many copies
    #[elicit(minimum = 1, maximum = 10)]
    copies: i64,
}

/// `print_later`'s second question.
#[derive(Debug, Elicit, Deserialize)]
struct Paper {
    /// Paper size
    paper: String,
}

/// Counts the tool bodies alive: each holds one while it runs.
struct Live(Arc<AtomicUsize>);

impl Live {
    fn new(count: &Arc<AtomicUsize>) -> Live {
        count.fetch_add(1, Ordering::SeqCst);
        Live(count.clone())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A server with one body for every channel (`print`) and one that asks in rounds and
/// goes on as a task (`print_later`).
#[derive(Clone)]
struct Printer {
    tools: Tools<Printer>,
    live: Arc<AtomicUsize>,
    channels: Arc<Mutex<Vec<Channel>>>,
}

fn done(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

#[tool_router]
impl Printer {
    fn new(elicitor: Elicitor) -> Printer {
        Printer {
            tools: Tools::new(elicitor, Self::tool_router())
                .with_task_support("print", TaskSupport::Optional)
                .with_task_support("print_both", TaskSupport::Required),
            live: Arc::default(),
            channels: Arc::default(),
        }
    }

    #[tool(description = "Prints, once asked how many copies")]
    async fn print(&self, mut s: Session) -> Asked<CallToolResult> {
        let _live = Live::new(&self.live);
        self.channels.lock().unwrap().push(s.channel());
        Ok(done(match s.ask::<Copies>("How many copies?").await? {
            Elicitation::Accept(c) => format!("printed {} copies", c.copies),
            Elicitation::Decline => "declined".to_owned(),
            Elicitation::Cancel => "cancelled".to_owned(),
        }))
    }

    #[tool(description = "Asks the copies and the paper at once, in a task")]
    async fn print_both(&self, mut s: Session) -> Asked<CallToolResult> {
        let mut answers = s
            .inputs(vec![
                Input::form::<Copies>("copies", "How many copies?"),
                Input::form::<Paper>("paper", "Which paper?"),
            ])
            .await?
            .into_iter();
        let copies = answers.next().map(|a| a.typed::<Copies>()).transpose()?;
        let paper = answers.next().map(|a| a.typed::<Paper>()).transpose()?;
        Ok(done(match (copies, paper) {
            (Some(Elicitation::Accept(c)), Some(Elicitation::Accept(p))) => {
                format!("printed {} copies on {}", c.copies, p.paper)
            }
            _ => "nothing printed".to_owned(),
        }))
    }

    #[tool(description = "Asks how many copies, then prints in a task that asks the paper")]
    async fn print_later(&self, mut s: Session) -> Asked<CallToolResponse> {
        let Elicitation::Accept(Copies { copies }) = s.ask::<Copies>("How many copies?").await?
        else {
            return Ok(done("nothing printed").into());
        };
        let live = self.live.clone();
        let channels = self.channels.clone();
        s.continue_in_task(move |mut s| async move {
            let _live = Live::new(&live);
            channels.lock().unwrap().push(s.channel());
            s.set_status(format!("printing {copies} copies"));
            Ok(done(match s.ask::<Paper>("Which paper?").await? {
                Elicitation::Accept(p) => format!("printed {copies} copies on {}", p.paper),
                _ => format!("printed {copies} copies on plain paper"),
            }))
        })
        .await
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for Printer {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
    }

    elicit_rmcp::task_handlers!(tools);
}

fn printer(tasks: &Tasks) -> Printer {
    Printer::new(elicitor().with_tasks(tasks.clone()))
}

type Client = RunningService<RoleClient, Scripted>;

async fn once(running: &Client, tool: &str) -> CallToolResponse {
    tokio::time::timeout(LIMIT, running.call_tool_once(call(tool, json!({}))))
        .await
        .expect("bounded")
        .expect("a response")
}

async fn get(running: &Client, id: &str) -> DetailedTask {
    running
        .get_task(GetTaskParams::new(id))
        .await
        .expect("tasks/get")
        .task
}

/// Polls until the task waits for input: its questions, as JSON by key.
async fn questions(running: &Client, id: &str) -> Vec<(String, Value)> {
    tokio::time::timeout(LIMIT, async {
        loop {
            let task = get(running, id).await;
            match task.payload {
                TaskPayload::InputRequired { input_requests } => {
                    return input_requests
                        .into_iter()
                        .map(|(k, r)| (k, serde_json::to_value(r).unwrap()))
                        .collect();
                }
                payload if payload.status().is_terminal() => {
                    panic!("the task ended instead of asking: {payload:?}")
                }
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    })
    .await
    .expect("the task asks in time")
}

async fn answer(running: &Client, id: &str, key: &str, answer: Value) {
    let responses = [(key.to_owned(), answer)].into_iter().collect();
    running
        .update_task(UpdateTaskParams::new(id, responses))
        .await
        .expect("tasks/update");
}

/// The text of a completed task's result.
fn completed(task: &DetailedTask) -> String {
    let TaskPayload::Completed { result } = &task.payload else {
        panic!("expected completed, got {task:?}");
    };
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

/// Waits until `count` reaches `want` (bodies finish on other tokio tasks).
async fn settles_at(count: &AtomicUsize, want: usize) {
    tokio::time::timeout(LIMIT, async {
        while count.load(Ordering::SeqCst) != want {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the count settles");
}

/// The channels the bodies ran on, each once (in rounds a body runs once per round).
fn channels(server: &Printer) -> Vec<Channel> {
    let mut seen = server.channels.lock().unwrap().clone();
    seen.dedup();
    seen
}

fn message(question: &Value) -> &str {
    question["params"]["message"].as_str().unwrap()
}

#[tokio::test]
async fn a_form_in_a_task_ends_on_accept_decline_and_cancel() {
    form_in_a_task(Tasks::new(), Channel::Task).await;
}

/// Kept in a store, the task's body runs in rounds, up to each question and again
/// with the answers.
#[tokio::test]
async fn a_form_in_a_task_kept_in_a_store_ends_on_accept_decline_and_cancel() {
    form_in_a_task(stored(), Channel::Rounds).await;
}

/// Tasks kept in a store of this process.
fn stored() -> Tasks {
    Tasks::new().with_task_store(MemoryStore::default())
}

async fn form_in_a_task(tasks: Tasks, channel: Channel) {
    let server = printer(&tasks);
    let live = server.live.clone();
    let running = connect(server.clone(), tasks_client(true), Era::Rounds).await;
    for (reply, want) in [
        (
            json!({"action": "accept", "content": {"copies": 3}}),
            "printed 3 copies",
        ),
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "cancelled"),
    ] {
        let id = task_id(&once(&running, "print").await);
        let asked = questions(&running, &id).await;
        assert_eq!(asked.len(), 1, "{asked:?}");
        let (key, question) = &asked[0];
        assert_eq!(question["method"], "elicitation/create");
        assert_eq!(message(question), "How many copies?");
        assert_eq!(
            question["params"]["requestedSchema"]["properties"]["copies"]["maximum"],
            10
        );
        answer(&running, &id, key, reply).await;
        assert_eq!(completed(&settled(&running, &id).await), want);
    }
    assert_eq!(channels(&server), [channel]);
    settles_at(&live, 0).await;
    assert_eq!(tasks.running(), 0);
}

#[tokio::test]
async fn an_invalid_answer_in_a_task_is_asked_again_under_a_new_key() {
    let tasks = Tasks::new();
    let running = connect(printer(&tasks), tasks_client(true), Era::Rounds).await;
    let id = task_id(&once(&running, "print").await);
    let first = questions(&running, &id).await;
    let first_key = first[0].0.clone();
    answer(
        &running,
        &id,
        &first_key,
        json!({"action": "accept", "content": {"copies": 99}}),
    )
    .await;
    // Asked again, the problem above the message, under a key not used before.
    let again = tokio::time::timeout(LIMIT, async {
        loop {
            let asked = questions(&running, &id).await;
            if asked[0].0 != first_key {
                return asked;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("asked again");
    let (key, question) = &again[0];
    assert_eq!(key, &format!("{first_key}.1"));
    let text = message(question);
    assert!(text.contains("copies"), "{text}");
    assert!(text.ends_with("How many copies?"), "{text}");
    // An answer under the old key is ignored; the new key's is read.
    answer(
        &running,
        &id,
        &first_key,
        json!({"action": "accept", "content": {"copies": 1}}),
    )
    .await;
    answer(
        &running,
        &id,
        key,
        json!({"action": "accept", "content": {"copies": 2}}),
    )
    .await;
    assert_eq!(completed(&settled(&running, &id).await), "printed 2 copies");
}

#[tokio::test]
async fn a_task_cancelled_mid_question_withdraws_it_and_leaves_nothing() {
    let tasks = Tasks::new();
    let server = printer(&tasks);
    let live = server.live.clone();
    let running = connect(server, tasks_client(true), Era::Rounds).await;
    let id = task_id(&once(&running, "print").await);
    questions(&running, &id).await;
    assert_eq!(live.load(Ordering::SeqCst), 1);
    running
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .expect("cancel ack");
    let task = settled(&running, &id).await;
    assert_eq!(task.status(), TaskStatus::Cancelled, "{task:?}");
    settles_at(&live, 0).await;
    assert_eq!(tasks.running(), 0);
    // The question is gone: nothing is waiting for it.
    assert!(matches!(
        get(&running, &id).await.payload,
        TaskPayload::Cancelled
    ));
}

/// The cancel rule, the same with and without a store: a cancel that comes right
/// after the last answer finds the body running, and the task ends as the body does
/// (`completed`, it printed), never `cancelled` over a side effect that happened.
#[tokio::test]
async fn a_cancel_right_after_the_last_answer_ends_as_the_body_did() {
    for tasks in [Tasks::new(), stored()] {
        let running = connect(printer(&tasks), tasks_client(true), Era::Rounds).await;
        let id = task_id(&once(&running, "print").await);
        let asked = questions(&running, &id).await;
        let accept = json!({"action": "accept", "content": {"copies": 3}});
        answer(&running, &id, &asked[0].0, accept).await;
        running
            .cancel_task(CancelTaskParams::new(&id))
            .await
            .expect("cancel ack");
        let task = settled(&running, &id).await;
        assert_eq!(completed(&task), "printed 3 copies", "{task:?}");
    }
}

/// Tasks waiting for a person are capped, per principal and in all: the call past a cap
/// is refused with an error saying so, and once one ends, another may start.
#[tokio::test]
async fn running_tasks_are_capped_per_principal_and_in_all() {
    for (limits, whose, at_most) in [
        ((2, 10), "of this client", 2),
        ((10, 2), "on this server", 2),
    ] {
        let tasks = Tasks::new().with_limits(limits.0, limits.1);
        let server = printer(&tasks);
        let live = server.live.clone();
        let running = connect(server, tasks_client(true), Era::Rounds).await;
        let first = task_id(&once(&running, "print").await);
        let second = task_id(&once(&running, "print").await);
        questions(&running, &second).await;
        let refused = tokio::time::timeout(LIMIT, running.call_tool_once(call("print", json!({}))))
            .await
            .expect("bounded")
            .expect_err("past the cap");
        let text = refused.to_string();
        assert!(
            text.contains(&format!(
                "too many tasks running {whose} (at most {at_most})"
            )),
            "{text}"
        );
        assert_eq!(tasks.running(), 2);
        // One ends: there is room again.
        running
            .cancel_task(CancelTaskParams::new(&first))
            .await
            .expect("tasks/cancel");
        settles_at(&live, 1).await;
        let third = tokio::time::timeout(LIMIT, async {
            loop {
                match running.call_tool_once(call("print", json!({}))).await {
                    Ok(response) => break response,
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            }
        })
        .await
        .expect("room again");
        task_id(&third);
    }
}

#[tokio::test]
async fn a_task_nobody_answers_expires_and_leaves_nothing() {
    let tasks = Tasks::new().with_ttl(Some(Duration::from_millis(300)));
    let server = printer(&tasks);
    let live = server.live.clone();
    let running = connect(server, tasks_client(true), Era::Rounds).await;
    let id = task_id(&once(&running, "print").await);
    questions(&running, &id).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let task = get(&running, &id).await;
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("expected failed, got {task:?}");
    };
    assert!(
        error["message"].as_str().unwrap().contains("expired"),
        "{error:?}"
    );
    settles_at(&live, 0).await;
    assert_eq!(tasks.running(), 0);
}

#[tokio::test]
async fn the_ticket_wizard_in_a_task() {
    ticket_wizard_in_a_task(Tasks::new()).await;
}

#[tokio::test]
async fn the_ticket_wizard_in_a_task_kept_in_a_store() {
    ticket_wizard_in_a_task(stored()).await;
}

async fn ticket_wizard_in_a_task(tasks: Tasks) {
    let running = connect(
        ticket_server(elicitor().with_tasks(tasks.clone())),
        tasks_client(true),
        Era::Rounds,
    )
    .await;

    // Every step answered in the task; the invalid answers asked again.
    let id = task_id(&once(&running, "book_tickets").await);
    let mut messages = Vec::new();
    for reply in happy_answers() {
        let asked = questions(&running, &id).await;
        assert_eq!(asked.len(), 1, "{asked:?}");
        messages.push(message(&asked[0].1).to_owned());
        answer(&running, &id, &asked[0].0, reply).await;
        // The next question (or the end) comes once this answer is read.
        tokio::time::timeout(LIMIT, async {
            while let TaskPayload::InputRequired { input_requests } =
                get(&running, &id).await.payload
                && input_requests.contains_key(&asked[0].0)
            {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the answer is read");
    }
    let task = settled(&running, &id).await;
    assert_eq!(
        completed(&task),
        "Booked seat B4 on 2025-02-03 with large popcorn and cola."
    );
    assert_eq!(
        task.task.status_message.as_deref(),
        Some("Booking seat B4 on 2025-02-03")
    );
    assert!(
        messages[1].starts_with("Date: \"2025-02-01\" is not one of the options"),
        "{messages:?}"
    );
    assert_eq!(messages[2], "Pick a seat for 2025-02-03");

    // Declined and cancelled at the first step.
    for (reply, want) in [
        (
            json!({"action": "decline"}),
            "Nothing booked: you declined the date step.",
        ),
        (
            json!({"action": "cancel"}),
            "Booking cancelled at the date step.",
        ),
    ] {
        let id = task_id(&once(&running, "book_tickets").await);
        let asked = questions(&running, &id).await;
        answer(&running, &id, &asked[0].0, reply).await;
        assert_eq!(completed(&settled(&running, &id).await), want);
    }

    // The task cancelled at the seat step.
    let id = task_id(&once(&running, "book_tickets").await);
    let asked = questions(&running, &id).await;
    answer(&running, &id, &asked[0].0, happy_answers()[1].clone()).await;
    while questions(&running, &id).await[0].0 == asked[0].0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    running
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .expect("cancel ack");
    assert_eq!(settled(&running, &id).await.status(), TaskStatus::Cancelled);
    assert_eq!(tasks.running(), 0);
}

#[tokio::test]
async fn questions_asked_together_in_a_task_may_be_answered_one_by_one() {
    answered_one_by_one(Tasks::new()).await;
}

#[tokio::test]
async fn questions_asked_together_in_a_task_kept_in_a_store_may_be_answered_one_by_one() {
    answered_one_by_one(stored()).await;
}

async fn answered_one_by_one(tasks: Tasks) {
    let running = connect(printer(&tasks), tasks_client(true), Era::Rounds).await;
    let id = task_id(&once(&running, "print_both").await);
    let asked = questions(&running, &id).await;
    let keys: Vec<&str> = asked.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["copies", "paper"]);
    answer(
        &running,
        &id,
        "paper",
        json!({"action": "accept", "content": {"paper": "A5"}}),
    )
    .await;
    // Only the unanswered question is still waiting.
    let left = questions(&running, &id).await;
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].0, "copies");
    answer(
        &running,
        &id,
        "copies",
        json!({"action": "accept", "content": {"copies": 7}}),
    )
    .await;
    assert_eq!(
        completed(&settled(&running, &id).await),
        "printed 7 copies on A5"
    );
}

#[tokio::test]
async fn a_wizard_task_nobody_answers_expires() {
    let tasks = Tasks::new().with_ttl(Some(Duration::from_millis(300)));
    let running = connect(
        ticket_server(elicitor().with_tasks(tasks.clone())),
        tasks_client(true),
        Era::Rounds,
    )
    .await;
    let id = task_id(&once(&running, "book_tickets").await);
    let asked = questions(&running, &id).await;
    answer(&running, &id, &asked[0].0, happy_answers()[1].clone()).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let task = get(&running, &id).await;
    let TaskPayload::Failed { error } = &task.payload else {
        panic!("expected failed, got {task:?}");
    };
    assert!(
        error["message"].as_str().unwrap().contains("expired"),
        "{error:?}"
    );
    assert_eq!(tasks.running(), 0);
}

#[tokio::test]
async fn rounds_then_a_task_that_asks_again() {
    let tasks = Tasks::new();
    let server = printer(&tasks);
    let live = server.live.clone();
    let running = connect(server.clone(), tasks_client(true), Era::Rounds).await;
    // Round 1: a question in rounds, no task.
    let first = round_with(&running, "print_later", json!({}), None, vec![])
        .await
        .unwrap();
    let (requests, state) = asked(&first);
    // Round 2, answered: the call goes on as a task (no requestState).
    let reply = json!({"action": "accept", "content": {"copies": 2}});
    let second = round_with(
        &running,
        "print_later",
        json!({}),
        Some(&state),
        vec![(&requests[0].0, reply.clone())],
    )
    .await
    .unwrap();
    let id = task_id(&second);
    // The task asks too, and says how far it got.
    let asked = questions(&running, &id).await;
    assert_eq!(message(&asked[0].1), "Which paper?");
    assert_eq!(
        get(&running, &id).await.task.status_message.as_deref(),
        Some("printing 2 copies")
    );
    answer(
        &running,
        &id,
        &asked[0].0,
        json!({"action": "accept", "content": {"paper": "A4"}}),
    )
    .await;
    assert_eq!(
        completed(&settled(&running, &id).await),
        "printed 2 copies on A4"
    );
    // The round that started the task cannot start another.
    let replay = round_with(
        &running,
        "print_later",
        json!({}),
        Some(&state),
        vec![(&requests[0].0, reply)],
    )
    .await
    .unwrap_err();
    assert!(replay.contains("used before"), "{replay}");
    assert_eq!(channels(&server), [Channel::Task]);
    settles_at(&live, 0).await;
    assert_eq!(tasks.running(), 0);
}

#[tokio::test]
async fn without_the_extension_the_rest_runs_in_rounds() {
    let tasks = Tasks::new();
    let server = printer(&tasks);
    let client = Scripted::new(
        Era::Rounds,
        vec![
            json!({"action": "accept", "content": {"copies": 2}}),
            json!({"action": "accept", "content": {"paper": "A3"}}),
        ],
    );
    let running = connect(server.clone(), client, Era::Rounds).await;
    let result = tokio::time::timeout(LIMIT, running.call_tool(call("print_later", json!({}))))
        .await
        .expect("bounded")
        .unwrap();
    assert_eq!(text(&result), "printed 2 copies on A3");
    assert_eq!(channels(&server), [Channel::Rounds]);
    assert_eq!(tasks.running(), 0);
}

/// An asker answering from a list, recording the progress it was shown.
#[derive(Default)]
struct Listed {
    replies: Mutex<VecDeque<Reply>>,
    progress: Mutex<Vec<String>>,
}

impl Asker for Listed {
    async fn ask(&self, _: Question<'_>) -> Reply {
        self.replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Reply::Cancel)
    }

    fn progress(&self, _: Option<&str>, message: &str) {
        self.progress.lock().unwrap().push(message.to_owned());
    }
}

fn accepted(content: Value) -> Reply {
    let Value::Object(content) = content else {
        panic!("content is an object")
    };
    Reply::Accept(content)
}

/// Connects the client kit's [`FormClient`] (2026-07-28; the Tasks extension declared
/// or not) to `server`.
async fn kit(
    server: Printer,
    replies: Vec<Reply>,
    tasks: bool,
) -> RunningService<RoleClient, FormClient<Listed>> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let asker = Listed {
        replies: Mutex::new(replies.into()),
        ..Listed::default()
    };
    FormClient::new(asker)
        .with_tasks(tasks)
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client starts")
}

#[tokio::test]
async fn the_client_kit_follows_rounds_and_a_task() {
    let tasks = Tasks::new().with_poll_interval(Duration::from_millis(50));
    let replies = vec![
        accepted(json!({"copies": 4})),
        accepted(json!({"paper": "Letter"})),
    ];
    let running = kit(printer(&tasks), replies, true).await;
    let result = tokio::time::timeout(
        LIMIT,
        elicit_rmcp::client::call_tool(&running, call("print_later", json!({}))),
    )
    .await
    .expect("bounded")
    .unwrap();
    assert_eq!(text(&result), "printed 4 copies on Letter");
    assert_eq!(
        *running.service().asker().progress.lock().unwrap(),
        ["printing 4 copies"]
    );
}

#[tokio::test]
async fn one_body_gives_the_same_outcome_on_all_three_channels() {
    let replies = [
        (
            json!({"action": "accept", "content": {"copies": 5}}),
            "printed 5 copies",
        ),
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "cancelled"),
    ];
    for (reply, want) in replies {
        let tasks = Tasks::new();
        let server = printer(&tasks);
        // Push (2025-11-25) and rounds (2026-07-28, no extension): rmcp's client drives
        // both through the scripted handler.
        for era in [Era::V1125, Era::Rounds] {
            let running =
                connect(server.clone(), Scripted::new(era, vec![reply.clone()]), era).await;
            let result = tokio::time::timeout(LIMIT, running.call_tool(call("print", json!({}))))
                .await
                .expect("bounded")
                .unwrap();
            assert_eq!(text(&result), want, "{era:?}");
        }
        // A task (2026-07-28 with the extension), answered with tasks/update.
        let running = connect(server.clone(), tasks_client(true), Era::Rounds).await;
        let id = task_id(&once(&running, "print").await);
        let asked = questions(&running, &id).await;
        answer(&running, &id, &asked[0].0, reply.clone()).await;
        assert_eq!(completed(&settled(&running, &id).await), want);
        assert_eq!(
            channels(&server),
            [Channel::Push, Channel::Rounds, Channel::Task]
        );
    }
}

// --- the conformance server's task tools ---------------------------------------------

#[tokio::test]
async fn a_task_only_tool_refuses_a_client_without_the_tasks_extension() {
    let client = TestClient::start(conformance_server(), tasks_client(false)).await;
    for tool in ["failing_job", "protocol_error_job", "test_tool_with_task"] {
        let error = tokio::time::timeout(LIMIT, client.call_tool_once(call(tool, json!({}))))
            .await
            .expect("bounded")
            .unwrap_err();
        let ServiceError::McpError(error) = error else {
            panic!("{tool}: expected a JSON-RPC error, got {error:?}");
        };
        assert_eq!(error.code.0, -32021, "{tool}: {error:?}");
        assert_eq!(
            error.data,
            Some(
                json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
            ),
            "{tool}"
        );
    }
    // A tool that may run as a task runs in the call instead.
    let response = client
        .round(
            "slow_compute",
            json!({"seconds": 0, "label": "sync"}),
            None,
            vec![],
        )
        .await
        .unwrap();
    let CallToolResponse::Complete(result) = response else {
        panic!("expected a result, got {response:?}");
    };
    assert_eq!(text(&result), "sync: computed in 0 s");
}

#[tokio::test]
async fn tasks_complete_fail_and_cancel_through_tasks_get() {
    let client = TestClient::start(conformance_server(), tasks_client(true)).await;
    let once = |tool: &'static str, args: Value| {
        let client = &client;
        async move {
            tokio::time::timeout(LIMIT, client.call_tool_once(call(tool, args)))
                .await
                .expect("bounded")
                .expect("a response")
        }
    };

    // `greet` never makes a task.
    let CallToolResponse::Complete(hello) = once("greet", json!({"name": "Ann"})).await else {
        panic!("greet answers in the call");
    };
    assert_eq!(text(&hello), "Hello, Ann!");

    let done = settled(
        &client,
        &task_id(&once("slow_compute", json!({"seconds": 0.1, "label": "t"})).await),
    )
    .await;
    let TaskPayload::Completed { result } = &done.payload else {
        panic!("expected completed, got {done:?}");
    };
    assert_eq!(result["content"][0]["text"], "t: computed in 0.1 s");

    // A tool error completes, with `isError`; a JSON-RPC error fails the task.
    let done = settled(&client, &task_id(&once("failing_job", json!({})).await)).await;
    let TaskPayload::Completed { result } = &done.payload else {
        panic!("expected completed, got {done:?}");
    };
    assert_eq!(result["isError"], true);
    let done = settled(
        &client,
        &task_id(&once("protocol_error_job", json!({})).await),
    )
    .await;
    let TaskPayload::Failed { error } = &done.payload else {
        panic!("expected failed, got {done:?}");
    };
    assert_eq!(error["code"], -32603);

    // Cancelling a long task ends it promptly; cancelling it again is acknowledged.
    let id = task_id(&once("slow_compute", json!({"seconds": 60})).await);
    client
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .expect("cancel ack");
    assert_eq!(settled(&client, &id).await.status(), TaskStatus::Cancelled);
    client
        .cancel_task(CancelTaskParams::new(&id))
        .await
        .expect("a second cancel is acknowledged too");

    // Asked before the task, in rounds; answered, the call becomes a task.
    let first = client
        .round("test_tool_with_task", json!({}), None, vec![])
        .await
        .expect("a result");
    let (requests, state) = asked(&first);
    let answer = json!({"action": "accept", "content": {"name": "Alice"}});
    let second = client
        .round(
            "test_tool_with_task",
            json!({}),
            Some(&state),
            vec![(&requests[0].0, answer)],
        )
        .await
        .expect("a result");
    let done = settled(&client, &task_id(&second)).await;
    let TaskPayload::Completed { result } = &done.payload else {
        panic!("expected completed, got {done:?}");
    };
    assert_eq!(result["content"][0]["text"], "Hello, Alice!");

    let unknown = client
        .get_task(GetTaskParams::new("no-such-task"))
        .await
        .unwrap_err();
    let ServiceError::McpError(unknown) = unknown else {
        panic!("expected a JSON-RPC error, got {unknown:?}");
    };
    assert_eq!(unknown.code.0, -32602);
}
