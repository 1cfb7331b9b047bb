//! Serving MCP over Streamable HTTP (feature `http`), fast and with safe defaults.
//!
//! [`serve`] binds an address and serves a handler at `http://ADDR/mcp`;
//! [`serve_on`] serves a [`router`] on a listener the caller bound. Users who build
//! their own axum app take [`service`] (or [`router`]) and serve it their own way
//! (then TCP_NODELAY and the timeouts below are theirs to set).
//!
//! What [`HttpOptions::default`] gives, and why:
//!
//! | option | default | |
//! |---|---|---|
//! | [`allow_remote`](HttpOptions::allow_remote) | `false` | a non-loopback bind is refused; when allowed, a warning goes to stderr |
//! | [`header_read_timeout`](HttpOptions::header_read_timeout) | 30 s | a connection that has not sent a whole request head by then is closed |
//! | [`body_read_timeout`](HttpOptions::body_read_timeout) | 30 s | a request whose body has not all arrived by then is answered `408` |
//! | body size | 4 MiB | a larger body is answered `413` |
//! | [`max_inflight_body_bytes`](HttpOptions::max_inflight_body_bytes) | 64 MiB | the bodies still arriving hold at most this many bytes between them, across every connection, counted as bytes arrive (a request that has sent only its head holds none); a body whose next bytes do not fit is read no further until there is room (within its body timeout, else `408`), while smaller ones that fit go ahead |
//! | [`max_connections`](HttpOptions::max_connections) | 1024 | further connections wait in the listen backlog until one closes |
//! | [`allowed_hosts`](HttpOptions::allowed_host) | `localhost`, `127.0.0.1`, `::1` (any port) | other `Host` headers get `403` (DNS rebinding); add a proxy's name with [`allowed_host`](HttpOptions::allowed_host) |
//! | [`allowed_origins`](HttpOptions::allowed_origin) | `http(s)://localhost`, `127.0.0.1`, `[::1]` (any port) | a request with another `Origin` gets `403`; a request without `Origin` passes |
//! | [`session_idle_timeout`](HttpOptions::session_idle_timeout) | 300 s | a push-era session (2025-06-18, 2025-11-25) unused this long is closed |
//! | [`max_sessions`](HttpOptions::max_sessions) | 512 | a new session past the cap closes the oldest session of the principal holding the most |
//! | [`max_sessions_per_principal`](HttpOptions::max_sessions_per_principal) | 64 | an authenticated principal's new session past it closes that principal's oldest |
//! | [`bearer_token`](HttpOptions::bearer_token) | none: no authentication | with tokens, a request without a listed `Authorization: Bearer` token gets `401`; the token's [`Principal`] is what sealed state is bound to |
//!
//! A push-era session is bound to the [`Principal`] whose request opened it: another
//! principal's request naming it is answered as for an unknown session (`404`), so
//! nobody answers or closes another's questions, and nobody's sessions are closed to
//! make room for another's while they hold no more than anyone else (see
//! [`CappedSessions`]). A JSON POST whose body is not a JSON-RPC message is answered
//! `400` with a JSON-RPC parse error (`-32700`). [`router`] does both through
//! [`service_middleware`].
//!
//! Every accepted socket gets TCP_NODELAY: without it a reply written in two pieces
//! (an SSE event, then the chunk terminator) waits for the client's delayed ACK on a
//! reused connection.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::ServerHandler;
use ::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use ::rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService,
};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};

use super::Principal;

mod body;
mod layers;
mod pages;
pub use pages::PAGES_PATH;
mod sessions;

pub use layers::service_middleware;
pub use sessions::CappedSessions;

/// The path MCP is served at by [`router`], [`serve`] and [`serve_on`].
pub const MCP_PATH: &str = "/mcp";

/// The default of [`HttpOptions::header_read_timeout`].
const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The default of [`HttpOptions::max_connections`].
const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// The default of [`HttpOptions::session_idle_timeout`].
const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// The default of [`HttpOptions::body_read_timeout`].
const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest request body taken (4 MiB): a JSON-RPC message is far smaller.
const MAX_BODY: usize = 4 * 1024 * 1024;
/// The default of [`HttpOptions::max_inflight_body_bytes`].
const DEFAULT_MAX_INFLIGHT_BODY: usize = 64 * 1024 * 1024;

/// The default of [`HttpOptions::max_sessions`]: 512 live push-era sessions. Each holds
/// the channels rmcp opens for it, so the cap bounds their memory.
const DEFAULT_MAX_SESSIONS: usize = 512;
/// The default of [`HttpOptions::max_sessions_per_principal`].
const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL: usize = 64;

/// The `Host` names accepted by default: loopback only, any port.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];
/// The `Origin`s accepted by default: pages served from this machine, any port.
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// A hook run on every accepted socket (see [`HttpOptions::on_accept`]).
type AcceptHook = Arc<dyn Fn(&TcpStream) + Send + Sync>;

/// How [`serve`], [`serve_on`], [`router`] and [`service`] serve MCP over HTTP.
///
/// `Default` is the safe choice for a server on a developer's machine; see the
/// [module documentation](self) for each default. Setters take and return `self`:
///
/// ```
/// use std::time::Duration;
/// use elicit_rmcp::http::HttpOptions;
///
/// let options = HttpOptions::default()
///     .allowed_host("mcp.example.com")
///     .allowed_origin("https://app.example.com")
///     .header_read_timeout(Duration::from_secs(10))
///     .max_connections(256);
/// # let _ = options;
/// ```
#[derive(Clone)]
pub struct HttpOptions {
    allow_remote: bool,
    header_read_timeout: Duration,
    body_read_timeout: Duration,
    max_inflight_body: usize,
    max_connections: usize,
    allowed_hosts: Vec<String>,
    any_host: bool,
    allowed_origins: Vec<String>,
    session_idle_timeout: Option<Duration>,
    max_sessions: usize,
    max_sessions_per_principal: usize,
    on_accept: Option<AcceptHook>,
    tokens: Arc<Vec<(String, Principal)>>,
    json_responses: bool,
    pages: Option<elicit_core::engine::Pages>,
    page_visitor: Option<VisitorHook>,
}

/// Who opens a page, by the request's headers (see [`HttpOptions::page_visitor`]).
type VisitorHook = Arc<dyn Fn(&axum::http::HeaderMap) -> Option<String> + Send + Sync>;

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            allow_remote: false,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            max_inflight_body: DEFAULT_MAX_INFLIGHT_BODY,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            allowed_hosts: LOOPBACK_HOSTS.iter().map(|h| h.to_string()).collect(),
            any_host: false,
            allowed_origins: LOOPBACK_ORIGINS.iter().map(|o| o.to_string()).collect(),
            session_idle_timeout: Some(DEFAULT_SESSION_IDLE_TIMEOUT),
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_sessions_per_principal: DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
            on_accept: None,
            tokens: Arc::new(Vec::new()),
            json_responses: false,
            pages: None,
            page_visitor: None,
        }
    }
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpOptions")
            .field("allow_remote", &self.allow_remote)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_inflight_body", &self.max_inflight_body)
            .field("max_connections", &self.max_connections)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("any_host", &self.any_host)
            .field("allowed_origins", &self.allowed_origins)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .field("max_sessions", &self.max_sessions)
            .field(
                "max_sessions_per_principal",
                &self.max_sessions_per_principal,
            )
            .field("on_accept", &self.on_accept.as_ref().map(|_| "Fn"))
            .field("json_responses", &self.json_responses)
            .field("pages", &self.pages)
            .field("page_visitor", &self.page_visitor.as_ref().map(|_| "Fn"))
            // The tokens are secrets: only who they stand for.
            .field(
                "bearer_tokens_for",
                &self
                    .tokens
                    .iter()
                    .map(|(_, p)| p.as_str())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl HttpOptions {
    /// Serves the engine's web pages (`Elicitor::pages`) on the same router, at
    /// [`PAGES_PATH`]: behind the same `Host` check, an answer taken
    /// only from the page's own origin, at most 1 MiB read within the body timeout.
    /// Give the pages the address clients reach the server at (`Pages::new`).
    pub fn pages(mut self, pages: elicit_core::engine::Pages) -> HttpOptions {
        self.pages = Some(pages);
        self
    }

    /// Who opens a page, by the request's headers (the server's own sign-in: a session
    /// cookie): a page is shown and answered only for the principal its call was for;
    /// `None` from the hook is answered `401`. Without a hook the link alone admits,
    /// which suits a server on the person's own machine (loopback); a server others can
    /// reach should say who the visitor is.
    pub fn page_visitor(
        mut self,
        hook: impl Fn(&axum::http::HeaderMap) -> Option<String> + Send + Sync + 'static,
    ) -> HttpOptions {
        self.page_visitor = Some(Arc::new(hook));
        self
    }

    /// Whether [`serve`] may bind an address other machines can reach (default
    /// `false`). When `true` and the address is not loopback, [`serve`] says so on
    /// stderr. The `Host` check still applies: add the names clients use with
    /// [`allowed_host`](Self::allowed_host).
    pub fn allow_remote(mut self, allow: bool) -> HttpOptions {
        self.allow_remote = allow;
        self
    }

    /// How long a connection may take to send a whole request head (request line and
    /// headers) before it is closed; default 30 s.
    pub fn header_read_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.header_read_timeout = timeout;
        self
    }
    /// How long a request's body may take to arrive once its head has (default 30 s):
    /// a body still incomplete then is answered `408 Request Timeout` and its
    /// connection closed, so a client that sends a head and then nothing holds no slot
    /// for long.
    pub fn body_read_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.body_read_timeout = timeout;
        self
    }

    /// The most bytes of request bodies held at once, across every connection (default
    /// 64 MiB, at least 1).
    ///
    /// Room is taken for a body's bytes as they arrive, not for its declared
    /// `Content-Length`: a request that has sent only its head holds none. It is given
    /// back when the body has all arrived, is refused or is dropped. A body whose next
    /// bytes do not fit is read no further (nor is its connection) until room is given
    /// back, within its [body timeout](Self::body_read_timeout), else it is answered
    /// `408`; meanwhile another body's bytes that fit are taken at once, not queued
    /// behind it, so a large body may wait while small ones pass. Bodies sent slowly
    /// hold the room of what they have sent until they end or their body timeout
    /// passes. A body larger than the whole of it (or than 4 MiB) is answered `413`.
    pub fn max_inflight_body_bytes(mut self, max: usize) -> HttpOptions {
        self.max_inflight_body = max.max(1);
        self
    }

    /// How many connections are served at once (default 1024, at least 1). Further
    /// connections wait, unaccepted, until one closes.
    pub fn max_connections(mut self, max: usize) -> HttpOptions {
        self.max_connections = max.max(1);
        self
    }

    /// Accepts `name` (a host name, or `host:port` for that port only) in the `Host`
    /// header, besides the loopback names: e.g. the name a reverse proxy forwards.
    pub fn allowed_host(mut self, name: impl Into<String>) -> HttpOptions {
        self.allowed_hosts.push(name.into());
        self
    }

    /// Accepts every `Host` header. Only for a server behind a proxy that checks the
    /// host itself: without the check, a web page can reach a local server through
    /// DNS rebinding.
    pub fn any_host(mut self) -> HttpOptions {
        self.any_host = true;
        self
    }

    /// Accepts requests from pages of `origin` (`scheme://host[:port]`, `:*` for any
    /// port, `null` for the browser's `Origin: null`), besides loopback pages.
    pub fn allowed_origin(mut self, origin: impl Into<String>) -> HttpOptions {
        self.allowed_origins.push(origin.into());
        self
    }

    /// Accepts requests with an `Origin` only from the origins of later
    /// [`allowed_origin`](Self::allowed_origin) calls: loopback pages are refused too.
    pub fn no_loopback_origins(mut self) -> HttpOptions {
        self.allowed_origins
            .retain(|o| !LOOPBACK_ORIGINS.contains(&o.as_str()));
        self
    }

    /// How long a push-era session (2025-06-18, 2025-11-25) may stay unused before it
    /// is closed (default 300 s; `None`: never, not recommended).
    pub fn session_idle_timeout(mut self, timeout: Option<Duration>) -> HttpOptions {
        self.session_idle_timeout = timeout;
        self
    }

    /// How many push-era sessions may be live at once (default 512, at least 1): a
    /// new session past the cap first closes the oldest session of the principal
    /// holding the most, so nobody holding no more than anyone else loses a session to
    /// another's.
    pub fn max_sessions(mut self, max: usize) -> HttpOptions {
        self.max_sessions = max.max(1);
        self
    }

    /// How many push-era sessions one authenticated [`Principal`] may hold at once
    /// (default 64, at least 1): its new session past the quota first closes its own
    /// oldest. Without [bearer tokens](Self::bearer_token) (or a layer of one's own
    /// marking requests with a principal) every client is the same anonymous principal,
    /// which only [`max_sessions`](Self::max_sessions) bounds.
    pub fn max_sessions_per_principal(mut self, max: usize) -> HttpOptions {
        self.max_sessions_per_principal = max.max(1);
        self
    }

    /// Requires `Authorization: Bearer TOKEN` on every request to [`router`] (and so
    /// [`serve`]) once any token is given; `token` stands for `principal`, the
    /// [`Principal`] that [`Elicitor::tool`](super::Elicitor::tool) binds sealed state
    /// to, so one principal's `requestState` is refused for another. A missing or
    /// unlisted token gets `401` with `WWW-Authenticate: Bearer`. Tokens are compared
    /// in constant time; give long random ones (e.g. 32 bytes, base64).
    ///
    /// This is a shared-secret check for a few known clients. For OAuth, put a
    /// resource-server layer of one's own in front of [`service`] and have it insert the
    /// caller's [`Principal`] into the request's extensions.
    ///
    /// ```
    /// use elicit_rmcp::http::HttpOptions;
    ///
    /// let options = HttpOptions::default()
    ///     .bearer_token("3q2+7wQx1m0Yl0a7bKc3dA8uXz5b9PqT", "alice")
    ///     .bearer_token("Zk1v8sYc2nQe4rTw6uIo0pAs3dFg5hJk", "ci-bot");
    /// # let _ = options;
    /// ```
    pub fn bearer_token(
        mut self,
        token: impl Into<String>,
        principal: impl Into<String>,
    ) -> HttpOptions {
        Arc::make_mut(&mut self.tokens).push((token.into(), Principal::new(principal)));
        self
    }

    /// Runs `hook` on every socket [`serve_on`] accepts, after TCP_NODELAY is set: to
    /// set other socket options, log peers or check what was set.
    pub fn on_accept(mut self, hook: impl Fn(&TcpStream) + Send + Sync + 'static) -> HttpOptions {
        self.on_accept = Some(Arc::new(hook));
        self
    }

    /// Whether a request whose whole reply is one JSON-RPC message (every 2026-07-28
    /// round, `input_required` or the result) is answered with an `application/json`
    /// body instead of an SSE stream (default `false`: SSE, the framing every client of
    /// every revision takes). A handler that sends a notification or a request before
    /// its result is answered with SSE either way, so nothing is lost; sessions of the
    /// push era (2025-06-18, 2025-11-25) keep their SSE streams.
    ///
    /// JSON is one write instead of an SSE stream's two, so a round costs the server less
    /// and its latency is lower: a switch for servers whose clients all take it.
    pub fn json_responses(mut self, json: bool) -> HttpOptions {
        self.json_responses = json;
        self
    }

    /// The rmcp configuration these options give (Host and Origin checks, and
    /// [`json_responses`](Self::json_responses)).
    pub fn rmcp_config(&self) -> StreamableHttpServerConfig {
        let config = StreamableHttpServerConfig::default()
            .with_allowed_origins(self.allowed_origins.iter().cloned())
            .enforce_origin_validation()
            .with_json_response(self.json_responses);
        if self.any_host {
            config.disable_allowed_hosts()
        } else {
            config.with_allowed_hosts(self.allowed_hosts.iter().cloned())
        }
    }

    /// A session manager with [`session_idle_timeout`](Self::session_idle_timeout).
    pub fn session_manager(&self) -> LocalSessionManager {
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = self.session_idle_timeout;
        sessions
    }

    /// Whether [`serve`] may bind `addr`: loopback addresses always, others only with
    /// [`allow_remote`](Self::allow_remote).
    pub fn check_bind(&self, addr: SocketAddr) -> Result<(), RemoteBindRefused> {
        if addr.ip().is_loopback() || self.allow_remote {
            Ok(())
        } else {
            Err(RemoteBindRefused { addr })
        }
    }
}

/// [`serve`] was asked to bind an address other machines can reach without
/// [`HttpOptions::allow_remote`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteBindRefused {
    /// The address refused.
    pub addr: SocketAddr,
}

impl fmt::Display for RemoteBindRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refusing to serve on {}: it is reachable from other machines; bind a loopback \
             address (127.0.0.1) or allow remote clients explicitly (--allow-remote)",
            self.addr
        )
    }
}

impl std::error::Error for RemoteBindRefused {}

/// The Streamable HTTP service of `make()`'s handler (one per session, or per
/// request when stateless), with the Host and Origin checks of `options`: a tower
/// service to mount in an axum app of one's own.
///
/// `make` runs for every session, and for every request of a 2026-07-28 client: build
/// the handler once and hand out clones (`move || server.clone()`), rather than a new
/// one each time (rmcp's `#[tool_router]` checks every tool's name while it builds the
/// router, a large part of a bare tool call's work).
pub fn service<S, F>(make: F, options: &HttpOptions) -> StreamableHttpService<S, CappedSessions>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    service_with_sessions(make, Arc::new(options.session_manager()), options)
}

/// [`service`] with the caller's session manager (to watch or close sessions), capped
/// at [`HttpOptions::max_sessions`] and [`HttpOptions::max_sessions_per_principal`]
/// (its idle timeout is the caller's).
pub fn service_with_sessions<S, F>(
    make: F,
    sessions: Arc<LocalSessionManager>,
    options: &HttpOptions,
) -> StreamableHttpService<S, CappedSessions>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let sessions = Arc::new(CappedSessions::new(
        sessions,
        options.max_sessions,
        options.max_sessions_per_principal,
    ));
    StreamableHttpService::new(move || Ok(make()), sessions, options.rmcp_config())
}

/// An axum router serving [`service`] at [`MCP_PATH`], with [`service_middleware`], the
/// request-body limits and, when [`HttpOptions::bearer_token`] gave any, the
/// bearer-token check.
pub fn router<S, F>(make: F, options: &HttpOptions) -> axum::Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    layers::router(service(make, options), options)
}

/// [`router`] with the caller's session manager.
pub fn router_with_sessions<S, F>(
    make: F,
    sessions: Arc<LocalSessionManager>,
    options: &HttpOptions,
) -> axum::Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    layers::router(service_with_sessions(make, sessions, options), options)
}

/// Binds `addr` and serves `make()`'s handler at `http://ADDR/mcp` until the future
/// is dropped or the listener fails. Refuses a non-loopback `addr` unless
/// [`HttpOptions::allow_remote`]; prints the address served on stderr, and a warning
/// when it is reachable from other machines.
pub async fn serve<S, F>(
    addr: SocketAddr,
    make: F,
    options: HttpOptions,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    options.check_bind(addr)?;
    let listener = TcpListener::bind(addr).await?;
    serve_listener(listener, make, options).await
}

/// [`serve`] on a listener the caller bound (and checked with
/// [`HttpOptions::check_bind`]): for a server that needs its address before it serves,
/// such as the address of its pages ([`HttpOptions::pages`]). Says on stderr what
/// [`serve`] says.
pub async fn serve_listener<S, F>(
    listener: TcpListener,
    make: F,
    options: HttpOptions,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let local = listener.local_addr()?;
    if !local.ip().is_loopback() {
        if options.tokens.is_empty() {
            eprintln!(
                "warning: serving on {local}, reachable from other machines, without authentication"
            );
        } else {
            eprintln!(
                "warning: serving on {local}, reachable from other machines (bearer tokens required)"
            );
        }
    }
    eprintln!("listening on http://{local}{MCP_PATH}");
    let router = router(make, &options);
    serve_on(listener, router, options).await?;
    Ok(())
}

/// Serves `router` (e.g. [`router`]) on a listener the caller bound, such as a test's
/// `127.0.0.1:0`, until the future is dropped or the listener fails: HTTP/1.1 with
/// TCP_NODELAY, the header-read timeout and the connection cap of `options`.
/// Connections already accepted finish on their own when the future is dropped.
pub async fn serve_on(
    listener: TcpListener,
    router: axum::Router,
    options: HttpOptions,
) -> std::io::Result<()> {
    let slots = Arc::new(tokio::sync::Semaphore::new(options.max_connections));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let (stream, _peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of file descriptors and the like: wait, as hyper's and axum's
                // accept loops do, rather than spin or stop serving.
                eprintln!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Best effort: a socket that refuses the option is still served.
        let _ = stream.set_nodelay(true);
        if let Some(hook) = &options.on_accept {
            hook(&stream);
        }
        let service = TowerToHyperService::new(router.clone());
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(options.header_read_timeout);
        tokio::spawn(async move {
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            // A connection's error (a timeout, a malformed request) is the client's.
            let _ = connection.await;
            drop(slot);
        });
    }
}

/// Errors of one connection that `accept` reports and that leave the listener fine.
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}
