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

/// Moved to [`store`](crate::store): the old module path `seal::store`.
#[doc(hidden)]
#[deprecated(note = "moved to `elicit_core::store`")]
pub mod store {
    pub use crate::store::*;
}

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

    /// The renames of the changelog's table still build, naming the same things.
    #[test]
    fn the_old_names_still_build() {
        let _: crate::seal::store::MemoryStore = crate::store::MemoryStore::with_capacity(8);
        assert_eq!(
            crate::seal::DEFAULT_TTL,
            crate::engine::Settings::default().state_ttl
        );
        let keyring = crate::seal::Keyring::generate();
        let (_, key) = keyring.current();
        assert!(keyring.to_text().ends_with(&key.to_base64()));
    }
}
