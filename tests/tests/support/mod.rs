//! The client side shared by the tests over real rmcp connections (`mcp.rs`,
//! `tasks.rs`): a scripted client for every revision, connecting it to a server over an
//! in-process duplex stream, and reading calls, rounds and tasks.
//!
//! Each test binary uses part of it.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::seal::{Key, Keyring};
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use elicit_rmcp::Elicitor;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    CustomNotification, ElicitRequestParams, ElicitResult, Implementation, ProtocolVersion,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RequestContext, RoleClient,
    RunningService,
};
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// Upper bound on every test's run time.
pub const LIMIT: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    V0618,
    V1125,
    Mrtr,
}

pub const ALL_ERAS: [Era; 3] = [Era::V0618, Era::V1125, Era::Mrtr];

/// A client that answers elicitations from a script and records what it was asked.
/// Answers a question from its params.
type Answerer = Arc<dyn Fn(&Value) -> Value + Send + Sync>;

#[derive(Clone)]
pub struct Scripted {
    capabilities: Value,
    version: ProtocolVersion,
    answers: Arc<Mutex<VecDeque<Value>>>,
    asked: Arc<Mutex<Vec<Value>>>,
    pub notified: Arc<Mutex<Vec<CustomNotification>>>,
    /// Runs when a question arrives, before it is answered (the person's side effects).
    before_answer: Option<Arc<dyn Fn() + Send + Sync>>,
    /// The `clientInfo.name` it gives.
    name: &'static str,
    /// Answers each question from its params, once the scripted answers have run out.
    answerer: Option<Answerer>,
    /// How long the person takes to answer each question.
    delay: Option<std::time::Duration>,
    /// The `notifications/progress` received, as JSON.
    pub progress: Arc<Mutex<Vec<Value>>>,
}

impl Scripted {
    pub fn new(era: Era, answers: Vec<Value>) -> Scripted {
        Scripted {
            capabilities: json!({"elicitation": {"form": {}, "url": {}}}),
            version: match era {
                Era::V0618 => ProtocolVersion::V_2025_06_18,
                Era::V1125 | Era::Mrtr => ProtocolVersion::V_2025_11_25,
            },
            answers: Arc::new(Mutex::new(answers.into())),
            asked: Arc::default(),
            notified: Arc::default(),
            before_answer: None,
            name: "scripted",
            answerer: None,
            delay: None,
            progress: Arc::default(),
        }
    }

    /// Takes `delay` to answer each question.
    #[allow(dead_code)] // Not every test crate that shares this module uses it.
    pub fn answer_after(mut self, delay: std::time::Duration) -> Scripted {
        self.delay = Some(delay);
        self
    }

    /// Gives `name` as its `clientInfo.name`.
    #[allow(dead_code)] // Not every test crate that shares this module uses it.
    pub fn named(mut self, name: &'static str) -> Scripted {
        self.name = name;
        self
    }

    /// Answers each question with `answer(params)` once the scripted answers ran out.
    #[allow(dead_code)] // Not every test crate that shares this module uses it.
    pub fn answering(
        mut self,
        answer: impl Fn(&Value) -> Value + Send + Sync + 'static,
    ) -> Scripted {
        self.answerer = Some(Arc::new(answer));
        self
    }

    /// Runs `hook` whenever a question arrives, before it is answered.
    #[allow(dead_code)] // Not every test crate that shares this module uses it.
    pub fn before_answer(mut self, hook: impl Fn() + Send + Sync + 'static) -> Scripted {
        self.before_answer = Some(Arc::new(hook));
        self
    }

    pub fn with_capabilities(mut self, capabilities: Value) -> Scripted {
        self.capabilities = capabilities;
        self
    }

    /// The params of every elicitation received, as JSON.
    pub fn asked(&self) -> Vec<Value> {
        self.asked.lock().unwrap().clone()
    }

    pub fn messages(&self) -> Vec<String> {
        self.asked()
            .iter()
            .map(|p| p["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

impl ClientHandler for Scripted {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(self.capabilities.clone()).unwrap();
        ClientConfig::new(capabilities, Implementation::new(self.name, "0.0.0"))
            .with_protocol_version(self.version.clone())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        if let Some(hook) = &self.before_answer {
            hook();
        }
        if let Some(delay) = self.delay {
            tokio::time::sleep(delay).await;
        }
        let params = serde_json::to_value(&request).unwrap();
        let scripted = self.answers.lock().unwrap().pop_front();
        let answer = scripted
            .or_else(|| self.answerer.as_ref().map(|answer| answer(&params)))
            .unwrap_or_else(|| json!({"action": "cancel"}));
        serde_json::from_value(answer).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap()
            .push(serde_json::to_value(params).unwrap());
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _: NotificationContext<RoleClient>,
    ) {
        self.notified.lock().unwrap().push(notification);
    }
}

/// Connects `client` to `server` over an in-process duplex stream, speaking `era`.
pub async fn connect<S: ServerHandler + Send + 'static>(
    server: S,
    client: Scripted,
    era: Era,
) -> RunningService<RoleClient, Scripted> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    match era {
        Era::Mrtr => client
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("client starts (2026-07-28)"),
        _ => client.serve(client_io).await.expect("client starts"),
    }
}

pub fn elicitor() -> Elicitor {
    Elicitor::new(Keyring::new("k1", Key::generate()).unwrap())
}

pub fn call(name: &str, args: Value) -> CallToolRequestParams {
    let Value::Object(map) = args else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(map)
}

pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One MRTR round of `tool` with `args`: the response, or the error's text.
pub async fn round_with(
    running: &RunningService<RoleClient, Scripted>,
    tool: &str,
    args: Value,
    state: Option<&str>,
    responses: Vec<(&str, Value)>,
) -> Result<CallToolResponse, String> {
    let mut params = call(tool, args);
    params.request_state = state.map(str::to_owned);
    if !responses.is_empty() {
        params.input_responses = Some(
            responses
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        );
    }
    tokio::time::timeout(LIMIT, running.call_tool_once(params))
        .await
        .expect("bounded")
        .map_err(|e| e.to_string())
}

pub fn complete_text(response: &CallToolResponse) -> String {
    match response {
        CallToolResponse::Complete(done) => text(done),
        other => panic!("expected a complete result, got {other:?}"),
    }
}

/// The keys and methods of an `input_required` result, and its state.
pub fn asked(response: &CallToolResponse) -> (Vec<(String, Value)>, String) {
    let CallToolResponse::InputRequired(input) = response else {
        panic!("expected input_required, got {response:?}");
    };
    let requests = input
        .input_requests
        .clone()
        .expect("input requests")
        .into_iter()
        .map(|(k, r)| (k, serde_json::to_value(r).unwrap()))
        .collect();
    (requests, input.request_state.clone().expect("a state"))
}

/// A 2026-07-28 client that declares the Tasks extension in every request, or not.
pub fn tasks_client(declared: bool) -> Scripted {
    let capabilities = if declared {
        json!({"elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({})
    };
    Scripted::new(Era::Mrtr, vec![]).with_capabilities(capabilities)
}

/// Polls `tasks/get` until the task ended (bounded by [`LIMIT`]).
pub async fn settled(
    running: &RunningService<RoleClient, Scripted>,
    task_id: &str,
) -> rmcp::model::DetailedTask {
    tokio::time::timeout(LIMIT, async {
        loop {
            let got = running
                .get_task(rmcp::model::GetTaskParams::new(task_id))
                .await
                .expect("tasks/get");
            if got.task.status().is_terminal() {
                return got.task;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the task ends in time")
}

/// The id of the task a call answered with.
pub fn task_id(response: &CallToolResponse) -> String {
    let CallToolResponse::Task(created) = response else {
        panic!("expected a task, got {response:?}");
    };
    created.task.task_id.clone()
}

// --- the ticket wizard ---------------------------------------------------------------

pub fn ticket_server(elicitor: Elicitor) -> TicketServer {
    TicketServer::new(elicitor, Arc::new(Mutex::new(Cinema::demo())))
}

pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

pub fn happy_answers() -> Vec<Value> {
    vec![
        accept(json!({"date": "2025-02-01"})), // sold out: asked again
        accept(json!({"date": "2025-02-03"})),
        accept(json!({"seat": "Z9"})), // not offered: asked again
        accept(json!({"seat": "B4"})),
        accept(json!({"popcorn": true, "drink": "cola"})),
        accept(json!({"size": "Large"})),
    ]
}
