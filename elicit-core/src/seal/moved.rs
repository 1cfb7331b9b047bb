//! The old paths of the stores, which moved to [`store`](crate::store): kept for one
//! release so that code written against them still builds, then removed (the changelog
//! lists every moved path).
//!
//! A type alias can carry `#[deprecated]`, so the structs and the enum warn where they
//! are used; a `pub use` cannot (the attribute has no effect on it), so the traits move
//! silently. All are hidden: the documentation shows each item in its one home.

/// Moved to [`store::MemoryStore`](crate::store::MemoryStore).
#[doc(hidden)]
#[deprecated(note = "moved to `elicit_core::store::MemoryStore`")]
pub type MemoryStore = crate::store::MemoryStore;

/// Moved to [`store::Redemption`](crate::store::Redemption).
#[doc(hidden)]
#[deprecated(note = "moved to `elicit_core::store::Redemption`")]
pub type Redemption = crate::store::Redemption;

/// Moved to [`store::RedisStore`](crate::store::RedisStore).
#[cfg(feature = "redis")]
#[doc(hidden)]
#[deprecated(note = "moved to `elicit_core::store::RedisStore`")]
pub type RedisStore = crate::store::RedisStore;

/// Moved to [`store::RedeemStore`](crate::store::RedeemStore) and
/// [`store::TaskStore`](crate::store::TaskStore).
#[doc(hidden)]
pub use crate::store::{RedeemStore, TaskStore};

#[cfg(test)]
#[allow(deprecated)]
mod tests {
    use crate::seal::{MemoryStore, RedeemStore, Redemption, TaskStore};

    #[test]
    fn the_old_paths_name_the_same_items() {
        fn both<S: RedeemStore + TaskStore>(store: S) -> S {
            store
        }
        let store: crate::store::MemoryStore = both(MemoryStore::with_capacity(8));
        assert_eq!(store.epoch().len(), 22);
        let first: crate::store::Redemption = Redemption::First;
        assert!(matches!(first, Redemption::First));
    }
}
