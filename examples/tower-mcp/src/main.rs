//! `ticket-tower`: the cinema ticket wizard served over stdio on the **tower-mcp** SDK
//! (0.25, feature `protocol-2026-07-28`), every question asked by the engine of
//! `elicit-core` (`elicit_core::engine`) through its public API only.
//!
//! Both eras from one body, on one stdio stream: a client that sends `initialize`
//! (2025-11-25) gets each step pushed as an `elicitation/create` request (tower-mcp's
//! `RequestContext::request_raw`); a 2026-07-28 client (the version in every request's
//! `_meta`) gets `input_required` results (tower-mcp's `RequestOutcome`), the wizard's
//! state sealed by elicit and good for one retry.
//!
//! Why tower-mcp: it is maintained, serves both eras on one stdio stream
//! (`BidirectionalStdioTransport`), sends raw server→client requests on the push era and
//! has `input_required` built in for the 2026-07-28 one. rust-mcp-sdk 2.x speaks only
//! 2026-07-28 and 1.x only 2025; turbomcp's 2026-07-28 support is alpha.
//!
//! The elicitation glue is what lies between the two `── elicitation glue ──` lines:
//! `tests/python_sdk.rs` counts its non-blank, non-comment lines (after `cargo fmt`; at
//! most 40) and drives the server with the official Python SDK client. The rest is what
//! any tower-mcp server has: the tool, the router, the transport.
//!
//! Unlike `ticket-plain` (no SDK), the server offers one revision before 2026-07-28,
//! 2025-11-25, not 2025-06-18 too: tower-mcp does not tell a tool which revision its
//! session negotiated, and elicit writes some forms differently for each.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use elicit_core::Revision;
use elicit_core::engine::{AskError, Engine, InputRequired, Peer, Question, RpcError, Transport};
use elicit_core::seal::Keyring;
use elicit_examples::ticket::{Cinema, TicketOrder};
use serde::Deserialize;
use serde_json::{Value, json};
use tower_mcp::protocol::RequestOutcome;

/// What a tool answers: its result, or the `input_required` of a round.
type Reply = RequestOutcome<CallToolResult>;
use tower_mcp::{
    BidirectionalStdioTransport, CallToolResult, ClientCapabilities, ElicitRequestParams,
    InputRequest, InputRequiredResult, JsonRpcError, McpRouter, PrimitiveSchemaDefinition,
    RequestContext, ToolBuilder,
};

/// The arguments of `book_tickets`: none.
#[derive(Deserialize, tower_mcp::schemars::JsonSchema)]
#[schemars(crate = "tower_mcp::schemars")]
struct NoArguments {}

/// The server's state: the question engine (its sealing key and the record of used
/// states) and the seats.
struct Shop {
    engine: Engine,
    cinema: Mutex<Cinema>,
}

impl Shop {
    /// The seats, locked (a panic elsewhere does not poison them for the next call).
    fn cinema(&self) -> MutexGuard<'_, Cinema> {
        self.cinema.lock().unwrap_or_else(|e| e.into_inner())
    }
}

// ── elicitation glue ──
/// Pushed questions (2025-11-25): a raw `elicitation/create` through tower-mcp's client
/// requester, awaited at most the question's timeout, the params as elicit wrote them
/// (JSON it wrote parses; serde_json's `preserve_order`, which tower-mcp turns on, keeps
/// a form's fields in declaration order).
struct Push(RequestContext);

impl Transport for Push {
    async fn send(&self, question: Question) -> Result<Value, AskError> {
        let params = serde_json::from_str(&question.params).unwrap_or_default();
        let wait = question.timeout.unwrap_or(Duration::MAX);
        let sent = tokio::time::timeout(wait, self.0.request_raw(&question.method, params)).await;
        sent.map_err(|_| AskError::Timeout(wait))?
            .map_err(|e| AskError::Peer(e.to_string()))
    }
}

/// A `tools/call` of `book_tickets`: the request as JSON again for the engine (tower-mcp
/// parsed it; re-serialized, an integer answer may come back as a float, 5 as 5.0, which
/// the ticket wizard, with no integer fields, never meets), then the wizard on the
/// channel of the request's era. A request without a 2026-07-28 `_meta` comes on the
/// session of an `initialize`, and that is 2025-11-25: tower-mcp does not tell tools the
/// version it negotiated, so `main` offers no other. The tool takes no arguments: a
/// state is bound to its name and `{}`.
async fn book(shop: Arc<Shop>, ctx: RequestContext) -> tower_mcp::Result<Reply> {
    let params = json!({"name": "book_tickets", "arguments": {}, "_meta": ctx.per_request_meta(),
        "inputResponses": ctx.input_responses(), "requestState": ctx.request_state()});
    let declared = json!(ctx.session().and_then(|s| s.get::<ClientCapabilities>()));
    let handshake = Peer::new(Some(Revision::V2025_11_25), &declared);
    let open = shop.engine.open("", "tools/call", &params, &handshake);
    let mut call = open.map_err(rpc)?;
    let snapshot = shop.cinema().clone();
    let text = match call.wizard::<TicketOrder>(&Push(ctx), &snapshot).await {
        Ok(outcome) => shop.cinema().book(outcome),
        Err(halt) => return as_written(halt.into_result().map_err(rpc)?),
    };
    Ok(CallToolResult::text(text).into())
}

/// The `input_required` result of a round, each form field as elicit wrote it: tower-mcp's
/// typed form schema drops what it does not model (a titled choice's `oneOf`).
fn as_written(round: InputRequired) -> tower_mcp::Result<Reply> {
    let wrote: Value = serde_json::from_str(&round.to_string())?;
    let mut reply: InputRequiredResult = serde_json::from_value(wrote.clone())?;
    for (key, asked) in reply.input_requests.iter_mut().flatten() {
        if let InputRequest::Elicit(ElicitRequestParams::Form(form)) = asked {
            let fields = &wrote["inputRequests"][key]["params"]["requestedSchema"]["properties"];
            for (name, field) in &mut form.requested_schema.properties {
                *field = PrimitiveSchemaDefinition::Raw(fields[name].clone());
            }
        }
    }
    Ok(RequestOutcome::input_required(reply))
}

/// The JSON-RPC error a call that cannot go on is answered with.
fn rpc(e: RpcError) -> tower_mcp::Error {
    serde_json::from_value::<JsonRpcError>(json!(e)).map_or_else(Into::into, Into::into)
}
// ── elicitation glue ──

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), tower_mcp::BoxError> {
    let shop = Arc::new(Shop {
        engine: Engine::new(Keyring::generate()),
        cinema: Mutex::new(Cinema::demo()),
    });
    let tool = ToolBuilder::new("book_tickets")
        .description(
            "Book a cinema ticket: asks for a date, a free seat, snacks and a popcorn size.",
        )
        .mrtr_handler(move |ctx, _: NoArguments| book(shop.clone(), ctx))
        .build();
    let router = McpRouter::new()
        .server_info("ticket-tower", "0.1.0")
        .tool(tool);
    // 2025-11-25 is the one revision an `initialize` gets (see the module docs).
    BidirectionalStdioTransport::new(router)
        .protocol_versions(["2026-07-28", "2025-11-25"])?
        .run()
        .await?;
    Ok(())
}
