//! A call in rounds: the sealed state it brought and redeems once, the answers logged in it,
//! and the round that ends with the questions asked.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::state::{Pending, Saved, Unredeemed};
use super::{Call, Halt, InputRequired, Question, RpcError};
use crate::seal::{Binding, Sealer, random_id};
use crate::store::{RedeemStore, Redemption};

/// What a call in rounds carries: the sealer and store of its state, what the state is
/// bound to, the state opened, and the retry's answers.
pub(super) struct Rounds {
    pub(super) sealer: Sealer,
    pub(super) store: Arc<dyn RedeemStore>,
    /// Answers of a first call are read
    /// ([`Settings::first_round_answers`](super::Settings::first_round_answers)).
    pub(super) first_round: bool,
    pub(super) binding: Binding,
    pub(super) saved: Saved,
    /// The state this retry brought, until it is redeemed.
    pub(super) unredeemed: Option<Unredeemed>,
    pub(super) responses: BTreeMap<String, Value>,
}

impl Call {
    /// Redeems the state this retry brought, before anything is read from it: the first
    /// redemption wins, a replay (here or on a replica sharing the store) is refused.
    /// Every question redeems first; call it yourself to refuse a replay before the
    /// body does anything else. Does nothing the second time, or without a state.
    pub async fn redeem(&mut self) -> Result<(), Halt> {
        let Some(rounds) = &mut self.rounds else {
            return Ok(());
        };
        let Some(state) = rounds.unredeemed.take() else {
            return Ok(());
        };
        let refused = |why: &str| {
            Err(Halt::Refused(RpcError::invalid_params(format!(
                "the requestState of this retry was refused: {why}; call the tool again \
                 without it"
            ))))
        };
        // Opened in time, it may be redeemed a moment too late: never at or past its
        // expiry. Its record is kept the clock skew longer than the state opens, so that
        // a replica whose clock lags (by up to the skew) still finds it.
        if crate::seal::now() >= state.expires_at {
            return refused("it has expired");
        }
        let keep_until = state
            .expires_at
            .saturating_add(self.settings.clock_skew.as_secs());
        match rounds
            .store
            .redeem(&state.id, state.issued_at, keep_until)
            .await
        {
            Ok(Redemption::First) => Ok(()),
            Ok(Redemption::Again) => {
                refused("it was used before (each state is good for one retry)")
            }
            Ok(Redemption::TooOld) => refused(
                "it is older than this server's record of used states reaches back (the \
                 server restarted since, or is under heavy load)",
            ),
            Err(e) => Err(Halt::Refused(RpcError::internal(format!(
                "cannot make sure the requestState is used once: {e}"
            )))),
        }
    }

    /// The logged answer of the question at `index`, when an earlier round has it and
    /// answered the same question (its digest `pin`; empty for a wizard). When the
    /// question changed since (the tool now asks something else there), that answer and
    /// every later one are dropped: the question is asked anew, as a question that
    /// changed while pending is.
    pub(super) fn logged(&mut self, index: usize, pin: &str) -> Option<Value> {
        let saved = &mut self.rounds.as_mut()?.saved;
        let logged = saved.log.get(index)?;
        match saved.pins.get(index) {
            Some(p) if !p.is_empty() && p != pin => {
                saved.log.truncate(index);
                saved.pins.truncate(index);
                saved.pending = None;
                None
            }
            _ => Some(logged.clone()),
        }
    }

    /// Logs the answer `value` of the question with digest `pin`.
    pub(super) fn log(&mut self, value: Value, pin: String) {
        if let Some(rounds) = &mut self.rounds {
            // States sealed before pins were kept have none: keep the vectors aligned.
            rounds
                .saved
                .pins
                .resize(rounds.saved.log.len(), String::new());
            rounds.saved.log.push(value);
            rounds.saved.pins.push(pin);
            rounds.saved.pending = None;
        }
    }

    /// The answer to the question `key` of the question at `index`, when this round
    /// asked it (recorded in the state, with the same digest) — or, opted in, in a
    /// first call. Answers to anything else are ignored.
    ///
    /// A question of the round is read once (only the pending question was asked, and
    /// a batch's keys are distinct), so its answer is taken out of the retry's; a
    /// first call's answers may be read by more than one question, and stay.
    pub(super) fn response(&mut self, index: usize, key: &str, digest: &str) -> Option<Value> {
        let rounds = self.rounds.as_mut()?;
        match &rounds.saved.pending {
            Some(p) if p.index == index => {
                if p.asked.get(key).is_some_and(|d| d == digest) {
                    rounds.responses.remove(key)
                } else {
                    None
                }
            }
            _ if rounds.first_round => rounds.responses.get(key).cloned(),
            _ => None,
        }
    }

    /// The pending question's state, when it is the question at `index`.
    pub(super) fn pending(&mut self, index: usize) -> Option<&mut Pending> {
        match self.rounds.as_mut()?.saved.pending.as_mut() {
            Some(p) if p.index == index => Some(p),
            _ => None,
        }
    }

    /// Ends the round: the requests asked, the state sealed.
    pub(super) fn suspend<T>(
        &mut self,
        mut pending: Pending,
        requests: Vec<Question>,
    ) -> Result<T, Halt> {
        let Some(rounds) = &mut self.rounds else {
            return Err(Halt::Refused(RpcError::internal(
                "an input request outside a 2026-07-28 call in rounds",
            )));
        };
        for request in &requests {
            pending
                .asked
                .insert(request.key.clone(), request.pin.clone());
        }
        rounds.saved.pending = Some(pending);
        // The store's epoch first: a store that can lose its record tells its own
        // states from those of another life by it (`RedeemStore::epoch`).
        rounds.saved.round = [rounds.store.epoch(), &random_id()].concat();
        let state = rounds
            .sealer
            .seal(&rounds.binding, &rounds.saved)
            .map_err(|e| Halt::Refused(RpcError::internal(e.to_string())))?;
        Err(Halt::InputRequired(InputRequired { requests, state }))
    }
}
