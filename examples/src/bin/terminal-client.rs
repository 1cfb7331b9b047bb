//! A terminal MCP client built on the elicit client kit: starts a stdio MCP server,
//! lists its tools, calls the one you pick (its arguments asked from the tool's input
//! schema) and renders every elicitation — who asks and why first, a widget per field,
//! defaults pre-filled, problems inline, a review where any answer can be changed, and
//! distinct Decline and Cancel (Esc).
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

use std::sync::{Arc, Mutex};

use clap::Parser;
use elicit_core::client::rmcp::FormClient;
use elicit_core::client::{Asker, Script};
use elicit_core::mcp::Elicitor;
use elicit_examples::servers::serve;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::terminal::{self, Prompter, Terminal};
use elicit_examples::ticket::Cinema;
use rmcp::model::{CallToolRequestParams, ProtocolVersion, Tool};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Map, Value};

#[derive(Parser)]
#[command(
    version,
    about = "A terminal MCP client that renders elicitation forms"
)]
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
    /// Speak 2026-07-28 (stateless rounds) instead of the handshake's default.
    #[arg(long, value_name = "VERSION")]
    protocol: Option<String>,
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
        let elicitor = match serve::sealer(None) {
            Ok(sealer) => Elicitor::new(sealer),
            Err(e) => fail(&e),
        };
        let cinema = Arc::new(Mutex::new(Cinema::demo()));
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
            Ok(script) => run(&cli, script).await,
            Err(e) => fail(&e.to_string()),
        },
        None => run(&cli, Terminal::new()).await,
    };
    if let Err(e) = result {
        fail(&e);
    }
}

fn fail(message: &str) -> ! {
    eprintln!("terminal-client: {message}");
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
        c
    };
    command.kill_on_drop(true);
    Ok(command)
}

async fn connect<A: Asker + 'static>(
    cli: &Cli,
    asker: A,
) -> Result<RunningService<RoleClient, FormClient<A>>, String> {
    let transport = TokioChildProcess::new(server_command(cli)?)
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let client = FormClient::new(asker)
        .with_client_info("elicit-terminal-client", env!("CARGO_PKG_VERSION"));
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
    running.map_err(|e| format!("the server did not start MCP: {e}"))
}

async fn run<A: Asker + 'static>(cli: &Cli, asker: A) -> Result<(), String> {
    let client = connect(cli, asker).await?;
    let server = client
        .peer_info()
        .and_then(|p| p.server_info.as_ref().map(|i| i.name.clone()))
        .unwrap_or_else(|| "the server".to_owned());
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("cannot list the tools: {e}"))?;
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
        return call(&client, tool, args).await.map_err(|e| e.to_string());
    }
    println!("Connected to {server}: {} tool(s).", tools.len());
    loop {
        let mut menu: Vec<String> = tools
            .iter()
            .map(|t| match &t.description {
                Some(d) => format!("{} — {d}", t.name),
                None => t.name.to_string(),
            })
            .collect();
        menu.push("Quit".to_owned());
        let Some(pick) = prompter(|p| p.choose("Which tool?", &menu, 0)) else {
            break;
        };
        let Some(tool) = tools.get(pick) else {
            break;
        };
        let Some(args) = ask_arguments(tool) else {
            continue;
        };
        if let Err(e) = call(&client, tool, args).await {
            eprintln!("✗ {e}");
        }
    }
    let _ = client.cancel().await;
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
                "boolean" => Some(Value::Bool(p.confirm(name, &help, Some(false))?)),
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
                    let s = p.text(name, &help, None, &check)?;
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
    let result = client
        .call_tool(CallToolRequestParams::new(tool.name.clone()).with_arguments(args))
        .await?;
    let mark = if result.is_error == Some(true) {
        "✗"
    } else {
        "→"
    };
    for block in &result.content {
        if let Some(t) = block.as_text() {
            println!("{mark} {}", t.text);
        }
    }
    Ok(())
}
