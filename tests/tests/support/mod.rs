//! The client side shared by the tests over real rmcp connections (`mcp_*.rs`,
//! `tasks.rs`): a scripted client for every revision, connecting it to a server over an
//! in-process duplex stream ([`TestClient`] holds both), reading calls, rounds and tasks,
//! and the servers those tests start (the example servers, a purge's log directory, a
//! one-tool server).
//!
//! Each test binary uses part of it.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::seal::{Key, Keyring};
use elicit_examples::servers::conformance::ConformanceServer;
use elicit_examples::servers::purge::{PurgeServer, create_samples};
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::servers::trip::{Inventory, TripServer};
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
    Rounds,
}

pub const ALL_ERAS: [Era; 3] = [Era::V0618, Era::V1125, Era::Rounds];

/// A client that answers elicitations from a script and records what it was asked.
/// Answers a question from its params.
type Answerer = Arc<dyn Fn(&Value) -> Value + Send + Sync>;

#[derive(Clone)]
pub struct Scripted {
    era: Era,
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
            era,
            capabilities: json!({"elicitation": {"form": {}, "url": {}}}),
            version: match era {
                Era::V0618 => ProtocolVersion::V_2025_06_18,
                Era::V1125 | Era::Rounds => ProtocolVersion::V_2025_11_25,
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

    /// The revision it speaks.
    pub fn era(&self) -> Era {
        self.era
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
        Era::Rounds => client
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

// --- a server and its scripted client -------------------------------------------------

/// A server started on an in-process connection to a [`Scripted`] client, and the calls
/// the tests repeat (after axum's `TestClient`): [`call`](TestClient::call) a tool to its
/// end, one [`round`](TestClient::round), and what the person was
/// [`asked`](TestClient::asked). It derefs to rmcp's running client for everything else
/// (`call_tool_once`, `get_task`, `cancel_task`, or a helper taking that client).
pub struct TestClient {
    service: RunningService<RoleClient, Scripted>,
    client: Scripted,
}

impl TestClient {
    /// Starts `server` and connects `client` to it, speaking the client's era.
    pub async fn start<S: ServerHandler + Send + 'static>(server: S, client: Scripted) -> Self {
        let era = client.era();
        let service = connect(server, client.clone(), era).await;
        TestClient { service, client }
    }

    /// Starts `server` with a client of `era` that gives `answers` in order, then
    /// cancels every further question.
    pub async fn scripted<S: ServerHandler + Send + 'static>(
        server: S,
        era: Era,
        answers: Vec<Value>,
    ) -> Self {
        Self::start(server, Scripted::new(era, answers)).await
    }

    /// Calls `tool` with `args` to its end (the client answers what it is asked, in any
    /// era), within [`LIMIT`]: the result's text, or the error.
    pub async fn call(&self, tool: &str, args: Value) -> Result<String, rmcp::ServiceError> {
        self.call_with(call(tool, args)).await.map(|r| text(&r))
    }

    /// [`call`](TestClient::call) with whole params (a `_meta`, say): the whole result.
    pub async fn call_with(
        &self,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, rmcp::ServiceError> {
        tokio::time::timeout(LIMIT, self.service.call_tool(params))
            .await
            .expect("bounded")
    }

    /// One round of `tool`: its `inputResponses` and `requestState`; the response,
    /// or the error's text (see [`round_with`]).
    pub async fn round(
        &self,
        tool: &str,
        args: Value,
        state: Option<&str>,
        responses: Vec<(&str, Value)>,
    ) -> Result<CallToolResponse, String> {
        round_with(&self.service, tool, args, state, responses).await
    }

    /// The scripted client (a clone shares what it records).
    pub fn client(&self) -> &Scripted {
        &self.client
    }

    /// The params of every elicitation the client was sent, as JSON.
    pub fn asked(&self) -> Vec<Value> {
        self.client.asked()
    }

    /// The message of every elicitation the client was sent.
    pub fn messages(&self) -> Vec<String> {
        self.client.messages()
    }
}

impl std::ops::Deref for TestClient {
    type Target = RunningService<RoleClient, Scripted>;

    fn deref(&self) -> &Self::Target {
        &self.service
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

/// One round of `tool` with `args`: the response, or the error's text.
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

/// The first question of an `input_required` result: its key, its message, and the
/// result's state.
pub fn first_asked(response: &CallToolResponse) -> (String, String, String) {
    let (requests, state) = asked(response);
    let (key, request) = requests.into_iter().next().expect("a question");
    let message = request["params"]["message"]
        .as_str()
        .expect("a message")
        .to_owned();
    (key, message, state)
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
    Scripted::new(Era::Rounds, vec![]).with_capabilities(capabilities)
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

// --- the other servers ---------------------------------------------------------------

/// The trip server, with a fresh key, and its inventory.
pub fn trip_server() -> (TripServer, Arc<Mutex<Inventory>>) {
    let inventory = Arc::new(Mutex::new(Inventory::demo()));
    (TripServer::new(elicitor(), inventory.clone()), inventory)
}

/// The conformance server, with a fresh key and tasks kept in this process.
pub fn conformance_server() -> ConformanceServer {
    ConformanceServer::new(elicitor().with_tasks(elicit_rmcp::Tasks::new()))
}

/// The body of a one-tool test server: runs with the call's `Session`.
pub type Body = for<'a> fn(
    &'a mut elicit_rmcp::Session,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = elicit_rmcp::Asked<CallToolResult>> + Send + 'a>,
>;

/// A server whose every tool call runs `body` in a session of its `Elicitor`.
#[derive(Clone)]
pub struct OneTool(pub Elicitor, pub Body);

impl ServerHandler for OneTool {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, ErrorData> {
        Ok(rmcp::model::ListToolsResult::default())
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        ctx: RequestContext<rmcp::service::RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut s = self.0.tool(&ctx, &params)?;
        let result = (self.1)(&mut s).await;
        s.finish(result)
    }
}

// --- the purge and its logs ----------------------------------------------------------

/// The purge server's tool.
pub const PURGE: &str = "purge_old_logs";

/// The arguments of a real purge (no dry run) of demo-repo's logs older than `days`.
pub fn demo_purge(days: u32) -> Value {
    json!({"repo": "demo-repo", "days": days, "dry_run": false})
}

/// The approval of a purge: ticked, by ops@example.com, keeping `retention` days.
pub fn approve(retention: u16) -> Value {
    json!({"action": "accept", "content": {"confirm": true, "approver": "ops@example.com", "retention_days": retention}})
}

/// A temporary root of sample log repositories (`create_samples`), removed on drop.
pub struct Logs(pub PathBuf);

impl Logs {
    /// A fresh root, unique to `name` and this process.
    pub fn new(name: &str) -> Logs {
        let dir = std::env::temp_dir().join(format!("elicit-purge-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        create_samples(&dir).unwrap();
        Logs(dir)
    }

    /// How many entries `repo` holds.
    pub fn count(&self, repo: &str) -> usize {
        std::fs::read_dir(self.0.join(repo)).unwrap().count()
    }

    /// The purge server over this root, with a fresh key.
    pub fn server(&self) -> PurgeServer {
        self.server_with(elicitor())
    }

    /// The purge server over this root, with `elicitor`.
    pub fn server_with(&self, elicitor: Elicitor) -> PurgeServer {
        PurgeServer::new(elicitor, self.0.clone())
    }
}

impl Drop for Logs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes a `.log` file `days` old into `dir`.
pub fn old_log(dir: &std::path::Path, name: &str, days: u32) {
    let path = dir.join(name);
    std::fs::write(&path, "late line\n").unwrap();
    let when = std::time::SystemTime::now() - Duration::from_secs(u64::from(days) * 86_400);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}
