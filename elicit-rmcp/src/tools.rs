//! Asking from rmcp's `#[tool]` methods: [`Tools`] routes the calls, and a method
//! takes a [`Session`] like any other extractor.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use ::rmcp::ErrorData as McpError;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext, ToolRouter};
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CreateTaskResult, ErrorCode,
    GetTaskParams, GetTaskResult, Tool, UpdateTaskParams,
};
use ::rmcp::service::{MaybeSend, RequestContext, RoleServer, SubscriptionContext};
use ::rmcp::task_manager::{TaskContext, TaskExit};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::session::Reply;
use super::tasks::{Durable, RENEW, Renewal, Run, RunEnd, TaskSupport, Tasks, kept_meta};
use super::{Elicitor, Halt, Session, principal_of, revision_of};
use elicit_core::seal::Binding;

/// A server's tools (an rmcp [`ToolRouter`]) with the [`Elicitor`] their questions go
/// through. It routes like the `ToolRouter` it holds, and lets a `#[tool]` method take
/// a [`Session`] and return [`Asked`](super::Asked): on 2026-07-28 a question ends the
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
/// to them, to the tool's name and to the request's [`Principal`](super::Principal).
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
        if support != TaskSupport::Forbidden {
            match (support, Tasks::declared(&call.request_context)) {
                (TaskSupport::Required, false) => return Err(Tasks::required_error()),
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
        // Only a 2026-07-28 state is bound; the arguments are taken back unchanged.
        let binding = revision_of(ctx).filter(|r| r.has_rounds()).map(|_| {
            let args = call
                .arguments
                .take()
                .map(Value::Object)
                .unwrap_or(Value::Null);
            let binding = Binding::new(principal_of(ctx), "tools/call", &call.name, &args);
            if let Value::Object(args) = args {
                call.arguments = Some(args);
            }
            binding
        });
        let reply = Arc::new(Reply::default());
        let opening = Opening {
            elicitor: self.elicitor.clone(),
            binding,
            request_state: call.request_state.take(),
            responses: call.input_responses.take(),
            reply: reply.clone(),
            task: None,
            status: None,
        };
        call.request_context.extensions.insert(opening);
        let response = self.router.call(call).await;
        match (response, reply.take()) {
            // The method returned a `Halt::InputRequired` or `Halt::Task`: its result is
            // the response.
            (Err(_), Some(halted)) => Ok(halted),
            (response, _) => response,
        }
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
    /// answer. A task kept in a store ([`Tasks::with_store`]) goes on here, its body
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

    /// `subscriptions/listen`, for the server's `ServerHandler::listen`: see
    /// [`Tasks::listen`]. Without tasks, the subscription is held open and gets
    /// nothing.
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
    let started = tasks.spawn(&principal, move |task, token| {
        // The request ends now: the task's own token stands for its cancellation.
        ctx.ct = token.clone();
        ctx.extensions.insert(Opening {
            elicitor,
            binding: None,
            request_state: None,
            responses: None,
            reply: Arc::default(),
            task: Some((task, token)),
            status: None,
        });
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
    let record = &run.record;
    let token = CancellationToken::new();
    ctx.ct = token.clone();
    // The client as it was at the call, whatever request brought the answers.
    for (key, value) in &record.meta {
        ctx.meta.0.0.insert(key.clone(), value.clone());
    }
    let arguments = record
        .arguments
        .clone()
        .map(Value::Object)
        .unwrap_or(Value::Null);
    let binding = Binding::new(&record.owner, "tools/call", &record.tool, &arguments);
    let reply = Arc::new(Reply::default());
    let status = Arc::new(Mutex::new(None));
    ctx.extensions.insert(Opening {
        elicitor: tools.elicitor.clone(),
        binding: Some(binding),
        request_state: record.state.clone(),
        responses: Some(record.answers.clone()),
        reply: reply.clone(),
        task: None,
        status: Some(status.clone()),
    });
    let mut params = CallToolRequestParams::new(record.tool.clone());
    params.arguments = record.arguments.clone();
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
        let body = router.call(call);
        let mut body = std::pin::pin!(body);
        // The lease is renewed while the body runs: a replica that stops lets it lapse.
        let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + RENEW, RENEW);
        let response = loop {
            tokio::select! {
                response = &mut body => break response,
                _ = renew.tick() => {
                    // Asked to stop (a cancel on another replica), or no longer the
                    // task's run (then what it ends with is not written).
                    if durable.renew(&mut run).await != Renewal::Held {
                        token.cancel();
                    }
                }
            }
        };
        let answer_by = std::time::SystemTime::now()
            .checked_add(answer_within)
            .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(u64::MAX, |d| d.as_secs());
        let end = match (response, reply.take()) {
            (Err(_), Some(CallToolResponse::InputRequired(asked))) => RunEnd::Asked(
                asked.input_requests.unwrap_or_default(),
                asked.request_state,
                answer_by,
            ),
            (Ok(CallToolResponse::Complete(result)), _) => RunEnd::Completed(result),
            _ if token.is_cancelled() => RunEnd::Cancelled,
            (Err(e), None) => RunEnd::Failed(e),
            _ => RunEnd::Failed(McpError::internal_error(
                "a task cannot answer with another task",
                None,
            )),
        };
        let message = status.lock().unwrap_or_else(|e| e.into_inner()).take();
        durable.finish(run, end, message).await;
    });
}

/// What a routed call's [`Session`] is opened from, in the request's extensions until
/// the method takes it.
#[derive(Clone)]
struct Opening {
    elicitor: Elicitor,
    binding: Option<Binding>,
    request_state: Option<String>,
    responses: Option<::rmcp::model::InputResponses>,
    reply: Arc<Reply>,
    /// On the Tasks channel: the task, and the token its cancellation fires.
    task: Option<(TaskContext, CancellationToken)>,
    /// In a task kept in a store: where the body's status message waits for the
    /// record.
    status: Option<Arc<Mutex<Option<String>>>>,
}

/// A [`Session`] as an argument of a `#[tool]` method routed by [`Tools`].
impl<S> FromContextPart<ToolCallContext<'_, S>> for Session {
    fn from_context_part(call: &mut ToolCallContext<'_, S>) -> Result<Self, McpError> {
        let Some(opening) = call.request_context.extensions.remove::<Opening>() else {
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
        let mut session = opening.elicitor.session(
            &call.request_context,
            opening.binding,
            opening.request_state.as_deref(),
            opening.responses,
            Some(opening.reply),
            opening.task,
        )?;
        if let Some(status) = opening.status {
            session.in_stored_task(status);
        }
        Ok(session)
    }
}

/// What rmcp sends for a `#[tool]` method's [`Halt`]: the error, or, for a method
/// routed by [`Tools`], the `input_required` result.
impl IntoCallToolResult for Halt {
    fn into_call_tool_result(self) -> Result<CallToolResponse, McpError> {
        let (reply, response) = match self {
            Halt::InputRequired(required) => {
                let required = *required;
                (
                    required.reply,
                    CallToolResponse::InputRequired(required.result),
                )
            }
            Halt::Task(task) => {
                let task = *task;
                (task.reply, CallToolResponse::Task(task.result))
            }
            halt => return crate::session::into_response(halt),
        };
        match reply {
            Some(reply) => {
                reply.put(response);
                // Seen by `Tools::call`, which answers with the response instead.
                Err(McpError::internal_error("input required", None))
            }
            None => Err(McpError::internal_error(
                "this tool asked a question on 2026-07-28 or went on as a task, but its \
                 Session was not opened by elicit_rmcp::Tools, so the result cannot \
                 be sent: route the tool by Tools, or answer with Session::finish",
                None,
            )),
        }
    }
}
