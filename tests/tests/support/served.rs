//! A real MCP server over Streamable HTTP, with the engine's web pages on its router,
//! and a real MCP client connected to it over HTTP: what `browser.rs` and
//! `pages_http.rs` drive.
//!
//! [`Served::start`] binds `127.0.0.1:0`, gives the elicitor `Pages` at the server's own
//! `http://127.0.0.1:PORT/elicit/p/`, serves `elicit_rmcp::http::router` with
//! `HttpOptions::pages` through `http::serve_on`, and connects a [`Scripted`] client to
//! `/mcp` with rmcp's Streamable HTTP client, all on a runtime of its own. Tool calls
//! run on that runtime ([`Served::call`]); the test's thread, meanwhile, plays the person
//! (a browser, or hand-written HTTP requests through [`Served::request`]). Dropping it
//! closes the client's session and stops the runtime with everything on it.
//!
//! Every wait is bounded: a call by [`LIMIT`], a question by [`ASK_LIMIT`], a request by
//! [`REQUEST_LIMIT`].
#![allow(dead_code)] // Each test binary that shares this module uses part of it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use elicit_core::engine::Pages;
use elicit_rmcp::Elicitor;
use elicit_rmcp::http::{self, HttpOptions};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::support::{Era, LIMIT, Scripted, call, text};

/// How long a question may take to reach the client.
pub const ASK_LIMIT: Duration = Duration::from_secs(10);
/// How long one hand-written request may take, connection to the end of the reply.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(10);

/// A client of 2025-11-25 that shows no forms and takes URL mode, accepting every link
/// (the person goes to the page).
pub fn url_only() -> Scripted {
    Scripted::new(Era::V1125, vec![])
        .with_capabilities(json!({"elicitation": {"url": {}}}))
        .answering(|_| json!({"action": "accept"}))
}

/// How a [`Served`] is set up.
pub struct Setup {
    options: HttpOptions,
    ttl: Option<Duration>,
    client: Scripted,
    token: Option<&'static str>,
}

impl Setup {
    /// The default HTTP options, pages kept 15 minutes, a [`url_only`] client.
    pub fn new() -> Setup {
        Setup {
            options: HttpOptions::default(),
            ttl: None,
            client: url_only(),
            token: None,
        }
    }

    /// Serves with `options` (their pages are set by [`Served::start`]).
    pub fn options(mut self, options: HttpOptions) -> Setup {
        self.options = options;
        self
    }

    /// Pages wait `ttl` for their answer (`Pages::with_ttl`).
    pub fn ttl(mut self, ttl: Duration) -> Setup {
        self.ttl = Some(ttl);
        self
    }

    /// Connects `client` instead.
    pub fn client(mut self, client: Scripted) -> Setup {
        self.client = client;
        self
    }

    /// The client sends `Authorization: Bearer token`.
    pub fn token(mut self, token: &'static str) -> Setup {
        self.token = Some(token);
        self
    }
}

/// The server, its pages, and the client connected to it.
pub struct Served {
    /// Declared first: dropped (closing the session) before the runtime stops.
    client: Option<RunningService<RoleClient, Scripted>>,
    scripted: Scripted,
    pages: Pages,
    addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Served {
    /// Serves `server(elicitor)` as `setup` says, the elicitor asking on pages served
    /// by this very server.
    pub fn start<S>(setup: Setup, server: impl FnOnce(Elicitor) -> S) -> Served
    where
        S: ServerHandler + Clone + Send + Sync + 'static,
    {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("an address");
        let mut pages = Pages::new(format!("http://{addr}/elicit/p/"));
        if let Some(ttl) = setup.ttl {
            pages = pages.with_ttl(ttl);
        }
        let elicitor = crate::support::elicitor().with_pages(pages);
        // The engine's pages (keyed by it): the ones its calls create.
        let pages = elicitor.pages().expect("pages").clone();
        let server = server(elicitor);
        let options = setup.options.pages(pages.clone());
        let router = http::router(move || server.clone(), &options);
        runtime.spawn(http::serve_on(listener, router, options));
        let mut config =
            StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"));
        if let Some(token) = setup.token {
            config = config.auth_header(token);
        }
        let client = runtime
            .block_on(async {
                let transport = StreamableHttpClientTransport::from_config(config);
                tokio::time::timeout(LIMIT, setup.client.clone().serve(transport)).await
            })
            .expect("the client connects in time")
            .expect("the client connects");
        Served {
            client: Some(client),
            scripted: setup.client,
            pages,
            addr,
            runtime: Some(runtime),
        }
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        self.runtime.as_ref().expect("running")
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`, the pages' origin.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The pages' base URL, `http://127.0.0.1:PORT/elicit/p/`.
    pub fn base(&self) -> String {
        format!("{}/elicit/p/", self.origin())
    }

    /// The engine's pages.
    pub fn pages(&self) -> &Pages {
        &self.pages
    }

    /// The client (a clone shares what it records).
    pub fn client(&self) -> &Scripted {
        &self.scripted
    }

    /// Calls `tool` with `args` on the server's runtime; the call runs while the test
    /// plays the person.
    pub fn call(&self, tool: &str, args: Value) -> Calling {
        let running = self.client.as_ref().expect("connected").peer().clone();
        let params = call(tool, args);
        let task = self.runtime().spawn(async move {
            match tokio::time::timeout(LIMIT, running.call_tool(params)).await {
                Ok(Ok(result)) => Ok(text(&result)),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err(format!("the call took more than {LIMIT:?}")),
            }
        });
        Calling {
            task: Some(task),
            handle: self.runtime().handle().clone(),
        }
    }

    /// The params of the client's `n`th question (from 1), waiting for it.
    pub fn asked(&self, n: usize) -> Value {
        let deadline = Instant::now() + ASK_LIMIT;
        loop {
            let asked = self.scripted.asked();
            if asked.len() >= n {
                return asked[n - 1].clone();
            }
            assert!(
                Instant::now() < deadline,
                "the client was asked {} questions, not {n}",
                asked.len()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The link of the client's `n`th question (from 1), a URL-mode elicitation to one
    /// of this server's pages, waiting for it.
    pub fn link(&self, n: usize) -> String {
        let asked = self.asked(n);
        assert_eq!(asked["mode"], "url", "{asked}");
        let url = asked["url"].as_str().expect("a url").to_owned();
        assert!(url.starts_with(&self.base()), "{url}");
        url
    }

    /// The method of each notification the client received.
    pub fn notified(&self) -> Vec<(String, Value)> {
        self.scripted
            .notified
            .lock()
            .unwrap()
            .iter()
            .map(|n| (n.method.clone(), n.params.clone().unwrap_or_default()))
            .collect()
    }

    /// Sends `head` (the request line and headers, without the blank line; the `Host`
    /// included and `Connection: close` added) and `body` (with its `Content-Length`) on
    /// a fresh connection: the reply's status, headers and body.
    pub fn request(&self, head: &str, body: &[u8]) -> Reply {
        let mut stream = TcpStream::connect_timeout(&self.addr, REQUEST_LIMIT).expect("connect");
        stream.set_read_timeout(Some(REQUEST_LIMIT)).unwrap();
        stream.set_write_timeout(Some(REQUEST_LIMIT)).unwrap();
        let mut request = format!("{head}\r\nConnection: close\r\n").into_bytes();
        if !body.is_empty() || head.starts_with("POST") {
            request.extend(format!("Content-Length: {}\r\n", body.len()).into_bytes());
        }
        request.extend(b"\r\n");
        request.extend(body);
        // A reply may come before the whole body is sent (a refusal): what is left
        // unsent is the server's to drop.
        let _ = stream.write_all(&request);
        let mut reply = Vec::new();
        if let Err(e) = stream.read_to_end(&mut reply) {
            assert!(!reply.is_empty(), "reading the reply: {e}");
        }
        Reply::parse(&reply)
    }

    /// `GET path` with `Host: 127.0.0.1:PORT` and `headers`.
    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut head = format!("GET {path} HTTP/1.1\r\nHost: {}", self.addr);
        for (name, value) in headers {
            head.push_str(&format!("\r\n{name}: {value}"));
        }
        self.request(&head, b"")
    }

    /// `POST path` of a form's `body` as a browser posts the page's own form (Chromium,
    /// under the pages' `Referrer-Policy: no-referrer`): `Host` the server, `Origin:
    /// null`, `Sec-Fetch-Site: same-origin`, then `headers`.
    pub fn post(&self, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut all = vec![("Sec-Fetch-Site", "same-origin")];
        all.extend_from_slice(headers);
        self.post_from(Some("null"), path, &all, body)
    }

    /// `POST path` of a form's `body` with `Host` the server, `Origin: origin` (none:
    /// no `Origin` header), then `headers`.
    pub fn post_from(
        &self,
        origin: Option<&str>,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let mut head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded",
            self.addr
        );
        if let Some(origin) = origin {
            head.push_str(&format!("\r\nOrigin: {origin}"));
        }
        for (name, value) in headers {
            head.push_str(&format!("\r\n{name}: {value}"));
        }
        self.request(&head, body)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let (Some(client), Some(runtime)) = (self.client.take(), self.runtime.as_ref()) {
            // Closes the session (DELETE /mcp); bounded, and the runtime stops anyway.
            runtime.block_on(async {
                let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
            });
        }
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A tool call running on a [`Served`]'s runtime.
pub struct Calling {
    task: Option<tokio::task::JoinHandle<Result<String, String>>>,
    handle: tokio::runtime::Handle,
}

impl Calling {
    /// Whether the call has ended.
    pub fn ended(&self) -> bool {
        self.task.as_ref().is_none_or(|t| t.is_finished())
    }

    /// The call's result text, or its error's, waiting for it (at most [`LIMIT`] and a
    /// little).
    pub fn result(mut self) -> Result<String, String> {
        let task = self.task.take().expect("not awaited yet");
        self.handle
            .block_on(async { tokio::time::timeout(LIMIT + Duration::from_secs(5), task).await })
            .expect("the call ends in time")
            .expect("the call does not panic")
    }

    /// The call's result text; fails on an error.
    pub fn text(self) -> String {
        self.result()
            .unwrap_or_else(|e| panic!("the call failed: {e}"))
    }
}

impl Drop for Calling {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// A reply to a hand-written request.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// The head, status line and headers.
    pub head: String,
    pub body: String,
}

impl Reply {
    fn parse(reply: &[u8]) -> Reply {
        let text = String::from_utf8_lossy(reply);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        Reply {
            status,
            head: head.to_owned(),
            body: body.to_owned(),
        }
    }

    /// The value of the header `name`, if the reply has it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// The path of a page's link (`/elicit/p/ID`).
pub fn path_of(url: &str) -> String {
    let at = url.find("/elicit/p/").expect("a page's link");
    url[at..].to_owned()
}

/// Who the visitor is: the `who` cookie (the server's own sign-in, in a real server), for
/// `HttpOptions::page_visitor`.
pub fn visitor(headers: &axum::http::HeaderMap) -> Option<String> {
    let cookies = headers.get(axum::http::header::COOKIE)?.to_str().ok()?;
    cookies
        .split(';')
        .find_map(|c| c.trim().strip_prefix("who="))
        .map(str::to_owned)
}
