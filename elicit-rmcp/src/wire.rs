//! Between the engine and rmcp: the client a request speaks for, read once into the
//! engine's [`Peer`]; the engine's [`Halt`] as rmcp's response or error; its questions
//! as rmcp's typed requests.
//!
//! The three workarounds rmcp 3.11 forces live here, each in one place: the error type a
//! tool method may return ([`Halted`]); an `input_required` result out of a tool method's
//! error arm, which rmcp refuses ([`routed`]); and questions handed to rmcp only as its
//! typed structs ([`input_request`]). `docs/rmcp-upstream.md` has the change each would
//! need upstream.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::{Mutex, OnceLock};

use ::rmcp::ErrorData as McpError;
use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{
    CallToolResponse, ClientCapabilities, CustomRequest, ErrorCode, GetPromptResponse,
    InputRequest, InputRequests, InputRequiredResult, ServerRequest, TASKS_EXTENSION_ID,
};
use ::rmcp::service::{RequestContext, RoleServer};
use elicit_core::Revision;
use elicit_core::engine::{AskError, Halt, InputRequired, Peer, Question, RpcError};
use serde_json::Value;

/// The JSON-RPC error a 2026-07-28 server returns when a capability it needs is missing.
// Hidden: old name, kept for one release (rmcp names the code).
#[deprecated(note = "use rmcp's `ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY`")]
#[doc(hidden)]
pub const MISSING_CAPABILITY: ErrorCode = ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY;

/// The JSON-RPC error of 2025-11-25 for "this request needs a URL-mode elicitation first"
/// (rmcp has no name for it).
pub const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// The engine's [`Halt`] on its way out of an rmcp `#[tool]` method: the error arm of
/// [`Asked`].
///
/// rmcp takes a tool method's result through its own trait (`IntoCallToolResult`), which
/// only a type of this crate can implement for the engine's `Halt`: this wrapper is that
/// type, and nothing more. `?` turns a [`Halt`], an [`AskError`] or the tool's own
/// `rmcp::ErrorData` (as [`Halt::Refused`], code, message and data kept) into it; match
/// on the `Halt` inside (`.0`) to tell them apart.
// A workaround rmcp forces: docs/rmcp-upstream.md, 2 (a tool's error type).
#[derive(Debug)]
pub struct Halted(pub Halt);

impl From<Halt> for Halted {
    fn from(halt: Halt) -> Halted {
        Halted(halt)
    }
}

impl From<AskError> for Halted {
    fn from(e: AskError) -> Halted {
        Halted(Halt::Ask(e))
    }
}

/// The tool's own error, answered as it is.
impl From<McpError> for Halted {
    fn from(e: McpError) -> Halted {
        let code = i64::from(e.code.0);
        Halted(Halt::Refused(RpcError::new(code, e.message, e.data)))
    }
}

impl fmt::Display for Halted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Halted {}

/// What a `#[tool]` method that asks returns: its result, or the [`Halt`] that stopped
/// it (see [`Tools`](crate::Tools)).
pub type Asked<T> = Result<T, Halted>;

/// The rmcp error for a JSON-RPC error of the engine.
pub(crate) fn rpc_error(e: RpcError) -> McpError {
    let code = i32::try_from(e.code).unwrap_or(ErrorCode::INTERNAL_ERROR.0);
    McpError::new(ErrorCode(code), e.message, e.data)
}

/// The `-32021` error of a call that needs the Tasks extension, naming it in
/// `data.requiredCapabilities`.
pub(crate) fn tasks_required() -> McpError {
    McpError::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    )
}

/// The round of `halt`, or the JSON-RPC error to answer with: a missing capability is
/// `-32021` with `data.requiredCapabilities` on 2026-07-28 and `invalid request` before;
/// an unusable answer is `invalid params`; a refused state or the tool's own error as it
/// is; the rest are internal errors.
fn round_or_error(halt: Halt) -> Result<InputRequired, McpError> {
    match halt {
        Halt::InputRequired(round) => Ok(round),
        Halt::Ask(AskError::Unsupported { mode: "tasks", .. }) => Err(tasks_required()),
        Halt::Ask(e) => Err(rpc_error(RpcError::from(&e))),
        Halt::Refused(e) => Err(rpc_error(e)),
        other => Err(McpError::internal_error(other.to_string(), None)),
    }
}

/// The `tools/call` response for `halt`: the `input_required` result, the tool result
/// with a page's link, or the error.
pub(crate) fn into_response(halt: Halt) -> Result<CallToolResponse, McpError> {
    if let Halt::Link(link) = &halt {
        return Ok(CallToolResponse::Complete(link_result(link)));
    }
    let round = round_or_error(halt)?;
    Ok(CallToolResponse::InputRequired(input_required(&round)?))
}

/// The tool result that shows the person a page's link.
fn link_result(link: &elicit_core::engine::PageLink) -> ::rmcp::model::CallToolResult {
    let text = ::rmcp::model::ContentBlock::text(link.text());
    ::rmcp::model::CallToolResult::success(vec![text])
}

/// The `prompts/get` response for `halt`.
pub(crate) fn into_prompt_response(halt: Halt) -> Result<GetPromptResponse, McpError> {
    let round = round_or_error(halt)?;
    Ok(GetPromptResponse::InputRequired(input_required(&round)?))
}

// A workaround rmcp forces: docs/rmcp-upstream.md, 1 (an input_required result from the error arm).
tokio::task_local! {
    /// While [`routed`] runs a call: where its `input_required` result waits.
    static REPLY: RefCell<Option<InputRequiredResult>>;
}

/// Runs a call routed by [`Tools`](crate::Tools) and answers with what it ended with,
/// its `input_required` result included.
///
/// rmcp refuses an `input_required` result in the error arm of a tool method (see
/// docs/rmcp-upstream.md): a [`Halted`] round is left here, beside the call, and its
/// method's error stands for it.
pub(crate) async fn routed(
    call: impl Future<Output = Result<CallToolResponse, McpError>>,
) -> Result<CallToolResponse, McpError> {
    REPLY
        .scope(RefCell::new(None), async move {
            let response = call.await;
            match (response, REPLY.with(|reply| reply.borrow_mut().take())) {
                (Err(_), Some(asked)) => Ok(CallToolResponse::InputRequired(asked)),
                (response, _) => response,
            }
        })
        .await
}

/// What rmcp sends for a `#[tool]` method's [`Halted`]: the error, or, for a method
/// routed by [`Tools`](crate::Tools), the `input_required` result (left beside the call).
impl IntoCallToolResult for Halted {
    fn into_call_tool_result(self) -> Result<CallToolResponse, McpError> {
        if let Halt::Link(link) = self.0 {
            return Ok(CallToolResponse::Complete(link_result(&link)));
        }
        let round = round_or_error(self.0)?;
        let asked = input_required(&round)?;
        match REPLY.try_with(|reply| *reply.borrow_mut() = Some(asked)) {
            // Seen by `routed`, which answers with the round instead.
            Ok(()) => Err(McpError::internal_error("input required", None)),
            Err(_) => Err(McpError::internal_error(
                "this tool asked a question on 2026-07-28, but its call was not routed by \
                 elicit_rmcp::Tools, so the input_required result cannot be sent: route the \
                 tool by Tools, or answer with Session::finish",
                None,
            )),
        }
    }
}

/// The rmcp `input_required` result for the engine's round.
fn input_required(round: &InputRequired) -> Result<InputRequiredResult, McpError> {
    let mut requests = InputRequests::new();
    for request in &round.requests {
        requests.insert(request.key.clone(), input_request(request)?);
    }
    Ok(InputRequiredResult::new(
        Some(requests),
        Some(round.state.clone()),
    ))
}

/// rmcp's typed input request for `request`, read from its JSON text.
///
/// rmcp carries an input request only as typed structs (see docs/rmcp-upstream.md), built
/// by parsing the request's JSON (its schema into rmcp's schema types, which keep the
/// order of the properties they read): the costliest step of a round. The questions of a
/// server are few (a form, a wizard step with its options, a problem above a message), so
/// each is parsed once, by its digest, and cloned after; at most 256 are kept, and the
/// cache is emptied when full.
// A workaround rmcp forces: docs/rmcp-upstream.md, 3 (typed questions only).
pub(crate) fn input_request(request: &Question) -> Result<InputRequest, McpError> {
    const CAPACITY: usize = 256;
    static PARSED: OnceLock<Mutex<HashMap<String, InputRequest>>> = OnceLock::new();
    let mut parsed = PARSED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(built) = parsed.get(&request.digest) {
        return Ok(built.clone());
    }
    let built = parse(request)?;
    if parsed.len() >= CAPACITY {
        parsed.clear();
    }
    parsed.insert(request.digest.clone(), built.clone());
    Ok(built)
}

/// The request to push for `request`: rmcp takes its params only as a `Value`, read from
/// the engine's text (see docs/rmcp-upstream.md, 3).
pub(crate) fn push_request(request: &Question) -> Result<ServerRequest, serde_json::Error> {
    let params: Value = serde_json::from_str(&request.params)?;
    Ok(ServerRequest::CustomRequest(CustomRequest::new(
        request.method.to_owned(),
        Some(params),
    )))
}

/// [`input_request`] without the cache.
fn parse(request: &Question) -> Result<InputRequest, McpError> {
    let envelope = request.to_string();
    let read = match request.method.as_str() {
        // The variant is known from the method: no trial of each in turn.
        "elicitation/create" => serde_json::from_str(&envelope).map(InputRequest::Elicitation),
        "sampling/createMessage" => {
            serde_json::from_str(&envelope).map(InputRequest::CreateMessage)
        }
        "roots/list" => serde_json::from_str(&envelope).map(InputRequest::ListRoots),
        _ => serde_json::from_str(&envelope),
    };
    read.map_err(|e| {
        McpError::internal_error(
            format!("cannot build the {} input request: {e}", request.method),
            None,
        )
    })
}

/// The negotiated revision of the call's connection (per request on 2026-07-28), when
/// it is one elicitation knows.
pub(crate) fn revision_of(ctx: &RequestContext<RoleServer>) -> Option<Revision> {
    ctx.protocol_version()
        .as_ref()
        .and_then(|v| v.as_str().parse().ok())
}

/// What the client of a request declared, read once.
#[derive(Clone)]
pub(crate) struct Declared {
    /// Its revision, capabilities and name, as the engine reads them.
    pub(crate) client: Peer,
    /// Whether it may be answered with a task: 2026-07-28 or later (the extension is not
    /// defined before) and the extension declared.
    pub(crate) tasks: bool,
}

/// What the client of `ctx` declared: in the request's own `_meta` on 2026-07-28, else at
/// `initialize`. The capabilities are read as the JSON they came as (rmcp's typed copy of
/// the handshake's is written as JSON once).
pub(crate) fn declared(ctx: &RequestContext<RoleServer>) -> Declared {
    let revision = revision_of(ctx);
    let meta = &ctx.meta.0.0;
    let handshake = ctx.peer.peer_info();
    let written;
    let capabilities = match meta.get("io.modelcontextprotocol/clientCapabilities") {
        Some(declared) => declared,
        None => {
            written = handshake
                .as_ref()
                .and_then(|info| serde_json::to_value(&info.capabilities).ok())
                .unwrap_or(Value::Null);
            &written
        }
    };
    let tasks = revision.is_some_and(Revision::has_rounds)
        && capabilities
            .get("extensions")
            .and_then(Value::as_object)
            .is_some_and(|e| e.contains_key(TASKS_EXTENSION_ID));
    let mut client = Peer::new(revision, capabilities);
    // Its profile in the engine's `client_profiles` (what it renders of a form).
    client.name = meta
        .get("io.modelcontextprotocol/clientInfo")
        .and_then(|info| info["name"].as_str())
        .map(str::to_owned)
        .or_else(|| handshake.map(|info| info.client_info.name.clone()));
    Declared { client, tasks }
}

/// Whether serde_json keeps an object's keys in the order they were inserted (its feature
/// `preserve_order`, which features unify across a build): rmcp writes every message
/// through a `serde_json::Value`, so without it a form's fields reach the other side in
/// alphabetical order.
pub(crate) fn keeps_field_order() -> bool {
    let mut probe = serde_json::Map::new();
    probe.insert("b".to_owned(), Value::Null);
    probe.insert("a".to_owned(), Value::Null);
    probe.keys().next().is_some_and(|first| first == "b")
}

/// What [`warn_if_field_order_lost`] says on standard error.
pub(crate) const FIELD_ORDER_WARNING: &str = "warning: elicit-rmcp: serde_json is built \
without its `preserve_order` feature, so rmcp sends a form's fields in alphabetical order, \
not in the order they are declared. Add to your Cargo.toml's [dependencies]: \
serde_json = { version = \"1\", features = [\"preserve_order\"] }";

/// Says once per process, on standard error, that forms lose their field order in this
/// build; says nothing when serde_json keeps it.
pub(crate) fn warn_if_field_order_lost() {
    static WARNED: std::sync::Once = std::sync::Once::new();
    if !keeps_field_order() {
        WARNED.call_once(|| eprintln!("{FIELD_ORDER_WARNING}"));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use elicit_core::client::read_schema;
    use elicit_core::engine::{Engine, Input};
    use elicit_core::seal::{Binding, Keyring};

    /// rmcp's typed question, read from the text the engine wrote, keeps the fields in
    /// declaration order (its `property_order`).
    #[test]
    fn rmcp_questions_keep_declaration_order() {
        let form = read_schema(
            r#"{"type": "object", "properties": {"zeta": {"type": "boolean"},
                "alpha": {"type": "boolean"}}, "required": ["zeta"]}"#,
        )
        .unwrap();
        let engine = Engine::new(Keyring::generate());
        let client = Peer::new(
            Some(Revision::V2026_07_28),
            &serde_json::json!({"elicitation": {}}),
        );
        let binding = Binding::new("", "tools/call", "t", &Value::Null);
        let mut call = engine
            .rounds(client, binding, None, BTreeMap::new())
            .unwrap();
        let asked = Input::Form {
            key: "k",
            message: "Which?",
            form: &form,
        };
        let mut poll = std::pin::pin!(call.inputs(&(), vec![asked]));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let std::task::Poll::Ready(Err(Halt::InputRequired(round))) = poll.as_mut().poll(&mut cx)
        else {
            panic!("the question ends the round")
        };
        let InputRequest::Elicitation(request) = input_request(&round.requests[0]).unwrap() else {
            panic!("not an elicitation")
        };
        let ::rmcp::model::ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = request.params
        else {
            panic!("not a form")
        };
        assert_eq!(
            requested_schema.property_order.as_deref(),
            Some(&["zeta".to_owned(), "alpha".to_owned()][..])
        );
    }

    /// A tool's own error comes out of a [`Halted`] as it went in.
    #[test]
    fn a_tool_error_keeps_its_code_message_and_data() {
        let error = McpError::new(
            ErrorCode(-32001),
            "no such ticket",
            Some(serde_json::json!({"ticket": 7})),
        );
        let Err(out) = into_response(Halted::from(error.clone()).0) else {
            panic!("an error")
        };
        assert_eq!(out, error);
    }
}
