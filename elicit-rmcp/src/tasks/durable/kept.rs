//! What a stored task keeps of the call that started it: the client's `_meta`, and the
//! sizes it holds the arguments, meta and answers to.

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::JsonObject;
use ::rmcp::service::{RequestContext, RoleServer};
use serde::Serialize;
use serde_json::Value;

use super::MAX_CLIENT_NAME;

/// What of the `_meta` of the call in `ctx` a task keeps for the runs of its body: the
/// client's revision and capabilities as sent, and of its `clientInfo` the name and
/// version (each cut to 256 characters).
pub(crate) fn kept_meta(ctx: &RequestContext<RoleServer>) -> JsonObject {
    client_of(&ctx.meta.0.0)
}

/// [`kept_meta`] of a request's `_meta`.
pub(super) fn client_of(meta: &JsonObject) -> JsonObject {
    let mut kept = JsonObject::new();
    for key in [
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
    ] {
        if let Some(value) = meta.get(key) {
            kept.insert(key.to_owned(), value.clone());
        }
    }
    if let Some(info) = meta.get("io.modelcontextprotocol/clientInfo") {
        let mut identity = JsonObject::new();
        for field in ["name", "version"] {
            if let Some(text) = info.get(field).and_then(Value::as_str) {
                let cut: String = text.chars().take(MAX_CLIENT_NAME).collect();
                identity.insert(field.to_owned(), Value::String(cut));
            }
        }
        kept.insert(
            "io.modelcontextprotocol/clientInfo".to_owned(),
            Value::Object(identity),
        );
    }
    kept
}

/// The length of `value` as JSON text.
pub(super) fn json_len(value: &impl Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => usize::MAX,
    }
}

/// `-32602`: what the client sent is more than a task keeps.
pub(super) fn too_large(what: &str, max: usize) -> McpError {
    McpError::invalid_params(
        format!(
            "{what} are larger than a task keeps (at most {} KiB as JSON)",
            max / 1024
        ),
        None,
    )
}
