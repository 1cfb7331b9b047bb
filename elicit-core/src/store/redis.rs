//! [`RedisStore`]: redeemed state ids in Redis, shared by every replica.

use std::sync::{Arc, LazyLock, Mutex, OnceLock, Weak};
use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use futures_util::StreamExt;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::redeem::{Redeem, RedeemStore, Redemption};
use super::tasks::{Admit, Changes, Forget, Load, Save, TaskStore};
use crate::seal::SealError;

/// How long one redemption may wait for Redis before the state is refused (2 s).
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// Redeemed state ids in Redis (feature `redis`): one key per id, set only if absent
/// (`SET elicit:redeemed:<id> 1 NX EXAT <expiry>`), so of two replicas redeeming the
/// same state at once exactly one wins, and Redis forgets the key when the state
/// expires. Redemptions made at the same moment (the rounds a busy replica has in
/// progress) go to Redis together, in one pipeline: one write and one read of the
/// connection for all of them. The connection reconnects by itself; while Redis is
/// unreachable, redemptions fail and states are refused (single use cannot be promised
/// without the record).
///
/// Give it to the question engine (`elicit_core::engine::Engine::with_redeem_store`, or
/// `elicit_rmcp::Elicitor::with_redeem_store`), or redeem with it yourself:
///
/// ```no_run
/// use elicit_core::store::{RedeemStore, Redemption, RedisStore};
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
    client: Option<::redis::Client>,
    connection: ConnectionManager,
    prefix: String,
    /// The announcements of task records, heard by one subscription for all the
    /// store's clones (made when first asked for).
    changes: Arc<OnceLock<broadcast::Sender<String>>>,
    /// Redemptions on their way to the store's one pipeline task (started when first
    /// asked for).
    redemptions: Arc<Mutex<Option<mpsc::UnboundedSender<Redeeming>>>>,
}

/// One redemption waiting for its pipeline: the key, its expiry, and where its answer
/// goes (`true` when this redemption set the key).
struct Redeeming {
    key: String,
    expires_at: u64,
    answer: oneshot::Sender<Result<bool, Arc<::redis::RedisError>>>,
}

/// The most redemptions sent in one pipeline.
const PIPELINE_MAX: usize = 128;

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`, `rediss://` for TLS,
    /// `redis+unix:///path`), with the key prefix `elicit:`.
    pub async fn connect(url: &str) -> Result<RedisStore, SealError> {
        // Each round waits for one small command: sent at once (`TCP_NODELAY`), not held
        // back by Nagle's algorithm behind the replies of commands still in flight.
        let info = ::redis::IntoConnectionInfo::into_connection_info(url)
            .map_err(|e| SealError::store("not a Redis URL", Some(Box::new(e))))?
            .set_tcp_settings(::redis::io::tcp::TcpSettings::default().set_nodelay(true));
        let client = ::redis::Client::open(info)
            .map_err(|e| SealError::store("not a Redis URL", Some(Box::new(e))))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(2);
        let connection = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|e| SealError::store("cannot connect to Redis", Some(Box::new(e))))?;
        let mut store = RedisStore::with_connection(connection);
        store.client = Some(client);
        Ok(store)
    }

    /// A store on a connection of your own (it announces no task changes).
    pub(crate) fn with_connection(connection: ConnectionManager) -> RedisStore {
        RedisStore {
            client: None,
            connection,
            prefix: "elicit:".to_owned(),
            changes: Arc::default(),
            redemptions: Arc::default(),
        }
    }

    /// Another key prefix (servers of different applications sharing one Redis):
    /// redeemed ids are kept under `<prefix>redeemed:<id>`, task records under
    /// `<prefix>task:<key>`, the indexes of [`TaskStore::admit`] under
    /// `<prefix>task-index:<key>`, and task changes announced on the channel
    /// `<prefix>tasks`.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> RedisStore {
        self.prefix = prefix.into();
        self.changes = Arc::default();
        self
    }

    fn error(what: &'static str) -> impl FnOnce(::redis::RedisError) -> SealError {
        move |e| SealError::store(what, Some(Box::new(e)))
    }
}

impl RedeemStore for RedisStore {
    fn redeem<'a>(&'a self, id: &'a str, _issued_at: u64, expires_at: u64) -> Redeem<'a> {
        Box::pin(async move {
            let (answer, answered) = oneshot::channel();
            let redeeming = Redeeming {
                key: format!("{}redeemed:{id}", self.prefix),
                expires_at,
                answer,
            };
            self.send(redeeming);
            let first = answered
                .await
                .map_err(|_| SealError::store("the Redis pipeline task stopped", None))?
                .map_err(|e| {
                    SealError::store("cannot record the redemption in Redis", Some(Box::new(e)))
                })?;
            Ok(if first {
                Redemption::First
            } else {
                Redemption::Again
            })
        })
    }
}

impl RedisStore {
    /// Hands a redemption to the pipeline task, starting one (again) when there is none:
    /// the first redemption starts it, and so does the first after the runtime that ran
    /// it ended.
    fn send(&self, redeeming: Redeeming) {
        let mut sender = self.redemptions.lock().unwrap_or_else(|e| e.into_inner());
        let redeeming = match sender.as_ref() {
            Some(live) => match live.send(redeeming) {
                Ok(()) => return,
                Err(mpsc::error::SendError(redeeming)) => redeeming,
            },
            None => redeeming,
        };
        let (started, receiver) = mpsc::unbounded_channel();
        tokio::spawn(pipeline(receiver, self.connection.clone()));
        // A new channel with its receiver alive takes the redemption.
        let _ = started.send(redeeming);
        *sender = Some(started);
    }
}

/// Sends the redemptions of the store and its clones to Redis, as many in one pipeline
/// as are waiting, one pipeline at a time: after the first redemption arrives it lets
/// every task that is ready run first (`yield_now`), and the redemptions that arrive
/// while a pipeline is out wait for its replies and go together in the next. So the
/// rounds in progress cost the connection one write and one read between them, not one
/// each, and `redis-server` is woken once for all of them. A redemption that comes while
/// a pipeline is out waits at most that pipeline's round trip longer.
async fn pipeline(
    mut redemptions: mpsc::UnboundedReceiver<Redeeming>,
    mut connection: ConnectionManager,
) {
    let mut batch = Vec::new();
    while redemptions.recv_many(&mut batch, PIPELINE_MAX).await > 0 {
        tokio::task::yield_now().await;
        while batch.len() < PIPELINE_MAX {
            match redemptions.try_recv() {
                Ok(redeeming) => batch.push(redeeming),
                Err(_) => break,
            }
        }
        match redeem_all(&mut connection, &batch).await {
            Ok(firsts) => {
                for (redeeming, first) in batch.drain(..).zip(firsts) {
                    let _ = redeeming.answer.send(Ok(first));
                }
            }
            Err(e) => {
                for redeeming in batch.drain(..) {
                    let _ = redeeming.answer.send(Err(e.clone()));
                }
            }
        }
    }
}

/// Redeems `batch` in one pipeline: for each, whether this `SET NX` set the key.
async fn redeem_all(
    connection: &mut ConnectionManager,
    batch: &[Redeeming],
) -> Result<Vec<bool>, Arc<::redis::RedisError>> {
    let mut pipe = ::redis::pipe();
    for redeeming in batch {
        pipe.cmd("SET")
            .arg(&redeeming.key)
            .arg(1)
            .arg("NX")
            .arg("EXAT")
            .arg(redeeming.expires_at);
    }
    let replies: Vec<Option<String>> = pipe.query_async(connection).await.map_err(Arc::new)?;
    if replies.len() != batch.len() {
        return Err(Arc::new(::redis::RedisError::from((
            ::redis::ErrorKind::UnexpectedReturnType,
            "not one reply per redemption",
        ))));
    }
    Ok(replies.iter().map(Option::is_some).collect())
}

/// Writes a task record from the version read (`ARGV[1]`; none kept reads as 0) as the
/// next one, kept until `ARGV[3]`, and announces its key `ARGV[4]` on the channel
/// `KEYS[2]`: 1 when written, 0 when another writer came first. One script, so the
/// check and the write are one step for every replica.
const SAVE: &str = r"
local kept = redis.call('HGET', KEYS[1], 'v') or '0'
if kept ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), 'r', ARGV[2])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], ARGV[4])
return 1
";

/// The script of [`TaskStore::admit`]: `KEYS` the indexes (sorted sets scored by
/// until when each id counts), `ARGV` the id, its until, the time now, and each
/// index's cap. Returns 0 when counted, else the (1-based) index that is full.
const ADMIT: &str = r"
local id, now = ARGV[1], tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, id) and redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], id)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  redis.call('EXPIREAT', key, math.floor(tonumber(last[2])) + 1)
end
return 0
";

/// Task records in Redis (feature `redis`), one hash per task (`v` its version, `r`
/// the record) under `<prefix>task:<key>`, expiring with the task. A write is one Lua
/// script (compare the version, write, set the expiry, `PUBLISH` the key on
/// `<prefix>tasks`), so of two replicas writing from one version exactly one wins.
/// An index of [`admit`](TaskStore::admit) is a sorted set under
/// `<prefix>task-index:<key>` (each id scored by until when it counts), changed by one
/// Lua script or one `ZREM` each, never announced. The keys of one call must be on one
/// node (Redis Cluster: give the prefix a hash tag, `{elicit}:`).
/// Announcements are heard by one subscription per store (and its clones), subscribed
/// again a second after its connection breaks; a reader is told `""` ("anything may
/// have changed") whenever it may have missed one.
impl TaskStore for RedisStore {
    fn load<'a>(&'a self, key: &'a str) -> Load<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let (version, record): (Option<u64>, Option<String>) = ::redis::cmd("HMGET")
                .arg(format!("{}task:{key}", self.prefix))
                .arg("v")
                .arg("r")
                .query_async(&mut connection)
                .await
                .map_err(Self::error("cannot read the task from Redis"))?;
            Ok(version.zip(record))
        })
    }

    fn save<'a>(
        &'a self,
        key: &'a str,
        version: u64,
        record: &'a str,
        expires_at: u64,
    ) -> Save<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            // The script's digest is computed once (`EVALSHA`, loaded when missing).
            static SCRIPT: LazyLock<::redis::Script> = LazyLock::new(|| ::redis::Script::new(SAVE));
            let written: i64 = SCRIPT
                .key(format!("{}task:{key}", self.prefix))
                .key(format!("{}tasks", self.prefix))
                .arg(version)
                .arg(record)
                .arg(expires_at)
                .arg(key)
                .invoke_async(&mut connection)
                .await
                .map_err(Self::error("cannot write the task to Redis"))?;
            Ok(written == 1)
        })
    }

    fn admit<'a>(&'a self, caps: &'a [(&'a str, usize)], id: &'a str, until: u64) -> Admit<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            static SCRIPT: LazyLock<::redis::Script> =
                LazyLock::new(|| ::redis::Script::new(ADMIT));
            let mut invocation = SCRIPT.prepare_invoke();
            for (key, _) in caps {
                invocation.key(format!("{}task-index:{key}", self.prefix));
            }
            invocation.arg(id).arg(until).arg(crate::seal::now());
            for (_, max) in caps {
                invocation.arg(*max);
            }
            let full: usize = invocation
                .invoke_async(&mut connection)
                .await
                .map_err(Self::error("cannot count the task in Redis"))?;
            Ok(full.checked_sub(1))
        })
    }

    fn forget<'a>(&'a self, keys: &'a [&'a str], id: &'a str) -> Forget<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let mut pipeline = ::redis::pipe();
            pipeline.atomic();
            for key in keys {
                pipeline
                    .cmd("ZREM")
                    .arg(format!("{}task-index:{key}", self.prefix))
                    .arg(id)
                    .ignore();
            }
            pipeline
                .query_async::<()>(&mut connection)
                .await
                .map_err(Self::error("cannot uncount the task in Redis"))
        })
    }

    fn changes(&self) -> Option<Changes> {
        let client = self.client.clone()?;
        let sender = self.changes.get_or_init(|| {
            let (sender, _) = broadcast::channel(256);
            let channel = format!("{}tasks", self.prefix);
            tokio::spawn(announce(client, channel, Arc::downgrade(&self.changes)));
            sender
        });
        let receiver = sender.subscribe();
        Some(Box::pin(futures_util::stream::unfold(
            receiver,
            |mut receiver| async move {
                match receiver.recv().await {
                    Ok(key) => Some((key, receiver)),
                    // Some were missed: anything may have changed.
                    Err(broadcast::error::RecvError::Lagged(_)) => Some((String::new(), receiver)),
                    Err(broadcast::error::RecvError::Closed) => None,
                }
            },
        )))
    }
}

/// Hears the announcements on `channel` for as long as a clone of the store lives
/// (`changes`), subscribing again a second after the connection breaks; each time it
/// (re)subscribes, readers are told `""`: what was announced meanwhile was not heard.
async fn announce(
    client: ::redis::Client,
    channel: String,
    changes: Weak<OnceLock<broadcast::Sender<String>>>,
) {
    let send = |key: String| match changes.upgrade() {
        Some(changes) => {
            if let Some(sender) = changes.get() {
                let _ = sender.send(key);
            }
            true
        }
        None => false,
    };
    loop {
        if let Ok(mut pubsub) = client.get_async_pubsub().await
            && pubsub.subscribe(&channel).await.is_ok()
        {
            if !send(String::new()) {
                return;
            }
            let mut messages = pubsub.into_on_message();
            while let Some(message) = messages.next().await {
                let key = message.get_payload::<String>().unwrap_or_default();
                if !send(key) {
                    return;
                }
            }
        }
        if !send(String::new()) {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
