//! Single use across replicas: a real `redis-server` (Debian package `redis-server`),
//! started on a free loopback port without persistence and stopped by PID when the
//! test ends. Two separate `Elicitor`s (two replicas: same key, separate processes'
//! worth of state) share one `RedisStore`: a state redeemed on one is refused on the
//! other.
//!
//! Without `redis-server` on the PATH the tests are ignored, with the reason (the build
//! script, `programs.rs`, sets `no_redis`); under CI (`CI` or `ELICIT_REQUIRE_REDIS` set;
//! `.ci/run` sets the latter after installing the package) they run, and fail without it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::seal::{Key, Keyring};
use elicit_core::store::RedisStore;
use elicit_core::store::{RedeemStore, Redemption};
use elicit_examples::redis_server::RedisServer;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::ticket::Cinema;
use elicit_rmcp::Elicitor;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

/// A time of sealing for the redemptions below (2025-01-01).
const NOW: u64 = 1_735_689_600;

#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn a_redeemed_id_is_refused_by_every_connection() {
    let redis = RedisServer::for_test();
    let one = RedisStore::connect(redis.url()).await.unwrap();
    let two = RedisStore::connect(redis.url()).await.unwrap();
    let far = 4_102_444_800; // 2100-01-01
    assert_eq!(
        one.redeem("round-1", NOW, far).await.unwrap(),
        Redemption::First
    );
    assert_eq!(
        two.redeem("round-1", NOW, far).await.unwrap(),
        Redemption::Again
    );
    assert_eq!(
        one.redeem("round-1", NOW, far).await.unwrap(),
        Redemption::Again
    );
    assert_eq!(
        two.redeem("round-2", NOW, far).await.unwrap(),
        Redemption::First
    );
    // Another prefix is another record.
    let other = two.clone().with_prefix("other-app:");
    assert_eq!(
        other.redeem("round-1", NOW, far).await.unwrap(),
        Redemption::First
    );

    // Racing redemptions of one id: exactly one wins.
    let mut racers = Vec::new();
    for _ in 0..16 {
        let store = one.clone();
        racers.push(tokio::spawn(async move {
            store.redeem("contended", NOW, far).await.unwrap() == Redemption::First
        }));
    }
    let mut wins = 0;
    for racer in racers {
        wins += usize::from(racer.await.unwrap());
    }
    assert_eq!(wins, 1);
}

/// Redemptions waiting at the same moment go to Redis together: 64 at once (32 ids, each
/// twice) cost the Redis server a handful of reads, not 64, and each id is still
/// redeemed exactly once.
#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn redemptions_made_together_share_one_pipeline() {
    let redis = RedisServer::for_test();
    let store = RedisStore::connect(redis.url()).await.unwrap();
    let mut admin = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let far = 4_102_444_800; // 2100-01-01
    // The store's pipeline task is started by its first redemption.
    assert_eq!(
        store.redeem("warm", NOW, far).await.unwrap(),
        Redemption::First
    );
    let before = reads(&mut admin).await;
    let ids: Vec<String> = (0..64).map(|i| format!("together-{}", i % 32)).collect();
    let redeemed =
        futures_util::future::join_all(ids.iter().map(|id| store.redeem(id, NOW, far))).await;
    let after = reads(&mut admin).await;
    let firsts = redeemed
        .iter()
        .filter(|r| *r.as_ref().unwrap() == Redemption::First)
        .count();
    assert_eq!(firsts, 32, "{redeemed:?}");
    // The `INFO` that reads the count is one read of them.
    assert!(
        after - before <= 4,
        "{} reads for 64 redemptions",
        after - before
    );
}

/// A store first used on one runtime keeps working on the next one: its pipeline task
/// ended with the runtime and the next redemption starts another. (The connection's own
/// task ended too: the redemption that finds it broken fails, and Redis's client connects
/// again behind it.)
#[test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
fn a_store_outlives_the_runtime_it_first_redeemed_on() {
    let redis = RedisServer::for_test();
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    let far = 4_102_444_800; // 2100-01-01
    let first = runtime();
    let store = first.block_on(async {
        let store = RedisStore::connect(redis.url()).await.unwrap();
        assert_eq!(
            store.redeem("before", NOW, far).await.unwrap(),
            Redemption::First
        );
        store
    });
    drop(first);
    runtime().block_on(async {
        let mut again = store.redeem("before", NOW, far).await;
        for _ in 0..50 {
            if again.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            again = store.redeem("before", NOW, far).await;
        }
        assert_eq!(again.unwrap(), Redemption::Again);
        assert_eq!(
            store.redeem("after", NOW, far).await.unwrap(),
            Redemption::First
        );
    });
}

/// How many reads from its clients the Redis at the other end has processed
/// (`INFO stats`).
async fn reads(connection: &mut redis::aio::MultiplexedConnection) -> u64 {
    info_number(connection, "stats", "total_reads_processed:")
        .await
        .expect("INFO stats names total_reads_processed")
}

/// A number of the Redis at the other end's `INFO <section>`: the line that starts with
/// `field`, up to its first `,`.
async fn info_number(
    connection: &mut redis::aio::MultiplexedConnection,
    section: &str,
    field: &str,
) -> Option<u64> {
    let info: String = redis::cmd("INFO")
        .arg(section)
        .query_async(connection)
        .await
        .unwrap();
    info.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.trim().parse().ok())
}

/// Task records: written only from the version read (of two writers from one version,
/// the first wins and the second changes nothing),
/// expiring, kept apart by prefix, and each write announced to every connection.
#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn task_records_are_written_from_the_version_read_and_announced() {
    use elicit_core::store::TaskStore;
    use futures_util::StreamExt;

    let redis = RedisServer::for_test();
    let one = RedisStore::connect(redis.url()).await.unwrap();
    let two = RedisStore::connect(redis.url()).await.unwrap();
    let mut heard = two.changes().expect("a Redis store announces its writes");
    // The subscription is made: "" says anything may have changed.
    let first = tokio::time::timeout(Duration::from_secs(2), heard.next()).await;
    assert_eq!(first.unwrap().as_deref(), Some(""));

    let far = 4_102_444_800; // 2100-01-01
    assert!(one.save("t:1", 0, "working", far).await.unwrap());
    let announced = tokio::time::timeout(Duration::from_secs(2), heard.next()).await;
    assert_eq!(announced.unwrap().as_deref(), Some("t:1"));
    assert_eq!(
        two.load("t:1").await.unwrap(),
        Some((1, "working".to_owned()))
    );
    assert!(!two.save("t:1", 0, "again", far).await.unwrap(), "exists");
    let racers = [("completed", &one), ("cancelled", &two)];
    let mut wins = Vec::new();
    for (record, store) in racers {
        if store.save("t:1", 1, record, far).await.unwrap() {
            wins.push(record);
        }
    }
    assert_eq!(wins, ["completed"]);
    assert_eq!(
        one.load("t:1").await.unwrap(),
        Some((2, "completed".to_owned()))
    );
    // Another prefix is another record; an expired record is gone.
    let other = one.clone().with_prefix("other-app:");
    assert_eq!(other.load("t:1").await.unwrap(), None);
    let past = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        - 1;
    assert!(one.save("t:2", 0, "expired", past).await.unwrap());
    assert_eq!(two.load("t:2").await.unwrap(), None);
}

#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn an_unreachable_redis_refuses_the_state() {
    let redis = RedisServer::for_test();
    let store = RedisStore::connect(redis.url()).await.unwrap();
    drop(redis);
    let err = store.redeem("round", NOW, 4_102_444_800).await.unwrap_err();
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
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn a_state_redeemed_on_one_replica_is_refused_on_the_other() {
    let redis = RedisServer::for_test();
    let key = Key::generate();
    let replica = |store: RedisStore| {
        let elicitor =
            Elicitor::new(Keyring::new("k1", key.clone()).unwrap()).with_redeem_store(store);
        TicketServer::new(elicitor, Arc::new(Mutex::new(Cinema::demo())))
    };
    let a = connect(replica(RedisStore::connect(redis.url()).await.unwrap())).await;
    let b = connect(replica(RedisStore::connect(redis.url()).await.unwrap())).await;

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

/// Books `seat` on `date` through every round of the wizard, answering each step
/// from its form; the final text.
async fn book(running: &RunningService<RoleClient, Quiet>, date: &str, seat: &str) -> String {
    let mut response = round(running, None, None).await.unwrap();
    for _ in 0..10 {
        let CallToolResponse::InputRequired(input) = &response else {
            let CallToolResponse::Complete(done) = &response else {
                panic!("unexpected {response:?}");
            };
            return done
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect();
        };
        let (key, request) = input
            .input_requests
            .clone()
            .and_then(|r| r.into_iter().next())
            .expect("a question");
        let request = serde_json::to_value(request).unwrap();
        let fields = &request["params"]["requestedSchema"]["properties"];
        let content = if fields.get("date").is_some() {
            json!({"date": date})
        } else if fields.get("seat").is_some() {
            json!({"seat": seat})
        } else {
            json!({"popcorn": false})
        };
        let state = input.request_state.clone();
        let answer = json!({"action": "accept", "content": content});
        response = round(running, state.as_deref(), Some((&key, answer)))
            .await
            .unwrap();
    }
    panic!("the wizard did not end: {response:?}");
}

#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn replicas_sharing_a_redis_inventory_sell_each_seat_once() {
    use elicit_examples::servers::inventory::Inventory;
    let redis = RedisServer::for_test();
    let key = Key::generate();
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let elicitor = Elicitor::new(Keyring::new("k1", key.clone()).unwrap())
            .with_redeem_store(RedisStore::connect(redis.url()).await.unwrap());
        let inventory = Inventory::redis(redis.url(), &Cinema::demo())
            .await
            .unwrap();
        replicas.push(Arc::new(
            connect(TicketServer::with_inventory(elicitor, inventory)).await,
        ));
    }
    // Eight bookings of the same seat at once, half on each replica.
    let mut bookings = Vec::new();
    for i in 0..8 {
        let replica = replicas[i % 2].clone();
        bookings.push(tokio::spawn(async move {
            book(&replica, "2025-02-03", "A2").await
        }));
    }
    let mut texts = Vec::new();
    for booking in bookings {
        texts.push(booking.await.unwrap());
    }
    let booked = texts
        .iter()
        .filter(|t| t.starts_with("Booked seat A2 on 2025-02-03"))
        .count();
    assert_eq!(booked, 1, "{texts:#?}");
    // The others were told: sold under them, or no longer offered.
    for text in &texts {
        assert!(
            text.starts_with("Booked seat A2")
                || text.contains("was just sold to someone else")
                || text.contains("too many unusable answers at the seat step"),
            "{text}"
        );
    }
    let left = Inventory::redis(redis.url(), &Cinema::default())
        .await
        .unwrap()
        .snapshot()
        .await
        .unwrap();
    let seats: Vec<&str> = left
        .free_seats("2025-02-03")
        .unwrap()
        .iter()
        .map(|c| c.value.as_ref())
        .collect();
    assert_eq!(seats, ["A1", "B4"]);
}

/// How many `SMEMBERS` the Redis at the other end has run (`INFO commandstats`; none
/// before the first).
async fn seat_reads(connection: &mut redis::aio::MultiplexedConnection) -> u64 {
    info_number(connection, "commandstats", "cmdstat_smembers:calls=")
        .await
        .unwrap_or(0)
}

/// A replica keeps the seats it read until a sale is announced: reading them again asks
/// Redis nothing (a round of the wizard costs Redis one command, the redemption), and a
/// sale on another replica is seen within moments.
#[tokio::test]
#[cfg_attr(
    no_redis,
    ignore = "redis-server is not installed (Debian: apt-get install redis-server)"
)]
async fn a_replica_reads_the_seats_again_only_after_a_sale() {
    use elicit_examples::servers::inventory::Inventory;
    let redis = RedisServer::for_test();
    let seller = Inventory::redis(redis.url(), &Cinema::demo())
        .await
        .unwrap();
    let reader = Inventory::redis(redis.url(), &Cinema::demo())
        .await
        .unwrap();
    let mut connection = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let free = |cinema: &Cinema| -> Vec<String> {
        let seats = cinema.free_seats("2025-02-03").unwrap_or_default();
        seats.iter().map(|c| c.value.to_string()).collect()
    };
    // Until its subscription is in place the reader reads Redis each time.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        reader.snapshot().await.unwrap();
        let before = seat_reads(&mut connection).await;
        reader.snapshot().await.unwrap();
        if seat_reads(&mut connection).await == before {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never kept a copy");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = seat_reads(&mut connection).await;
    for _ in 0..20 {
        assert_eq!(free(&reader.snapshot().await.unwrap()), ["A1", "A2", "B4"]);
    }
    assert_eq!(
        seat_reads(&mut connection).await,
        before,
        "read from the copy"
    );

    assert!(seller.take("2025-02-03", "A1").await.unwrap());
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    while free(&reader.snapshot().await.unwrap()) != ["A2", "B4"] {
        assert!(
            std::time::Instant::now() < deadline,
            "the sale was not seen"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The seller forgot its own copy at once.
    assert_eq!(free(&seller.snapshot().await.unwrap()), ["A2", "B4"]);
    assert!(!seller.take("2025-02-03", "A1").await.unwrap(), "sold once");
}
