//! The layers [`router`](super::router) puts around the MCP service: bearer tokens,
//! request-body limits, the request's principal and JSON-RPC parse errors.

use std::sync::Arc;
use std::time::Duration;

use subtle::ConstantTimeEq;

use super::sessions::as_principal;
use super::{HttpOptions, MAX_BODY};
use crate::Principal;

/// The layers of [`router`](super::router): [`service_middleware`], the body limits,
/// then (outermost, so nothing else runs for a stranger) the bearer-token check when
/// there are tokens.
pub(super) fn with_layers(router: axum::Router, options: &HttpOptions) -> axum::Router {
    let limits = Arc::new(BodyLimits {
        timeout: options.body_read_timeout,
        max_body: MAX_BODY.min(options.max_inflight_body),
        room: Arc::new(tokio::sync::Semaphore::new(options.max_inflight_body)),
    });
    let router = router
        .layer(axum::middleware::from_fn(service_middleware))
        .layer(axum::middleware::from_fn(move |request, next| {
            read_body(limits.clone(), request, next)
        }));
    if options.tokens.is_empty() {
        return router;
    }
    let tokens = options.tokens.clone();
    router.layer(axum::middleware::from_fn(
        move |mut request: axum::extract::Request, next: axum::middleware::Next| {
            let principal = principal_of_token(&tokens, request.headers());
            async move {
                match principal {
                    Some(principal) => {
                        request.extensions_mut().insert(principal);
                        next.run(request).await
                    }
                    None => unauthorized(),
                }
            }
        },
    ))
}

/// How request bodies are read: within a deadline, each at most `max_body`, all of
/// them together within `room` bytes.
struct BodyLimits {
    timeout: Duration,
    max_body: usize,
    room: Arc<tokio::sync::Semaphore>,
}

/// Reads a request's whole body before the handler sees it: within the body timeout
/// (else `408` and the connection closed), at most the largest body (else `413`),
/// holding room for it among the bodies in flight until the handler has answered.
async fn read_body(
    limits: Arc<BodyLimits>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::StatusCode;
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
    let want = match declared {
        Some(n) if n > limits.max_body as u64 => return too_large(),
        Some(n) => n as usize,
        None => limits.max_body,
    };
    let read = async {
        // The semaphore is never closed; `max_body` fits in a u32 (at most 4 MiB).
        let room = u32::try_from(want.max(1)).unwrap_or(u32::MAX);
        let permit = limits.room.clone().acquire_many_owned(room).await.ok();
        (permit, axum::body::to_bytes(body, limits.max_body).await)
    };
    match tokio::time::timeout(limits.timeout, read).await {
        Err(_) => plain_status(
            StatusCode::REQUEST_TIMEOUT,
            "the request body did not arrive in time",
        ),
        // A declared length was checked above: the body broke off (or lied about it).
        Ok((_, Err(_))) if declared.is_some() => plain_status(
            StatusCode::BAD_REQUEST,
            "the request body ended before its Content-Length",
        ),
        Ok((_, Err(_))) => too_large(),
        Ok((permit, Ok(bytes))) => {
            let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            let response = next.run(request).await;
            drop(permit);
            response
        }
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
/// layer. It does two things:
///
/// - it runs the request as its [`Principal`] (the one an authentication layer put in
///   the request's extensions, else the anonymous one), so that a push-era session is
///   bound to the principal that opened it (see [`CappedSessions`](super::CappedSessions));
/// - it answers a JSON POST whose body is not a JSON-RPC message with `400` and a
///   JSON-RPC parse error (`-32700`, `id: null`), where rmcp's service answers `415`
///   with a text body.
pub async fn service_middleware(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let principal = request
        .extensions()
        .get::<Principal>()
        .cloned()
        .unwrap_or_else(|| Principal::new(""));
    let json_post = request.method() == axum::http::Method::POST
        && request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
                essence.trim().eq_ignore_ascii_case("application/json")
            });
    let response = as_principal(principal, next.run(request)).await;
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
