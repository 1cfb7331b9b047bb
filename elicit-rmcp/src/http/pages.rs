//! The engine's web pages on the server's router, at [`PAGES_PATH`]: behind the same
//! `Host` check as MCP, a same-origin check on every answer posted, the body read to at
//! most 1 MiB within the body timeout, and the identity check of
//! [`HttpOptions::page_visitor`](super::HttpOptions::page_visitor) when one is given.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use elicit_core::engine::{Pages, Served};
use elicit_core::web::HEADERS;

use super::{HttpOptions, VisitorHook};

/// Where the pages are served: `/elicit/p/` and the page's id.
pub const PAGES_PATH: &str = "/elicit/p/{id}";

/// The most a posted answer may hold.
const MAX_BODY: usize = 1024 * 1024;

struct Site {
    pages: Pages,
    hosts: Vec<String>,
    any_host: bool,
    body_timeout: Duration,
    visitor: Option<VisitorHook>,
}

impl crate::Elicitor {
    /// Asks on `pages` served by a listener of its own on this machine's loopback
    /// (`127.0.0.1`, `port`, or one the system chooses for `0`): for a server on stdio,
    /// whose person opens the pages in a browser on the same machine. The pages' address
    /// is the listener's (`http://127.0.0.1:PORT/elicit/p/`), whatever base `pages` had.
    /// The link is the only credential: anyone on this machine who has it may answer.
    /// The listener serves until the runtime stops.
    ///
    /// ```no_run
    /// # async fn run() -> std::io::Result<()> {
    /// use elicit_core::engine::Pages;
    /// use elicit_core::seal::Keyring;
    /// use elicit_rmcp::Elicitor;
    ///
    /// let elicitor = Elicitor::new(Keyring::generate())
    ///     .with_local_pages(Pages::new("http://127.0.0.1/"), 0)
    ///     .await?;
    /// assert!(elicitor.pages().is_some());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn with_local_pages(
        self,
        pages: Pages,
        port: u16,
    ) -> std::io::Result<crate::Elicitor> {
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, port)).await?;
        let address = listener.local_addr()?;
        let elicitor = self.with_pages(pages.with_base(format!("http://{address}/elicit/p/")));
        let options = HttpOptions::default();
        let Some(pages) = elicitor.pages().cloned() else {
            return Err(std::io::Error::other("the pages were not kept"));
        };
        let router = routes(pages, &options);
        tokio::spawn(super::serve_on(listener, router, options));
        Ok(elicitor)
    }
}

/// The routes of `pages`.
pub(super) fn routes(pages: Pages, options: &HttpOptions) -> axum::Router {
    let served = Arc::new(Site {
        pages,
        hosts: options.allowed_hosts.clone(),
        any_host: options.any_host,
        body_timeout: options.body_read_timeout,
        visitor: options.page_visitor.clone(),
    });
    axum::Router::new()
        .route(PAGES_PATH, axum::routing::any(page))
        .with_state(served)
}

async fn page(
    State(served): State<Arc<Site>>,
    Path(id): Path<String>,
    request: Request,
) -> Response {
    let headers = request.headers();
    if !served.any_host && !host_allowed(headers, &served.hosts) {
        return plain(
            StatusCode::FORBIDDEN,
            "Forbidden: this server does not answer to that Host.",
        );
    }
    let visitor = match &served.visitor {
        Some(hook) => match hook(request.headers()) {
            Some(visitor) => Some(visitor),
            None => {
                return plain(
                    StatusCode::UNAUTHORIZED,
                    "Sign in to this server first, then open the link again.",
                );
            }
        },
        None => None,
    };
    let visitor = visitor.as_deref();
    let method = request.method().clone();
    if method == Method::GET || method == Method::HEAD {
        return html(served.pages.get(&id, visitor).await);
    }
    if method != Method::POST {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "Only GET and POST.");
    }
    if !same_origin(request.headers()) {
        return plain(
            StatusCode::FORBIDDEN,
            "Forbidden: an answer must be posted from the page itself.",
        );
    }
    let body = axum::body::to_bytes(request.into_body(), MAX_BODY);
    let body = match tokio::time::timeout(served.body_timeout, body).await {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "The answer is too large."),
        Err(_) => {
            return plain(
                StatusCode::REQUEST_TIMEOUT,
                "The answer took too long to arrive.",
            );
        }
    };
    html(served.pages.post(&id, visitor, &body).await)
}

/// Whether the `Host` header names one of `hosts` (any port).
fn host_allowed(headers: &HeaderMap, hosts: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    hosts
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(name))
}

/// Whether a posted answer comes from the page's own origin.
///
/// A browser says so in `Sec-Fetch-Site` (which no page can set): it must be
/// `same-origin`. Its `Origin`, when it is not `null`, must also be the server's
/// (`scheme://` and the `Host` header). The pages are served with `Referrer-Policy:
/// no-referrer` (`elicit_core::web::HEADERS`), under which a browser posts the page's
/// own form with `Origin: null`: that is taken only with `Sec-Fetch-Site: same-origin`,
/// as another site's page (a sandboxed frame, a page with the same policy) posts with
/// `Origin: null` too. A request with neither header is not a browser's: nothing a web
/// page of another site can send.
fn same_origin(headers: &HeaderMap) -> bool {
    let site = headers.get("sec-fetch-site");
    if site.is_some_and(|site| site != "same-origin") {
        return false;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    if origin == "null" {
        return site.is_some();
    }
    let (Ok(origin), Some(host)) = (
        origin.to_str(),
        headers.get(header::HOST).and_then(|h| h.to_str().ok()),
    ) else {
        return false;
    };
    let authority = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    authority.is_some_and(|a| a.eq_ignore_ascii_case(host))
}

fn html(served: Served) -> Response {
    let mut response = Response::new(Body::from(served.html));
    *response.status_mut() =
        StatusCode::from_u16(served.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    for (name, value) in HEADERS {
        headers.insert(*name, HeaderValue::from_static(value));
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        for (name, value) in pairs {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn the_page_s_own_post_is_same_origin_as_browsers_send_it() {
        // What Chromium sends for the page's form under `Referrer-Policy: no-referrer`.
        let page = [("origin", "null"), ("sec-fetch-site", "same-origin")];
        assert!(same_origin(&headers(&page)));
        // Under a policy that keeps the origin, or from a browser without fetch metadata.
        let own = [
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ];
        assert!(same_origin(&headers(&own)));
        assert!(same_origin(&headers(&[(
            "origin",
            "http://127.0.0.1:8080"
        )])));
        // Not a browser.
        assert!(same_origin(&headers(&[])));
    }

    #[test]
    fn another_site_s_post_is_not() {
        for refused in [
            // Another site, by its origin or by the browser's word.
            &[("origin", "https://evil.example")][..],
            &[("origin", "http://localhost:8080")],
            &[("origin", "http://127.0.0.1:8081")],
            &[("origin", "null"), ("sec-fetch-site", "cross-site")],
            &[("origin", "null"), ("sec-fetch-site", "same-site")],
            &[("origin", "null"), ("sec-fetch-site", "none")],
            &[("sec-fetch-site", "cross-site")],
            // `null` without the browser's word that it is this page's own: a sandboxed
            // frame or a page of another site with the same referrer policy.
            &[("origin", "null")],
            // The browser's word against the origin it names.
            &[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "same-origin"),
            ],
            &[("origin", "127.0.0.1:8080")],
        ] {
            assert!(!same_origin(&headers(refused)), "{refused:?}");
        }
    }
}
