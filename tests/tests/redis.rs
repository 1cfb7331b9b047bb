//! Single use across replicas: a real `redis-server` (Debian package `redis-server`),
//! started on a free loopback port without persistence and stopped by PID when the
//! test ends. Two separate `Elicitor`s (two replicas: same key, separate processes'
//! worth of state) share one `RedisStore`: a state redeemed on one is refused on the
//! other.
//!
//! Without `redis-server` on the PATH the tests say so and pass on a developer machine;
//! under CI (`CI` or `ELICIT_REQUIRE_REDIS` set; `.ci/run` sets the latter after
//! installing the package) they fail instead of skipping.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use elicit_core::mcp::Elicitor;
use elicit_core::seal::redis::RedisStore;
use elicit_core::seal::store::RedeemStore;
use elicit_core::seal::{Key, Keyring, Sealer};
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

/// How long redis-server may take to accept connections.
const START_LIMIT: Duration = Duration::from_secs(10);

/// A `redis-server` of this test, killed on drop.
struct Redis {
    child: Child,
    url: String,
}

impl Redis {
    /// Starts one, or `None` (after saying why) when it is not installed here.
    fn start() -> Option<Redis> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let why = "redis-server is not installed (Debian: apt-get install redis-server)";
                let required = ["CI", "ELICIT_REQUIRE_REDIS"]
                    .iter()
                    .any(|v| std::env::var_os(v).is_some());
                assert!(!required, "{why}");
                eprintln!("skipped: {why}");
                return None;
            }
            Err(e) => panic!("redis-server does not start: {e}"),
        };
        let redis = Redis {
            child,
            url: format!("redis://127.0.0.1:{port}/"),
        };
        let deadline = Instant::now() + START_LIMIT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(redis)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_redeemed_id_is_refused_by_every_connection() {
    let Some(redis) = Redis::start() else { return };
    let one = RedisStore::connect(&redis.url).await.unwrap();
    let two = RedisStore::connect(&redis.url).await.unwrap();
    let far = 4_102_444_800; // 2100-01-01
    assert!(one.redeem("round-1", far).await.unwrap());
    assert!(!two.redeem("round-1", far).await.unwrap());
    assert!(!one.redeem("round-1", far).await.unwrap());
    assert!(two.redeem("round-2", far).await.unwrap());
    // Another prefix is another record.
    let other = two.clone().with_prefix("other-app:");
    assert!(other.redeem("round-1", far).await.unwrap());

    // Racing redemptions of one id: exactly one wins.
    let mut racers = Vec::new();
    for _ in 0..16 {
        let store = one.clone();
        racers.push(tokio::spawn(async move {
            store.redeem("contended", far).await.unwrap()
        }));
    }
    let mut wins = 0;
    for racer in racers {
        wins += usize::from(racer.await.unwrap());
    }
    assert_eq!(wins, 1);
}

#[tokio::test]
async fn an_unreachable_redis_refuses_the_state() {
    let Some(redis) = Redis::start() else { return };
    let store = RedisStore::connect(&redis.url).await.unwrap();
    drop(redis);
    let err = store.redeem("round", 4_102_444_800).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot record the redemption in Redis"),
        "{err}"
    );
    let err = RedisStore::connect("redis://127.0.0.1:1/")
        .await
        .unwrap_err();
    assert!(
        err.to_string().starts_with("cannot connect to Redis"),
        "{err}"
    );
    let err = RedisStore::connect("not a url").await.unwrap_err();
    assert!(err.to_string().starts_with("not a Redis URL"), "{err}");
}

/// A client of 2026-07-28 that answers nothing by itself: the test sends each round.
#[derive(Clone, Default)]
struct Quiet;

impl ClientHandler for Quiet {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            serde_json::from_value::<ClientCapabilities>(json!({"elicitation": {"form": {}}}))
                .unwrap(),
            Implementation::new("redis-test", "0"),
        )
    }
}

async fn connect(server: TicketServer) -> RunningService<RoleClient, Quiet> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    Quiet
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client starts (2026-07-28)")
}

async fn round(
    running: &RunningService<RoleClient, Quiet>,
    state: Option<&str>,
    answer: Option<(&str, Value)>,
) -> Result<CallToolResponse, String> {
    let mut params = CallToolRequestParams::new("book_tickets").with_arguments(Default::default());
    params.request_state = state.map(str::to_owned);
    params.input_responses = answer.map(|(k, v)| BTreeMap::from([(k.to_owned(), v)]));
    tokio::time::timeout(Duration::from_secs(20), running.call_tool_once(params))
        .await
        .expect("bounded")
        .map_err(|e| e.to_string())
}

fn asked(response: &CallToolResponse) -> (String, String) {
    let CallToolResponse::InputRequired(input) = response else {
        panic!("expected input_required, got {response:?}");
    };
    let key = input
        .input_requests
        .as_ref()
        .and_then(|r| r.keys().next().cloned())
        .expect("a question");
    (key, input.request_state.clone().expect("a state"))
}

#[tokio::test]
async fn a_state_redeemed_on_one_replica_is_refused_on_the_other() {
    let Some(redis) = Redis::start() else { return };
    let key = Key::generate();
    let replica = |store: RedisStore| {
        let elicitor =
            Elicitor::new(Sealer::new(Keyring::new("k1", key.clone()).unwrap())).with_store(store);
        TicketServer::new(elicitor, Arc::new(Mutex::new(Cinema::demo())))
    };
    let a = connect(replica(RedisStore::connect(&redis.url).await.unwrap())).await;
    let b = connect(replica(RedisStore::connect(&redis.url).await.unwrap())).await;

    let first = round(&a, None, None).await.unwrap();
    let (question, state) = asked(&first);
    let date = json!({"action": "accept", "content": {"date": "2025-02-04"}});
    // B takes the retry and moves on to the seat.
    let on_b = round(&b, Some(&state), Some((&question, date.clone())))
        .await
        .unwrap();
    asked(&on_b);
    // The same retry on A, the replica that sealed it: refused.
    let on_a = round(&a, Some(&state), Some((&question, date)))
        .await
        .unwrap_err();
    assert!(
        on_a.contains("the requestState of this retry was refused: it was used before"),
        "{on_a}"
    );
}
