//! Single use: where a server records the sealed states it has redeemed.
//!
//! A sealed token opens as often as it is presented within its lifetime; the cipher
//! cannot know it was seen before. So each state carries a random id, and the server
//! redeems that id in a [`RedeemStore`] before it acts on the state: the first
//! redemption wins, a second one (a replayed retry, on this replica or another) is
//! refused. An entry needs to live only as long as the state could still open.
//!
//! - [`MemoryStore`]: one process (the default of `mcp::Elicitor`).
//! - `RedisStore` (feature `redis`): replicas behind a load balancer share it, so a
//!   state redeemed on one is refused on every other.
//!
//! ```
//! use elicit_core::seal::store::{MemoryStore, RedeemStore};
//!
//! # async fn run() -> Result<(), elicit_core::seal::store::StoreError> {
//! let store = MemoryStore::new();
//! let expires_at = 4_102_444_800; // seconds since the Unix epoch
//! assert!(store.redeem("Pq3x…", expires_at).await?); // the first time
//! assert!(!store.redeem("Pq3x…", expires_at).await?); // a replay
//! # Ok(())
//! # }
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

/// What [`RedeemStore::redeem`] returns.
pub type Redeem<'a> = Pin<Box<dyn Future<Output = Result<bool, StoreError>> + Send + 'a>>;

/// Records redeemed state ids. Implement it to keep them in a store of your own (a
/// database, another cache); it must be atomic across every server that shares it.
pub trait RedeemStore: Send + Sync + fmt::Debug {
    /// Records `id` as redeemed, to be remembered at least until `expires_at` (seconds
    /// since the Unix epoch; later the state it names no longer opens). `Ok(true)` the
    /// first time, `Ok(false)` when `id` was redeemed before. An error refuses the
    /// state: without the record, single use cannot be promised.
    fn redeem<'a>(&'a self, id: &'a str, expires_at: u64) -> Redeem<'a>;
}

/// Why a store could not record a redemption (unreachable, full). Its message is fit
/// for a log; the state is refused.
#[derive(Debug)]
pub struct StoreError {
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl StoreError {
    /// An error with `message`, caused by `source` when there is one.
    pub fn new(
        message: impl Into<String>,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> StoreError {
        StoreError {
            message: message.into(),
            source,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(source) = &self.source {
            write!(f, ": {source}")?;
        }
        Ok(())
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The most ids a [`MemoryStore`] holds unless told otherwise (1,000,000, about 100 MB
/// at worst): 1,100 rounds a second for the default 15-minute lifetime of a state.
pub const MEMORY_STORE_CAPACITY: usize = 1_000_000;

/// Redeemed ids in this process's memory, each forgotten once its state has expired.
/// Bounded: past its capacity of live ids, a new redemption is refused (an error) rather
/// than an old id forgotten early, which would let its state be replayed.
#[derive(Debug)]
pub struct MemoryStore {
    capacity: usize,
    inner: Mutex<Live>,
}

#[derive(Debug, Default)]
struct Live {
    ids: HashMap<String, u64>,
    /// The same ids by expiry, soonest first.
    by_expiry: BinaryHeap<Reverse<(u64, String)>>,
}

impl MemoryStore {
    /// An empty store holding at most [`MEMORY_STORE_CAPACITY`] live ids.
    pub fn new() -> MemoryStore {
        MemoryStore::with_capacity(MEMORY_STORE_CAPACITY)
    }

    /// An empty store holding at most `capacity` live ids.
    pub fn with_capacity(capacity: usize) -> MemoryStore {
        MemoryStore {
            capacity,
            inner: Mutex::new(Live::default()),
        }
    }

    /// How many ids it holds now (expired ones are dropped on the next redemption).
    pub fn len(&self) -> usize {
        self.lock().ids.len()
    }

    /// Whether it holds no ids.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Live> {
        // A panic while holding the lock leaves the maps consistent (each step is one
        // insert or remove), so a poisoned lock is used as it is.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// [`RedeemStore::redeem`] at the time `now`.
    fn redeem_at(&self, id: &str, expires_at: u64, now: u64) -> Result<bool, StoreError> {
        let mut live = self.lock();
        while let Some(Reverse((expiry, _))) = live.by_expiry.peek() {
            if *expiry > now {
                break;
            }
            if let Some(Reverse((_, old))) = live.by_expiry.pop() {
                live.ids.remove(&old);
            }
        }
        if live.ids.contains_key(id) {
            return Ok(false);
        }
        if live.ids.len() >= self.capacity {
            return Err(StoreError::new(
                format!(
                    "the single-use record is full ({} live states); try again later",
                    self.capacity
                ),
                None,
            ));
        }
        live.ids.insert(id.to_owned(), expires_at);
        live.by_expiry.push(Reverse((expires_at, id.to_owned())));
        Ok(true)
    }
}

impl Default for MemoryStore {
    fn default() -> MemoryStore {
        MemoryStore::new()
    }
}

impl RedeemStore for MemoryStore {
    fn redeem<'a>(&'a self, id: &'a str, expires_at: u64) -> Redeem<'a> {
        let result = self.redeem_at(id, expires_at, super::now());
        Box::pin(std::future::ready(result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_redeemed_once_until_it_expires() {
        let store = MemoryStore::new();
        assert!(store.redeem_at("a", 100, 10).unwrap());
        assert!(!store.redeem_at("a", 100, 10).unwrap());
        assert!(store.redeem_at("b", 50, 10).unwrap());
        assert_eq!(store.len(), 2);
        // Past b's expiry, b is forgotten (its state no longer opens); a is kept.
        assert!(!store.redeem_at("a", 100, 60).unwrap());
        assert_eq!(store.len(), 1);
        assert!(store.redeem_at("b", 150, 60).unwrap());
    }

    #[test]
    fn a_full_store_refuses_rather_than_forgets() {
        let store = MemoryStore::with_capacity(2);
        assert!(store.redeem_at("a", 100, 0).unwrap());
        assert!(store.redeem_at("b", 100, 0).unwrap());
        let err = store.redeem_at("c", 100, 0).unwrap_err();
        assert!(err.to_string().contains("full (2 live states)"), "{err}");
        // The ones it holds are still refused, and room comes back with expiry.
        assert!(!store.redeem_at("a", 100, 0).unwrap());
        assert!(store.redeem_at("c", 200, 100).unwrap());
        assert_eq!(store.len(), 1);
    }
}
