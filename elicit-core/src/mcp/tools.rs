//! Asking from rmcp's `#[tool]` methods: [`Tools`] routes the calls, and a method
//! takes a [`Session`] like any other extractor.

use std::sync::{Arc, Mutex};

use ::rmcp::ErrorData as McpError;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext, ToolRouter};
use ::rmcp::model::{CallToolResponse, InputRequiredResult, Tool};
use ::rmcp::service::MaybeSend;
use serde_json::Value;

use super::{Elicitor, Halt, Session, principal_of, revision_of};
use crate::seal::Binding;

/// A server's tools (an rmcp [`ToolRouter`]) with the [`Elicitor`] their questions go
/// through. It routes like the `ToolRouter` it holds, and lets a `#[tool]` method take
/// a [`Session`] and return [`Asked`](super::Asked): on 2026-07-28 a question ends the
/// call with an `input_required` result whose state is sealed, on earlier revisions it
/// is sent and awaited in place, from the one method body.
///
/// Name it as the router of rmcp's `#[tool_handler]`:
///
/// ```
/// use elicit_core::mcp::{Asked, Elicitor, Session, Tools};
/// use elicit_core::seal::{Keyring, Sealer};
/// use elicit_core::{Elicit, Elicitation};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use serde::Deserialize;
///
/// #[derive(Elicit, Deserialize)]
/// struct Approve {
///     #[elicit(title = "Approve the purge?")]
///     approve: bool,
/// }
///
/// #[derive(Clone)]
/// struct Purge {
///     tools: Tools<Purge>,
/// }
///
/// #[tool_router]
/// impl Purge {
///     fn new(elicitor: Elicitor) -> Purge {
///         Purge { tools: Tools::new(elicitor, Self::tool_router()) }
///     }
///
///     #[tool(description = "Deletes old logs, once a person approves")]
///     async fn purge(&self, mut s: Session) -> Asked<CallToolResult> {
///         let text = match s.ask::<Approve>("Really delete 1,284 logs?").await? {
///             Elicitation::Accept(a) if a.approve => "[DELETED]",
///             Elicitation::Accept(_) | Elicitation::Decline => "[BLOCKED]",
///             Elicitation::Cancel => "[CANCELLED]",
///         };
///         Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
///     }
/// }
///
/// #[tool_handler(router = self.tools)]
/// impl ServerHandler for Purge {}
///
/// let server = Purge::new(Elicitor::new(Sealer::new(Keyring::generate())));
/// assert_eq!(server.tools.list_all()[0].name, "purge");
/// ```
///
/// A method that takes a `Session` must be routed by `Tools`; routed by a bare
/// `ToolRouter`, its calls fail with an internal error that says so. The tool
/// arguments keep coming from rmcp's `Parameters<T>`; the state of 2026-07-28 is bound
/// to them, to the tool's name and to the request's [`Principal`](super::Principal).
pub struct Tools<S> {
    router: ToolRouter<S>,
    elicitor: Elicitor,
}

impl<S> Clone for Tools<S> {
    fn clone(&self) -> Self {
        Tools {
            router: self.router.clone(),
            elicitor: self.elicitor.clone(),
        }
    }
}

impl<S> std::fmt::Debug for Tools<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tools")
            .field("router", &self.router)
            .field("elicitor", &self.elicitor)
            .finish()
    }
}

impl<S: MaybeSend + 'static> Tools<S> {
    /// The tools of `router`, asking through `elicitor`.
    pub fn new(elicitor: Elicitor, router: ToolRouter<S>) -> Tools<S> {
        Tools { router, elicitor }
    }

    /// Calls the tool `call` names: what the `call_tool` of `#[tool_handler]` does.
    pub async fn call(
        &self,
        mut call: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, McpError> {
        let ctx = &call.request_context;
        // Only a 2026-07-28 state is bound; the arguments are taken back unchanged.
        let binding = revision_of(ctx).filter(|r| r.is_stateless()).map(|_| {
            let args = call
                .arguments
                .take()
                .map(Value::Object)
                .unwrap_or(Value::Null);
            let binding = Binding::new(principal_of(ctx), "tools/call", &call.name, &args);
            if let Value::Object(args) = args {
                call.arguments = Some(args);
            }
            binding
        });
        let reply = Arc::new(Reply::default());
        let opening = Opening {
            elicitor: self.elicitor.clone(),
            binding,
            request_state: call.request_state.take(),
            responses: call.input_responses.take(),
            reply: reply.clone(),
        };
        call.request_context.extensions.insert(opening);
        let response = self.router.call(call).await;
        match (response, reply.take()) {
            // The method returned a `Halt::InputRequired`: its result is the response.
            (Err(_), Some(required)) => Ok(CallToolResponse::InputRequired(required)),
            (response, _) => response,
        }
    }

    /// Every enabled tool, for `tools/list`.
    pub fn list_all(&self) -> Vec<Tool> {
        self.router.list_all()
    }

    /// The tool named `name`, when it is there and enabled.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.router.get(name)
    }
}

/// What a routed call's [`Session`] is opened from, in the request's extensions until
/// the method takes it.
#[derive(Clone)]
struct Opening {
    elicitor: Elicitor,
    binding: Option<Binding>,
    request_state: Option<String>,
    responses: Option<::rmcp::model::InputResponses>,
    reply: Arc<Reply>,
}

/// Where a routed call's `input_required` result waits for [`Tools::call`]: rmcp turns
/// an error of a tool method into an error response, so the result goes around it.
#[derive(Debug, Default)]
pub(super) struct Reply(Mutex<Option<InputRequiredResult>>);

impl Reply {
    fn put(&self, result: InputRequiredResult) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
    }

    fn take(&self) -> Option<InputRequiredResult> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A [`Session`] as an argument of a `#[tool]` method routed by [`Tools`].
impl<S> FromContextPart<ToolCallContext<'_, S>> for Session {
    fn from_context_part(call: &mut ToolCallContext<'_, S>) -> Result<Self, McpError> {
        let Some(opening) = call.request_context.extensions.remove::<Opening>() else {
            return Err(McpError::internal_error(
                format!(
                    "the tool {:?} takes a Session, but its calls are not routed by \
                     elicit_core::mcp::Tools (name it as the router of #[tool_handler]); \
                     a Session is taken once per call",
                    call.name
                ),
                None,
            ));
        };
        opening.elicitor.session(
            &call.request_context,
            opening.binding,
            opening.request_state.as_deref(),
            opening.responses,
            Some(opening.reply),
        )
    }
}

/// What rmcp sends for a `#[tool]` method's [`Halt`]: the error, or, for a method
/// routed by [`Tools`], the `input_required` result.
impl IntoCallToolResult for Halt {
    fn into_call_tool_result(self) -> Result<CallToolResponse, McpError> {
        match self {
            Halt::InputRequired(required) => {
                let required = *required;
                match required.reply {
                    Some(reply) => {
                        reply.put(required.result);
                        // Seen by `Tools::call`, which answers with the result instead.
                        Err(McpError::internal_error("input required", None))
                    }
                    None => Err(McpError::internal_error(
                        "this tool asked a question on 2026-07-28, but its Session was not \
                         opened by elicit_core::mcp::Tools, so the input_required result \
                         cannot be sent: route the tool by Tools, or answer with \
                         Session::finish",
                        None,
                    )),
                }
            }
            halt => halt.into_response().map(CallToolResponse::InputRequired),
        }
    }
}
