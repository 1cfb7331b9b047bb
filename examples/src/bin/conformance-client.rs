//! The client the official MCP conformance suite runs (see `.ci/conformance`): the
//! client kit's `FormClient` over Streamable HTTP, answering every form unattended.
//!
//! ```sh
//! npx @modelcontextprotocol/conformance@0.2.0-alpha.12 client \
//!     --command "target/debug/conformance-client" \
//!     --scenario elicitation-sep1034-client-defaults
//! ```
//!
//! The harness appends the server URL as the last argument and names the scenario and
//! the protocol version in `MCP_CONFORMANCE_SCENARIO` and
//! `MCP_CONFORMANCE_PROTOCOL_VERSION`:
//!
//! - 2025-11-25 (and older): the `initialize` handshake, push-mode elicitations;
//! - 2026-07-28: rmcp's `Discover` lifecycle (stateless), `input_required` rounds driven
//!   by rmcp's `call_tool` through the same handler;
//! - unset: rmcp's `Auto` lifecycle (discover, falling back to 2025-11-25).
//!
//! Every form is accepted with an empty answer, so the kit fills the schema's defaults
//! (and validates); a required field without a default gets a stand-in of its kind
//! (`true`, the first option, `"test"`, the minimum or 0). With `--answers FILE` a
//! [`Script`] answers instead. One line per tool result goes to stdout, what happened
//! to each form to stderr; the exit status is non-zero on any error, on a tool result
//! flagged `isError`, and on a form the defaults could not fill.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use clap::Parser;
use elicit_core::FieldKind;
use elicit_core::client::{Asker, Question, Reply};
use elicit_core::{Action, Format};
use elicit_examples::script::Script;
use elicit_rmcp::client::FormClient;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ProtocolVersion, Tool};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Map, Value};
use tokio::sync::Notify;

/// MCP client for the conformance suite's client scenarios: calls the scenario's tools
/// and accepts every form with its defaults.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// Answer forms from this script (a JSON list of entries, see `Script`) instead of
    /// accepting them with their defaults.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// The server's Streamable HTTP endpoint (the harness appends it last).
    url: String,
}

/// How long one tool call (all its rounds) may take; the harness kills the client at 30 s.
const CALL_LIMIT: Duration = Duration::from_secs(20);

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").ok();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").ok();
    let outcome = match &cli.answers {
        None => run(Defaults::default(), &cli.url, scenario, version).await,
        Some(path) => match Script::from_file(path) {
            Ok(script) => run(script, &cli.url, scenario, version).await,
            Err(e) => Err(e.into()),
        },
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance-client: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run<A: Answerer>(
    asker: A,
    url: &str,
    scenario: Option<String>,
    version: Option<String>,
) -> Result<(), Error> {
    let client = FormClient::new(Hold::new(asker))
        .with_client_info("elicit-conformance-client", env!("CARGO_PKG_VERSION"));
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    let version: Option<ProtocolVersion> = version
        .filter(|v| !v.is_empty())
        .map(|v| serde_json::from_value(Value::String(v)))
        .transpose()?;
    let running = match version {
        Some(v) if v.has_initialize() => client.with_protocol_version(v).serve(transport).await?,
        Some(v) => {
            client
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![v],
                    },
                )
                .await?
        }
        None => {
            client
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Auto {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                        legacy_version: Some(ProtocolVersion::V_2025_11_25),
                    },
                )
                .await?
        }
    };
    let outcome = exercise(&running, scenario.as_deref()).await;
    let answered = running.service().asker().inner.finish();
    // Closes the session (HTTP DELETE) where there is one.
    let _ = running.cancel().await;
    outcome?;
    answered
}

type Client<A> = RunningService<RoleClient, FormClient<Hold<A>>>;

/// Lists the tools and calls the ones the scenario needs, in an order that exercises it.
async fn exercise<A: Answerer>(running: &Client<A>, scenario: Option<&str>) -> Result<(), Error> {
    let tools = elicit_rmcp::client::list_tools(running).await?;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    eprintln!("tools: {}", names.join(", "));
    let need = |wanted: &[&str]| -> Result<(), Error> {
        match wanted.iter().find(|w| !names.contains(w)) {
            Some(missing) => Err(format!("the server lists no tool `{missing}`").into()),
            None => Ok(()),
        }
    };
    match scenario {
        Some("elicitation-sep1034-client-defaults") => {
            need(&["test_client_elicitation_defaults"])?;
            call(running, "test_client_elicitation_defaults").await
        }
        Some("sep-2322-client-request-state") => {
            need(&[
                "test_mrtr_echo_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ])?;
            // The unrelated call runs while echo_state's first round is answered, i.e.
            // between its first request and its retry: it must carry neither the
            // inputResponses nor the requestState of that flow.
            let (echo, unrelated) =
                between(running, "test_mrtr_echo_state", "test_mrtr_unrelated").await;
            echo.and(unrelated)?;
            call(running, "test_mrtr_no_state").await?;
            // No resultType: complete, so exactly one request.
            call(running, "test_mrtr_no_result_type").await
        }
        // Any other server: every tool that needs no arguments, in the listed order.
        _ => {
            let mut outcome = Ok(());
            for tool in tools.iter().filter(|t| needs_no_arguments(t)) {
                let result = call(running, &tool.name).await;
                if outcome.is_ok() {
                    outcome = result;
                }
            }
            outcome
        }
    }
}

fn needs_no_arguments(tool: &Tool) -> bool {
    tool.input_schema
        .get("required")
        .and_then(Value::as_array)
        .is_none_or(|r| r.is_empty())
}

/// Calls `tool` with no arguments (rmcp drives any `input_required` rounds through the
/// `FormClient`) and prints one line: the tool's name and its text, or why it failed.
async fn call<A: Answerer>(running: &Client<A>, tool: &str) -> Result<(), Error> {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(Map::new());
    let result = match tokio::time::timeout(CALL_LIMIT, running.call_tool(params)).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => {
            println!("{tool}: failed: {e}");
            return Err(format!("{tool}: {e}").into());
        }
        Err(_) => {
            println!("{tool}: failed: no result within {CALL_LIMIT:?}");
            return Err(format!("{tool}: no result within {CALL_LIMIT:?}").into());
        }
    };
    let text: Vec<String> = result
        .content
        .iter()
        .map(|c| match c.as_text() {
            Some(t) => t.text.clone(),
            None => "[non-text content]".to_owned(),
        })
        .collect();
    let text = text.join(" ").replace('\n', " ");
    if result.is_error == Some(true) {
        println!("{tool}: error: {text}");
        return Err(format!("{tool} returned an error result").into());
    }
    println!("{tool}: {text}");
    Ok(())
}

/// Calls `first`, and calls `second` while `first`'s first form is being answered.
/// If `first` never asks, `second` runs after it.
async fn between<A: Answerer>(
    running: &Client<A>,
    first: &str,
    second: &str,
) -> (Result<(), Error>, Result<(), Error>) {
    let hold = running.service().asker();
    hold.armed.store(true, Ordering::SeqCst);
    let one = async {
        let outcome = call(running, first).await;
        // Wakes the other call if the form never came.
        hold.asked.notify_one();
        outcome
    };
    let two = async {
        hold.asked.notified().await;
        let outcome = call(running, second).await;
        hold.armed.store(false, Ordering::SeqCst);
        hold.release.notify_one();
        outcome
    };
    tokio::join!(one, two)
}

/// An asker that can report, once the run is over, whether it answered every form.
trait Answerer: Asker + 'static {
    /// Reports what happened to the forms; `Err` if the run must fail because of them.
    fn finish(&self) -> Result<(), Error>;
}

impl Answerer for Script {
    fn finish(&self) -> Result<(), Error> {
        for event in self.events() {
            eprintln!("form: {event}");
        }
        Ok(())
    }
}

/// Wraps an asker so that one form can be held until another call has run.
struct Hold<A> {
    inner: A,
    armed: AtomicBool,
    asked: Notify,
    release: Notify,
}

impl<A> Hold<A> {
    fn new(inner: A) -> Hold<A> {
        Hold {
            inner,
            armed: AtomicBool::new(false),
            asked: Notify::new(),
            release: Notify::new(),
        }
    }
}

impl<A: Asker> Asker for Hold<A> {
    async fn ask(&self, question: Question<'_>) -> Reply {
        if self.armed.swap(false, Ordering::SeqCst) {
            self.asked.notify_one();
            self.release.notified().await;
        }
        self.inner.ask(question).await
    }

    fn ask_url(
        &self,
        server: Option<&str>,
        message: &str,
        url: &str,
    ) -> impl Future<Output = Action> + Send {
        self.inner.ask_url(server, message, url)
    }
}

/// Accepts every form with an empty answer: the kit fills the defaults and validates.
/// Required fields without a default get a stand-in of their kind.
#[derive(Default)]
struct Defaults {
    refused: AtomicUsize,
}

impl Defaults {
    fn answer(&self, question: Question<'_>) -> Reply {
        let mut answers = Map::new();
        for field in question.form.fields() {
            if field.required && field.kind.default_value().is_none() {
                answers.insert(field.name.to_string(), stand_in(&field.kind));
            }
        }
        let filled: Vec<String> = answers.keys().cloned().collect();
        match Reply::validated(question.form, Value::Object(answers)) {
            Ok(reply) => {
                let content = match &reply {
                    Reply::Accept(content) => Value::Object(content.clone()),
                    _ => Value::Null,
                };
                let stand_ins = if filled.is_empty() {
                    String::new()
                } else {
                    format!(" (stand-ins for {})", filled.join(", "))
                };
                eprintln!(
                    "form: accepted {:?} with {content}{stand_ins}",
                    question.message
                );
                reply
            }
            Err(e) => {
                self.refused.fetch_add(1, Ordering::SeqCst);
                eprintln!(
                    "form: cancelled {:?}: the defaults do not fill it ({e})",
                    question.message
                );
                Reply::Cancel
            }
        }
    }
}

impl Asker for Defaults {
    fn ask(&self, question: Question<'_>) -> impl Future<Output = Reply> + Send {
        std::future::ready(self.answer(question))
    }
}

impl Answerer for Defaults {
    fn finish(&self) -> Result<(), Error> {
        match self.refused.load(Ordering::SeqCst) {
            0 => Ok(()),
            n => Err(
                format!("{n} form(s) could not be filled with defaults and were cancelled").into(),
            ),
        }
    }
}

/// A value a field of this kind accepts, for a required field without a default.
fn stand_in(kind: &FieldKind) -> Value {
    match kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            let text = match format {
                Some(Format::Email) => "test@example.com".to_owned(),
                Some(Format::Uri) => "https://example.com/".to_owned(),
                Some(Format::Date) => "2025-01-01".to_owned(),
                Some(Format::DateTime) => "2025-01-01T00:00:00Z".to_owned(),
                // A format this client does not know: plain text, for the server to judge.
                Some(_) | None => {
                    let mut text = "test".to_owned();
                    let min = min_length.unwrap_or(0);
                    while (text.chars().count() as u64) < min {
                        text.push('t');
                    }
                    match max_length {
                        Some(max) => text.chars().take(*max as usize).collect(),
                        None => text,
                    }
                }
            };
            Value::String(text)
        }
        FieldKind::Integer {
            minimum, maximum, ..
        } => {
            let n = match (minimum, maximum) {
                (Some(min), _) => *min,
                (None, Some(max)) if *max < 0 => *max,
                _ => 0,
            };
            match i64::try_from(n) {
                Ok(n) => Value::from(n),
                Err(_) => Value::from(u64::try_from(n).unwrap_or(u64::MAX)),
            }
        }
        FieldKind::Number {
            minimum, maximum, ..
        } => {
            let n = match (minimum, maximum) {
                (Some(min), _) => *min,
                (None, Some(max)) if *max < 0.0 => *max,
                _ => 0.0,
            };
            Value::from(n)
        }
        FieldKind::Boolean { .. } => Value::Bool(true),
        FieldKind::Select { options, .. } => options
            .first()
            .map_or(Value::Null, |c| Value::String(c.value.to_string())),
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            ..
        } => {
            let n = min_items
                .unwrap_or(1)
                .max(1)
                .min(max_items.unwrap_or(u64::MAX));
            Value::Array(
                options
                    .iter()
                    .take(n as usize)
                    .map(|c| Value::String(c.value.to_string()))
                    .collect(),
            )
        }
        // A kind this client does not know: nothing to stand in with.
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use elicit_core::client::read_schema;
    use serde_json::json;

    fn answer(schema: Value) -> (Reply, usize) {
        let form = read_schema(&schema.to_string()).unwrap();
        let defaults = Defaults::default();
        let reply = defaults.answer(Question {
            server: None,
            message: "m",
            form: &form,
        });
        (reply, defaults.refused.load(Ordering::SeqCst))
    }

    #[test]
    fn defaults_fill_optional_fields() {
        let (reply, refused) = answer(json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "verified": {"type": "boolean"}
        }}));
        assert_eq!(refused, 0);
        let Reply::Accept(content) = reply else {
            panic!("accepted")
        };
        assert_eq!(
            Value::Object(content),
            json!({"name": "John Doe", "age": 30})
        );
    }

    #[test]
    fn required_fields_without_defaults_get_stand_ins() {
        let (reply, refused) = answer(json!({"type": "object", "properties": {
            "ok": {"type": "boolean"},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l"}]},
            "word": {"type": "string", "minLength": 6},
            "short": {"type": "string", "maxLength": 2},
            "mail": {"type": "string", "format": "email"},
            "when": {"type": "string", "format": "date-time"},
            "count": {"type": "integer", "minimum": 3},
            "below": {"type": "integer", "maximum": -2},
            "ratio": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 2},
            "kept": {"type": "string", "default": "x"}
        }, "required": ["ok", "size", "word", "short", "mail", "when", "count", "below", "ratio",
                        "tags", "kept"]}));
        assert_eq!(refused, 0);
        let Reply::Accept(content) = reply else {
            panic!("accepted")
        };
        assert_eq!(
            Value::Object(content),
            json!({"ok": true, "size": "s", "word": "testtt", "short": "te",
                   "mail": "test@example.com", "when": "2025-01-01T00:00:00Z", "count": 3,
                   "below": -2, "ratio": 0.0, "tags": ["a", "b"], "kept": "x"})
        );
    }
}
