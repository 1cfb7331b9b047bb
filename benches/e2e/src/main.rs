//! `elicit-e2e`: the end-to-end benchmark of the ticket wizard over Streamable HTTP.
//!
//! It starts each server itself (pinned to one core with `taskset`, this program on
//! another), drives it over loopback, stops it, and prints one markdown report:
//! rounds/s, p50/p99 latency per round, server CPU per round and peak RSS for the
//! wizard (complete bookings, one `input_required` round per question on 2026-07-28)
//! and for a bare tool call; `requestState` bytes per step; memory per session and per
//! open push-mode question, and the growth after many `initialize`s (2025-11-25).
//! See README.md beside this crate, and `run.sh`, which builds everything and runs it.

mod load;
mod memory;
mod server;
mod wire;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use load::{Flow, Load, Outcome};
use server::{Launch, Server};

/// End-to-end benchmark: ticket bookings over Streamable HTTP against servers it starts.
#[derive(Parser, Debug)]
#[command(version)]
struct Cli {
    /// The `ticket-booking` binary to measure (a release build).
    #[arg(long, value_name = "PATH")]
    elicit: PathBuf,
    /// The Python interpreter that runs the reference server (from its venv).
    #[arg(long, value_name = "PATH", requires = "python_server")]
    python: Option<PathBuf>,
    /// The Python reference server script (benches/e2e/python/ticket_server.py).
    #[arg(long, value_name = "PATH", requires = "python")]
    python_server: Option<PathBuf>,
    /// Concurrent clients, each on its own keep-alive connection.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// Seconds of warm-up before each measured window (not counted).
    #[arg(long, default_value_t = 5.0)]
    warmup: f64,
    /// Seconds measured.
    #[arg(long, default_value_t = 10.0)]
    measure: f64,
    /// The core the server runs on (`taskset -c`).
    #[arg(long, default_value_t = 0)]
    server_cpu: usize,
    /// The core this load generator runs on.
    #[arg(long, default_value_t = 1)]
    client_cpu: usize,
    /// The date answered when the date form offers no options (a demo show with seats).
    #[arg(long, default_value = "2025-02-03")]
    date: String,
    /// `initialize` requests of the session-growth run.
    #[arg(long, default_value_t = 3000)]
    initializes: usize,
    /// Idle sessions of the per-session memory run.
    #[arg(long, default_value_t = 1000)]
    sessions: usize,
    /// Open questions of the per-question memory run.
    #[arg(long, default_value_t = 1000)]
    pending: usize,
    /// Skip the memory runs.
    #[arg(long)]
    no_memory: bool,
    /// Run only the throughput rows whose label contains this text (repeatable), e.g.
    /// "elicit wizard".
    #[arg(long, value_name = "TEXT")]
    only: Vec<String>,
    /// Skip the throughput rows (run the memory runs only).
    #[arg(long)]
    no_throughput: bool,
    /// Skip the runs of elicit with JSON instead of SSE replies.
    #[arg(long)]
    no_json: bool,
    /// Add the Redis rows: the wizard (JSON replies) with single use and the seats in a
    /// `redis-server` this program starts for each run (Debian's package, on the load
    /// generator's core, no persistence), next to the same flow in memory. Both are
    /// cancelled at the last step, so that nothing sells out.
    #[arg(long)]
    redis: bool,
    /// The core of the Redis rows' `redis-server`: the load generator's unless set (on a
    /// machine with a third core, `--redis-cpu 2` gives Redis a core of its own).
    #[arg(long)]
    redis_cpu: Option<usize>,
    /// Times each throughput row is run, in rotation (every row once, then every row
    /// again): each row reports its median run (by server CPU per round), and the
    /// wizard ÷ bare ratios are the median of the ratios of runs made side by side, so
    /// a burst of other work on the machine moves one run, not the result.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    repeat: u32,
}

/// The rows of `--redis`.
const MEMORY_ROW: &str = "elicit wizard, JSON, memory, cancelled at the end";
const REDIS_ROW: &str = "elicit wizard, JSON, Redis, cancelled at the end";

/// Sessions or questions made before the baseline of a memory run, so it does not
/// count one-time allocations.
const WARM_ITEMS: usize = 8;
/// Concurrent workers of the memory runs.
const MEMORY_WORKERS: usize = 8;

fn main() {
    let cli = Cli::parse();
    let pinned = if server::cores() >= 2 && server::have_taskset() {
        match server::pin_self(cli.client_cpu) {
            Ok(()) => true,
            Err(e) => {
                eprintln!(
                    "cannot pin the load generator to core {}: {e}",
                    cli.client_cpu
                );
                false
            }
        }
    } else {
        false
    };
    raise_fd_limit();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            std::process::exit(2);
        }
    };
    match runtime.block_on(bench(&cli, pinned)) {
        Ok(report) => print!("{report}"),
        Err(e) => {
            eprintln!("elicit-e2e: {e}");
            std::process::exit(1);
        }
    }
}

/// One throughput row: its runs, in the order they were made.
struct Row {
    label: String,
    runs: Vec<Outcome>,
}

impl Row {
    /// The run with the median server CPU per round (the first run when none has it).
    fn median(&self) -> &Outcome {
        let mut order: Vec<&Outcome> = self.runs.iter().collect();
        order.sort_by_key(|o| o.cpu_per_round());
        if order.iter().any(|o| o.cpu_per_round().is_none()) {
            return &self.runs[0];
        }
        order[order.len() / 2]
    }
}

/// What a memory run found for one server.
struct Memory {
    label: &'static str,
    initializes: memory::Initializes,
    idle: memory::Growth,
    pending: memory::Growth,
}

async fn bench(cli: &Cli, pinned: bool) -> Result<String, String> {
    let load = Load {
        clients: cli.clients,
        warmup: Duration::from_secs_f64(cli.warmup),
        measure: Duration::from_secs_f64(cli.measure),
        date: cli.date.clone(),
        server_core: pinned.then_some(cli.server_cpu),
    };
    let cpu = pinned.then_some(cli.server_cpu);
    let elicit = |extra: &[&str]| {
        // The demo inventory as of 2025-01-31: the shows of the Python reference.
        let mut args: Vec<String> = [
            "--http",
            "127.0.0.1:{port}",
            "--restock",
            "--today",
            "2025-01-31",
        ]
        .map(String::from)
        .to_vec();
        args.extend(extra.iter().map(|a| a.to_string()));
        Launch {
            program: cli.elicit.display().to_string(),
            args,
            cpu,
        }
    };
    let python = |mode: &str| {
        let (Some(python), Some(script)) = (&cli.python, &cli.python_server) else {
            return None;
        };
        Some(Launch {
            program: python.display().to_string(),
            args: [
                script.display().to_string(),
                "--port".into(),
                "{port}".into(),
                "--restock".into(),
                "--mode".into(),
                mode.into(),
            ]
            .to_vec(),
            cpu,
        })
    };

    let mut runs: Vec<(String, Launch, Flow)> = vec![
        ("elicit wizard, SSE".into(), elicit(&[]), Flow::Wizard),
        ("elicit bare call, SSE".into(), elicit(&[]), Flow::Bare),
    ];
    if !cli.no_json {
        runs.push((
            "elicit wizard, JSON".into(),
            elicit(&["--json-response"]),
            Flow::Wizard,
        ));
        runs.push((
            "elicit bare call, JSON".into(),
            elicit(&["--json-response"]),
            Flow::Bare,
        ));
    }
    if cli.redis {
        runs.push((
            MEMORY_ROW.into(),
            elicit(&["--json-response"]),
            Flow::WizardCancelled,
        ));
        // As the memory row, with `{redis}` for the URL of the run's redis-server (and
        // no --restock, which a shared inventory cannot do).
        let mut redis = elicit(&["--json-response", "--redis", "{redis}"]);
        redis.args.retain(|a| a != "--restock");
        runs.push((REDIS_ROW.into(), redis, Flow::WizardCancelled));
    }
    if let Some(py) = python("stateless-json") {
        runs.push(("Python SDK wizard, JSON".into(), py.clone(), Flow::Wizard));
        runs.push(("Python SDK bare call, JSON".into(), py, Flow::Bare));
    }

    if cli.no_throughput {
        runs.clear();
    }
    if !cli.only.is_empty() {
        runs.retain(|(label, ..)| cli.only.iter().any(|o| label.contains(o.as_str())));
    }
    let mut rows: Vec<Row> = runs
        .iter()
        .map(|(label, ..)| Row {
            label: label.clone(),
            runs: Vec::new(),
        })
        .collect();
    for pass in 1..=cli.repeat {
        for ((label, launch, flow), row) in runs.iter().zip(&mut rows) {
            eprintln!(
                "== {label} (run {pass} of {}): {} clients, {:?} warm-up, {:?} measured",
                cli.repeat, load.clients, load.warmup, load.measure
            );
            // A fresh redis-server for a run that names one.
            let redis = if launch.args.iter().any(|a| a == "{redis}") {
                let redis = Launch {
                    program: "redis-server".into(),
                    args: ["--bind", "127.0.0.1", "--port", "{port}"]
                        .into_iter()
                        .chain(["--save", "", "--appendonly", "no"])
                        .map(String::from)
                        .collect(),
                    cpu: pinned.then_some(cli.redis_cpu.unwrap_or(cli.client_cpu)),
                };
                Some(Server::start(&redis, "redis-server").await?)
            } else {
                None
            };
            let mut launch = launch.clone();
            if let Some(redis) = &redis {
                let url = format!("redis://{}/", redis.addr);
                for arg in &mut launch.args {
                    if arg == "{redis}" {
                        *arg = url.clone();
                    }
                }
            }
            let server = Server::start(&launch, label).await?;
            let outcome = load::run(&server, *flow, &load).await;
            if outcome.rounds == 0 {
                eprintln!(
                    "   no round completed; the server's log: {}",
                    server.log_tail()
                );
            }
            drop(server);
            drop(redis);
            row.runs.push(outcome);
        }
    }

    let mut memories = Vec::new();
    if !cli.no_memory {
        // The growth run keeps the default session cap; the per-session and
        // per-question runs raise it, so that every one of their sessions stays live.
        let mut targets = vec![("elicit", elicit(&[]), elicit(&["--max-sessions", "100000"]))];
        if let Some(py) = python("stateful") {
            targets.push(("Python SDK", py.clone(), py));
        }
        for (label, launch, uncapped) in targets {
            eprintln!("== {label}: memory runs (2025-11-25 sessions)");
            let server = Server::start(&launch, label).await?;
            let initializes = memory::initializes(&server, cli.initializes, MEMORY_WORKERS).await;
            drop(server);
            let launch = uncapped;
            let server = Server::start(&launch, label).await?;
            let idle =
                memory::idle_sessions(&server, cli.sessions, WARM_ITEMS, MEMORY_WORKERS).await;
            drop(server);
            let server = Server::start(&launch, label).await?;
            let pending =
                memory::pending_questions(&server, cli.pending, WARM_ITEMS, MEMORY_WORKERS).await;
            drop(server);
            memories.push(Memory {
                label,
                initializes,
                idle,
                pending,
            });
        }
    }
    Ok(report(cli, pinned, &rows, &memories))
}

fn report(cli: &Cli, pinned: bool, rows: &[Row], memories: &[Memory]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} clients, {} s warm-up, {} s measured per run; {}; a fresh server per run; {}.\n",
        cli.clients,
        cli.warmup,
        cli.measure,
        if pinned {
            format!(
                "server on core {}, load generator on core {}",
                cli.server_cpu, cli.client_cpu
            )
        } else {
            "not pinned (fewer than 2 cores, no taskset, or pinning refused)".to_owned()
        },
        if cli.repeat == 1 {
            "one run per row".to_owned()
        } else {
            format!(
                "{} runs per row in rotation, each row showing its median run by server CPU per round",
                cli.repeat
            )
        }
    );
    let _ = writeln!(
        out,
        "| server | rounds/s | p50 | p99 | server CPU/round | peak RSS |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for row in rows {
        let o = row.median();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            row.label,
            thousands(o.rounds_per_second().round() as u64),
            o.quantile(0.50).map_or("-".into(), millis),
            o.quantile(0.99).map_or("-".into(), millis),
            o.cpu_per_round()
                .map_or("-".into(), |d| format!("{} µs", d.as_micros())),
            o.peak_rss.map_or("-".into(), megabytes),
        );
    }
    let _ = writeln!(out);
    for row in rows {
        let o = row.median();
        let mut notes = Vec::new();
        if row.runs.len() > 1 {
            let each: Vec<String> = row
                .runs
                .iter()
                .map(|r| {
                    r.cpu_per_round()
                        .map_or("-".into(), |d| format!("{} µs", d.as_micros()))
                })
                .collect();
            notes.push(format!("server CPU/round of each run {}", each.join(", ")));
        }
        if o.bookings + o.conflicts > 0 {
            let rounds = o.booking_rounds.0 as f64 / o.booking_rounds.1.max(1) as f64;
            notes.push(format!(
                "{} bookings ({:.1} rounds each), {} lost their seat to another client",
                o.bookings, rounds, o.conflicts
            ));
        }
        if !o.state_bytes.is_empty() {
            let steps: Vec<String> = o
                .state_bytes
                .iter()
                .enumerate()
                .filter(|(_, (_, n))| *n > 0)
                .map(|(i, (sum, n))| format!("{}: {}", i + 1, sum / n))
                .collect();
            notes.push(format!(
                "requestState bytes after round {}",
                steps.join(", ")
            ));
        }
        notes.push(format!(
            "load generator {:.0}% of its core",
            o.client_load() * 100.0
        ));
        if let Some(other) = o.core_other {
            notes.push(format!(
                "server's core busy with other work {:.0}% of the window",
                other.as_secs_f64() / o.seconds * 100.0
            ));
        }
        if o.error_count() == 0 {
            notes.push("no errors".into());
        } else {
            let kinds: Vec<String> = o.errors.iter().map(|(k, n)| format!("{n} {k}")).collect();
            notes.push(format!(
                "errors: {} (first: {})",
                kinds.join(", "),
                o.first_error.as_deref().unwrap_or("")
            ));
        }
        let _ = writeln!(out, "- {}: {}.", row.label, notes.join("; "));
    }

    for m in memories {
        let _ = writeln!(out);
        let i = &m.initializes;
        let _ = writeln!(
            out,
            "- {}: {} `initialize` requests (2025-11-25, each a session) in {:.2} s: RSS {} → {} ({}{}); a fresh client afterwards: {}.",
            m.label,
            made(&i.growth),
            i.growth.seconds,
            megabytes(i.growth.before),
            megabytes(i.growth.after),
            signed_megabytes(i.growth.bytes()),
            failures(&i.growth.failures),
            match &i.fresh_client {
                Ok(()) => "served".to_owned(),
                Err(e) => format!("NOT served ({e})"),
            }
        );
        let _ = writeln!(
            out,
            "- {}: idle HTTP session: {} each ({} sessions, RSS {} → {}{}).",
            m.label,
            per_item(&m.idle),
            made(&m.idle),
            megabytes(m.idle.before),
            megabytes(m.idle.after),
            failures(&m.idle.failures),
        );
        let beyond = match (m.pending.per_item(), m.idle.per_item()) {
            (Some(p), Some(s)) => format!(", {} beyond an idle session", kilobytes(p - s)),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "- {}: open push-mode question: {} each ({} unanswered `elicitation/create`, each with its session and connection{beyond}{}).",
            m.label,
            per_item(&m.pending),
            made(&m.pending),
            failures(&m.pending.failures),
        );
    }

    let find = |label: &str| rows.iter().find(|r| r.label == label);
    // The median, over the passes, of the ratio of two rows' runs of the same pass.
    let ratio = |a: &str, b: &str, of: fn(&Outcome) -> Option<f64>| {
        let (a, b) = (find(a)?, find(b)?);
        let mut each: Vec<f64> = a
            .runs
            .iter()
            .zip(&b.runs)
            .map(|(a, b)| match (of(a), of(b)) {
                (Some(a), Some(b)) if b > 0.0 => Some(a / b),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let listed = if each.len() > 1 {
            let list: Vec<String> = each.iter().map(|r| format!("{r:.2}")).collect();
            format!(" (median of the runs side by side: {})", list.join(", "))
        } else {
            String::new()
        };
        each.sort_by(f64::total_cmp);
        Some((*each.get(each.len() / 2)?, listed))
    };
    let rate = |o: &Outcome| Some(o.rounds_per_second());
    let cpu = |o: &Outcome| o.cpu_per_round().map(|d| d.as_secs_f64());
    let _ = writeln!(out);
    let mut ratios = Vec::new();
    for framing in ["SSE", "JSON"] {
        if let Some((r, each)) = ratio(
            &format!("elicit wizard, {framing}"),
            "Python SDK wizard, JSON",
            rate,
        ) {
            ratios.push(format!(
                "elicit wizard rounds/s ÷ Python wizard rounds/s ({framing}): {r:.1}×{each}"
            ));
        }
    }
    for framing in ["SSE", "JSON"] {
        if let Some((r, each)) = ratio(
            &format!("elicit wizard, {framing}"),
            &format!("elicit bare call, {framing}"),
            cpu,
        ) {
            ratios.push(format!(
                "elicit wizard round CPU ÷ bare call CPU ({framing}): {r:.2}×{each}"
            ));
        }
    }
    if let Some((r, each)) = ratio(REDIS_ROW, MEMORY_ROW, rate) {
        ratios.push(format!(
            "elicit wizard rounds/s with Redis ÷ in memory (JSON, cancelled at the end): {r:.2}×{each}"
        ));
    }
    if let Some((r, each)) = ratio("Python SDK wizard, JSON", "Python SDK bare call, JSON", cpu) {
        ratios.push(format!(
            "Python wizard round CPU ÷ bare call CPU: {r:.2}×{each}"
        ));
    }
    for line in ratios {
        let _ = writeln!(out, "- {line}");
    }
    out
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn millis(micros: u32) -> String {
    let ms = f64::from(micros) / 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn signed_megabytes(bytes: i64) -> String {
    format!("{:+.1} MB", bytes as f64 / 1e6)
}

fn kilobytes(bytes: f64) -> String {
    format!("{:.1} KB", bytes / 1e3)
}

/// How many were made, and of how many when some failed.
fn made(g: &memory::Growth) -> String {
    if g.done == g.asked {
        thousands(g.done as u64)
    } else {
        format!(
            "{} of {}",
            thousands(g.done as u64),
            thousands(g.asked as u64)
        )
    }
}

fn per_item(g: &memory::Growth) -> String {
    g.per_item().map_or("-".into(), kilobytes)
}

fn failures(f: &memory::Failures) -> String {
    if f.count() == 0 {
        return String::new();
    }
    let kinds: Vec<String> = f.by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
    format!(
        "; failures: {} (first: {})",
        kinds.join(", "),
        f.first.as_deref().unwrap_or("")
    )
}

/// Lets this process hold a connection per open question (a thousand and more).
fn raise_fd_limit() {
    // SAFETY: getrlimit/setrlimit read and write the struct passed, nothing else.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rounds: u64, cpu_ms: u64) -> Outcome {
        Outcome {
            rounds,
            seconds: 1.0,
            server_cpu: Duration::from_millis(cpu_ms),
            ..Outcome::default()
        }
    }

    #[test]
    fn a_row_shows_its_median_run_by_cpu_per_round() {
        let row = Row {
            label: "x".into(),
            runs: vec![run(100, 30), run(100, 10), run(100, 20)],
        };
        assert_eq!(row.median().server_cpu, Duration::from_millis(20));
        // A run without rounds has no CPU per round: the first run stands for the row.
        let row = Row {
            label: "x".into(),
            runs: vec![run(100, 30), run(0, 10), run(100, 20)],
        };
        assert_eq!(row.median().server_cpu, Duration::from_millis(30));
    }

    #[test]
    fn the_ratio_is_the_median_of_runs_made_side_by_side() {
        let cli = Cli::parse_from(["elicit-e2e", "--elicit", "x", "--repeat", "3"]);
        let rows = [
            Row {
                label: "elicit wizard, SSE".into(),
                runs: vec![run(100, 15), run(100, 30), run(100, 13)],
            },
            Row {
                label: "elicit bare call, SSE".into(),
                runs: vec![run(100, 10), run(100, 20), run(100, 10)],
            },
        ];
        let report = report(&cli, true, &rows, &[]);
        assert!(
            report.contains(
                "elicit wizard round CPU ÷ bare call CPU (SSE): 1.50× \
                 (median of the runs side by side: 1.50, 1.50, 1.30)"
            ),
            "{report}"
        );
        assert!(report.contains("| elicit wizard, SSE | 100 |"), "{report}");
        assert!(report.contains("| 150 µs |"), "{report}");
    }
}
