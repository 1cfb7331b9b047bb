//! The question engine: forms, confirms, URLs, wizards and batches asked through any MCP
//! server, in every revision and on every channel (feature `seal`).
//!
//! An SDK adapter (`elicit-rmcp`, or a few lines of your own for another SDK or for none)
//! opens a [`Call`] per `tools/call` and asks through it; the engine does the rest, once
//! for every channel: the capability check, single use of sealed state, question pinning,
//! binding, re-asking with the problems, attempt limits, and replaying earlier answers.
//!
//! A call's questions reach the user on one [`Channel`]:
//!
//! - **push** (2025-06-18, 2025-11-25): each question is an `elicitation/create` request
//!   the adapter sends and awaits ([`Transport::send`]);
//! - **rounds** (2026-07-28): a question ends the call with an `input_required` result
//!   ([`Halt::InputRequired`]); the client answers and retries the call, and the tool body
//!   runs again from the top, its earlier answers replayed from the sealed `requestState`;
//! - **task** (2026-07-28 with the Tasks extension): the adapter puts each question in the
//!   task and awaits the answer `tasks/update` brings ([`Transport::send`] again).
//!
//! Whatever is asked (a form, a yes/no question, a page by URL, a batch, a wizard) is
//! carried the same way on each channel: pushed, one request at a time, each until it has
//! a valid answer; in a task, every request of a batch at once; in rounds, every request
//! still unanswered in one `input_required` result. An invalid answer is asked again under
//! the next key (`ask0`, then `ask0.1`, `ask0.2`), the problems above the message, and
//! each answer is validated once: what rounds replay from the state is read as it was
//! validated.
//!
//! The tool body must be deterministic given its arguments and the answers: in rounds it
//! is replayed once per round. Do side effects after the last question.
//!
//! ```
//! use elicit_core::engine::{Peer, Engine, Halt};
//! use elicit_core::seal::{Binding, Keyring};
//! use elicit_core::{Elicit, Elicitation, Revision};
//! use serde_json::json;
//!
//! #[derive(Elicit, serde::Deserialize)]
//! struct Approve { approve: bool }
//!
//! let engine = Engine::new(Keyring::generate());
//! let peer = Peer::new(Some(Revision::V2026_07_28), &json!({"elicitation": {}}));
//! let binding = Binding::new("alice", "tools/call", "purge", &json!({}));
//!
//! # async fn body(engine: &Engine, peer: Peer, binding: Binding) -> Result<(), Box<dyn std::error::Error>> {
//! // The first round: the question ends the call.
//! let mut call = engine.rounds(peer.clone(), binding.clone(), None, Default::default())?;
//! let Err(Halt::InputRequired(round)) = call.ask::<Approve>(&(), "Really delete?").await else {
//!     panic!("asked")
//! };
//! let key = round.requests[0].key.clone();
//!
//! // The retry brings the answer and the state; the same body reads the answer.
//! let answers = [(key, json!({"action": "accept", "content": {"approve": true}}))].into();
//! let mut call = engine.rounds(peer, binding, Some(&round.state), answers)?;
//! call.redeem().await?; // single use: a replay of this retry is refused
//! let answer = call.ask::<Approve>(&(), "Really delete?").await?;
//! assert!(matches!(answer, Elicitation::Accept(Approve { approve: true })));
//! # Ok(())
//! # }
//! # futures_executor_stub::run(body(&engine, peer, binding)).unwrap();
//! # mod futures_executor_stub {
//! #     pub fn run<F: std::future::Future>(f: F) -> F::Output {
//! #         let waker = std::task::Waker::noop();
//! #         let mut cx = std::task::Context::from_waker(waker);
//! #         let mut f = std::pin::pin!(f);
//! #         loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
//! #     }
//! # }
//! ```
//!
//! `()` is the transport of a call that never pushes (rounds); a push or task call takes
//! the adapter's [`Transport`].

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::answer::Strictness;
use crate::form::Revision;
use crate::seal::{Binding, Keyring, SealError, Sealer, random_id};
use crate::store::{MemoryStore, RedeemStore};

mod ask;
mod error;
mod exchange;
#[cfg(feature = "web")]
mod page;
#[cfg(feature = "web")]
mod pages;
mod peer;
mod profile;
mod question;
mod questions;
mod rounds;
mod state;
#[cfg(test)]
mod tests;

pub use ask::{Input, InputAnswer};
pub use error::{AskError, Halt, InputRequired, PageLink, RpcError};
#[cfg(feature = "web")]
pub use pages::{Pages, Served};
pub use peer::Peer;
pub use profile::Renders;
pub use question::{Notice, Question, Transport};

// Hidden: the old names, kept for one release so that code using them gets a warning
// instead of an error.
#[doc(hidden)]
#[deprecated(note = "renamed to `engine::Peer`")]
pub type Client = Peer;
#[doc(hidden)]
#[deprecated(note = "renamed to `engine::Question`")]
pub type Request = Question;
use rounds::Rounds;
use state::{Saved, Unredeemed};

/// The settings of an [`Engine`], each with its default.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Settings {
    /// How long a pushed question (or one in a task) waits for the person to answer;
    /// `None`: forever. Default: ten minutes: a person reads and fills a form.
    pub timeout: Option<Duration>,
    /// While a pushed question waits for the person, how often the adapter tells the
    /// client the call is alive (`notifications/progress` for the call's
    /// `progressToken`, when the client sent one); `None`: never. Default: 10 seconds,
    /// below the 60 s request timeout of the TypeScript SDK, so clients that reset their
    /// timeout on progress (Claude Code, MCP Inspector) do not end the call while a
    /// person types. Clients with a fixed wall clock end it anyway: see
    /// docs/client-profiles.md for which channel to pick for slow questions.
    pub progress_interval: Option<Duration>,
    /// How many answers one question may get (at least 1). Default: 3.
    pub attempts: u32,
    /// How strictly answers are validated. Default: [`Strictness::Strict`].
    pub strictness: Strictness,
    /// Whether answers sent with a *first* call (no `requestState`, so no question was
    /// asked) are read. Default: `false`, they are ignored and the question is asked:
    /// reading them lets a client approve what no user was shown; only a test harness
    /// that sends answers up front (the MCP conformance suite does) needs it.
    pub first_round_answers: bool,
    /// How long a sealed `requestState` opens after it is sealed (whole seconds): the
    /// time a person has to answer one round of 2026-07-28. Default: 15 minutes.
    pub state_ttl: Duration,
    /// How far ahead of this server's clock another replica's time of sealing may be
    /// (whole seconds): replicas' clocks differ a little, never by minutes. Default: 30 s.
    pub clock_skew: Duration,
    /// What each known client renders of a form, by its `clientInfo.name` (compared
    /// without regard to case; see [`Peer::name`]): a field kind a client lacks is asked
    /// as one it has, and the answer read back and validated by the field's own rules.
    /// Default: the clients known to lack something (Codex CLI `codex-mcp-client`: no
    /// number, integer or multi-select fields; GitHub Copilot CLI
    /// `github-copilot-developer`: selects only as titled `oneOf`; Goose `goose`: no
    /// titled selects or multi-selects; Claude Desktop `claude-ai`: no forms at all, so
    /// with pages they go to a page), sources in docs/client-profiles.md. Add or replace
    /// entries for clients of your own; an unlisted client renders everything.
    ///
    /// Whatever the profile, a client that accepts a form with required fields without
    /// answering any of them is asked it once more with text, checkboxes and selects
    /// only, and then the question fails with a clear error rather than asking forever.
    pub client_profiles: Vec<(String, Renders)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout: Some(Duration::from_secs(600)),
            progress_interval: Some(Duration::from_secs(10)),
            attempts: crate::wizard::DEFAULT_ATTEMPTS,
            strictness: Strictness::Strict,
            first_round_answers: false,
            state_ttl: crate::seal::STATE_TTL,
            clock_skew: crate::seal::CLOCK_SKEW,
            client_profiles: profile::known_profiles(),
        }
    }
}

/// Server-wide: the keys that seal 2026-07-28 state, the record of redeemed states, and the
/// [`Settings`]. Clones share the keys and the record; keep one and open a [`Call`] per
/// tool call.
#[derive(Clone)]
pub struct Engine {
    keyring: Arc<Keyring>,
    store: Arc<dyn RedeemStore>,
    settings: Arc<Settings>,
    #[cfg(feature = "web")]
    pages: Option<Pages>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("store", &self.store)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine sealing state with `keyring`, single use recorded in this process's memory
    /// ([`MemoryStore`]), the default [`Settings`].
    pub fn new(keyring: Keyring) -> Engine {
        Engine {
            keyring: Arc::new(keyring),
            store: Arc::new(MemoryStore::default()),
            settings: Arc::new(Settings::default()),
            #[cfg(feature = "web")]
            pages: None,
        }
    }

    /// Asks on web pages (feature `web`): what [`Call::ask_on_page`] asks, and the forms
    /// of a client that shows none (it declares no form mode, or its profile says it
    /// cannot be trusted to show one: [`Renders::forms`]). Their answers are sealed
    /// with this engine's keys.
    #[cfg(feature = "web")]
    pub fn with_pages(mut self, pages: Pages) -> Engine {
        self.pages = Some(pages.keyed(self.keyring.clone(), self.settings.clock_skew));
        self
    }

    /// The pages it asks on, to serve them (feature `web`).
    #[cfg(feature = "web")]
    pub fn pages(&self) -> Option<&Pages> {
        self.pages.as_ref()
    }

    /// Where redeemed states are recorded: each sealed state is good for one retry, and
    /// a replayed one is refused. Replicas behind a load balancer share a store such as
    /// `store::RedisStore` (feature `redis`).
    pub fn with_redeem_store(mut self, store: impl RedeemStore + 'static) -> Engine {
        self.store = Arc::new(store);
        self
    }

    // Hidden: the old name, kept for one release so that code using it gets a warning
    // instead of an error.
    #[doc(hidden)]
    #[deprecated(note = "renamed to `Engine::with_redeem_store`")]
    pub fn with_store(self, store: impl RedeemStore + 'static) -> Engine {
        self.with_redeem_store(store)
    }

    /// The settings its calls are opened with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change them in place (`engine.settings_mut().attempts = 5`).
    pub fn settings_mut(&mut self) -> &mut Settings {
        Arc::make_mut(&mut self.settings)
    }

    /// A call whose questions are pushed: 2025-06-18 and 2025-11-25, where the server
    /// sends `elicitation/create` requests.
    pub fn push(&self, peer: Peer) -> Call {
        self.call(peer, Channel::Push, None)
    }

    /// A 2026-07-28 call in rounds: `request_state` and `responses` are the
    /// `requestState` and `inputResponses` of the request (none on a first call), and
    /// `binding` what its state is bound to. A state that was tampered with, has
    /// expired, was sealed by a foreign key, for another binding, is refused
    /// (`-32602`, "call the tool again without it").
    pub fn rounds(
        &self,
        peer: Peer,
        binding: Binding,
        request_state: Option<&str>,
        responses: BTreeMap<String, Value>,
    ) -> Result<Call, RpcError> {
        let sealer = Sealer::shared(
            self.keyring.clone(),
            self.settings.state_ttl,
            self.settings.clock_skew,
        );
        let (saved, unredeemed) = match request_state {
            Some(token) => {
                let (saved, issued_at, expires_at) = sealer
                    .open_stamped::<Saved>(&binding, token)
                    .map_err(state_error)?;
                if saved.round.is_empty() || saved.call.is_empty() {
                    return Err(state_error(SealError::Malformed("no round id")));
                }
                let round = Unredeemed {
                    id: saved.round.clone(),
                    issued_at,
                    expires_at,
                };
                (saved, Some(round))
            }
            None => (
                Saved {
                    call: random_id(),
                    ..Saved::default()
                },
                None,
            ),
        };
        let rounds = Rounds {
            sealer,
            store: self.store.clone(),
            first_round: request_state.is_none() && self.settings.first_round_answers,
            binding,
            saved,
            unredeemed,
            responses,
        };
        Ok(self.call(peer, Channel::Rounds, Some(rounds)))
    }

    /// The call of a request read as JSON (a server on no SDK): `method` is
    /// `tools/call` or `prompts/get` and `params` its params. A 2026-07-28 request (the
    /// version and the client's capabilities in its `_meta`) is a call in
    /// [rounds](Self::rounds), its state bound to `principal`, the method, the
    /// `name` and the `arguments`; any other is pushed to `handshake`, the client of the
    /// connection's `initialize`.
    ///
    /// ```
    /// use elicit_core::engine::{Channel, Peer, Engine};
    /// use elicit_core::seal::Keyring;
    /// use serde_json::json;
    ///
    /// let engine = Engine::new(Keyring::generate());
    /// let params = json!({"name": "book", "arguments": {}, "_meta": {
    ///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    ///     "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}});
    /// let call = engine.open("alice", "tools/call", &params, &Peer::default())?;
    /// assert_eq!(call.channel(), Channel::Rounds);
    /// assert!(call.peer().supports("form"));
    /// # Ok::<(), elicit_core::engine::RpcError>(())
    /// ```
    pub fn open(
        &self,
        principal: &str,
        method: &str,
        params: &Value,
        handshake: &Peer,
    ) -> Result<Call, RpcError> {
        let meta = &params["_meta"];
        let version = meta["io.modelcontextprotocol/protocolVersion"].as_str();
        let Some(revision) = version.and_then(|v| v.parse::<Revision>().ok()) else {
            let mut call = self.push(handshake.clone());
            call.set_progress_token(&meta["progressToken"]);
            return Ok(call);
        };
        let declared = &meta["io.modelcontextprotocol/clientCapabilities"];
        let mut peer = Peer::new(Some(revision), declared);
        peer.name = match meta["io.modelcontextprotocol/clientInfo"]["name"].as_str() {
            Some(name) => Some(name.to_owned()),
            None => handshake.name.clone(),
        };
        if !revision.has_rounds() {
            let mut call = self.push(peer);
            call.set_progress_token(&meta["progressToken"]);
            return Ok(call);
        }
        let name = params["name"].as_str().unwrap_or_default();
        let binding = Binding::new(principal, method, name, &params["arguments"]);
        let answers = match params.get("inputResponses") {
            Some(Value::Object(answers)) => answers.clone().into_iter().collect(),
            _ => BTreeMap::new(),
        };
        self.rounds(peer, binding, params["requestState"].as_str(), answers)
    }

    fn call(&self, peer: Peer, channel: Channel, rounds: Option<Rounds>) -> Call {
        let call_id = match &rounds {
            Some(r) => r.saved.call.clone(),
            None => random_id(),
        };
        let renders = peer.name.as_deref().map_or_else(Renders::default, |name| {
            self.settings
                .client_profiles
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(name))
                .map_or_else(Renders::default, |(_, renders)| *renders)
        });
        Call {
            peer,
            renders,
            channel,
            settings: self.settings.clone(),
            cursor: 0,
            call_id,
            rounds,
            binding: None,
            progress_token: None,
            #[cfg(feature = "web")]
            pages: self.pages.clone(),
            #[cfg(feature = "web")]
            links: page::Links::default(),
        }
    }
}

fn state_error(e: SealError) -> RpcError {
    RpcError::invalid_params(format!(
        "the requestState of this retry was refused: {e}; call the tool again without it"
    ))
}

/// How a call's questions reach the user: see the [module](self) docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Channel {
    /// `elicitation/create` requests sent to the client and awaited in place
    /// (2025-06-18, 2025-11-25).
    Push,
    /// `input_required` results, the call retried with the answers (2026-07-28).
    Rounds,
    /// A task: the questions wait in `tasks/get`, the answers come with `tasks/update`
    /// (2026-07-28 with the Tasks extension).
    Task,
}

/// One tool (or prompt) call that may ask the user things: see the [module](self) docs.
pub struct Call {
    peer: Peer,
    /// What the client renders of a form (its profile).
    renders: Renders,
    channel: Channel,
    settings: Arc<Settings>,
    cursor: usize,
    call_id: String,
    rounds: Option<Rounds>,
    /// What a pushed call is bound to, when the adapter said ([`Call::bind`]).
    binding: Option<Binding>,
    /// The request's `progressToken`, for keep-alives while a pushed question waits.
    progress_token: Option<Value>,
    #[cfg(feature = "web")]
    pages: Option<Pages>,
    /// The pages it went on from, asked by links.
    #[cfg(feature = "web")]
    links: page::Links,
}

impl fmt::Debug for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("peer", &self.peer)
            .field("channel", &self.channel)
            .field("cursor", &self.cursor)
            .finish_non_exhaustive()
    }
}

impl Call {
    /// The call's id: random, the same in every round of one call (in rounds it rides
    /// in the sealed state), another for every call. Use it as the idempotency key of
    /// the side effect the answers lead to.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// Keep-alives while a pushed question waits go to `token`, the request's
    /// `_meta.progressToken` ([`Question::keep_alive`]; [`Engine::open`] reads it
    /// itself). Only a string of at most 256 bytes or an integer is taken; anything else
    /// leaves the call without keep-alives.
    pub fn set_progress_token(&mut self, token: &Value) {
        self.progress_token = match token {
            Value::String(s) if s.len() <= 256 => Some(token.clone()),
            Value::Number(n) if n.is_i64() || n.is_u64() => Some(token.clone()),
            _ => None,
        };
    }

    /// How this call's questions reach the user.
    pub fn channel(&self) -> Channel {
        self.channel
    }

    /// What the client declared.
    pub fn peer(&self) -> &Peer {
        &self.peer
    }

    // Hidden: the old name, kept for one release.
    #[doc(hidden)]
    #[deprecated(note = "renamed to `Call::peer`")]
    pub fn client(&self) -> &Peer {
        &self.peer
    }

    // Hidden: kept for one release; each question now carries what the transport read
    // here (`Question::timeout`, `Question::progress_interval`).
    #[doc(hidden)]
    #[deprecated(
        note = "read `timeout` and `progress_interval` from each `Question` the transport sends"
    )]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Binds a pushed call to whom it is for, its tool and its arguments (a call in
    /// rounds is bound already): for a client with no URL mode, the question asked on a
    /// page ([`Call::ask_on_page`]) is found again by this binding when the tool is called
    /// again, and goes on with the page's answer.
    pub fn bind(mut self, binding: Binding) -> Call {
        self.binding = Some(binding);
        self
    }

    /// What the call is bound to.
    #[cfg_attr(not(feature = "web"), allow(dead_code))]
    pub(super) fn binding(&self) -> Option<&Binding> {
        match &self.rounds {
            Some(rounds) => Some(&rounds.binding),
            None => self.binding.as_ref(),
        }
    }

    /// This call, its further questions asked in a task (for a body that goes on as a
    /// task after asking in rounds). Redeem first: the round that starts the task must
    /// not be replayable.
    pub fn into_task(mut self) -> Call {
        self.rounds = None;
        self.channel = Channel::Task;
        self
    }

    fn next_index(&mut self) -> usize {
        let index = self.cursor;
        self.cursor += 1;
        index
    }

    /// Fails unless the client takes questions of `mode`.
    fn require(&self, mode: &'static str) -> Result<Revision, AskError> {
        match self.peer.revision {
            Some(revision) if self.peer.supports(mode) => Ok(revision),
            revision => Err(AskError::Unsupported { mode, revision }),
        }
    }
}

fn replay_error(e: crate::answer::AnswerError) -> Halt {
    Halt::Refused(RpcError::invalid_params(format!(
        "the answers in requestState no longer fit this tool: {e}; call it again without \
         requestState"
    )))
}
