//! The memory runs, on the push revision (2025-11-25), where each `initialize`
//! creates a session on the server: many initializes, idle sessions, and questions
//! left open (an `elicitation/create` the client never answers).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper::body::Incoming;
use serde_json::{Value, json};

use crate::server::Server;
use crate::wire::{self, Conn, Fail, Headers, REQUEST_TIMEOUT};

/// How long one memory run may take before it stops where it is.
const RUN_LIMIT: Duration = Duration::from_secs(60);
/// How long to let the server settle before reading its memory.
const SETTLE: Duration = Duration::from_millis(500);

/// Failures by kind, and the first one's text.
#[derive(Debug, Default)]
pub struct Failures {
    pub by_kind: BTreeMap<String, u64>,
    pub first: Option<String>,
}

impl Failures {
    fn add(&mut self, e: &Fail) {
        *self.by_kind.entry(e.kind()).or_default() += 1;
        if self.first.is_none() {
            self.first = Some(e.to_string());
        }
    }

    fn absorb(&mut self, other: Failures) {
        for (kind, n) in other.by_kind {
            *self.by_kind.entry(kind).or_default() += n;
        }
        if self.first.is_none() {
            self.first = other.first;
        }
    }

    pub fn count(&self) -> u64 {
        self.by_kind.values().sum()
    }
}

/// Memory before and after creating `done` things (of `asked`).
#[derive(Debug, Default)]
pub struct Growth {
    pub asked: usize,
    pub done: usize,
    pub before: u64,
    pub after: u64,
    pub seconds: f64,
    pub failures: Failures,
}

impl Growth {
    pub fn bytes(&self) -> i64 {
        self.after as i64 - self.before as i64
    }

    pub fn per_item(&self) -> Option<f64> {
        (self.done > 0).then(|| self.bytes() as f64 / self.done as f64)
    }
}

/// The many-initializes run, and whether a client arriving afterwards was served.
#[derive(Debug)]
pub struct Initializes {
    pub growth: Growth,
    pub fresh_client: Result<(), String>,
}

fn push_headers(session: Option<&str>) -> Headers<'_> {
    Headers {
        version: Some(wire::PUSH),
        session,
        ..Headers::default()
    }
}

/// `initialize` on `c`; the session id the server gave.
async fn initialize(c: &mut Conn) -> Result<String, Fail> {
    let reply = c.post(&Headers::default(), wire::initialize(1)).await?;
    if reply.status != 200 {
        return Err(Fail::Status(reply.status));
    }
    reply.response(1)?;
    reply
        .session
        .ok_or_else(|| Fail::Reply("an initialize reply without Mcp-Session-Id".into()))
}

/// `initialize` then `notifications/initialized`: a session ready for requests.
async fn open_session(c: &mut Conn) -> Result<String, Fail> {
    let session = initialize(c).await?;
    let reply = c
        .post(&push_headers(Some(&session)), wire::initialized())
        .await?;
    if !(200..300).contains(&reply.status) {
        return Err(Fail::Status(reply.status));
    }
    Ok(session)
}

/// Runs `work` `n` times over `workers` tasks, each on its own connection (opened
/// again after a connection failure), within [`RUN_LIMIT`].
async fn spread<T, F, Fut>(
    addr: SocketAddr,
    n: usize,
    workers: usize,
    work: F,
) -> (Vec<T>, Failures, f64)
where
    T: Send + 'static,
    F: Fn(Conn) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = (Option<Conn>, Result<T, Fail>)> + Send,
{
    let next = Arc::new(AtomicUsize::new(0));
    let begin = Instant::now();
    let deadline = begin + RUN_LIMIT;
    let tasks: Vec<_> = (0..workers.max(1))
        .map(|_| {
            let next = next.clone();
            let work = work.clone();
            tokio::spawn(async move {
                let mut made = Vec::new();
                let mut failures = Failures::default();
                let mut conn: Option<Conn> = None;
                while next.fetch_add(1, Ordering::Relaxed) < n && Instant::now() < deadline {
                    let c = match conn.take() {
                        Some(c) => c,
                        None => match Conn::open(addr).await {
                            Ok(c) => c,
                            Err(e) => {
                                failures.add(&e);
                                tokio::time::sleep(Duration::from_millis(50)).await;
                                continue;
                            }
                        },
                    };
                    let (back, result) = work(c).await;
                    conn = back;
                    match result {
                        Ok(t) => made.push(t),
                        Err(e) => failures.add(&e),
                    }
                }
                (made, failures)
            })
        })
        .collect();
    let mut made = Vec::new();
    let mut failures = Failures::default();
    for task in tasks {
        match task.await {
            Ok((m, f)) => {
                made.extend(m);
                failures.absorb(f);
            }
            Err(e) => failures.add(&Fail::Reply(format!("a worker failed: {e}"))),
        }
    }
    (made, failures, begin.elapsed().as_secs_f64())
}

async fn settled_rss(server: &Server) -> u64 {
    tokio::time::sleep(SETTLE).await;
    server.rss().unwrap_or(0)
}

/// `n` initializes (each a new session; the connections are reused), then a fresh
/// client: a new connection, the handshake and `tools/list`.
pub async fn initializes(server: &Server, n: usize, workers: usize) -> Initializes {
    let before = settled_rss(server).await;
    let (made, failures, seconds) = spread(server.addr, n, workers, |mut c: Conn| async move {
        let result = initialize(&mut c).await.map(|_| ());
        let keep = keeps(&result);
        (keep.then_some(c), result)
    })
    .await;
    let after = settled_rss(server).await;
    Initializes {
        growth: Growth {
            asked: n,
            done: made.len(),
            before,
            after,
            seconds,
            failures,
        },
        fresh_client: fresh_client(server.addr).await.map_err(|e| e.to_string()),
    }
}

async fn fresh_client(addr: SocketAddr) -> Result<(), Fail> {
    let mut c = Conn::open(addr).await?;
    let session = open_session(&mut c).await?;
    let reply = c
        .post(
            &push_headers(Some(&session)),
            wire::request(2, "tools/list", json!({})),
        )
        .await?;
    let message = reply.response(2)?;
    let tools = message
        .pointer("/result/tools")
        .and_then(Value::as_array)
        .ok_or_else(|| Fail::Reply("tools/list without tools".into()))?;
    if tools
        .iter()
        .any(|t| t.get("name").and_then(Value::as_str) == Some("book_tickets"))
    {
        Ok(())
    } else {
        Err(Fail::Reply("tools/list without book_tickets".into()))
    }
}

/// `n` sessions left idle after the handshake, after `warm` such sessions.
pub async fn idle_sessions(server: &Server, n: usize, warm: usize, workers: usize) -> Growth {
    let work = |mut c: Conn| async move {
        let result = open_session(&mut c).await.map(|_| ());
        let keep = keeps(&result);
        (keep.then_some(c), result)
    };
    let (_, mut failures, _) = spread(server.addr, warm, workers, work).await;
    let before = settled_rss(server).await;
    let (made, more, seconds) = spread(server.addr, n, workers, work).await;
    failures.absorb(more);
    let after = settled_rss(server).await;
    Growth {
        asked: n,
        done: made.len(),
        before,
        after,
        seconds,
        failures,
    }
}

/// A question left open: its connection and the reply stream that carried it.
struct Open {
    _conn: Conn,
    _stream: Incoming,
}

/// One client with a question open: the handshake, `tools/call book_tickets`, and the
/// reply stream read until the server's `elicitation/create` arrives; never answered.
async fn open_question(mut c: Conn) -> Result<Open, Fail> {
    let session = open_session(&mut c).await?;
    let call = wire::request(
        2,
        "tools/call",
        json!({"name": "book_tickets", "arguments": {}}),
    );
    let waiting = async {
        let response = c.start(&push_headers(Some(&session)), call).await?;
        if response.status() != 200 {
            return Err(Fail::Status(response.status().as_u16()));
        }
        let mut body = response.into_body();
        let mut seen = Vec::new();
        loop {
            let frame = match body.frame().await {
                Some(Ok(frame)) => frame,
                Some(Err(e)) => return Err(Fail::Connection(e.to_string())),
                None => {
                    let got = String::from_utf8_lossy(&seen)
                        .chars()
                        .take(200)
                        .collect::<String>();
                    return Err(Fail::Reply(format!(
                        "the stream ended without a question: {got}"
                    )));
                }
            };
            if let Ok(data) = frame.into_data() {
                seen.extend_from_slice(&data);
            }
            let asked = wire::sse_messages(&seen)
                .iter()
                .any(|m| m.get("method").and_then(Value::as_str) == Some("elicitation/create"));
            if asked {
                return Ok(body);
            }
        }
    };
    let stream = tokio::time::timeout(REQUEST_TIMEOUT, waiting)
        .await
        .map_err(|_| Fail::Timeout)??;
    Ok(Open {
        _conn: c,
        _stream: stream,
    })
}

/// `n` questions left open, after `warm` such questions; each holds a session and a
/// connection. All are closed (their connections dropped) before this returns.
pub async fn pending_questions(server: &Server, n: usize, warm: usize, workers: usize) -> Growth {
    // Each question keeps its connection: the worker opens a new one every time.
    let work = |c: Conn| async move { (None, open_question(c).await) };
    let (warm_open, mut failures, _) = spread(server.addr, warm, workers, work).await;
    let before = settled_rss(server).await;
    let (open, more, seconds) = spread(server.addr, n, workers, work).await;
    failures.absorb(more);
    let after = settled_rss(server).await;
    let done = open.len();
    drop(open);
    drop(warm_open);
    Growth {
        asked: n,
        done,
        before,
        after,
        seconds,
        failures,
    }
}

/// Whether a connection is worth keeping after `result`.
fn keeps(result: &Result<(), Fail>) -> bool {
    result.as_ref().err().is_none_or(|e| !e.breaks_connection())
}
