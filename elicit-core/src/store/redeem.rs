//! Single use: the [`RedeemStore`] a server records the sealed states it redeemed in.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use crate::seal::SealError;

/// What [`RedeemStore::redeem`] returns.
pub(crate) type Redeem<'a> =
    Pin<Box<dyn Future<Output = Result<Redemption, SealError>> + Send + 'a>>;

/// The outcome of a redemption.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Redemption {
    /// The first redemption of this id: the state may be used.
    First,
    /// The id was redeemed before: a replay, refused.
    Again,
    /// The state was sealed before the oldest record the store still keeps (a bounded
    /// store under more load than it holds): it cannot tell, so the state is refused.
    TooOld,
}

/// Records redeemed state ids. Implement it to keep them in a store of your own (a
/// database, another cache); it must be atomic across every server that shares it.
///
/// ```
/// use elicit_core::store::{MemoryStore, RedeemStore, Redemption};
///
/// # async fn run() -> Result<(), elicit_core::seal::SealError> {
/// let store = MemoryStore::default();
/// // Seconds since the Unix epoch: sealed now, opening for 15 minutes.
/// let (issued_at, expires_at) = (4_102_444_800, 4_102_445_700);
/// assert_eq!(store.redeem("Pq3x", issued_at, expires_at).await?, Redemption::First);
/// assert_eq!(store.redeem("Pq3x", issued_at, expires_at).await?, Redemption::Again); // a replay
/// # Ok(())
/// # }
/// ```
pub trait RedeemStore: Send + Sync + fmt::Debug {
    /// Records `id`, of a state sealed at `issued_at` that opens until `expires_at`
    /// (seconds since the Unix epoch): [`Redemption::First`] the first time, `Again`
    /// after. The record must last until `expires_at`; a store that drops records
    /// earlier answers `TooOld` for every state sealed before what it dropped. An error
    /// refuses the state: without the record, single use cannot be promised.
    /// A store that cannot be reached answers [`SealError::store`].
    #[allow(clippy::type_complexity)]
    fn redeem<'a>(
        &'a self,
        id: &'a str,
        issued_at: u64,
        expires_at: u64,
    ) -> Pin<Box<dyn Future<Output = Result<Redemption, SealError>> + Send + 'a>>;

    /// The epoch of the record: states are sealed with it, and a state sealed under
    /// another epoch is refused before it is redeemed. A store whose record can be lost
    /// while the keys live on (a process's memory, across a restart) gives each record
    /// an epoch of its own, so that no state from before the loss is taken again. A
    /// durable store, shared by replicas, returns `""` (the default): no epoch is
    /// checked, and the record must outlive every state (see `RedisStore`).
    fn epoch(&self) -> &str {
        ""
    }
}
