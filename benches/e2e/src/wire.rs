//! One keep-alive HTTP/1.1 connection to an MCP server at `/mcp`, the JSON-RPC bodies
//! the benchmark sends, and reading the reply (a JSON body or an SSE stream).

use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;

/// The revision of the stateless rounds.
pub const STATELESS: &str = "2026-07-28";
/// The push revision of the memory runs (sessions, `elicitation/create` requests).
pub const PUSH: &str = "2025-11-25";

/// How long one request may take before it counts as failed.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a request failed, by kind: the kind is what the report counts.
#[derive(Debug)]
pub enum Fail {
    /// Connecting, or the connection broke.
    Connection(String),
    /// The request took longer than [`REQUEST_TIMEOUT`].
    Timeout,
    /// An HTTP status other than the one expected.
    Status(u16),
    /// A JSON-RPC error reply.
    Rpc(i64, String),
    /// A reply the benchmark cannot use (not JSON, no reply for the id, an
    /// unexpected shape or text).
    Reply(String),
}

impl Fail {
    /// The kind, as the report groups failures.
    pub fn kind(&self) -> String {
        match self {
            Fail::Connection(_) => "connection".to_owned(),
            Fail::Timeout => "timeout".to_owned(),
            Fail::Status(s) => format!("HTTP {s}"),
            Fail::Rpc(code, _) => format!("JSON-RPC {code}"),
            Fail::Reply(_) => "unusable reply".to_owned(),
        }
    }

    /// Whether the connection should be opened again.
    pub fn breaks_connection(&self) -> bool {
        matches!(self, Fail::Connection(_) | Fail::Timeout)
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Connection(e) => write!(f, "connection: {e}"),
            Fail::Timeout => write!(f, "no reply within {REQUEST_TIMEOUT:?}"),
            Fail::Status(s) => write!(f, "HTTP status {s}"),
            Fail::Rpc(code, message) => write!(f, "JSON-RPC error {code}: {message}"),
            Fail::Reply(e) => write!(f, "unusable reply: {e}"),
        }
    }
}

/// A reply: its status, session id, content type and whole body.
pub struct Reply {
    pub status: u16,
    pub session: Option<String>,
    pub sse: bool,
    pub body: Bytes,
}

impl Reply {
    /// The JSON-RPC response to request `id` in the body (the one JSON message, or the
    /// SSE event carrying it). A JSON-RPC error is a [`Fail::Rpc`].
    pub fn response(&self, id: u64) -> Result<Value, Fail> {
        let message = if self.sse {
            sse_messages(&self.body)
                .into_iter()
                .find(|m| m.get("id").and_then(Value::as_u64) == Some(id))
                .ok_or_else(|| Fail::Reply(format!("no response to request {id} in the stream")))?
        } else {
            serde_json::from_slice::<Value>(&self.body)
                .map_err(|e| Fail::Reply(format!("the body is not JSON: {e}")))?
        };
        if let Some(error) = message.get("error") {
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
            let text = error.get("message").and_then(Value::as_str).unwrap_or("");
            return Err(Fail::Rpc(code, text.to_owned()));
        }
        match message.get("result") {
            Some(_) => Ok(message),
            None => Err(Fail::Reply(
                "a response with neither result nor error".into(),
            )),
        }
    }
}

/// The JSON messages of the complete events in an SSE text (events without data, such
/// as a priming event, are skipped).
pub fn sse_messages(text: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(text);
    let mut messages = Vec::new();
    let mut data = String::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            if !data.is_empty()
                && let Ok(value) = serde_json::from_str::<Value>(&data)
            {
                messages.push(value);
            }
            data.clear();
        } else if let Some(rest) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    messages
}

/// A keep-alive HTTP/1.1 connection to `http://ADDR/mcp`.
pub struct Conn {
    send: SendRequest<Full<Bytes>>,
    host: String,
}

/// A request's headers besides the fixed ones.
#[derive(Default)]
pub struct Headers<'a> {
    pub version: Option<&'a str>,
    pub method: Option<&'a str>,
    pub name: Option<&'a str>,
    pub session: Option<&'a str>,
}

impl Conn {
    /// Connects with TCP_NODELAY (the client's half of avoiding Nagle stalls).
    pub async fn open(addr: SocketAddr) -> Result<Conn, Fail> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| Fail::Connection(e.to_string()))?;
        stream
            .set_nodelay(true)
            .map_err(|e| Fail::Connection(e.to_string()))?;
        let (send, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| Fail::Connection(e.to_string()))?;
        tokio::spawn(async move {
            // The connection's end is seen by the next request on it.
            let _ = connection.await;
        });
        Ok(Conn {
            send,
            host: addr.to_string(),
        })
    }

    /// POSTs `body` to `/mcp` and returns the response with its body still open.
    pub async fn start(
        &mut self,
        headers: &Headers<'_>,
        body: Vec<u8>,
    ) -> Result<hyper::Response<Incoming>, Fail> {
        self.send
            .ready()
            .await
            .map_err(|e| Fail::Connection(e.to_string()))?;
        let mut request = hyper::Request::post("/mcp")
            .header(hyper::header::HOST, &self.host)
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header(hyper::header::ACCEPT, "application/json, text/event-stream");
        if let Some(v) = headers.version {
            request = request.header("MCP-Protocol-Version", v);
        }
        if let Some(v) = headers.method {
            request = request.header("Mcp-Method", v);
        }
        if let Some(v) = headers.name {
            request = request.header("Mcp-Name", v);
        }
        if let Some(v) = headers.session {
            request = request.header("Mcp-Session-Id", v);
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| Fail::Reply(format!("cannot build the request: {e}")))?;
        self.send
            .send_request(request)
            .await
            .map_err(|e| Fail::Connection(e.to_string()))
    }

    /// POSTs `body` to `/mcp` and reads the whole reply, within [`REQUEST_TIMEOUT`].
    pub async fn post(&mut self, headers: &Headers<'_>, body: Vec<u8>) -> Result<Reply, Fail> {
        let exchange = async {
            let response = self.start(headers, body).await?;
            let status = response.status().as_u16();
            let session = header(&response, "mcp-session-id");
            let sse = header(&response, "content-type")
                .is_some_and(|t| t.starts_with("text/event-stream"));
            let body = response
                .into_body()
                .collect()
                .await
                .map_err(|e| Fail::Connection(e.to_string()))?
                .to_bytes();
            Ok(Reply {
                status,
                session,
                sse,
                body,
            })
        };
        tokio::time::timeout(REQUEST_TIMEOUT, exchange)
            .await
            .map_err(|_| Fail::Timeout)?
    }
}

/// A response header as text.
pub fn header(response: &hyper::Response<Incoming>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The `_meta` of a 2026-07-28 request: the revision and the client's capabilities
/// (forms only, so no URL-mode question is ever sent).
fn stateless_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": STATELESS,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "elicit-e2e", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// A 2026-07-28 `tools/call` of `tool`, with the answers and state of a retry.
pub fn stateless_call(
    id: u64,
    tool: &str,
    arguments: &Value,
    responses: Option<Value>,
    state: Option<&str>,
) -> Vec<u8> {
    let mut params = json!({"name": tool, "arguments": arguments, "_meta": stateless_meta()});
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    if let Some(state) = state {
        params["requestState"] = Value::from(state);
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    body.to_string().into_bytes()
}

/// The headers of a 2026-07-28 `tools/call` of `tool`.
pub fn stateless_headers(tool: &str) -> Headers<'_> {
    Headers {
        version: Some(STATELESS),
        method: Some("tools/call"),
        name: Some(tool),
        session: None,
    }
}

/// A 2025-11-25 `initialize` declaring form elicitation.
pub fn initialize(id: u64) -> Vec<u8> {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": PUSH,
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "elicit-e2e", "version": env!("CARGO_PKG_VERSION")},
        }
    })
    .to_string()
    .into_bytes()
}

/// The `notifications/initialized` that ends the handshake.
pub fn initialized() -> Vec<u8> {
    br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec()
}

/// A push-era request without parameters of its own, e.g. `tools/list`.
pub fn request(id: u64, method: &str, params: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes()
}

/// An answer to the form `schema` as a user taking what is offered would give: the
/// first option of a choice (enum or titled `oneOf`), `true` for a checkbox (so the
/// popcorn size is asked too), `date` for a date, the default or the lowest allowed
/// value otherwise. Every field of the form is answered.
pub fn fill(schema: &Value, date: &str) -> Value {
    let mut answer = serde_json::Map::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Value::Object(answer);
    };
    for (name, field) in properties {
        if let Some(value) = fill_field(field, date) {
            answer.insert(name.clone(), value);
        }
    }
    Value::Object(answer)
}

fn fill_field(field: &Value, date: &str) -> Option<Value> {
    // A choice of one, as the Python SDK renders it.
    if let Some(only) = field.get("const") {
        return Some(only.clone());
    }
    if let Some(first) = field
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return Some(first.clone());
    }
    if let Some(first) = field
        .get("oneOf")
        .and_then(Value::as_array)
        .and_then(|o| o.first())
        .and_then(|o| o.get("const"))
    {
        return Some(first.clone());
    }
    match field.get("type").and_then(Value::as_str) {
        Some("boolean") => Some(Value::Bool(true)),
        Some("string") if field.get("format").and_then(Value::as_str) == Some("date") => {
            Some(Value::from(date))
        }
        Some("integer" | "number") => Some(
            field
                .get("default")
                .or_else(|| field.get("minimum"))
                .cloned()
                .unwrap_or(Value::from(1)),
        ),
        Some("array") => {
            let items = field.get("items")?;
            let first = items
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
                .or_else(|| {
                    items
                        .get("anyOf")
                        .and_then(Value::as_array)
                        .and_then(|a| a.first())
                        .and_then(|a| a.get("const"))
                })?;
            Some(Value::Array(vec![first.clone()]))
        }
        Some("string") => Some(field.get("default").cloned().unwrap_or_else(|| {
            let min = field.get("minLength").and_then(Value::as_u64).unwrap_or(1);
            Value::from("x".repeat(min.max(1) as usize))
        })),
        _ => field.get("default").cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_are_read_across_lines_and_priming_events_are_skipped() {
        let text = b"id: 0\nretry: 3000\ndata:\n\nevent: message\ndata: {\"id\":1,\n\
                     data: \"result\":{}}\r\n\r\ndata: {\"id\":2}\n\n";
        let messages = sse_messages(text);
        assert_eq!(messages, [json!({"id": 1, "result": {}}), json!({"id": 2})]);
    }

    #[test]
    fn a_form_is_answered_with_what_it_offers() {
        let schema = json!({"type": "object", "properties": {
            "date": {"type": "string", "format": "date"},
            "seat": {"type": "string", "enum": ["A1", "A2"]},
            "size": {"type": "string", "oneOf": [{"const": "small", "title": "S"}]},
            "popcorn": {"type": "boolean", "default": false},
            "n": {"type": "integer", "minimum": 2},
            "one": {"type": "string", "const": "B4"},
        }});
        assert_eq!(
            fill(&schema, "2025-02-03"),
            json!({"date": "2025-02-03", "seat": "A1", "size": "small", "popcorn": true, "n": 2, "one": "B4"})
        );
    }

    #[test]
    fn errors_and_missing_replies_are_failures_not_panics() {
        let reply = |sse, body: &'static [u8]| Reply {
            status: 200,
            session: None,
            sse,
            body: Bytes::from_static(body),
        };
        assert!(matches!(
            reply(false, br#"{"id":1,"error":{"code":-32602,"message":"no"}}"#).response(1),
            Err(Fail::Rpc(-32602, _))
        ));
        assert!(matches!(
            reply(false, b"<html>").response(1),
            Err(Fail::Reply(_))
        ));
        assert!(matches!(
            reply(true, b"data: {\"id\":2,\"result\":{}}\n\n").response(1),
            Err(Fail::Reply(_))
        ));
        assert!(
            reply(true, b"data: {\"id\":1,\"result\":{}}\n\n")
                .response(1)
                .is_ok()
        );
    }
}
