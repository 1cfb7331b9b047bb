//! Forms and wizards of [`elicit_core`] over a real MCP connection with
//! [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK, in both eras of the protocol.
//!
//! One tool body serves every client:
//!
//! - **push** (2025-06-18, 2025-11-25): each question is an `elicitation/create`
//!   request to the client, awaited in place;
//! - **Multi Round-Trip Requests** (2026-07-28): the server may not send requests, so a
//!   question ends the call with an `input_required` result; the client answers and
//!   retries the call, and the tool body runs again from the top. Answers of earlier
//!   rounds travel in `requestState`, sealed with [`elicit_core::seal`] (encrypted, expiring,
//!   bound to the principal, tool and arguments), so the server keeps nothing between
//!   rounds and any replica can take the next one;
//! - **Tasks** (2026-07-28 with the `io.modelcontextprotocol/tasks` extension, for tools
//!   that run long): the call is answered with a task, the body runs on, and each
//!   question waits in `tasks/get` until `tasks/update` brings its answer (see
//!   [`tasks`]).
//!
//! [`Session::channel`] tells which one a call got.
//!
//! A tool asks through a [`Session`]. Written the rmcp way, as a `#[tool]` method, it
//! takes the `Session` as an argument and returns [`Asked`]; the server routes its tools
//! with [`Tools`] (an example is there). A hand-written `call_tool` opens the session
//! with [`Elicitor::tool`] and hands the result to [`Session::finish`]:
//!
//! ```no_run
//! use elicit_rmcp::{Elicitor, Halt, Session};
//! use elicit_core::{Elicit, Elicitation};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
//! use rmcp::service::{RequestContext, RoleServer};
//! use serde::Deserialize;
//!
//! #[derive(Elicit, Deserialize)]
//! struct Approve {
//!     #[elicit(title = "Approve the purge?")]
//!     approve: bool,
//! }
//!
//! async fn purge(s: &mut Session) -> Result<CallToolResult, Halt> {
//!     let text = match s.ask::<Approve>("Really delete 1,284 logs?").await? {
//!         Elicitation::Accept(a) if a.approve => "[DELETED]",
//!         Elicitation::Accept(_) | Elicitation::Decline => "[BLOCKED]",
//!         Elicitation::Cancel => "[CANCELLED]",
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
//! }
//!
//! async fn call_tool(
//!     elicitor: &Elicitor,
//!     params: CallToolRequestParams,
//!     ctx: RequestContext<RoleServer>,
//! ) -> Result<CallToolResponse, rmcp::ErrorData> {
//!     let mut s = elicitor.tool(&ctx, &params)?;
//!     let result = purge(&mut s).await;
//!     s.finish(result)
//! }
//! ```
//!
//! The tool body must be deterministic given its arguments and the answers: on
//! 2026-07-28 it is replayed once per round (the answers are replayed, not asked again).
//! Do side effects after the last question.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolRequestParams, ClientCapabilities, CreateTaskResult, ErrorCode, GetPromptRequestParams,
    InputRequest, InputRequiredResult,
};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::TaskContext;
use elicit_core::Revision;
use elicit_core::Strictness;
use elicit_core::engine::{self, Engine, Peer, Question, RpcError};
use elicit_core::seal::{Binding, Keyring};
use elicit_core::store::RedeemStore;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use elicit_core::engine::{AskError, Channel, Input, InputAnswer};

#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "http")]
pub mod http;
mod id;
mod session;
pub mod tasks;
mod tools;

pub use session::Session;
pub use tasks::{TaskSupport, Tasks};
pub use tools::Tools;

#[doc(hidden)]
pub mod __private {
    //! Not part of the API.
    /// rmcp, for the methods [`task_handlers!`](crate::task_handlers) writes.
    pub use ::rmcp;
}

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The examples of `docs/mcp.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/mcp.md")]
pub struct McpDoctests;

/// The examples of `docs/tasks.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/tasks.md")]
pub struct TasksDoctests;

/// The examples of `docs/clients.md`, compiled as doctests (the rmcp one with the `client`
/// feature).
#[cfg(doctest)]
#[doc = include_str!("../../docs/clients.md")]
pub struct ClientsDoctests;

/// The JSON-RPC error a 2026-07-28 server returns when a capability it needs is missing.
pub const MISSING_CAPABILITY: ErrorCode = ErrorCode(-32021);

/// The JSON-RPC error of 2025-11-25 for "this request needs a URL-mode elicitation first".
pub const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// Server-wide settings: the [`Engine`] (the key that seals 2026-07-28 state, single
/// use, timeouts, attempts) and the server's [`Tasks`].
///
/// Clones share the settings and keys; keep one in the server and open a [`Session`] per call.
#[derive(Clone)]
pub struct Elicitor {
    engine: Engine,
    questions: Arc<QuestionCache>,
    tasks: Option<Tasks>,
}

impl fmt::Debug for Elicitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicitor")
            .field("engine", &self.engine)
            .field("tasks", &self.tasks)
            .finish_non_exhaustive()
    }
}

impl Elicitor {
    /// Settings sealing 2026-07-28 state with `keyring`, single use recorded in this
    /// process's memory, and the engine's default [`Settings`](elicit_core::engine::Settings):
    /// a ten-minute timeout, three attempts per question, strict validation, a state that
    /// opens for 15 minutes.
    pub fn new(keyring: Keyring) -> Elicitor {
        Elicitor::with_engine(Engine::new(keyring))
    }

    /// Settings around an engine configured beforehand.
    pub fn with_engine(engine: Engine) -> Elicitor {
        Elicitor {
            engine,
            questions: Arc::default(),
            tasks: None,
        }
    }

    /// Runs tasks (the Tasks extension, 2026-07-28) in `tasks`: the tools
    /// [`Tools::with_task_support`] names, and the bodies that
    /// [continue in a task](Session::continue_in_task). Every handler of one server
    /// must share the same `Tasks` (clone it).
    pub fn with_tasks(mut self, tasks: Tasks) -> Elicitor {
        self.tasks = Some(tasks);
        self
    }

    /// Where redeemed states are recorded (2026-07-28): each sealed state is good for
    /// one retry, and a replayed one is refused. The default covers one process;
    /// replicas behind a load balancer share a store such as
    /// `elicit_core::store::RedisStore` (feature `redis`).
    pub fn with_store(mut self, store: impl RedeemStore + 'static) -> Elicitor {
        self.engine = self.engine.with_redeem_store(store);
        self
    }

    /// Whether answers sent with a *first* call are read (`false` by default; see
    /// [`Settings::first_round_answers`](elicit_core::engine::Settings::first_round_answers)).
    pub fn with_first_round_answers(mut self, read: bool) -> Elicitor {
        self.engine.settings_mut().first_round_answers = read;
        self
    }

    /// How long a push-mode question waits for an answer (`None`: forever).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Elicitor {
        self.engine.settings_mut().timeout = timeout;
        self
    }

    /// How many answers a single question may get (at least 1).
    pub fn with_attempts(mut self, attempts: u32) -> Elicitor {
        self.engine.settings_mut().attempts = attempts.max(1);
        self
    }

    /// How strictly answers are validated (see [`Strictness`]).
    pub fn with_strictness(mut self, strictness: Strictness) -> Elicitor {
        self.engine.settings_mut().strictness = strictness;
        self
    }

    /// A session for a `tools/call`, bound to the request's [`Principal`] (none: an
    /// unauthenticated client).
    ///
    /// On 2026-07-28 this opens the `requestState` of a retry; a state that was
    /// tampered with, has expired, was sealed by a foreign key, for another call or for
    /// another principal is an `invalid params` error.
    pub fn tool(
        &self,
        ctx: &RequestContext<RoleServer>,
        params: &CallToolRequestParams,
    ) -> Result<Session, McpError> {
        self.tool_for(principal_of(ctx), ctx, params)
    }

    /// [`tool`](Self::tool) for an authenticated `principal` (user or client id): the
    /// state of one principal is refused for any other.
    pub fn tool_for(
        &self,
        principal: &str,
        ctx: &RequestContext<RoleServer>,
        params: &CallToolRequestParams,
    ) -> Result<Session, McpError> {
        self.call(
            ctx,
            Binding::new(
                principal,
                "tools/call",
                &params.name,
                &object(&params.arguments),
            ),
            params.request_state.as_deref(),
            &params.input_responses,
        )
    }

    /// A session for a `prompts/get`, bound to the request's [`Principal`] (none: an
    /// unauthenticated client).
    pub fn prompt(
        &self,
        ctx: &RequestContext<RoleServer>,
        params: &GetPromptRequestParams,
    ) -> Result<Session, McpError> {
        self.prompt_for(principal_of(ctx), ctx, params)
    }

    /// [`prompt`](Self::prompt) for an authenticated `principal`.
    pub fn prompt_for(
        &self,
        principal: &str,
        ctx: &RequestContext<RoleServer>,
        params: &GetPromptRequestParams,
    ) -> Result<Session, McpError> {
        self.call(
            ctx,
            Binding::new(
                principal,
                "prompts/get",
                &params.name,
                &object(&params.arguments),
            ),
            params.request_state.as_deref(),
            &params.input_responses,
        )
    }

    /// A session for a call bound to `binding`, with the request's state and answers.
    fn call(
        &self,
        ctx: &RequestContext<RoleServer>,
        binding: Binding,
        request_state: Option<&str>,
        responses: &Option<BTreeMap<String, Value>>,
    ) -> Result<Session, McpError> {
        let responses = responses.clone();
        self.session(ctx, Some(binding), request_state, responses, None, None)
    }

    /// A session for the call of `ctx`. `binding` is what its state is bound to (needed
    /// on 2026-07-28 only); `reply` is where a routed call's `input_required` result is
    /// handed back ([`Tools`]).
    fn session(
        &self,
        ctx: &RequestContext<RoleServer>,
        binding: Option<Binding>,
        request_state: Option<&str>,
        responses: Option<BTreeMap<String, Value>>,
        reply: Option<Arc<session::Reply>>,
        task: Option<(TaskContext, CancellationToken)>,
    ) -> Result<Session, McpError> {
        let revision = revision_of(ctx);
        let capabilities = ctx.client_capabilities();
        let declared = capabilities
            .as_ref()
            .and_then(|c| serde_json::to_value(c).ok())
            .unwrap_or(Value::Null);
        let mut client = Peer::new(revision, &declared);
        // Its profile in the engine's `client_profiles` (what it renders of a form).
        // Only the name is read (rmcp's `client_info()` would decode the whole identity).
        client.name = ctx
            .meta
            .0
            .0
            .get("io.modelcontextprotocol/clientInfo")
            .and_then(|info| info["name"].as_str())
            .map(str::to_owned)
            .or_else(|| ctx.peer.peer_info().map(|i| i.client_info.name.clone()));
        let call = match (revision, binding) {
            _ if task.is_some() => self.engine.push(client).into_task(),
            (Some(r), Some(binding)) if Revision::has_rounds(r) => self
                .engine
                .rounds(
                    client,
                    binding,
                    request_state,
                    responses.unwrap_or_default(),
                )
                .map_err(rpc_error)?,
            (Some(r), None) if Revision::has_rounds(r) => {
                return Err(McpError::internal_error(
                    "a 2026-07-28 session needs what its state is bound to",
                    None,
                ));
            }
            _ => self.engine.push(client),
        };
        Ok(Session::new(
            call,
            ctx,
            capabilities,
            self.questions.clone(),
            task,
            self.tasks.clone(),
            principal_of(ctx).to_owned(),
            reply,
        ))
    }
}

/// A request's arguments as the value they are bound as (none: `null`).
fn object(arguments: &Option<serde_json::Map<String, Value>>) -> Value {
    arguments.clone().map(Value::Object).unwrap_or(Value::Null)
}

/// The negotiated revision of the call's connection (per request on 2026-07-28), when
/// it is one elicitation knows.
fn revision_of(ctx: &RequestContext<RoleServer>) -> Option<Revision> {
    ctx.protocol_version()
        .as_ref()
        .and_then(|v| v.as_str().parse().ok())
}

/// Who made a request, as the server's authentication established it. Sealed state
/// is bound to it: one principal's `requestState` is refused for any other.
///
/// [`Elicitor::tool`] and [`Elicitor::prompt`] read it from the request's extensions,
/// where an authentication layer puts it: in the HTTP request's extensions (what the
/// bearer tokens of `http::HttpOptions::bearer_token`, feature `http`, do; rmcp hands
/// the HTTP request's parts to the handler), or in rmcp's own request extensions. A request
/// without one is unauthenticated, bound to the empty name.
///
/// An OAuth resource-server layer of one's own, once it has checked a token, marks
/// the request with `request.extensions_mut().insert(Principal::new(subject))`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Principal(String);

impl Principal {
    /// The principal named `name` (a user or client id).
    pub fn new(name: impl Into<String>) -> Principal {
        Principal(name.into())
    }

    /// The principal's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The request's [`Principal`]: in rmcp's extensions, else (served over HTTP) in the
/// HTTP request's; the empty name when there is none.
fn principal_of(ctx: &RequestContext<RoleServer>) -> &str {
    if let Some(principal) = ctx.extensions.get::<Principal>() {
        return principal.as_str();
    }
    #[cfg(feature = "http")]
    if let Some(principal) = ctx
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>())
    {
        return principal.as_str();
    }
    ""
}

/// The rmcp error for a JSON-RPC error of the engine.
fn rpc_error(e: RpcError) -> McpError {
    McpError::new(ErrorCode(e.code as i32), e.message, e.data)
}

/// The JSON-RPC error for a question's problem, as [`Session::finish`] answers it. A
/// missing capability is `-32021` ([`MISSING_CAPABILITY`]) with
/// `data.requiredCapabilities` on 2026-07-28 and `invalid request` before; an unusable
/// answer is `invalid params`; the rest are internal errors.
pub fn ask_error(e: &AskError) -> McpError {
    match e {
        AskError::Unsupported { mode: "tasks", .. } => {
            McpError::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            )
        }
        e => rpc_error(e.into()),
    }
}

/// Why a tool body stopped before its result: it is waiting for input (2026-07-28),
/// a question failed, or the tool failed for its own reasons. `?` on any ask
/// propagates it; a `#[tool]` method routed by [`Tools`] returns it as is
/// ([`Asked`]), and [`Session::finish`] turns it into the response of a hand-written
/// `call_tool`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Halt {
    /// The call needs answers first (2026-07-28): an `input_required` result, its
    /// state sealed, ready to send.
    InputRequired(Box<InputRequired>),
    /// The call goes on as a task ([`Session::continue_in_task`]): the task to answer
    /// the call with.
    Task(Box<TaskStarted>),
    /// A question could not be asked or answered.
    Ask(AskError),
    /// The tool's own error.
    Error(McpError),
}

impl From<AskError> for Halt {
    fn from(e: AskError) -> Halt {
        Halt::Ask(e)
    }
}

impl From<McpError> for Halt {
    fn from(e: McpError) -> Halt {
        Halt::Error(e)
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::InputRequired(r) => write!(
                f,
                "waiting for {} input request(s)",
                r.result.input_requests.as_ref().map_or(0, |r| r.len())
            ),
            Halt::Task(t) => write!(f, "going on as the task {}", t.result.task.task_id),
            Halt::Ask(e) => e.fmt(f),
            Halt::Error(e) => e.message.fmt(f),
        }
    }
}

/// What a `#[tool]` method that asks returns: its result, or the [`Halt`] that stopped
/// it (see [`Tools`]).
pub type Asked<T> = Result<T, Halt>;

/// An `input_required` result (2026-07-28): the questions of a round and the sealed
/// state of the call, ready to send.
#[derive(Debug)]
pub struct InputRequired {
    result: InputRequiredResult,
    /// Where a call routed by [`Tools`] takes it.
    reply: Option<Arc<session::Reply>>,
}

/// A task a call goes on as ([`Session::continue_in_task`]), ready to answer the call
/// with.
#[derive(Debug)]
pub struct TaskStarted {
    result: CreateTaskResult,
    /// Where a call routed by [`Tools`] takes it.
    reply: Option<Arc<session::Reply>>,
}

/// The rmcp input requests built lately, by the digest of the request as sent.
///
/// rmcp carries an input request as typed structs, which are built by parsing the
/// request's JSON (its schema into rmcp's schema types): the costliest step of a
/// stateless round. The questions of a server are few (a form, a wizard step with its
/// options, a problem above a message), so a request is built once and cloned after.
/// Bounded: emptied when full.
#[derive(Debug, Default)]
struct QuestionCache(std::sync::Mutex<std::collections::HashMap<String, InputRequest>>);

impl QuestionCache {
    /// Questions kept at most.
    const CAPACITY: usize = 256;

    /// rmcp's request for `request`.
    fn get_or_build(&self, request: &Question) -> Result<InputRequest, McpError> {
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(built) = cache.get(&request.digest) {
            return Ok(built.clone());
        }
        let built = input_request(request)?;
        if cache.len() >= Self::CAPACITY {
            cache.clear();
        }
        cache.insert(request.digest.clone(), built.clone());
        Ok(built)
    }
}

/// rmcp's typed input request for `request`, read from its JSON text (rmcp's schema
/// type keeps the order of the properties it reads).
fn input_request(request: &Question) -> Result<InputRequest, McpError> {
    let envelope = request.to_string();
    let read = match request.method.as_str() {
        // The variant is known from the method: no trial of each in turn.
        "elicitation/create" => serde_json::from_str(&envelope).map(InputRequest::Elicitation),
        "sampling/createMessage" => {
            serde_json::from_str(&envelope).map(InputRequest::CreateMessage)
        }
        "roots/list" => serde_json::from_str(&envelope).map(InputRequest::ListRoots),
        _ => serde_json::from_str(&envelope),
    };
    read.map_err(|e| {
        McpError::internal_error(
            format!("cannot build the {} input request: {e}", request.method),
            None,
        )
    })
}

/// The rmcp `input_required` result for the engine's.
fn input_required(
    questions: &QuestionCache,
    round: engine::InputRequired,
) -> Result<InputRequiredResult, McpError> {
    let mut requests = ::rmcp::model::InputRequests::new();
    for request in &round.requests {
        requests.insert(request.key.clone(), questions.get_or_build(request)?);
    }
    Ok(InputRequiredResult::new(Some(requests), Some(round.state)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use elicit_core::client::read_schema;
    use elicit_core::engine::Input;
    use elicit_core::engine::{Engine, Halt, Peer};
    use elicit_core::seal::Keyring;

    /// rmcp's typed question, read from the text the engine wrote, keeps the fields in
    /// declaration order (its `property_order`).
    #[test]
    fn rmcp_questions_keep_declaration_order() {
        let form = read_schema(
            r#"{"type": "object", "properties": {"zeta": {"type": "boolean"},
                "alpha": {"type": "boolean"}}, "required": ["zeta"]}"#,
        )
        .unwrap();
        let engine = Engine::new(Keyring::generate());
        let client = Peer::new(
            Some(Revision::V2026_07_28),
            &serde_json::json!({"elicitation": {}}),
        );
        let binding = Binding::new("", "tools/call", "t", &Value::Null);
        let mut call = engine
            .rounds(client, binding, None, BTreeMap::new())
            .unwrap();
        let asked = Input::Form {
            key: "k",
            message: "Which?",
            form: &form,
        };
        let mut poll = std::pin::pin!(call.inputs(&(), vec![asked]));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let std::task::Poll::Ready(Err(Halt::InputRequired(round))) = poll.as_mut().poll(&mut cx)
        else {
            panic!("the question ends the round")
        };
        let InputRequest::Elicitation(request) = input_request(&round.requests[0]).unwrap() else {
            panic!("not an elicitation")
        };
        let ::rmcp::model::ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = request.params
        else {
            panic!("not a form")
        };
        assert_eq!(
            requested_schema.property_order.as_deref(),
            Some(&["zeta".to_owned(), "alpha".to_owned()][..])
        );
    }
}
