//! A client that goes away in the middle of the ticket wizard leaks nothing, in every
//! era the server speaks (issue #7).
//!
//! Push mode (2025-06-18 and 2025-11-25), over an in-process duplex stream and over
//! Streamable HTTP on 127.0.0.1 with sessions: 50 clients per era answer the date,
//! and while the server waits for their seat they leave — the connection is cut, or
//! its input closed, or the HTTP session deleted, or the call cancelled first. Then,
//! within a bound: every server-side call future is dropped (a guard in the call
//! counts them), every server instance is dropped with the cinema it shares (the
//! `Arc`'s strong count is back to its baseline), every HTTP session is gone, the
//! runtime has no more tasks than before, nothing was sold, and a fresh client still
//! books a seat.
//!
//! The client never talks to the server directly: a proxy sits in between, so the
//! test can cut the wire (or close one direction) exactly while the question is open.
//!
//! How long the server takes to let go is rmcp's, and measured here: a cut or closed
//! connection, or a deleted session, releases the call 5 s later (rmcp's serve loop
//! waits that long for running handlers once its input has ended, and the call is
//! one of them, waiting for the answer rmcp will only fail once it stops waiting); a
//! cut HTTP connection without `DELETE` keeps its session, as the spec asks (a
//! disconnection is not a cancellation; the client may resume the stream), until the
//! session's idle timeout. A cancelled call (`notifications/cancelled`) stops at
//! once.
//!
//! Rounds (2026-07-28): nothing is held between rounds by design; abandoned wizards
//! leave no call, instance or session behind, and their `requestState` still
//! resumes from another connection.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use elicit_core::seal::{Key, Keyring};
use elicit_examples::servers::serve::{http_router_with_sessions, serve_router};
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use elicit_rmcp::Elicitor;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ClientRequest, ElicitRequestParams, ElicitResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, Request, ServerConfig,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RequestContext, RequestHandle,
    RoleClient, RoleServer, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ClientHandler, ErrorData, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

/// Upper bound on any single await of a test.
const LIMIT: Duration = Duration::from_secs(10);
/// How long the server may take to let go of an abandoned wizard. rmcp's serve loop,
/// once its input ends, waits up to 5 s for the handlers still running (a call
/// waiting for an answer is one) before it drops them; an HTTP session without a
/// `DELETE` first has to reach its idle timeout (1 s here).
const SETTLE: Duration = Duration::from_secs(9);
/// Abandoned wizards per era and test.
const WIZARDS: usize = 50;

const PUSH_ERAS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25];

// ------------------------------------------------------------------ the server side

/// The ticket server with a guard in every call: `live` counts the call futures that
/// have not been dropped yet (they own the wizard, its snapshot of the cinema and the
/// open question).
#[derive(Clone)]
struct Tracked {
    inner: TicketServer,
    live: Arc<AtomicUsize>,
}

struct Live(Arc<AtomicUsize>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ServerHandler for Tracked {
    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    async fn list_tools(
        &self,
        params: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.inner.list_tools(params, ctx).await
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.live.fetch_add(1, Ordering::SeqCst);
        let _live = Live(self.live.clone());
        self.inner.call_tool(params, ctx).await
    }
}

/// What the server holds, seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    /// Tool-call futures not dropped yet.
    calls: usize,
    /// Server handler instances alive (each holds the cinema's `Arc`).
    servers: usize,
    /// Streamable HTTP sessions in the session manager.
    sessions: usize,
}

/// One server (its cinema, its key, its call guard, its HTTP sessions if served so).
struct Fixture {
    cinema: Arc<Mutex<Cinema>>,
    live: Arc<AtomicUsize>,
    elicitor: Elicitor,
    sessions: Arc<LocalSessionManager>,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            cinema: Arc::new(Mutex::new(Cinema::demo())),
            live: Arc::default(),
            elicitor: Elicitor::new(Keyring::new("k1", Key::generate()).unwrap()),
            sessions: Arc::new(LocalSessionManager::default()),
        }
    }

    fn server(&self) -> Tracked {
        Tracked {
            inner: TicketServer::new(self.elicitor.clone(), self.cinema.clone()),
            live: self.live.clone(),
        }
    }

    async fn held(&self) -> Held {
        let sessions = tokio::time::timeout(LIMIT, self.sessions.sessions.read())
            .await
            .expect("bounded")
            .len();
        Held {
            calls: self.live.load(Ordering::SeqCst),
            // The fixture's own reference is not a server.
            servers: Arc::strong_count(&self.cinema) - 1,
            sessions,
        }
    }

    /// Polls until the server holds `want` (at most `limit`): how long it took.
    async fn settle(&self, want: Held, limit: Duration) -> Duration {
        let started = Instant::now();
        loop {
            let held = self.held().await;
            if held == want {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < limit,
                "still held after {:?}: {held:?}, want {want:?}",
                started.elapsed()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn inventory(&self) -> String {
        format!("{:?}", *self.cinema.lock().unwrap())
    }

    fn untouched(&self) -> bool {
        self.inventory() == format!("{:?}", Cinema::demo())
    }

    /// Serves Streamable HTTP on 127.0.0.1:0 with this fixture's session manager.
    async fn serve_http(&self) -> (SocketAddr, JoinHandle<()>) {
        let server = self.server();
        let router = http_router_with_sessions(move || server.clone(), self.sessions.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let _ = serve_router(listener, router).await;
        });
        (addr, task)
    }
}

/// Polls until the runtime has at most `baseline` tasks alive: how many there are.
async fn tasks_settle(baseline: usize) -> usize {
    let metrics = tokio::runtime::Handle::current().metrics();
    let started = Instant::now();
    loop {
        let alive = metrics.num_alive_tasks();
        if alive <= baseline || started.elapsed() > SETTLE {
            return alive;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// ------------------------------------------------------------------ the client side

/// A person at the client: answers from a script, then, at the first question the
/// script has no answer for, reports that it is there and waits (the form stays open)
/// until released or until the server withdraws the question.
#[derive(Clone)]
struct Person {
    version: ProtocolVersion,
    answers: Arc<Mutex<VecDeque<Value>>>,
    parked: mpsc::UnboundedSender<()>,
    release: watch::Receiver<bool>,
    withdrawn: Arc<AtomicUsize>,
}

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        ClientConfig::new(capabilities, Implementation::new("person", "0.0.0"))
            .with_protocol_version(self.version.clone())
    }

    async fn create_elicitation(
        &self,
        _: ElicitRequestParams,
        ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let next = self.answers.lock().unwrap().pop_front();
        if let Some(answer) = next {
            return serde_json::from_value(answer)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None));
        }
        let _ = self.parked.send(());
        let mut release = self.release.clone();
        tokio::select! {
            _ = release.wait_for(|r| *r) => {}
            _ = ctx.ct.cancelled() => {
                self.withdrawn.fetch_add(1, Ordering::SeqCst);
            }
        }
        // Whatever is sent now reaches nobody: the user has left.
        Err(ErrorData::internal_error("the user left", None))
    }
}

/// The people of one test: the channel they report on and the switch that releases
/// them (once the connection is gone, so their replies reach nobody).
struct Crowd {
    parked_tx: mpsc::UnboundedSender<()>,
    parked: mpsc::UnboundedReceiver<()>,
    release_tx: watch::Sender<bool>,
    release: watch::Receiver<bool>,
    withdrawn: Arc<AtomicUsize>,
}

impl Crowd {
    fn new() -> Crowd {
        let (parked_tx, parked) = mpsc::unbounded_channel();
        let (release_tx, release) = watch::channel(false);
        Crowd {
            parked_tx,
            parked,
            release_tx,
            release,
            withdrawn: Arc::default(),
        }
    }

    fn person(&self, version: ProtocolVersion, answers: Vec<Value>) -> Person {
        Person {
            version,
            answers: Arc::new(Mutex::new(answers.into())),
            parked: self.parked_tx.clone(),
            release: self.release.clone(),
            withdrawn: self.withdrawn.clone(),
        }
    }

    /// Someone who picks the date and then leaves at the seat.
    fn leaver(&self, version: ProtocolVersion) -> Person {
        self.person(version, vec![accept(json!({"date": "2025-02-03"}))])
    }

    /// Someone who books seat B4 on 2025-02-03, no snacks.
    fn booker(&self, version: ProtocolVersion) -> Person {
        self.person(
            version,
            vec![
                accept(json!({"date": "2025-02-03"})),
                accept(json!({"seat": "B4"})),
                accept(json!({"popcorn": false})),
            ],
        )
    }

    /// Waits until `n` people sit in front of an open question.
    async fn wait_parked(&mut self, n: usize) {
        for i in 0..n {
            tokio::time::timeout(LIMIT, self.parked.recv())
                .await
                .unwrap_or_else(|_| panic!("only {i} of {n} reached the seat question"))
                .expect("open channel");
        }
    }

    fn release_all(&self) {
        let _ = self.release_tx.send(true);
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn book_tickets() -> ClientRequest {
    ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("book_tickets")))
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A client in the middle of `book_tickets`.
struct Leaving {
    running: RunningService<RoleClient, Person>,
    call: RequestHandle<RoleClient>,
}

/// Sends `book_tickets` without waiting for its result.
async fn start_wizard(running: RunningService<RoleClient, Person>) -> Leaving {
    let call = tokio::time::timeout(
        LIMIT,
        running
            .peer()
            .send_request_with_option(book_tickets(), PeerRequestOptions::no_options()),
    )
    .await
    .expect("bounded")
    .expect("sent");
    Leaving { running, call }
}

impl Leaving {
    /// After the connection is gone: the client's own call ends too, with an error.
    async fn finish_gone(self) {
        let result = tokio::time::timeout(LIMIT, self.call.await_response())
            .await
            .expect("the client's call ends once the connection is gone");
        assert!(result.is_err(), "no result after leaving: {result:?}");
        drop(self.running);
    }

    /// The client process is gone: its call and service are dropped unanswered. (Over
    /// HTTP rmcp's client would otherwise keep trying to resume its cut stream.)
    fn drop_client(self) {
        drop(self.call);
        drop(self.running);
    }
}

// ------------------------------------------------------------------ the wire

/// A duplex link between one client and one server, through a proxy task.
struct Link {
    close_input: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Link {
    /// Both directions gone at once, as when the client process dies.
    fn cut(mut self) {
        self.close_input.take();
        self.task.abort();
    }

    /// The server's input ends (EOF) and its output stays open: a client closing the
    /// server's stdin, the clean shutdown of the stdio transport.
    fn close_input(mut self) {
        if let Some(stop) = self.close_input.take() {
            let _ = stop.send(());
        }
    }
}

/// Connects `person` to a fresh instance of the fixture's server over duplex streams
/// (rmcp's discovery lifecycle for 2026-07-28 when `lifecycle` says so).
async fn connect_duplex(
    server: Tracked,
    person: Person,
    lifecycle: Option<ClientLifecycleMode>,
) -> (RunningService<RoleClient, Person>, Link) {
    let (server_io, proxy_server) = tokio::io::duplex(1 << 16);
    let (client_io, proxy_client) = tokio::io::duplex(1 << 16);
    let (close_input, input_closed) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let (mut from_client, mut to_client) = tokio::io::split(proxy_client);
        let (mut from_server, mut to_server) = tokio::io::split(proxy_server);
        let up = async {
            tokio::select! {
                _ = tokio::io::copy(&mut from_client, &mut to_server) => {}
                _ = input_closed => {}
            }
            let _ = to_server.shutdown().await;
        };
        let down = async {
            let _ = tokio::io::copy(&mut from_server, &mut to_client).await;
            let _ = to_client.shutdown().await;
        };
        tokio::join!(up, down);
    });
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let running = match lifecycle {
        Some(mode) => {
            tokio::time::timeout(LIMIT, person.serve_with_lifecycle(client_io, mode)).await
        }
        None => tokio::time::timeout(LIMIT, person.serve(client_io)).await,
    };
    let running = running.expect("bounded").expect("client starts");
    let link = Link {
        close_input: Some(close_input),
        task,
    };
    (running, link)
}

/// A TCP proxy on 127.0.0.1:0 to `target`; aborting its task closes the listener and
/// every connection at once.
async fn tcp_proxy(target: SocketAddr) -> (SocketAddr, JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let mut connections = tokio::task::JoinSet::new();
        while let Ok((mut inbound, _)) = listener.accept().await {
            connections.spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (addr, task)
}

async fn connect_http(
    addr: SocketAddr,
    person: Person,
    lifecycle: Option<ClientLifecycleMode>,
) -> RunningService<RoleClient, Person> {
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    let running = match lifecycle {
        Some(mode) => {
            tokio::time::timeout(LIMIT, person.serve_with_lifecycle(transport, mode)).await
        }
        None => tokio::time::timeout(LIMIT, person.serve(transport)).await,
    };
    running.expect("bounded").expect("client starts")
}

/// `DELETE /mcp` for a session, straight to the server: the client ending it.
async fn delete_session(server: SocketAddr, id: &str) {
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(server).await.unwrap();
        let request = format!(
            "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: {id}\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        reply
    };
    let reply = tokio::time::timeout(LIMIT, exchange)
        .await
        .expect("bounded");
    let status = reply.lines().next().unwrap_or_default();
    assert!(status.starts_with("HTTP/1.1 202"), "DELETE: {status}");
}

/// A fresh client books seat B4; the cinema has sold exactly that seat afterwards.
async fn fresh_booking(fixture: &Fixture, running: RunningService<RoleClient, Person>) {
    let result = tokio::time::timeout(
        LIMIT,
        running.call_tool(CallToolRequestParams::new("book_tickets")),
    )
    .await
    .expect("bounded")
    .expect("booked");
    assert_eq!(
        text(&result),
        "Booked seat B4 on 2025-02-03 with no snacks."
    );
    let mut expected = Cinema::demo();
    assert!(expected.take("2025-02-03", "B4"));
    assert_eq!(fixture.inventory(), format!("{expected:?}"));
    let mut running = running;
    tokio::time::timeout(LIMIT, running.close())
        .await
        .expect("bounded")
        .expect("closed");
}

/// `WIZARDS` leavers per push era, each on its own duplex connection, all started at
/// once; returns when every one of them sits at the seat question.
async fn duplex_crowd(fixture: &Fixture, crowd: &mut Crowd) -> Vec<(Leaving, Link)> {
    let mut starting = tokio::task::JoinSet::new();
    for version in PUSH_ERAS {
        for _ in 0..WIZARDS {
            let (server, person) = (fixture.server(), crowd.leaver(version.clone()));
            starting.spawn(async move {
                let (running, link) = connect_duplex(server, person, None).await;
                (start_wizard(running).await, link)
            });
        }
    }
    let leaving = tokio::time::timeout(LIMIT, starting.join_all())
        .await
        .expect("bounded");
    crowd.wait_parked(leaving.len()).await;
    leaving
}

/// The same over Streamable HTTP to `addr`: one session per leaver.
async fn http_crowd(addr: SocketAddr, crowd: &mut Crowd) -> Vec<Leaving> {
    let mut starting = tokio::task::JoinSet::new();
    for version in PUSH_ERAS {
        for _ in 0..WIZARDS {
            let person = crowd.leaver(version.clone());
            starting
                .spawn(async move { start_wizard(connect_http(addr, person, None).await).await });
        }
    }
    let leaving = tokio::time::timeout(LIMIT, starting.join_all())
        .await
        .expect("bounded");
    crowd.wait_parked(leaving.len()).await;
    leaving
}

fn alive_tasks() -> usize {
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

// ------------------------------------------------------------------ push, duplex

/// `how` makes every parked client leave; the server must let go of everything.
async fn duplex_leave(how: fn(Link)) {
    let started = Instant::now();
    let fixture = Fixture::new();
    let baseline = fixture.held().await;
    assert_eq!(
        baseline,
        Held {
            calls: 0,
            servers: 0,
            sessions: 0
        }
    );
    let tasks = alive_tasks();
    let mut crowd = Crowd::new();
    let leaving = duplex_crowd(&fixture, &mut crowd).await;
    let n = leaving.len();
    let tasks_during = alive_tasks();
    let during = fixture.held().await;
    assert_eq!(
        during,
        Held {
            calls: n,
            servers: n,
            sessions: 0
        }
    );

    let mut calls = Vec::new();
    for (call, link) in leaving {
        how(link);
        calls.push(call);
    }
    crowd.release_all();
    let took = fixture.settle(baseline, SETTLE).await;
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    for call in calls {
        call.finish_gone().await;
    }
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    eprintln!(
        "duplex: {n} wizards held {during:?}; back to {baseline:?} {took:?} after leaving; tasks {tasks} -> {tasks_during} -> {alive}"
    );

    let (running, link) = connect_duplex(
        fixture.server(),
        crowd.booker(ProtocolVersion::V_2025_11_25),
        None,
    )
    .await;
    fresh_booking(&fixture, running).await;
    drop(link);
    fixture.settle(baseline, LIMIT).await;
    eprintln!("duplex: whole test {:?}", started.elapsed());
}

/// The wire is cut (both directions at once) while the server waits for the seat.
#[tokio::test]
async fn push_duplex_cut_mid_wizard_leaks_nothing() {
    duplex_leave(Link::cut).await;
}

/// The client closes the server's input (EOF) while the server waits for the seat.
#[tokio::test]
async fn push_duplex_closed_input_mid_wizard_leaks_nothing() {
    duplex_leave(Link::close_input).await;
}

/// The client cancels the call (`notifications/cancelled`) and closes cleanly: the
/// wizard stops at once (no waiting for the disconnect) and withdraws its question.
#[tokio::test]
async fn push_duplex_cancelled_call_stops_the_wizard_at_once() {
    let fixture = Fixture::new();
    let baseline = fixture.held().await;
    let tasks = alive_tasks();
    let mut crowd = Crowd::new();
    let leaving = duplex_crowd(&fixture, &mut crowd).await;
    let n = leaving.len();
    let tasks_during = alive_tasks();
    assert_eq!(
        fixture.held().await,
        Held {
            calls: n,
            servers: n,
            sessions: 0
        }
    );

    let mut connected = Vec::new();
    let cancelled_at = Instant::now();
    for (Leaving { running, call }, link) in leaving {
        tokio::time::timeout(LIMIT, call.cancel(Some("the user left".into())))
            .await
            .expect("bounded")
            .expect("cancelled");
        connected.push((running, link));
    }
    // Still connected: only the cancellation stops the calls, in well under a second.
    fixture
        .settle(
            Held {
                calls: 0,
                servers: n,
                sessions: 0,
            },
            Duration::from_secs(2),
        )
        .await;
    let took = cancelled_at.elapsed();
    let started = Instant::now();
    while crowd.withdrawn.load(Ordering::SeqCst) < n {
        assert!(
            started.elapsed() < LIMIT,
            "questions withdrawn: {:?}",
            crowd.withdrawn
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let closed_at = Instant::now();
    for (mut running, link) in connected {
        tokio::time::timeout(LIMIT, running.close())
            .await
            .expect("bounded")
            .expect("closed");
        drop(link);
    }
    fixture.settle(baseline, Duration::from_secs(2)).await;
    let closed = closed_at.elapsed();
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    eprintln!(
        "duplex cancel: {n} calls dropped {took:?} after the cancellations, {n} questions withdrawn; servers gone {closed:?} after the closes; tasks {tasks} -> {tasks_during} -> {alive}"
    );
    let (running, link) = connect_duplex(
        fixture.server(),
        crowd.booker(ProtocolVersion::V_2025_06_18),
        None,
    )
    .await;
    fresh_booking(&fixture, running).await;
    drop(link);
}

// ------------------------------------------------------------------ push, HTTP

enum HttpLeave {
    /// The TCP connections are cut, no `DELETE`: the session is kept for the client to
    /// resume (a disconnection is not a cancellation) until its idle timeout.
    Cut,
    /// The client deletes its session, then its connections are cut.
    Delete,
}

async fn http_leave(how: HttpLeave) {
    let started = Instant::now();
    let mut fixture = Fixture::new();
    if matches!(how, HttpLeave::Cut) {
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(Duration::from_secs(1));
        fixture.sessions = Arc::new(sessions);
    }
    let tasks = alive_tasks();
    let (server_addr, server_task) = fixture.serve_http().await;
    let baseline = fixture.held().await;
    // The factory's own instance.
    assert_eq!(
        baseline,
        Held {
            calls: 0,
            servers: 1,
            sessions: 0
        }
    );
    let (proxy_addr, proxy) = tcp_proxy(server_addr).await;
    let mut crowd = Crowd::new();
    let leaving = http_crowd(proxy_addr, &mut crowd).await;
    let n = leaving.len();
    let tasks_during = alive_tasks();
    let during = fixture.held().await;
    assert_eq!(
        during,
        Held {
            calls: n,
            servers: n + 1,
            sessions: n
        }
    );

    let cut_at = Instant::now();
    if matches!(how, HttpLeave::Delete) {
        let ids: Vec<String> = fixture
            .sessions
            .sessions
            .read()
            .await
            .keys()
            .map(|id| id.to_string())
            .collect();
        for id in &ids {
            delete_session(server_addr, id).await;
        }
        assert_eq!(
            fixture.held().await.sessions,
            0,
            "DELETE ends the session at once"
        );
    }
    proxy.abort();
    crowd.release_all();
    let took = fixture.settle(baseline, SETTLE).await;
    let since_cut = cut_at.elapsed();
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    for call in leaving {
        call.drop_client();
    }

    let running = connect_http(
        server_addr,
        crowd.booker(ProtocolVersion::V_2025_11_25),
        None,
    )
    .await;
    fresh_booking(&fixture, running).await;
    // The fresh client closed with a DELETE of its own.
    fixture.settle(baseline, LIMIT).await;
    server_task.abort();
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    eprintln!(
        "http: {n} wizards held {during:?}; back to {baseline:?} {took:?} after leaving ({since_cut:?} after the first DELETE or cut); tasks {tasks} -> {tasks_during} -> {alive}; whole test {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn push_http_cut_mid_wizard_leaks_nothing_once_the_session_idles_out() {
    http_leave(HttpLeave::Cut).await;
}

#[tokio::test]
async fn push_http_session_deleted_mid_wizard_leaks_nothing() {
    http_leave(HttpLeave::Delete).await;
}

/// Over HTTP the clean way out: cancel the call, then close (rmcp's client sends the
/// session `DELETE`). Everything is released without waiting for any timeout.
#[tokio::test]
async fn push_http_cancel_then_close_leaks_nothing() {
    let fixture = Fixture::new();
    let tasks = alive_tasks();
    let (server_addr, server_task) = fixture.serve_http().await;
    let baseline = fixture.held().await;
    let mut crowd = Crowd::new();
    let leaving = http_crowd(server_addr, &mut crowd).await;
    let n = leaving.len();
    let tasks_during = alive_tasks();
    assert_eq!(
        fixture.held().await,
        Held {
            calls: n,
            servers: n + 1,
            sessions: n
        }
    );
    let mut connected = Vec::new();
    let cancelled_at = Instant::now();
    for Leaving { running, call } in leaving {
        tokio::time::timeout(LIMIT, call.cancel(Some("the user left".into())))
            .await
            .expect("bounded")
            .expect("cancelled");
        connected.push(running);
    }
    fixture
        .settle(
            Held {
                calls: 0,
                servers: n + 1,
                sessions: n,
            },
            Duration::from_secs(2),
        )
        .await;
    let took = cancelled_at.elapsed();
    let started = Instant::now();
    while crowd.withdrawn.load(Ordering::SeqCst) < n {
        assert!(
            started.elapsed() < LIMIT,
            "questions withdrawn: {:?}",
            crowd.withdrawn
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let closed_at = Instant::now();
    for mut running in connected {
        tokio::time::timeout(LIMIT, running.close())
            .await
            .expect("bounded")
            .expect("closed");
    }
    fixture.settle(baseline, Duration::from_secs(2)).await;
    let closed = closed_at.elapsed();
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    let running = connect_http(
        server_addr,
        crowd.booker(ProtocolVersion::V_2025_06_18),
        None,
    )
    .await;
    fresh_booking(&fixture, running).await;
    fixture.settle(baseline, LIMIT).await;
    server_task.abort();
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    eprintln!(
        "http cancel: {n} calls dropped {took:?} after the cancellations; sessions and servers gone {closed:?} after the closes; tasks {tasks} -> {tasks_during} -> {alive}"
    );
}

// ------------------------------------------------------------------ rounds

fn rounds() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

/// One round of `book_tickets`: the key and state of the question it asks.
async fn round(
    running: &RunningService<RoleClient, Person>,
    answer: Option<(&str, &str, Value)>,
) -> CallToolResponse {
    let mut params = CallToolRequestParams::new("book_tickets");
    if let Some((key, state, value)) = answer {
        params.request_state = Some(state.to_owned());
        params.input_responses = Some([(key.to_owned(), value)].into_iter().collect());
    }
    tokio::time::timeout(LIMIT, running.call_tool_once(params))
        .await
        .expect("bounded")
        .expect("a result")
}

fn question(response: &CallToolResponse) -> (String, String, String) {
    let CallToolResponse::InputRequired(input) = response else {
        panic!("a question, got {response:?}");
    };
    let state = input.request_state.clone().expect("a state");
    let (key, request) = input
        .input_requests
        .clone()
        .expect("a request")
        .into_iter()
        .next()
        .expect("one request");
    let request = serde_json::to_value(request).unwrap();
    let message = request["params"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (key, state, message)
}

/// Two rounds (date asked, date answered → seat asked), then the client goes away
/// without retrying: between rounds and after leaving, nothing is held.
async fn abandon(
    fixture: &Fixture,
    running: RunningService<RoleClient, Person>,
    servers_connected: usize,
) -> (String, String) {
    let (key, state, message) = question(&round(&running, None).await);
    assert_eq!(message, "Which day would you like to go?");
    let answer = accept(json!({"date": "2025-02-03"}));
    let (key, state, message) = question(&round(&running, Some((&key, &state, answer))).await);
    assert_eq!(message, "Pick a seat for 2025-02-03");
    // Between rounds no call is running.
    assert_eq!(fixture.held().await.calls, 0);
    assert!(fixture.held().await.servers <= servers_connected);
    let mut running = running;
    tokio::time::timeout(LIMIT, running.close())
        .await
        .expect("bounded")
        .expect("closed");
    (key, state)
}

/// A fresh client takes an abandoned wizard's state up again and books.
async fn resume(running: &RunningService<RoleClient, Person>, key: &str, state: &str) {
    let next = round(running, Some((key, state, accept(json!({"seat": "B4"}))))).await;
    let (key, state, message) = question(&next);
    assert_eq!(message, "Anything to eat?");
    let done = round(
        running,
        Some((&key, &state, accept(json!({"popcorn": false})))),
    )
    .await;
    let CallToolResponse::Complete(done) = done else {
        panic!("booked, got {done:?}");
    };
    assert_eq!(text(&done), "Booked seat B4 on 2025-02-03 with no snacks.");
}

#[tokio::test]
async fn rounds_duplex_abandoned_wizards_hold_nothing() {
    let fixture = Fixture::new();
    let baseline = fixture.held().await;
    let tasks = alive_tasks();
    let crowd = Crowd::new();
    let mut states = Vec::new();
    for _ in 0..WIZARDS {
        let (running, link) = connect_duplex(
            fixture.server(),
            crowd.leaver(ProtocolVersion::V_2025_11_25),
            Some(rounds()),
        )
        .await;
        // Between rounds only the connection's own server instance is alive.
        states.push(abandon(&fixture, running, baseline.servers + 1).await);
        drop(link);
    }
    let took = fixture.settle(baseline, Duration::from_secs(2)).await;
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    // Any abandoned state still resumes, on another connection.
    let (mut running, link) = connect_duplex(
        fixture.server(),
        crowd.booker(ProtocolVersion::V_2025_11_25),
        Some(rounds()),
    )
    .await;
    let (key, state) = &states[WIZARDS / 2];
    resume(&running, key, state).await;
    tokio::time::timeout(LIMIT, running.close())
        .await
        .expect("bounded")
        .expect("closed");
    drop(link);
    fixture.settle(baseline, Duration::from_secs(2)).await;
    eprintln!(
        "rounds duplex: {WIZARDS} abandoned, back to {baseline:?} {took:?} after the last; tasks {tasks} -> {alive}"
    );
}

#[tokio::test]
async fn rounds_http_abandoned_wizards_hold_nothing() {
    let fixture = Fixture::new();
    let tasks = alive_tasks();
    let (server_addr, server_task) = fixture.serve_http().await;
    let baseline = fixture.held().await;
    let crowd = Crowd::new();
    let mut states = Vec::new();
    for _ in 0..WIZARDS {
        let running = connect_http(
            server_addr,
            crowd.leaver(ProtocolVersion::V_2025_11_25),
            Some(rounds()),
        )
        .await;
        states.push(abandon(&fixture, running, baseline.servers + 1).await);
        // Stateless: no session, and each request's handler instance is gone with it.
        assert_eq!(fixture.held().await.sessions, 0);
    }
    let took = fixture.settle(baseline, Duration::from_secs(2)).await;
    assert!(fixture.untouched(), "nothing sold: {}", fixture.inventory());
    let running = connect_http(
        server_addr,
        crowd.booker(ProtocolVersion::V_2025_11_25),
        Some(rounds()),
    )
    .await;
    let (key, state) = &states[0];
    resume(&running, key, state).await;
    let mut running = running;
    tokio::time::timeout(LIMIT, running.close())
        .await
        .expect("bounded")
        .expect("closed");
    fixture.settle(baseline, Duration::from_secs(2)).await;
    server_task.abort();
    let alive = tasks_settle(tasks).await;
    assert!(alive <= tasks, "tasks: {alive} alive, {tasks} before");
    eprintln!(
        "rounds http: {WIZARDS} abandoned, back to {baseline:?} {took:?} after the last; tasks {tasks} -> {alive}"
    );
}
