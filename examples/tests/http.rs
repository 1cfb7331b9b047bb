//! The HTTP serving of `elicit_rmcp::http`: TCP_NODELAY on accepted sockets, the
//! Origin and Host checks, the header-read timeout, parse errors, the session and
//! connection caps, the refusal of a non-loopback bind without `--allow-remote`, and
//! bearer tokens (401, and sealed state and tasks bound to the token's principal).
//!
//! Each test serves the ticket wizard in-process on `127.0.0.1:0` on a runtime of its
//! own, dropped (with the server) when the test ends. Requests are hand-written
//! HTTP/1.1 over a `TcpStream` with read and write timeouts, so a test controls every
//! header (`Host` included) and can send half a request.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use elicit_core::seal::Keyring;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use elicit_rmcp::http::{self, HttpOptions};
use elicit_rmcp::{Elicitor, Tasks};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// How long one request may take, connection to status line.
const REQUEST_LIMIT: Duration = Duration::from_secs(10);
/// How long a child process may take to exit on its own.
const EXIT_LIMIT: Duration = Duration::from_secs(20);
/// How long a child process may take to start listening.
const START_LIMIT: Duration = Duration::from_secs(20);

/// The ticket wizard served over HTTP on `127.0.0.1:0`; stopped on drop.
struct Server {
    runtime: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Server {
    fn start(options: HttpOptions) -> Server {
        Server::start_with_sessions(options, Arc::new(LocalSessionManager::default()))
    }

    fn start_with_sessions(options: HttpOptions, sessions: Arc<LocalSessionManager>) -> Server {
        Server::start_with(options, sessions, Tasks::new(), None)
    }

    /// A server keeping `tasks`, counting the `tasks/get` requests it is sent in `gets`.
    fn start_with(
        options: HttpOptions,
        sessions: Arc<LocalSessionManager>,
        tasks: Tasks,
        gets: Option<Arc<AtomicUsize>>,
    ) -> Server {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let elicitor = Elicitor::new(Keyring::generate()).with_tasks(tasks);
        let cinema = Arc::new(Mutex::new(Cinema::demo()));
        let mut router = http::router_with_sessions(
            move || TicketServer::new(elicitor.clone(), cinema.clone()),
            sessions,
            &options,
        );
        if let Some(gets) = gets {
            router = router.layer(axum::middleware::from_fn(
                move |request: axum::extract::Request, next: axum::middleware::Next| {
                    let method = request.headers().get("mcp-method");
                    if method.is_some_and(|m| m == "tasks/get") {
                        gets.fetch_add(1, Ordering::SeqCst);
                    }
                    next.run(request)
                },
            ));
        }
        runtime.spawn(http::serve_on(listener, router, options));
        Server {
            runtime: Some(runtime),
            addr,
        }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect_timeout(&self.addr, REQUEST_LIMIT).expect("connect");
        stream.set_read_timeout(Some(REQUEST_LIMIT)).unwrap();
        stream.set_write_timeout(Some(REQUEST_LIMIT)).unwrap();
        stream
    }

    /// The session id an `initialize` gets.
    fn new_session(&self) -> String {
        self.new_session_as(None)
    }

    /// The session id an `initialize` with bearer `token` gets.
    fn new_session_as(&self, token: Option<&str>) -> String {
        let authorization = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("Host", "127.0.0.1")];
        headers.extend(authorization.as_deref().map(|a| ("Authorization", a)));
        let mut stream = self.connect();
        stream
            .write_all(initialize_request(&headers, true).as_bytes())
            .expect("send the request");
        let head = read_head(&mut stream);
        assert_eq!(status_of(&head), 200, "{head}");
        head.lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("no session id in {head}"))
    }

    /// The status of a `method` request (`POST` with `body`, or `GET`, `DELETE`) on
    /// push-era session `session` with bearer `token`.
    fn in_session(&self, token: &str, session: &str, method: &str, body: &str) -> u16 {
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\
             Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n"
        );
        if method == "POST" {
            request.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ));
        } else {
            request.push_str("\r\n");
        }
        let mut stream = self.connect();
        stream
            .write_all(request.as_bytes())
            .expect("send the request");
        status_of(&read_head(&mut stream))
    }

    /// The status of an `initialize` POST to `/mcp` with `headers` (which must
    /// include `Host`) on a fresh connection.
    fn initialize(&self, headers: &[(&str, &str)]) -> u16 {
        let mut stream = self.connect();
        stream
            .write_all(initialize_request(headers, true).as_bytes())
            .expect("send the request");
        status_of(&read_head(&mut stream))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// An `initialize` request (2025-11-25) with `headers`.
fn initialize_request(headers: &[(&str, &str)], close: bool) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-test","version":"1.0.0"}}}"#;
    let mut request = String::from("POST /mcp HTTP/1.1\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("Content-Type: application/json\r\n");
    request.push_str("Accept: application/json, text/event-stream\r\n");
    if close {
        request.push_str("Connection: close\r\n");
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    request
}

/// Reads up to the end of the response head (or of the stream).
fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(e) => panic!("reading the response head after {head:?}: {e}"),
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// The status code of a response head (`0` when there is none).
fn status_of(head: &str) -> u16 {
    head.split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

#[test]
fn accepted_sockets_have_tcp_nodelay() {
    let with_nodelay = Arc::new(AtomicUsize::new(0));
    let without = Arc::new(AtomicUsize::new(0));
    let (yes, no) = (with_nodelay.clone(), without.clone());
    let server = Server::start(HttpOptions::default().on_accept(move |stream| {
        if stream.nodelay().unwrap_or(false) {
            yes.fetch_add(1, Ordering::SeqCst);
        } else {
            no.fetch_add(1, Ordering::SeqCst);
        }
    }));
    for _ in 0..3 {
        assert_eq!(server.initialize(&[("Host", "127.0.0.1")]), 200);
    }
    assert_eq!(with_nodelay.load(Ordering::SeqCst), 3);
    assert_eq!(without.load(Ordering::SeqCst), 0);
}

#[test]
fn sequential_requests_share_one_keep_alive_connection() {
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    let server = Server::start(HttpOptions::default().on_accept(move |_| {
        count.fetch_add(1, Ordering::SeqCst);
    }));
    let mut stream = server.connect();
    for _ in 0..5 {
        // A JSON-RPC notification is answered `202 Accepted` with no body, so the
        // connection is ready for the next request right after the head.
        let body = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("send");
        let head = read_head(&mut stream);
        let status = status_of(&head);
        assert!(status != 0 && status != 403, "{head}");
        let length: usize = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .unwrap_or(0);
        let mut body = vec![0; length];
        stream.read_exact(&mut body).expect("the response body");
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[test]
fn foreign_origin_is_refused_while_loopback_listed_and_none_pass() {
    let server = Server::start(HttpOptions::default().allowed_origin("https://app.example.com"));
    let host = ("Host", "127.0.0.1");
    assert_eq!(server.initialize(&[host]), 200, "no Origin");
    assert_eq!(
        server.initialize(&[host, ("Origin", "http://localhost:3000")]),
        200,
        "a loopback Origin"
    );
    assert_eq!(
        server.initialize(&[host, ("Origin", "http://127.0.0.1:5173")]),
        200,
        "a loopback Origin"
    );
    assert_eq!(
        server.initialize(&[host, ("Origin", "https://app.example.com")]),
        200,
        "a listed Origin"
    );
    assert_eq!(
        server.initialize(&[host, ("Origin", "http://evil.example")]),
        403,
        "a foreign Origin"
    );
    assert_eq!(
        server.initialize(&[host, ("Origin", "not an origin")]),
        403,
        "a malformed Origin"
    );
}

#[test]
fn allowed_host_lets_a_proxied_host_through() {
    let plain = Server::start(HttpOptions::default());
    assert_eq!(plain.initialize(&[("Host", "localhost:8080")]), 200);
    assert_eq!(plain.initialize(&[("Host", "mcp.example.com")]), 403);

    let proxied = Server::start(HttpOptions::default().allowed_host("mcp.example.com"));
    assert_eq!(proxied.initialize(&[("Host", "mcp.example.com")]), 200);
    assert_eq!(proxied.initialize(&[("Host", "127.0.0.1")]), 200);
    assert_eq!(proxied.initialize(&[("Host", "other.example.com")]), 403);
}

/// A refused `Host` or `Origin` says which value was refused (made safe to show) and the
/// option that allows it, so whoever runs the server behind a proxy can act on it.
#[test]
fn refusals_name_the_value_and_the_option_that_allows_it() {
    let server = Server::start(HttpOptions::default());
    let body_of = |headers: &[(&str, &str)]| {
        let mut stream = server.connect();
        stream
            .write_all(initialize_request(headers, true).as_bytes())
            .expect("send the request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("the response");
        assert_eq!(status_of(&response), 403, "{response}");
        response
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_owned())
            .unwrap_or_default()
    };
    let body = body_of(&[("Host", "mcp.example.com:8443")]);
    assert!(
        body.contains("the Host header \"mcp.example.com:8443\" is not one this server answers to")
            && body.contains("--allowed-host mcp.example.com (HttpOptions::allowed_host)"),
        "{body}"
    );
    let body = body_of(&[("Host", "127.0.0.1"), ("Origin", "https://app.example.com")]);
    assert!(
        body.contains("the Origin \"https://app.example.com\" are not allowed")
            || body.contains("of the Origin \"https://app.example.com\""),
        "{body}"
    );
    assert!(
        body.contains("--allowed-origin https://app.example.com"),
        "{body}"
    );
}

#[test]
fn half_sent_request_is_closed_after_the_header_timeout() {
    let server =
        Server::start(HttpOptions::default().header_read_timeout(Duration::from_millis(300)));
    for partial in [
        "POST /mc",
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-",
    ] {
        let mut stream = server.connect();
        stream.write_all(partial.as_bytes()).expect("send");
        // The server closes the connection (perhaps after a `408`): reading reaches
        // the end of the stream, or a reset, well before the client's own timeout.
        let mut rest = Vec::new();
        match stream.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(e) => assert_eq!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset,
                "after {partial:?}: {e}"
            ),
        }
        let reply = String::from_utf8_lossy(&rest);
        assert!(
            reply.is_empty() || status_of(&reply) == 408,
            "after {partial:?}: {reply}"
        );
    }
    // A whole request on a fresh connection is still served.
    assert_eq!(server.initialize(&[("Host", "127.0.0.1")]), 200);
}

/// The head of a POST to `/mcp` promising a body of `length` bytes.
fn post_head(length: usize) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {length}\r\n\r\n"
    )
}

/// A request whose head came whole but whose body never does is answered `408` once the
/// body timeout passes, instead of holding its connection forever.
#[test]
fn a_body_that_never_arrives_is_answered_408() {
    let server =
        Server::start(HttpOptions::default().body_read_timeout(Duration::from_millis(500)));
    let mut stream = server.connect();
    stream.write_all(post_head(100).as_bytes()).expect("send");
    stream.write_all(b"{\"jsonrpc\":").expect("send");
    let started = std::time::Instant::now();
    let head = read_head(&mut stream);
    assert_eq!(status_of(&head), 408, "{head}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    // A body larger than the server takes is refused before it is read.
    let mut stream = server.connect();
    stream
        .write_all(post_head(5 * 1024 * 1024).as_bytes())
        .expect("send");
    assert_eq!(status_of(&read_head(&mut stream)), 413);
    // A body that breaks off before its declared length is a bad request, not too large.
    let mut stream = server.connect();
    stream.write_all(post_head(100).as_bytes()).expect("send");
    stream.write_all(b"{\"jsonrpc\":").expect("send");
    stream
        .shutdown(std::net::Shutdown::Write)
        .expect("half-close");
    assert_eq!(status_of(&read_head(&mut stream)), 400);
    assert_eq!(server.initialize(&[("Host", "127.0.0.1")]), 200);
}

/// Bodies in flight share a budget of bytes, taken as the bytes arrive: while one
/// connection holds most of it with the first 900 bytes of a body it does not finish,
/// another's request waits; once the first is gone, it is served.
#[test]
fn bodies_in_flight_share_a_byte_budget() {
    let server = Server::start(
        HttpOptions::default()
            .max_inflight_body_bytes(1000)
            .body_read_timeout(Duration::from_secs(10)),
    );
    let mut holder = server.connect();
    let mut partial = post_head(950);
    partial.push_str(&" ".repeat(900));
    holder.write_all(partial.as_bytes()).expect("send");
    std::thread::sleep(Duration::from_millis(200));
    let mut waiting = server.connect();
    waiting
        .write_all(initialize_request(&[("Host", "127.0.0.1")], true).as_bytes())
        .expect("send");
    waiting
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let mut byte = [0u8; 1];
    let early = waiting.read(&mut byte);
    assert!(
        matches!(&early, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "answered while the budget was held: {early:?}"
    );
    drop(holder);
    waiting.set_read_timeout(Some(REQUEST_LIMIT)).unwrap();
    let head = read_head(&mut waiting);
    assert_eq!(status_of(&head), 200, "{head}");
    // A body without a length, with more bytes than the largest body taken (the budget,
    // here), is answered `413` once they arrive.
    let mut chunked = server.connect();
    let mut request = String::from(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    for _ in 0..3 {
        request.push_str(&format!("190\r\n{}\r\n", " ".repeat(400)));
    }
    request.push_str("0\r\n\r\n");
    chunked.write_all(request.as_bytes()).expect("send");
    assert_eq!(status_of(&read_head(&mut chunked)), 413);
}

/// A `ticket-booking --http 127.0.0.1:0` process with its default limits, killed (by its
/// PID, through its `Child`) on drop.
struct Process {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Process {
    fn start() -> Process {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ticket-booking"))
            .args(["--http", "127.0.0.1:0"])
            .env_remove("ELICIT_KEYS")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ticket-booking starts");
        let stderr = child.stderr.take().expect("piped stderr");
        // Built before waiting, so a timeout below still kills the child.
        let mut process = Process {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        // A thread drains stderr for the life of the process, so it never blocks on a
        // full pipe.
        let (lines, received) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let _ = lines.send(line);
            }
        });
        let deadline = Instant::now() + START_LIMIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match received.recv_timeout(left) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("listening on http://") {
                        let addr = url.trim().trim_end_matches("/mcp");
                        process.addr = addr.parse().expect("a socket address");
                        break;
                    }
                    seen.push(line);
                }
                Err(e) => panic!("ticket-booking did not start ({e:?}); stderr: {seen:?}"),
            }
        }
        assert!(process.addr.ip().is_loopback(), "{}", process.addr);
        process
    }

    fn connect(&self, timeout: Duration) -> TcpStream {
        let stream = TcpStream::connect_timeout(&self.addr, timeout).expect("connect");
        stream.set_read_timeout(Some(timeout)).unwrap();
        stream.set_write_timeout(Some(timeout)).unwrap();
        stream
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sockets that send a request head promising the largest body (4 MiB) and then nothing
/// hold no room among the bodies in flight: with more of them than the default budget
/// (64 MiB) would hold by their declared lengths, a fresh request is still answered at
/// once, not after their body timeout (30 s).
#[test]
fn idle_sockets_promising_large_bodies_do_not_stall_others() {
    let server = Process::start();
    let idle: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = server.connect(REQUEST_LIMIT);
            stream
                .write_all(post_head(4 * 1024 * 1024).as_bytes())
                .expect("send");
            stream
        })
        .collect();
    // Time for the server to read every head.
    std::thread::sleep(Duration::from_millis(300));
    let mut fresh = server.connect(Duration::from_secs(5));
    let started = Instant::now();
    fresh
        .write_all(initialize_request(&[("Host", "127.0.0.1")], true).as_bytes())
        .expect("send");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match fresh.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(e) => panic!(
                "no answer within {:?} with {} idle sockets: {e}",
                started.elapsed(),
                idle.len()
            ),
        }
    }
    let elapsed = started.elapsed();
    let head = String::from_utf8_lossy(&head);
    assert_eq!(status_of(&head), 200, "{head}");
    assert!(
        elapsed < Duration::from_secs(2),
        "answered after {elapsed:?} with {} idle sockets",
        idle.len()
    );
    drop(idle);
}

#[test]
fn non_loopback_bind_is_refused_without_allow_remote() {
    let options = HttpOptions::default();
    let anywhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
    assert!(
        options
            .check_bind("127.0.0.1:8080".parse().unwrap())
            .is_ok()
    );
    assert!(options.check_bind("[::1]:8080".parse().unwrap()).is_ok());
    assert!(options.check_bind(anywhere).is_err());
    assert!(
        options
            .check_bind("192.0.2.7:8080".parse().unwrap())
            .is_err()
    );
    assert!(options.allow_remote(true).check_bind(anywhere).is_ok());

    // The example servers refuse before binding anything, and say what to do.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ticket-booking"))
        .args(["--http", "0.0.0.0:0"])
        .env_remove("ELICIT_KEYS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ticket-booking starts");
    let deadline = Instant::now() + EXIT_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for ticket-booking") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = status.expect("ticket-booking --http 0.0.0.0:0 exits on its own");
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    assert!(!status.success(), "{stderr}");
    assert!(stderr.contains("--allow-remote"), "{stderr}");
    // Said as a message, not in Rust's debug quotes.
    assert!(
        stderr.starts_with("Error: refusing to serve on 0.0.0.0:0: "),
        "{stderr}"
    );
}

/// `--http` takes what people type: an address, `localhost:PORT`, or a bare port; and
/// says what it expects otherwise.
#[test]
fn http_takes_localhost_and_bare_ports() {
    use elicit_examples::servers::serve::parse_listen_addr;
    let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
    for text in [
        "127.0.0.1:8080",
        "localhost:8080",
        "8080",
        ":8080",
        " localhost:8080 ",
    ] {
        assert_eq!(parse_listen_addr(text), Ok(loopback), "{text}");
    }
    assert_eq!(
        parse_listen_addr("[::1]:8080"),
        Ok("[::1]:8080".parse().unwrap())
    );
    for text in ["localhost", "http://localhost:8080", "", "localhost:http"] {
        let error = parse_listen_addr(text).unwrap_err();
        assert!(
            error.contains("such as 127.0.0.1:8080, localhost:8080"),
            "{text}: {error}"
        );
    }
}

#[test]
fn malformed_json_is_a_json_rpc_parse_error() {
    let server = Server::start(HttpOptions::default());
    for body in ["{not json", "[1, 2", ""] {
        let mut stream = server.connect();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("send");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("the response");
        assert_eq!(status_of(&response), 400, "{body:?}: {response}");
        let json = response.split("\r\n\r\n").nth(1).unwrap_or_default();
        let json: serde_json::Value = serde_json::from_str(json).expect("a JSON body");
        assert_eq!(json["error"]["code"], -32700, "{body:?}: {response}");
        assert_eq!(json["id"], serde_json::Value::Null);
    }
}

#[test]
fn the_session_cap_closes_the_oldest_session_first() {
    let sessions = Arc::new(LocalSessionManager::default());
    let server =
        Server::start_with_sessions(HttpOptions::default().max_sessions(2), sessions.clone());
    let live = || -> Vec<String> {
        let runtime = server.runtime.as_ref().expect("the runtime");
        let map = runtime.block_on(sessions.sessions.read());
        map.keys().map(|id| id.to_string()).collect()
    };
    let first = server.new_session();
    let second = server.new_session();
    assert_eq!(live().len(), 2);
    let third = server.new_session();
    let now = live();
    assert_eq!(now.len(), 2, "{now:?}");
    assert!(!now.contains(&first), "{now:?}");
    assert!(now.contains(&second) && now.contains(&third), "{now:?}");
    let fourth = server.new_session();
    let now = live();
    assert_eq!(now.len(), 2, "{now:?}");
    assert!(now.contains(&third) && now.contains(&fourth), "{now:?}");
}

/// Live session ids of `sessions`, read on `server`'s runtime.
fn live_sessions(server: &Server, sessions: &LocalSessionManager) -> Vec<String> {
    let runtime = server.runtime.as_ref().expect("the runtime");
    let map = runtime.block_on(sessions.sessions.read());
    map.keys().map(|id| id.to_string()).collect()
}

/// A push-era session is its opener's: another principal naming it (to post an answer,
/// listen, or close it) is answered as for an unknown session, and closes nothing.
#[test]
fn a_session_answers_only_the_principal_that_opened_it() {
    let sessions = Arc::new(LocalSessionManager::default());
    let server = Server::start_with_sessions(with_tokens(), sessions.clone());
    let alice = "alice-token-0123456789abcdef";
    let bob = "bob-token-0123456789abcdefgh";
    let session = server.new_session_as(Some(alice));
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(server.in_session(alice, &session, "POST", initialized), 202);
    // What mallory did with alice's session id and his own token: answer her pending
    // question (a JSON-RPC response), list tools, listen, close it.
    let answer =
        r#"{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{"approve":true}}}"#;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#;
    assert_eq!(server.in_session(bob, &session, "POST", answer), 404);
    assert_eq!(server.in_session(bob, &session, "POST", list), 404);
    assert_eq!(server.in_session(bob, &session, "GET", ""), 404);
    // An unknown session id is answered the same.
    assert_eq!(server.in_session(bob, "no-such-session", "POST", list), 404);
    server.in_session(bob, &session, "DELETE", "");
    assert_eq!(live_sessions(&server, &sessions), vec![session.clone()]);
    // Alice's session is untouched and hers.
    assert_eq!(server.in_session(alice, &session, "POST", list), 200);
    assert_eq!(server.in_session(alice, &session, "DELETE", ""), 202);
    assert!(live_sessions(&server, &sessions).is_empty());
}

/// One principal opening many sessions closes only its own: past its quota its oldest,
/// past the total cap the oldest of whoever holds the most.
#[test]
fn one_principals_sessions_never_close_anothers() {
    let alice = "alice-token-0123456789abcdef";
    let bob = "bob-token-0123456789abcdefgh";
    // Alice opens one session, then bob twenty, under `options`: the live sessions, and
    // which were expected (alice's and bob's newest two).
    let run = |options: HttpOptions| {
        let sessions = Arc::new(LocalSessionManager::default());
        let server = Server::start_with_sessions(options, sessions.clone());
        let hers = server.new_session_as(Some(alice));
        let his: Vec<String> = (0..20).map(|_| server.new_session_as(Some(bob))).collect();
        let mut live = live_sessions(&server, &sessions);
        live.sort();
        let mut expected = vec![hers.clone(), his[18].clone(), his[19].clone()];
        expected.sort();
        assert_eq!(live, expected);
        (server, sessions, hers, his)
    };
    // The quota: bob keeps his newest 2, alice keeps hers.
    drop(run(with_tokens()
        .max_sessions(8)
        .max_sessions_per_principal(2)));
    // The total cap, with no quota to speak of: bob fills it, alice's session stays.
    let (server, sessions, hers, his) = run(with_tokens()
        .max_sessions(3)
        .max_sessions_per_principal(100));
    // Alice's next session past the cap closes bob's oldest (he holds the most).
    let second = server.new_session_as(Some(alice));
    let mut live = live_sessions(&server, &sessions);
    live.sort();
    let mut expected = vec![hers, second, his[19].clone()];
    expected.sort();
    assert_eq!(live, expected);
}

#[test]
fn connections_past_the_cap_wait_until_one_closes() {
    let server = Server::start(HttpOptions::default().max_connections(1));
    // The one slot: a connection that has sent nothing yet.
    let first = server.connect();
    // Sent in full, but not accepted while the first connection holds the slot.
    let mut second = server.connect();
    second
        .write_all(initialize_request(&[("Host", "127.0.0.1")], true).as_bytes())
        .expect("send the request");
    second
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    match second.read(&mut [0u8; 1]) {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) => {}
        other => panic!("the second connection was served past the cap: {other:?}"),
    }
    drop(first);
    second.set_read_timeout(Some(REQUEST_LIMIT)).unwrap();
    let head = read_head(&mut second);
    assert_eq!(status_of(&head), 200, "{head}");
}

/// Two bearer tokens, for alice and bob.
fn with_tokens() -> HttpOptions {
    HttpOptions::default()
        .bearer_token("alice-token-0123456789abcdef", "alice")
        .bearer_token("bob-token-0123456789abcdefgh", "bob")
}

#[test]
fn a_missing_or_unknown_bearer_token_is_401() {
    let server = Server::start(with_tokens());
    for authorization in [
        None,
        Some("Bearer wrong-token-0123456789abcdef"),
        Some("Bearer alice-token-0123456789abcde"),
        Some("Basic YWxpY2U6c2VjcmV0"),
        Some("Bearer"),
    ] {
        let mut headers = vec![("Host", "127.0.0.1")];
        headers.extend(authorization.map(|a| ("Authorization", a)));
        let mut stream = server.connect();
        stream
            .write_all(initialize_request(&headers, true).as_bytes())
            .expect("send the request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("the response");
        assert_eq!(status_of(&response), 401, "{authorization:?}: {response}");
        assert!(
            response
                .to_ascii_lowercase()
                .contains("www-authenticate: bearer"),
            "{response}"
        );
    }
    for token in [
        "alice-token-0123456789abcdef",
        "bob-token-0123456789abcdefgh",
    ] {
        let authorization = format!("bearer {token}");
        let status = server.initialize(&[
            ("Host", "127.0.0.1"),
            ("Authorization", authorization.as_str()),
        ]);
        assert_eq!(status, 200, "{token}");
    }
}

/// A stateless (2026-07-28) `tools/call book_tickets` with `authorization`, and the
/// state and answers of a retry; the JSON-RPC response.
fn call_book_tickets(
    server: &Server,
    authorization: &str,
    retry: Option<&str>,
) -> serde_json::Value {
    let mut params = serde_json::json!({"name": "book_tickets", "arguments": {}});
    if let Some(state) = retry {
        params["requestState"] = state.into();
        params["inputResponses"] = serde_json::json!({});
    }
    let capabilities = serde_json::json!({"elicitation": {}});
    stateless(
        server,
        authorization,
        "tools/call",
        "book_tickets",
        params,
        capabilities,
    )
}

/// A stateless (2026-07-28) request `method` with `params` and `authorization`, from a
/// client with `capabilities`; `name` is its `Mcp-Name` header. The JSON-RPC response.
fn stateless(
    server: &Server,
    authorization: &str,
    method: &str,
    name: &str,
    params: serde_json::Value,
    capabilities: serde_json::Value,
) -> serde_json::Value {
    let response = stateless_http(server, authorization, method, name, params, capabilities);
    assert_eq!(status_of(&response), 200, "{response}");
    message_of(&response)
}

/// [`stateless`], the whole HTTP response (head and body) as read.
fn stateless_http(
    server: &Server,
    authorization: &str,
    method: &str,
    name: &str,
    mut params: serde_json::Value,
    capabilities: serde_json::Value,
) -> String {
    params["_meta"] = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "1.0.0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
        .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {authorization}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\nMcp-Name: {name}\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = server.connect();
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("the response");
    response
}

/// The JSON-RPC response (id 7) in an HTTP response: the whole body, or the `data:` line
/// of an SSE event.
fn message_of(response: &str) -> serde_json::Value {
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .chain(std::iter::once(body))
        .find_map(|data| {
            let message: serde_json::Value = serde_json::from_str(data.trim()).ok()?;
            (message["id"] == 7).then_some(message)
        })
        .unwrap_or_else(|| panic!("no JSON-RPC response in {response}"))
}

/// A 2026-07-28 round is answered with an SSE stream by default, and with one
/// `application/json` body under `json_responses(true)`; the message is the same.
#[test]
fn json_responses_answer_a_round_with_a_json_body() {
    for (options, content_type) in [
        (HttpOptions::default(), "text/event-stream"),
        (
            HttpOptions::default().json_responses(true),
            "application/json",
        ),
    ] {
        let server = Server::start(options);
        let params = serde_json::json!({"name": "book_tickets", "arguments": {}});
        let capabilities = serde_json::json!({"elicitation": {}});
        let response = stateless_http(
            &server,
            "unused",
            "tools/call",
            "book_tickets",
            params,
            capabilities,
        );
        assert_eq!(status_of(&response), 200, "{response}");
        let head = response
            .split_once("\r\n\r\n")
            .map_or("", |(head, _)| head)
            .to_ascii_lowercase();
        assert!(
            head.contains(&format!("\r\ncontent-type: {content_type}")),
            "{head}"
        );
        let message = message_of(&response);
        assert_eq!(
            message["result"]["resultType"], "input_required",
            "{message}"
        );
    }
}

#[test]
fn sealed_state_is_bound_to_the_bearer_tokens_principal() {
    let server = Server::start(with_tokens());
    let first = call_book_tickets(&server, "alice-token-0123456789abcdef", None);
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"]
        .as_str()
        .expect("a requestState")
        .to_owned();
    // Bob cannot continue alice's call with her state.
    let stolen = call_book_tickets(&server, "bob-token-0123456789abcdefgh", Some(&state));
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    let message = stolen["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("requestState of this retry was refused"),
        "{message}"
    );
    // Alice can: her retry without an answer is asked the same question again.
    let again = call_book_tickets(&server, "alice-token-0123456789abcdef", Some(&state));
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_eq!(
        again["result"]["inputRequests"], first["result"]["inputRequests"],
        "{again}"
    );
}

#[test]
fn a_task_is_bound_to_the_bearer_tokens_principal() {
    let server = Server::start(with_tokens());
    let alice = "alice-token-0123456789abcdef";
    let bob = "bob-token-0123456789abcdefgh";
    let capabilities = serde_json::json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}},
    });
    let created = stateless(
        &server,
        alice,
        "tools/call",
        "book_tickets",
        serde_json::json!({"name": "book_tickets", "arguments": {}}),
        capabilities.clone(),
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().expect("a task id");
    let task = |who: &str, method: &str| {
        let params = serde_json::json!({"taskId": id});
        stateless(&server, who, method, id, params, capabilities.clone())
    };
    // To bob, alice's task does not exist: he can neither read nor cancel it.
    for method in ["tasks/get", "tasks/cancel"] {
        let refused = task(bob, method);
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        assert_eq!(
            refused["error"]["message"],
            format!("unknown task: {id}"),
            "{method}"
        );
    }
    // Alice's task is still there, waiting for her first answer.
    let got = task(alice, "tasks/get");
    assert_eq!(got["result"]["status"], "input_required", "{got}");
    let cancelled = task(alice, "tasks/cancel");
    assert!(cancelled.get("error").is_none(), "{cancelled}");
}

/// The capabilities of a 2026-07-28 client of the Tasks extension.
fn task_client() -> serde_json::Value {
    serde_json::json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
}

/// A new `book_tickets` task of the bearer of `token`: its id.
fn new_task(server: &Server, token: &str) -> String {
    let created = stateless(
        server,
        token,
        "tools/call",
        "book_tickets",
        serde_json::json!({"name": "book_tickets", "arguments": {}}),
        task_client(),
    );
    created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task id in {created}"))
        .to_owned()
}

/// Cancels task `id` of the bearer of `token`.
fn cancel_task(server: &Server, token: &str, id: &str) {
    let params = serde_json::json!({"taskId": id});
    let cancelled = stateless(server, token, "tasks/cancel", id, params, task_client());
    assert!(cancelled.get("error").is_none(), "{cancelled}");
}

/// A `subscriptions/listen` (id 9) of the bearer of `token` for `task_ids`: its SSE
/// stream, read one `notifications/tasks` at a time (the task, as `tasks/get` gives it).
struct Listening(std::io::Lines<std::io::BufReader<TcpStream>>);

impl Listening {
    fn open(server: &Server, token: &str, task_ids: &[&str]) -> Listening {
        use std::io::BufRead;
        let meta = serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "1.0.0"},
            "io.modelcontextprotocol/clientCapabilities": task_client(),
        });
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
            "params": {"notifications": {"taskIds": task_ids}, "_meta": meta}})
        .to_string();
        let mut stream = server.connect();
        stream
            .write_all(
                format!(
                    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\
                     Content-Type: application/json\r\nAccept: application/json, \
                     text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: \
                     subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            )
            .unwrap();
        Listening(std::io::BufReader::new(stream).lines())
    }

    /// The next JSON-RPC message on the stream (within the connection's read limit).
    fn next_message(&mut self) -> serde_json::Value {
        loop {
            let line = self
                .0
                .next()
                .expect("the stream stays open")
                .expect("a message in time");
            if let Some(data) = line.strip_prefix("data:")
                && let Ok(message) = serde_json::from_str(data.trim())
            {
                return message;
            }
        }
    }

    /// The JSON-RPC response (id 9) that ends the subscription.
    fn response(&mut self) -> serde_json::Value {
        loop {
            let message = self.next_message();
            if message["id"] == 9 {
                return message;
            }
        }
    }

    /// The next task told.
    fn next_task(&mut self) -> serde_json::Value {
        loop {
            let message = self.next_message();
            if message["method"] == "notifications/tasks" {
                let params = &message["params"];
                assert_eq!(
                    params["_meta"]["io.modelcontextprotocol/subscriptionId"], 9,
                    "{message}"
                );
                return params.clone();
            }
        }
    }
}

/// The answers a person taking the first choice of every field (and no popcorn) gives
/// to the questions of `task`, for `tasks/update`.
fn first_choices(task: &serde_json::Value) -> serde_json::Value {
    let mut answers = serde_json::Map::new();
    for (key, request) in task["inputRequests"].as_object().expect("questions") {
        let schema = &request["params"]["requestedSchema"]["properties"];
        let mut content = serde_json::Map::new();
        for (name, field) in schema.as_object().expect("fields") {
            let value = match field["type"].as_str() {
                Some("boolean") => false.into(),
                _ if !field["enum"][0].is_null() => field["enum"][0].clone(),
                _ => field["oneOf"][0]["const"].clone(),
            };
            content.insert(name.clone(), value);
        }
        answers.insert(
            key.clone(),
            serde_json::json!({"action": "accept", "content": content}),
        );
    }
    serde_json::Value::Object(answers)
}

/// `subscriptions/listen` with `taskIds` (which rmcp's filter type drops; the HTTP layer
/// reads them) is told each status of the caller's task as `notifications/tasks`:
/// `input_required` with its questions, answered through `tasks/update` from the
/// notifications alone, until `completed` with the booking.
#[test]
fn a_task_subscription_is_told_each_status_until_completed() {
    let server = Server::start(HttpOptions::default());
    let id = new_task(&server, "unused");
    let mut listening = Listening::open(&server, "unused", &[&id, "not-a-task"]);
    let mut statuses = Vec::new();
    loop {
        let task = listening.next_task();
        assert_eq!(task["taskId"], id.as_str(), "{task}");
        let status = task["status"].as_str().unwrap_or_default().to_owned();
        statuses.push(status.clone());
        match status.as_str() {
            "input_required" => {
                let params =
                    serde_json::json!({"taskId": id, "inputResponses": first_choices(&task)});
                let updated = stateless(
                    &server,
                    "unused",
                    "tasks/update",
                    &id,
                    params,
                    task_client(),
                );
                assert!(updated.get("error").is_none(), "{updated}");
            }
            "completed" => {
                let text = &task["result"]["content"][0]["text"];
                assert_eq!(text, "Booked seat A1 on 2025-02-03 with water.", "{task}");
                break;
            }
            "working" => {}
            other => panic!("a task {other}: {task}"),
        }
    }
    // Three questions (date, seat, snacks), each told once, then the end.
    assert_eq!(
        statuses.iter().filter(|s| *s == "input_required").count(),
        3,
        "{statuses:?}"
    );
}

/// A subscription is told only of its own principal's tasks: another's id in `taskIds`
/// is passed over, as `tasks/get` would not tell it from an unknown one.
#[test]
fn a_task_subscription_hears_nothing_of_anothers_tasks() {
    let server = Server::start(with_tokens());
    let (alice, bob) = (
        "alice-token-0123456789abcdef",
        "bob-token-0123456789abcdefgh",
    );
    let hers = new_task(&server, alice);
    let his = new_task(&server, bob);
    // Both wait for their first answer from the start.
    let mut listening = Listening::open(&server, bob, &[&hers, &his]);
    let first = listening.next_task();
    assert_eq!(first["taskId"], his.as_str(), "{first}");
    assert_eq!(first["status"], "input_required", "{first}");
    cancel_task(&server, bob, &his);
    loop {
        let task = listening.next_task();
        assert_eq!(task["taskId"], his.as_str(), "told of alice's task: {task}");
        if task["status"] == "cancelled" {
            break;
        }
    }
}

/// One principal holds at most 8 task subscriptions open: the ninth is refused with a
/// JSON-RPC error, another principal is not held back, and a subscription whose tasks
/// have all ended ends, making room.
#[test]
fn task_subscriptions_are_capped_per_principal() {
    let server = Server::start(with_tokens());
    let (alice, bob) = (
        "alice-token-0123456789abcdef",
        "bob-token-0123456789abcdefgh",
    );
    let his = new_task(&server, bob);
    let mut open: Vec<Listening> = (0..8)
        .map(|_| {
            let mut listening = Listening::open(&server, bob, &[&his]);
            assert_eq!(listening.next_task()["taskId"], his.as_str());
            listening
        })
        .collect();
    let refused = Listening::open(&server, bob, &[&his]).response();
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("too many subscriptions"), "{message}");
    // Alice is not held back by bob's.
    let hers = new_task(&server, alice);
    let mut listening = Listening::open(&server, alice, &[&hers]);
    assert_eq!(listening.next_task()["taskId"], hers.as_str());
    // Bob's task ends: each of his subscriptions is told so and ends, and he has room.
    cancel_task(&server, bob, &his);
    for listening in &mut open {
        while listening.next_task()["status"] != "cancelled" {}
        let ended = listening.response();
        assert!(ended.get("error").is_none(), "{ended}");
    }
    let another = new_task(&server, bob);
    let mut listening = Listening::open(&server, bob, &[&another]);
    assert_eq!(listening.next_task()["taskId"], another.as_str());
}

/// The client kit follows a task through the server's `notifications/tasks`: the
/// booking's states (date, seat, snacks, then the result) reach it told, `tasks/get`
/// read only until the subscription's first notification arrives (at the start, and
/// at most once more on a machine slow to send it); polled, it is read once per state
/// at least (four).
#[test]
fn the_client_kit_follows_a_task_through_its_notifications() {
    use elicit_examples::script::Script;
    use elicit_rmcp::client::{FormClient, call_tool};
    use rmcp::model::{CallToolRequestParams, ProtocolVersion};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    use rmcp::transport::StreamableHttpClientTransport;

    let gets = Arc::new(AtomicUsize::new(0));
    let server = Server::start_with(
        HttpOptions::default(),
        Arc::new(LocalSessionManager::default()),
        Tasks::new(),
        Some(gets.clone()),
    );
    let script: Script = r#"[
        {"fields": ["date"], "action": "accept", "content": {"date": "2025-02-03"}},
        {"fields": ["seat"], "action": "accept", "content": {"seat": "A1"}},
        {"fields": ["popcorn", "drink"], "action": "accept", "content": {"popcorn": false}}
    ]"#
    .parse()
    .expect("a script");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let text = runtime.block_on(async {
        let transport =
            StreamableHttpClientTransport::from_uri(format!("http://{}/mcp", server.addr));
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let client = FormClient::new(script).with_tasks(true);
        let client = tokio::time::timeout(
            REQUEST_LIMIT,
            client.serve_with_lifecycle(transport, lifecycle),
        )
        .await
        .expect("bounded")
        .expect("connected");
        let call = call_tool(&client, CallToolRequestParams::new("book_tickets"));
        let result = tokio::time::timeout(Duration::from_secs(30), call)
            .await
            .expect("bounded")
            .expect("booked");
        result.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default()
    });
    assert_eq!(text, "Booked seat A1 on 2025-02-03 with no snacks.");
    let gets = gets.load(Ordering::SeqCst);
    assert!(gets <= 2, "{gets} tasks/get: the task was polled, not told");
}
