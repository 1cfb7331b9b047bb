//! [`Link`]: how a session's questions reach the client over rmcp when they are pushed
//! (`elicitation/create`, awaited in place) or asked in a task (answered by
//! `tasks/update`); the engine's [`Transport`] for those two channels.

use std::future::Future;
use std::pin::Pin;

use ::rmcp::model::{CancelledNotificationParam, CustomNotification, ServerNotification};
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use ::rmcp::task_manager::{TaskContext, TaskExit};
use elicit_core::engine::{AskError, Notice, Question, Transport};
use serde_json::Value;

use crate::wire::{input_request, push_request};

/// The push and task channels over rmcp.
pub(crate) struct Link {
    pub(crate) peer: Peer<RoleServer>,
    /// The call's id and cancellation token: the token fires when the client cancels
    /// the call (`notifications/cancelled`), or rmcp gives up on it, and a question
    /// waiting for its answer then stops at once.
    pub(crate) call: RequestContext<RoleServer>,
    /// On the Tasks channel: the task the questions wait in.
    pub(crate) task: Option<TaskContext>,
}

impl Transport for Link {
    async fn send(&self, request: Question) -> Result<Value, AskError> {
        if self.call.ct.is_cancelled() {
            return Err(AskError::Cancelled);
        }
        match &self.task {
            Some(task) => self.ask_in_task(task, &request).await,
            None => self.push(&request).await,
        }
    }

    async fn notify(&self, notice: Notice) -> Result<(), AskError> {
        let params: serde_json::Value = serde_json::from_str(&notice.params())
            .map_err(|e| AskError::Peer(format!("cannot write the notification: {e}")))?;
        let notification = CustomNotification::new(notice.method(), Some(params));
        self.peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .map_err(peer_error)
    }
}

impl Link {
    /// Sends one request to the client and waits for its answer, the timeout, or the
    /// cancellation of this call, whichever comes first. A cancelled call withdraws its
    /// question (`notifications/cancelled` to the client): its result will be unused,
    /// so the form should not stay on the user's screen, and nothing more is asked.
    /// Sends the question's keep-alive (`notifications/progress` for the call's token)
    /// every interval, for as long as it is polled (never ends); without a token or an
    /// interval, only waits.
    async fn keep_alive(&self, question: &Question) {
        let Some(every) = question.progress_interval else {
            return std::future::pending().await;
        };
        loop {
            tokio::time::sleep(every).await;
            let Some(notice) = question.keep_alive() else {
                return std::future::pending().await;
            };
            // Best effort: a client that cannot take it still gets its answer.
            let _ = self.notify(notice).await;
        }
    }

    async fn push(&self, request: &Question) -> Result<Value, AskError> {
        let sent = push_request(request)
            .map_err(|e| AskError::Peer(format!("cannot write the request: {e}")))?;
        let mut options = PeerRequestOptions::no_options();
        options.timeout = request.timeout;
        let handle = self
            .peer
            .send_request_with_option(sent, options)
            .await
            .map_err(peer_error)?;
        let id = handle.id.clone();
        // Until the answer: the call's cancellation, and progress while the person types.
        let stop = async {
            tokio::select! {
                () = self.call.ct.cancelled() => {}
                () = self.keep_alive(request) => {}
            }
        };
        let answered = first_of(
            std::pin::pin!(handle.await_response()),
            std::pin::pin!(stop),
        )
        .await;
        let Some(response) = answered else {
            let withdraw = CancelledNotificationParam::new(
                Some(id),
                Some("the tool call was cancelled".to_owned()),
            );
            // Best effort: the connection may be gone already.
            let _ = self.peer.notify_cancelled(withdraw).await;
            return Err(AskError::Cancelled);
        };
        let response = response.map_err(peer_error)?;
        serde_json::to_value(response)
            .map_err(|e| AskError::Peer(format!("unreadable result: {e}")))
    }

    /// Asks in the task (the request's key in its `inputRequests`) and waits for the
    /// answer that `tasks/update` brings, the timeout, or the task's cancellation, which
    /// withdraws the question. A question that timed out stays listed until the task
    /// ends.
    async fn ask_in_task(&self, task: &TaskContext, request: &Question) -> Result<Value, AskError> {
        let built = input_request(request).map_err(|e| AskError::Peer(e.message.into()))?;
        let answer = task.request_input(&request.key, built);
        let answered = match request.timeout {
            Some(timeout) => tokio::time::timeout(timeout, answer)
                .await
                .map_err(|_| AskError::Timeout(timeout))?,
            None => answer.await,
        };
        answered.map_err(|exit| match exit {
            TaskExit::Cancelled => AskError::Cancelled,
            TaskExit::Error(e) => AskError::Peer(e.message.into()),
        })
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

pub(crate) fn peer_error(e: ServiceError) -> AskError {
    match e {
        ServiceError::Timeout { timeout } => AskError::Timeout(timeout),
        ServiceError::Cancelled { .. } | ServiceError::TransportClosed => AskError::Cancelled,
        other => AskError::Peer(other.to_string()),
    }
}
