//! The client side over rmcp (feature `client`): [`FormClient`] is an rmcp
//! [`ClientHandler`] that puts every elicitation in front of an [`Asker`] — a terminal,
//! a GUI, a script (`elicit_examples::script::Script` in the repository).
//!
//! It declares the elicitation capability (form mode; URL mode when asked for), reads the
//! server's schema with [`read_schema`], its fields in the server's order (a schema
//! outside the MCP subset, or a message past 64 KiB ([`check_message`]),
//! is refused with `-32602`, never half-shown, and the asker is told through
//! [`Asker::refused`]), shows the asking
//! server's name with the message, and answers with the user's validated reply, defaults
//! filled in. The same handler serves
//! push-mode requests (2025-06-18, 2025-11-25) and the `input_required` rounds of
//! 2026-07-28, which rmcp's client drives through it.
//!
//! For tools that run long, [`FormClient::with_tasks`] declares the Tasks extension
//! (2026-07-28), and [`call_tool`] drives a call on every channel: it answers the
//! `input_required` rounds, and for a call answered with a task it follows the task
//! (told by the server's `notifications/tasks` when it sends them, else polling
//! `tasks/get`), puts each question the task waits on in front of the asker, sends the
//! answers with `tasks/update`, and shows the task's status message through
//! [`Asker::progress`].
//!
//! ```no_run
//! use elicit_core::client::{Question, Reply};
//! use elicit_rmcp::client::FormClient;
//! use rmcp::ServiceExt;
//!
//! # async fn run<T, E, A>(transport: T) -> Result<(), Box<dyn std::error::Error>>
//! # where
//! #     T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
//! #     E: std::error::Error + Send + Sync + 'static,
//! # {
//! // An unattended client that cancels every form (a terminal or a GUI asks a person).
//! let cancel = |_: Question<'_>| Reply::Cancel;
//! let client = FormClient::new(cancel).serve(transport).await?;
//! let tools = client.list_all_tools().await?;
//! # let _ = tools;
//! # Ok(())
//! # }
//! ```

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::rmcp::ClientHandler;
use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    DetailedTask, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability,
    ElicitationSchema, FormElicitationCapability, Implementation, InputRequest, InputRequests,
    NumberOrString, ProtocolVersion, TaskStatusNotificationParams, UrlElicitationCapability,
};
use ::rmcp::service::{
    NotificationContext, RequestContext, RoleClient, RunningService, ServiceError,
};
use serde_json::Value;
use tokio::sync::Notify;

use elicit_core::Action;
use elicit_core::client::{Asker, Question, Reply, check_message, read_schema};
use elicit_core::{Form, Format};

mod follow;
use follow::follow_task;

/// An rmcp client handler answering elicitations through an [`Asker`].
pub struct FormClient<A> {
    asker: Arc<A>,
    info: Implementation,
    url_mode: bool,
    tasks: bool,
    version: Option<ProtocolVersion>,
    /// The tasks [`call_tool`] follows, as `notifications/tasks` last told them.
    told: Arc<Told>,
}

/// What the server's `notifications/tasks` told of the tasks being followed; others are
/// dropped, so a server cannot fill it.
#[derive(Debug, Default)]
struct Told {
    /// By task id: whether anything was told, and what was told last (until taken).
    tasks: Mutex<HashMap<String, (bool, Option<DetailedTask>)>>,
    changed: Notify,
}

impl Told {
    /// Keeps what is told of task `id` until [`forget`](Self::forget).
    fn follow(&self, id: &str) {
        self.lock().insert(id.to_owned(), (false, None));
    }

    fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// The task as last told, once.
    fn take(&self, id: &str) -> Option<DetailedTask> {
        self.lock().get_mut(id).and_then(|(_, task)| task.take())
    }

    /// Whether the server told anything of task `id`: it sends its changes.
    fn heard(&self, id: &str) -> bool {
        self.lock().get(id).is_some_and(|(heard, _)| *heard)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (bool, Option<DetailedTask>)>> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<A> Clone for FormClient<A> {
    fn clone(&self) -> Self {
        FormClient {
            asker: self.asker.clone(),
            info: self.info.clone(),
            url_mode: self.url_mode,
            tasks: self.tasks,
            version: self.version.clone(),
            told: self.told.clone(),
        }
    }
}

impl<A: Asker + 'static> FormClient<A> {
    /// A client answering through `asker`, form mode only. Built without serde_json's
    /// `preserve_order` feature, it reads a form's fields in alphabetical order (rmcp
    /// parses every message into a `serde_json::Value`); the first client of such a
    /// process says so on standard error.
    pub fn new(asker: A) -> FormClient<A> {
        crate::wire::warn_if_field_order_lost();
        FormClient {
            asker: Arc::new(asker),
            info: Implementation::new("elicit-client", env!("CARGO_PKG_VERSION")),
            url_mode: false,
            tasks: false,
            version: None,
            told: Arc::default(),
        }
    }

    /// Offers this protocol version in the `initialize` handshake instead of rmcp's
    /// default (2026-07-28 is negotiated with rmcp's `ClientLifecycleMode::Discover`).
    pub fn with_protocol_version(mut self, version: ProtocolVersion) -> FormClient<A> {
        self.version = Some(version);
        self
    }

    /// Names the client in the handshake (`clientInfo`).
    pub fn with_client_info(mut self, name: &str, version: &str) -> FormClient<A> {
        self.info = Implementation::new(name, version);
        self
    }

    /// Also declares URL mode (2025-11-25 and later): the asker is asked before any URL
    /// is opened.
    pub fn with_url_mode(mut self, on: bool) -> FormClient<A> {
        self.url_mode = on;
        self
    }

    /// Also declares the Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28):
    /// a server may then answer a long call with a task, which [`call_tool`] follows.
    pub fn with_tasks(mut self, on: bool) -> FormClient<A> {
        self.tasks = on;
        self
    }

    /// The asker.
    pub fn asker(&self) -> &A {
        &self.asker
    }
}

/// The server's schema as a [`Form`], its fields in the server's order: rmcp writes the
/// properties in their wire order (`ElicitationSchema::property_order`), and
/// [`read_schema`] keeps the order of the text.
fn read_requested(schema: &ElicitationSchema) -> Result<Form, McpError> {
    let schema =
        serde_json::to_string(schema).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    read_schema(&schema).map_err(|e| McpError::invalid_params(e.to_string(), None))
}

/// Refuses a message (or URL: `what`) past 64 KiB, naming the limit.
fn check_size(what: &str, message: &str) -> Result<(), McpError> {
    check_message(what, message).map_err(|e| McpError::invalid_params(e.reason, None))
}

/// The most `tools/list` pages [`list_tools`] follows.
const MAX_PAGES: usize = 64;
/// The most tools [`list_tools`] takes.
const MAX_TOOLS: usize = 10_000;

/// Every tool of the server, following `nextCursor` for at most 64 pages and 10,000
/// tools: a server that always answers with one more page is refused (with
/// `-32603`, naming the limit) instead of followed forever, as rmcp's
/// `list_all_tools` would.
pub async fn list_tools(
    peer: &::rmcp::Peer<RoleClient>,
) -> Result<Vec<::rmcp::model::Tool>, ServiceError> {
    let mut tools = Vec::new();
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let params = ::rmcp::model::PaginatedRequestParams::default().with_cursor(cursor);
        let page = peer.list_tools(Some(params)).await?;
        tools.extend(page.tools);
        if tools.len() > MAX_TOOLS {
            break;
        }
        cursor = page.next_cursor;
        if cursor.is_none() {
            return Ok(tools);
        }
    }
    Err(ServiceError::McpError(McpError::internal_error(
        format!(
            "the server lists more than {MAX_PAGES} pages or {MAX_TOOLS} tools; this client stops there"
        ),
        None,
    )))
}

/// Refuses a URL that is not a valid absolute URI (RFC 3986): a line break, a Unicode
/// line separator or a space in it could print a line of the server's own making under
/// the client's, such as a fake "The page is on bank.example".
fn check_url(url: &str) -> Result<(), McpError> {
    if Format::Uri.accepts(url) {
        Ok(())
    } else {
        Err(McpError::invalid_params(
            "the URL is not a valid absolute URI (RFC 3986)",
            None,
        ))
    }
}

fn action(a: Action) -> ElicitationAction {
    match a {
        Action::Accept => ElicitationAction::Accept,
        Action::Decline => ElicitationAction::Decline,
        Action::Cancel => ElicitationAction::Cancel,
    }
}

impl<A: Asker + 'static> ClientHandler for FormClient<A> {
    fn get_info(&self) -> ClientConfig {
        let mut elicitation = ElicitationCapability::new();
        elicitation.form = Some(FormElicitationCapability::new());
        if self.url_mode {
            elicitation.url = Some(UrlElicitationCapability::default());
        }
        let mut capabilities = if self.tasks {
            ClientCapabilities::builder().enable_tasks().build()
        } else {
            ClientCapabilities::default()
        };
        capabilities.elicitation = Some(elicitation);
        let config = ClientConfig::new(capabilities, self.info.clone());
        match &self.version {
            Some(v) => config.with_protocol_version(v.clone()),
            None => config,
        }
    }

    async fn on_task_status(
        &self,
        params: TaskStatusNotificationParams,
        _ctx: NotificationContext<RoleClient>,
    ) {
        let id = params.task.task.task_id.clone();
        if let Some(slot) = self.told.lock().get_mut(&id) {
            *slot = (true, Some(params.task));
            self.told.changed.notify_waiters();
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let server = ctx
            .peer
            .peer_info()
            .and_then(|p| p.server_info.as_ref().map(|i| i.name.clone()));
        match request {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => {
                let form = check_size("message", &message)
                    .and_then(|()| read_requested(&requested_schema))
                    .inspect_err(|e| self.asker.refused(server.as_deref(), &e.message))?;
                let reply = self
                    .asker
                    .ask(Question {
                        server: server.as_deref(),
                        message: &message,
                        form: &form,
                    })
                    .await;
                let mut result = ElicitResult::new(action(reply.action()));
                if let Reply::Accept(content) = reply {
                    result.content = Some(Value::Object(content));
                }
                Ok(result)
            }
            ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
                if !self.url_mode {
                    return Err(McpError::invalid_params(
                        "this client did not declare URL-mode elicitation",
                        None,
                    ));
                }
                check_size("message", &message)
                    .and_then(|()| check_size("URL", url.as_str()))
                    .and_then(|()| check_url(url.as_str()))
                    .inspect_err(|e| self.asker.refused(server.as_deref(), &e.message))?;
                let a = self
                    .asker
                    .ask_url(server.as_deref(), &message, url.as_str())
                    .await;
                Ok(ElicitResult::new(action(a)))
            }
            _ => Err(McpError::invalid_params(
                "an elicitation mode this client does not know",
                None,
            )),
        }
    }
}

/// How many `input_required` rounds [`call_tool`] answers before it gives up.
pub const MAX_ROUNDS: usize = 32;

/// How many questions one round or one `tasks/get` may bring: more is refused.
pub const MAX_INPUT_REQUESTS: usize = 16;

/// The longest [`call_tool`] follows a task (its TTL, when shorter, ends it sooner).
pub const MAX_TASK_TIME: Duration = Duration::from_secs(24 * 3600);

/// Calls a tool and follows it to its result on whatever channel the server picks:
/// pushed questions reach the asker through the handler, `input_required` rounds are
/// answered and retried (at most [`MAX_ROUNDS`]), and a task is followed until it
/// ends — through the server's `notifications/tasks` (a `subscriptions/listen` with
/// its `taskIds`) once the server sends them, with a `tasks/get` every 5 s in case
/// one is lost, else by polling `tasks/get` at the server's `pollIntervalMs` (kept
/// between 50 ms and 5 s): its
/// questions are put to the asker once each and answered with `tasks/update`, and its
/// status message is shown with [`Asker::progress`]. A task that failed or was
/// cancelled is an error; one still running after its TTL (at most
/// [`MAX_TASK_TIME`]) is cancelled, and an error.
///
/// Everything the server sends is checked: more than [`MAX_INPUT_REQUESTS`] questions
/// at once, or a request other than a form or URL elicitation, is refused.
pub async fn call_tool<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    mut params: CallToolRequestParams,
) -> Result<CallToolResult, ServiceError> {
    for _ in 0..MAX_ROUNDS {
        match client.call_tool_once(params.clone()).await? {
            CallToolResponse::Complete(result) => return Ok(result),
            CallToolResponse::Task(created) => return follow_task(client, created).await,
            CallToolResponse::InputRequired(round) => {
                let requests = round.input_requests.unwrap_or_default();
                let responses = answer_all(client, requests).await?;
                params.input_responses = (!responses.is_empty()).then_some(responses);
                params.request_state = round.request_state;
            }
            _ => return Err(ServiceError::UnexpectedResponse),
        }
    }
    Err(ServiceError::InputRequiredRoundsExceeded {
        max_rounds: MAX_ROUNDS,
    })
}

/// The answers to one round's questions (or a task's new ones), one after the other.
async fn answer_all<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    requests: InputRequests,
) -> Result<BTreeMap<String, Value>, ServiceError> {
    if requests.len() > MAX_INPUT_REQUESTS {
        return Err(ServiceError::McpError(McpError::invalid_params(
            format!(
                "the server asked {} questions at once, more than the {MAX_INPUT_REQUESTS} this \
                 client takes",
                requests.len()
            ),
            None,
        )));
    }
    let mut responses = BTreeMap::new();
    for (key, request) in requests {
        let InputRequest::Elicitation(request) = request else {
            return Err(ServiceError::McpError(McpError::invalid_params(
                "the server asked for something other than a form or a URL: this client \
                 only answers elicitations",
                None,
            )));
        };
        let ctx = RequestContext::new(
            NumberOrString::String(key.as_str().into()),
            client.peer().clone(),
        );
        let result = client
            .service()
            .create_elicitation(request.params, ctx)
            .await
            .map_err(ServiceError::McpError)?;
        let result = serde_json::to_value(result)
            .map_err(|e| ServiceError::McpError(McpError::internal_error(e.to_string(), None)))?;
        responses.insert(key, result);
    }
    Ok(responses)
}

/// The connected server's name, as it introduced itself.
fn server_name<A>(client: &RunningService<RoleClient, FormClient<A>>) -> Option<String>
where
    FormClient<A>: ClientHandler,
{
    client
        .peer()
        .peer_info()
        .and_then(|p| p.server_info.as_ref().map(|i| i.name.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields come in the server's order, not sorted by name.
    #[test]
    fn fields_keep_the_wire_order() {
        let wire = r#"{"type": "object", "properties": {
            "zone": {"type": "string"}, "age": {"type": "integer"}, "mail": {"type": "string"}
        }, "required": ["age"]}"#;
        let schema: ElicitationSchema = serde_json::from_str(wire).unwrap();
        let form = read_requested(&schema).unwrap();
        let names: Vec<&str> = form.fields().iter().map(|f| f.name.as_ref()).collect();
        assert_eq!(names, ["zone", "age", "mail"]);
        assert!(form.field("age").unwrap().required);
    }

    #[test]
    fn a_long_message_is_refused_naming_the_limit() {
        assert!(check_size("message", &"a".repeat(65_536)).is_ok());
        let e = check_size("message", &"a".repeat(65_537)).unwrap_err();
        assert_eq!(e.code.0, -32602);
        assert_eq!(
            e.message,
            "the message is 65537 bytes, more than the 65536 a client shows"
        );
    }
}
