//! Following a task to its end ([`call_tool`](super::call_tool) on the Tasks channel):
//! through the server's `notifications/tasks` when it sends them, else by polling
//! `tasks/get`; its questions answered with `tasks/update`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResult, CancelTaskParams, CancelledNotificationParam, ClientRequest, CreateTaskResult,
    CustomRequest, DetailedTask, GetTaskParams, InputRequests, RequestId, TaskPayload,
    UpdateTaskParams,
};
use ::rmcp::service::{Peer, PeerRequestOptions, RoleClient, RunningService, ServiceError};
use elicit_core::client::Asker;
use serde_json::Value;

use super::{FormClient, MAX_TASK_TIME, Told, answer_all, server_name};

/// Follows the task until it ends, answering its questions: through the server's
/// `notifications/tasks` when it sends them, else by polling `tasks/get`.
pub(super) async fn follow_task<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    created: CreateTaskResult,
) -> Result<CallToolResult, ServiceError> {
    let id = created.task.task_id.clone();
    let told = client.service().told.clone();
    told.follow(&id);
    let listening = Listening::start(client, &id);
    let followed = follow(client, created, &told).await;
    listening.stop().await;
    told.forget(&id);
    followed
}

/// The loop of [`follow_task`].
async fn follow<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    created: CreateTaskResult,
    told: &Told,
) -> Result<CallToolResult, ServiceError> {
    let id = created.task.task_id;
    let interval = Duration::from_millis(created.task.poll_interval_ms.unwrap_or(1000))
        .clamp(Duration::from_millis(50), Duration::from_secs(5));
    let limit = created
        .task
        .ttl_ms
        .map_or(MAX_TASK_TIME, Duration::from_millis)
        .min(MAX_TASK_TIME);
    let deadline = Instant::now() + limit;
    let server = server_name(client);
    let mut answered = HashSet::new();
    let mut shown: Option<String> = None;
    let mut next = told.take(&id);
    loop {
        let got = match next.take() {
            Some(task) => task,
            None => client.get_task(GetTaskParams::new(&id)).await?.task,
        };
        if got.task.task_id != id {
            return Err(ServiceError::UnexpectedResponse);
        }
        if let Some(message) = &got.task.status_message
            && shown.as_ref() != Some(message)
        {
            client.service().asker.progress(server.as_deref(), message);
            shown = Some(message.clone());
        }
        match got.payload {
            TaskPayload::InputRequired { input_requests } => {
                answer_new(client, &id, input_requests, &mut answered).await?;
            }
            payload => {
                if let Some(end) = ended(payload) {
                    return end;
                }
            }
        }
        if Instant::now() >= deadline {
            // Best effort: the task may have ended meanwhile.
            let _ = client.cancel_task(CancelTaskParams::new(&id)).await;
            return Err(ServiceError::Timeout { timeout: limit });
        }
        next = next_told(told, &id, interval).await;
    }
}

/// What a task that ended with `payload` comes to: its result, or the error it failed
/// with or its cancellation. `None` while it has not ended (working, or a status this
/// client does not know yet).
fn ended(payload: TaskPayload) -> Option<Result<CallToolResult, ServiceError>> {
    match payload {
        TaskPayload::Completed { result } => {
            Some(serde_json::from_value(Value::Object(result)).map_err(|e| {
                ServiceError::McpError(McpError::invalid_params(
                    format!("the task's result is not a tool result: {e}"),
                    None,
                ))
            }))
        }
        TaskPayload::Failed { error } => {
            let error = serde_json::from_value(Value::Object(error)).unwrap_or_else(|e| {
                McpError::internal_error(format!("the task failed (unreadable error: {e})"), None)
            });
            Some(Err(ServiceError::McpError(error)))
        }
        TaskPayload::Cancelled => Some(Err(ServiceError::McpError(McpError::internal_error(
            "the task was cancelled",
            None,
        )))),
        _ => None,
    }
}

/// Answers the questions of task `id` not answered yet (each is put to the asker once),
/// with `tasks/update`.
async fn answer_new<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    id: &str,
    input_requests: InputRequests,
    answered: &mut HashSet<String>,
) -> Result<(), ServiceError> {
    let new: InputRequests = input_requests
        .into_iter()
        .filter(|(key, _)| !answered.contains(key))
        .collect();
    if !new.is_empty() {
        answered.extend(new.keys().cloned());
        let responses = answer_all(client, new).await?;
        client
            .update_task(UpdateTaskParams::new(id, responses))
            .await?;
    }
    Ok(())
}

/// The task `id` as the server next tells it, or `None` when it is time to poll: once
/// the server has told the task's state, the task is waited for rather than polled (a
/// poll every `TOLD_POLL` stays, in case a notification was lost); before, every
/// `interval`.
async fn next_told(told: &Told, id: &str, interval: Duration) -> Option<DetailedTask> {
    let wait = if told.heard(id) {
        TOLD_POLL.max(interval)
    } else {
        interval
    };
    let changed = told.changed.notified();
    let mut changed = std::pin::pin!(changed);
    changed.as_mut().enable();
    if let Some(task) = told.take(id) {
        return Some(task);
    }
    let _ = tokio::time::timeout(wait, changed).await;
    told.take(id)
}

/// How often a task the server tells of is polled all the same (a notification may be
/// lost).
const TOLD_POLL: Duration = Duration::from_secs(5);

/// A `subscriptions/listen` for one task (`taskIds`, which rmcp's typed filter lacks,
/// so it is sent as a request of its own); its notifications reach the handler.
struct Listening {
    task: tokio::task::JoinHandle<()>,
    request: Arc<Mutex<Option<RequestId>>>,
    peer: Peer<RoleClient>,
}

impl Listening {
    fn start<A: Asker + 'static>(
        client: &RunningService<RoleClient, FormClient<A>>,
        id: &str,
    ) -> Listening {
        let peer = client.peer().clone();
        let request = Arc::new(Mutex::new(None));
        let params = serde_json::json!({"notifications": {"taskIds": [id]}});
        let listen =
            ClientRequest::CustomRequest(CustomRequest::new("subscriptions/listen", Some(params)));
        let task = tokio::spawn({
            let peer = peer.clone();
            let request = request.clone();
            async move {
                let options = PeerRequestOptions::no_options();
                if let Ok(handle) = peer.send_request_with_option(listen, options).await {
                    *request.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle.id.clone());
                    // The server ends it once the task has ended (or refuses it: then
                    // the task is polled).
                    let _ = handle.rx.await;
                    request.lock().unwrap_or_else(|e| e.into_inner()).take();
                }
            }
        });
        Listening {
            task,
            request,
            peer,
        }
    }

    /// Ends the subscription, if the server has not.
    async fn stop(self) {
        self.task.abort();
        let open = self
            .request
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(id) = open {
            let reason = Some("the task is no longer followed".to_owned());
            let _ = self
                .peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                .await;
        }
    }
}
