//! [`Session`]: one call's questions, asked through the engine of `elicit-core`, carried
//! by rmcp.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResponse, CallToolResult, CancelledNotificationParam, ClientCapabilities,
    CustomNotification, CustomRequest, GetPromptResponse, GetPromptResult,
    ProgressNotificationParam, ProgressToken, ServerNotification, ServerRequest,
};
use ::rmcp::service::{Peer, PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use ::rmcp::task_manager::{TaskContext, TaskExit};
use elicit_core::Revision;
use elicit_core::engine::{self, Call, Question, Transport};
use elicit_core::wizard::{Outcome, Wizard};
use elicit_core::{Confirm, Elicit, Elicitation};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::{
    AskError, Asked, Channel, Halt, Input, InputAnswer, InputRequired, QuestionCache, TaskStarted,
    Tasks, URL_ELICITATION_REQUIRED, input_required, rpc_error, tasks,
};

/// Where a routed call's `input_required` result or task waits for [`Tools::call`](crate::Tools::call):
/// rmcp turns an error of a tool method into an error response, so the result goes
/// around it.
#[derive(Debug, Default)]
pub(crate) struct Reply(Mutex<Option<CallToolResponse>>);

impl Reply {
    pub(crate) fn put(&self, result: CallToolResponse) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
    }

    pub(crate) fn take(&self) -> Option<CallToolResponse> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// One tool or prompt call that may ask the user things. See the [crate](crate) docs.
pub struct Session {
    call: Call,
    /// How questions reach the client when pushed or asked in a task.
    link: Link,
    capabilities: Option<ClientCapabilities>,
    questions: Arc<QuestionCache>,
    /// The server's tasks, for [`Session::continue_in_task`].
    tasks: Option<Tasks>,
    /// Whom the call is for: a task it starts is theirs.
    principal: String,
    /// Where a call routed by [`Tools`](crate::Tools) hands its `input_required` result back.
    reply: Option<Arc<Reply>>,
    /// In a task kept in a store: where its status message waits for the record.
    stored_status: Option<Arc<Mutex<Option<String>>>>,
}

/// The push and task channels over rmcp.
struct Link {
    peer: Peer<RoleServer>,
    /// The call's id and cancellation token: the token fires when the client cancels
    /// the call (`notifications/cancelled`), or rmcp gives up on it, and a question
    /// waiting for its answer then stops at once.
    call: RequestContext<RoleServer>,
    /// On the Tasks channel: the task the questions wait in.
    task: Option<TaskContext>,
    timeout: Option<Duration>,
    /// While a pushed question waits: the call's `progressToken` and how often to send
    /// `notifications/progress` for it.
    progress: Option<(ProgressToken, Duration)>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        call: Call,
        ctx: &RequestContext<RoleServer>,
        capabilities: Option<ClientCapabilities>,
        questions: Arc<QuestionCache>,
        task: Option<(TaskContext, CancellationToken)>,
        tasks: Option<Tasks>,
        principal: String,
        reply: Option<Arc<Reply>>,
    ) -> Session {
        // Only the id and the token: meta and extensions (HTTP headers) are not needed.
        let mut context = RequestContext::new(ctx.id.clone(), ctx.peer.clone());
        let task = match task {
            Some((task, token)) => {
                context.ct = token;
                Some(task)
            }
            None => {
                context.ct = ctx.ct.clone();
                None
            }
        };
        let timeout = call.settings().timeout;
        let progress = ctx
            .meta
            .get_progress_token()
            .zip(call.settings().progress_interval);
        Session {
            call,
            link: Link {
                peer: ctx.peer.clone(),
                call: context,
                task,
                timeout,
                progress,
            },
            capabilities,
            questions,
            tasks,
            principal,
            reply,
            stored_status: None,
        }
    }

    /// This session runs the body of a task kept in a store: it is in a task already,
    /// and its status message goes to `status`.
    pub(crate) fn in_stored_task(&mut self, status: Arc<Mutex<Option<String>>>) {
        self.stored_status = Some(status);
    }

    /// The adapter's [`Halt`] for the engine's.
    fn halt(&self, halt: engine::Halt) -> Halt {
        match halt {
            engine::Halt::InputRequired(round) => match input_required(&self.questions, round) {
                Ok(result) => Halt::InputRequired(Box::new(InputRequired {
                    result,
                    reply: self.reply.clone(),
                })),
                Err(e) => Halt::Error(e),
            },
            engine::Halt::Ask(e) => Halt::Ask(e),
            engine::Halt::Refused(e) => Halt::Error(rpc_error(e)),
            other => Halt::Error(McpError::internal_error(other.to_string(), None)),
        }
    }

    /// The call's id: random, the same in every round of one call (on 2026-07-28 it
    /// rides in the sealed state), another for every call. Use it as the idempotency
    /// key of the side effect the answers lead to.
    pub fn call_id(&self) -> &str {
        self.call.call_id()
    }

    /// The negotiated protocol revision, when it is one with elicitation.
    pub fn revision(&self) -> Option<Revision> {
        self.call.peer().revision
    }

    /// Whether questions travel as `input_required` results (2026-07-28).
    pub fn is_stateless(&self) -> bool {
        self.call.channel() == Channel::Rounds
    }

    /// How this call's questions reach the user.
    pub fn channel(&self) -> Channel {
        self.call.channel()
    }

    /// Whether [`continue_in_task`](Self::continue_in_task) would start a task: the
    /// server runs tasks ([`Elicitor::with_tasks`](crate::Elicitor::with_tasks)), the
    /// client declared the extension (2026-07-28), and the call is not a task already.
    pub fn supports_tasks(&self) -> bool {
        self.tasks.is_some()
            && self.link.task.is_none()
            && self.stored_status.is_none()
            && tasks::declared(self.revision(), self.capabilities.as_ref())
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
        if let Err(halt) = self.call.redeem().await {
            return Err(self.halt(halt));
        }
        let reply = self.reply.take();
        let principal = self.principal.clone();
        let started = tasks.spawn(&principal, move |task, token| {
            let body = work(self.into_task(task, token));
            async move { body.await.map_err(into_task_exit) }
        });
        match started {
            Ok(result) => Err(Halt::Task(Box::new(TaskStarted { result, reply }))),
            Err(e) => Err(Halt::Error(e)),
        }
    }

    /// This session, its questions now asked in `task`.
    fn into_task(mut self, task: TaskContext, token: CancellationToken) -> Session {
        self.call = self.call.into_task();
        self.link.task = Some(task);
        self.link.call.ct = token;
        self.reply = None;
        self
    }

    /// Sets the task's status message (`statusMessage` in `tasks/get`), to show the
    /// user how far a long task got. Does nothing on the other channels.
    pub fn set_status(&self, message: impl Into<String>) {
        if let Some(task) = &self.link.task {
            task.set_status_message(message);
        } else if let Some(status) = &self.stored_status {
            *status.lock().unwrap_or_else(|e| e.into_inner()) = Some(message.into());
        }
    }

    /// Whether the client can show forms. Check it to offer a fallback (a plain text
    /// result, sampling) instead of failing.
    pub fn supports_form(&self) -> bool {
        self.call.peer().supports("form")
    }

    /// Whether the client can open URL-mode elicitations (2025-11-25 and later).
    pub fn supports_url(&self) -> bool {
        self.call.peer().supports("url")
    }

    /// The capabilities the client declared (per request on 2026-07-28).
    pub fn client_capabilities(&self) -> Option<&ClientCapabilities> {
        self.capabilities.as_ref()
    }

    /// Asks the form `T`; an invalid answer is asked again with the problems above the
    /// message, up to the attempts of the [`Elicitor`](crate::Elicitor).
    ///
    /// `question` is the message, or a [`Prepared`](elicit_core::wizard::Prepared) with
    /// the message and this call's defaults, tighter bounds or choices (see
    /// [`Call::ask`](elicit_core::engine::Call::ask)):
    ///
    /// ```
    /// # use elicit_rmcp::{Halt, Session};
    /// # use elicit_core::{Elicit, Elicitation};
    /// use elicit_core::wizard::Prepared;
    /// # use serde::Deserialize;
    /// #[derive(Elicit, Deserialize)]
    /// struct Approval {
    ///     confirm: bool,
    ///     #[elicit(minimum = 1, maximum = 3650, default = 30)]
    ///     retention_days: u16,
    /// }
    ///
    /// // The call approved `days`: the form offers it as the default and the least.
    /// async fn approve(s: &mut Session, count: usize, days: u16) -> Result<bool, Halt> {
    ///     let approval = Prepared::new()
    ///         .message(format!("Delete {count} logs older than {days} days?"))
    ///         .range("retention_days", days, 3650)
    ///         .default_value("retention_days", days);
    ///     Ok(matches!(s.ask::<Approval>(approval).await?, Elicitation::Accept(a) if a.confirm))
    /// }
    /// ```
    pub async fn ask<T: Elicit>(
        &mut self,
        question: impl Into<elicit_core::wizard::Prepared>,
    ) -> Result<Elicitation<T>, Halt> {
        let asked = self.call.ask::<T>(&self.link, question).await;
        asked.map_err(|h| self.halt(h))
    }

    /// Asks a yes/no question with the ready-made [`Confirm`] form: `Accept(true)` only
    /// when the box was ticked.
    pub async fn confirm(
        &mut self,
        message: &str,
        confirm: &Confirm,
    ) -> Result<Elicitation<bool>, Halt> {
        let asked = self.call.confirm(&self.link, message, confirm).await;
        asked.map_err(|h| self.halt(h))
    }

    /// Runs the wizard `W` to its outcome: one `elicitation/create` per step in push
    /// mode, one `input_required` round per step on 2026-07-28 (the wizard's state
    /// rides in the sealed `requestState`).
    pub async fn wizard<W: Wizard>(&mut self, ctx: &W::Context) -> Result<Outcome<W>, Halt> {
        let asked = self.call.wizard::<W>(&self.link, ctx).await;
        asked.map_err(|h| self.halt(h))
    }

    /// Sends the user to `url` (URL-mode elicitation) for what a form must not ask: a
    /// sign-in, a payment, an API key. `Accept` carries the fresh `elicitationId` the
    /// request had on 2025-11-25 (see [`notify_url_complete`](Self::notify_url_complete));
    /// on 2026-07-28 it has none.
    pub async fn ask_url(
        &mut self,
        message: &str,
        url: &str,
    ) -> Result<Elicitation<Option<String>>, Halt> {
        let asked = self.call.ask_url(&self.link, message, url).await;
        asked.map_err(|h| self.halt(h))
    }

    /// Tells the client that the URL-mode elicitation `elicitation_id` is complete
    /// (`notifications/elicitation/complete`, 2025-11-25). Does nothing on other
    /// revisions, which have no such notification.
    pub async fn notify_url_complete(&self, elicitation_id: &str) -> Result<(), AskError> {
        if self.revision() != Some(Revision::V2025_11_25) {
            return Ok(());
        }
        let notification = CustomNotification::new(
            "notifications/elicitation/complete",
            Some(serde_json::json!({ "elicitationId": elicitation_id })),
        );
        self.link
            .peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .map_err(peer_error)
    }

    /// The `-32042` error of 2025-11-25 that ends a request which cannot go on until
    /// the user completes a URL-mode elicitation. `None` on other revisions (2026-07-28
    /// removed the error: use [`ask_url`](Self::ask_url) there).
    pub fn url_required_error(&self, message: &str, url: &str) -> Option<(McpError, String)> {
        if self.revision() != Some(Revision::V2025_11_25) {
            return None;
        }
        let id = crate::id::random_id();
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
    /// # use elicit_rmcp::{Halt, Input, InputAnswer, Session};
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
    /// let Some(InputAnswer::Value(greeting)) = answers.next() else { unreachable!() };
    /// # let _ = (name, greeting);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn inputs(&mut self, inputs: Vec<Input<'_>>) -> Result<Vec<InputAnswer>, Halt> {
        let asked = self.call.inputs(&self.link, inputs).await;
        asked.map_err(|h| self.halt(h))
    }

    /// Turns a tool body's result into the `tools/call` response: the result, an
    /// `input_required` result with the sealed state, or the error. For a hand-written
    /// `call_tool`; tools routed by [`Tools`](crate::Tools) return their [`Asked`]
    /// result as is.
    pub fn finish(
        &self,
        result: Result<CallToolResult, Halt>,
    ) -> Result<CallToolResponse, McpError> {
        match result {
            Ok(done) => Ok(CallToolResponse::Complete(done)),
            Err(halt) => into_response(halt),
        }
    }

    /// [`finish`](Self::finish) for a `prompts/get`.
    pub fn finish_prompt(
        &self,
        result: Result<GetPromptResult, Halt>,
    ) -> Result<GetPromptResponse, McpError> {
        match result {
            Ok(done) => Ok(GetPromptResponse::Complete(done)),
            Err(halt) => match into_response(halt)? {
                CallToolResponse::InputRequired(r) => Ok(GetPromptResponse::InputRequired(r)),
                _ => Err(McpError::internal_error(
                    "a prompt cannot go on as a task",
                    None,
                )),
            },
        }
    }
}

/// The `tools/call` response to send for a halt: the `input_required` result or the
/// task, or the JSON-RPC error.
pub(crate) fn into_response(halt: Halt) -> Result<CallToolResponse, McpError> {
    match halt {
        Halt::InputRequired(r) => Ok(CallToolResponse::InputRequired(r.result)),
        Halt::Task(t) => Ok(CallToolResponse::Task(t.result)),
        Halt::Ask(e) => Err(crate::ask_error(&e)),
        Halt::Error(e) => Err(e),
    }
}

/// How a task whose body stopped with `halt` ends: `cancelled` when it stopped because
/// the task was cancelled, else `failed` with the error.
fn into_task_exit(halt: Halt) -> TaskExit {
    match halt {
        Halt::Ask(AskError::Cancelled) => TaskExit::Cancelled,
        halt => match into_response(halt) {
            Err(e) => TaskExit::Error(e),
            Ok(_) => TaskExit::Error(McpError::internal_error(
                "a task cannot answer with input_required or another task",
                None,
            )),
        },
    }
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
}

impl Link {
    /// Sends one request to the client and waits for its answer, the timeout, or the
    /// cancellation of this call, whichever comes first. A cancelled call withdraws its
    /// question (`notifications/cancelled` to the client): its result will be unused,
    /// so the form should not stay on the user's screen, and nothing more is asked.
    /// Sends `notifications/progress` for the call's token every interval, for as long
    /// as it is polled (never ends); without a token or an interval, only waits.
    async fn keep_alive(&self) {
        let Some((token, every)) = &self.progress else {
            return std::future::pending().await;
        };
        let mut ticks = 0u32;
        loop {
            tokio::time::sleep(*every).await;
            ticks = ticks.saturating_add(1);
            let progress = ProgressNotificationParam::new(token.clone(), f64::from(ticks))
                .with_message("waiting for the person to answer the form");
            // Best effort: a client that cannot take it still gets its answer.
            let _ = self.peer.notify_progress(progress).await;
        }
    }

    async fn push(&self, request: &Question) -> Result<Value, AskError> {
        let params: Value = serde_json::from_str(&request.params)
            .map_err(|e| AskError::Peer(format!("cannot write the request: {e}")))?;
        let sent = ServerRequest::CustomRequest(CustomRequest::new(
            request.method.to_owned(),
            Some(params),
        ));
        let mut options = PeerRequestOptions::no_options();
        options.timeout = self.timeout;
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
                () = self.keep_alive() => {}
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
        let built = crate::input_request(request).map_err(|e| AskError::Peer(e.message.into()))?;
        let answer = task.request_input(&request.key, built);
        let answered = match self.timeout {
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

fn peer_error(e: ServiceError) -> AskError {
    match e {
        ServiceError::Timeout { timeout } => AskError::Timeout(timeout),
        ServiceError::Cancelled { .. } | ServiceError::TransportClosed => AskError::Cancelled,
        other => AskError::Peer(other.to_string()),
    }
}
