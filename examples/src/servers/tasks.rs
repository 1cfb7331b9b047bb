//! The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for an example
//! server: a tool call answered with a task the client polls with `tasks/get`, instead
//! of a result.
//!
//! It is a thin layer over rmcp's [`TaskManager`], which keeps the tasks, runs their
//! work and answers `tasks/get`, `tasks/update` and `tasks/cancel`; rmcp itself gates
//! those methods with `-32021` for a client that did not declare the extension. What is
//! left to a server, and kept here:
//!
//! - advertising the extension (`ServerCapabilities::builder().enable_tasks()`);
//! - deciding, per tool and per request, between a result and a task ([`TaskSupport`],
//!   [`Tasks::decide`]): only a request that declared the extension (in its own `_meta`
//!   on 2026-07-28) may get a task, and a tool that cannot run without one answers
//!   `-32021` with `data.requiredCapabilities`;
//! - sharing one store between every handler instance: a stateless server builds a
//!   handler per request, so the [`TaskManager`] is made once (in `main`) and cloned in.
//!
//! Questions asked from inside a task (`input_required` tasks, answered with
//! `tasks/update`) are not here: they belong to `elicit_core::mcp::Session`, which does
//! not speak the Tasks channel yet (#24). This module is meant to move into the library
//! with that work.
//!
//! Not done yet: tasks are not bound to the request's principal, so with bearer tokens
//! any authenticated client knowing a task id can read or cancel it.

use std::future::Future;
use std::time::Duration;

use elicit_core::Revision;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities, CreateTaskResult,
    GetTaskParams, GetTaskResult, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::TaskOptions;
pub use rmcp::task_manager::{TaskContext, TaskExit, TaskManager};

/// How often a client is told to poll `tasks/get`, in milliseconds.
pub const POLL_INTERVAL_MS: u64 = 200;

/// Whether a tool may run as a task: the server's own policy (SEP-2663 has no per-tool
/// field on the wire; the server alone decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskSupport {
    /// Always answers with a result, even to a client that declared the extension.
    Forbidden,
    /// A task for a client that declared the extension, a result for any other.
    Optional,
    /// Only runs as a task: a client that did not declare the extension gets `-32021`.
    Required,
}

/// How to answer one call: see [`Tasks::decide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Run the work in the call and answer with its result.
    Sync,
    /// Run it as a task ([`Tasks::spawn`]) and answer with the task.
    Task,
}

/// The tasks of a server: a shared [`TaskManager`] (cloning shares it).
#[derive(Clone, Default)]
pub struct Tasks {
    manager: TaskManager,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("running", &self.manager.running_task_count())
            .finish()
    }
}

impl From<TaskManager> for Tasks {
    fn from(manager: TaskManager) -> Tasks {
        Tasks { manager }
    }
}

impl Tasks {
    /// The tasks kept in `manager`.
    pub fn new(manager: TaskManager) -> Tasks {
        Tasks { manager }
    }

    /// Whether this request may be answered with a task: it is at 2026-07-28 or later
    /// (the extension is not defined before) and its client capabilities, the
    /// request's own `_meta` first, declare the extension.
    pub fn declared(ctx: &RequestContext<RoleServer>) -> bool {
        let stateless = ctx
            .protocol_version()
            .and_then(|v| v.as_str().parse::<Revision>().ok())
            .is_some_and(Revision::is_stateless);
        stateless
            && ctx
                .client_capabilities()
                .is_some_and(|c| c.supports_tasks())
    }

    /// The `-32021` error of a tool that only runs as a task, naming the extension in
    /// `data.requiredCapabilities`.
    pub fn required_error() -> ErrorData {
        ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )
    }

    /// How to answer a call of a tool with `support` in this request, or the `-32021`
    /// error for a [`TaskSupport::Required`] tool called without the extension.
    pub fn decide(
        support: TaskSupport,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Run, ErrorData> {
        match (support, Tasks::declared(ctx)) {
            (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => Ok(Run::Sync),
            (TaskSupport::Optional, true) | (TaskSupport::Required, true) => Ok(Run::Task),
            (TaskSupport::Required, false) => Err(Tasks::required_error()),
        }
    }

    /// Starts `work` as a task and answers with it (`resultType: "task"`). The task can
    /// be read with `tasks/get` before this returns. `work`'s outcome becomes the
    /// task's: `Ok` → `completed` with that result (`isError` results included),
    /// `Err(TaskExit::Error)` → `failed` with that JSON-RPC error,
    /// `Err(TaskExit::Cancelled)` → `cancelled`. `work` must not panic: a panic leaves
    /// the task `working` until its TTL.
    pub fn spawn<F, Fut>(&self, work: F) -> CallToolResponse
    where
        F: FnOnce(TaskContext) -> Fut,
        Fut: Future<Output = Result<CallToolResult, TaskExit>> + Send + 'static,
    {
        let options = TaskOptions::new().with_poll_interval_ms(POLL_INTERVAL_MS);
        let task = self.manager.spawn(options, |ctx| Box::pin(work(ctx)));
        CallToolResponse::Task(CreateTaskResult::new(task))
    }

    /// `tasks/get`: the task, with its result or error once it ended; `-32602` for an
    /// unknown (or expired) id.
    pub fn get(&self, params: &GetTaskParams) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.manager.get_task(&params.task_id)?))
    }

    /// `tasks/update`: hands the answers to the questions the task waits on; answers to
    /// unknown or already answered keys are ignored.
    pub fn update(&self, params: UpdateTaskParams) -> Result<(), ErrorData> {
        self.manager
            .update_task(&params.task_id, params.input_responses)
    }

    /// `tasks/cancel`: asks the task to stop (it ends `cancelled` once its work sees
    /// [`TaskContext::cancelled`]); acknowledged for a task that already ended.
    pub fn cancel(&self, params: &CancelTaskParams) -> Result<(), ErrorData> {
        self.manager.cancel_task(&params.task_id)
    }
}

/// Sleeps `duration`, or ends with [`TaskExit::Cancelled`] as soon as the task is
/// cancelled: the cooperative wait of a task's work.
pub async fn sleep_unless_cancelled(ctx: &TaskContext, duration: Duration) -> Result<(), TaskExit> {
    tokio::select! {
        _ = ctx.cancelled() => Err(TaskExit::Cancelled),
        _ = tokio::time::sleep(duration) => Ok(()),
    }
}
