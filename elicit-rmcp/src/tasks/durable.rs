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
//! and the other changes nothing; the state of a round is redeemed once in the
//! server's redeem store, so a round cannot run twice either.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::rmcp::ErrorData as McpError;
use ::rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, InputRequests, InputResponses, JsonObject,
    Task, TaskPayload, TaskStatus,
};
use ::rmcp::service::{RequestContext, RoleServer};
use elicit_core::seal::{TaskStore, random_id};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// How often a write that lost a race is tried again, from a fresh read.
const RETRIES: usize = 16;

/// How long the replica running a task's body holds it without renewing: past it, the
/// replica is taken to have stopped, and the task ends `failed`.
pub(crate) const LEASE: Duration = Duration::from_secs(30);

/// How often the replica running a task's body renews its lease.
pub(crate) const RENEW: Duration = Duration::from_secs(10);

/// The error of a task whose replica stopped while its body ran.
const STOPPED: &str = "the server running this task stopped before the task reached its next \
                       question; call the tool again";

/// The longest task id looked up in the store.
const MAX_ID_LEN: usize = 64;

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
    /// At a question: the questions and the sealed state.
    Asked(InputRequests, Option<String>),
    Completed(CallToolResult),
    Failed(McpError),
    Cancelled,
}

/// What [`Tasks::with_store`](super::Tasks::with_store) keeps: the store, and the runs
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

/// The keys of the meta of a call kept for its runs.
const KEPT_META: [&str; 3] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
];

/// What of the `_meta` of the call in `ctx` a task keeps for the runs of its body.
pub(crate) fn kept_meta(ctx: &RequestContext<RoleServer>) -> JsonObject {
    KEPT_META
        .iter()
        .filter_map(|key| Some(((*key).to_owned(), ctx.meta.0.0.get(*key)?.clone())))
        .collect()
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
            let expired = record.expires.is_some_and(|at| at <= now);
            let stopped = record.task.status() == TaskStatus::Working && record.lease < now;
            if !(expired || stopped) || ended(record.task.status()) {
                return Ok((version, record));
            }
            let message = if expired { "task expired" } else { STOPPED };
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

    /// Counts task `id`, expiring at `until`, in the index `key` holding at most `max`
    /// live tasks: `Ok(false)` when it is full.
    async fn admit(&self, key: &str, id: &str, until: u64, max: usize) -> Result<bool, McpError> {
        for _ in 0..RETRIES {
            let (version, mut index) = self.index(key).await?;
            let now = now();
            index.retain(|_, at| *at > now);
            if index.len() >= max {
                return Ok(false);
            }
            index.insert(id.to_owned(), until);
            if self.save_index(key, version, &index).await? {
                return Ok(true);
            }
        }
        Err(busy())
    }

    /// Takes task `id` out of the index `key` (best effort: an entry left behind goes
    /// at the task's expiry).
    async fn forget(&self, key: &str, id: &str) {
        for _ in 0..RETRIES {
            let Ok((version, mut index)) = self.index(key).await else {
                return;
            };
            if index.remove(id).is_none() {
                return;
            }
            if self.save_index(key, version, &index).await.unwrap_or(true) {
                return;
            }
        }
    }

    async fn index(&self, key: &str) -> Result<(u64, BTreeMap<String, u64>), McpError> {
        match self.stored.store.load(key).await.map_err(store_error)? {
            Some((version, text)) => Ok((version, serde_json::from_str(&text).unwrap_or_default())),
            None => Ok((0, BTreeMap::new())),
        }
    }

    async fn save_index(
        &self,
        key: &str,
        version: u64,
        index: &BTreeMap<String, u64>,
    ) -> Result<bool, McpError> {
        let text = serde_json::to_string(index).map_err(store_error)?;
        let until = index.values().max().copied().unwrap_or_else(now);
        let until = self.kept_until(Some(until).filter(|_| self.ttl.is_some()));
        self.stored
            .store
            .save(key, version, &text, until)
            .await
            .map_err(store_error)
    }

    fn owner_key(principal: &str) -> String {
        format!("owner:{principal}")
    }

    /// No longer counts task `id` against the limits.
    async fn release(&self, principal: &str, id: &str) {
        self.forget(&Durable::owner_key(principal), id).await;
        self.forget("all", id).await;
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
        if !self.admit("all", &id, until, self.max_total).await? {
            return Err(full(self.max_total, "on this server"));
        }
        let owner_key = Durable::owner_key(principal);
        match self
            .admit(&owner_key, &id, until, self.max_per_principal)
            .await
        {
            Ok(true) => {}
            other => {
                self.forget("all", &id).await;
                other?;
                return Err(full(self.max_per_principal, "of this client"));
            }
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
            let ready = input_requests.is_empty();
            record.task.task.last_updated_at = timestamp();
            if ready {
                record.task = moved(&record.task, TaskPayload::Working, None);
                record.lease = now().saturating_add(LEASE.as_secs());
            }
            if self.save(id, version, &record).await? {
                return Ok(ready.then(|| Run {
                    id: id.to_owned(),
                    version: version + 1,
                    record,
                }));
            }
        }
        Err(busy())
    }

    /// `tasks/cancel`: the task ends `cancelled` (acknowledged for one that ended).
    pub(crate) async fn cancel(&self, id: &str, principal: &str) -> Result<(), McpError> {
        for _ in 0..RETRIES {
            let (version, mut record) = self.owned(id, principal).await?;
            if ended(record.task.status()) {
                return Ok(());
            }
            record.task = moved(&record.task, TaskPayload::Cancelled, None);
            record.state = None;
            record.answers.clear();
            if self.save(id, version, &record).await? {
                self.release(principal, id).await;
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
        }
        Err(busy())
    }

    /// Registers a run of task `id` in this process until the guard is dropped: its
    /// token fires on `tasks/cancel` here.
    pub(crate) fn running(&self, id: &str, token: CancellationToken) -> Running {
        self.stored
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned(), token);
        Running {
            running: self.stored.running.clone(),
            id: id.to_owned(),
        }
    }

    /// Renews the lease of `run`: `false` when the task changed meanwhile (cancelled,
    /// or taken for stopped), so the run is no longer the task's.
    pub(crate) async fn renew(&self, run: &mut Run) -> bool {
        run.record.lease = now().saturating_add(LEASE.as_secs());
        match self.save(&run.id, run.version, &run.record).await {
            Ok(true) => {
                run.version += 1;
                true
            }
            Ok(false) => false,
            // The store is unreachable: try again at the next renewal.
            Err(_) => true,
        }
    }

    /// Writes how the run `run` ended, unless the task changed meanwhile (cancelled:
    /// then nothing is written).
    pub(crate) async fn finish(&self, run: Run, end: RunEnd, message: Option<String>) {
        let Run {
            id,
            version,
            mut record,
        } = run;
        let payload = match end {
            RunEnd::Asked(input_requests, state) => {
                record.state = state;
                TaskPayload::InputRequired { input_requests }
            }
            RunEnd::Completed(result) => TaskPayload::Completed {
                result: object(&result),
            },
            RunEnd::Failed(error) => TaskPayload::Failed {
                error: object(&error),
            },
            RunEnd::Cancelled => TaskPayload::Cancelled,
        };
        record.answers.clear();
        record.task = moved(&record.task, payload, message);
        let over = ended(record.task.status());
        if over {
            record.state = None;
        }
        if self.save(&id, version, &record).await.unwrap_or(false) && over {
            self.release(&record.owner, &id).await;
        }
    }
}

/// A run of a task in this process, registered until dropped.
pub(crate) struct Running {
    running: Arc<Mutex<HashMap<String, CancellationToken>>>,
    id: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::rmcp::model::{ContentBlock, InputRequest};
    use elicit_core::seal::MemoryStore;

    /// Two replicas' views of one store, with small caps.
    fn replicas() -> (Durable, Durable) {
        let store: Arc<dyn TaskStore> = Arc::new(MemoryStore::default());
        let replica = |store| {
            let ttl = Some(Duration::from_secs(3600));
            Durable::new(&Stored::new(store), ttl, Duration::ZERO, 2, 3)
        };
        (replica(store.clone()), replica(store))
    }

    fn question(key: &str) -> InputRequests {
        let request: InputRequest = serde_json::from_value(serde_json::json!({
            "method": "elicitation/create",
            "params": {"message": key, "requestedSchema": {"type": "object", "properties": {}}},
        }))
        .expect("an input request");
        [(key.to_owned(), request)].into()
    }

    fn answer(key: &str) -> InputResponses {
        [(
            key.to_owned(),
            serde_json::json!({"action": "accept", "content": {}}),
        )]
        .into()
    }

    async fn start(d: &Durable, principal: &str) -> Run {
        d.create(principal, "book", None, JsonObject::new())
            .await
            .expect("created")
            .1
    }

    /// A run that reached the question `key`.
    async fn asking(d: &Durable, principal: &str, key: &str) -> String {
        let run = start(d, principal).await;
        let id = run.id.clone();
        d.finish(
            run,
            RunEnd::Asked(question(key), Some("state".into())),
            None,
        )
        .await;
        id
    }

    #[tokio::test]
    async fn the_last_answer_starts_one_run_on_any_replica_and_a_replay_none() {
        let (a, b) = replicas();
        let id = asking(&a, "alice", "q0").await;
        // Another principal's update is an unknown task, as is an id too long to be
        // ours; an unasked key changes nothing.
        assert!(b.update(&id, "bob", answer("q0")).await.is_err());
        let long = "x".repeat(MAX_ID_LEN + 1);
        let refused = b.get(&long, "alice").await.expect_err("unknown");
        let cut = &long[..MAX_ID_LEN];
        assert_eq!(refused.message, format!("unknown task: {cut}…"));
        assert!(
            b.update(&id, "alice", answer("other"))
                .await
                .unwrap()
                .is_none()
        );
        let run = b.update(&id, "alice", answer("q0")).await.unwrap();
        let run = run.expect("the answer starts a run");
        assert_eq!(run.record.state.as_deref(), Some("state"));
        assert_eq!(run.record.answers, answer("q0"));
        assert_eq!(
            a.get(&id, "alice").await.unwrap().status(),
            TaskStatus::Working
        );
        // Replayed, on either replica: nothing more runs.
        assert!(
            a.update(&id, "alice", answer("q0"))
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            b.update(&id, "alice", answer("q0"))
                .await
                .unwrap()
                .is_none()
        );
        let result = CallToolResult::success(vec![ContentBlock::text("booked")]);
        b.finish(run, RunEnd::Completed(result), Some("done".into()))
            .await;
        let task = a.get(&id, "alice").await.unwrap();
        assert_eq!(task.status(), TaskStatus::Completed);
        assert_eq!(task.task.status_message.as_deref(), Some("done"));
    }

    #[tokio::test]
    async fn questions_asked_together_may_be_answered_one_by_one() {
        let (a, b) = replicas();
        let run = start(&a, "alice").await;
        let id = run.id.clone();
        let mut both = question("copies");
        both.extend(question("paper"));
        a.finish(run, RunEnd::Asked(both, Some("state".into())), None)
            .await;
        assert!(
            b.update(&id, "alice", answer("paper"))
                .await
                .unwrap()
                .is_none()
        );
        let task = a.get(&id, "alice").await.unwrap();
        let TaskPayload::InputRequired { input_requests } = &task.payload else {
            panic!("{task:?}")
        };
        let left: Vec<&String> = input_requests.keys().collect();
        assert_eq!(left, ["copies"], "the answered question left the task");
        let run = a.update(&id, "alice", answer("copies")).await.unwrap();
        let answered: Vec<String> = run.expect("a run").record.answers.into_keys().collect();
        assert_eq!(answered, ["copies", "paper"]);
    }

    #[tokio::test]
    async fn a_cancelled_task_keeps_its_end_whatever_its_run_ends_with() {
        let (a, b) = replicas();
        let id = asking(&a, "alice", "q0").await;
        let run = a.update(&id, "alice", answer("q0")).await.unwrap().unwrap();
        b.cancel(&id, "alice").await.unwrap();
        let result = CallToolResult::success(vec![ContentBlock::text("booked")]);
        a.finish(run, RunEnd::Completed(result), None).await;
        assert_eq!(
            a.get(&id, "alice").await.unwrap().status(),
            TaskStatus::Cancelled
        );
        // Cancelling again is acknowledged.
        a.cancel(&id, "alice").await.unwrap();
    }

    #[tokio::test]
    async fn the_caps_hold_across_replicas_and_ended_tasks_make_room() {
        let (a, b) = replicas();
        let first = asking(&a, "alice", "q0").await;
        asking(&b, "alice", "q0").await;
        let refused = a.create("alice", "book", None, JsonObject::new()).await;
        let refused = refused.expect_err("past alice's cap");
        assert!(
            refused.message.contains("of this client (at most 2)"),
            "{refused:?}"
        );
        asking(&b, "bob", "q0").await;
        let refused = b.create("carol", "book", None, JsonObject::new()).await;
        let refused = refused.expect_err("past the server's cap");
        assert!(
            refused.message.contains("on this server (at most 3)"),
            "{refused:?}"
        );
        b.cancel(&first, "alice").await.unwrap();
        asking(&a, "alice", "q0").await;
    }

    #[tokio::test]
    async fn a_task_whose_replica_stopped_running_it_ends_failed() {
        let (a, b) = replicas();
        let id = asking(&a, "alice", "q0").await;
        let mut run = a.update(&id, "alice", answer("q0")).await.unwrap().unwrap();
        // While its replica renews the lease, the task is working.
        assert!(a.renew(&mut run).await);
        assert_eq!(
            b.get(&id, "alice").await.unwrap().status(),
            TaskStatus::Working
        );
        // The replica stops: its lease lapses (written here as if long past).
        let (version, mut record) = b.load(&id).await.unwrap().unwrap();
        record.lease = now() - 1;
        assert!(b.save(&id, version, &record).await.unwrap());
        let task = b.get(&id, "alice").await.unwrap();
        assert_eq!(task.status(), TaskStatus::Failed);
        let TaskPayload::Failed { error } = &task.payload else {
            panic!("{task:?}")
        };
        assert_eq!(error["message"], STOPPED);
        // Its place under the cap is free again.
        asking(&b, "alice", "q0").await;
        asking(&b, "alice", "q0").await;
    }
}
