//! What single use costs a stateless round: one redemption of the state's id, in this
//! process's `MemoryStore` (the default) or in Redis (`RedisStore`, shared by replicas:
//! one `SET NX EXAT` round trip). The Redis rows need `redis-server` on the PATH
//! (Debian package `redis-server`); the bench starts its own on a free loopback port,
//! without persistence, and stops it at the end. Without it they are skipped, saying so.

use std::hint::black_box;
use std::time::{SystemTime, UNIX_EPOCH};

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_core::store::RedisStore;
use elicit_core::store::{MemoryStore, RedeemStore, Redemption};
use elicit_examples::redis_server::RedisServer;

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Times the redemption of a new id (the first redemption: what every round does), the
/// states sealed at a thousand a second: past its capacity the memory store forgets an
/// id for each new one, as under sustained load.
fn redeem_new_ids(
    c: &mut Criterion,
    name: &str,
    store: &dyn RedeemStore,
    rt: &tokio::runtime::Runtime,
) {
    let start = now();
    let mut n = 0u64;
    c.bench_function(name, |b| {
        b.iter(|| {
            n += 1;
            let id = format!("round-{n}");
            let issued = start + n / 1_000;
            let outcome = rt.block_on(store.redeem(&id, issued, issued + 900)).ok();
            assert_eq!(outcome, Some(Redemption::First));
            black_box(outcome)
        })
    });
}

fn single_use(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    redeem_new_ids(c, "single_use/memory", &MemoryStore::default(), &rt);
    match RedisServer::start() {
        Ok(Some(redis)) => {
            let store = rt
                .block_on(RedisStore::connect(redis.url()))
                .expect("connects to its redis-server");
            redeem_new_ids(c, "single_use/redis", &store, &rt);
        }
        Ok(None) => eprintln!("single_use/redis: skipped, redis-server is not installed"),
        Err(e) => eprintln!("single_use/redis: skipped, redis-server does not start: {e}"),
    }
}

criterion_group!(benches, single_use);
criterion_main!(benches);
