//! Where `ticket-booking`'s seats live: in this process (the default), or in a Redis
//! shared by replicas (`--redis URL`), so that two replicas never sell one seat twice.
//!
//! In Redis the inventory is a set of show dates (`elicit:cinema:dates`) and, per
//! date, a set of its free seats (`elicit:cinema:seats:<date>`). A sale removes the
//! seat with `SREM`, which only one of any number of concurrent sales can do. The
//! first replica to start seeds the demo inventory, atomically, if none is there.

use std::sync::{Arc, Mutex};

use redis::aio::ConnectionManager;

use crate::ticket::Cinema;

const DATES: &str = "elicit:cinema:dates";
const SEATS: &str = "elicit:cinema:seats:";
const SEEDED: &str = "elicit:cinema:seeded";

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
    Redis(ConnectionManager),
}

impl Inventory {
    /// The inventory in the Redis at `url`, seeded with `seed` if it has none yet.
    pub async fn redis(url: &str, seed: &Cinema) -> Result<Inventory, String> {
        let client = redis::Client::open(url).map_err(|e| format!("not a Redis URL: {e}"))?;
        let mut connection = ConnectionManager::new(client)
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
        Ok(Inventory::Redis(connection))
    }

    /// The seats free now, for one call's wizard to offer.
    pub async fn snapshot(&self) -> Result<Cinema, String> {
        match self {
            Inventory::Local(cinema) => cinema
                .lock()
                .map(|c| c.clone())
                .map_err(|_| "the inventory is unavailable".to_owned()),
            Inventory::Redis(connection) => {
                let mut connection = connection.clone();
                let unavailable =
                    |e: redis::RedisError| format!("the inventory is unavailable: {e}");
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
        }
    }

    /// Sells `seat` on `date`: `true` for exactly one of any number of sales of it.
    pub async fn take(&self, date: &str, seat: &str) -> Result<bool, String> {
        match self {
            Inventory::Local(cinema) => Ok(cinema.lock().is_ok_and(|mut c| c.take(date, seat))),
            Inventory::Redis(connection) => {
                let removed: i64 = redis::cmd("SREM")
                    .arg(format!("{SEATS}{date}"))
                    .arg(seat)
                    .query_async(&mut connection.clone())
                    .await
                    .map_err(|e| format!("the inventory is unavailable: {e}"))?;
                Ok(removed == 1)
            }
        }
    }
}
