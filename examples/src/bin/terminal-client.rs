//! A terminal MCP client built on the elicit client kit: starts a stdio MCP server,
//! lists its tools, calls the one you pick (its arguments asked from the tool's input
//! schema) and renders every elicitation — who asks and why first, one widget per
//! field, defaults pre-filled and no choice made where there is none, problems inline, a
//! review where a form is not a single choice, Decline and Cancel at any prompt (among
//! the choices, or behind Esc), and Ctrl-C to quit. Every string the server
//! sends is cleaned of control characters before it is shown, and a message from the
//! server larger than [`MAX_SERVER_MESSAGE`] closes the connection. On 2026-07-28 it
//! declares the Tasks extension: a tool the server runs as a task (the ticket wizard
//! does) is followed through the server's `notifications/tasks` when it sends them, else
//! through `tasks/get`, its questions answered with `tasks/update`
//! and its status messages shown as they change.
//!
//! ```sh
//! cargo run -p elicit-examples --bin terminal-client            # the ticket wizard demo
//! cargo run -p elicit-examples --bin terminal-client -- -- path/to/server --its-args
//! cargo run -p elicit-examples --bin terminal-client -- --answers answers.json \
//!     --tool book_tickets                                        # unattended
//! ```
//!
//! Without a server command it runs the real `ticket-booking` server (this binary
//! started again as a child process, speaking MCP over its stdio).

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use clap::Parser;
use elicit_core::client::{Asker, safe_text};
use elicit_examples::clock;
use elicit_examples::script::Script;
use elicit_examples::servers::serve;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::terminal::{self, Prompter, Terminal, looks_own, one_line, server_choice};
use elicit_examples::ticket::Cinema;
use elicit_rmcp::client::FormClient;
use elicit_rmcp::{Elicitor, Tasks};
use rmcp::model::{CallToolRequestParams, ProtocolVersion, Tool};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, ReadBuf};

/// The largest message this client reads from a server, in bytes (1 MiB): past it the
/// connection is closed with an error saying so. Parsed, a message takes about a hundred
/// times its size in memory, so this keeps the client near 100 MB whatever a server
/// sends.
pub const MAX_SERVER_MESSAGE: usize = 1024 * 1024;

/// A terminal MCP client that renders elicitation forms.
///
/// Without a server command it runs the demo: the ticket-booking server, started as its
/// child over stdio, whose shows are in the next days. Pick `book_tickets` and answer
/// the forms: one prompt per field, Enter to answer, Ctrl-C to quit; a form whose only
/// field is a choice lists Decline among its choices (Esc cancels it), any other form
/// offers Decline, Cancel or Back on Esc at any prompt, and ends on a review screen
/// (Submit preselected, then Change, Decline, Cancel; skip it with --no-review). A list
/// without a default opens on "(choose one)" or "(leave empty)": nothing is chosen for you.
///
/// Examples:
///   terminal-client                                    # the ticket demo
///   terminal-client -- ./target/debug/book-trip        # any stdio MCP server
///   terminal-client --answers answers.json --tool book_tickets   # unattended
#[derive(Parser)]
#[command(version, verbatim_doc_comment)]
struct Cli {
    /// Answer forms from this script (a JSON list of entries: `fields` and/or `message`,
    /// `action`, `content`) instead of asking; unscripted forms are cancelled.
    #[arg(long, value_name = "FILE")]
    answers: Option<std::path::PathBuf>,
    /// Call this tool and exit, instead of choosing from the list.
    #[arg(long)]
    tool: Option<String>,
    /// The tool's arguments as a JSON object (with --tool; else they are asked).
    #[arg(long, value_name = "JSON")]
    args: Option<String>,
    /// Speak 2026-07-28 (stateless rounds, or a task for a tool the server runs as one)
    /// instead of the handshake's default.
    #[arg(long, value_name = "VERSION")]
    protocol: Option<String>,
    /// Send a form as soon as its last field is answered, without the review screen.
    #[arg(long)]
    no_review: bool,
    /// The demo's shows count from this day (YYYY-MM-DD) instead of today (UTC).
    #[arg(long, value_name = "DATE", value_parser = clock::parse_date)]
    today: Option<time::Date>,
    /// Run the demo server over stdio (used by the demo itself).
    #[arg(long, hide = true)]
    serve_ticket_booking: bool,
    /// The MCP server to start (command and arguments), after `--`.
    #[arg(last = true)]
    server: Vec<String>,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    if cli.serve_ticket_booking {
        let elicitor = match serve::keyring(None) {
            Ok(sealer) => Elicitor::new(sealer).with_tasks(Tasks::new()),
            Err(e) => fail(&e),
        };
        let today = cli.today.unwrap_or_else(clock::today);
        let cinema = Arc::new(Mutex::new(Cinema::demo_from(today)));
        if let Err(e) = serve::serve(serve::Listen::Stdio, move || {
            TicketServer::new(elicitor.clone(), cinema.clone())
        })
        .await
        {
            fail(&e.to_string());
        }
        return;
    }
    let result = match &cli.answers {
        Some(path) => match Script::from_file(path) {
            Ok(script) => run(&cli, script, false).await,
            Err(e) => fail(&e.to_string()),
        },
        None => run(&cli, Terminal::new().with_review(!cli.no_review), true).await,
    };
    if let Err(e) = result {
        fail(&e);
    }
}

/// Prints `message` (which may quote the server: it is cleaned, on one line) and exits
/// with 1.
fn fail(message: &str) -> ! {
    eprintln!("terminal-client: {}", one_line(message));
    std::process::exit(1)
}

fn server_command(cli: &Cli) -> Result<tokio::process::Command, String> {
    let mut command = if let Some((program, args)) = cli.server.split_first() {
        let mut c = tokio::process::Command::new(program);
        c.args(args);
        c
    } else {
        let me = std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?;
        let mut c = tokio::process::Command::new(me);
        c.arg("--serve-ticket-booking");
        if let Some(today) = cli.today {
            c.arg("--today").arg(today.to_string());
        }
        c
    };
    command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    Ok(command)
}

/// Why the connection to the server was closed by this client, when it was.
type Closed = Arc<Mutex<Option<String>>>;

/// The server's stdout, read at most [`MAX_SERVER_MESSAGE`] bytes per message (one
/// line): a longer one fails the read, which closes the connection, and is recorded.
struct Bounded<R> {
    inner: R,
    line: usize,
    closed: Closed,
}

impl<R: AsyncRead + Unpin> AsyncRead for Bounded<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        for &byte in &buf.filled()[before..] {
            if byte == b'\n' {
                this.line = 0;
                continue;
            }
            this.line += 1;
            if this.line > MAX_SERVER_MESSAGE {
                let why = format!(
                    "the server sent a message larger than {MAX_SERVER_MESSAGE} bytes, \
                     the most this client reads; the connection is closed"
                );
                if let Ok(mut closed) = this.closed.lock() {
                    closed.get_or_insert_with(|| why.clone());
                }
                return Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    why,
                )));
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// Passes the server's stderr on to ours, cleaned like any server text.
async fn relay_stderr(mut stderr: tokio::process::ChildStderr) {
    let mut chunk = vec![0; 4096];
    let mut out = tokio::io::stderr();
    while let Ok(n) = stderr.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&chunk[..n]);
        if out.write_all(safe_text(&text).as_bytes()).await.is_err() {
            break;
        }
    }
}

/// The running client, the server process it talks to, and why it was closed.
struct Connection<A: Asker + 'static> {
    client: RunningService<RoleClient, FormClient<A>>,
    closed: Closed,
    // Killed when the connection is dropped.
    _server: tokio::process::Child,
}

impl<A: Asker + 'static> Connection<A> {
    /// `e`, or the reason this client closed the connection when it did.
    fn explain(&self, e: impl std::fmt::Display) -> String {
        match self.closed.lock().ok().and_then(|c| c.clone()) {
            Some(why) => why,
            None => e.to_string(),
        }
    }
}

/// Connects to the server; `url_mode` declares URL-mode elicitation (a person is there
/// to be asked before a page opens).
async fn connect<A: Asker + 'static>(
    cli: &Cli,
    asker: A,
    url_mode: bool,
) -> Result<Connection<A>, String> {
    let mut server = server_command(cli)?
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let (Some(stdin), Some(stdout), Some(stderr)) = (
        server.stdin.take(),
        server.stdout.take(),
        server.stderr.take(),
    ) else {
        return Err("cannot talk to the server: no pipes".to_owned());
    };
    tokio::spawn(relay_stderr(stderr));
    let closed = Closed::default();
    let read = Bounded {
        inner: stdout,
        line: 0,
        closed: closed.clone(),
    };
    let transport = (read, stdin);
    let client = FormClient::new(asker)
        .with_client_info("elicit-terminal-client", env!("CARGO_PKG_VERSION"))
        .with_url_mode(url_mode)
        .with_tasks(true);
    let running = match cli.protocol.as_deref() {
        None => client.serve(transport).await,
        Some("2026-07-28") => {
            client
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
        }
        Some(v) => {
            let version: ProtocolVersion = serde_json::from_value(Value::from(v))
                .map_err(|_| format!("unknown protocol version {v:?}"))?;
            client.with_protocol_version(version).serve(transport).await
        }
    };
    let client = running.map_err(|e| {
        let why = closed.lock().ok().and_then(|c| c.clone());
        why.unwrap_or_else(|| format!("the server did not start MCP: {e}"))
    })?;
    Ok(Connection {
        client,
        closed,
        _server: server,
    })
}

async fn run<A: Asker + 'static>(cli: &Cli, asker: A, url_mode: bool) -> Result<(), String> {
    let connection = connect(cli, asker, url_mode).await?;
    let client = &connection.client;
    let server = client
        .peer_info()
        .and_then(|p| p.server_info.as_ref().map(|i| i.name.clone()))
        .unwrap_or_else(|| "the server".to_owned());
    let tools = elicit_rmcp::client::list_tools(client)
        .await
        .map_err(|e| format!("cannot list the tools: {}", connection.explain(e)))?;
    if let Some(name) = &cli.tool {
        let tool = tools
            .iter()
            .find(|t| t.name == name.as_str())
            .ok_or_else(|| format!("{server} has no tool {name:?}"))?;
        let args = match &cli.args {
            Some(text) => match serde_json::from_str(text) {
                Ok(Value::Object(map)) => map,
                _ => return Err("--args must be a JSON object".to_owned()),
            },
            None if cli.answers.is_some() => Map::new(),
            None => match ask_arguments(tool) {
                Some(args) => args,
                None => return Ok(()),
            },
        };
        return call(client, tool, args)
            .await
            .map_err(|e| connection.explain(e));
    }
    println!(
        "Connected to {}: {} tool(s).",
        one_line(&server),
        tools.len()
    );
    // The server's tools behind the mark of its choices, then the client's own Quit; the
    // cursor starts on the first tool whose name does not read like the client's own.
    let mut menu: Vec<String> = tools
        .iter()
        .map(|t| match &t.description {
            Some(d) => server_choice(&format!("{} — {d}", t.name)),
            None => server_choice(&t.name),
        })
        .collect();
    menu.push("Quit".to_owned());
    let start = tools
        .iter()
        .position(|t| !looks_own(&t.name))
        .unwrap_or(tools.len());
    while let Ok(pick) = prompter(|p| p.choose("Which tool?", "", &menu, start)) {
        let Some(tool) = tools.get(pick) else {
            break;
        };
        let Some(args) = ask_arguments(tool) else {
            continue;
        };
        if let Err(e) = call(client, tool, args).await {
            let why = connection.explain(e);
            if connection.closed.lock().is_ok_and(|c| c.is_some()) {
                return Err(why);
            }
            eprintln!("✗ {}", one_line(&why));
        }
    }
    let _ = connection.client.cancel().await;
    Ok(())
}

fn prompter<T>(f: impl FnOnce(&mut dyn Prompter) -> T) -> T {
    terminal::with_prompter(terminal::interactive(), f)
}

/// The tool's arguments, asked property by property from its input schema; `None` on Esc.
fn ask_arguments(tool: &Tool) -> Option<Map<String, Value>> {
    let schema = &tool.input_schema;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut args = Map::new();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Some(args);
    };
    prompter(|p| {
        for (name, property) in properties {
            let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
            let needed = required.contains(&name.as_str());
            let help = format!(
                "{}{}",
                property
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or(kind),
                if needed { "" } else { ", optional" }
            );
            let value = match kind {
                "boolean" => Some(Value::Bool(p.confirm(name, &help, Some(false)).ok()?)),
                _ => {
                    let check = |s: &str| {
                        if s.is_empty() {
                            return if needed {
                                Err("an argument is required".to_owned())
                            } else {
                                Ok(())
                            };
                        }
                        match kind {
                            "integer" => s
                                .trim()
                                .parse::<i64>()
                                .map(drop)
                                .map_err(|_| "a whole number".to_owned()),
                            "number" => s
                                .trim()
                                .parse::<f64>()
                                .map(drop)
                                .map_err(|_| "a number".to_owned()),
                            "string" | "" => Ok(()),
                            _ => serde_json::from_str::<Value>(s)
                                .map(drop)
                                .map_err(|e| format!("JSON: {e}")),
                        }
                    };
                    let s = p.text(name, &help, None, &check).ok()?;
                    if s.is_empty() {
                        None
                    } else {
                        Some(match kind {
                            "integer" | "number" => {
                                serde_json::from_str(s.trim()).unwrap_or(Value::from(s))
                            }
                            "string" | "" => Value::from(s),
                            _ => serde_json::from_str(&s).unwrap_or(Value::from(s)),
                        })
                    }
                }
            };
            if let Some(v) = value {
                args.insert(name.clone(), v);
            }
        }
        Some(args)
    })
}

async fn call<A: Asker + 'static>(
    client: &RunningService<RoleClient, FormClient<A>>,
    tool: &Tool,
    args: Map<String, Value>,
) -> Result<(), ServiceError> {
    // Rounds and tasks (2026-07-28) are followed to the result.
    let params = CallToolRequestParams::new(tool.name.clone()).with_arguments(args);
    let result = elicit_rmcp::client::call_tool(client, params).await?;
    let mark = if result.is_error == Some(true) {
        "✗"
    } else {
        "→"
    };
    // Every line of the server's text behind the result's mark: none passes for the
    // client's own.
    for block in &result.content {
        if let Some(t) = block.as_text() {
            let text = safe_text(&t.text);
            for line in text.lines().chain(text.is_empty().then_some("")) {
                println!("{mark} {line}");
            }
        }
    }
    Ok(())
}
