//! The runs of a stored task's body: registered in the process that runs them, their
//! lease renewed while they run, and how each ended written to the task's record.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ::rmcp::model::{TaskPayload, TaskStatus};
use tokio_util::sync::CancellationToken;

use super::{Durable, LEASE, RETRIES, Record, Run, RunEnd, ended, moved, now, object};

impl Durable {
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

    /// The record of `run`'s task as it is now, while it is still that run's (working,
    /// the same run): `None` once it is not (ended, taken for stopped, expired).
    async fn still_running(&self, run: &Run) -> Option<(u64, Record)> {
        let (version, record) = self.load(&run.id).await.ok()??;
        let ours = record.task.status() == TaskStatus::Working && record.run == run.record.run;
        ours.then_some((version, record))
    }

    /// Renews the lease of `run`.
    pub(crate) async fn renew(&self, run: &mut Run) -> Renewal {
        for _ in 0..RETRIES {
            run.record.lease = now().saturating_add(LEASE.as_secs());
            match self.save(&run.id, run.version, &run.record).await {
                Ok(true) => {
                    run.version += 1;
                    return if run.record.cancelling {
                        Renewal::Cancelling
                    } else {
                        Renewal::Held
                    };
                }
                Ok(false) => match self.still_running(run).await {
                    // Written meanwhile (a cancel): renewed from what is there now.
                    Some((version, record)) => {
                        run.version = version;
                        run.record = record;
                    }
                    None => return Renewal::Lost,
                },
                // The store is unreachable: try again at the next renewal.
                Err(_) => return Renewal::Held,
            }
        }
        Renewal::Held
    }

    /// Writes how the run `run` ended, while the task is still that run's: an end at a
    /// question, or a stop, is written `cancelled` when a cancel came meanwhile; a
    /// completion or failure is written as it is (its side effects happened).
    pub(crate) async fn finish(&self, run: Run, end: RunEnd, message: Option<String>) {
        let Run {
            id,
            mut version,
            mut record,
        } = run;
        let (payload, state, answer_by) = match end {
            RunEnd::Asked(input_requests, state, answer_by) => (
                TaskPayload::InputRequired { input_requests },
                state,
                Some(answer_by),
            ),
            RunEnd::Completed(result) => (
                TaskPayload::Completed {
                    result: object(&result),
                },
                None,
                None,
            ),
            RunEnd::Failed(error) => (
                TaskPayload::Failed {
                    error: object(&error),
                },
                None,
                None,
            ),
            RunEnd::Cancelled => (TaskPayload::Cancelled, None, None),
        };
        for _ in 0..RETRIES {
            let mut next = record.clone();
            let stopped = matches!(
                payload,
                TaskPayload::InputRequired { .. } | TaskPayload::Cancelled
            );
            next.task = if next.cancelling && stopped {
                moved(&next.task, TaskPayload::Cancelled, None)
            } else {
                moved(&next.task, payload.clone(), message.clone())
            };
            let over = ended(next.task.status());
            next.answers.clear();
            next.cancelling = false;
            (next.state, next.answer_by) = if over {
                (None, None)
            } else {
                (state.clone(), answer_by)
            };
            match self.save(&id, version, &next).await {
                Ok(true) if over => return self.release(&next.owner, &id).await,
                Ok(true) => {
                    // Its place under the caps is held while its state can open.
                    let until = match (next.expires, next.answer_by) {
                        (Some(at), Some(by)) => at.min(by),
                        (at, by) => at.or(by).unwrap_or_else(|| self.kept_until(None)),
                    };
                    let _ = self.count(&next.owner, &id, until).await;
                    return;
                }
                Ok(false) => {
                    let probe = Run {
                        id: id.clone(),
                        version,
                        record,
                    };
                    let Some((now_version, now_record)) = self.still_running(&probe).await else {
                        return;
                    };
                    (version, record) = (now_version, now_record);
                }
                Err(_) => return,
            }
        }
    }
}

/// What a lease renewal found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Renewal {
    /// The run holds the task.
    Held,
    /// The run holds the task, and a cancel asks it to stop.
    Cancelling,
    /// The task is no longer the run's (taken for stopped, or expired): what the run
    /// ends with is not written.
    Lost,
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
