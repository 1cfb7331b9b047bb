//! [`MemoryStore`]: redeemed state ids and task records in this process's memory.

use std::cmp::Reverse;
use std::collections::hash_map::RandomState;
use std::collections::{BinaryHeap, HashSet};
use std::hash::BuildHasher;
use std::sync::Mutex;

use super::redeem::{Redeem, RedeemStore, Redemption};
use super::tasks::{Admit, Forget, Load, Records, Save, TaskStore};
use crate::seal::{now, random_id};

/// The most ids a [`MemoryStore`] holds unless told otherwise (1,000,000, about 40 MB
/// at most): 1,100 rounds a second for the whole 15-minute default lifetime of a state.
const MEMORY_STORE_CAPACITY: usize = 1_000_000;

/// Redeemed ids in this process's memory, each forgotten once its state has expired.
///
/// Bounded: each id is kept as a 64-bit keyed hash (a collision, about one in 10¹³
/// at full capacity, refuses a genuine retry, never lets a replay through). Past its
/// capacity it forgets the ids closest to expiry early and from then refuses every state sealed
/// no later than the last one forgotten ([`Redemption::TooOld`]): under overload the
/// lifetime of states shrinks, and single use holds.
#[derive(Debug)]
pub struct MemoryStore {
    capacity: usize,
    hasher: RandomState,
    inner: Mutex<Live>,
    /// This record's epoch ([`RedeemStore::epoch`]).
    epoch: String,
    /// When the record began (seconds since the Unix epoch).
    started: u64,
    /// The records of tasks, when it serves as a [`TaskStore`].
    records: Mutex<Records>,
}

#[derive(Debug, Default)]
struct Live {
    ids: HashSet<u64>,
    /// The same ids by expiry, soonest first: `(expires_at, issued_at, id)`.
    by_expiry: BinaryHeap<Reverse<(u64, u64, u64)>>,
    /// States sealed at or before this time are refused (an id of that time was
    /// forgotten early).
    floor: u64,
}

impl MemoryStore {
    /// An empty store holding at most `capacity` ids (at least 1).
    pub fn with_capacity(capacity: usize) -> MemoryStore {
        MemoryStore {
            capacity: capacity.max(1),
            hasher: RandomState::new(),
            inner: Mutex::new(Live::default()),
            epoch: random_id(),
            records: Mutex::default(),
            started: now(),
        }
    }

    /// The store as if its record began at `started` (seconds since the Unix epoch).
    #[cfg(test)]
    fn started_at(mut self, started: u64) -> MemoryStore {
        self.started = started;
        self
    }

    /// How many ids it holds now (expired ones are dropped on the next redemption).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().ids.len()
    }

    fn records(&self) -> std::sync::MutexGuard<'_, Records> {
        self.records.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Live> {
        // Every step below leaves the record consistent, so a lock poisoned by a panic
        // elsewhere is used as it is.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// [`RedeemStore::redeem`] at the time `now`.
    fn redeem_at(&self, id: &str, issued_at: u64, expires_at: u64, now: u64) -> Redemption {
        let key = self.hasher.hash_one(id);
        let mut live = self.lock();
        while live
            .by_expiry
            .peek()
            .is_some_and(|Reverse((expiry, _, _))| *expiry <= now)
        {
            if let Some(Reverse((_, _, old))) = live.by_expiry.pop() {
                live.ids.remove(&old);
            }
        }
        if issued_at <= live.floor
            || (issued_at <= self.started && !id.starts_with(self.epoch.as_str()))
        {
            return Redemption::TooOld;
        }
        if live.ids.contains(&key) {
            return Redemption::Again;
        }
        while live.ids.len() >= self.capacity {
            let Some(Reverse((_, issued, old))) = live.by_expiry.pop() else {
                break;
            };
            live.ids.remove(&old);
            live.floor = live.floor.max(issued);
        }
        if issued_at <= live.floor {
            return Redemption::TooOld;
        }
        live.ids.insert(key);
        live.by_expiry.push(Reverse((expires_at, issued_at, key)));
        Redemption::First
    }
}

impl Default for MemoryStore {
    /// An empty store holding at most 1,000,000 ids (about 40 MB at most: 1,100 rounds
    /// a second for the whole 15-minute default lifetime of a state).
    fn default() -> MemoryStore {
        MemoryStore::with_capacity(MEMORY_STORE_CAPACITY)
    }
}

impl RedeemStore for MemoryStore {
    /// A random id made when the store is, which starts the id of every state this
    /// process seals. A state of another epoch sealed no later than the second the
    /// record began is refused ([`Redemption::TooOld`]): it may come from this process's
    /// earlier life (a restart keeps the keys and empties the record), so whether it
    /// was used cannot be told. A state of another epoch sealed later is another
    /// replica's, taken as before.
    fn epoch(&self) -> &str {
        &self.epoch
    }

    fn redeem<'a>(&'a self, id: &'a str, issued_at: u64, expires_at: u64) -> Redeem<'a> {
        let outcome = self.redeem_at(id, issued_at, expires_at, now());
        Box::pin(std::future::ready(Ok(outcome)))
    }
}

/// Records in this process's memory: versioned as in Redis, but gone with the
/// process, and nothing announced (readers poll).
impl TaskStore for MemoryStore {
    fn load<'a>(&'a self, key: &'a str) -> Load<'a> {
        let loaded = self.records().load(key, now());
        Box::pin(std::future::ready(Ok(loaded)))
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        record: &'a str,
        expires_at: u64,
    ) -> Save<'a> {
        let saved = self.records().save(key, version, record, expires_at, now());
        Box::pin(std::future::ready(Ok(saved)))
    }

    fn admit<'a>(&'a self, caps: &'a [(&'a str, usize)], id: &'a str, until: u64) -> Admit<'a> {
        let full = self.records().admit(caps, id, until, now());
        Box::pin(std::future::ready(Ok(full)))
    }

    fn forget<'a>(&'a self, keys: &'a [&'a str], id: &'a str) -> Forget<'a> {
        self.records().forget(keys, id);
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Redemption::{Again, First, TooOld};

    #[test]
    fn an_id_is_redeemed_once_until_it_expires() {
        let store = MemoryStore::default().started_at(0);
        assert_eq!(store.redeem_at("a", 5, 100, 10), First);
        assert_eq!(store.redeem_at("a", 5, 100, 10), Again);
        assert_eq!(store.redeem_at("b", 5, 50, 10), First);
        assert_eq!(store.len(), 2);
        // Past b's expiry, b is forgotten (its state no longer opens); a is kept.
        assert_eq!(store.redeem_at("a", 5, 100, 60), Again);
        assert_eq!(store.len(), 1);
        assert_eq!(store.redeem_at("b", 55, 150, 60), First);
    }

    #[test]
    fn a_full_store_forgets_the_oldest_and_refuses_states_as_old() {
        let store = MemoryStore::with_capacity(2).started_at(0);
        assert_eq!(store.redeem_at("a", 10, 1000, 20), First);
        assert_eq!(store.redeem_at("b", 11, 1000, 20), First);
        // Full: a is forgotten early, so nothing sealed at 10 or before may open.
        assert_eq!(store.redeem_at("c", 12, 1000, 20), First);
        assert_eq!(store.len(), 2);
        assert_eq!(store.redeem_at("a", 10, 1000, 20), TooOld);
        assert_eq!(store.redeem_at("x", 9, 1000, 20), TooOld);
        // What it still holds is still refused, and newer states are taken.
        assert_eq!(store.redeem_at("b", 11, 1000, 20), Again);
        assert_eq!(store.redeem_at("d", 13, 1000, 20), First);
        assert_eq!(store.redeem_at("b", 11, 1000, 20), TooOld);
    }

    /// A restart keeps the keys and empties the record: a state of the earlier life
    /// (another epoch, sealed no later than the record began) is refused; this life's
    /// states, and another replica's sealed since, are taken.
    #[test]
    fn a_restarted_record_refuses_the_states_of_its_earlier_life() {
        let before = MemoryStore::default().started_at(100);
        let old = [before.epoch(), "round1"].concat();
        assert_eq!(before.redeem_at(&old, 150, 1000, 160), First);
        // The process restarts at 200: a new record, a new epoch.
        let after = MemoryStore::default().started_at(200);
        assert_ne!(after.epoch(), before.epoch());
        assert_eq!(after.redeem_at(&old, 150, 1000, 210), TooOld);
        // Even one sealed in the very second the new record began.
        let same_second = [before.epoch(), "round2"].concat();
        assert_eq!(after.redeem_at(&same_second, 200, 1000, 210), TooOld);
        // Its own states are taken from its first second on, once.
        let own = [after.epoch(), "round3"].concat();
        assert_eq!(after.redeem_at(&own, 200, 1000, 210), First);
        assert_eq!(after.redeem_at(&own, 200, 1000, 210), Again);
        // Another replica's state sealed after the record began is taken.
        assert_eq!(after.redeem_at("replica-b.round4", 201, 1000, 210), First);
    }

    /// A million redemptions through a store of ten thousand: memory stays bounded and
    /// every replay of a recent id is still refused.
    #[test]
    fn sustained_load_keeps_it_bounded_and_single_use() {
        let store = MemoryStore::with_capacity(10_000).started_at(0);
        for i in 0..1_000_000u64 {
            let issued = 1_000 + i / 1_000;
            assert_eq!(
                store.redeem_at(&i.to_string(), issued, issued + 900, issued),
                First
            );
        }
        assert!(store.len() <= 10_000);
        let last = 999_999u64;
        assert_eq!(
            store.redeem_at(&last.to_string(), 1_999, 2_899, 1_999),
            Again
        );
        assert_eq!(store.redeem_at("0", 1_000, 1_900, 1_999), TooOld);
    }
}
