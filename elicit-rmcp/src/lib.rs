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

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    ClientCapabilities, CreateTaskResult, CustomNotification, CustomRequest, ErrorCode,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequest, InputRequests,
    InputRequiredResult, ServerNotification, ServerRequest,
};
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use ::rmcp::task_manager::{TaskContext, TaskExit};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use elicit_core::__private::{read, read_valid, split_result, split_result_owned};
use elicit_core::answer::{Action, AnswerError, Confirm, Elicit, Elicitation, Strictness};
use elicit_core::form::{Form, RequestedSchema, Revision, SchemaError};
use elicit_core::seal::store::{MemoryStore, RedeemStore, Redemption};
use elicit_core::seal::{Binding, SealError, Sealer};
use elicit_core::wizard::{Flow, FormParams, Outcome, Poll, Wizard, WizardError, WizardState};

#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "http")]
pub mod http;
pub mod tasks;
mod tools;

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

pub use tasks::{TaskSupport, Tasks};
pub use tools::Tools;

/// How long a push-mode question waits for the person to answer, unless the
/// [`Elicitor`] says otherwise. A person reads and fills a form: not seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The JSON-RPC error a 2026-07-28 server returns when a capability it needs is missing.
pub const MISSING_CAPABILITY: ErrorCode = ErrorCode(-32021);

/// The JSON-RPC error of 2025-11-25 for "this request needs a URL-mode elicitation first".
pub const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// Server-wide settings: the key that seals MRTR state, timeouts, attempts.
///
/// Clones share the settings and keys; keep one in the server and open a [`Session`] per call.
#[derive(Clone)]
pub struct Elicitor {
    sealer: Arc<Sealer>,
    store: Arc<dyn RedeemStore>,
    questions: Arc<QuestionCache>,
    first_round_answers: bool,
    timeout: Option<Duration>,
    attempts: u32,
    strictness: Strictness,
    tasks: Option<Tasks>,
}

impl fmt::Debug for Elicitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicitor")
            .field("timeout", &self.timeout)
            .field("attempts", &self.attempts)
            .field("strictness", &self.strictness)
            .field("store", &self.store)
            .field("first_round_answers", &self.first_round_answers)
            .field("tasks", &self.tasks)
            .finish_non_exhaustive()
    }
}

impl Elicitor {
    /// Settings with the given sealer, single use recorded in this process's memory
    /// ([`MemoryStore`]), a ten-minute timeout, three attempts per question and strict
    /// validation.
    pub fn new(sealer: Sealer) -> Elicitor {
        Elicitor {
            sealer: Arc::new(sealer),
            store: Arc::new(MemoryStore::new()),
            questions: Arc::default(),
            first_round_answers: false,
            timeout: Some(DEFAULT_TIMEOUT),
            attempts: elicit_core::wizard::DEFAULT_ATTEMPTS,
            strictness: Strictness::Strict,
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
    /// one retry, and a replayed one is refused. The default, a [`MemoryStore`], covers
    /// one process; replicas behind a load balancer share a store such as
    /// `seal::redis::RedisStore` (feature `redis`).
    pub fn with_store(mut self, store: impl RedeemStore + 'static) -> Elicitor {
        self.store = Arc::new(store);
        self
    }

    /// Whether answers sent with a *first* call (no `requestState`, so no question was
    /// asked) are read (`false` by default: they are ignored and the question is asked).
    /// Reading them lets a client approve what no user was shown; only a test harness
    /// that sends answers up front (the MCP conformance suite does) needs it.
    pub fn with_first_round_answers(mut self, read: bool) -> Elicitor {
        self.first_round_answers = read;
        self
    }

    /// How long a push-mode question waits for an answer (`None`: forever).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Elicitor {
        self.timeout = timeout;
        self
    }

    /// How many answers a single question may get (at least 1).
    pub fn with_attempts(mut self, attempts: u32) -> Elicitor {
        self.attempts = attempts.max(1);
        self
    }

    /// How strictly answers are validated (see [`Strictness`]).
    pub fn with_strictness(mut self, strictness: Strictness) -> Elicitor {
        self.strictness = strictness;
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
        let args = params
            .arguments
            .clone()
            .map(Value::Object)
            .unwrap_or(Value::Null);
        let binding = Binding::new(principal, "tools/call", &params.name, &args);
        self.session(
            ctx,
            Some(binding),
            params.request_state.as_deref(),
            params.input_responses.clone(),
            None,
            None,
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
        let args = params
            .arguments
            .clone()
            .map(Value::Object)
            .unwrap_or(Value::Null);
        let binding = Binding::new(principal, "prompts/get", &params.name, &args);
        self.session(
            ctx,
            Some(binding),
            params.request_state.as_deref(),
            params.input_responses.clone(),
            None,
            None,
        )
    }

    /// A session for the call of `ctx`. `binding` is what its state is bound to (needed
    /// on 2026-07-28 only: see [`revision_of`]); `reply` is where a routed call's
    /// `input_required` result is handed back ([`Tools`]).
    fn session(
        &self,
        ctx: &RequestContext<RoleServer>,
        binding: Option<Binding>,
        request_state: Option<&str>,
        responses: Option<BTreeMap<String, Value>>,
        reply: Option<Arc<tools::Reply>>,
        task: Option<(TaskContext, CancellationToken)>,
    ) -> Result<Session, McpError> {
        let revision = revision_of(ctx);
        let mrtr = match (revision, binding) {
            _ if task.is_some() => None,
            (Some(r), Some(binding)) if Revision::is_stateless(r) => {
                let (saved, unredeemed) = match request_state {
                    Some(token) => {
                        let (saved, issued_at, expires_at) = self
                            .sealer
                            .open_stamped::<Saved>(&binding, token)
                            .map_err(state_error)?;
                        if saved.round.is_empty() || saved.call.is_empty() {
                            return Err(state_error(SealError::Malformed("no round id")));
                        }
                        let round = Unredeemed {
                            id: saved.round.clone(),
                            issued_at,
                            expires_at,
                        };
                        (saved, Some(round))
                    }
                    None => (
                        Saved {
                            call: elicit_core::__private::random_id(),
                            ..Saved::default()
                        },
                        None,
                    ),
                };
                Some(Mrtr {
                    sealer: self.sealer.clone(),
                    store: self.store.clone(),
                    questions: self.questions.clone(),
                    first_round: request_state.is_none() && self.first_round_answers,
                    binding,
                    saved,
                    unredeemed,
                    responses: responses.unwrap_or_default(),
                })
            }
            (Some(r), None) if Revision::is_stateless(r) => {
                return Err(McpError::internal_error(
                    "a 2026-07-28 session needs what its state is bound to",
                    None,
                ));
            }
            _ => None,
        };
        let call_id = match &mrtr {
            Some(m) => m.saved.call.clone(),
            None => elicit_core::__private::random_id(),
        };
        // Only the id and the token: meta and extensions (HTTP headers) are not needed.
        let mut call = RequestContext::new(ctx.id.clone(), ctx.peer.clone());
        let task = task.map(|(task, token)| {
            call.ct = token;
            task
        });
        if task.is_none() {
            call.ct = ctx.ct.clone();
        }
        Ok(Session {
            peer: ctx.peer.clone(),
            call,
            revision,
            capabilities: ctx.client_capabilities(),
            timeout: self.timeout,
            attempts: self.attempts,
            strictness: self.strictness,
            cursor: 0,
            call_id,
            mrtr,
            task,
            tasks: self.tasks.clone(),
            principal: principal_of(ctx).to_owned(),
            reply,
        })
    }
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

fn state_error(e: SealError) -> McpError {
    McpError::invalid_params(
        format!("the requestState of this retry was refused: {e}; call the tool again without it"),
        None,
    )
}

/// The answers of earlier rounds, sealed into `requestState`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    /// The call's id, the same in every round ([`Session::call_id`]).
    #[serde(default)]
    call: String,
    /// This state's own id, redeemed once.
    #[serde(default)]
    round: String,
    /// One entry per finished question, in asking order: a form's `ElicitResult` as
    /// validated (only the form's fields), a wizard's final state, or another input
    /// request's raw result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    log: Vec<Value>,
    /// The question being asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Pending>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Pending {
    /// Which question (its position in the log).
    index: usize,
    /// Answers that failed so far.
    #[serde(default, skip_serializing_if = "is_zero")]
    failed: u32,
    /// The last problem, shown above the form when asking again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
    /// A wizard's state between its steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wizard: Option<WizardState>,
    /// The answers a batch ([`Session::inputs`]) already has, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    answered: BTreeMap<String, Value>,
    /// The questions this round asked: their keys, and the digest of each question
    /// as sent (method, message, schema). An answer is read only for one of them, and
    /// only while the question is still the same.
    #[serde(default)]
    asked: BTreeMap<String, String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Pending {
    fn new(index: usize) -> Pending {
        Pending {
            index,
            failed: 0,
            problem: None,
            wizard: None,
            answered: BTreeMap::new(),
            asked: BTreeMap::new(),
        }
    }
}

/// One question of a round: its key, the digest of the question it stands for, and
/// the request as sent.
struct RoundQuestion {
    key: String,
    digest: String,
    request: InputRequest,
}

/// The digest of a question (its method and params as this server writes them): 128
/// bits of SHA-256 over the JSON, base64url. The same question from the same code
/// always has the same digest; a question whose text, schema or options changed has
/// another.
fn question_digest(method: &str, params: &Params) -> String {
    use base64::Engine;
    use sha2::Digest;
    let mut hashing = sha2::Sha256::new();
    hashing.update(method.as_bytes());
    hashing.update([0]);
    hashing.update(params.0.as_bytes());
    let hash = hashing.finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&hash[..16])
}

/// A question's `params` as JSON text, written straight from typed values: a form's
/// fields in declaration order, whatever serde_json's features (a `Value` map sorts them
/// unless `preserve_order` is on, and this crate does not turn it on for its users).
/// rmcp 3.11 then writes every message's params through a `Value` of its own (its
/// `WithMeta`): the order reaches the wire when the application turns on serde_json's
/// `preserve_order` (see `docs/mcp.md`).
#[derive(Clone, Debug)]
struct Params(String);

impl Params {
    /// The params `value` serializes to.
    fn of(value: &impl Serialize) -> Params {
        // Maps, strings and numbers: writing them cannot fail.
        Params(serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned()))
    }
}

/// The digest of a wizard step's question, an `elicitation/create` request with `params`:
/// like [`question_digest`], 128 bits of SHA-256 over all that the params hold (the
/// revision, which decides how the schema is written and whether `mode` is sent; the
/// message; the schema's JSON), but the schema's JSON enters as its own SHA-256, which
/// the form keeps with the JSON it keeps written: a step's schema is hashed once, not
/// for every question.
fn form_digest(params: FormParams<'_>) -> String {
    use base64::Engine;
    use sha2::Digest;
    let schema = params.schema();
    let message = params.message();
    let schema_digest = schema.json_digest(|json| sha2::Sha256::digest(json).into());
    let mut hashing = sha2::Sha256::new();
    hashing.update(b"elicitation/create");
    // After the method, `question_digest` hashes JSON, which starts with `{`: a 1 here
    // keeps the two kinds of digest apart.
    hashing.update([0, 1]);
    hashing.update(schema.revision().as_str().as_bytes());
    hashing.update((message.len() as u64).to_be_bytes());
    hashing.update(message.as_bytes());
    hashing.update(schema_digest);
    let hash = hashing.finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&hash[..16])
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

    /// The request for `method` with the params `params()`, whose digest as sent is
    /// `digest`.
    fn get_or_build(
        &self,
        method: &str,
        digest: &str,
        params: impl FnOnce() -> Params,
    ) -> Result<InputRequest, Halt> {
        let mut cache = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(request) = cache.get(digest) {
            return Ok(request.clone());
        }
        let request = build_input_request(method, &params()).map_err(|e| {
            Halt::Error(McpError::internal_error(
                format!("cannot build the {method} input request: {e}"),
                None,
            ))
        })?;
        if cache.len() >= Self::CAPACITY {
            cache.clear();
        }
        cache.insert(digest.to_owned(), request.clone());
        Ok(request)
    }
}

/// rmcp's typed input request for `method` and `params`, read from the JSON text (rmcp's
/// schema type keeps the order of the properties it reads).
fn build_input_request(method: &str, params: &Params) -> Result<InputRequest, serde_json::Error> {
    let envelope = format!(
        "{{\"method\":{},\"params\":{}}}",
        serde_json::to_string(method)?,
        params.0
    );
    // The variant is known from the method: no trial of each in turn.
    Ok(match method {
        "elicitation/create" => InputRequest::Elicitation(serde_json::from_str(&envelope)?),
        "sampling/createMessage" => InputRequest::CreateMessage(serde_json::from_str(&envelope)?),
        "roots/list" => InputRequest::ListRoots(serde_json::from_str(&envelope)?),
        _ => serde_json::from_str(&envelope)?,
    })
}

/// The id and times of a state not yet redeemed.
struct Unredeemed {
    id: String,
    issued_at: u64,
    expires_at: u64,
}

struct Mrtr {
    sealer: Arc<Sealer>,
    store: Arc<dyn RedeemStore>,
    questions: Arc<QuestionCache>,
    /// Answers of a first call are read ([`Elicitor::with_first_round_answers`]).
    first_round: bool,
    binding: Binding,
    saved: Saved,
    /// The state this retry brought, until it is redeemed.
    unredeemed: Option<Unredeemed>,
    responses: BTreeMap<String, Value>,
}

/// One tool or prompt call that may ask the user things. See the [module](self) docs.
pub struct Session {
    peer: Peer<RoleServer>,
    /// The call's id and cancellation token: the token fires when the client cancels
    /// the call (`notifications/cancelled`), or rmcp gives up on it, and a question
    /// waiting for its answer then stops at once.
    call: RequestContext<RoleServer>,
    revision: Option<Revision>,
    capabilities: Option<ClientCapabilities>,
    timeout: Option<Duration>,
    attempts: u32,
    strictness: Strictness,
    cursor: usize,
    call_id: String,
    mrtr: Option<Mrtr>,
    /// On the Tasks channel: the task the questions wait in.
    task: Option<TaskContext>,
    /// The server's tasks, for [`Session::continue_in_task`].
    tasks: Option<Tasks>,
    /// Whom the call is for: a task it starts is theirs.
    principal: String,
    /// Where a call routed by [`Tools`] hands its `input_required` result back.
    reply: Option<Arc<tools::Reply>>,
}

/// How a call's questions reach the user: see the [module](self) docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Channel {
    /// `elicitation/create` requests sent to the client and awaited in place
    /// (2025-06-18, 2025-11-25).
    Push,
    /// `input_required` results, the call retried with the answers (2026-07-28).
    Rounds,
    /// A task: the questions wait in `tasks/get`, the answers come with `tasks/update`
    /// (2026-07-28 with the Tasks extension).
    Task,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("revision", &self.revision)
            .field("channel", &self.channel())
            .field("cursor", &self.cursor)
            .finish_non_exhaustive()
    }
}

/// Why a question could not be asked or answered.
#[derive(Debug)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability (`elicitation`, its form or URL mode)
    /// on this revision, or speaks a revision without elicitation.
    Unsupported {
        /// `"form"` or `"url"`; `"sampling"` or `"roots"` for those requests; `"tasks"`
        /// for the Tasks extension.
        mode: &'static str,
        /// The negotiated revision, when it is one elicitation knows.
        revision: Option<Revision>,
    },
    /// The revision cannot express the form (a multi-select on 2025-06-18).
    Schema(SchemaError),
    /// The answer was malformed, or still invalid after every attempt.
    Answer(AnswerError),
    /// A wizard could not go on.
    Wizard(WizardError),
    /// Nobody answered within the timeout.
    Timeout(Duration),
    /// The call was cancelled, or the connection closed, while waiting.
    Cancelled,
    /// The connection failed.
    Peer(String),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported { mode: "tasks", .. } => f.write_str(
                "the client cannot run this tool as a task: it did not declare the \
                 io.modelcontextprotocol/tasks extension (protocol 2026-07-28 or later)",
            ),
            AskError::Unsupported { mode, revision } if matches!(*mode, "sampling" | "roots") => {
                let _ = revision;
                write!(
                    f,
                    "the client does not take {mode} requests: it did not declare the capability"
                )
            }
            AskError::Unsupported { mode, revision } => match revision {
                Some(r) => write!(
                    f,
                    "the client cannot show {mode}-mode elicitations: it did not declare the capability (protocol {r})"
                ),
                None => write!(
                    f,
                    "the client cannot show {mode}-mode elicitations: its protocol version has no elicitation"
                ),
            },
            AskError::Schema(e) => e.fmt(f),
            AskError::Answer(e) => write!(f, "the answer was not usable: {e}"),
            AskError::Wizard(e) => e.fmt(f),
            AskError::Timeout(t) if t.as_secs() >= 1 && t.subsec_millis() == 0 => {
                write!(f, "nobody answered within {} s", t.as_secs())
            }
            AskError::Timeout(t) => write!(f, "nobody answered within {} ms", t.as_millis()),
            AskError::Cancelled => {
                f.write_str("the request was cancelled while waiting for an answer")
            }
            AskError::Peer(e) => write!(f, "the connection failed while asking: {e}"),
        }
    }
}

impl std::error::Error for AskError {}

/// The JSON-RPC error for the problem, as [`Session::finish`] answers it. A missing
/// capability is `-32021` ([`MISSING_CAPABILITY`]) with `data.requiredCapabilities` on
/// 2026-07-28 and `invalid request` before; an unusable answer is `invalid params`; the
/// rest are internal errors.
impl From<AskError> for McpError {
    fn from(e: AskError) -> McpError {
        match &e {
            AskError::Unsupported { mode: "tasks", .. } => {
                McpError::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                )
            }
            AskError::Unsupported {
                mode,
                revision: Some(r),
            } if r.is_stateless() => {
                let required = match *mode {
                    "sampling" | "roots" => serde_json::json!({ *mode: {} }),
                    _ => serde_json::json!({ "elicitation": { *mode: {} } }),
                };
                McpError::new(
                    MISSING_CAPABILITY,
                    e.to_string(),
                    Some(serde_json::json!({ "requiredCapabilities": required })),
                )
            }
            AskError::Unsupported { .. } => McpError::invalid_request(e.to_string(), None),
            AskError::Answer(_) => McpError::invalid_params(e.to_string(), None),
            _ => McpError::internal_error(e.to_string(), None),
        }
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

impl Halt {
    /// The `tools/call` response to send: the `input_required` result or the task,
    /// or the JSON-RPC error.
    fn into_response(self) -> Result<CallToolResponse, McpError> {
        match self {
            Halt::InputRequired(r) => Ok(CallToolResponse::InputRequired(r.result)),
            Halt::Task(t) => Ok(CallToolResponse::Task(t.result)),
            Halt::Ask(e) => Err(e.into()),
            Halt::Error(e) => Err(e),
        }
    }

    /// How a task whose body stopped with this ends: `cancelled` when it stopped
    /// because the task was cancelled, else `failed` with the error.
    fn into_task_exit(self) -> TaskExit {
        match self {
            Halt::Ask(AskError::Cancelled) => TaskExit::Cancelled,
            halt => match halt.into_response() {
                Err(e) => TaskExit::Error(e),
                Ok(_) => TaskExit::Error(McpError::internal_error(
                    "a task cannot answer with input_required or another task",
                    None,
                )),
            },
        }
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::InputRequired(r) => write!(f, "waiting for {} input request(s)", r.len()),
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
    reply: Option<Arc<tools::Reply>>,
}

impl InputRequired {
    /// How many questions the round asks.
    fn len(&self) -> usize {
        self.result.input_requests.as_ref().map_or(0, |r| r.len())
    }
}

/// A task a call goes on as ([`Session::continue_in_task`]), ready to answer the call
/// with.
#[derive(Debug)]
pub struct TaskStarted {
    result: CreateTaskResult,
    /// Where a call routed by [`Tools`] takes it.
    reply: Option<Arc<tools::Reply>>,
}

/// The user's answer to a URL-mode elicitation: whether they agreed to open it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlAnswer {
    /// Accept (they went or will go to the URL), decline or cancel.
    pub action: Action,
    /// The `elicitationId` sent with the request (2025-11-25 only), for
    /// [`Session::notify_url_complete`].
    pub elicitation_id: Option<String>,
}

/// One question of a batch ([`Session::inputs`]), under the key it has in
/// `inputRequests` on 2026-07-28. A form built at run time (a [`Form`]) is asked as
/// `Input::Form { key, message, form: &form }`, alone or with others.
#[derive(Debug)]
pub enum Input<'a> {
    /// A form (an `elicitation/create` in form mode).
    Form {
        /// The key in `inputRequests` / `inputResponses`.
        key: &'a str,
        /// The message above the form.
        message: &'a str,
        /// The form.
        form: &'a Form,
    },
    /// Any other request (`sampling/createMessage`, `roots/list`, ...), carried as it is.
    Request {
        /// The key in `inputRequests` / `inputResponses`.
        key: &'a str,
        /// The JSON-RPC method.
        method: &'a str,
        /// Its params.
        params: Value,
    },
}

impl<'a> Input<'a> {
    /// The form `T` under `key`.
    pub fn form<T: Elicit>(key: &'a str, message: &'a str) -> Input<'a> {
        Input::Form {
            key,
            message,
            form: T::form(),
        }
    }

    /// Another request under `key`.
    pub fn request(key: &'a str, method: &'a str, params: Value) -> Input<'a> {
        Input::Request {
            key,
            method,
            params,
        }
    }

    /// The key.
    fn key(&self) -> &'a str {
        match self {
            Input::Form { key, .. } | Input::Request { key, .. } => key,
        }
    }
}

/// One answer of a batch, in the order of the questions.
#[derive(Clone, Debug, PartialEq)]
pub enum InputAnswer {
    /// A form's answer: the action and, on accept, the validated content.
    Form {
        /// Accept, decline or cancel.
        action: Action,
        /// The content with defaults filled (accept only).
        content: Option<Value>,
    },
    /// The client's raw result of another request.
    Value(Value),
}

impl InputAnswer {
    /// The answer as kept in sealed state (a form's: validated).
    fn into_result(self) -> Value {
        match self {
            InputAnswer::Form { action, content } => result_value(action, content),
            InputAnswer::Value(value) => value,
        }
    }

    /// A form's answer as the typed [`Elicitation`] of `T`.
    pub fn typed<T: Elicit>(self) -> Result<Elicitation<T>, Halt> {
        match self {
            InputAnswer::Form { action, content } => typed(action, content),
            InputAnswer::Value(_) => {
                Err(AskError::Answer(AnswerError::Malformed("this answer is not a form's")).into())
            }
        }
    }

    /// The raw result of another request (`Value::Null` for a form's answer).
    pub fn into_value(self) -> Value {
        match self {
            InputAnswer::Value(v) => v,
            InputAnswer::Form { .. } => Value::Null,
        }
    }
}

/// The `params` of a form-mode `elicitation/create`, the problem of the last answer
/// above the message.
fn form_params(
    revision: Revision,
    message: &str,
    problem: Option<&str>,
    schema: &RequestedSchema<'_>,
) -> Params {
    /// The params in the order the spec lists them, the schema's fields in declaration order.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct FormRequest<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        mode: Option<&'static str>,
        message: &'a str,
        requested_schema: &'a RequestedSchema<'a>,
    }
    let text = match problem {
        Some(problem) => format!("{problem}\n\n{message}"),
        None => message.to_owned(),
    };
    Params::of(&FormRequest {
        mode: (revision >= Revision::V2025_11_25).then_some("form"),
        message: &text,
        requested_schema: schema,
    })
}

/// How a question's accepted content is read: validated against the form and read as
/// the asker's type (see `crate::answer`), or validated and kept as a value.
type Reader<R> = fn(&Form, Option<&Value>, Strictness) -> Result<R, AnswerError>;

/// An `ElicitResult` as kept in sealed state: the action and, on accept, the content.
fn result_value(action: Action, content: Option<Value>) -> Value {
    let mut result = Map::new();
    result.insert("action".into(), action.as_str().into());
    if let Some(content) = content {
        result.insert("content".into(), content);
    }
    Value::Object(result)
}

/// A validated answer as kept in sealed state: only the form's fields, never what
/// else the client sent.
fn kept_result(answer: Elicitation<Value>) -> Value {
    let action = answer.action();
    result_value(action, answer.accepted())
}

/// The validated content with defaults filled, as a value.
fn valid_value(
    form: &Form,
    content: Option<&Value>,
    strictness: Strictness,
) -> Result<Value, AnswerError> {
    Ok(form.validate(content, strictness)?.into_owned())
}

impl Session {
    /// The call's id: random, the same in every round of one call (on 2026-07-28 it
    /// rides in the sealed state), another for every call. Use it as the idempotency
    /// key of the side effect the answers lead to.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The question `key` of this round, pinned by `digest`: `method` with `params`
    /// as sent (whose digest is `sent`; the same as `digest` unless a problem is shown
    /// above the message).
    fn asked(
        &self,
        key: String,
        digest: String,
        method: &str,
        sent: &str,
        params: impl FnOnce() -> Params,
    ) -> Result<RoundQuestion, Halt> {
        let request = match &self.mrtr {
            Some(m) => m.questions.get_or_build(method, sent, params)?,
            None => build_input_request(method, &params()).map_err(|e| {
                Halt::Error(McpError::internal_error(
                    format!("cannot build the {method} input request: {e}"),
                    None,
                ))
            })?,
        };
        Ok(RoundQuestion {
            key,
            digest,
            request,
        })
    }

    /// Redeems the state this retry brought, before anything is read from it: the
    /// first redemption wins, a replay (here or on a replica sharing the store) is
    /// refused.
    async fn redeem(&mut self) -> Result<(), Halt> {
        let Some(m) = &mut self.mrtr else {
            return Ok(());
        };
        let Some(state) = m.unredeemed.take() else {
            return Ok(());
        };
        let refused = |why: &str| {
            Err(Halt::Error(McpError::invalid_params(
                format!(
                    "the requestState of this retry was refused: {why}; call the tool again \
                     without it"
                ),
                None,
            )))
        };
        match m
            .store
            .redeem(&state.id, state.issued_at, state.expires_at)
            .await
        {
            Ok(Redemption::First) => Ok(()),
            Ok(Redemption::Again) => {
                refused("it was used before (each state is good for one retry)")
            }
            Ok(Redemption::TooOld) => refused(
                "it is older than this server's record of used states reaches back (the \
                 server is under heavy load)",
            ),
            Err(e) => Err(Halt::Error(McpError::internal_error(
                format!("cannot make sure the requestState is used once: {e}"),
                None,
            ))),
        }
    }

    /// The negotiated protocol revision, when it is one with elicitation.
    pub fn revision(&self) -> Option<Revision> {
        self.revision
    }

    /// Whether questions travel as `input_required` results (2026-07-28).
    pub fn is_stateless(&self) -> bool {
        self.mrtr.is_some()
    }

    /// How this call's questions reach the user.
    pub fn channel(&self) -> Channel {
        match (&self.mrtr, &self.task) {
            (_, Some(_)) => Channel::Task,
            (Some(_), None) => Channel::Rounds,
            (None, None) => Channel::Push,
        }
    }

    /// Whether [`continue_in_task`](Self::continue_in_task) would start a task: the
    /// server runs tasks ([`Elicitor::with_tasks`]), the client declared the extension
    /// (2026-07-28), and the call is not a task already.
    pub fn supports_tasks(&self) -> bool {
        self.tasks.is_some()
            && self.task.is_none()
            && tasks::declared(self.revision, self.capabilities.as_ref())
    }

    /// Runs the rest of the tool, `work`, as a task when the client can take one
    /// ([`supports_tasks`](Self::supports_tasks)), and in the call otherwise: the call is
    /// answered with the task at once, and `work` goes on with a session whose
    /// questions wait in `tasks/get`. Ask first (in rounds or pushed), then do the long
    /// part in the task:
    ///
    /// ```
    /// # use elicit_rmcp::{Asked, Session};
    /// # use elicit_core::{Elicit, Elicitation};
    /// # use rmcp::model::{CallToolResult, ContentBlock};
    /// # use serde::Deserialize;
    /// #[derive(Elicit, Deserialize)]
    /// struct Approve {
    ///     approve: bool,
    /// }
    ///
    /// async fn export(mut s: Session) -> Asked<CallToolResult> {
    ///     if !matches!(s.ask::<Approve>("Export 40 GB?").await?, Elicitation::Accept(a) if a.approve) {
    ///         return Ok(CallToolResult::success(vec![ContentBlock::text("Not exported.")]));
    ///     }
    ///     s.continue_in_task(|_s| async move {
    ///         // ... the long export, which may ask more through `_s` ...
    ///         Ok(CallToolResult::success(vec![ContentBlock::text("Exported.")]))
    ///     })
    ///     .await
    /// }
    /// ```
    ///
    /// On 2026-07-28 the round that starts the task redeems its state, so a replayed
    /// retry cannot start the task again. The task belongs to the call's principal.
    pub async fn continue_in_task<F, Fut>(mut self, work: F) -> Asked<CallToolResult>
    where
        F: FnOnce(Session) -> Fut,
        Fut: Future<Output = Asked<CallToolResult>> + Send + 'static,
    {
        let tasks = match &self.tasks {
            Some(tasks) if self.supports_tasks() => tasks.clone(),
            _ => return work(self).await,
        };
        self.redeem().await?;
        let reply = self.reply.take();
        let principal = self.principal.clone();
        let result = tasks.spawn(&principal, move |task, token| {
            let body = work(self.into_task(task, token));
            async move { body.await.map_err(Halt::into_task_exit) }
        });
        Err(Halt::Task(Box::new(TaskStarted { result, reply })))
    }

    /// This session, its questions now asked in `task`.
    fn into_task(mut self, task: TaskContext, token: CancellationToken) -> Session {
        self.mrtr = None;
        self.task = Some(task);
        self.call.ct = token;
        self.reply = None;
        self
    }

    /// Sets the task's status message (`statusMessage` in `tasks/get`), to show the
    /// user how far a long task got. Does nothing on the other channels.
    pub fn set_status(&self, message: impl Into<String>) {
        if let Some(task) = &self.task {
            task.set_status_message(message);
        }
    }

    /// Whether the client can show forms. Check it to offer a fallback (a plain text
    /// result, sampling) instead of failing.
    pub fn supports_form(&self) -> bool {
        self.mode_supported("form")
    }

    /// Whether the client can open URL-mode elicitations (2025-11-25 and later).
    pub fn supports_url(&self) -> bool {
        self.mode_supported("url")
    }

    /// The capabilities the client declared (per request on 2026-07-28).
    pub fn client_capabilities(&self) -> Option<&ClientCapabilities> {
        self.capabilities.as_ref()
    }

    fn mode_supported(&self, mode: &str) -> bool {
        let Some(revision) = self.revision else {
            return false;
        };
        let Some(e) = self
            .capabilities
            .as_ref()
            .and_then(|c| c.elicitation.as_ref())
        else {
            return false;
        };
        match mode {
            "url" => revision >= Revision::V2025_11_25 && e.url.is_some(),
            // `{}` means form only.
            _ => e.form.is_some() || e.url.is_none() || revision == Revision::V2025_06_18,
        }
    }

    fn require(&self, mode: &'static str) -> Result<Revision, AskError> {
        match self.revision {
            Some(revision) if self.mode_supported(mode) => Ok(revision),
            revision => Err(AskError::Unsupported { mode, revision }),
        }
    }

    /// Asks the form `T` with `message`; an invalid answer is asked again with the
    /// problems above the message, up to the attempts of the [`Elicitor`].
    pub async fn ask<T: Elicit>(&mut self, message: &str) -> Result<Elicitation<T>, Halt> {
        self.ask_form(None, message, T::form(), read::<T>).await
    }

    /// Asks a yes/no question with the ready-made [`Confirm`] form: `Accept(true)` only
    /// when the box was ticked.
    pub async fn confirm(
        &mut self,
        message: &str,
        confirm: &Confirm,
    ) -> Result<Elicitation<bool>, Halt> {
        let answer = self
            .ask_form(None, message, confirm.form(), valid_value)
            .await?;
        Ok(answer.map(|content| {
            content
                .get(Confirm::FIELD)
                .and_then(Value::as_bool)
                .unwrap_or(false)
        }))
    }

    /// Reads a client's `ElicitResult`: the action and, on accept, the content.
    fn check<R>(
        &self,
        form: &Form,
        result: &Value,
        read: Reader<R>,
    ) -> Result<Elicitation<R>, AnswerError> {
        let (action, content) = split_result(result)?;
        Ok(match action {
            Action::Accept => Elicitation::Accept(read(form, content, self.strictness)?),
            Action::Decline => Elicitation::Decline,
            Action::Cancel => Elicitation::Cancel,
        })
    }

    /// Asks in push mode until a valid answer or the attempts run out.
    async fn push_form<R>(
        &self,
        key: &str,
        form: &Form,
        params: &(dyn Fn(Option<&str>) -> Params + Sync),
        read: Reader<R>,
    ) -> Result<Elicitation<R>, Halt> {
        let mut problem: Option<String> = None;
        let mut failed = 0;
        loop {
            let result = self
                .push(
                    &attempt_key(key, failed),
                    "elicitation/create",
                    params(problem.as_deref()),
                )
                .await?;
            match self.check(form, &result, read) {
                Ok(answer) => return Ok(answer),
                Err(AnswerError::Invalid(e)) if failed + 1 < self.attempts => {
                    failed += 1;
                    problem = Some(e.to_string());
                }
                Err(e) => return Err(AskError::Answer(e).into()),
            }
        }
    }

    /// [`ask`](Self::ask) under a key of your choosing: on 2026-07-28 the question is
    /// `inputRequests[key]` on every round and the answer is read from
    /// `inputResponses[key]`, so a client (or a test harness) that knows the key may
    /// answer it in the first call.
    pub async fn ask_as<T: Elicit>(
        &mut self,
        key: &str,
        message: &str,
    ) -> Result<Elicitation<T>, Halt> {
        self.ask_form(Some(key), message, T::form(), read::<T>)
            .await
    }

    async fn ask_form<R>(
        &mut self,
        key: Option<&str>,
        message: &str,
        form: &Form,
        read: Reader<R>,
    ) -> Result<Elicitation<R>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        if let Some(logged) = self.logged(index) {
            return self.check(form, &logged, read).map_err(replay_error);
        }
        let revision = self.require("form")?;
        let schema = form.requested_schema(revision).map_err(AskError::Schema)?;
        let params = |problem: Option<&str>| form_params(revision, message, problem, &schema);
        if self.mrtr.is_none() {
            let key = match key {
                Some(key) => key.to_owned(),
                None => format!("ask{index}"),
            };
            return self.push_form(&key, form, &params, read).await;
        }
        // 2026-07-28: the answer, if this question was asked, is in this retry's
        // inputResponses.
        let digest = question_digest("elicitation/create", &params(None));
        let (mut failed, mut problem) = self.pending_attempt(index, &digest);
        let key_for = |failed: u32| match key {
            Some(k) => k.to_owned(),
            None => format!("ask{index}.{failed}"),
        };
        if let Some(result) = self.response(index, &key_for(failed), &digest) {
            match self.check(form, &result, valid_value) {
                Ok(valid) => {
                    let kept = kept_result(valid);
                    let answer = self.check(form, &kept, read).map_err(AskError::Answer)?;
                    self.log(kept);
                    return Ok(answer);
                }
                Err(AnswerError::Invalid(e)) if failed + 1 < self.attempts => {
                    failed += 1;
                    problem = Some(e.to_string());
                }
                Err(e) => return Err(AskError::Answer(e).into()),
            }
        }
        let sent = match &problem {
            Some(problem) => question_digest("elicitation/create", &params(Some(problem))),
            None => digest.clone(),
        };
        let asked = self.asked(key_for(failed), digest, "elicitation/create", &sent, || {
            params(problem.as_deref())
        })?;
        self.suspend(
            Pending {
                failed,
                problem,
                ..Pending::new(index)
            },
            vec![asked],
        )
    }

    /// Runs the wizard `W` to its outcome: one `elicitation/create` per step in push
    /// mode, one `input_required` round per step on 2026-07-28 (the wizard's state
    /// rides in the sealed `requestState`).
    pub async fn wizard<W: Wizard>(&mut self, ctx: &W::Context) -> Result<Outcome<W>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        if let Some(state) = self.logged_wizard(index)? {
            let mut flow = Flow::<W>::restore(state)
                .map_err(|e| Halt::Ask(AskError::Wizard(WizardError::State(e))))?;
            return match self.poll(&mut flow, ctx)? {
                Poll::Done(outcome) => Ok(outcome),
                Poll::Ask(_) => Err(replay_error(AnswerError::Malformed(
                    "a finished wizard asked again",
                ))),
            };
        }
        self.require("form")?;
        if self.mrtr.is_none() {
            let mut flow = Flow::<W>::new().with_strictness(self.strictness);
            loop {
                match self.poll(&mut flow, ctx)? {
                    Poll::Done(outcome) => return Ok(outcome),
                    Poll::Ask(request) => {
                        let key = format!(
                            "wizard{index}.{}.{}",
                            request.step().index,
                            request.attempt()
                        );
                        let result = self
                            .push(&key, "elicitation/create", Params::of(&request.params()))
                            .await?;
                        let (action, content) = split_result_owned(result)
                            .map_err(|e| Halt::Ask(AskError::Answer(e)))?;
                        flow.answer(ctx, action, content)
                            .map_err(|e| Halt::Ask(AskError::Wizard(e)))?;
                    }
                }
            }
        }
        let mut flow = match self.take_pending_wizard(index) {
            Some(state) => Flow::<W>::restore(state)
                .map_err(|e| Halt::Ask(AskError::Wizard(WizardError::State(e))))?,
            None => Flow::<W>::new(),
        }
        .with_strictness(self.strictness);
        let mut answered = false;
        loop {
            match self.poll(&mut flow, ctx)? {
                Poll::Done(outcome) => {
                    // The state before the final poll replays to the same outcome.
                    let before = flow.into_state().before_completion();
                    let snapshot = serde_json::to_value(&before)
                        .map_err(|e| Halt::Error(McpError::internal_error(e.to_string(), None)))?;
                    self.log(snapshot);
                    return Ok(outcome);
                }
                Poll::Ask(request) => {
                    let key = format!(
                        "wizard{index}.{}.{}",
                        request.step().index,
                        request.attempt()
                    );
                    let digest = form_digest(request.params());
                    if !answered && let Some(result) = self.response(index, &key, &digest) {
                        answered = true;
                        let (action, content) = split_result_owned(result)
                            .map_err(|e| Halt::Ask(AskError::Answer(e)))?;
                        flow.answer(ctx, action, content)
                            .map_err(|e| Halt::Ask(AskError::Wizard(e)))?;
                        continue;
                    }
                    let sent = digest.clone();
                    let asked = self.asked(key, digest, "elicitation/create", &sent, || {
                        Params::of(&request.params())
                    })?;
                    return self.suspend(
                        Pending {
                            wizard: Some(flow.into_state()),
                            ..Pending::new(index)
                        },
                        vec![asked],
                    );
                }
            }
        }
    }

    fn poll<W: Wizard>(&self, flow: &mut Flow<W>, ctx: &W::Context) -> Result<Poll<W>, Halt> {
        let revision = self.revision.unwrap_or(Revision::V2025_06_18);
        flow.poll(ctx, revision)
            .map_err(|e| Halt::Ask(AskError::Wizard(e)))
    }

    /// Sends the user to `url` (URL-mode elicitation) for what a form must not ask: a
    /// sign-in, a payment, an API key. On 2025-11-25 the request carries a fresh
    /// `elicitationId` (see [`notify_url_complete`](Self::notify_url_complete)); on
    /// 2026-07-28 it has none.
    pub async fn ask_url(&mut self, message: &str, url: &str) -> Result<UrlAnswer, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        let check = |result: &Value| -> Result<UrlAnswer, AnswerError> {
            let (action, _) = split_result(result)?;
            Ok(UrlAnswer {
                action,
                elicitation_id: result
                    .get("elicitationId")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
        };
        if let Some(logged) = self.logged(index) {
            return check(&logged).map_err(replay_error);
        }
        self.require("url")?;
        let mut params = Map::new();
        params.insert("mode".into(), "url".into());
        params.insert("message".into(), message.into());
        params.insert("url".into(), url.into());
        let key = format!("url{index}");
        if self.task.is_some() {
            // 2026-07-28: no `elicitationId`, as in rounds.
            let result = self
                .push(&key, "elicitation/create", Params::of(&params))
                .await?;
            return check(&result).map_err(|e| AskError::Answer(e).into());
        }
        if self.mrtr.is_none() {
            let id = new_elicitation_id();
            params.insert("elicitationId".into(), id.clone().into());
            let result = self
                .push(&key, "elicitation/create", Params::of(&params))
                .await?;
            let mut answer = check(&result).map_err(AskError::Answer)?;
            answer.elicitation_id = Some(id);
            return Ok(answer);
        }
        let params = Params::of(&params);
        let digest = question_digest("elicitation/create", &params);
        if let Some(result) = self.response(index, &key, &digest) {
            let answer = check(&result).map_err(AskError::Answer)?;
            self.log(result_value(answer.action, None));
            return Ok(answer);
        }
        let sent = digest.clone();
        let asked = self.asked(key, digest, "elicitation/create", &sent, || params)?;
        self.suspend(Pending::new(index), vec![asked])
    }

    /// Tells the client that the URL-mode elicitation `elicitation_id` is complete
    /// (`notifications/elicitation/complete`, 2025-11-25). Does nothing on other
    /// revisions, which have no such notification.
    pub async fn notify_url_complete(&self, elicitation_id: &str) -> Result<(), AskError> {
        if self.revision != Some(Revision::V2025_11_25) {
            return Ok(());
        }
        let notification = CustomNotification::new(
            "notifications/elicitation/complete",
            Some(serde_json::json!({ "elicitationId": elicitation_id })),
        );
        self.peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .map_err(peer_error)
    }

    /// The `-32042` error of 2025-11-25 that ends a request which cannot go on until
    /// the user completes a URL-mode elicitation. `None` on other revisions (2026-07-28
    /// removed the error: use [`ask_url`](Self::ask_url) there).
    pub fn url_required_error(&self, message: &str, url: &str) -> Option<(McpError, String)> {
        if self.revision != Some(Revision::V2025_11_25) {
            return None;
        }
        let id = new_elicitation_id();
        let error = McpError::new(
            URL_ELICITATION_REQUIRED,
            message.to_owned(),
            Some(serde_json::json!({
                "elicitations": [{
                    "mode": "url",
                    "message": message,
                    "url": url,
                    "elicitationId": id,
                }]
            })),
        );
        Some((error, id))
    }

    /// Any other input request of 2026-07-28 (`sampling/createMessage`, `roots/list`,
    /// or an elicitation built by hand): the client's raw result, in rounds or in a
    /// task. Push mode has no such thing: there it is [`AskError::Unsupported`].
    pub async fn input(&mut self, method: &str, params: Value) -> Result<Value, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        if let Some(logged) = self.logged(index) {
            return Ok(logged);
        }
        if self.task.is_some() {
            return self
                .push(&format!("input{index}"), method, Params::of(&params))
                .await;
        }
        if self.mrtr.is_none() {
            return Err(AskError::Unsupported {
                mode: "input",
                revision: self.revision,
            }
            .into());
        }
        let key = format!("input{index}");
        let params = Params::of(&params);
        let digest = question_digest(method, &params);
        if let Some(result) = self.response(index, &key, &digest) {
            self.log(result.clone());
            return Ok(result);
        }
        let sent = digest.clone();
        let asked = self.asked(key, digest, method, &sent, || params)?;
        self.suspend(Pending::new(index), vec![asked])
    }

    /// Several questions at once: on 2026-07-28 they travel in **one** `input_required`
    /// round (a form, a sampling request and a roots request side by side), and a task
    /// waits on all of them at once (the client may answer them one by one); in push
    /// mode they are sent one after the other. Answers come back in the order asked.
    ///
    /// A form's answer is validated like [`ask`](Self::ask)'s (an invalid one is asked
    /// again, with the problems above its message, up to the attempts); a
    /// `sampling/createMessage` or `roots/list` needs the client's capability for it
    /// (`sampling` or `roots` in [`client_capabilities`](Self::client_capabilities),
    /// else [`AskError::Unsupported`]); other requests are carried as they are.
    ///
    /// ```no_run
    /// # use elicit_rmcp::{Halt, Input, Session};
    /// # use elicit_core::{Elicit, Elicitation};
    /// # use serde::Deserialize;
    /// # use serde_json::json;
    /// #[derive(Elicit, Deserialize)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// # async fn body(s: &mut Session) -> Result<(), Halt> {
    /// let sampling = json!({
    ///     "messages": [{"role": "user", "content": {"type": "text", "text": "Say hello"}}],
    ///     "maxTokens": 50
    /// });
    /// let mut answers = s
    ///     .inputs(vec![
    ///         Input::form::<Name>("user_name", "What is your name?"),
    ///         Input::request("greeting", "sampling/createMessage", sampling),
    ///     ])
    ///     .await?
    ///     .into_iter();
    /// let name = answers.next().unwrap().typed::<Name>()?;
    /// let greeting = answers.next().unwrap().into_value();
    /// # let _ = (name, greeting);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn inputs(&mut self, inputs: Vec<Input<'_>>) -> Result<Vec<InputAnswer>, Halt> {
        self.redeem().await?;
        let index = self.next_index();
        if let Some(Value::Array(logged)) = self.logged(index) {
            if logged.len() != inputs.len() {
                return Err(replay_error(AnswerError::Malformed(
                    "the answers of a batch do not match its questions",
                )));
            }
            return inputs
                .iter()
                .zip(logged)
                .map(|(input, result)| self.read_input(input, result).map_err(replay_error))
                .collect();
        }
        let revision = self.revision.unwrap_or(Revision::V2025_06_18);
        let mut prepared = Vec::with_capacity(inputs.len());
        for input in &inputs {
            prepared.push(match input {
                Input::Form { message, form, .. } => {
                    let revision = self.require("form")?;
                    let schema = form.requested_schema(revision).map_err(AskError::Schema)?;
                    (
                        "elicitation/create",
                        form_params(revision, message, None, &schema),
                        Some(schema),
                    )
                }
                Input::Request { method, params, .. } => {
                    self.require_request(method)?;
                    (*method, Params::of(params), None)
                }
            });
        }
        if self.mrtr.is_none() {
            let this = &*self;
            let asks =
                inputs
                    .iter()
                    .zip(prepared)
                    .map(|(input, (method, params, schema))| async move {
                        Ok(match input {
                            Input::Form {
                                key, message, form, ..
                            } => {
                                let Some(schema) = schema else {
                                    return Err(Halt::Error(McpError::internal_error(
                                        "a form without its schema",
                                        None,
                                    )));
                                };
                                let params = |problem: Option<&str>| {
                                    form_params(revision, message, problem, &schema)
                                };
                                let answer =
                                    this.push_form(key, form, &params, valid_value).await?;
                                InputAnswer::Form {
                                    action: answer.action(),
                                    content: answer.accepted(),
                                }
                            }
                            Input::Request { key, .. } => {
                                InputAnswer::Value(this.push(key, method, params).await?)
                            }
                        })
                    });
            if self.task.is_some() {
                // All at once: a task waits on every question in one `tasks/get`.
                return futures_util::future::join_all(asks)
                    .await
                    .into_iter()
                    .collect();
            }
            let mut answers = Vec::with_capacity(inputs.len());
            for ask in asks {
                answers.push(ask.await?);
            }
            return Ok(answers);
        }
        // 2026-07-28: answers of earlier rounds, then this retry's.
        let mut failed = match self.mrtr.as_ref().and_then(|m| m.saved.pending.as_ref()) {
            Some(p) if p.index == index => p.failed,
            _ => 0,
        };
        let mut answered = self.take_pending_answered(index);
        let mut missing = Vec::new();
        let mut invalid = false;
        for (input, (method, params, schema)) in inputs.iter().zip(prepared) {
            let key = input.key();
            if answered.contains_key(key) {
                continue;
            }
            let mut problem = None;
            let digest = question_digest(method, &params);
            if let Some(result) = self.response(index, key, &digest) {
                match self.read_input(input, result) {
                    Ok(answer) => {
                        answered.insert(key.to_owned(), answer.into_result());
                        continue;
                    }
                    Err(AnswerError::Invalid(e)) if failed + 1 < self.attempts => {
                        invalid = true;
                        problem = Some(e.to_string());
                    }
                    Err(e) => return Err(AskError::Answer(e).into()),
                }
            }
            let params = match (input, problem, schema) {
                (Input::Form { message, .. }, Some(problem), Some(schema)) => {
                    form_params(revision, message, Some(&problem), &schema)
                }
                _ => params,
            };
            let sent = question_digest(method, &params);
            missing.push(self.asked(key.to_owned(), digest, method, &sent, || params)?);
        }
        if missing.is_empty() {
            let mut results = Vec::with_capacity(inputs.len());
            let mut answers = Vec::with_capacity(inputs.len());
            for input in &inputs {
                let result = answered.remove(input.key()).unwrap_or(Value::Null);
                answers.push(
                    self.read_input(input, result.clone())
                        .map_err(AskError::Answer)?,
                );
                results.push(result);
            }
            self.log(Value::Array(results));
            return Ok(answers);
        }
        if invalid {
            failed += 1;
        }
        self.suspend(
            Pending {
                failed,
                answered,
                ..Pending::new(index)
            },
            missing,
        )
    }

    /// Reads one answer of a batch.
    fn read_input(&self, input: &Input<'_>, result: Value) -> Result<InputAnswer, AnswerError> {
        match input {
            Input::Form { form, .. } => {
                let answer = self.check(form, &result, valid_value)?;
                Ok(InputAnswer::Form {
                    action: answer.action(),
                    content: answer.accepted(),
                })
            }
            Input::Request { .. } if result.is_object() => Ok(InputAnswer::Value(result)),
            Input::Request { .. } => Err(AnswerError::Malformed("the result is not an object")),
        }
    }

    fn require_request(&self, method: &str) -> Result<(), AskError> {
        let declared =
            |has: fn(&ClientCapabilities) -> bool| self.capabilities.as_ref().is_some_and(has);
        let (mode, ok) = match method {
            "sampling/createMessage" => ("sampling", declared(|c| c.sampling.is_some())),
            "roots/list" => ("roots", declared(|c| c.roots.is_some())),
            "elicitation/create" => ("form", self.mode_supported("form")),
            _ => ("", true),
        };
        if ok {
            Ok(())
        } else {
            Err(AskError::Unsupported {
                mode,
                revision: self.revision,
            })
        }
    }

    fn take_pending_answered(&mut self, index: usize) -> BTreeMap<String, Value> {
        match self.mrtr.as_mut().and_then(|m| m.saved.pending.as_mut()) {
            Some(p) if p.index == index => std::mem::take(&mut p.answered),
            _ => BTreeMap::new(),
        }
    }

    /// Turns a tool body's result into the `tools/call` response: the result, an
    /// `input_required` result with the sealed state, or the error. For a hand-written
    /// `call_tool`; tools routed by [`Tools`] return their [`Asked`] result as is.
    pub fn finish(
        &self,
        result: Result<CallToolResult, Halt>,
    ) -> Result<CallToolResponse, McpError> {
        match result {
            Ok(done) => Ok(CallToolResponse::Complete(done)),
            Err(halt) => halt.into_response(),
        }
    }

    /// [`finish`](Self::finish) for a `prompts/get`.
    pub fn finish_prompt(
        &self,
        result: Result<GetPromptResult, Halt>,
    ) -> Result<GetPromptResponse, McpError> {
        match result {
            Ok(done) => Ok(GetPromptResponse::Complete(done)),
            Err(halt) => match halt.into_response()? {
                CallToolResponse::InputRequired(r) => Ok(GetPromptResponse::InputRequired(r)),
                _ => Err(McpError::internal_error(
                    "a prompt cannot go on as a task",
                    None,
                )),
            },
        }
    }

    fn next_index(&mut self) -> usize {
        let index = self.cursor;
        self.cursor += 1;
        index
    }

    /// The logged answer of the question at `index`, when an earlier round has it.
    fn logged(&self, index: usize) -> Option<Value> {
        self.mrtr.as_ref()?.saved.log.get(index).cloned()
    }

    /// The logged final state of the wizard at `index`, when an earlier round has it,
    /// read from the logged value in place.
    fn logged_wizard(&self, index: usize) -> Result<Option<WizardState>, Halt> {
        let Some(logged) = self.mrtr.as_ref().and_then(|m| m.saved.log.get(index)) else {
            return Ok(None);
        };
        WizardState::deserialize(logged)
            .map(Some)
            .map_err(|e| replay_error(AnswerError::Parse(e)))
    }

    fn log(&mut self, value: Value) {
        if let Some(m) = &mut self.mrtr {
            m.saved.log.push(value);
            m.saved.pending = None;
        }
    }

    /// The answer to the question `key` of the question at `index`, when this round
    /// asked it (recorded in the state, with the same digest) — or, opted in, in a
    /// first call. Answers to anything else are ignored.
    ///
    /// A question of the round is read once (only the pending question was asked, and
    /// a batch's keys are distinct), so its answer is taken out of the retry's; a
    /// first call's answers may be read by more than one question, and stay.
    fn response(&mut self, index: usize, key: &str, digest: &str) -> Option<Value> {
        let m = self.mrtr.as_mut()?;
        match &m.saved.pending {
            Some(p) if p.index == index => {
                if p.asked.get(key).is_some_and(|d| d == digest) {
                    m.responses.remove(key)
                } else {
                    None
                }
            }
            _ if m.first_round => m.responses.get(key).cloned(),
            _ => None,
        }
    }

    /// The failed answers and last problem of the question at `index`, while it is
    /// still the question whose digest is `digest` (a changed one starts over).
    fn pending_attempt(&self, index: usize, digest: &str) -> (u32, Option<String>) {
        match self.mrtr.as_ref().and_then(|m| m.saved.pending.as_ref()) {
            Some(p) if p.index == index && p.asked.values().any(|d| d == digest) => {
                (p.failed, p.problem.clone())
            }
            _ => (0, None),
        }
    }

    fn take_pending_wizard(&mut self, index: usize) -> Option<WizardState> {
        let m = self.mrtr.as_mut()?;
        match &mut m.saved.pending {
            Some(p) if p.index == index => p.wizard.take(),
            _ => None,
        }
    }

    fn suspend<T>(
        &mut self,
        mut pending: Pending,
        requests: Vec<RoundQuestion>,
    ) -> Result<T, Halt> {
        let mut out = InputRequests::new();
        for RoundQuestion {
            key,
            digest,
            request,
        } in requests
        {
            pending.asked.insert(key.clone(), digest);
            out.insert(key, request);
        }
        let Some(m) = &mut self.mrtr else {
            return Err(Halt::Error(McpError::internal_error(
                "an input request outside a 2026-07-28 call",
                None,
            )));
        };
        m.saved.pending = Some(pending);
        m.saved.round = elicit_core::__private::random_id();
        let token = m
            .sealer
            .seal(&m.binding, &m.saved)
            .map_err(|e| Halt::Error(McpError::internal_error(e.to_string(), None)))?;
        Err(Halt::InputRequired(Box::new(InputRequired {
            result: InputRequiredResult::new(Some(out), Some(token)),
            reply: self.reply.clone(),
        })))
    }

    /// Sends one request to the client and waits for its answer, the timeout, or the
    /// cancellation of this call, whichever comes first. A cancelled call withdraws its
    /// question (`notifications/cancelled` to the client): its result will be unused,
    /// so the form should not stay on the user's screen, and nothing more is asked.
    async fn push(&self, key: &str, method: &str, params: Params) -> Result<Value, Halt> {
        if self.call.ct.is_cancelled() {
            return Err(Halt::Ask(AskError::Cancelled));
        }
        if let Some(task) = &self.task {
            return self.ask_in_task(task, key, method, params).await;
        }
        let request = server_request(method, &params)?;
        let mut options = PeerRequestOptions::no_options();
        options.timeout = self.timeout;
        let handle = self
            .peer
            .send_request_with_option(request, options)
            .await
            .map_err(peer_error)?;
        let id = handle.id.clone();
        let answered = first_of(
            std::pin::pin!(handle.await_response()),
            std::pin::pin!(self.call.ct.cancelled()),
        )
        .await;
        let Some(response) = answered else {
            let withdraw = CancelledNotificationParam::new(
                Some(id),
                Some("the tool call was cancelled".to_owned()),
            );
            // Best effort: the connection may be gone already.
            let _ = self.peer.notify_cancelled(withdraw).await;
            return Err(Halt::Ask(AskError::Cancelled));
        };
        let response = response.map_err(peer_error)?;
        serde_json::to_value(response)
            .map_err(|e| Halt::Ask(AskError::Peer(format!("unreadable result: {e}"))))
    }
}

impl Session {
    /// Asks in the task (`key` in its `inputRequests`) and waits for the answer that
    /// `tasks/update` brings, the timeout, or the task's cancellation, which withdraws
    /// the question. A question that timed out stays listed until the task ends.
    async fn ask_in_task(
        &self,
        task: &TaskContext,
        key: &str,
        method: &str,
        params: Params,
    ) -> Result<Value, Halt> {
        let request = build_input_request(method, &params).map_err(|e| {
            Halt::Error(McpError::internal_error(
                format!("cannot build the {method} input request: {e}"),
                None,
            ))
        })?;
        let answer = task.request_input(key, request);
        let answered = match self.timeout {
            Some(timeout) => tokio::time::timeout(timeout, answer)
                .await
                .map_err(|_| Halt::Ask(AskError::Timeout(timeout)))?,
            None => answer.await,
        };
        answered.map_err(|exit| match exit {
            TaskExit::Cancelled => Halt::Ask(AskError::Cancelled),
            TaskExit::Error(e) => Halt::Error(e),
        })
    }
}

/// The key of the `attempt`-th asking of the question `key` in a task, where each key
/// is used once: `key`, then `key.1`, `key.2`, ...
fn attempt_key(key: &str, attempt: u32) -> String {
    if attempt == 0 {
        key.to_owned()
    } else {
        format!("{key}.{attempt}")
    }
}

/// The output of `a`, or `None` when `b` completes first (a two-way select without
/// an async runtime of our own).
async fn first_of<A: Future, B: Future>(
    mut a: Pin<&mut A>,
    mut b: Pin<&mut B>,
) -> Option<A::Output> {
    std::future::poll_fn(|cx| {
        if let std::task::Poll::Ready(output) = a.as_mut().poll(cx) {
            return std::task::Poll::Ready(Some(output));
        }
        match b.as_mut().poll(cx) {
            std::task::Poll::Ready(_) => std::task::Poll::Ready(None),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    })
    .await
}

/// A form's validated answer in a batch, read as `T`.
fn typed<T: Elicit>(action: Action, content: Option<Value>) -> Result<Elicitation<T>, Halt> {
    Ok(match action {
        Action::Accept => {
            let content = content.unwrap_or(Value::Object(Map::new()));
            let value = read_valid(&content).map_err(|e| Halt::Ask(AskError::Answer(e)))?;
            Elicitation::Accept(value)
        }
        Action::Decline => Elicitation::Decline,
        Action::Cancel => Elicitation::Cancel,
    })
}

fn peer_error(e: ServiceError) -> AskError {
    match e {
        ServiceError::Timeout { timeout } => AskError::Timeout(timeout),
        ServiceError::Cancelled { .. } | ServiceError::TransportClosed => AskError::Cancelled,
        other => AskError::Peer(other.to_string()),
    }
}

fn replay_error(e: AnswerError) -> Halt {
    Halt::Error(McpError::invalid_params(
        format!(
            "the answers in requestState no longer fit this tool: {e}; call it again without requestState"
        ),
        None,
    ))
}

fn new_elicitation_id() -> String {
    elicit_core::__private::random_id()
}

/// The push-mode request for `method` with `params`, carried as it is (a 2025-06-18
/// elicitation without `mode`, as that revision writes it).
fn server_request(method: &str, params: &Params) -> Result<ServerRequest, Halt> {
    let params = serde_json::from_str(&params.0).map_err(|e| {
        Halt::Error(McpError::internal_error(
            format!("cannot build the {method} request: {e}"),
            None,
        ))
    })?;
    Ok(ServerRequest::CustomRequest(CustomRequest::new(
        method,
        Some(params),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use elicit_core::{Field, FieldKind};

    /// The text of a question lists the form's fields in declaration order, whatever the
    /// names sort to and whatever serde_json's features.
    #[test]
    fn question_text_keeps_declaration_order() {
        let form = Form::new(vec![
            Field::new("zeta", true, FieldKind::Boolean { default: None }),
            Field::new("alpha", false, FieldKind::Boolean { default: None }),
        ])
        .unwrap();
        for revision in [Revision::V2025_06_18, Revision::V2026_07_28] {
            let schema = form.requested_schema(revision).unwrap();
            let text = form_params(revision, "Which?", Some("Try again"), &schema).0;
            let (zeta, alpha) = (
                text.find("\"zeta\"").unwrap(),
                text.find("\"alpha\"").unwrap(),
            );
            assert!(zeta < alpha, "{text}");
            assert!(
                text.contains("\"message\":\"Try again\\n\\nWhich?\""),
                "{text}"
            );
            assert_eq!(
                text.contains("\"mode\":\"form\""),
                revision >= Revision::V2025_11_25
            );
            // rmcp's typed request, read from the text, keeps the order too.
            let request = build_input_request("elicitation/create", &Params(text)).unwrap();
            let InputRequest::Elicitation(request) = request else {
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
}
