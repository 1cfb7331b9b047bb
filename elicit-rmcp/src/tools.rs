//! Asking from rmcp's `#[tool]` methods: [`Tools`] routes the calls, and a method
//! takes a [`Session`] like any other extractor.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use ::rmcp::ErrorData as McpError;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::tool::{ToolCallContext, ToolRouter};
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CreateTaskResult, ErrorCode,
    GetTaskParams, GetTaskResult, Tool, UpdateTaskParams,
};
use ::rmcp::service::{MaybeSend, RequestContext, RoleServer, SubscriptionContext};
use ::rmcp::task_manager::TaskExit;
use tokio_util::sync::CancellationToken;

use elicit_core::seal::Binding;

use crate::elicitor::{Elicitor, Opening};
use crate::principal::principal_of;
use crate::session::Session;
use crate::tasks::{Durable, RENEW, Renewal, Run, RunEnd, TaskSupport, Tasks, kept_meta};
use crate::wire::{declared, revision_of, routed, tasks_required};

/// A server's tools (an rmcp [`ToolRouter`]) with the [`Elicitor`] their questions go
/// through. It routes like the `ToolRouter` it holds, and lets a `#[tool]` method take
/// a [`Session`] and return [`Asked`](crate::Asked): on 2026-07-28 a question ends the
/// call with an `input_required` result whose state is sealed, on earlier revisions it
/// is sent and awaited in place, from the one method body.
///
/// Name it as the router of rmcp's `#[tool_handler]`:
///
/// ```
/// use elicit_rmcp::{Asked, Elicitor, Session, Tools};
/// use elicit_core::seal::Keyring;
/// use elicit_core::{Elicit, Elicitation};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use serde::Deserialize;
///
/// #[derive(Elicit, Deserialize)]
/// struct Approve {
///     #[elicit(title = "Approve the purge?")]
///     approve: bool,
/// }
///
/// #[derive(Clone)]
/// struct Purge {
///     tools: Tools<Purge>,
/// }
///
/// #[tool_router]
/// impl Purge {
///     fn new(elicitor: Elicitor) -> Purge {
///         Purge { tools: Tools::new(elicitor, Self::tool_router()) }
///     }
///
///     #[tool(description = "Deletes old logs, once a person approves")]
///     async fn purge(&self, mut s: Session) -> Asked<CallToolResult> {
///         let text = match s.ask::<Approve>("Really delete 1,284 logs?").await? {
///             Elicitation::Accept(a) if a.approve => "[DELETED]",
///             Elicitation::Accept(_) | Elicitation::Decline => "[BLOCKED]",
///             Elicitation::Cancel => "[CANCELLED]",
///         };
///         Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
///     }
/// }
///
/// #[tool_handler(router = self.tools)]
/// impl ServerHandler for Purge {}
///
/// let server = Purge::new(Elicitor::new(Keyring::generate()));
/// assert_eq!(server.tools.list_all()[0].name, "purge");
/// ```
///
/// A method that takes a `Session` must be routed by `Tools`; routed by a bare
/// `ToolRouter`, its calls fail with an internal error that says so. The tool
/// arguments keep coming from rmcp's `Parameters<T>`; the state of 2026-07-28 is bound
/// to them, to the tool's name and to the request's [`Principal`](crate::Principal).
pub struct Tools<S> {
    router: ToolRouter<S>,
    elicitor: Elicitor,
    /// The tools that run as tasks, and how.
    task_support: Arc<HashMap<String, TaskSupport>>,
    /// Starts a routed call as a task, and runs a task kept in a store again (set with
    /// the first task support: both need a server that can be cloned into the task).
    spawn: Option<Spawn<S>>,
    resume: Option<Resume<S>>,
}

/// Starts the call as a task of the server's [`Tasks`].
type Spawn<S> = for<'a> fn(
    &'a Tools<S>,
    &'a Tasks,
    ToolCallContext<'a, S>,
) -> Pin<
    Box<dyn Future<Output = Result<CreateTaskResult, McpError>> + Send + 'a>,
>;

/// Runs the body of a task kept in a store, in the background.
type Resume<S> = fn(&Tools<S>, &S, Run, RequestContext<RoleServer>);

impl<S> Clone for Tools<S> {
    fn clone(&self) -> Self {
        Tools {
            router: self.router.clone(),
            elicitor: self.elicitor.clone(),
            task_support: self.task_support.clone(),
            spawn: self.spawn,
            resume: self.resume,
        }
    }
}

impl<S> std::fmt::Debug for Tools<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tools")
            .field("router", &self.router)
            .field("elicitor", &self.elicitor)
            .field("task_support", &self.task_support)
            .finish()
    }
}

impl<S: MaybeSend + 'static> Tools<S> {
    /// The tools of `router`, asking through `elicitor`.
    pub fn new(elicitor: Elicitor, router: ToolRouter<S>) -> Tools<S> {
        Tools {
            router,
            elicitor,
            task_support: Arc::default(),
            spawn: None,
            resume: None,
        }
    }

    /// Calls the tool `call` names: what the `call_tool` of `#[tool_handler]` does.
    /// A tool with [task support](Self::with_task_support) called by a client that
    /// declared the Tasks extension is answered with a task, its body running on.
    pub async fn call(
        &self,
        mut call: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, McpError> {
        let support = self
            .task_support
            .get(call.name.as_ref())
            .copied()
            .unwrap_or_default();
        // Read once: the session opened below takes what was read here.
        let read = (support != TaskSupport::Forbidden).then(|| declared(&call.request_context));
        if let Some(read) = &read {
            match (support, read.tasks) {
                (TaskSupport::Required, false) => return Err(tasks_required()),
                (_, true) => {
                    let (Some(tasks), Some(spawn)) = (&self.elicitor.tasks, self.spawn) else {
                        return Err(McpError::internal_error(
                            format!(
                                "the tool {:?} runs as a task, but the server keeps no tasks: \
                                 give its Elicitor a Tasks (Elicitor::with_tasks)",
                                call.name
                            ),
                            None,
                        ));
                    };
                    return Ok(CallToolResponse::Task(spawn(self, tasks, call).await?));
                }
                _ => {}
            }
        }
        let ctx = &call.request_context;
        let principal = principal_of(ctx).to_owned();
        // A 2026-07-28 state is bound; so is a pushed call where pages may be asked by a
        // link, found again by the binding when the tool is called again.
        let bound =
            self.elicitor.pages().is_some() || revision_of(ctx).is_some_and(|r| r.has_rounds());
        let binding = bound.then(|| {
            let arguments = call.arguments.as_ref();
            Binding::for_arguments(&principal, "tools/call", &call.name, arguments)
        });
        let opening = Opening {
            principal,
            binding,
            request_state: call.request_state.take(),
            responses: call.input_responses.take(),
            task: None,
            declared: read,
        };
        call.request_context
            .extensions
            .insert(Routed::new(&self.elicitor, opening));
        // On the heap: the routed call is large, and this future is moved with every
        // request rmcp spawns; a pointer moves instead.
        Box::pin(routed(self.router.call(call))).await
    }

    /// `tasks/get`, for the server's `ServerHandler::get_task`: the task, with its
    /// questions while it waits for input and its result or error once it ended;
    /// `-32602` for an id that is unknown, expired, or another principal's. Without
    /// [`Elicitor::with_tasks`] the method is not found.
    pub async fn get_task(
        &self,
        params: GetTaskParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.tasks("tasks/get")?.get_task(&params, &ctx).await
    }

    /// `tasks/update`, for the server's `ServerHandler::update_task`: hands answers to
    /// the questions the task waits on (answers to unknown or already answered keys
    /// are ignored); the task goes on once every question it waits on has its
    /// answer. A task kept in a store ([`Tasks::with_task_store`]) goes on here, its body
    /// run by a clone of `server`.
    pub async fn update_task(
        &self,
        server: &S,
        params: UpdateTaskParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let run = self
            .tasks("tasks/update")?
            .update_task(params, &ctx)
            .await?;
        if let (Some(run), Some(resume)) = (run, self.resume) {
            resume(self, server, run, ctx);
        }
        Ok(())
    }

    /// `tasks/cancel`, for the server's `ServerHandler::cancel_task`: withdraws the
    /// questions the task waits on and stops it (it ends `cancelled`); acknowledged for
    /// a task that already ended.
    pub async fn cancel_task(
        &self,
        params: CancelTaskParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks("tasks/cancel")?.cancel_task(&params, &ctx).await
    }

    /// `subscriptions/listen`, for the server's `ServerHandler::listen`, with `taskIds`
    /// (read from the request by the HTTP layer,
    /// [`service_middleware`](crate::http::service_middleware), since rmcp's filter has no
    /// such field): sends `notifications/tasks` with the whole task, as `tasks/get` gives
    /// it, whenever one of the listed tasks of the caller's principal changes (its status,
    /// its status message, its questions), and the state of each at once; another
    /// principal's ids and unknown ones are ignored, as `tasks/get` would not tell them
    /// apart (ids of tasks that do not exist when the subscription starts are never
    /// watched). A task told ended is not watched any more. Runs until the client ends
    /// the subscription, or every task it watches was told ended. Changes are looked for
    /// every 50 ms (tasks kept in a store that announces its changes: at each
    /// announcement, and every second). A principal may hold 8 such subscriptions open at
    /// once; past that, a JSON-RPC error (`-32600`). Without tasks, the subscription is
    /// held open and gets nothing.
    pub async fn listen_tasks(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        match &self.elicitor.tasks {
            Some(tasks) => tasks.listen(subscription).await,
            None => {
                subscription.cancelled().await;
                Ok(())
            }
        }
    }

    fn tasks(&self, method: &str) -> Result<&Tasks, McpError> {
        self.elicitor.tasks.as_ref().ok_or_else(|| {
            McpError::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("{method}: this server runs no tasks"),
                None,
            )
        })
    }

    /// Every enabled tool, for `tools/list`.
    pub fn list_all(&self) -> Vec<Tool> {
        self.router.list_all()
    }

    /// The tool named `name`, when it is there and enabled.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.router.get(name)
    }
}

impl<S: Clone + Send + Sync + 'static> Tools<S> {
    /// Runs the tool `name` as a task (the Tasks extension, 2026-07-28) as `support`
    /// says: [`TaskSupport::Optional`] for a client that declared the extension,
    /// [`TaskSupport::Required`] for those only (any other gets `-32021`). The body is
    /// the same: its [`Session`] then asks in the task. The tasks are kept in the
    /// [`Elicitor`]'s [`Tasks`] ([`Elicitor::with_tasks`]); the server is cloned into
    /// each task.
    pub fn with_task_support(mut self, name: &str, support: TaskSupport) -> Tools<S> {
        Arc::make_mut(&mut self.task_support).insert(name.to_owned(), support);
        self.spawn = Some(spawn_call::<S>);
        self.resume = Some(resume_run::<S>);
        self
    }
}

/// Starts the routed `call` as a task of `tasks`: a clone of the server runs the tool
/// method in the task, its [`Session`] asking there; with a store, the task's record
/// is created there and its body runs up to its first question.
fn spawn_call<'a, S: Clone + Send + Sync + 'static>(
    tools: &'a Tools<S>,
    tasks: &'a Tasks,
    call: ToolCallContext<'a, S>,
) -> Pin<Box<dyn Future<Output = Result<CreateTaskResult, McpError>> + Send + 'a>> {
    let service = call.service.clone();
    let mut params = CallToolRequestParams::new(call.name);
    params.arguments = call.arguments;
    let mut ctx = call.request_context;
    let principal = principal_of(&ctx).to_owned();
    if let Some(durable) = tasks.durable() {
        return Box::pin(async move {
            let (created, run) = durable
                .create(&principal, &params.name, params.arguments, kept_meta(&ctx))
                .await?;
            run_stored(tools, &durable, service, run, ctx);
            Ok(created)
        });
    }
    let router = tools.router.clone();
    let elicitor = tools.elicitor.clone();
    let owner = principal.clone();
    let started = tasks.spawn(&owner, move |task, token| {
        // The request ends now: the task's own token stands for its cancellation.
        ctx.ct = token.clone();
        let opening = Opening {
            principal,
            task: Some((task, token)),
            ..Opening::default()
        };
        ctx.extensions.insert(Routed::new(&elicitor, opening));
        async move {
            let call = ToolCallContext::new(&service, params, ctx);
            match router.call(call).await {
                Ok(CallToolResponse::Complete(result)) => Ok(result),
                Ok(_) => Err(TaskExit::Error(McpError::internal_error(
                    "a task cannot answer with input_required or another task",
                    None,
                ))),
                Err(e) => Err(TaskExit::Error(e)),
            }
        }
    });
    Box::pin(std::future::ready(started))
}

/// Runs the body of a task kept in a store again, after `tasks/update` gave the last
/// answer it waited for.
fn resume_run<S: Clone + Send + Sync + 'static>(
    tools: &Tools<S>,
    server: &S,
    run: Run,
    ctx: RequestContext<RoleServer>,
) {
    if let Some(durable) = tools.elicitor.tasks.as_ref().and_then(Tasks::durable) {
        run_stored(tools, &durable, server.clone(), run, ctx);
    }
}

/// Runs the body of the task of `run` in the background, in rounds: as the call it
/// was, from the top, the answers so far replayed from the state of its record, up to
/// its next question or its end, which the record then holds.
fn run_stored<S: Clone + Send + Sync + 'static>(
    tools: &Tools<S>,
    durable: &Durable,
    service: S,
    run: Run,
    mut ctx: RequestContext<RoleServer>,
) {
    let token = CancellationToken::new();
    ctx.ct = token.clone();
    let status = Arc::new(Mutex::new(None));
    let params = replayed(tools, &run, &mut ctx, status.clone());
    let router = tools.router.clone();
    let durable = durable.clone();
    let running = durable.running(&run.id, token.clone());
    // A question's state opens this long after it is sealed, on any replica.
    let settings = tools.elicitor.engine.settings();
    let answer_within = settings.state_ttl.saturating_add(settings.clock_skew);
    tokio::spawn(async move {
        let _running = running;
        let mut run = run;
        let call = ToolCallContext::new(&service, params, ctx);
        let response = leased(&durable, &mut run, &token, routed(router.call(call))).await;
        let end = run_end(response, &token, answer_within);
        let message = status.lock().unwrap_or_else(|e| e.into_inner()).take();
        durable.finish(run, end, message).await;
    });
}

/// Makes `ctx` the request of the call of `run` as it was (the client as it was at the
/// call, whatever request brought the answers), its session opened with the state and
/// answers of the record and its status message going to `status`; and returns the
/// call's params.
fn replayed<S>(
    tools: &Tools<S>,
    run: &Run,
    ctx: &mut RequestContext<RoleServer>,
    status: Arc<Mutex<Option<String>>>,
) -> CallToolRequestParams {
    let record = &run.record;
    for (key, value) in &record.meta {
        ctx.meta.0.0.insert(key.clone(), value.clone());
    }
    let arguments = record.arguments.as_ref();
    let binding = Binding::for_arguments(&record.owner, "tools/call", &record.tool, arguments);
    let opening = Opening {
        principal: record.owner.clone(),
        binding: Some(binding),
        request_state: record.state.clone(),
        responses: Some(record.answers.clone()),
        task: None,
        declared: None,
    };
    let mut routed = Routed::new(&tools.elicitor, opening);
    routed.status = Some(status);
    ctx.extensions.insert(routed);
    let mut params = CallToolRequestParams::new(record.tool.clone());
    params.arguments = record.arguments.clone();
    params
}

/// Runs `body`, the lease of `run` renewed while it runs: a replica that stops lets it
/// lapse. Asked to stop (a cancel on another replica), or no longer the task's run (then
/// what it ends with is not written), it fires `token`.
async fn leased<F: Future>(
    durable: &Durable,
    run: &mut Run,
    token: &CancellationToken,
    body: F,
) -> F::Output {
    let mut body = std::pin::pin!(body);
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + RENEW, RENEW);
    loop {
        tokio::select! {
            response = &mut body => return response,
            _ = renew.tick() => {
                if durable.renew(run).await != Renewal::Held {
                    token.cancel();
                }
            }
        }
    }
}

/// How a run of a stored task ended, from the response of its call: its next questions
/// (to be answered within `answer_within`), its result, cancelled, or failed.
fn run_end(
    response: Result<CallToolResponse, McpError>,
    token: &CancellationToken,
    answer_within: std::time::Duration,
) -> RunEnd {
    let answer_by = std::time::SystemTime::now()
        .checked_add(answer_within)
        .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(u64::MAX, |d| d.as_secs());
    match response {
        Ok(CallToolResponse::InputRequired(asked)) => RunEnd::Asked(
            asked.input_requests.unwrap_or_default(),
            asked.request_state,
            answer_by,
        ),
        Ok(CallToolResponse::Complete(result)) => RunEnd::Completed(result),
        _ if token.is_cancelled() => RunEnd::Cancelled,
        Err(e) => RunEnd::Failed(e),
        Ok(_) => RunEnd::Failed(McpError::internal_error(
            "a task cannot answer with another task",
            None,
        )),
    }
}

/// What a routed call's [`Session`] is opened from, in the request's extensions until
/// the method takes it.
#[derive(Clone)]
struct Routed {
    elicitor: Elicitor,
    opening: Opening,
    /// In a task kept in a store: where the body's status message waits for the
    /// record.
    status: Option<Arc<Mutex<Option<String>>>>,
}

impl Routed {
    fn new(elicitor: &Elicitor, opening: Opening) -> Routed {
        Routed {
            elicitor: elicitor.clone(),
            opening,
            status: None,
        }
    }
}

/// A [`Session`] as an argument of a `#[tool]` method routed by [`Tools`].
impl<S> FromContextPart<ToolCallContext<'_, S>> for Session {
    fn from_context_part(call: &mut ToolCallContext<'_, S>) -> Result<Self, McpError> {
        let Some(routed) = call.request_context.extensions.remove::<Routed>() else {
            return Err(McpError::internal_error(
                format!(
                    "the tool {:?} takes a Session, but its calls are not routed by \
                     elicit_rmcp::Tools (name it as the router of #[tool_handler]); \
                     a Session is taken once per call",
                    call.name
                ),
                None,
            ));
        };
        let mut session = routed
            .elicitor
            .session(&call.request_context, routed.opening)?;
        if let Some(status) = routed.status {
            session.in_stored_task(status);
        }
        Ok(session)
    }
}
