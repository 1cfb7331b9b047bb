//! The client side over rmcp (feature `rmcp-client`): [`FormClient`] is an rmcp
//! [`ClientHandler`] that puts every elicitation in front of an [`Asker`] — a terminal,
//! a GUI, a [`Script`](crate::client::Script).
//!
//! It declares the elicitation capability (form mode; URL mode when asked for), reads the
//! server's schema with [`read_schema`], its fields in the server's order (a schema
//! outside the MCP subset, or a message past [`MAX_MESSAGE`],
//! is refused with `-32602`, never half-shown, and the asker is told through
//! [`Asker::refused`]), shows the asking
//! server's name with the message, and answers with the user's validated reply, defaults
//! filled in. The same handler serves
//! push-mode requests (2025-06-18, 2025-11-25) and the `input_required` rounds of
//! 2026-07-28, which rmcp's client drives through it.
//!
//! ```no_run
//! use elicit_core::client::Script;
//! use elicit_core::client::rmcp::FormClient;
//! use rmcp::ServiceExt;
//!
//! # async fn run<T, E, A>(transport: T) -> Result<(), Box<dyn std::error::Error>>
//! # where
//! #     T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
//! #     E: std::error::Error + Send + Sync + 'static,
//! # {
//! let script = Script::from_file("answers.json".as_ref())?;
//! let client = FormClient::new(script).serve(transport).await?;
//! let tools = client.list_all_tools().await?;
//! # let _ = tools;
//! # Ok(())
//! # }
//! ```

use std::sync::Arc;

use ::rmcp::ClientHandler;
use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, ElicitationSchema, FormElicitationCapability, Implementation,
    ProtocolVersion, UrlElicitationCapability,
};
use ::rmcp::service::{RequestContext, RoleClient};
use serde_json::Value;

use crate::answer::Action;
use crate::client::{Asker, MAX_MESSAGE, Question, Reply, read_schema};
use crate::form::Form;

/// An rmcp client handler answering elicitations through an [`Asker`].
pub struct FormClient<A> {
    asker: Arc<A>,
    info: Implementation,
    url_mode: bool,
    version: Option<ProtocolVersion>,
}

impl<A> Clone for FormClient<A> {
    fn clone(&self) -> Self {
        FormClient {
            asker: self.asker.clone(),
            info: self.info.clone(),
            url_mode: self.url_mode,
            version: self.version.clone(),
        }
    }
}

impl<A: Asker + 'static> FormClient<A> {
    /// A client answering through `asker`, form mode only.
    pub fn new(asker: A) -> FormClient<A> {
        FormClient {
            asker: Arc::new(asker),
            info: Implementation::new("elicit-client", env!("CARGO_PKG_VERSION")),
            url_mode: false,
            version: None,
        }
    }

    /// Offers this protocol version in the `initialize` handshake instead of rmcp's
    /// default (2026-07-28 is negotiated with rmcp's `ClientLifecycleMode::Discover`).
    pub fn with_protocol_version(mut self, version: ProtocolVersion) -> FormClient<A> {
        self.version = Some(version);
        self
    }

    /// Names the client in the handshake (`clientInfo`).
    pub fn with_client_info(mut self, name: &str, version: &str) -> FormClient<A> {
        self.info = Implementation::new(name, version);
        self
    }

    /// Also declares URL mode (2025-11-25 and later): the asker is asked before any URL
    /// is opened.
    pub fn with_url_mode(mut self, on: bool) -> FormClient<A> {
        self.url_mode = on;
        self
    }

    /// The asker.
    pub fn asker(&self) -> &A {
        &self.asker
    }
}

/// The server's schema as a [`Form`], its fields in the server's order: rmcp writes the
/// properties in their wire order (`ElicitationSchema::property_order`), and this
/// feature turns on serde_json's `preserve_order`, which keeps it.
fn read_requested(schema: &ElicitationSchema) -> Result<Form, McpError> {
    let schema =
        serde_json::to_value(schema).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    read_schema(&schema).map_err(|e| McpError::invalid_params(e.to_string(), None))
}

/// Refuses a message (or URL: `what`) longer than [`MAX_MESSAGE`] bytes, naming the limit.
fn check_message(what: &str, message: &str) -> Result<(), McpError> {
    if message.len() > MAX_MESSAGE {
        return Err(McpError::invalid_params(
            format!(
                "the {what} is {} bytes, more than the {MAX_MESSAGE} a client shows",
                message.len()
            ),
            None,
        ));
    }
    Ok(())
}

fn action(a: Action) -> ElicitationAction {
    match a {
        Action::Accept => ElicitationAction::Accept,
        Action::Decline => ElicitationAction::Decline,
        Action::Cancel => ElicitationAction::Cancel,
    }
}

impl<A: Asker + 'static> ClientHandler for FormClient<A> {
    fn get_info(&self) -> ClientConfig {
        let mut elicitation = ElicitationCapability::new();
        elicitation.form = Some(FormElicitationCapability::new());
        if self.url_mode {
            elicitation.url = Some(UrlElicitationCapability::default());
        }
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        let config = ClientConfig::new(capabilities, self.info.clone());
        match &self.version {
            Some(v) => config.with_protocol_version(v.clone()),
            None => config,
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let server = ctx
            .peer
            .peer_info()
            .and_then(|p| p.server_info.as_ref().map(|i| i.name.clone()));
        match request {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => {
                let form = check_message("message", &message)
                    .and_then(|()| read_requested(&requested_schema))
                    .inspect_err(|e| self.asker.refused(server.as_deref(), &e.message))?;
                let reply = self
                    .asker
                    .ask(Question {
                        server: server.as_deref(),
                        message: &message,
                        form: &form,
                    })
                    .await;
                let mut result = ElicitResult::new(action(reply.action()));
                if let Reply::Accept(content) = reply {
                    result.content = Some(Value::Object(content));
                }
                Ok(result)
            }
            ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
                if !self.url_mode {
                    return Err(McpError::invalid_params(
                        "this client did not declare URL-mode elicitation",
                        None,
                    ));
                }
                check_message("message", &message)
                    .and_then(|()| check_message("URL", url.as_str()))
                    .inspect_err(|e| self.asker.refused(server.as_deref(), &e.message))?;
                let a = self
                    .asker
                    .ask_url(server.as_deref(), &message, url.as_str())
                    .await;
                Ok(ElicitResult::new(action(a)))
            }
            _ => Err(McpError::invalid_params(
                "an elicitation mode this client does not know",
                None,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields come in the server's order, not sorted by name.
    #[test]
    fn fields_keep_the_wire_order() {
        let wire = r#"{"type": "object", "properties": {
            "zone": {"type": "string"}, "age": {"type": "integer"}, "mail": {"type": "string"}
        }, "required": ["age"]}"#;
        let schema: ElicitationSchema = serde_json::from_str(wire).unwrap();
        let form = read_requested(&schema).unwrap();
        let names: Vec<&str> = form.fields().iter().map(|f| &*f.name).collect();
        assert_eq!(names, ["zone", "age", "mail"]);
        assert!(form.field("age").unwrap().required);
    }

    #[test]
    fn a_long_message_is_refused_naming_the_limit() {
        assert!(check_message("message", &"a".repeat(MAX_MESSAGE)).is_ok());
        let e = check_message("message", &"a".repeat(MAX_MESSAGE + 1)).unwrap_err();
        assert_eq!(e.code.0, -32602);
        assert_eq!(
            e.message,
            format!(
                "the message is {} bytes, more than the {MAX_MESSAGE} a client shows",
                MAX_MESSAGE + 1
            )
        );
    }
}
