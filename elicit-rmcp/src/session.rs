//! [`Session`]: one call's questions, asked through the engine of `elicit-core`, carried
//! by rmcp.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResponse, CallToolResult, CustomNotification, GetPromptResponse, GetPromptResult,
    ServerNotification,
};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::{TaskContext, TaskExit};
use elicit_core::Revision;
use elicit_core::engine::{AskError, Call, Channel, Halt, Input, InputAnswer, Peer};
use elicit_core::wizard::{Outcome, Wizard};
use elicit_core::{Confirm, Elicit, Elicitation, NoSecrets};
use tokio_util::sync::CancellationToken;

use crate::link::{Link, peer_error};
use crate::tasks::Tasks;
use crate::wire::{Asked, Halted, URL_ELICITATION_REQUIRED, into_prompt_response, into_response};

/// One tool or prompt call that may ask the user things. See the [crate](crate) docs.
pub struct Session {
    call: Call,
    /// How questions reach the client when pushed or asked in a task.
    link: Link,
    /// The server's tasks, for [`Session::continue_in_task`].
    tasks: Option<Tasks>,
    /// Whether the client declared the Tasks extension (2026-07-28).
    tasks_declared: bool,
    /// Whom the call is for: a task it starts is theirs.
    principal: String,
    /// In a task kept in a store: where its status message waits for the record.
    stored_status: Option<Arc<Mutex<Option<String>>>>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl Session {
    pub(crate) fn new(
        call: Call,
        ctx: &RequestContext<RoleServer>,
        task: Option<(TaskContext, CancellationToken)>,
        tasks: Option<Tasks>,
        tasks_declared: bool,
        principal: String,
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
        let mut call = call;
        if let Some(token) = ctx.meta.get_progress_token() {
            call.set_progress_token(&serde_json::to_value(token).unwrap_or_default());
        }
        Session {
            call,
            link: Link {
                peer: ctx.peer.clone(),
                call: context,
                task,
            },
            tasks,
            tasks_declared,
            principal,
            stored_status: None,
        }
    }

    /// This session runs the body of a task kept in a store: it is in a task already,
    /// and its status message goes to `status`.
    pub(crate) fn in_stored_task(&mut self, status: Arc<Mutex<Option<String>>>) {
        self.stored_status = Some(status);
    }

    /// The call's id: random, the same in every round of one call (on 2026-07-28 it
    /// rides in the sealed state), another for every call. Use it as the idempotency
    /// key of the side effect the answers lead to.
    pub fn call_id(&self) -> &str {
        self.call.call_id()
    }

    /// What the client declared: its protocol revision (`peer().revision`, when it is
    /// one with elicitation), whether it can show forms (`peer().supports("form")`;
    /// check it to offer a fallback, a plain text result or sampling, instead of
    /// failing), URL-mode elicitations (`"url"`, 2025-11-25 and later), sampling and roots
    /// requests. Read once per call, from the request's `_meta` on 2026-07-28 and from
    /// `initialize` before.
    pub fn peer(&self) -> &Peer {
        self.call.peer()
    }

    /// Old form of `peer().revision`.
    // Hidden: old name, kept for one release.
    #[deprecated(note = "use `peer().revision`")]
    #[doc(hidden)]
    pub fn revision(&self) -> Option<Revision> {
        self.peer().revision
    }

    /// Old form of `channel() == Channel::Rounds`.
    // Hidden: old name, kept for one release.
    #[deprecated(note = "use `channel() == Channel::Rounds`")]
    #[doc(hidden)]
    pub fn is_stateless(&self) -> bool {
        self.channel() == Channel::Rounds
    }

    /// Old form of `peer().supports("form")`.
    // Hidden: old name, kept for one release.
    #[deprecated(note = "use `peer().supports(\"form\")`")]
    #[doc(hidden)]
    pub fn supports_form(&self) -> bool {
        self.peer().supports("form")
    }

    /// Old form of `peer().supports("url")`.
    // Hidden: old name, kept for one release.
    #[deprecated(note = "use `peer().supports(\"url\")`")]
    #[doc(hidden)]
    pub fn supports_url(&self) -> bool {
        self.peer().supports("url")
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
            && self.tasks_declared
    }

    /// Runs the rest of the tool, `work`, as a task when the client can take one
    /// ([`supports_tasks`](Self::supports_tasks)), and in the call otherwise: the call is
    /// answered with the task at once (`CallToolResponse::Task`), and `work` goes on with a
    /// session whose questions wait in `tasks/get`. Ask first (in rounds or pushed), then
    /// do the long part in the task:
    ///
    /// ```
    /// # use elicit_rmcp::{Asked, Session};
    /// # use elicit_core::{Elicit, Elicitation};
    /// # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
    /// # use serde::Deserialize;
    /// #[derive(Elicit, Deserialize)]
    /// struct Approve {
    ///     approve: bool,
    /// }
    ///
    /// async fn export(mut s: Session) -> Asked<CallToolResponse> {
    ///     if !matches!(s.ask::<Approve>("Export 40 GB?").await?, Elicitation::Accept(a) if a.approve) {
    ///         return Ok(CallToolResult::success(vec![ContentBlock::text("Not exported.")]).into());
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
    pub async fn continue_in_task<F, Fut>(mut self, work: F) -> Asked<CallToolResponse>
    where
        F: FnOnce(Session) -> Fut,
        Fut: Future<Output = Asked<CallToolResult>> + Send + 'static,
    {
        let tasks = match &self.tasks {
            Some(tasks) if self.supports_tasks() => tasks.clone(),
            _ => return work(self).await.map(CallToolResponse::Complete),
        };
        self.call.redeem().await?;
        let principal = self.principal.clone();
        let started = tasks.spawn(&principal, move |task, token| {
            let body = work(self.into_task(task, token));
            async move { body.await.map_err(into_task_exit) }
        })?;
        Ok(CallToolResponse::Task(started))
    }

    /// This session, its questions now asked in `task`.
    fn into_task(mut self, task: TaskContext, token: CancellationToken) -> Session {
        self.call = self.call.into_task();
        self.link.task = Some(task);
        self.link.call.ct = token;
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
    ///
    /// Awaited like an `async fn`; the future is boxed so that asking a form with a
    /// secret field is one compile error, at this call.
    pub fn ask<'a, T: Elicit + NoSecrets + 'a>(
        &'a mut self,
        question: impl Into<elicit_core::wizard::Prepared>,
    ) -> Pin<Box<dyn Future<Output = Result<Elicitation<T>, Halt>> + Send + 'a>> {
        self.call.ask::<T>(&self.link, question)
    }

    /// Asks a yes/no question with the ready-made [`Confirm`] form: `Accept(true)` only
    /// when the box was ticked.
    pub async fn confirm(
        &mut self,
        message: &str,
        confirm: &Confirm,
    ) -> Result<Elicitation<bool>, Halt> {
        self.call.confirm(&self.link, message, confirm).await
    }

    /// Runs the wizard `W` to its outcome: one `elicitation/create` per step in push
    /// mode, one `input_required` round per step on 2026-07-28 (the wizard's state
    /// rides in the sealed `requestState`).
    pub async fn wizard<W: Wizard>(&mut self, ctx: &W::Context) -> Result<Outcome<W>, Halt> {
        self.call.wizard::<W>(&self.link, ctx).await
    }

    /// Asks the form `T` on a web page of the [`Elicitor`](crate::Elicitor)'s pages, by
    /// URL mode, or by a link in the tool result for a client with none (see
    /// `elicit_core::engine::Call::ask_on_page`): for what a form must not ask, such as a
    /// secret.
    pub async fn ask_on_page<T: Elicit>(
        &mut self,
        question: impl Into<elicit_core::wizard::Prepared>,
    ) -> Result<Elicitation<T>, Halt> {
        self.call.ask_on_page::<T>(&self.link, question).await
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
        self.call.ask_url(&self.link, message, url).await
    }

    /// Tells the client that the URL-mode elicitation `elicitation_id` is complete
    /// (`notifications/elicitation/complete`, 2025-11-25). Does nothing on other
    /// revisions, which have no such notification.
    pub async fn notify_url_complete(&self, elicitation_id: &str) -> Result<(), AskError> {
        if self.peer().revision != Some(Revision::V2025_11_25) {
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
        if self.peer().revision != Some(Revision::V2025_11_25) {
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
    /// (`peer().supports("sampling")` or `"roots"`,
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
        self.call.inputs(&self.link, inputs).await
    }

    /// Turns a tool body's result into the `tools/call` response: the result (or the
    /// task of [`continue_in_task`](Self::continue_in_task)), an `input_required` result
    /// with the sealed state, or the error. For a hand-written `call_tool`; tools routed by
    /// [`Tools`](crate::Tools) return their [`Asked`] result as is. The body's error is a
    /// [`Halt`] (what the asks return) or a [`Halted`] (an [`Asked`] body's).
    pub fn finish(
        &self,
        result: Result<impl Into<CallToolResponse>, impl Into<Halted>>,
    ) -> Result<CallToolResponse, McpError> {
        match result {
            Ok(done) => Ok(done.into()),
            Err(halt) => into_response(halt.into().0),
        }
    }

    /// [`finish`](Self::finish) for a `prompts/get`.
    pub fn finish_prompt(
        &self,
        result: Result<GetPromptResult, impl Into<Halted>>,
    ) -> Result<GetPromptResponse, McpError> {
        match result {
            Ok(done) => Ok(GetPromptResponse::Complete(done)),
            Err(halt) => into_prompt_response(halt.into().0),
        }
    }
}

/// How a task whose body stopped with `halt` ends: `cancelled` when it stopped because
/// the task was cancelled, else `failed` with the error.
fn into_task_exit(halt: Halted) -> TaskExit {
    match halt.0 {
        Halt::Ask(AskError::Cancelled) => TaskExit::Cancelled,
        halt => match into_response(halt) {
            Err(e) => TaskExit::Error(e),
            Ok(_) => TaskExit::Error(McpError::internal_error(
                "a task cannot answer with input_required",
                None,
            )),
        },
    }
}
