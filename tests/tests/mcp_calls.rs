//! The life of a call around its questions, over real rmcp connections: a client that
//! never answers ends the call with a timeout error, a pushed question that waits keeps
//! the call alive with `notifications/progress`, and a `Session` taken where it cannot
//! be (in a tool not routed by `elicit_rmcp::Tools`, in every era; a second one in one
//! call) is a clear error. The client side is in `support/`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::seal::Keyring;
use elicit_examples::servers::trip::{Inventory, TripServer};
use elicit_rmcp::Elicitor;
use rmcp::model::{
    CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    Implementation, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt};
use serde_json::json;

mod support;
use support::*;

/// A client that takes every elicitation and never answers.
#[derive(Clone)]
struct Silent;

impl ClientHandler for Silent {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        ClientConfig::new(capabilities, Implementation::new("silent", "0.0.0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        _: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        std::future::pending().await
    }
}

#[tokio::test]
async fn a_client_that_never_answers_gets_a_timeout_error() {
    let elicitor = elicitor().with_timeout(Some(Duration::from_millis(200)));
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let inventory = Arc::new(Mutex::new(Inventory::demo()));
    let server = TripServer::new(elicitor, inventory.clone());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = Silent.serve(client_io).await.unwrap();
    let started = std::time::Instant::now();
    let error = tokio::time::timeout(
        LIMIT,
        client.call_tool(call("book-trip", json!({"date": "2025-02-01"}))),
    )
    .await
    .expect("bounded")
    .expect_err("no answer, no booking");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        error.to_string().contains("nobody answered within 200 ms"),
        "{error}"
    );
    assert!(inventory.lock().unwrap().booked().is_empty());
}

/// While a pushed question waits for the person, the call's `progressToken` gets
/// `notifications/progress` every interval (so clients that reset their timeout on
/// progress keep the call). (rmcp's client gives every call a token of its own.)
#[tokio::test]
async fn a_waiting_question_keeps_the_call_alive_with_progress() {
    use elicit_core::engine::Engine;
    use rmcp::model::{NumberOrString, ProgressToken, RequestMetaObject};
    for era in [Era::V0618, Era::V1125] {
        {
            let token = Some(7);
            let logs = Logs::new(&format!("progress-{era:?}-{token:?}"));
            let mut engine = Engine::new(Keyring::generate());
            engine.settings_mut().progress_interval = Some(Duration::from_millis(40));
            let server = logs.server_with(Elicitor::with_engine(engine));
            let client =
                Scripted::new(era, vec![approve(90)]).answer_after(Duration::from_millis(400));
            let client = TestClient::start(server, client).await;
            let mut params = call(PURGE, demo_purge(90));
            params.meta = token.map(|t| {
                RequestMetaObject::with_progress_token(ProgressToken(NumberOrString::Number(t)))
            });
            let result = client.call_with(params).await.unwrap();
            assert!(text(&result).starts_with("[DELETED]"), "{era:?}");
            let progress = client.client().progress.lock().unwrap().clone();
            assert!(progress.len() >= 3, "{era:?}: {progress:?}");
            // The token the call carried (rmcp's client numbers its own).
            for (i, p) in progress.iter().enumerate() {
                assert_eq!(p["progressToken"], progress[0]["progressToken"], "{p}");
                assert!(!p["progressToken"].is_null(), "{p}");
                assert_eq!(p["progress"], (i + 1) as f64, "{p}");
                assert_eq!(p["message"], "waiting for the person to answer the form");
            }
        }
    }
}

/// A server whose tools take a `Session` but are routed by rmcp's plain `ToolRouter`
/// instead of `elicit_rmcp::Tools`: a mistake that must be an error, not a panic.
#[derive(Clone)]
struct Unrouted {
    router: rmcp::handler::server::tool::ToolRouter<Unrouted>,
}

#[rmcp::tool_router]
impl Unrouted {
    #[rmcp::tool(description = "Asks for a confirmation")]
    async fn confirm(&self, mut s: elicit_rmcp::Session) -> elicit_rmcp::Asked<CallToolResult> {
        let answer = s
            .confirm("Go on?", &elicit_core::Confirm::new("Yes"))
            .await?;
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(format!("{answer:?}")),
        ]))
    }
}

#[rmcp::tool_handler(router = self.router)]
impl ServerHandler for Unrouted {}

#[tokio::test]
async fn a_session_outside_tools_is_a_clear_error() {
    for era in ALL_ERAS {
        let server = Unrouted {
            router: Unrouted::tool_router(),
        };
        let client = TestClient::scripted(server, era, vec![]).await;
        let error = tokio::time::timeout(LIMIT, client.call_tool_once(call("confirm", json!({}))))
            .await
            .expect("bounded")
            .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("\"confirm\" takes a Session")
                && message.contains("not routed by elicit_rmcp::Tools"),
            "{era:?}: {message}"
        );
    }
}

/// Two `Session`s in one method: the second is refused (one session per call).
#[derive(Clone)]
struct Twice {
    tools: elicit_rmcp::Tools<Twice>,
}

#[rmcp::tool_router]
impl Twice {
    #[rmcp::tool(description = "Takes two sessions")]
    async fn twice(
        &self,
        _a: elicit_rmcp::Session,
        _b: elicit_rmcp::Session,
    ) -> elicit_rmcp::Asked<CallToolResult> {
        Ok(CallToolResult::success(vec![]))
    }
}

#[rmcp::tool_handler(router = self.tools)]
impl ServerHandler for Twice {}

#[tokio::test]
async fn a_second_session_in_one_call_is_refused() {
    let server = Twice {
        tools: elicit_rmcp::Tools::new(elicitor(), Twice::tool_router()),
    };
    let client = TestClient::scripted(server, Era::Rounds, vec![]).await;
    let error = client
        .call_tool_once(call("twice", json!({})))
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("a Session is taken once per call"),
        "{error}"
    );
}
