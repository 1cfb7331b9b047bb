//! The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): the third channel
//! a question can take, for calls that run long.
//!
//! A `tools/call` answered with a task returns at once (`resultType: "task"`); the
//! client polls `tasks/get` (or is told, through `subscriptions/listen` with `taskIds`:
//! [`Tools::listen_tasks`](super::Tools::listen_tasks)), which reports `working`, then `input_required` with the
//! questions in `inputRequests` while the tool waits for the user, and finally the
//! result inlined. Answers come back with `tasks/update`, and `tasks/cancel` stops the
//! task. The tool body is the same as on the other channels: its [`Session`] asks and
//! awaits in place, as in push mode, each question under a key unique for the life of
//! the task.
//!
//! What a server does to offer it:
//!
//! 1. keep one [`Tasks`] for the whole server (clones share it: a stateless HTTP
//!    server builds a handler per request, and every one must see the same tasks) and
//!    give it to the [`Elicitor`](super::Elicitor) with
//!    [`with_tasks`](super::Elicitor::with_tasks);
//! 2. advertise the extension (`ServerCapabilities::builder().enable_tasks()`);
//! 3. say which tools run as tasks ([`Tools::with_task_support`](super::Tools::with_task_support)),
//!    or let a tool body move into a task after its first questions
//!    ([`Session::continue_in_task`]);
//! 4. answer `tasks/get`, `tasks/update` and `tasks/cancel` with
//!    [`Tools::get_task`](super::Tools::get_task) and its siblings (rmcp refuses them
//!    with `-32021` for a client that did not declare the extension):
//!    [`task_handlers!`](crate::task_handlers) writes the three methods.
//!
//! A task is bound to the [`Principal`](super::Principal) of the call that started it:
//! to any other principal its id is unknown (`-32602`).
//!
//! Tasks live in the memory of the process that started them (the running tool body is
//! a future there), unless they are kept in a store shared by the replicas
//! ([`Tasks::with_task_store`]): then any replica answers for a task, and its body goes on on
//! the replica that receives the answers; see `docs/tasks.md`.
//!
//! [`Session`]: super::Session
//! [`Session::continue_in_task`]: super::Session::continue_in_task

/// Writes `get_task`, `update_task` and `cancel_task` of an `rmcp::ServerHandler`,
/// each handed to the [`Tools`](crate::Tools) in the named field of the server:
/// step 4 of serving tasks (see the [module](crate::tasks) docs); and
/// `accepted_subscription_filter` and `listen`, so that a `subscriptions/listen` with
/// `taskIds` receives `notifications/tasks` ([`Tools::listen_tasks`](crate::Tools::listen_tasks)).
///
/// ```
/// use elicit_rmcp::{Elicitor, TaskSupport, Tools};
/// use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
///
/// #[derive(Clone)]
/// struct Exporter {
///     tools: Tools<Exporter>,
/// }
///
/// #[tool_router]
/// impl Exporter {
///     fn new(elicitor: Elicitor) -> Exporter {
///         let tools = Tools::new(elicitor, Self::tool_router())
///             .with_task_support("export", TaskSupport::Optional);
///         Exporter { tools }
///     }
///
///     #[tool(description = "Exports the archive")]
///     async fn export(&self) -> CallToolResult {
///         CallToolResult::success(vec![ContentBlock::text("exported")])
///     }
/// }
///
/// #[tool_handler(router = self.tools)]
/// impl ServerHandler for Exporter {
///     fn get_info(&self) -> ServerConfig {
///         ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tasks().build())
///     }
///
///     elicit_rmcp::task_handlers!(tools);
/// }
/// ```
#[macro_export]
macro_rules! task_handlers {
    ($tools:ident) => {
        // Each method's future is boxed: rmcp's future for a request is as large as the
        // largest of the server's methods, and it is moved whole for every request
        // (tool calls included); the task methods are called seldom.
        async fn get_task(
            &self,
            params: $crate::__private::rmcp::model::GetTaskParams,
            ctx: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::service::RoleServer,
            >,
        ) -> ::core::result::Result<
            $crate::__private::rmcp::model::GetTaskResult,
            $crate::__private::rmcp::ErrorData,
        > {
            ::std::boxed::Box::pin(self.$tools.get_task(params, ctx)).await
        }

        async fn update_task(
            &self,
            params: $crate::__private::rmcp::model::UpdateTaskParams,
            ctx: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::service::RoleServer,
            >,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            ::std::boxed::Box::pin(self.$tools.update_task(self, params, ctx)).await
        }

        async fn cancel_task(
            &self,
            params: $crate::__private::rmcp::model::CancelTaskParams,
            ctx: $crate::__private::rmcp::service::RequestContext<
                $crate::__private::rmcp::service::RoleServer,
            >,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            ::std::boxed::Box::pin(self.$tools.cancel_task(params, ctx)).await
        }

        // Listening is accepted, for the task ids the HTTP layer read from the request;
        // of rmcp's typed categories (list changes, resources) none is served here.
        fn accepted_subscription_filter(
            &self,
            _requested: &$crate::__private::rmcp::model::SubscriptionFilter,
        ) -> ::core::option::Option<$crate::__private::rmcp::model::SubscriptionFilter> {
            ::core::option::Option::Some($crate::__private::rmcp::model::SubscriptionFilter::new())
        }

        async fn listen(
            &self,
            subscription: $crate::__private::rmcp::service::SubscriptionContext,
        ) -> ::core::result::Result<(), $crate::__private::rmcp::ErrorData> {
            ::std::boxed::Box::pin(self.$tools.listen_tasks(subscription)).await
        }
    };
}

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResult, CancelTaskParams, CreateTaskResult, GetTaskParams, GetTaskResult,
    UpdateTaskParams,
};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use tokio_util::sync::CancellationToken;

use crate::principal::principal_of;
use elicit_core::store::TaskStore;

mod durable;
mod listen;
use durable::Stored;
pub(crate) use durable::{Durable, RENEW, Renewal, Run, RunEnd, kept_meta};
#[cfg(feature = "http")]
pub(crate) use listen::{MAX_WATCHED_TASKS, TaskIds};

/// How long a task lives unless [`Tasks::with_ttl`] says otherwise: one hour, from its
/// creation. A task still running then (its questions unanswered) ends `failed`.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3600);

/// How often a client is told to poll `tasks/get`, unless
/// [`Tasks::with_poll_interval`] says otherwise.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// Whether a tool runs as a task: the server's own choice, per tool (SEP-2663 puts no
/// such field on the wire).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Always answered in the call (the default). Its body may still move into a task
    /// with [`Session::continue_in_task`](super::Session::continue_in_task).
    #[default]
    Forbidden,
    /// A task for a client that declared the extension, in the call for any other.
    Optional,
    /// Only as a task: a client that did not declare the extension gets `-32021`
    /// ([`MISSING_CAPABILITY`](super::MISSING_CAPABILITY)) naming it.
    Required,
}

/// The tasks of a server: where they run, and who may see them.
///
/// Clones share the tasks. Keep one for the whole server.
#[derive(Clone)]
pub struct Tasks {
    manager: TaskManager,
    /// The principal each task belongs to, and when it was started.
    owners: Arc<Mutex<Owners>>,
    ttl: Option<Duration>,
    poll_interval: Duration,
    /// The most tasks not ended yet: of one principal, and in all.
    max_per_principal: usize,
    max_total: usize,
    /// Open `subscriptions/listen` watching tasks, by principal.
    listens: Arc<Mutex<HashMap<String, usize>>>,
    /// With a store ([`Tasks::with_task_store`]): the tasks kept there.
    stored: Option<Stored>,
}

/// How many tasks one principal may have running unless [`Tasks::with_limits`] says
/// otherwise.
const DEFAULT_MAX_PER_PRINCIPAL: usize = 32;
/// How many tasks may run in all unless [`Tasks::with_limits`] says otherwise.
const DEFAULT_MAX_TOTAL: usize = 1024;

#[derive(Default)]
struct Owners {
    by_task: HashMap<String, (String, Instant)>,
    /// Tasks not ended yet, by principal, and in all.
    live: HashMap<String, usize>,
    live_total: usize,
    /// When the map is next pruned of tasks that cannot be kept any more.
    prune_at: Option<Instant>,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("running", &self.running())
            .field("ttl", &self.ttl)
            .field("poll_interval", &self.poll_interval)
            .finish()
    }
}

impl Default for Tasks {
    fn default() -> Tasks {
        Tasks::new()
    }
}

impl Tasks {
    /// An empty set of tasks, each living [`DEFAULT_TASK_TTL`] and polled every
    /// [`DEFAULT_POLL_INTERVAL`].
    pub fn new() -> Tasks {
        Tasks {
            manager: TaskManager::new(),
            owners: Arc::default(),
            ttl: Some(DEFAULT_TASK_TTL),
            poll_interval: DEFAULT_POLL_INTERVAL,
            max_per_principal: DEFAULT_MAX_PER_PRINCIPAL,
            max_total: DEFAULT_MAX_TOTAL,
            listens: Arc::default(),
            stored: None,
        }
    }

    /// Keeps the tasks in `store`, shared by every replica of the server (such as
    /// `elicit_core::store::RedisStore`, feature `redis`): any replica answers
    /// `tasks/get`, `tasks/update` and `tasks/cancel` for a task, and its body goes on
    /// on the replica that receives the answers, so a replica that stops loses no task.
    /// The body then runs in rounds, up to each question, and again from the top with
    /// the answers (it must be deterministic given its arguments and the answers, as
    /// in rounds); see `docs/tasks.md`. The limits are counted in the store, across
    /// replicas; single use of each round's state needs the elicitor's redeem store to
    /// be shared too ([`Elicitor::with_redeem_store`](crate::Elicitor::with_redeem_store)).
    ///
    /// Only tools started as tasks by [`Tools`](super::Tools) are kept there; a body
    /// moved into a task by [`Session::continue_in_task`](super::Session::continue_in_task)
    /// lives in the process that started it.
    pub fn with_task_store(mut self, store: impl TaskStore + 'static) -> Tasks {
        self.stored = Some(Stored::new(Arc::new(store)));
        self
    }

    /// Old name of [`with_task_store`](Self::with_task_store).
    // Hidden: old name, kept for one release.
    #[deprecated(note = "renamed to `with_task_store`")]
    #[doc(hidden)]
    pub fn with_store(self, store: impl TaskStore + 'static) -> Tasks {
        self.with_task_store(store)
    }

    /// The store's side with these tasks' limits, when tasks are kept in a store.
    pub(crate) fn durable(&self) -> Option<Durable> {
        let stored = self.stored.as_ref()?;
        Some(Durable::new(
            stored,
            self.ttl,
            self.poll_interval,
            self.max_per_principal,
            self.max_total,
        ))
    }

    /// The most tasks not ended yet: `per_principal` of one principal (default 32) and
    /// `total` in all (default 1,024; each waits up to its TTL for a person). A call
    /// that would start one more is answered with a JSON-RPC error (`-32600`) saying
    /// so, and nothing runs.
    pub fn with_limits(mut self, per_principal: usize, total: usize) -> Tasks {
        self.max_per_principal = per_principal.max(1);
        self.max_total = total.max(1);
        self
    }

    /// How long each task may live from its creation (`None`: until it ends, and then
    /// as long as the server runs). A task still running at its deadline is stopped and
    /// ends `failed` ("task expired"); an ended task can be read for one more `ttl`.
    pub fn with_ttl(mut self, ttl: Option<Duration>) -> Tasks {
        self.ttl = ttl;
        self
    }

    /// How often clients are told to poll `tasks/get` (`pollIntervalMs`).
    pub fn with_poll_interval(mut self, interval: Duration) -> Tasks {
        self.poll_interval = interval;
        self
    }

    /// How many tasks have not ended yet in this process (tasks kept in a
    /// [store](Self::with_task_store) are counted there, not here).
    pub fn running(&self) -> usize {
        self.manager.running_task_count()
    }

    /// `tasks/get`: the task, with its questions while it waits for input and its
    /// result or error once it ended. `-32602` for an id that is unknown, expired, or
    /// another principal's.
    pub(crate) async fn get_task(
        &self,
        params: &GetTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let id = &params.task_id;
        if let Some(durable) = self.in_store(id) {
            return Ok(GetTaskResult::new(
                durable.get(id, principal_of(ctx)).await?,
            ));
        }
        self.check_owner(id, ctx)?;
        Ok(GetTaskResult::new(self.manager.get_task(id)?))
    }

    /// `tasks/update`: hands answers to the questions the task waits on. Answers to
    /// unknown or already answered keys are ignored; the task goes on once every
    /// question it waits on has its answer. For a task kept in a store, that is a run
    /// of its body the caller starts.
    pub(crate) async fn update_task(
        &self,
        params: UpdateTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Option<Run>, McpError> {
        let id = &params.task_id;
        if let Some(durable) = self.in_store(id) {
            return durable
                .update(id, principal_of(ctx), params.input_responses)
                .await;
        }
        self.check_owner(id, ctx)?;
        self.manager.update_task(id, params.input_responses)?;
        Ok(None)
    }

    /// `tasks/cancel`: withdraws the questions the task waits on and stops it (it ends
    /// `cancelled` once its body stops). Acknowledged for a task that already ended.
    pub(crate) async fn cancel_task(
        &self,
        params: &CancelTaskParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let id = &params.task_id;
        if let Some(durable) = self.in_store(id) {
            return durable.cancel(id, principal_of(ctx)).await;
        }
        self.check_owner(id, ctx)?;
        self.manager.cancel_task(id)
    }

    /// The store, when task `id` is not one of this process's own (a body moved into a
    /// task by `continue_in_task`).
    fn in_store(&self, id: &str) -> Option<Durable> {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        if owners.by_task.contains_key(id) {
            return None;
        }
        drop(owners);
        self.durable()
    }

    /// Whether task `id` is `principal`'s.
    fn owned_by(&self, id: &str, principal: &str) -> bool {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .by_task
            .get(id)
            .is_some_and(|(owner, _)| owner == principal)
    }

    /// `-32602` unless the task `id` is the principal's of `ctx`.
    fn check_owner(&self, id: &str, ctx: &RequestContext<RoleServer>) -> Result<(), McpError> {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        match owners.by_task.get(id) {
            Some((owner, _)) if owner == principal_of(ctx) => Ok(()),
            // The same answer as for an id that never was.
            _ => Err(durable::unknown(id)),
        }
    }

    /// Starts `work` as a task of `principal`, and returns the task to answer the call
    /// with. `work` gets the task's handle and a token cancelled by `tasks/cancel`. Past
    /// the [limits](Self::with_limits), a JSON-RPC error and nothing started.
    pub(crate) fn spawn<F, Fut>(
        &self,
        principal: &str,
        work: F,
    ) -> Result<CreateTaskResult, McpError>
    where
        F: FnOnce(TaskContext, CancellationToken) -> Fut,
        Fut: Future<Output = Result<CallToolResult, TaskExit>> + Send + 'static,
    {
        let options = TaskOptions::new()
            .with_ttl_ms(
                self.ttl
                    .map(|t| t.as_millis().try_into().unwrap_or(u64::MAX)),
            )
            .with_poll_interval_ms(
                self.poll_interval
                    .as_millis()
                    .try_into()
                    .unwrap_or(u64::MAX),
            );
        // The owner is recorded before the task can be read: under the same lock as the
        // spawn, so no `tasks/get` sees the task without its owner.
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        self.prune(&mut owners);
        let mine = owners.live.get(principal).copied().unwrap_or(0);
        if mine >= self.max_per_principal || owners.live_total >= self.max_total {
            let (count, whose) = if mine >= self.max_per_principal {
                (self.max_per_principal, "of this client")
            } else {
                (self.max_total, "on this server")
            };
            return Err(McpError::invalid_request(
                format!(
                    "too many tasks running {whose} (at most {count}): wait for one to end, or \
                     cancel one"
                ),
                None,
            ));
        }
        *owners.live.entry(principal.to_owned()).or_default() += 1;
        owners.live_total += 1;
        let live = Live {
            owners: self.owners.clone(),
            principal: principal.to_owned(),
        };
        let task = self.manager.spawn(options, |task| {
            let token = CancellationToken::new();
            let body = watch_cancel(task.clone(), token.clone(), work(task, token));
            Box::pin(async move {
                // Counted until the body ends, however it ends.
                let _live = live;
                body.await
            })
        });
        owners
            .by_task
            .insert(task.task_id.clone(), (principal.to_owned(), Instant::now()));
        Ok(CreateTaskResult::new(task))
    }

    /// Forgets the owners of tasks rmcp no longer keeps: a task ends by its TTL and is
    /// kept one TTL more, so after twice the TTL (and a minute of slack) it is gone.
    fn prune(&self, owners: &mut Owners) {
        let Some(ttl) = self.ttl else { return };
        let now = Instant::now();
        if owners.prune_at.is_some_and(|at| now < at) {
            return;
        }
        let keep = ttl
            .saturating_mul(2)
            .saturating_add(Duration::from_secs(60));
        owners
            .by_task
            .retain(|_, (_, started)| now.saturating_duration_since(*started) < keep);
        owners.prune_at = Some(now + ttl.min(Duration::from_secs(60)));
    }
}

/// Runs `work`, cancelling `token` as soon as the task is cancelled (cooperative: the
/// work decides when to stop). The task ends `cancelled` when the work stops with an
/// error after a cancel request.
async fn watch_cancel<Fut>(
    task: TaskContext,
    token: CancellationToken,
    work: Fut,
) -> Result<CallToolResult, TaskExit>
where
    Fut: Future<Output = Result<CallToolResult, TaskExit>>,
{
    let mut work = std::pin::pin!(work);
    let outcome = tokio::select! {
        outcome = &mut work => outcome,
        () = task.cancelled() => {
            token.cancel();
            work.await
        }
    };
    match outcome {
        Err(TaskExit::Error(_)) if task.is_cancel_requested() => Err(TaskExit::Cancelled),
        outcome => outcome,
    }
}

/// One running task of a principal, counted until dropped.
struct Live {
    owners: Arc<Mutex<Owners>>,
    principal: String,
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners.live_total = owners.live_total.saturating_sub(1);
        if let Some(n) = owners.live.get_mut(&self.principal) {
            *n -= 1;
            if *n == 0 {
                owners.live.remove(&self.principal);
            }
        }
    }
}
