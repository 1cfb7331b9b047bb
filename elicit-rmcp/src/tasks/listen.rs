//! `subscriptions/listen` with `taskIds`: `notifications/tasks` whenever a listed task of
//! the caller changes ([`Tasks::listen`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    DetailedTask, NotificationMetaObject, ServerNotification, TaskStatusNotification,
    TaskStatusNotificationParams,
};
use ::rmcp::service::{RequestContext, RoleServer, SubscriptionContext};

use super::Tasks;
use super::durable::{Durable, ended};
use crate::principal::principal_of;

/// How often [`Tasks::listen`] looks for changes of the tasks it watches (50 ms).
pub(crate) const TASK_WATCH_INTERVAL: Duration = Duration::from_millis(50);

/// How often [`Tasks::listen`] reads tasks kept in a store that announces its changes,
/// between announcements (an announcement may be lost).
const STORE_WATCH_INTERVAL: Duration = Duration::from_secs(1);

/// The next announcement of `changes`; never, without them.
async fn next_change(
    changes: &mut Option<impl futures_util::Stream<Item = String> + Unpin>,
) -> Option<String> {
    match changes {
        Some(changes) => futures_util::StreamExt::next(changes).await,
        None => std::future::pending().await,
    }
}

/// The most task ids one `subscriptions/listen` watches (the first 64 listed).
#[cfg(feature = "http")]
pub(crate) const MAX_WATCHED_TASKS: usize = 64;

/// The `taskIds` of a `subscriptions/listen` request, as the HTTP layer read them from
/// its body (rmcp's `SubscriptionFilter` has no such field).
#[cfg(feature = "http")]
#[derive(Clone, Debug, Default)]
pub(crate) struct TaskIds(pub(crate) Vec<String>);

/// The `taskIds` of the listen request of `ctx` (none when it has none, or did not come
/// over HTTP).
fn task_ids(ctx: &RequestContext<RoleServer>) -> Vec<String> {
    #[cfg(feature = "http")]
    if let Some(ids) = ctx
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<TaskIds>())
    {
        return ids.0.clone();
    }
    let _ = ctx;
    Vec::new()
}

/// How many `subscriptions/listen` watching tasks one principal may hold open at once.
pub(crate) const MAX_LISTENS_PER_PRINCIPAL: usize = 8;

impl Tasks {
    /// The task `id` as `principal` may see it: `None` when it is unknown or another's.
    async fn read(&self, id: &str, principal: &str) -> Option<DetailedTask> {
        if let Some(durable) = self.in_store(id) {
            return durable.read(id, principal).await;
        }
        if !self.owned_by(id, principal) {
            return None;
        }
        self.manager.get_task(id).ok()
    }

    /// `subscriptions/listen` with `taskIds` (read from the request by the HTTP layer,
    /// since rmcp's filter has no such field): sends `notifications/tasks` with the whole task, as `tasks/get`
    /// gives it, whenever one of the listed tasks of the caller's principal changes
    /// (its status, its status message, its questions), and the state of each at
    /// once; another principal's ids and unknown ones are ignored, as `tasks/get` would
    /// not tell them apart (ids of tasks that do not exist when the subscription
    /// starts are never watched). A task told ended is not watched any more. Runs until
    /// the client ends the subscription, or every task it watches was told ended. Changes are looked for every
    /// [`TASK_WATCH_INTERVAL`]. A principal may hold 8 such subscriptions open at once;
    /// past that, a JSON-RPC error (`-32600`).
    pub(crate) async fn listen(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        let ctx = subscription.request_context();
        // Only the caller's tasks are watched (a task's owner never changes), and each
        // only until it has been told ended: the work per subscription is bounded by the
        // caller's own running tasks.
        let principal = principal_of(ctx).to_owned();
        let _open = Listen::open(&self.listens, &principal)?;
        let mut ids = Vec::new();
        for id in task_ids(ctx) {
            if self.read(&id, &principal).await.is_some() {
                ids.push(id);
            }
        }
        // A store that announces its changes wakes the subscription; it reads again
        // every second all the same (an announcement may be lost). Otherwise it polls.
        let mut changes = self.durable().and_then(|durable| durable.changes());
        // This process's own tasks (moved into a task by `continue_in_task`) are not
        // announced: polled as without a store.
        let announced = ids.iter().all(|id| self.in_store(id).is_some());
        let every = match changes {
            Some(_) if announced => STORE_WATCH_INTERVAL,
            _ => TASK_WATCH_INTERVAL,
        };
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut told: HashMap<String, DetailedTask> = HashMap::new();
        loop {
            // Until something of these tasks may have changed.
            loop {
                tokio::select! {
                    () = subscription.cancelled() => return Ok(()),
                    _ = tick.tick() => break,
                    key = next_change(&mut changes) => match key {
                        // A key that names no task (an index, another application's
                        // record) is no change of these tasks.
                        Some(key) => match Durable::changed_id(&key) {
                            Some(id) if id.is_empty() || ids.iter().any(|i| i == id) => break,
                            _ => {}
                        },
                        // The announcements ended: poll.
                        None => changes = None,
                    },
                }
            }
            ids.retain(|id| !told.get(id).is_some_and(|task| ended(task.task.status)));
            if ids.is_empty() {
                // Nothing left to tell: the subscription ends (its final result).
                return Ok(());
            }
            for id in &ids {
                let Some(task) = self.read(id, &principal).await else {
                    continue;
                };
                if told.get(id) == Some(&task) {
                    continue;
                }
                let mut meta = NotificationMetaObject::new();
                meta.set_subscription_id(ctx.id.clone());
                let params = TaskStatusNotificationParams::new(task.clone()).with_meta(meta);
                let notification =
                    ServerNotification::TaskStatusNotification(TaskStatusNotification::new(params));
                if ctx.peer.send_notification(notification).await.is_err() {
                    // The client is gone.
                    return Ok(());
                }
                told.insert(id.clone(), task);
            }
        }
    }
}

/// One open `subscriptions/listen` of a principal, counted until dropped.
struct Listen {
    listens: Arc<Mutex<HashMap<String, usize>>>,
    principal: String,
}

impl Listen {
    /// Counts one more listen of `principal`; a JSON-RPC error past
    /// [`MAX_LISTENS_PER_PRINCIPAL`].
    fn open(
        listens: &Arc<Mutex<HashMap<String, usize>>>,
        principal: &str,
    ) -> Result<Listen, McpError> {
        let mut open = listens.lock().unwrap_or_else(|e| e.into_inner());
        let mine = open.entry(principal.to_owned()).or_default();
        if *mine >= MAX_LISTENS_PER_PRINCIPAL {
            return Err(McpError::invalid_request(
                format!(
                    "too many subscriptions of this client (at most {MAX_LISTENS_PER_PRINCIPAL}): \
                     close one, or list several tasks in one"
                ),
                None,
            ));
        }
        *mine += 1;
        Ok(Listen {
            listens: listens.clone(),
            principal: principal.to_owned(),
        })
    }
}

impl Drop for Listen {
    fn drop(&mut self) {
        let mut open = self.listens.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.principal) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.principal);
            }
        }
    }
}
