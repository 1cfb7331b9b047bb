//! [`Elicitor`]: the server-wide settings, and the [`Session`] each call opens.

use std::collections::BTreeMap;
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{CallToolRequestParams, GetPromptRequestParams};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::task_manager::TaskContext;
use elicit_core::Strictness;
use elicit_core::engine::Engine;
use elicit_core::seal::{Binding, Keyring};
use elicit_core::store::RedeemStore;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::principal::principal_of;
use crate::session::Session;
use crate::tasks::Tasks;
use crate::wire::{Declared, declared, rpc_error};

/// Server-wide settings: the [`Engine`] (the key that seals 2026-07-28 state, single
/// use, timeouts, attempts) and the server's [`Tasks`].
///
/// Clones share the settings and keys; keep one in the server and open a [`Session`] per call.
#[derive(Clone, Debug)]
pub struct Elicitor {
    pub(crate) engine: Engine,
    pub(crate) tasks: Option<Tasks>,
}

/// What a call's session is opened with besides its request: whom the call is for, what
/// its state is bound to (needed on 2026-07-28 only), the request's state and answers, and
/// on the Tasks channel the task with the token its cancellation fires.
#[derive(Clone, Default)]
pub(crate) struct Opening {
    pub(crate) principal: String,
    pub(crate) binding: Option<Binding>,
    pub(crate) request_state: Option<String>,
    pub(crate) responses: Option<BTreeMap<String, Value>>,
    pub(crate) task: Option<(TaskContext, CancellationToken)>,
    /// What the client declared, when the router read it already (else the session
    /// reads it).
    pub(crate) declared: Option<Declared>,
}

impl Elicitor {
    /// Settings sealing 2026-07-28 state with `keyring`, single use recorded in this
    /// process's memory, and the engine's default [`Settings`](elicit_core::engine::Settings):
    /// a ten-minute timeout, three attempts per question, strict validation, a state that
    /// opens for 15 minutes.
    pub fn new(keyring: Keyring) -> Elicitor {
        Elicitor::with_engine(Engine::new(keyring))
    }

    /// Settings around an engine configured beforehand.
    ///
    /// Built without serde_json's `preserve_order` feature, a server's forms reach the
    /// client with their fields in alphabetical order (rmcp writes every message through
    /// a `serde_json::Value`); the first elicitor of such a process says so on standard
    /// error.
    pub fn with_engine(engine: Engine) -> Elicitor {
        crate::wire::warn_if_field_order_lost();
        Elicitor {
            engine,
            tasks: None,
        }
    }

    /// Runs tasks (the Tasks extension, 2026-07-28) in `tasks`: the tools
    /// [`Tools::with_task_support`](crate::Tools::with_task_support) names, and the bodies
    /// that [continue in a task](Session::continue_in_task). Every handler of one server
    /// must share the same `Tasks` (clone it).
    pub fn with_tasks(mut self, tasks: Tasks) -> Elicitor {
        self.tasks = Some(tasks);
        self
    }

    /// Where redeemed states are recorded (2026-07-28): each sealed state is good for
    /// one retry, and a replayed one is refused. The default covers one process;
    /// replicas behind a load balancer share a store such as
    /// `elicit_core::store::RedisStore` (feature `redis`). Not where tasks are kept:
    /// that is [`Tasks::with_task_store`].
    pub fn with_redeem_store(mut self, store: impl RedeemStore + 'static) -> Elicitor {
        self.engine = self.engine.with_redeem_store(store);
        self
    }

    /// Old name of [`with_redeem_store`](Self::with_redeem_store).
    // Hidden: old name, kept for one release.
    #[deprecated(note = "renamed to `with_redeem_store`")]
    #[doc(hidden)]
    pub fn with_store(self, store: impl RedeemStore + 'static) -> Elicitor {
        self.with_redeem_store(store)
    }

    /// Asks on the web pages `pages` (see `elicit_core::engine::Pages`): what
    /// [`Session::ask_on_page`] asks, and the forms of a client that shows none. Serve
    /// them with [`pages`](Self::pages) (`elicit_rmcp::http::HttpOptions::pages` mounts
    /// them on the server's router).
    pub fn with_pages(mut self, pages: elicit_core::engine::Pages) -> Elicitor {
        self.engine = self.engine.with_pages(pages);
        self
    }

    /// The pages it asks on, to serve them.
    pub fn pages(&self) -> Option<&elicit_core::engine::Pages> {
        self.engine.pages()
    }

    /// Whether answers sent with a *first* call are read (`false` by default; see
    /// [`Settings::first_round_answers`](elicit_core::engine::Settings::first_round_answers)).
    pub fn with_first_round_answers(mut self, read: bool) -> Elicitor {
        self.engine.settings_mut().first_round_answers = read;
        self
    }

    /// How long a push-mode question waits for an answer (`None`: forever).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Elicitor {
        self.engine.settings_mut().timeout = timeout;
        self
    }

    /// How many answers a single question may get (at least 1).
    pub fn with_attempts(mut self, attempts: u32) -> Elicitor {
        self.engine.settings_mut().attempts = attempts.max(1);
        self
    }

    /// How strictly answers are validated (see [`Strictness`]).
    pub fn with_strictness(mut self, strictness: Strictness) -> Elicitor {
        self.engine.settings_mut().strictness = strictness;
        self
    }

    /// A session for a `tools/call`, bound to the request's
    /// [`Principal`](crate::Principal) (none: an unauthenticated client).
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
        let arguments = params.arguments.as_ref();
        let binding = Binding::for_arguments(principal, "tools/call", &params.name, arguments);
        self.call(
            principal,
            ctx,
            binding,
            &params.request_state,
            &params.input_responses,
        )
    }

    /// A session for a `prompts/get`, bound to the request's
    /// [`Principal`](crate::Principal) (none: an unauthenticated client).
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
        let arguments = params.arguments.as_ref();
        let binding = Binding::for_arguments(principal, "prompts/get", &params.name, arguments);
        self.call(
            principal,
            ctx,
            binding,
            &params.request_state,
            &params.input_responses,
        )
    }

    /// A session for a call of `principal` bound to `binding`, with the request's state
    /// and answers.
    fn call(
        &self,
        principal: &str,
        ctx: &RequestContext<RoleServer>,
        binding: Binding,
        request_state: &Option<String>,
        responses: &Option<BTreeMap<String, Value>>,
    ) -> Result<Session, McpError> {
        let opening = Opening {
            principal: principal.to_owned(),
            binding: Some(binding),
            request_state: request_state.clone(),
            responses: responses.clone(),
            task: None,
            declared: None,
        };
        self.session(ctx, opening)
    }

    /// The session of the call of `ctx`, opened with `opening`.
    pub(crate) fn session(
        &self,
        ctx: &RequestContext<RoleServer>,
        opening: Opening,
    ) -> Result<Session, McpError> {
        let Opening {
            principal,
            binding,
            request_state,
            responses,
            task,
            declared: read,
        } = opening;
        let declared = read.unwrap_or_else(|| declared(ctx));
        let client = declared.client;
        let rounds = client.revision.is_some_and(|r| r.has_rounds());
        let call = match binding {
            _ if task.is_some() => self.engine.push(client).into_task(),
            Some(binding) if rounds => self
                .engine
                .rounds(
                    client,
                    binding,
                    request_state.as_deref(),
                    responses.unwrap_or_default(),
                )
                .map_err(rpc_error)?,
            None if rounds => {
                return Err(McpError::internal_error(
                    "a 2026-07-28 session needs what its state is bound to",
                    None,
                ));
            }
            // Bound, so that a page asked by a link is found again by the next call.
            Some(binding) => self.engine.push(client).bind(binding),
            None => self.engine.push(client),
        };
        Ok(Session::new(
            call,
            ctx,
            task,
            self.tasks.clone(),
            declared.tasks,
            principal,
        ))
    }
}
