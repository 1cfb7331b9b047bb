//! Records that outlive a process: where an adapter keeps the tasks of a server that
//! runs as several replicas ([`TaskStore`]).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use futures_util::Stream;

use crate::seal::SealError;

/// What [`TaskStore::load`] returns: the record and its version, if one is kept.
pub(super) type Load<'a> =
    Pin<Box<dyn Future<Output = Result<Option<(u64, String)>, SealError>> + Send + 'a>>;
/// What [`TaskStore::save`] returns: whether the record was written.
pub(super) type Save<'a> = Pin<Box<dyn Future<Output = Result<bool, SealError>> + Send + 'a>>;
/// What [`TaskStore::changes`] returns.
pub(super) type Changes = Pin<Box<dyn Stream<Item = String> + Send>>;
/// What [`TaskStore::admit`] returns: `None` when counted, or which index is full.
pub(super) type Admit<'a> =
    Pin<Box<dyn Future<Output = Result<Option<usize>, SealError>> + Send + 'a>>;
/// What [`TaskStore::forget`] returns.
pub(super) type Forget<'a> = Pin<Box<dyn Future<Output = Result<(), SealError>> + Send + 'a>>;

/// Versioned records shared by every replica of a server: the tasks of the Tasks
/// extension (`elicit_rmcp::Tasks::with_task_store`), so that any replica answers for a task
/// and a task outlives the process that started it.
///
/// A record is text (the adapter's JSON) under a key, with a version: each write names
/// the version it read, and only one of two writers racing from the same version
/// wins. Implemented by [`MemoryStore`](super::MemoryStore) (one process: tests, a single server) and
/// [`RedisStore`](super::RedisStore) (feature `redis`); implement it for a store of
/// your own (a database row with a version column).
///
/// ```
/// use elicit_core::store::{MemoryStore, TaskStore};
///
/// # async fn run() -> Result<(), elicit_core::seal::SealError> {
/// let store = MemoryStore::default();
/// let expires_at = 4_102_444_800; // seconds since the Unix epoch
/// assert!(store.save("task-1", 0, "working", expires_at).await?); // created
/// let (version, record) = store.load("task-1").await?.expect("kept");
/// assert_eq!((version, record.as_str()), (1, "working"));
/// assert!(store.save("task-1", 1, "completed", expires_at).await?);
/// // A writer that read version 1 too comes second: nothing written.
/// assert!(!store.save("task-1", 1, "cancelled", expires_at).await?);
/// # Ok(())
/// # }
/// ```
pub trait TaskStore: Send + Sync + fmt::Debug {
    /// The record under `key` and its version (1 after the first write), or `None`
    /// when none is kept (never written, or expired).
    fn load<'a>(&'a self, key: &'a str) -> Load<'a>;

    /// Writes `record` under `key` as version `version + 1`, if the version kept now is
    /// `version` (`0`: no record kept): `Ok(true)`. Otherwise nothing is written and
    /// the answer is `Ok(false)` (another writer came first). The record is kept until
    /// `expires_at` (seconds since the Unix epoch), and the write is announced on
    /// [`changes`](Self::changes).
    fn save<'a>(&'a self, key: &'a str, version: u64, record: &'a str, expires_at: u64)
    -> Save<'a>;

    /// The keys written from now on, by any replica, as they are announced: a hint to
    /// read them again (an announcement may be lost; an empty key means "anything may
    /// have changed"). `None` (the default): the store announces nothing, and readers
    /// poll.
    fn changes(&self) -> Option<Changes> {
        None
    }

    /// Counts `id` in each index that `caps` names, with the most entries it may hold,
    /// until `until` (seconds since the Unix epoch), in one atomic step: entries past
    /// their `until` are dropped first; then, if an index already holds its most and
    /// `id` is not counted in it, nothing is written and the answer is `Ok(Some(i))`,
    /// `i` the position in `caps` of the first such index; otherwise `id` is counted in
    /// every index (again, with the new `until`, where it already was) and the answer
    /// is `Ok(None)`. Index writes are not announced on [`changes`](Self::changes).
    ///
    /// This is how the adapter caps the tasks not ended per principal and in all: the
    /// check and the counting are one step, so racing replicas cannot both take the
    /// last place, and a refused call changes nothing.
    ///
    /// ```
    /// use elicit_core::store::{MemoryStore, TaskStore};
    ///
    /// # async fn run() -> Result<(), elicit_core::seal::SealError> {
    /// let store = MemoryStore::default();
    /// let until = 4_102_444_800;
    /// let caps = [("owner:alice", 1), ("all", 100)];
    /// assert_eq!(store.admit(&caps, "task-1", until).await?, None);
    /// // Alice's index is full: nothing is counted, not even in "all".
    /// assert_eq!(store.admit(&caps, "task-2", until).await?, Some(0));
    /// store.forget(&["owner:alice", "all"], "task-1").await?;
    /// assert_eq!(store.admit(&caps, "task-2", until).await?, None);
    /// # Ok(())
    /// # }
    /// ```
    fn admit<'a>(&'a self, caps: &'a [(&'a str, usize)], id: &'a str, until: u64) -> Admit<'a>;

    /// Stops counting `id` in each of the indexes `keys`, in one step (an id not
    /// counted there changes nothing).
    fn forget<'a>(&'a self, keys: &'a [&'a str], id: &'a str) -> Forget<'a>;
}

impl<T: TaskStore + ?Sized> TaskStore for Arc<T> {
    fn load<'a>(&'a self, key: &'a str) -> Load<'a> {
        (**self).load(key)
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        record: &'a str,
        expires_at: u64,
    ) -> Save<'a> {
        (**self).save(key, version, record, expires_at)
    }

    fn changes(&self) -> Option<Changes> {
        (**self).changes()
    }

    fn admit<'a>(&'a self, caps: &'a [(&'a str, usize)], id: &'a str, until: u64) -> Admit<'a> {
        (**self).admit(caps, id, until)
    }

    fn forget<'a>(&'a self, keys: &'a [&'a str], id: &'a str) -> Forget<'a> {
        (**self).forget(keys, id)
    }
}

/// The records of a [`MemoryStore`](super::MemoryStore): by key, the version, the
/// record and its expiry; and the indexes of [`TaskStore::admit`]: by key, each id
/// counted and until when.
#[derive(Debug, Default)]
pub(super) struct Records {
    records: HashMap<String, (u64, String, u64)>,
    indexes: HashMap<String, HashMap<String, u64>>,
}

impl Records {
    pub(super) fn load(&mut self, key: &str, now: u64) -> Option<(u64, String)> {
        match self.records.get(key) {
            Some((_, _, expires_at)) if *expires_at <= now => {
                self.records.remove(key);
                None
            }
            Some((version, record, _)) => Some((*version, record.clone())),
            None => None,
        }
    }

    pub(super) fn save(
        &mut self,
        key: &str,
        version: u64,
        record: &str,
        expires_at: u64,
        now: u64,
    ) -> bool {
        let kept = self.load(key, now).map_or(0, |(v, _)| v);
        if kept != version {
            return false;
        }
        // Expired records go when the map would grow.
        if version == 0 && self.records.len().is_power_of_two() {
            self.records.retain(|_, (_, _, at)| *at > now);
        }
        self.records
            .insert(key.to_owned(), (version + 1, record.to_owned(), expires_at));
        true
    }

    /// [`TaskStore::admit`] at the time `now`.
    pub(super) fn admit(
        &mut self,
        caps: &[(&str, usize)],
        id: &str,
        until: u64,
        now: u64,
    ) -> Option<usize> {
        for (i, (key, max)) in caps.iter().enumerate() {
            let Some(index) = self.indexes.get_mut(*key) else {
                continue;
            };
            index.retain(|_, at| *at > now);
            if !index.contains_key(id) && index.len() >= *max {
                return Some(i);
            }
        }
        for (key, _) in caps {
            let index = self.indexes.entry((*key).to_owned()).or_default();
            index.insert(id.to_owned(), until);
        }
        None
    }

    /// [`TaskStore::forget`].
    pub(super) fn forget(&mut self, keys: &[&str], id: &str) {
        for key in keys {
            if let Some(index) = self.indexes.get_mut(*key) {
                index.remove(id);
                if index.is_empty() {
                    self.indexes.remove(*key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Records;

    #[test]
    fn a_record_is_written_only_from_the_version_kept() {
        let mut records = Records::default();
        assert!(records.save("t", 0, "a", 100, 10));
        assert!(!records.save("t", 0, "b", 100, 10), "already created");
        assert!(records.save("t", 1, "c", 100, 10));
        assert!(!records.save("t", 1, "d", 100, 10), "a stale writer");
        assert_eq!(records.load("t", 10), Some((2, "c".to_owned())));
        // Past its expiry it is gone, and may be created again.
        assert_eq!(records.load("t", 100), None);
        assert!(records.save("t", 0, "e", 200, 100));
    }

    #[test]
    fn an_index_counts_until_full_all_or_nothing() {
        let mut records = Records::default();
        let caps = [("alice", 2), ("all", 3)];
        assert_eq!(records.admit(&caps, "a1", 100, 10), None);
        assert_eq!(records.admit(&caps, "a2", 100, 10), None);
        // Alice's index is full: "all" is left as it was.
        assert_eq!(records.admit(&caps, "a3", 100, 10), Some(0));
        assert_eq!(records.indexes["all"].len(), 2);
        // Counted again (a new until) whatever the cap.
        assert_eq!(records.admit(&caps, "a2", 50, 10), None);
        assert_eq!(
            records.admit(&[("bob", 2), ("all", 3)], "b1", 100, 10),
            None
        );
        assert_eq!(
            records.admit(&[("carol", 2), ("all", 3)], "c1", 100, 10),
            Some(1)
        );
        // a2's place lapses at 50; a forgotten id makes room too.
        assert_eq!(
            records.admit(&[("carol", 2), ("all", 3)], "c1", 100, 50),
            None
        );
        records.forget(&["alice", "all"], "a1");
        assert_eq!(records.admit(&caps, "a4", 100, 50), None);
        assert_eq!(records.indexes["alice"].len(), 1);
    }
}
