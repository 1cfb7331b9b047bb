//! The throughput runs: C clients, each on its own keep-alive connection, booking
//! tickets through every stateless round (or making the bare call) for a warm-up and
//! then a measured window.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::server::{Server, core_busy, own_cpu_time};
use crate::wire::{self, Conn, Fail};

/// What each client does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Complete bookings: `book_tickets`, answering every form until the result.
    Wizard,
    /// `book_tickets` answered as for [`Flow::Wizard`] but cancelled at its last step
    /// (the popcorn size): the same rounds, and no seat sold, so a server whose seats
    /// cannot be put back (in Redis) never sells out.
    WizardCancelled,
    /// `pay_tickets` for a client without URL mode: a result at once, no question.
    Bare,
}

/// The tool a flow calls.
impl Flow {
    fn tool(self) -> &'static str {
        match self {
            Flow::Wizard | Flow::WizardCancelled => "book_tickets",
            Flow::Bare => "pay_tickets",
        }
    }
}

/// How long and how wide a run is.
#[derive(Clone, Debug)]
pub struct Load {
    pub clients: usize,
    pub warmup: Duration,
    pub measure: Duration,
    /// The date a client gives when the date form offers no options.
    pub date: String,
    /// The core the server is pinned to, whose other load is reported.
    pub server_core: Option<usize>,
}

/// A booking that has not ended after this many rounds is a failure.
const MAX_ROUNDS: usize = 12;

/// What a run measured.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Rounds (HTTP request and reply) completed inside the measured window.
    pub rounds: u64,
    pub seconds: f64,
    /// Latency of each of those rounds, in microseconds, sorted.
    pub latencies: Vec<u32>,
    /// Server CPU time over the window.
    pub server_cpu: Duration,
    /// This program's CPU time over the window.
    pub client_cpu: Duration,
    /// Over the window, time the server's core was busy with anything but the server
    /// (other processes, and interrupts not charged to the server).
    pub core_other: Option<Duration>,
    pub peak_rss: Option<u64>,
    /// Bookings completed (results ending the wizard), and those that lost their seat
    /// to another client between the seat step and the result.
    pub bookings: u64,
    pub conflicts: u64,
    /// Failures by kind, and the first one's text.
    pub errors: BTreeMap<String, u64>,
    pub first_error: Option<String>,
    /// `requestState` bytes sent by the server after round `i + 1` of a booking:
    /// (sum, count).
    pub state_bytes: Vec<(u64, u64)>,
    /// Rounds per completed booking: (sum, count).
    pub booking_rounds: (u64, u64),
}

impl Outcome {
    pub fn rounds_per_second(&self) -> f64 {
        self.rounds as f64 / self.seconds
    }

    /// The `q` quantile of the latencies, in microseconds.
    pub fn quantile(&self, q: f64) -> Option<u32> {
        if self.latencies.is_empty() {
            return None;
        }
        let rank = (q * self.latencies.len() as f64).ceil() as usize;
        Some(self.latencies[rank.clamp(1, self.latencies.len()) - 1])
    }

    /// Server CPU time per measured round.
    pub fn cpu_per_round(&self) -> Option<Duration> {
        (self.rounds > 0).then(|| self.server_cpu / self.rounds as u32)
    }

    /// The share of one core this program used over the window.
    pub fn client_load(&self) -> f64 {
        self.client_cpu.as_secs_f64() / self.seconds
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    fn merge(&mut self, other: Client) {
        self.rounds += other.latencies.len() as u64;
        self.latencies.extend(other.latencies);
        self.bookings += other.bookings;
        self.conflicts += other.conflicts;
        for (kind, n) in other.errors {
            *self.errors.entry(kind).or_default() += n;
        }
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
        if self.state_bytes.len() < other.state_bytes.len() {
            self.state_bytes.resize(other.state_bytes.len(), (0, 0));
        }
        for (i, (sum, n)) in other.state_bytes.into_iter().enumerate() {
            self.state_bytes[i].0 += sum;
            self.state_bytes[i].1 += n;
        }
        self.booking_rounds.0 += other.booking_rounds.0;
        self.booking_rounds.1 += other.booking_rounds.1;
    }
}

/// One client's tallies.
#[derive(Default)]
struct Client {
    latencies: Vec<u32>,
    bookings: u64,
    conflicts: u64,
    errors: BTreeMap<String, u64>,
    first_error: Option<String>,
    state_bytes: Vec<(u64, u64)>,
    booking_rounds: (u64, u64),
    next_id: u64,
}

impl Client {
    fn fail(&mut self, e: &Fail) {
        *self.errors.entry(e.kind()).or_default() += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e.to_string());
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

/// The measured window.
#[derive(Clone, Copy)]
struct Window {
    start: Instant,
    end: Instant,
}

impl Window {
    fn holds(&self, from: Instant, to: Instant) -> bool {
        from >= self.start && to <= self.end
    }
}

/// Runs `flow` against `server` as `load` says.
pub async fn run(server: &Server, flow: Flow, load: &Load) -> Outcome {
    let begin = Instant::now();
    let window = Window {
        start: begin + load.warmup,
        end: begin + load.warmup + load.measure,
    };
    let clients: Vec<_> = (0..load.clients)
        .map(|_| tokio::spawn(client(server.addr, flow, window, load.date.clone())))
        .collect();
    tokio::time::sleep_until(window.start.into()).await;
    let cpu0 = server.cpu_time();
    let own0 = own_cpu_time();
    let core0 = load.server_core.and_then(core_busy);
    tokio::time::sleep_until(window.end.into()).await;
    let cpu1 = server.cpu_time();
    let own1 = own_cpu_time();
    let core1 = load.server_core.and_then(core_busy);
    let mut outcome = Outcome {
        seconds: load.measure.as_secs_f64(),
        ..Outcome::default()
    };
    for handle in clients {
        match handle.await {
            Ok(client) => outcome.merge(client),
            Err(e) => {
                *outcome.errors.entry("client task".into()).or_default() += 1;
                outcome.first_error.get_or_insert(e.to_string());
            }
        }
    }
    outcome.latencies.sort_unstable();
    outcome.server_cpu = match (cpu0, cpu1) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => Duration::ZERO,
    };
    if let (Some(busy0), Some(busy1)) = (core0, core1) {
        outcome.core_other = Some(
            busy1
                .saturating_sub(busy0)
                .saturating_sub(outcome.server_cpu),
        );
    }
    outcome.client_cpu = match (own0, own1) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => Duration::ZERO,
    };
    outcome.peak_rss = server.peak_rss();
    outcome
}

async fn client(addr: SocketAddr, flow: Flow, window: Window, date: String) -> Client {
    let mut tally = Client::default();
    let mut conn: Option<Conn> = None;
    while Instant::now() < window.end {
        let c = match &mut conn {
            Some(c) => c,
            None => match Conn::open(addr).await {
                Ok(c) => conn.insert(c),
                Err(e) => {
                    tally.fail(&e);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let done = match flow {
            Flow::Wizard => booking(c, &mut tally, window, &date, false).await,
            Flow::WizardCancelled => booking(c, &mut tally, window, &date, true).await,
            Flow::Bare => bare(c, &mut tally, window).await,
        };
        if let Err(e) = done {
            tally.fail(&e);
            if e.breaks_connection() {
                conn = None;
            }
        }
    }
    tally
}

/// One round: a `tools/call` and its reply; its latency is kept when it lies inside
/// the window. Returns the call's `result`.
async fn round(
    c: &mut Conn,
    tally: &mut Client,
    window: Window,
    tool: &str,
    body: Vec<u8>,
    id: u64,
) -> Result<Value, Fail> {
    let sent = Instant::now();
    let reply = c.post(&wire::stateless_headers(tool), body).await?;
    let received = Instant::now();
    if reply.status != 200 {
        return match reply.response(id) {
            Err(e @ Fail::Rpc(..)) => Err(e),
            _ => Err(Fail::Status(reply.status)),
        };
    }
    let mut message = reply.response(id)?;
    if window.holds(sent, received) {
        let micros = received.duration_since(sent).as_micros();
        tally
            .latencies
            .push(u32::try_from(micros).unwrap_or(u32::MAX));
    }
    Ok(message
        .get_mut("result")
        .map(Value::take)
        .unwrap_or(Value::Null))
}

/// One booking, every round until the result; with `cancel_last`, cancelled at the
/// last step (the popcorn size), so that nothing is sold.
async fn booking(
    c: &mut Conn,
    tally: &mut Client,
    window: Window,
    date: &str,
    cancel_last: bool,
) -> Result<(), Fail> {
    let tool = Flow::Wizard.tool();
    let arguments = json!({});
    let mut responses: Option<Value> = None;
    let mut state: Option<String> = None;
    for n in 0..MAX_ROUNDS {
        let id = tally.id();
        let body = wire::stateless_call(id, tool, &arguments, responses.take(), state.as_deref());
        let result = round(c, tally, window, tool, body, id).await?;
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            let requests = result
                .get("inputRequests")
                .and_then(Value::as_object)
                .filter(|r| !r.is_empty())
                .ok_or_else(|| Fail::Reply("input_required without inputRequests".into()))?;
            let mut answers = Map::new();
            for (key, request) in requests {
                let method = request.get("method").and_then(Value::as_str);
                if method != Some("elicitation/create") {
                    return Err(Fail::Reply(format!(
                        "an input request of method {method:?}"
                    )));
                }
                let schema = request
                    .get("params")
                    .and_then(|p| p.get("requestedSchema"))
                    .ok_or_else(|| Fail::Reply("a form without requestedSchema".into()))?;
                let last = schema
                    .get("properties")
                    .is_some_and(|p| p.get("size").is_some());
                let answer = if cancel_last && last {
                    json!({"action": "cancel"})
                } else {
                    json!({"action": "accept", "content": wire::fill(schema, date)})
                };
                answers.insert(key.clone(), answer);
            }
            responses = Some(Value::Object(answers));
            state = result
                .get("requestState")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if tally.state_bytes.len() <= n {
                tally.state_bytes.resize(n + 1, (0, 0));
            }
            tally.state_bytes[n].0 += state.as_ref().map_or(0, |s| s.len() as u64);
            tally.state_bytes[n].1 += 1;
            continue;
        }
        let text = result_text(&result);
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            return Err(Fail::Reply(format!("a tool error: {}", short(text))));
        }
        if text.starts_with("Booked seat") || (cancel_last && text.starts_with("Booking cancelled"))
        {
            tally.bookings += 1;
            tally.booking_rounds.0 += n as u64 + 1;
            tally.booking_rounds.1 += 1;
        } else if text.contains("just sold to someone else") {
            tally.conflicts += 1;
        } else {
            return Err(Fail::Reply(format!(
                "an unexpected result: {}",
                short(text)
            )));
        }
        return Ok(());
    }
    Err(Fail::Reply(format!("no result after {MAX_ROUNDS} rounds")))
}

/// One bare call.
async fn bare(c: &mut Conn, tally: &mut Client, window: Window) -> Result<(), Fail> {
    let tool = Flow::Bare.tool();
    let id = tally.id();
    let body = wire::stateless_call(id, tool, &json!({"order": "A-17"}), None, None);
    let result = round(c, tally, window, tool, body, id).await?;
    let text = result_text(&result);
    if text.starts_with("This client cannot open payment pages") {
        Ok(())
    } else {
        Err(Fail::Reply(format!(
            "an unexpected result: {}",
            short(text)
        )))
    }
}

fn result_text(result: &Value) -> &str {
    result
        .get("content")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn short(text: &str) -> String {
    text.chars().take(120).collect()
}
