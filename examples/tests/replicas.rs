//! Stateless replicas: one `ticket-booking` wizard whose rounds (MCP 2026-07-28)
//! go to two separate server processes in turn, as a load balancer without sticky
//! sessions would send them. Both processes share one sealing key (replica A through
//! `ELICIT_KEYS`, replica B through `--key-file`), so either opens the `requestState`
//! the other sealed. A third process with another key refuses that state, and a state
//! replayed against another tool or other arguments is refused too.
//!
//! Two more replicas started with `--redis` (a `redis-server` of the test's own) share
//! the single-use record and the seats: a state redeemed on one is refused on the
//! other, and one seat booked on both at once is sold once. Without `redis-server` those
//! tests are ignored, with the reason, unless required (`CI` or `ELICIT_REQUIRE_REDIS`
//! set): see `elicit_examples::redis_server::RedisServer::for_test`.
//!
//! Every request is a plain HTTP POST to `127.0.0.1`, with a timeout; the child
//! processes are killed when the test ends, pass or fail.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use elicit_core::seal::{Key, Keyring};
use elicit_examples::redis_server::RedisServer;
use serde_json::{Value, json};

/// How long a process may take to start listening.
const START_LIMIT: Duration = Duration::from_secs(20);
/// How long one HTTP request may take, connection to last byte.
const REQUEST_LIMIT: Duration = Duration::from_secs(10);

const PROTOCOL: &str = "2026-07-28";

/// How a replica gets its keys.
enum Keys<'a> {
    Env(&'a str),
    File(&'a Path),
    /// Neither: the server makes a random key of its own.
    Random,
}

/// A running `ticket-booking --http`, killed on drop.
struct Replica {
    name: &'static str,
    child: Child,
    url: String,
}

impl Replica {
    fn start(name: &'static str, keys: Keys<'_>) -> Replica {
        Replica::start_with(name, keys, &[])
    }

    /// [`start`](Self::start) with more arguments.
    fn start_with(name: &'static str, keys: Keys<'_>, extra: &[&str]) -> Replica {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ticket-booking"));
        command
            .args(["--http", "127.0.0.1:0"])
            .args(extra)
            // The demo's shows counted from a pinned day: 2025-02-01 sold out,
            // 2025-02-03 and 2025-02-04 with seats.
            .args(["--today", "2025-01-31"])
            .env_remove("ELICIT_KEYS")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match keys {
            Keys::Env(text) => {
                command.env("ELICIT_KEYS", text);
            }
            Keys::File(path) => {
                command.arg("--key-file").arg(path);
            }
            Keys::Random => {}
        }
        let mut child = command.spawn().expect("ticket-booking starts");
        let stderr = child.stderr.take().expect("piped stderr");
        // Build the guard before waiting, so a timeout below still kills the child.
        let mut replica = Replica {
            name,
            child,
            url: String::new(),
        };
        // A thread reads stderr for the whole life of the process (so it never blocks
        // on a full pipe) and reports each line.
        let (lines, received) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                // Once the server is up nobody listens: keep draining all the same.
                let _ = lines.send(line);
            }
        });
        let deadline = Instant::now() + START_LIMIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match received.recv_timeout(left) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        replica.url = url.trim().to_owned();
                        break;
                    }
                    seen.push(line);
                }
                Err(e) => panic!("replica {name} did not start ({e:?}); stderr: {seen:?}"),
            }
        }
        assert!(
            replica.url.starts_with("http://127.0.0.1:") && replica.url.ends_with("/mcp"),
            "replica {name}: {}",
            replica.url
        );
        replica
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A directory removed on drop (for the key file).
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("elicit-replicas-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A stateless MCP client: every call is one independent POST, no session.
struct Client {
    agent: ureq::Agent,
    next_id: u64,
}

impl Client {
    fn new() -> Client {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_LIMIT))
            // Never through a proxy from the environment: 127.0.0.1 only.
            .proxy(None)
            .max_redirects(0)
            .http_status_as_error(false)
            .build();
        Client {
            agent: config.into(),
            next_id: 1,
        }
    }

    /// `tools/call` of `tool` on `replica`, with the answers and state of a retry;
    /// returns the JSON-RPC response (with `result` or `error`).
    fn call(
        &mut self,
        replica: &Replica,
        tool: &str,
        arguments: Value,
        retry: Option<(&Value, &str)>,
    ) -> Value {
        let mut params = json!({"name": tool, "arguments": arguments});
        if let Some((responses, state)) = retry {
            params["inputResponses"] = responses.clone();
            params["requestState"] = json!(state);
        }
        let capabilities = json!({"elicitation": {}});
        self.request(replica, None, "tools/call", tool, params, &capabilities)
    }

    /// A 2026-07-28 request of `method` on `replica` (`name` its `Mcp-Name` header),
    /// with the bearer `token` if any, from a client with `capabilities`; returns the
    /// JSON-RPC response (with `result` or `error`).
    fn request(
        &mut self,
        replica: &Replica,
        token: Option<&str>,
        method: &str,
        name: &str,
        mut params: Value,
        capabilities: &Value,
    ) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        params["_meta"] = meta(capabilities);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut request = self
            .agent
            .post(&replica.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", PROTOCOL)
            .header("Mcp-Method", method)
            .header("Mcp-Name", name);
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let mut response = request
            .send(body.to_string())
            .unwrap_or_else(|e| panic!("POST to replica {}: {e}", replica.name));
        let status = response.status();
        let event_stream = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let text = response
            .body_mut()
            .read_to_string()
            .unwrap_or_else(|e| panic!("body from replica {}: {e}", replica.name));
        assert!(
            status.is_success(),
            "replica {}: HTTP {status}: {text}",
            replica.name
        );
        let message = if event_stream {
            sse_response(&text, id)
        } else {
            serde_json::from_str(&text).ok()
        };
        message.unwrap_or_else(|| {
            panic!(
                "replica {}: no JSON-RPC response {id} in {text:?}",
                replica.name
            )
        })
    }

    /// `method` (`tasks/get`, `tasks/update`, `tasks/cancel`) for the task `id` on
    /// `replica`, as the bearer of `token`, with more `params`.
    fn task(
        &mut self,
        replica: &Replica,
        token: &str,
        method: &str,
        id: &str,
        mut params: Value,
    ) -> Value {
        params["taskId"] = json!(id);
        self.request(replica, Some(token), method, id, params, &task_client())
    }

    /// Reads the task `id` on `replica` until `until` holds of it (within 10 s).
    fn task_until(
        &mut self,
        replica: &Replica,
        token: &str,
        id: &str,
        until: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + REQUEST_LIMIT;
        loop {
            let got = self.task(replica, token, "tasks/get", id, json!({}));
            let task = &got["result"];
            if until(task) {
                return task.clone();
            }
            assert!(Instant::now() < deadline, "the task never got there: {got}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The `_meta` of a 2026-07-28 request from a client with `capabilities`.
fn meta(capabilities: &Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": {"name": "replica-test", "version": "1.0.0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

/// The capabilities of a client of the Tasks extension.
fn task_client() -> Value {
    json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
}

/// Whether a task waits for the answer to a form with the field `field`.
fn asks(task: &Value, field: &str) -> bool {
    task["status"] == "input_required"
        && task["inputRequests"].as_object().is_some_and(|requests| {
            requests
                .values()
                .any(|r| r["params"]["requestedSchema"]["properties"][field].is_object())
        })
}

/// The `inputResponses` answering every question `task` waits on, as [`answer`] picks.
fn answers(task: &Value, picks: &mut Picks) -> Value {
    let mut responses = serde_json::Map::new();
    for (key, request) in task["inputRequests"].as_object().expect("questions") {
        let params = &request["params"];
        let message = params["message"].as_str().unwrap_or_default();
        responses.insert(
            key.clone(),
            answer(message, &params["requestedSchema"], picks),
        );
    }
    Value::Object(responses)
}

/// The JSON-RPC response with `id` among the events of an SSE body.
fn sse_response(body: &str, id: u64) -> Option<Value> {
    body.replace("\r\n", "\n").split("\n\n").find_map(|event| {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        let message: Value = serde_json::from_str(&data.join("\n")).ok()?;
        (message["id"] == json!(id)
            && (message.get("result").is_some() || message.get("error").is_some()))
        .then_some(message)
    })
}

/// The values a form offers for `field`: `enum`, or the `const`s of `oneOf`.
fn options(schema: &Value, field: &str) -> Vec<String> {
    let property = &schema["properties"][field];
    let values = match (property["enum"].as_array(), property["oneOf"].as_array()) {
        (Some(values), _) => values.clone(),
        (None, Some(one_of)) => one_of.iter().map(|o| o["const"].clone()).collect(),
        (None, None) => Vec::new(),
    };
    let options: Vec<String> = values
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    assert!(!options.is_empty(), "{field} offers no options: {schema}");
    options
}

/// What the user picked, to check the booking's text.
#[derive(Default)]
struct Picks {
    date: String,
    seat: String,
    drink: String,
    size: String,
}

/// The answer to one question, chosen from what the form offers.
fn answer(message: &str, schema: &Value, picks: &mut Picks) -> Value {
    let properties = schema["properties"].as_object().expect("a form");
    let content = if properties.contains_key("date") {
        // The date form offers the days with seats. Try the demo's sold-out day first:
        // the replica that takes the round refuses it and asks again.
        let tried = picks.date.clone();
        picks.date = if tried.is_empty() {
            "2025-02-01".to_owned()
        } else {
            options(schema, "date")
                .into_iter()
                .find(|d| *d != tried)
                .unwrap_or_else(|| panic!("no other date offered in {schema}"))
        };
        json!({"date": picks.date})
    } else if properties.contains_key("seat") {
        picks.seat = options(schema, "seat")[0].clone();
        json!({"seat": picks.seat})
    } else if properties.contains_key("popcorn") {
        picks.drink = options(schema, "drink")[0].clone();
        json!({"popcorn": true, "drink": picks.drink})
    } else if properties.contains_key("size") {
        picks.size = options(schema, "size").last().cloned().unwrap_or_default();
        json!({"size": picks.size})
    } else {
        panic!("an unexpected question: {message:?} {schema}");
    };
    json!({"action": "accept", "content": content})
}

/// One question of an `input_required` result: its key, message and schema, and the
/// sealed state to send back.
struct Question {
    key: String,
    message: String,
    schema: Value,
    state: String,
}

fn question(response: &Value) -> Option<Question> {
    let result = &response["result"];
    if result["resultType"] != "input_required" {
        return None;
    }
    let requests = result["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.len(), 1, "one question a round: {result}");
    let (key, request) = requests.iter().next()?;
    assert_eq!(request["method"], "elicitation/create", "{request}");
    Some(Question {
        key: key.clone(),
        message: request["params"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        schema: request["params"]["requestedSchema"].clone(),
        state: result["requestState"]
            .as_str()
            .expect("a requestState")
            .to_owned(),
    })
}

/// The message of a JSON-RPC error response.
fn error_message(response: &Value) -> String {
    assert!(
        response.get("result").is_none(),
        "expected an error, got {response}"
    );
    assert_eq!(
        response["error"]["code"], -32602,
        "invalid params: {response}"
    );
    response["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn wizard_rounds_alternate_between_replicas_sharing_a_key() {
    let started = Instant::now();
    // The shared keyring in its text form, `id:base64key` (current first).
    let shared = Keyring::new("replicas1", Key::generate())
        .expect("a valid id")
        .to_text();
    let dir = TempDir::new();
    let key_file = dir.0.join("elicit-keys");
    std::fs::write(
        &key_file,
        format!("# elicit sealing keys (current first)\n{shared}\n"),
    )
    .expect("the key file");
    private(&key_file);

    let a = Replica::start("A", Keys::Env(&shared));
    let b = Replica::start("B", Keys::File(&key_file));
    // C forgot the shared key: it seals and opens with a random key of its own.
    let c = Replica::start("C", Keys::Random);
    // A replica with its record in memory refuses another's state sealed in the second
    // its own record began (it could be its own, from before a restart): start sealing
    // in the next second.
    next_second();
    let replicas = [&a, &b];
    let mut client = Client::new();

    // ---- the wizard, each round on the other replica
    let mut picks = Picks::default();
    let mut served_by = Vec::new();
    let mut states: Vec<(Question, Value)> = Vec::new();
    let mut response = client.call(&a, "book_tickets", json!({}), None);
    served_by.push(a.name);
    let booked = loop {
        let Some(asked) = question(&response) else {
            break response;
        };
        assert!(served_by.len() < 12, "the wizard does not end: {response}");
        assert!(
            !asked.state.contains("2025"),
            "the state is sealed, not plain: {}",
            asked.state
        );
        let reply = answer(&asked.message, &asked.schema, &mut picks);
        let responses = json!({ asked.key.clone(): reply });
        let next = replicas[served_by.len() % 2];
        response = client.call(
            next,
            "book_tickets",
            json!({}),
            Some((&responses, &asked.state)),
        );
        served_by.push(next.name);
        states.push((asked, responses));
    };
    let text = booked["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text result: {booked}"));
    assert_eq!(
        text,
        format!(
            "Booked seat {} on {} with {} popcorn and {}.",
            picks.seat,
            picks.date,
            picks.size.to_lowercase(),
            picks.drink
        ),
        "rounds: {served_by:?}"
    );
    assert!(served_by.len() >= 3, "rounds: {served_by:?}");
    for (i, name) in served_by.iter().enumerate() {
        assert_eq!(*name, ["A", "B"][i % 2], "rounds: {served_by:?}");
    }
    // date (sold out), date, seat, snacks, size: five answers, six rounds.
    assert_eq!(served_by.len(), 6, "rounds: {served_by:?}");

    // A state A sealed in the middle of the wizard (after the date, asking the seat).
    let seat_round = states
        .iter()
        .position(|(q, _)| q.schema["properties"].get("seat").is_some())
        .expect("a seat round");
    assert_eq!(served_by[seat_round], "A", "rounds: {served_by:?}");
    let (asked, responses) = &states[seat_round];
    let retry = Some((responses, asked.state.as_str()));

    // ---- a replica with another key refuses it, and says why
    let refused = error_message(&client.call(&c, "book_tickets", json!({}), retry));
    assert_eq!(
        refused,
        "the requestState of this retry was refused: sealed with key \"replicas1\", which this \
         server does not have (foreign or retired key); call the tool again without it"
    );

    // ---- replayed against another tool, on a replica that has the key
    let refused = error_message(&client.call(&b, "pay_tickets", json!({"order": "A-17"}), retry));
    assert!(
        refused.contains("requestState of this retry was refused")
            && refused.contains("another user, tool or arguments"),
        "{refused}"
    );

    // ---- replayed with other arguments. These HTTP servers do not authenticate, so
    // every caller is the same (empty) principal and "another principal" cannot be
    // sent over the wire here; the principal is one more part of the same sealed
    // binding as the tool and the arguments (`Elicitor::tool_for`, covered in
    // elicit-core's seal tests), so the tool and argument replays stand for it.
    let refused =
        error_message(&client.call(&b, "book_tickets", json!({"for": "someone-else"}), retry));
    assert!(
        refused.contains("requestState of this retry was refused")
            && refused.contains("another user, tool or arguments"),
        "{refused}"
    );

    // ---- the genuine retry was redeemed by B, which served the round after it: B
    // refuses it now. A keeps its own in-memory record and has not seen it redeemed,
    // so it still opens there: replicas that must refuse a replay everywhere share a
    // store (`--redis`, tests/redis.rs).
    assert_eq!(served_by[seat_round + 1], "B", "rounds: {served_by:?}");
    let refused = error_message(&client.call(&b, "book_tickets", json!({}), retry));
    assert_eq!(
        refused,
        "the requestState of this retry was refused: it was used before (each state is good \
         for one retry); call the tool again without it"
    );
    let again = client.call(&a, "book_tickets", json!({}), retry);
    assert!(question(&again).is_some(), "replica A: {again}");

    assert!(
        started.elapsed() < Duration::from_secs(30),
        "took {:?}",
        started.elapsed()
    );
}

/// Makes `path` readable by its owner only, as a server asks of a key file.
fn private(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Runs `ticket-booking` with `args`, expecting it to fail at start-up: its stderr.
fn refused_start(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ticket-booking"))
        .args(["--http", "127.0.0.1:0"])
        .args(args)
        .env_remove("ELICIT_KEYS")
        .stdin(Stdio::null())
        .output()
        .expect("ticket-booking runs");
    assert!(!out.status.success(), "it started");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A key file other users can read is refused at start-up, naming the fix.
#[cfg(unix)]
#[test]
fn a_key_file_others_can_read_is_refused() {
    let dir = TempDir::new();
    let key_file = dir.0.join("elicit-keys");
    let keys = Keyring::new("perm1", Key::generate()).expect("a valid id");
    std::fs::write(&key_file, keys.to_text()).expect("the key file");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let stderr = refused_start(&["--key-file".as_ref(), key_file.as_os_str()]);
    assert!(
        stderr.contains("can be read by other users (mode 644)") && stderr.contains("chmod 600"),
        "{stderr}"
    );
}

/// The `--redis` URL's password never reaches the error printed when Redis cannot be
/// reached.
#[test]
fn a_redis_password_is_not_printed() {
    let stderr = refused_start(&[
        "--redis".as_ref(),
        "redis://:s3cretPassw0rd@127.0.0.1:1/".as_ref(),
    ]);
    assert!(!stderr.contains("s3cretPassw0rd"), "{stderr}");
    assert!(stderr.contains("redis://***@127.0.0.1:1/"), "{stderr}");
}

/// Waits for the wall clock's next second.
fn next_second() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    std::thread::sleep(Duration::from_nanos(
        1_000_000_000 - u64::from(now.subsec_nanos()) + 1_000_000,
    ));
}

/// A server restarted with the same keys (a key file) forgets which states it took,
/// not the keys: a final round replayed after the restart is refused instead of
/// booking the seat a second time.
#[test]
fn a_restart_does_not_let_a_replayed_round_book_again() {
    let dir = TempDir::new();
    let key_file = dir.0.join("elicit-keys");
    let keys = Keyring::new("restart1", Key::generate()).expect("a valid id");
    std::fs::write(&key_file, format!("{}\n", keys.to_text())).expect("the key file");
    private(&key_file);
    let mut client = Client::new();
    let server = Replica::start("A", Keys::File(&key_file));
    let mut picks = Picks::default();
    let mut response = client.call(&server, "book_tickets", json!({}), None);
    let mut last = None;
    let mut rounds = 0;
    while let Some(asked) = question(&response) {
        rounds += 1;
        assert!(rounds < 12, "the wizard does not end: {response}");
        let reply = answer(&asked.message, &asked.schema, &mut picks);
        let responses = json!({ asked.key.clone(): reply });
        response = client.call(
            &server,
            "book_tickets",
            json!({}),
            Some((&responses, &asked.state)),
        );
        last = Some((asked, responses));
    }
    let booked = response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(booked.starts_with("Booked seat"), "{response}");
    let (asked, responses) = last.expect("a last round");
    let replay = Some((&responses, asked.state.as_str()));

    // Replayed on the same process: refused, it was used.
    let refused = error_message(&client.call(&server, "book_tickets", json!({}), replay));
    assert!(refused.contains("it was used before"), "{refused}");

    // The process restarts with the same key file: still refused, and nothing booked.
    drop(server);
    let restarted = Replica::start("A again", Keys::File(&key_file));
    let again = client.call(&restarted, "book_tickets", json!({}), replay);
    let refused = error_message(&again);
    assert_eq!(
        refused,
        "the requestState of this retry was refused: it is older than this server's record of \
         used states reaches back (the server restarted since, or is under heavy load); call \
         the tool again without it",
        "{again}"
    );
}

/// 100 tool calls that elicit, at once, against one replica over Streamable HTTP: each
/// gets its own question and its own sealed state, and each state carries its own
/// booking to the next round.
#[test]
fn a_hundred_concurrent_calls_each_get_their_own_round() {
    let replica = std::sync::Arc::new(Replica::start("A", Keys::Random));
    let calls: Vec<_> = (0..100)
        .map(|i| {
            let replica = replica.clone();
            std::thread::spawn(move || {
                let mut client = Client::new();
                client.next_id = 1000 * (i + 1);
                let first = client.call(&replica, "book_tickets", json!({}), None);
                let q = question(&first).unwrap_or_else(|| panic!("call {i}: {first}"));
                assert!(q.message.contains("Which day"), "call {i}: {}", q.message);
                // The next round of this very call, on its own state.
                let responses = json!({ q.key.clone(): {"action": "accept", "content": {"date": "2025-02-03"}} });
                let second = client.call(
                    &replica,
                    "book_tickets",
                    json!({}),
                    Some((&responses, &q.state)),
                );
                let q2 = question(&second).unwrap_or_else(|| panic!("call {i}: {second}"));
                assert!(
                    q2.message.contains("Pick a seat for 2025-02-03"),
                    "call {i}: {}",
                    q2.message
                );
                q.state
            })
        })
        .collect();
    let states: std::collections::HashSet<String> = calls
        .into_iter()
        .map(|c| c.join().expect("no call failed"))
        .collect();
    assert_eq!(states.len(), 100, "every call sealed a state of its own");
}

/// Two `ticket-booking --redis` processes: a state redeemed by one is refused by the
/// other, and bookings of one seat sent to both at once sell it once.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn replicas_started_with_redis_share_single_use_and_seats() {
    let redis = RedisServer::for_test();
    let shared = Keyring::new("redis1", Key::generate())
        .expect("a valid id")
        .to_text();
    let a = Replica::start_with("A", Keys::Env(&shared), &["--redis", redis.url()]);
    let b = Replica::start_with("B", Keys::Env(&shared), &["--redis", redis.url()]);
    let mut client = Client::new();

    // ---- a round sealed by A, answered on B, replayed on A
    let first = client.call(&a, "book_tickets", json!({}), None);
    let asked = question(&first).expect("the date question");
    let responses =
        json!({ asked.key.clone(): {"action": "accept", "content": {"date": "2025-02-03"}} });
    let retry = Some((&responses, asked.state.as_str()));
    let on_b = client.call(&b, "book_tickets", json!({}), retry);
    assert!(question(&on_b).is_some(), "B asks the seat: {on_b}");
    let refused = error_message(&client.call(&a, "book_tickets", json!({}), retry));
    assert_eq!(
        refused,
        "the requestState of this retry was refused: it was used before (each state is good \
         for one retry); call the tool again without it"
    );

    // ---- six bookings of seat A2 on 2025-02-03, alternating replicas, each round
    // interleaved with the others'
    let mut flows: Vec<Option<Question>> = (0..6)
        .map(|i| {
            let replica = if i % 2 == 0 { &a } else { &b };
            question(&client.call(replica, "book_tickets", json!({}), None))
        })
        .collect();
    let mut texts = Vec::new();
    for round in 0..12 {
        for (i, flow) in flows.iter_mut().enumerate() {
            let Some(asked) = flow.take() else { continue };
            let fields = &asked.schema["properties"];
            let content = if fields.get("date").is_some() {
                json!({"date": "2025-02-03"})
            } else if fields.get("seat").is_some() {
                json!({"seat": "A2"})
            } else {
                json!({"popcorn": false})
            };
            let responses = json!({ asked.key.clone(): {"action": "accept", "content": content} });
            let replica = if (i + round) % 2 == 0 { &a } else { &b };
            let response = client.call(
                replica,
                "book_tickets",
                json!({}),
                Some((&responses, asked.state.as_str())),
            );
            match question(&response) {
                Some(next) => *flow = Some(next),
                None => texts.push(
                    response["result"]["content"][0]["text"]
                        .as_str()
                        .unwrap_or_else(|| panic!("a text result: {response}"))
                        .to_owned(),
                ),
            }
        }
    }
    assert_eq!(texts.len(), 6, "every booking ended: {texts:#?}");
    let booked = texts
        .iter()
        .filter(|t| t.starts_with("Booked seat A2 on 2025-02-03"))
        .count();
    assert_eq!(booked, 1, "{texts:#?}");
}

const ALICE: &str = "alice-token-0123456789abcdef";
const BOB: &str = "bob-token-0123456789abcdefgh";

/// Two `ticket-booking --redis` replicas with bearer tokens for alice and bob, sharing
/// one sealing key and the Redis of `redis`; the tokens' directory is removed with the
/// `TempDir`.
fn task_replicas(redis: &RedisServer) -> (Replica, Replica, TempDir) {
    task_replicas_with(redis, &[])
}

/// [`task_replicas`] with more arguments for both.
fn task_replicas_with(redis: &RedisServer, extra: &[&str]) -> (Replica, Replica, TempDir) {
    let dir = TempDir::new();
    let tokens = dir.0.join("tokens");
    std::fs::write(&tokens, format!("alice {ALICE}\nbob {BOB}\n")).expect("a token file");
    private(&tokens);
    let shared = Keyring::new("tasks1", Key::generate())
        .expect("a valid id")
        .to_text();
    let tokens = tokens.to_str().expect("a UTF-8 path");
    let mut args = vec!["--redis", redis.url(), "--auth-token-file", tokens];
    args.extend_from_slice(extra);
    let a = Replica::start_with("A", Keys::Env(&shared), &args);
    let b = Replica::start_with("B", Keys::Env(&shared), &args);
    (a, b, dir)
}

/// A `book_tickets` task of alice on `replica`: its id.
fn start_booking(client: &mut Client, replica: &Replica) -> String {
    start_booking_as(client, replica, ALICE)
}

/// A `book_tickets` task of the bearer of `token` on `replica`: its id.
fn start_booking_as(client: &mut Client, replica: &Replica, token: &str) -> String {
    let created = try_booking(client, replica, token);
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    created["result"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned()
}

/// The response to a `book_tickets` call as a task, by the bearer of `token`.
fn try_booking(client: &mut Client, replica: &Replica, token: &str) -> Value {
    let params = json!({"name": "book_tickets", "arguments": {}});
    client.request(
        replica,
        Some(token),
        "tools/call",
        "book_tickets",
        params,
        &task_client(),
    )
}

/// Answers alice's task `id` on `replica` until it waits for its last question (the
/// popcorn size): that task.
fn up_to_the_size(client: &mut Client, replica: &Replica, id: &str, picks: &mut Picks) -> Value {
    loop {
        let task = client.task_until(replica, ALICE, id, |t| t["status"] != "working");
        assert_eq!(task["status"], "input_required", "{task}");
        if asks(&task, "size") {
            return task;
        }
        let responses = json!({"inputResponses": answers(&task, picks)});
        let updated = client.task(replica, ALICE, "tasks/update", id, responses);
        assert!(updated.get("error").is_none(), "{updated}");
        client.task_until(replica, ALICE, id, |t| t != &task);
    }
}

/// A task kept in Redis outlives the replica that started it: the ticket wizard's
/// task is started on A, which is killed while the task waits for the seat; B answers
/// `tasks/get` and `tasks/update` and completes the booking. To bob the task does not
/// exist on either replica, and a replayed `tasks/update` changes nothing.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_task_survives_the_replica_that_started_it() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas(&redis);
    let mut client = Client::new();
    let mut picks = Picks::default();
    let id = start_booking(&mut client, &a);

    // The date, answered on A (the demo's sold-out day first, refused and asked again).
    while !asks(
        &client.task_until(&a, ALICE, &id, |t| t["status"] != "working"),
        "seat",
    ) {
        let task = client.task_until(&a, ALICE, &id, |t| t["status"] == "input_required");
        assert!(asks(&task, "date"), "{task}");
        let responses = answers(&task, &mut picks);
        let updated = client.task(
            &a,
            ALICE,
            "tasks/update",
            &id,
            json!({"inputResponses": responses}),
        );
        assert!(updated.get("error").is_none(), "{updated}");
        client.task_until(&a, ALICE, &id, |t| t != &task);
    }

    // A stops for good while the task waits for the seat.
    drop(a);
    let waiting = client.task_until(&b, ALICE, &id, |t| asks(t, "seat"));
    assert_eq!(waiting["taskId"], id.as_str(), "{waiting}");
    // The record as docs/tasks.md gives its size: the task, its questions and the
    // sealed state of the answers so far.
    let size = record_len(&redis, &id);
    assert!(
        size < 4096,
        "the record of a waiting ticket task is {size} bytes"
    );

    // Bob cannot see, answer or cancel it.
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = json!({"inputResponses": answers(&waiting, &mut Picks::default())});
        let refused = client.task(&b, BOB, method, &id, params);
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        assert_eq!(refused["error"]["message"], format!("unknown task: {id}"));
    }

    // The seat, on B; then the same update again once the task has moved on.
    let seat = json!({"inputResponses": answers(&waiting, &mut picks)});
    let updated = client.task(&b, ALICE, "tasks/update", &id, seat.clone());
    assert!(updated.get("error").is_none(), "{updated}");
    let snacks = client.task_until(&b, ALICE, &id, |t| asks(t, "popcorn"));
    let replayed = client.task(&b, ALICE, "tasks/update", &id, seat.clone());
    assert!(replayed.get("error").is_none(), "{replayed}");
    let after = client.task(&b, ALICE, "tasks/get", &id, json!({}));
    assert_eq!(
        after["result"], snacks,
        "a replayed update changed the task"
    );

    // Snacks, then the popcorn size: the booking ends on B.
    let mut task = snacks;
    while task["status"] == "input_required" {
        let responses = json!({"inputResponses": answers(&task, &mut picks)});
        let updated = client.task(&b, ALICE, "tasks/update", &id, responses);
        assert!(updated.get("error").is_none(), "{updated}");
        let before = task.clone();
        task = client.task_until(&b, ALICE, &id, |t| t != &before && t["status"] != "working");
    }
    assert_eq!(task["status"], "completed", "{task}");
    let text = task["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        text,
        format!(
            "Booked seat {} on {} with {} popcorn and {}.",
            picks.seat,
            picks.date,
            picks.size.to_lowercase(),
            picks.drink
        ),
        "{task}"
    );

    // Replayed after the end (the seat's answer, and the last one): nothing changes.
    let replayed = client.task(&b, ALICE, "tasks/update", &id, seat);
    assert!(replayed.get("error").is_none(), "{replayed}");
    let after = client.task(&b, ALICE, "tasks/get", &id, json!({}));
    assert_eq!(
        after["result"], task,
        "a replayed update changed the ended task"
    );
}

/// The length of the record of task `id` in the test's Redis.
fn record_len(redis: &RedisServer, id: &str) -> usize {
    let mut connection = redis::Client::open(redis.url())
        .and_then(|c| c.get_connection())
        .expect("a connection to the test's Redis");
    let record: String = redis::cmd("HGET")
        .arg(format!("elicit:task:t:{id}"))
        .arg("r")
        .query(&mut connection)
        .expect("the task's record");
    eprintln!("the record of task {id}: {} bytes", record.len());
    record.len()
}

/// A `subscriptions/listen` of alice for some tasks on one replica: its SSE stream,
/// read one `notifications/tasks` at a time.
struct Listening {
    lines: std::io::Lines<BufReader<ureq::BodyReader<'static>>>,
}

impl Listening {
    fn open(replica: &Replica, task_ids: &[&str]) -> Listening {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .proxy(None)
            .build()
            .into();
        let params = json!({"notifications": {"taskIds": task_ids}, "_meta": meta(&task_client())});
        let body =
            json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": params});
        let response = agent
            .post(&replica.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", PROTOCOL)
            .header("Mcp-Method", "subscriptions/listen")
            .header("Authorization", format!("Bearer {ALICE}"))
            .send(body.to_string())
            .unwrap_or_else(|e| panic!("listen on replica {}: {e}", replica.name));
        Listening {
            lines: BufReader::new(response.into_body().into_reader()).lines(),
        }
    }

    /// The task the next `notifications/tasks` tells (as `tasks/get` gives it).
    fn next_task(&mut self) -> Value {
        loop {
            let line = self
                .lines
                .next()
                .expect("the stream stays open")
                .expect("a message in time");
            let Some(data) = line.strip_prefix("data:") else {
                continue;
            };
            let Ok(message) = serde_json::from_str::<Value>(data.trim()) else {
                continue;
            };
            if message["method"] == "notifications/tasks" {
                return message["params"].clone();
            }
        }
    }
}

/// A subscription on B is told each status of a task that A runs and the client
/// answers on A: `input_required` with its questions (answered from the
/// notifications alone), then `completed` with the booking.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_task_subscription_hears_a_task_driven_on_the_other_replica() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas(&redis);
    let mut client = Client::new();
    let mut picks = Picks::default();
    let id = start_booking(&mut client, &a);
    let mut listening = Listening::open(&b, &[&id]);
    let mut statuses = Vec::new();
    let done = loop {
        let task = listening.next_task();
        assert_eq!(task["taskId"], id.as_str(), "{task}");
        let status = task["status"].as_str().unwrap_or_default().to_owned();
        statuses.push(status.clone());
        match status.as_str() {
            "input_required" => {
                let responses = json!({"inputResponses": answers(&task, &mut picks)});
                let updated = client.task(&a, ALICE, "tasks/update", &id, responses);
                assert!(updated.get("error").is_none(), "{updated}");
            }
            "completed" => break task,
            "working" => {}
            other => panic!("a task {other}: {task}"),
        }
    };
    let text = done["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.starts_with(&format!("Booked seat {} on {}", picks.seat, picks.date)),
        "{done}"
    );
    // Date (asked twice: the sold-out day is refused), seat, snacks, size.
    let asked = statuses.iter().filter(|s| *s == "input_required").count();
    assert_eq!(asked, 5, "{statuses:?}");
}

/// A principal at her cap calling again and again, many calls at once, changes
/// nothing for anyone else: each call is refused by her own cap (never a `-32603`),
/// and another principal still starts tasks up to the server's cap.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_principal_flooding_calls_at_her_cap_leaves_others_their_places() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas_with(&redis, &["--task-limits", "2,4"]);
    let mut client = Client::new();
    start_booking(&mut client, &a);
    start_booking(&mut client, &b);
    // 16 threads, 20 calls each, half of them on each replica.
    let replicas = [&a, &b];
    let refusals: Vec<Value> = std::thread::scope(|scope| {
        let flood: Vec<_> = (0..16)
            .map(|n| {
                let replica = replicas[n % 2];
                scope.spawn(move || {
                    let mut client = Client::new();
                    (0..20)
                        .map(|_| try_booking(&mut client, replica, ALICE))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        flood
            .into_iter()
            .flat_map(|thread| thread.join().expect("a flooding thread"))
            .collect()
    });
    for refused in &refusals {
        assert_eq!(refused["error"]["code"], -32600, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("of this client (at most 2)"), "{refused}");
    }
    // The server's cap of 4 still has bob's two places.
    start_booking_as(&mut client, &a, BOB);
    start_booking_as(&mut client, &b, BOB);
    let refused = try_booking(&mut client, &a, BOB);
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("of this client (at most 2)"), "{refused}");
}

/// The cancel rule across replicas: the last answer on A, then at once a cancel on
/// B. The booking ran, so each task ends `completed` with the booking, never
/// `cancelled` with its seat sold.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_cancel_after_the_last_answer_ends_the_task_as_the_booking_did() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas(&redis);
    let mut client = Client::new();
    for _ in 0..4 {
        let mut picks = Picks::default();
        let id = start_booking(&mut client, &a);
        let last = up_to_the_size(&mut client, &a, &id, &mut picks);
        let responses = json!({"inputResponses": answers(&last, &mut picks)});
        let updated = client.task(&a, ALICE, "tasks/update", &id, responses);
        assert!(updated.get("error").is_none(), "{updated}");
        let cancelled = client.task(&b, ALICE, "tasks/cancel", &id, json!({}));
        assert!(cancelled.get("error").is_none(), "{cancelled}");
        let task = client.task_until(&b, ALICE, &id, |t| t["status"] != "working");
        assert_eq!(task["status"], "completed", "{task}");
        let text = task["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.starts_with(&format!("Booked seat {}", picks.seat)),
            "{task}"
        );
    }
}

/// A subscription wakes on the announcement of its task even after announcements of
/// keys that name no task (an index, another application's record): the
/// notifications of a task driven on A reach a subscription on B without falling back
/// to the once-a-second poll.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn announcements_of_other_keys_leave_a_subscription_awake() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas(&redis);
    let mut client = Client::new();
    let mut picks = Picks::default();
    let id = start_booking(&mut client, &a);
    let mut listening = Listening::open(&b, &[&id]);
    let mut publisher = redis::Client::open(redis.url())
        .and_then(|c| c.get_connection())
        .expect("a connection to the test's Redis");
    let mut waited = Duration::ZERO;
    let mut task = listening.next_task();
    loop {
        match task["status"].as_str() {
            Some("input_required") => {}
            Some("working") => {
                task = listening.next_task();
                continue;
            }
            _ => break,
        }
        for key in ["owner:alice", "all", "t:unrelated"] {
            let _: i64 = redis::cmd("PUBLISH")
                .arg("elicit:tasks")
                .arg(key)
                .query(&mut publisher)
                .expect("published");
        }
        let responses = json!({"inputResponses": answers(&task, &mut picks)});
        let updated = client.task(&a, ALICE, "tasks/update", &id, responses);
        assert!(updated.get("error").is_none(), "{updated}");
        let asked = Instant::now();
        // The next status that is not `working`.
        task = listening.next_task();
        while task["status"] == "working" {
            task = listening.next_task();
        }
        waited += asked.elapsed();
    }
    assert_eq!(task["status"], "completed", "{task}");
    // Five answers (the sold-out date, refused, then a date, seat, snacks, size): each
    // heard in a few milliseconds when woken; the poll would take half a second each.
    assert!(
        waited < Duration::from_millis(1000),
        "the subscription waited {waited:?} in all"
    );
}

/// A task whose questions are pages: the ticket wizard started as a task on A by a client
/// that takes only URL mode. Each step's link waits in the task; the person's browser
/// reaches B (a load balancer without sticky sessions), whose page keeps the answer in
/// Redis; the client says on A that the person went; the task, waiting on A, goes on from
/// the answer B kept. The page's record holds the answer, the task only the link.
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_task_waits_on_pages_answered_on_the_other_replica() {
    let redis = RedisServer::for_test();
    let (a, b, _dir) = task_replicas_with(&redis, &["--pages"]);
    let mut client = Client::new();
    let url_only =
        json!({"elicitation": {"url": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    let params = json!({"name": "book_tickets", "arguments": {}});
    let created = client.request(
        &a,
        Some(ALICE),
        "tools/call",
        "book_tickets",
        params,
        &url_only,
    );
    let id = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_owned();
    let pages = [
        "f.date=2025-02-03&action=accept",
        "f.seat=B4&action=accept",
        "s.popcorn=1&f.popcorn=true&f.drink=cola&action=accept",
        "f.size=Large&action=accept",
    ];
    let on_b = b.url.trim_end_matches("/mcp").to_owned();
    for body in pages {
        let task = client.task_until(&a, ALICE, &id, |t| t["status"] != "working");
        assert_eq!(task["status"], "input_required", "{task}");
        let requests = task["inputRequests"].as_object().expect("a question");
        assert_eq!(requests.len(), 1, "{task}");
        let (key, request) = requests.iter().next().unwrap();
        assert_eq!(request["params"]["mode"], "url", "{task}");
        let link = request["params"]["url"].as_str().expect("a link");
        assert!(link.starts_with(a.url.trim_end_matches("/mcp")), "{link}");
        let page = link.rsplit('/').next().unwrap();
        // The person answers on B.
        let mut response = client
            .agent
            .post(&format!("{on_b}/elicit/p/{page}"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .send(body)
            .expect("the page on B");
        let status = response.status();
        let html = response.body_mut().read_to_string().unwrap_or_default();
        assert_eq!(status, 200, "{body}: {html}");
        // The client says the person went.
        let responses = json!({"inputResponses": {key.clone(): {"action": "accept"}}});
        let updated = client.task(&a, ALICE, "tasks/update", &id, responses);
        assert!(updated.get("error").is_none(), "{updated}");
        let before = task.clone();
        client.task_until(&a, ALICE, &id, |t| t != &before);
    }
    let task = client.task_until(&a, ALICE, &id, |t| t["status"] == "completed");
    let text = task["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        text, "Booked seat B4 on 2025-02-03 with large popcorn and cola.",
        "{task}"
    );
}
