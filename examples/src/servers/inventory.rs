//! Where `ticket-booking`'s seats live: in this process (the default), or in a Redis
//! shared by replicas (`--redis URL`), so that two replicas never sell one seat twice.
//!
//! In Redis the inventory is a set of show dates (`elicit:cinema:dates`) and, per
//! date, a set of its free seats (`elicit:cinema:seats:<date>`). A sale removes the
//! seat with `SREM`, which only one of any number of concurrent sales can do, and in the
//! same script announces the change on the channel `elicit:cinema:changed`. The first
//! replica to start seeds the demo inventory, atomically, if none is there.
//!
//! Each replica keeps the inventory it last read and reads it again only after a change
//! is announced (it listens on the channel from a connection of its own): a round of
//! the wizard asks Redis nothing about seats, only the sale does. While the replica is
//! not listening (before it has subscribed, or after the connection broke) it reads
//! Redis for every call, so a copy is never kept past a change it could have missed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::ConnectionManager;

use crate::ticket::Cinema;

const DATES: &str = "elicit:cinema:dates";
const SEATS: &str = "elicit:cinema:seats:";
const SEEDED: &str = "elicit:cinema:seeded";
/// Where sales are announced.
const CHANGED: &str = "elicit:cinema:changed";

/// Sells a seat: `KEYS[1]` is the date's set of free seats, `ARGV` the seat and the
/// channel to announce the sale on. 1 when this call removed the seat.
const SALE: &str = r"
local removed = redis.call('SREM', KEYS[1], ARGV[1])
if removed == 1 then redis.call('PUBLISH', ARGV[2], KEYS[1]) end
return removed
";

/// Seeds the inventory unless it was seeded before: `KEYS` are the marker, the dates
/// set and the seats prefix; `ARGV` is `date, n, seat1..seatN` per show.
const SEED: &str = r"
if redis.call('SETNX', KEYS[1], '1') == 0 then return 0 end
local i = 1
while i <= #ARGV do
  local date = ARGV[i]
  local n = tonumber(ARGV[i + 1])
  redis.call('SADD', KEYS[2], date)
  for j = 1, n do redis.call('SADD', KEYS[3] .. date, ARGV[i + 1 + j]) end
  i = i + 2 + n
end
return 1
";

/// The seats `ticket-booking` sells.
#[derive(Clone, Debug)]
pub enum Inventory {
    /// In this process.
    Local(Arc<Mutex<Cinema>>),
    /// In Redis, shared by every replica connected to it.
    Redis(Arc<RedisSeats>),
}

/// The inventory in Redis, and this replica's copy of it.
pub struct RedisSeats {
    connection: ConnectionManager,
    sale: redis::Script,
    /// Whether a change would be heard now (subscribed to [`CHANGED`]).
    listening: AtomicBool,
    kept: Mutex<Kept>,
}

impl std::fmt::Debug for RedisSeats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSeats")
            .field("listening", &self.listening.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// The inventory as last read, and how many changes were heard of: a read that
/// started before a change is not kept.
#[derive(Default)]
struct Kept {
    changes: u64,
    cinema: Option<Cinema>,
}

impl RedisSeats {
    /// Forgets the copy: the next call reads Redis.
    fn changed(&self) {
        let mut copy = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        copy.changes += 1;
        copy.cinema = None;
    }

    /// Listens for announced sales for as long as the inventory lives, subscribing
    /// again (after a second) whenever the connection breaks.
    async fn listen(seats: Weak<RedisSeats>, client: redis::Client) {
        loop {
            if let Ok(mut pubsub) = client.get_async_pubsub().await
                && pubsub.subscribe(CHANGED).await.is_ok()
            {
                let Some(live) = seats.upgrade() else { return };
                // What was read before now may predate a sale that was not heard.
                live.changed();
                live.listening.store(true, Ordering::SeqCst);
                drop(live);
                let mut messages = pubsub.into_on_message();
                while messages.next().await.is_some() {
                    let Some(live) = seats.upgrade() else { return };
                    live.changed();
                }
            }
            let Some(live) = seats.upgrade() else { return };
            live.listening.store(false, Ordering::SeqCst);
            live.changed();
            drop(live);
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// The seats free now: the copy while no change was heard, else read from Redis.
    async fn snapshot(&self) -> Result<Cinema, String> {
        let listening = self.listening.load(Ordering::SeqCst);
        let changes = {
            let copy = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            match &copy.cinema {
                Some(cinema) if listening => return Ok(cinema.clone()),
                _ => copy.changes,
            }
        };
        let cinema = self.read().await?;
        if listening {
            let mut copy = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if copy.changes == changes {
                copy.cinema = Some(cinema.clone());
            }
        }
        Ok(cinema)
    }

    /// The inventory as Redis has it now.
    async fn read(&self) -> Result<Cinema, String> {
        let mut connection = self.connection.clone();
        let unavailable = |e: redis::RedisError| format!("the inventory is unavailable: {e}");
        let dates: Vec<String> = redis::cmd("SMEMBERS")
            .arg(DATES)
            .query_async(&mut connection)
            .await
            .map_err(unavailable)?;
        let mut pipe = redis::pipe();
        for date in &dates {
            pipe.cmd("SMEMBERS").arg(format!("{SEATS}{date}"));
        }
        let seats: Vec<Vec<String>> = pipe
            .query_async(&mut connection)
            .await
            .map_err(unavailable)?;
        let mut cinema = Cinema::default();
        for (date, mut seats) in dates.iter().zip(seats) {
            seats.sort();
            let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
            cinema.add_show(date, &seats);
        }
        Ok(cinema)
    }

    /// Sells `seat` on `date`, announcing the sale.
    async fn take(&self, date: &str, seat: &str) -> Result<bool, String> {
        let removed: i64 = self
            .sale
            .key(format!("{SEATS}{date}"))
            .arg(seat)
            .arg(CHANGED)
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(|e| format!("the inventory is unavailable: {e}"))?;
        if removed == 1 {
            self.changed();
        }
        Ok(removed == 1)
    }
}

impl Inventory {
    /// The inventory in the Redis at `url`, seeded with `seed` if it has none yet.
    pub async fn redis(url: &str, seed: &Cinema) -> Result<Inventory, String> {
        // Small commands, sent at once (`TCP_NODELAY`), as the redeem store sends its own.
        let info = redis::IntoConnectionInfo::into_connection_info(url)
            .map_err(|e| format!("not a Redis URL: {e}"))?
            .set_tcp_settings(redis::io::tcp::TcpSettings::default().set_nodelay(true));
        let client = redis::Client::open(info).map_err(|e| format!("not a Redis URL: {e}"))?;
        let mut connection = ConnectionManager::new(client.clone())
            .await
            .map_err(|e| format!("cannot connect to Redis: {e}"))?;
        let mut seed_cmd = redis::cmd("EVAL");
        seed_cmd.arg(SEED).arg(3).arg(SEEDED).arg(DATES).arg(SEATS);
        for date in seed.dates() {
            let seats = seed.free_seats(date).unwrap_or_default();
            seed_cmd.arg(date).arg(seats.len());
            for seat in seats {
                seed_cmd.arg(seat.value.as_ref());
            }
        }
        let _: i64 = seed_cmd
            .query_async(&mut connection)
            .await
            .map_err(|e| format!("cannot seed the inventory: {e}"))?;
        let seats = Arc::new(RedisSeats {
            connection,
            sale: redis::Script::new(SALE),
            listening: AtomicBool::new(false),
            kept: Mutex::new(Kept::default()),
        });
        tokio::spawn(RedisSeats::listen(Arc::downgrade(&seats), client));
        Ok(Inventory::Redis(seats))
    }

    /// The seats free now, for one call's wizard to offer.
    pub async fn snapshot(&self) -> Result<Cinema, String> {
        match self {
            Inventory::Local(cinema) => cinema
                .lock()
                .map(|c| c.clone())
                .map_err(|_| "the inventory is unavailable".to_owned()),
            Inventory::Redis(seats) => seats.snapshot().await,
        }
    }
    /// Sells `seat` on `date`: `true` for exactly one of any number of sales of it.
    pub async fn take(&self, date: &str, seat: &str) -> Result<bool, String> {
        match self {
            Inventory::Local(cinema) => Ok(cinema.lock().is_ok_and(|mut c| c.take(date, seat))),
            Inventory::Redis(seats) => seats.take(date, seat).await,
        }
    }
}
