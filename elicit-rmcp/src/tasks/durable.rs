//! Durable tasks: a task's record in a shared [`TaskStore`], so that any replica answers
//! `tasks/get`, `tasks/update` and `tasks/cancel` for it and its body goes on wherever
//! the answers arrive.
//!
//! The body does not wait in memory. It runs in rounds, as a 2026-07-28 call without
//! tasks does: up to its next question, which ends the run with the question and the
//! sealed state of the answers so far (`requestState`), both kept in the record. The
//! answers `tasks/update` brings are kept too; once every question of the round has
//! its answer, the replica that received the last one runs the body again from the
//! top with the state and the answers, up to its next question or its end. The body
//! must be deterministic given its arguments and the answers, as in rounds.
//!
//! Every write names the version it read ([`TaskStore::save`]), so of two replicas
//! acting on one task (a replayed `tasks/update`, an update racing a cancel) one wins
//! and the other reads the task again; the state of a round is redeemed once in the
//! server's redeem store, so a round cannot run twice either.
//!
//! `tasks/cancel` tells the truth about side effects: a task waiting for answers ends
//! `cancelled` at once (nothing of its next run happened); a task whose body is running
//! is asked to stop (at once on the replica running it, at the run's next lease renewal
//! on another) and ends as the run does: `cancelled` if the run stopped or reached
//! another question, `completed` or `failed` if it ended anyway.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, InputRequests, InputResponses, JsonObject,
    Task, TaskPayload, TaskStatus,
};
use elicit_core::store::TaskStore;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::id::random_id;

/// How often a write that lost a race is tried again, from a fresh read.
const RETRIES: usize = 16;

/// How long the replica running a task's body holds it without renewing: past it, the
/// replica is taken to have stopped, and the task ends `failed`. Twice the clock skew
/// the sealed state tolerates between replicas (30 s), so a replica whose clock runs
/// ahead by that much does not take a live run for stopped.
pub(crate) const LEASE: Duration = Duration::from_secs(60);

/// How often the replica running a task's body renews its lease.
pub(crate) const RENEW: Duration = Duration::from_secs(10);

/// The error of a task whose replica stopped while its body ran.
const STOPPED: &str = "the server running this task stopped before the task reached its next \
                       question; call the tool again";

/// The longest task id looked up in the store.
const MAX_ID_LEN: usize = 64;

/// The most a task keeps of a call's arguments, as JSON: a call with more is refused.
pub(crate) const MAX_ARGUMENTS: usize = 16 * 1024;

/// The most a task keeps of the client's `_meta` (its revision, name and capabilities),
/// as JSON: a call with more is refused.
pub(crate) const MAX_META: usize = 8 * 1024;

/// The most a task keeps of the answers `tasks/update` brings, as JSON: an update past
/// it is refused.
pub(crate) const MAX_ANSWERS: usize = 64 * 1024;

/// The longest client name and version a task keeps (longer ones are cut).
const MAX_CLIENT_NAME: usize = 256;

/// The error of a task nobody answered while its state could still open.
const UNANSWERED: &str = "the task's question was not answered in time; call the tool again";

/// How long a record is kept when tasks have no TTL (a week from its last write).
const KEPT_WITHOUT_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// What a durable task's body is called with again, and where it stands.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The principal the task belongs to.
    pub(crate) owner: String,
    /// The tool and its arguments.
    pub(crate) tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) arguments: Option<JsonObject>,
    /// The request `_meta` the client sent with the call (its revision, capabilities
    /// and name): every run of the body sees the same client.
    #[serde(default, skip_serializing_if = "JsonObject::is_empty")]
    pub(crate) meta: JsonObject,
    /// The task as `tasks/get` shows it.
    pub(crate) task: DetailedTask,
    /// While it waits for input: the sealed state of the answers so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) state: Option<String>,
    /// The answers `tasks/update` brought to the questions it waits on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) answers: InputResponses,
    /// When it was created and when it expires, if it does (seconds since the Unix
    /// epoch).
    pub(crate) created: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) expires: Option<u64>,
    /// While `working`: until when the replica running the body holds it (seconds
    /// since the Unix epoch), renewed every [`RENEW`].
    #[serde(default)]
    pub(crate) lease: u64,
    /// Which run of the body this is (1 for the call's, one more for each round of
    /// answers): a run writes its end only while the task is still its own.
    #[serde(default)]
    pub(crate) run: u64,
    /// `tasks/cancel` came while the body ran: the run is asked to stop, and ends the
    /// task as it ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) cancelling: bool,
    /// While it waits for input: until when its state opens (seconds since the Unix
    /// epoch); past it the task ends `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) answer_by: Option<u64>,
}

/// A run of a task's body, to be started by the replica that holds it: the record as
/// written with its version.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) id: String,
    pub(crate) version: u64,
    pub(crate) record: Record,
}

/// How a run of the body ended.
pub(crate) enum RunEnd {
    /// At a question: the questions, the sealed state, and until when that state opens
    /// (seconds since the Unix epoch).
    Asked(InputRequests, Option<String>, u64),
    Completed(CallToolResult),
    Failed(McpError),
    Cancelled,
}

/// What [`Tasks::with_task_store`](super::Tasks::with_task_store) keeps: the store, and the runs
/// of this process.
#[derive(Clone, Debug)]
pub(crate) struct Stored {
    store: Arc<dyn TaskStore>,
    /// Bodies running in this process, by task id: the token `tasks/cancel` fires.
    running: Arc<Mutex<HashMap<String, CancellationToken>>>,
}

impl Stored {
    pub(crate) fn new(store: Arc<dyn TaskStore>) -> Stored {
        Stored {
            store,
            running: Arc::default(),
        }
    }
}

/// The durable side of [`Tasks`](super::Tasks): the store, with the limits of the
/// `Tasks` it was made from.
#[derive(Clone, Debug)]
pub(crate) struct Durable {
    stored: Stored,
    ttl: Option<Duration>,
    poll_interval: Duration,
    max_per_principal: usize,
    max_total: usize,
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn timestamp() -> String {
    chrono::Utc::now().to_rfc3339()
}

fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// `-32602` for task `id`: the same answer for an id that never was, expired, or is
/// another principal's. A long id is shown cut (the client sent it; it need not get
/// megabytes back).
pub(crate) fn unknown(id: &str) -> McpError {
    let shown = match id.char_indices().nth(MAX_ID_LEN) {
        Some((end, _)) => format!("{}…", &id[..end]),
        None => id.to_owned(),
    };
    McpError::invalid_params(format!("unknown task: {shown}"), None)
}

fn store_error(e: impl std::fmt::Display) -> McpError {
    McpError::internal_error(format!("the task store failed: {e}"), None)
}

fn busy() -> McpError {
    McpError::internal_error("the task changed too often to be written; try again", None)
}

fn object(value: &impl Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}

pub(crate) fn ended(status: TaskStatus) -> bool {
    matches!(
        status,
        TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
    )
}

/// The task with a new payload, touched now.
fn moved(task: &DetailedTask, payload: TaskPayload, message: Option<String>) -> DetailedTask {
    let mut next = DetailedTask::new(task.task.clone(), payload);
    next.task.last_updated_at = timestamp();
    if message.is_some() {
        next.task.status_message = message;
    }
    next
}

impl Durable {
    /// `stored` with a TTL, a poll interval and the caps per principal and in all.
    pub(crate) fn new(
        stored: &Stored,
        ttl: Option<Duration>,
        poll_interval: Duration,
        max_per_principal: usize,
        max_total: usize,
    ) -> Durable {
        Durable {
            stored: stored.clone(),
            ttl,
            poll_interval,
            max_per_principal,
            max_total,
        }
    }

    /// Until when the record of a task that expires at `expires` is kept: one TTL
    /// past its expiry (an ended task stays readable), and a minute of slack.
    fn kept_until(&self, expires: Option<u64>) -> u64 {
        match (expires, self.ttl) {
            (Some(at), Some(ttl)) => at.saturating_add(ttl.as_secs()).saturating_add(60),
            _ => now().saturating_add(KEPT_WITHOUT_TTL.as_secs()),
        }
    }

    /// The record of task `id` (kept under `t:<id>`, apart from the indexes).
    async fn load(&self, id: &str) -> Result<Option<(u64, Record)>, McpError> {
        // Ours are 22 characters: a longer id is not looked up (a client's id of
        // megabytes would be a key of megabytes).
        if id.len() > MAX_ID_LEN {
            return Ok(None);
        }
        let key = format!("t:{id}");
        let Some((version, text)) = self.stored.store.load(&key).await.map_err(store_error)? else {
            return Ok(None);
        };
        let record = serde_json::from_str(&text).map_err(store_error)?;
        Ok(Some((version, record)))
    }

    async fn save(&self, id: &str, version: u64, record: &Record) -> Result<bool, McpError> {
        let text = serde_json::to_string(record).map_err(store_error)?;
        self.stored
            .store
            .save(
                &format!("t:{id}"),
                version,
                &text,
                self.kept_until(record.expires),
            )
            .await
            .map_err(store_error)
    }

    /// The task id a key of [`TaskStore::changes`] names (`""`: any may have changed).
    pub(crate) fn changed_id(key: &str) -> Option<&str> {
        if key.is_empty() {
            return Some("");
        }
        key.strip_prefix("t:")
    }

    /// The announcements of the store, if it makes them.
    pub(crate) fn changes(
        &self,
    ) -> Option<std::pin::Pin<Box<dyn futures_util::Stream<Item = String> + Send>>> {
        self.stored.store.changes()
    }

    /// The record of task `id` when it is `principal`'s, with an expired task shown
    /// (and, once, written) as failed.
    async fn owned(&self, id: &str, principal: &str) -> Result<(u64, Record), McpError> {
        for _ in 0..RETRIES {
            let Some((version, mut record)) = self.load(id).await? else {
                return Err(unknown(id));
            };
            if record.owner != principal {
                return Err(unknown(id));
            }
            let now = now();
            let status = record.task.status();
            let expired = record.expires.is_some_and(|at| at <= now);
            let stopped = status == TaskStatus::Working && record.lease < now;
            let unanswered =
                status == TaskStatus::InputRequired && record.answer_by.is_some_and(|at| at < now);
            if !(expired || stopped || unanswered) || ended(status) {
                return Ok((version, record));
            }
            let message = if expired {
                "task expired"
            } else if stopped {
                STOPPED
            } else {
                UNANSWERED
            };
            let error = object(&McpError::internal_error(message, None));
            record.task = moved(&record.task, TaskPayload::Failed { error }, None);
            record.state = None;
            record.answers.clear();
            if self.save(id, version, &record).await? {
                self.release(&record.owner, id).await;
                return Ok((version + 1, record));
            }
        }
        Err(busy())
    }

    /// The task `id` of `principal`, or `None` (unknown, another's, unreadable).
    pub(crate) async fn read(&self, id: &str, principal: &str) -> Option<DetailedTask> {
        self.owned(id, principal).await.ok().map(|(_, r)| r.task)
    }

    /// `tasks/get`.
    pub(crate) async fn get(&self, id: &str, principal: &str) -> Result<DetailedTask, McpError> {
        Ok(self.owned(id, principal).await?.1.task)
    }

    fn owner_key(principal: &str) -> String {
        format!("owner:{principal}")
    }

    /// Counts task `id` of `principal` against the caps until `until`, its owner's
    /// first, in one step of the store: `Ok(Some(0))` when the principal's is full,
    /// `Ok(Some(1))` when the server's is, and then nothing is counted. A task counted
    /// already is counted again with the new `until`.
    async fn count(
        &self,
        principal: &str,
        id: &str,
        until: u64,
    ) -> Result<Option<usize>, McpError> {
        let owner_key = Durable::owner_key(principal);
        let caps = [
            (owner_key.as_str(), self.max_per_principal),
            ("all", self.max_total),
        ];
        self.stored
            .store
            .admit(&caps, id, until)
            .await
            .map_err(store_error)
    }

    /// No longer counts task `id` against the caps (a store that cannot be reached
    /// leaves the entries, which lapse at their `until`).
    async fn release(&self, principal: &str, id: &str) {
        let owner_key = Durable::owner_key(principal);
        let _ = self
            .stored
            .store
            .forget(&[owner_key.as_str(), "all"], id)
            .await;
    }

    /// Creates the record of a task of `principal` calling `tool`: the run to start.
    /// Past the limits (held across replicas: the live tasks are counted in the
    /// store), a JSON-RPC error and nothing created.
    pub(crate) async fn create(
        &self,
        principal: &str,
        tool: &str,
        arguments: Option<JsonObject>,
        meta: JsonObject,
    ) -> Result<(CreateTaskResult, Run), McpError> {
        if json_len(&arguments) > MAX_ARGUMENTS {
            return Err(too_large("the arguments", MAX_ARGUMENTS));
        }
        if json_len(&meta) > MAX_META {
            return Err(too_large("the client's capabilities and name", MAX_META));
        }
        let id = random_id();
        let created = now();
        let expires = self.ttl.map(|ttl| created.saturating_add(ttl.as_secs()));
        let until = expires.unwrap_or_else(|| self.kept_until(None));
        let full = |count: usize, whose: &str| {
            McpError::invalid_request(
                format!(
                    "too many tasks running {whose} (at most {count}): wait for one to end, or \
                     cancel one"
                ),
                None,
            )
        };
        match self.count(principal, &id, until).await? {
            None => {}
            Some(0) => return Err(full(self.max_per_principal, "of this client")),
            Some(_) => return Err(full(self.max_total, "on this server")),
        }
        let stamp = timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, stamp.clone(), stamp);
        task.ttl_ms = self.ttl.map(millis);
        task.poll_interval_ms = Some(millis(self.poll_interval));
        let record = Record {
            owner: principal.to_owned(),
            tool: tool.to_owned(),
            arguments,
            meta,
            task: DetailedTask::new(task.clone(), TaskPayload::Working),
            state: None,
            answers: BTreeMap::new(),
            created,
            expires,
            lease: created.saturating_add(LEASE.as_secs()),
            run: 1,
            cancelling: false,
            answer_by: None,
        };
        if !self.save(&id, 0, &record).await? {
            self.release(principal, &id).await;
            return Err(busy());
        }
        let run = Run {
            id,
            version: 1,
            record,
        };
        Ok((CreateTaskResult::new(task), run))
    }

    /// `tasks/update`: keeps the answers to the questions the task waits on (others are
    /// ignored, as are answers to questions already answered), which leave its
    /// `inputRequests`. When every question has its answer, the task is `working` again
    /// and the run to start is returned.
    pub(crate) async fn update(
        &self,
        id: &str,
        principal: &str,
        responses: InputResponses,
    ) -> Result<Option<Run>, McpError> {
        for _ in 0..RETRIES {
            let (version, mut record) = self.owned(id, principal).await?;
            let TaskPayload::InputRequired { input_requests } = &mut record.task.payload else {
                return Ok(None);
            };
            // An answered question leaves `inputRequests`; its answer waits in the record.
            let mut changed = false;
            for (key, value) in &responses {
                if input_requests.remove(key).is_some() {
                    record.answers.insert(key.clone(), value.clone());
                    changed = true;
                }
            }
            if !changed {
                return Ok(None);
            }
            if json_len(&record.answers) > MAX_ANSWERS {
                return Err(too_large("the answers", MAX_ANSWERS));
            }
            let ready = input_requests.is_empty();
            record.task.task.last_updated_at = timestamp();
            if ready {
                record.task = moved(&record.task, TaskPayload::Working, None);
                record.lease = now().saturating_add(LEASE.as_secs());
                record.run += 1;
                record.answer_by = None;
            }
            if self.save(id, version, &record).await? {
                if ready {
                    // Its place under the caps is held again until the task expires.
                    let until = record.expires.unwrap_or_else(|| self.kept_until(None));
                    let _ = self.count(&record.owner, id, until).await;
                }
                return Ok(ready.then(|| Run {
                    id: id.to_owned(),
                    version: version + 1,
                    record,
                }));
            }
        }
        Err(busy())
    }

    /// `tasks/cancel` (acknowledged for a task that ended): a task waiting for answers
    /// ends `cancelled`; one whose body runs is asked to stop, and ends as its run does
    /// (see the module's docs).
    pub(crate) async fn cancel(&self, id: &str, principal: &str) -> Result<(), McpError> {
        for _ in 0..RETRIES {
            let (version, mut record) = self.owned(id, principal).await?;
            match record.task.status() {
                status if ended(status) => return Ok(()),
                TaskStatus::Working if record.cancelling => {}
                TaskStatus::Working => {
                    record.cancelling = true;
                    if !self.save(id, version, &record).await? {
                        continue;
                    }
                }
                _ => {
                    record.task = moved(&record.task, TaskPayload::Cancelled, None);
                    record.state = None;
                    record.answers.clear();
                    record.answer_by = None;
                    if !self.save(id, version, &record).await? {
                        continue;
                    }
                    self.release(principal, id).await;
                }
            }
            let running = self
                .stored
                .running
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(token) = running.get(id) {
                token.cancel();
            }
            return Ok(());
        }
        Err(busy())
    }
}

mod kept;
mod run;
#[cfg(test)]
use kept::client_of;
pub(crate) use kept::kept_meta;
use kept::{json_len, too_large};
pub(crate) use run::Renewal;

#[cfg(test)]
mod tests;
