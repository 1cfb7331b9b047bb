//! `conformance-server`: what the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`) calls in its elicitation scenarios (2025-11-25,
//! push) and its fourteen `input-required-result-*` scenarios (2026-07-28, Multi
//! Round-Trip Requests). Every form is declared with `#[derive(Elicit)]` and every
//! round goes through [`elicit_rmcp`]; nothing here writes an elicitation by hand.
//!
//! It also has the fixtures of the suite's `tasks-*` scenarios (the Tasks extension,
//! SEP-2663), run as tasks by [`Tools::with_task_support`]: `greet` (never a task),
//! `slow_compute` and `confirm_delete` and `multi_input` (a task when the client
//! declared the extension; the last two ask from inside it), `failing_job` and
//! `protocol_error_job` (tasks only), and `test_tool_with_task`, which asks in rounds
//! first and then goes on as a task ([`Session::continue_in_task`]).

use std::time::Duration;

use elicit_core::{Elicit, Elicitation, NoSecrets};
use elicit_rmcp::{
    AskError, Asked, Elicitor, Halt, Input, InputAnswer, Session, TaskSupport, Tools,
};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    Implementation, ListPromptsResult, PaginatedRequestParams, Prompt, PromptMessage, Role,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{text, tool_error};

/// `test_elicitation`: a user name and an e-mail address.
#[derive(Debug, Elicit, Deserialize, serde::Serialize)]
pub struct UserInfo {
    /// User's response
    pub username: String,
    /// User's email address
    #[elicit(format = "email")]
    pub email: String,
}

/// SEP-1034: a default for every kind of field.
#[derive(Debug, Elicit, Deserialize, serde::Serialize)]
pub struct Defaults {
    /// User name
    #[elicit(default = "John Doe")]
    pub name: String,
    /// User age
    #[elicit(default = 30)]
    pub age: i64,
    /// User score
    #[elicit(default = 95.5)]
    pub score: f64,
    /// User status
    #[elicit(default = "active")]
    pub status: Status,
    /// Verification status
    #[elicit(default = true)]
    pub verified: bool,
}

/// The status of [`Defaults`]: untitled options.
#[derive(Debug, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Status {
    Active,
    Inactive,
    Pending,
}

/// SEP-1330: the five shapes of a choice.
#[derive(Debug, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enums {
    /// Select one option
    pub untitled_single: Untitled,
    /// Select one option with titles
    pub titled_single: Titled,
    /// Select one option (legacy)
    #[elicit(enum_names)]
    pub legacy_enum: Legacy,
    /// Select multiple options
    #[elicit(min_items = 1, max_items = 3)]
    pub untitled_multi: Vec<Untitled>,
    /// Select multiple options with titles
    #[elicit(min_items = 1, max_items = 3)]
    pub titled_multi: Vec<TitledChoice>,
}

/// Options without titles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Options with titles (a `oneOf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Titled {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

/// Options with titles, sent the legacy way (`enumNames`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Legacy {
    #[elicit(title = "Option One")]
    Opt1,
    #[elicit(title = "Option Two")]
    Opt2,
    #[elicit(title = "Option Three")]
    Opt3,
}

/// Titled options of a multi-select (an `items.anyOf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Elicit, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum TitledChoice {
    #[elicit(title = "First Choice")]
    Value1,
    #[elicit(title = "Second Choice")]
    Value2,
    #[elicit(title = "Third Choice")]
    Value3,
}

/// A name.
#[derive(Debug, Elicit, Deserialize)]
pub struct Name {
    /// Your name
    pub name: String,
}

/// A favourite colour.
#[derive(Debug, Elicit, Deserialize)]
pub struct Color {
    /// Your favourite colour
    pub color: String,
}

/// A confirmation.
#[derive(Debug, Elicit, Deserialize)]
pub struct Ok {
    /// Tick to confirm
    pub ok: bool,
}

/// A value.
#[derive(Debug, Elicit, Deserialize)]
pub struct Answer {
    /// Any value
    pub value: String,
}

/// The context of the prompt.
#[derive(Debug, Elicit, Deserialize)]
pub struct Context {
    /// The context the prompt uses
    pub context: String,
}

/// The conformance server.
#[derive(Clone, Debug)]
pub struct ConformanceServer {
    tools: Tools<ConformanceServer>,
    /// For the prompt, which is answered by hand (rmcp routes prompts apart).
    elicitor: Elicitor,
}

/// The arguments of `greet`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GreetArgs {
    /// Who to greet
    pub name: String,
}

/// The arguments of `slow_compute`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SlowArgs {
    /// How long the computation takes, in seconds (at most an hour)
    pub seconds: f64,
    /// A label echoed in the result
    #[serde(default)]
    pub label: Option<String>,
}

/// The longest `slow_compute` there is.
const MAX_SLOW: Duration = Duration::from_secs(3600);

/// Sleeps `duration`, or fails with "cancelled" as soon as `ctx`'s call (or task) is
/// cancelled: the cooperative wait of a long tool.
async fn sleep_unless_cancelled(
    ctx: &RequestContext<RoleServer>,
    duration: Duration,
) -> Result<(), ErrorData> {
    tokio::select! {
        _ = ctx.ct.cancelled() => Err(ErrorData::internal_error("cancelled", None)),
        _ = tokio::time::sleep(duration) => Ok(()),
    }
}

/// The arguments of `confirm_delete`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FileArgs {
    /// The file to delete
    pub filename: String,
}

/// `confirm_delete`'s question.
#[derive(Debug, Elicit, Deserialize)]
pub struct ConfirmDelete {
    /// Delete the file?
    pub confirm: bool,
}

/// Each of `multi_input`'s two questions.
#[derive(Debug, Elicit, Deserialize)]
pub struct NameConfirm {
    /// Your name
    pub name: String,
    /// Confirm
    pub confirm: bool,
}

/// The arguments of `test_elicitation`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct MessageArgs {
    /// The message above the form
    #[serde(default)]
    pub message: Option<String>,
}

/// `action=accept, content={...}` for a form's outcome.
fn outcome<T: serde::Serialize>(answer: &Elicitation<T>) -> String {
    match answer {
        Elicitation::Accept(v) => format!(
            "action=accept, content={}",
            serde_json::to_string(v).unwrap_or_default()
        ),
        Elicitation::Decline => "action=decline".to_owned(),
        Elicitation::Cancel => "action=cancel".to_owned(),
    }
}

/// The text of a sampling result (`content.text`).
/// The form `T` asked under `key` (the suite answers keys it knows in the first call).
async fn keyed<T: Elicit + NoSecrets>(
    s: &mut Session,
    key: &str,
    message: &str,
) -> Result<Elicitation<T>, Halt> {
    let mut answers = s.inputs(vec![Input::form::<T>(key, message)]).await?;
    Ok(answers.remove(0).typed::<T>()?)
}

/// The client's raw result of one `method` request, asked under `key` (2026-07-28).
async fn raw(s: &mut Session, key: &str, method: &str, params: Value) -> Result<Value, Halt> {
    let mut answers = s.inputs(vec![Input::request(key, method, params)]).await?;
    Ok(match answers.remove(0) {
        InputAnswer::Value(v) => v,
        _ => Value::Null,
    })
}

fn sampled_text(result: &Value) -> String {
    result
        .pointer("/content/text")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

/// How many roots a `roots/list` result holds.
fn root_count(result: &Value) -> usize {
    result
        .get("roots")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

fn sampling(prompt: &str, max_tokens: u32) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": max_tokens
    })
}

fn name_of(answer: Elicitation<Name>) -> Option<String> {
    match answer {
        Elicitation::Accept(n) => Some(n.name),
        _ => None,
    }
}

#[tool_router]
impl ConformanceServer {
    /// A server sealing the state of calls in rounds with `elicitor`'s key, running its tasks in the
    /// elicitor's `Tasks` (`Elicitor::with_tasks`; without them the task fixtures answer
    /// with an internal error).
    pub fn new(elicitor: Elicitor) -> ConformanceServer {
        let tools = Tools::new(elicitor.clone(), Self::tool_router())
            .with_task_support("slow_compute", TaskSupport::Optional)
            .with_task_support("confirm_delete", TaskSupport::Optional)
            .with_task_support("multi_input", TaskSupport::Optional)
            .with_task_support("failing_job", TaskSupport::Required)
            .with_task_support("protocol_error_job", TaskSupport::Required);
        ConformanceServer { tools, elicitor }
    }

    #[tool(description = "Greets by name, always synchronously (tasks fixture)")]
    async fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> CallToolResult {
        text(format!("Hello, {}!", args.name))
    }

    #[tool(
        description = "Sleeps for `seconds`: a task when the client declared the tasks \
                       extension, else in the call (tasks fixture)"
    )]
    async fn slow_compute(
        &self,
        Parameters(args): Parameters<SlowArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let duration = Duration::try_from_secs_f64(args.seconds)
            .ok()
            .filter(|d| *d <= MAX_SLOW)
            .ok_or_else(|| ErrorData::invalid_params("seconds must be between 0 and 3600", None))?;
        // In a task, `ctx.ct` fires on `tasks/cancel`; in a call, on its cancellation.
        sleep_unless_cancelled(&ctx, duration).await?;
        Ok(text(format!(
            "{}: computed in {} s",
            args.label.as_deref().unwrap_or("slow_compute"),
            args.seconds
        )))
    }

    #[tool(description = "A task whose tool result is an error (tasks fixture; tasks only)")]
    async fn failing_job(
        &self,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        sleep_unless_cancelled(&ctx, Duration::from_secs(1)).await?;
        Ok(tool_error("failing_job failed, as it always does"))
    }

    #[tool(description = "A task that fails with a JSON-RPC error (tasks fixture; tasks only)")]
    async fn protocol_error_job(
        &self,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        sleep_unless_cancelled(&ctx, Duration::from_millis(100)).await?;
        Err(ErrorData::internal_error(
            "protocol_error_job failed with an internal error, as it always does",
            None,
        ))
    }

    #[tool(description = "Asks before deleting a file, from inside a task (tasks fixture)")]
    async fn confirm_delete(
        &self,
        Parameters(args): Parameters<FileArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let message = format!("Delete {}?", args.filename);
        Ok(match s.ask::<ConfirmDelete>(&message).await? {
            Elicitation::Accept(ConfirmDelete { confirm: true }) => {
                text(format!("Deleted {}", args.filename))
            }
            _ => text(format!("Kept {}", args.filename)),
        })
    }

    #[tool(description = "Asks two questions at once, from inside a task (tasks fixture)")]
    async fn multi_input(&self, mut s: Session) -> Asked<CallToolResult> {
        let answers = s
            .inputs(vec![
                Input::form::<NameConfirm>("first", "First: your name, and confirm"),
                Input::form::<NameConfirm>("second", "Second: your name, and confirm"),
            ])
            .await?;
        let mut names = Vec::new();
        for answer in answers {
            if let Elicitation::Accept(a) = answer.typed::<NameConfirm>()? {
                names.push(a.name);
            }
        }
        Ok(text(format!("Received: {}", names.join(", "))))
    }

    #[tool(
        description = "Asks for a name (in rounds), then greets in a task (tasks fixture; tasks only)"
    )]
    async fn test_tool_with_task(&self, mut s: Session) -> Asked<CallToolResponse> {
        // Refused before any question: the task it would end in cannot be sent.
        if !s.supports_tasks() {
            return Err(AskError::Unsupported {
                mode: "tasks",
                revision: s.peer().revision,
            }
            .into());
        }
        let greeting =
            match name_of(keyed::<Name>(&mut s, "user_name", "What is your name?").await?) {
                Some(name) => format!("Hello, {name}!"),
                None => "No name given.".to_owned(),
            };
        s.continue_in_task(|_| async move { Ok(text(greeting)) })
            .await
    }

    #[tool(description = "Asks the user for a name and an e-mail address")]
    async fn test_elicitation(
        &self,
        Parameters(args): Parameters<MessageArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let message = args
            .message
            .as_deref()
            .unwrap_or("Please provide your information");
        let answer = s.ask::<UserInfo>(message).await?;
        Ok(text(format!("User response: {}", outcome(&answer))))
    }

    #[tool(description = "A form with a default for every kind of field (SEP-1034)")]
    async fn test_elicitation_sep1034_defaults(&self, mut s: Session) -> Asked<CallToolResult> {
        let answer = s
            .ask::<Defaults>("Please review and update the form fields with defaults")
            .await?;
        Ok(text(format!("Elicitation completed: {}", outcome(&answer))))
    }

    #[tool(description = "A form with every shape of choice (SEP-1330)")]
    async fn test_elicitation_sep1330_enums(&self, mut s: Session) -> Asked<CallToolResult> {
        let answer = s.ask::<Enums>("Please pick from each kind of list").await?;
        Ok(text(format!("Elicitation completed: {}", outcome(&answer))))
    }

    #[tool(description = "Asks for a name (in rounds)")]
    async fn test_input_required_result_elicitation(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        Ok(
            match name_of(keyed::<Name>(&mut s, "user_name", "What is your name?").await?) {
                Some(name) => text(format!("Hello, {name}!")),
                None => text("No name given."),
            },
        )
    }

    #[tool(description = "Asks the client to sample (in rounds)")]
    async fn test_input_required_result_sampling(&self, mut s: Session) -> Asked<CallToolResult> {
        let question = sampling("What is the capital of France?", 100);
        let result = raw(&mut s, "sampling", "sampling/createMessage", question).await?;
        Ok(text(format!("Sampling result: {}", sampled_text(&result))))
    }

    #[tool(description = "Asks for the client's roots (in rounds)")]
    async fn test_input_required_result_list_roots(&self, mut s: Session) -> Asked<CallToolResult> {
        let result = raw(&mut s, "roots", "roots/list", json!({})).await?;
        Ok(text(format!("Found {} root(s)", root_count(&result))))
    }

    #[tool(description = "Asks for a confirmation, state in requestState (in rounds)")]
    async fn test_input_required_result_request_state(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        Ok(
            match keyed::<Ok>(&mut s, "confirm", "Please confirm").await? {
                Elicitation::Accept(Ok { ok: true }) => text("state-ok: requestState validated"),
                _ => text("state-ok: not confirmed"),
            },
        )
    }

    #[tool(description = "Asks for a form, a sample and the roots in one round (in rounds)")]
    async fn test_input_required_result_multiple_inputs(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let mut answers = s
            .inputs(vec![
                Input::form::<Name>("user_name", "What is your name?"),
                Input::request(
                    "greeting",
                    "sampling/createMessage",
                    sampling("Generate a greeting", 50),
                ),
                Input::request("client_roots", "roots/list", json!({})),
            ])
            .await?
            .into_iter();
        let name = answers.next().map(|a| a.typed::<Name>()).transpose()?;
        let raw = |a: Option<InputAnswer>| match a {
            Some(InputAnswer::Value(v)) => v,
            _ => Value::Null,
        };
        let (greeting, roots) = (raw(answers.next()), raw(answers.next()));
        Ok(text(format!(
            "Name: {}; Greeting: {}; Roots: {}",
            name.and_then(name_of).unwrap_or_default(),
            sampled_text(&greeting),
            root_count(&roots)
        )))
    }

    #[tool(description = "Asks two questions in two rounds (in rounds)")]
    async fn test_input_required_result_multi_round(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let Some(name) =
            name_of(keyed::<Name>(&mut s, "step1", "Step 1: What is your name?").await?)
        else {
            return Ok(text("No name given."));
        };
        Ok(
            match keyed::<Color>(&mut s, "step2", "Step 2: What is your favorite color?").await? {
                Elicitation::Accept(c) => text(format!(
                    "Multi-round complete for {name} who likes {}",
                    c.color
                )),
                _ => text(format!("Multi-round ended for {name} without a colour")),
            },
        )
    }

    #[tool(description = "Refuses a requestState that was tampered with (in rounds)")]
    async fn test_input_required_result_tampered_state(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        Ok(
            match keyed::<Ok>(&mut s, "confirm", "Please confirm").await? {
                Elicitation::Accept(_) => text("confirmed"),
                _ => text("not confirmed"),
            },
        )
    }

    #[tool(description = "Asks only for what the client declared (in rounds)")]
    async fn test_input_required_result_capabilities(
        &self,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        // Ask only for what the client declared, in this very request.
        let mut inputs = Vec::new();
        if s.peer().supports("sampling") {
            inputs.push(Input::request(
                "sample_input",
                "sampling/createMessage",
                sampling("Sample request", 50),
            ));
        }
        if s.peer().supports("form") {
            inputs.push(Input::form::<Answer>("elicit_input", "Elicitation input"));
        }
        if inputs.is_empty() {
            return Ok(text(
                "The client declared neither sampling nor elicitation.",
            ));
        }
        let count = inputs.len();
        s.inputs(inputs).await?;
        Ok(text(format!("Received {count} input(s)")))
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for ConformanceServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new(
            "elicit-conformance-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "test_input_required_result_prompt",
            Some("Asks for the context before it is built (in rounds)"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        params: GetPromptRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if params.name != "test_input_required_result_prompt" {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {:?}", params.name),
                None,
            ));
        }
        let mut s = self.elicitor.prompt(&ctx, &params)?;
        let result = async {
            let context = match keyed::<Context>(
                &mut s,
                "user_context",
                "What context should the prompt use?",
            )
            .await?
            {
                Elicitation::Accept(c) => c.context,
                _ => "none".to_owned(),
            };
            Result::<_, Halt>::Ok(GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!("Prompt with context: {context}"),
            )]))
        }
        .await;
        s.finish_prompt(result)
    }

    elicit_rmcp::task_handlers!(tools);
}
