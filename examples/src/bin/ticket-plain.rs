//! `ticket-plain`: the cinema ticket wizard served over stdio on **no MCP SDK** — JSON-RPC
//! lines read and written with serde_json, every question asked by the engine of
//! `elicit-core` (`elicit_core::engine`).
//!
//! Both eras from one body: a client that sends `initialize` (2025-06-18, 2025-11-25) gets
//! each step pushed as an `elicitation/create` request; a 2026-07-28 client (the version in
//! every request's `_meta`) gets `input_required` results, the wizard's state sealed and
//! good for one retry.
//!
//! The elicitation glue is what lies between the two `── elicitation glue ──` lines: the
//! rest is the JSON-RPC plumbing any stdio server has (`examples/tests/any_server.rs` counts
//! it and drives the server with the official Python SDK client).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use elicit_core::engine::{AskError, Engine, Peer, Question, RpcError, Transport};
use elicit_core::seal::Keyring;
use elicit_examples::ticket::{Cinema, TicketOrder};
use serde_json::{Value, json};

// ── elicitation glue ──
/// Pushed questions: a request written to stdout, its response read from stdin (the
/// number is the next request's id).
struct Stdio(AtomicU64);
static STDIO: Stdio = Stdio(AtomicU64::new(0));

impl Transport for Stdio {
    async fn send(&self, question: Question) -> Result<Value, AskError> {
        let id = format!("q{}", self.0.fetch_add(1, Ordering::Relaxed));
        let (method, params) = (json!(question.method), &question.params);
        write(&format!(
            r#"{{"jsonrpc":"2.0","id":"{id}","method":{method},"params":{params}}}"#
        ));
        let deadline = question.timeout.map(|wait| (Instant::now() + wait, wait));
        loop {
            let Some(reply) = read(deadline, question.progress_interval)? else {
                // The interval passed: the call is alive.
                // The interval passed: the call is alive.
                if let Some(notice) = question.keep_alive() {
                    write(&notice.to_string());
                }
                continue;
            };
            if reply["id"] == id.as_str() {
                let error = || AskError::Peer(reply["error"].to_string());
                return reply.get("result").cloned().ok_or_else(error);
            }
        }
    }
}

/// A `tools/call` of `book_tickets`: the wizard on the channel the client's revision takes.
async fn book(
    engine: &Engine,
    cinema: &Mutex<Cinema>,
    handshake: &Peer,
    params: &Value,
) -> Result<String, RpcError> {
    let mut call = engine.open("", "tools/call", params, handshake)?;
    let snapshot = locked(cinema).clone();
    let text = match call.wizard::<TicketOrder>(&STDIO, &snapshot).await {
        Ok(outcome) => locked(cinema).book(outcome),
        Err(halt) => return Ok(halt.into_result()?.to_string()),
    };
    Ok(json!({"resultType": "complete", "content": [{"type": "text", "text": text}]}).to_string())
}
// ── elicitation glue ──

/// The seats, locked (a panic elsewhere does not poison them for the next call).
fn locked(cinema: &Mutex<Cinema>) -> MutexGuard<'_, Cinema> {
    cinema.lock().unwrap_or_else(|e| e.into_inner())
}

/// The JSON-RPC messages of stdin, read on a thread of their own (lines that are not
/// JSON are skipped) so that a wait for one can end at a deadline.
fn inbox() -> &'static Mutex<Receiver<Value>> {
    static INBOX: OnceLock<Mutex<Receiver<Value>>> = OnceLock::new();
    INBOX.get_or_init(|| {
        let (messages, inbox) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if let Ok(message) = serde_json::from_str(&line)
                    && messages.send(message).is_err()
                {
                    break;
                }
            }
        });
        Mutex::new(inbox)
    })
}

/// The next message on stdin, waiting at most until the deadline (and its length, for
/// the error) and `None` when `every` passes first: `Cancelled` at the end of stdin,
/// `Timeout` past the deadline.
fn read(
    deadline: Option<(Instant, Duration)>,
    every: Option<Duration>,
) -> Result<Option<Value>, AskError> {
    let inbox = inbox().lock().unwrap_or_else(|e| e.into_inner());
    let left = deadline.map(|(at, _)| at.saturating_duration_since(Instant::now()));
    let Some(wait) = left.into_iter().chain(every).min() else {
        return inbox.recv().map(Some).map_err(|_| AskError::Cancelled);
    };
    match inbox.recv_timeout(wait) {
        Ok(message) => Ok(Some(message)),
        Err(RecvTimeoutError::Timeout) => match deadline {
            Some((_, length)) if left == Some(wait) => Err(AskError::Timeout(length)),
            _ => Ok(None),
        },
        Err(RecvTimeoutError::Disconnected) => Err(AskError::Cancelled),
    }
}

/// Writes one message line to stdout.
fn write(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout ends the server at its next read.
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

fn respond(id: &Value, result: Result<String, RpcError>) {
    match result {
        Ok(result) => write(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#
        )),
        Err(error) => write(&json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string()),
    }
}

const TOOLS: &str = r#"{"tools":[{"name":"book_tickets","description":"Book a cinema ticket: asks for a date, a free seat, snacks and a popcorn size.","inputSchema":{"type":"object"}}]}"#;

fn main() {
    let engine = Engine::new(Keyring::generate());
    let cinema = Mutex::new(Cinema::demo());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let mut client = Peer::default();
    while let Ok(Some(message)) = read(None, None) {
        let (Some(method), Some(id)) = (message["method"].as_str(), message.get("id")) else {
            continue; // notifications and stray responses
        };
        let params = &message["params"];
        let result = match method {
            "initialize" => {
                let asked = params["protocolVersion"].as_str().unwrap_or_default();
                let version = if asked == "2025-06-18" {
                    asked
                } else {
                    "2025-11-25"
                };
                client = Peer::from_initialize(version.parse().ok(), params);
                Ok(
                    json!({"protocolVersion": version, "capabilities": {"tools": {}},
                          "serverInfo": {"name": "ticket-plain", "version": "0.1.0"}})
                    .to_string(),
                )
            }
            "server/discover" => Ok(json!({
                "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "ticket-plain", "version": "0.1.0"}})
            .to_string()),
            "ping" => Ok("{}".to_owned()),
            // 2026-07-28 results say their type and how long they may be cached.
            "tools/list" if message["params"]["_meta"].is_object() => Ok(format!(
                r#"{{"resultType":"complete","ttlMs":0,"cacheScope":"private",{}"#,
                &TOOLS[1..]
            )),
            "tools/list" => Ok(TOOLS.to_owned()),
            "tools/call" if params["name"] == "book_tickets" => {
                runtime.block_on(book(&engine, &cinema, &client, params))
            }
            "tools/call" => Err(RpcError::new(-32602, "no such tool", None)),
            _ => Err(RpcError::new(-32601, format!("no method {method}"), None)),
        };
        respond(id, result);
    }
}
