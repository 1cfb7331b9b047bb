//! What [`router`](super::router) puts around the MCP service: bearer tokens,
//! request-body limits, the request's principal and JSON-RPC parse errors.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use ::rmcp::ServerHandler;
use ::rmcp::transport::streamable_http_server::StreamableHttpService;
use subtle::ConstantTimeEq;

use super::body::{Guarded, Pool, Refusal, Verdict};
use super::sessions::{CappedSessions, as_principal};
use super::{HttpOptions, MAX_BODY, MCP_PATH};
use crate::Principal;
use crate::tasks::{MAX_WATCHED_TASKS, TaskIds};

/// The router of [`router`](super::router): `service` at [`MCP_PATH`] behind, from the
/// outside in, the bearer-token check when there are tokens (so nothing else runs for
/// a stranger), the body limits and [`service_middleware`]'s work.
///
/// All of it is one tower service sharing one [`Arc`]: a request costs one future and
/// a reference count, where a stack of `from_fn` layers boxed a future and cloned the
/// service behind it (rmcp's service clones its whole configuration, allowed hosts and
/// origins, each time) at every layer.
pub(super) fn router<S>(
    service: StreamableHttpService<S, CappedSessions>,
    options: &HttpOptions,
) -> axum::Router
where
    S: ServerHandler + Send + 'static,
{
    let mcp = Mcp(Arc::new(Layers {
        service,
        limits: BodyLimits {
            timeout: options.body_read_timeout,
            max_body: MAX_BODY.min(options.max_inflight_body),
            room: Arc::new(Pool::new(options.max_inflight_body)),
        },
        tokens: options.tokens.clone(),
    }));
    let router = axum::Router::new().route_service(MCP_PATH, mcp);
    match &options.pages {
        Some(pages) => router.merge(super::pages::routes(pages.clone(), options)),
        None => router,
    }
}

/// The MCP service behind its layers (see [`router`]).
struct Mcp<S: ServerHandler + Send + 'static>(Arc<Layers<S>>);

impl<S: ServerHandler + Send + 'static> Clone for Mcp<S> {
    fn clone(&self) -> Self {
        Mcp(Arc::clone(&self.0))
    }
}

struct Layers<S: ServerHandler + Send + 'static> {
    service: StreamableHttpService<S, CappedSessions>,
    limits: BodyLimits,
    /// Bearer tokens and their principals (none: no check).
    tokens: Arc<Vec<(String, Principal)>>,
}

impl<S: ServerHandler + Send + 'static> tower_service::Service<axum::extract::Request> for Mcp<S> {
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: axum::extract::Request) -> Self::Future {
        let layers = Arc::clone(&self.0);
        Box::pin(async move {
            if !layers.tokens.is_empty() {
                match principal_of_token(&layers.tokens, request.headers()) {
                    Some(principal) => {
                        request.extensions_mut().insert(principal);
                    }
                    None => return Ok(unauthorized()),
                }
            }
            let response = read_body(&layers.limits, request, |request| {
                middleware(request, |request| async {
                    layers
                        .service
                        .handle(request)
                        .await
                        .map(axum::body::Body::new)
                })
            })
            .await;
            Ok(response)
        })
    }
}

/// How request bodies are read: within a deadline, each at most `max_body`, the bytes
/// of all of them that have arrived and not yet ended within `room`.
struct BodyLimits {
    timeout: Duration,
    max_body: usize,
    room: Arc<Pool>,
}

/// Holds a request's body to its limits while the service reads it: the declared
/// length at most the largest body (else `413` at once), room among the bodies in flight
/// for each piece of it as the piece arrives (a piece that does not fit waits for room,
/// the body read no further meanwhile; see [`Pool`]), every byte in by the body timeout
/// (else `408` and the connection closed), no more bytes than the largest body (`413`),
/// and a body that breaks off is a `400`. Nothing is reserved up front: a request that
/// has sent only its head holds no room.
async fn read_body<F, R>(
    limits: &BodyLimits,
    request: axum::extract::Request,
    next: F,
) -> axum::response::Response
where
    F: FnOnce(axum::extract::Request) -> R,
    R: Future<Output = axum::response::Response>,
{
    use axum::http::StatusCode;
    let deadline = tokio::time::Instant::now() + limits.timeout;
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let too_large = || {
        plain_status(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request body is larger than {} bytes", limits.max_body),
        )
    };
    let too_slow = || {
        plain_status(
            StatusCode::REQUEST_TIMEOUT,
            "the request body did not arrive in time",
        )
    };
    if declared.is_some_and(|n| n > limits.max_body as u64) {
        return too_large();
    }
    let verdict = Verdict::default();
    let guarded = Guarded::new(
        body,
        deadline,
        limits.max_body,
        verdict.clone(),
        Arc::clone(&limits.room),
    );
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::new(guarded));
    let response = next(request).await;
    match verdict.get() {
        None => response,
        Some(Refusal::TooLarge) => too_large(),
        Some(Refusal::TooSlow) => too_slow(),
        Some(Refusal::BrokeOff) => plain_status(
            StatusCode::BAD_REQUEST,
            "the request body broke off (it ended before its Content-Length, or was malformed)",
        ),
    }
}

/// A response with `status`, a text body and `Connection: close`.
fn plain_status(status: axum::http::StatusCode, text: &str) -> axum::response::Response {
    let mut response = axum::response::Response::new(axum::body::Body::from(text.to_owned()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The principal whose token is in `Authorization: Bearer …`, if it is listed.
fn principal_of_token(
    tokens: &[(String, Principal)],
    headers: &axum::http::HeaderMap,
) -> Option<Principal> {
    let value = headers.get(axum::http::header::AUTHORIZATION)?.as_bytes();
    let (scheme, token) = value.split_at_checked(7)?;
    if !scheme.eq_ignore_ascii_case(b"bearer ") {
        return None;
    }
    let token = token.trim_ascii();
    // Every listed token is compared, each in constant time, so the time taken does not
    // tell which one came close.
    let mut found = None;
    for (listed, principal) in tokens {
        if bool::from(listed.as_bytes().ct_eq(token)) {
            found = Some(principal.clone());
        }
    }
    found
}

/// `401` with `WWW-Authenticate: Bearer` (RFC 6750) and a JSON body saying what is
/// missing.
fn unauthorized() -> axum::response::Response {
    let body = r#"{"error":"invalid_token","error_description":"this server needs an Authorization: Bearer header with a token it knows"}"#;
    let mut response = axum::response::Response::new(axum::body::Body::from(body));
    *response.status_mut() = axum::http::StatusCode::UNAUTHORIZED;
    let headers = response.headers_mut();
    headers.insert(
        axum::http::header::WWW_AUTHENTICATE,
        axum::http::HeaderValue::from_static(r#"Bearer realm="mcp", error="invalid_token""#),
    );
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    response
}

/// The middleware (for `axum::middleware::from_fn`) that [`router`](super::router)
/// puts around [`service`](super::service); an axum app of one's own built from
/// [`service`](super::service) adds it with
/// `.layer(axum::middleware::from_fn(service_middleware))`, inside its authentication
/// layer. It does four things:
///
/// - it runs the request as its [`Principal`] (the one an authentication layer put in
///   the request's extensions, else the anonymous one), so that a push-era session is
///   bound to the principal that opened it (see [`CappedSessions`](super::CappedSessions));
/// - it answers a JSON POST whose body is not a JSON-RPC message with `400` and a
///   JSON-RPC parse error (`-32700`, `id: null`), where rmcp's service answers `415`
///   with a text body;
/// - it words the `403` of a refused `Host` or `Origin` so that whoever runs the server
///   can act on it: the value refused (control characters and quotes replaced, at most
///   100 characters) and the option that allows it; and says so on stderr, at most one
///   line every 10 seconds;
/// - it reads the `taskIds` of a `subscriptions/listen` filter, which rmcp's filter type
///   drops, for [`Tools::listen_tasks`](crate::Tools::listen_tasks).
pub async fn service_middleware(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    middleware(request, |request| next.run(request)).await
}

/// [`service_middleware`]'s work around `next`.
async fn middleware<F, R>(request: axum::extract::Request, next: F) -> axum::response::Response
where
    F: FnOnce(axum::extract::Request) -> R,
    R: Future<Output = axum::response::Response>,
{
    let principal = request
        .extensions()
        .get::<Principal>()
        .cloned()
        .unwrap_or_else(|| Principal::new(""));
    let request = with_task_ids(request).await;
    let json_post = request.method() == axum::http::Method::POST
        && request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
                essence.trim().eq_ignore_ascii_case("application/json")
            });
    // Kept for the wording of a refusal (a reference count each, made safe to show
    // only if it is needed).
    let (host, origin) = {
        let headers = request.headers();
        (
            headers.get(axum::http::header::HOST).cloned(),
            headers.get(axum::http::header::ORIGIN).cloned(),
        )
    };
    let response = as_principal(principal, next(request)).await;
    if response.status() == axum::http::StatusCode::FORBIDDEN {
        let shown = |v: Option<axum::http::HeaderValue>| v.map(|v| shown_value(v.as_bytes()));
        return refused(response, shown(host), shown(origin)).await;
    }
    if !json_post || response.status() != axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the body is not a JSON-RPC message"}}"#;
    let mut response = axum::response::Response::new(axum::body::Body::from(body));
    *response.status_mut() = axum::http::StatusCode::BAD_REQUEST;
    response.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    response
}

/// A `subscriptions/listen` request (by its `Mcp-Method` header) with the `taskIds` of
/// its filter in its extensions ([`TaskIds`]), which rmcp's filter type drops: its body
/// read (it is small, and already held to the body limits), the ids kept (at most
/// [`MAX_WATCHED_TASKS`], each at most 256 bytes), the body handed on as it was. Any
/// other request is handed on untouched.
async fn with_task_ids(request: axum::extract::Request) -> axum::extract::Request {
    let listen = request
        .headers()
        .get("mcp-method")
        .is_some_and(|v| v.as_bytes() == b"subscriptions/listen");
    if !listen {
        return request;
    }
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        // Broken off or too large: the body limits answer it (see `read_body`).
        return axum::extract::Request::from_parts(parts, axum::body::Body::empty());
    };
    #[derive(serde::Deserialize)]
    struct Listen {
        params: Params,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        notifications: Filter,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Filter {
        #[serde(default)]
        task_ids: FirstIds,
    }
    if let Ok(listen) = serde_json::from_slice::<Listen>(&bytes) {
        parts
            .extensions
            .insert(TaskIds(listen.params.notifications.task_ids.0));
    }
    axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))
}

/// The first [`MAX_WATCHED_TASKS`] ids of a `taskIds` list that are strings of at most
/// 256 bytes; the rest of the list is read past without being kept.
#[derive(Default)]
struct FirstIds(Vec<String>);

impl<'de> serde::Deserialize<'de> for FirstIds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<FirstIds, D::Error> {
        struct Ids;
        impl<'de> serde::de::Visitor<'de> for Ids {
            type Value = FirstIds;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of task ids")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<FirstIds, A::Error> {
                let mut ids = Vec::new();
                while let Some(id) = seq.next_element::<serde_json::Value>()? {
                    if let serde_json::Value::String(id) = id
                        && id.len() <= 256
                        && ids.len() < MAX_WATCHED_TASKS
                    {
                        ids.push(id);
                    }
                }
                Ok(FirstIds(ids))
            }
        }
        deserializer.deserialize_seq(Ids)
    }
}

/// A header's value as it may be shown: printable ASCII, with anything else (and
/// quotes and backslashes) as `?`, at most 100 characters.
fn shown_value(bytes: &[u8]) -> String {
    let mut shown: String = bytes
        .iter()
        .take(100)
        .map(|&b| match b {
            b'"' | b'\\' => '?',
            0x20..=0x7e => char::from(b),
            _ => '?',
        })
        .collect();
    if bytes.len() > 100 {
        shown.push('…');
    }
    shown
}

/// rmcp's `403` for a refused `Host` or `Origin`, worded with the value and the option
/// that allows it (and a line on stderr, at most every 10 seconds).
async fn refused(
    response: axum::response::Response,
    host: Option<String>,
    origin: Option<String>,
) -> axum::response::Response {
    let (parts, body) = response.into_parts();
    let Ok(text) = axum::body::to_bytes(body, 4096).await else {
        return plain_status(parts.status, "Forbidden");
    };
    let text = String::from_utf8_lossy(&text);
    let message = if text.contains("Host header") {
        let host = host.unwrap_or_default();
        let name = host
            .rsplit_once(':')
            .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
            .map_or(host.as_str(), |(name, _)| name);
        format!(
            "Forbidden: the Host header \"{host}\" is not one this server answers to (a guard \
             against DNS rebinding). If it is this server's name, start it with \
             --allowed-host {name} (HttpOptions::allowed_host)."
        )
    } else if text.contains("Origin") {
        let origin = origin.unwrap_or_default();
        format!(
            "Forbidden: requests from pages of the Origin \"{origin}\" are not allowed. If \
             that web app may use this server, start it with --allowed-origin {origin} \
             (HttpOptions::allowed_origin)."
        )
    } else {
        return plain_status(parts.status, &text);
    };
    say_refused(&message);
    plain_status(parts.status, &message)
}

/// Says `message` on stderr, unless a refusal was said in the last 10 seconds.
fn say_refused(message: &str) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let last = LAST.load(Ordering::Relaxed);
    if (last == 0 || now >= last + 10)
        && LAST
            .compare_exchange(last, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        eprintln!("refused a request: {message}");
    }
}

#[cfg(test)]
mod tests {
    use super::{BodyLimits, FirstIds, Layers, MAX_WATCHED_TASKS, Mcp, Pool, shown_value};
    use std::sync::Arc;

    /// The layers add a little to each request's future, not a second copy of rmcp's:
    /// an `async fn` given the request's future as an argument keeps it twice (as the
    /// argument, and inside what it awaits), and each request's future is moved whole a
    /// few times on its way to the runtime.
    #[test]
    fn a_request_future_holds_rmcp_s_once() {
        #[derive(Clone)]
        struct Bare;
        impl rmcp::ServerHandler for Bare {}
        let options = crate::http::HttpOptions::default();
        let service = crate::http::service(|| Bare, &options);
        let request = || {
            axum::http::Request::post(crate::http::MCP_PATH)
                .body(axum::body::Body::empty())
                .unwrap()
        };
        let rmcp_size = std::mem::size_of_val(&service.handle(request()));
        let mut mcp = Mcp(Arc::new(Layers {
            service,
            limits: BodyLimits {
                timeout: options.body_read_timeout,
                max_body: 1024,
                room: Arc::new(Pool::new(1024)),
            },
            tokens: Arc::default(),
        }));
        let future = tower_service::Service::call(&mut mcp, request());
        let ours = std::mem::size_of_val(&*future);
        assert!(
            ours < rmcp_size + 4096,
            "a request's future is {ours} bytes, rmcp's own {rmcp_size}"
        );
    }

    /// Of a listen's `taskIds`, the first 64 strings of at most 256 bytes are kept; the
    /// rest is read past.
    #[test]
    fn a_listen_keeps_its_first_task_ids() {
        let mut list = vec![
            serde_json::json!(1),
            serde_json::json!({"id": "x"}),
            serde_json::json!("a".repeat(257)),
        ];
        list.extend((0..100).map(|i| serde_json::json!(format!("task-{i}"))));
        let ids: FirstIds = serde_json::from_value(serde_json::Value::Array(list)).unwrap();
        assert_eq!(ids.0.len(), MAX_WATCHED_TASKS);
        assert_eq!(ids.0[0], "task-0");
        assert_eq!(ids.0[63], "task-63");
        assert!(serde_json::from_str::<FirstIds>(r#""not a list""#).is_err());
    }

    /// A header value is shown defanged: printable ASCII only, no quotes or backslashes,
    /// at most 100 characters.
    #[test]
    fn a_refused_value_is_shown_defanged() {
        assert_eq!(shown_value(b"mcp.example.com:8443"), "mcp.example.com:8443");
        assert_eq!(
            shown_value(b"evil\"\\\x1b[2J\xc3\xa9.example"),
            "evil???[2J??.example"
        );
        let long = shown_value(&[b'a'; 300]);
        assert_eq!(long.chars().count(), 101);
        assert!(long.ends_with('…'));
    }
}
