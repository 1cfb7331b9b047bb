//! [`RedisStore`]: redeemed state ids in Redis, shared by every replica.

use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::SealError;
use super::store::{Redeem, RedeemStore, Redemption};

/// How long one redemption may wait for Redis before the state is refused (2 s).
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// Redeemed state ids in Redis (feature `redis`): one key per id, set only if absent
/// (`SET elicit:redeemed:<id> 1 NX EXAT <expiry>`), so of two replicas redeeming the
/// same state at once exactly one wins, and Redis forgets the key when the state
/// expires. The connection reconnects by itself; while Redis is unreachable,
/// redemptions fail and states are refused (single use cannot be promised without the
/// record).
///
/// Give it to the adapter (`elicit_rmcp::Elicitor::with_store`), or redeem with it yourself:
///
/// ```no_run
/// use elicit_core::seal::{RedeemStore, Redemption, RedisStore};
///
/// # async fn run(id: &str, issued_at: u64, expires_at: u64) -> Result<(), Box<dyn std::error::Error>> {
/// let store = RedisStore::connect("redis://127.0.0.1:6379/").await?;
/// if store.redeem(id, issued_at, expires_at).await? != Redemption::First {
///     // a replay: refuse the state
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`, `rediss://` for TLS,
    /// `redis+unix:///path`), with the key prefix `elicit:redeemed:`.
    pub async fn connect(url: &str) -> Result<RedisStore, SealError> {
        let client = ::redis::Client::open(url)
            .map_err(|e| SealError::store("not a Redis URL", Some(Box::new(e))))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(2);
        let connection = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(|e| SealError::store("cannot connect to Redis", Some(Box::new(e))))?;
        Ok(RedisStore::with_connection(connection))
    }

    /// A store on a connection of your own.
    pub(crate) fn with_connection(connection: ConnectionManager) -> RedisStore {
        RedisStore {
            connection,
            prefix: "elicit:redeemed:".to_owned(),
        }
    }

    /// Another key prefix (servers of different applications sharing one Redis).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> RedisStore {
        self.prefix = prefix.into();
        self
    }
}

impl RedeemStore for RedisStore {
    fn redeem<'a>(&'a self, id: &'a str, _issued_at: u64, expires_at: u64) -> Redeem<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let set: Option<String> = ::redis::cmd("SET")
                .arg(format!("{}{id}", self.prefix))
                .arg(1)
                .arg("NX")
                .arg("EXAT")
                .arg(expires_at)
                .query_async(&mut connection)
                .await
                .map_err(|e| {
                    SealError::store("cannot record the redemption in Redis", Some(Box::new(e)))
                })?;
            Ok(if set.is_some() {
                Redemption::First
            } else {
                Redemption::Again
            })
        })
    }
}
