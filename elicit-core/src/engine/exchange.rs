//! The one exchange of a question with the client, and the only code that knows the
//! channels: pushed, a question is sent and its answer awaited in place; in a task, the
//! questions of a batch are sent together and awaited; in rounds, the answer comes from
//! the log of earlier rounds or from this retry's `inputResponses`, and a question still
//! waiting for its answer ends the round, its attempt sealed into `requestState`.
//!
//! A [`Asking`] knows what it asks and how to read an answer; it never asks which
//! channel it is on. Its attempt (answers so far, failed tries, the problem to show, a
//! wizard's state) lives in the question itself: on the stack while it is pushed or
//! asked in a task, sealed in [`Pending`] between rounds.

use serde_json::Value;

use super::state::Pending;
use super::{Call, Channel, Halt, Question, Transport};

/// Where a question stands.
pub(super) enum Next<A> {
    /// These requests wait for their answers.
    Ask(Vec<Question>),
    /// Every answer is in.
    Done(A),
}

/// One question of a call, as the exchange drives it.
pub(super) trait Asking {
    /// What the asker gets.
    type Answer;

    /// The digest its answer is logged under in rounds: an answer logged for another
    /// question at the same place is not taken for its own. Empty: any (a wizard, whose
    /// log is replayed against its context).
    fn pin(&self) -> &str;

    /// The answer read from what [`log`](Self::log) wrote in an earlier round (sealed,
    /// so read as it was validated then).
    fn replay(&mut self, logged: Value) -> Result<Self::Answer, Halt>;

    /// Takes up the attempt an earlier round sealed.
    fn resume(&mut self, pending: &mut Pending) -> Result<(), Halt>;

    /// What it waits for, or its answer once every request has one.
    fn next(&mut self) -> Result<Next<Self::Answer>, Halt>;

    /// The key and pin of each request it waits for (none once it is done): what a
    /// round looks up in the retry's answers, without writing the requests out.
    fn waiting(&mut self) -> Result<Vec<(String, String)>, Halt>;

    /// Reads the client's result to the request `key`: an answer, or a reason to ask
    /// again (then [`next`](Self::next) asks it).
    fn take(&mut self, key: &str, result: Value) -> Result<(), Halt>;

    /// What the log keeps of its answer, for the rounds after this one; asked once it
    /// is done.
    fn log(&mut self) -> Result<Value, Halt>;

    /// Its attempt, sealed while it waits for answers (the question at `index`).
    fn pending(&mut self, index: usize) -> Pending;

    /// A question asked on a page: the message and form of the page to keep in the store
    /// before its link is sent, while it has none.
    #[cfg(feature = "web")]
    fn new_page(&mut self) -> Option<(&str, &crate::form::Form)> {
        None
    }

    /// The page kept for it.
    #[cfg(feature = "web")]
    fn page_kept(&mut self, _id: String) {}

    /// Its page, once it has one.
    fn page(&self) -> Option<&str> {
        None
    }

    /// Whether it waits for its page's answer (the client said the person goes there).
    fn waits_for_page(&self) -> bool {
        false
    }

    /// Takes its page's answer; the `elicitationId` whose completion to announce, if any.
    fn take_page(&mut self, _answer: Value) -> Result<Option<String>, Halt> {
        Ok(None)
    }

    /// The page whose record holds a logged answer (kept there, not in the log).
    fn logged_page<'a>(&self, _logged: &'a Value) -> Option<&'a str> {
        None
    }
}

impl Call {
    /// Asks `question` on the call's channel, up to its answer.
    pub(super) async fn exchange<Q: Asking>(
        &mut self,
        to: &impl Transport,
        index: usize,
        mut question: Q,
    ) -> Result<Q::Answer, Halt> {
        match self.channel {
            Channel::Rounds => self.round(index, question).await,
            channel => loop {
                self.keep_page(&mut question).await?;
                if question.waits_for_page() {
                    self.wait_page(to, &mut question).await?;
                    continue;
                }
                let requests = match question.next()? {
                    Next::Done(answer) => return Ok(answer),
                    Next::Ask(requests) => requests,
                };
                if channel == Channel::Task {
                    // All at once: a task waits on every question in one `tasks/get`.
                    let keys: Vec<String> = requests.iter().map(|r| r.key.clone()).collect();
                    let sent = requests.into_iter().map(|r| to.send(self.timed(r)));
                    let results = futures_util::future::join_all(sent).await;
                    for (key, result) in keys.iter().zip(results) {
                        question.take(key, result?)?;
                    }
                } else if let Some(request) = requests.into_iter().next() {
                    // One at a time, each until it has its answer.
                    let key = request.key.clone();
                    let result = to.send(self.timed(request)).await?;
                    question.take(&key, result)?;
                }
            },
        }
    }

    /// Keeps the page of a question asked on a page, before its link is sent.
    async fn keep_page<Q: Asking>(&mut self, question: &mut Q) -> Result<(), Halt> {
        #[cfg(feature = "web")]
        if let Some((message, form)) = question.new_page() {
            let pages = self.pages.as_ref().ok_or(super::AskError::Unsupported {
                mode: "url",
                revision: self.peer.revision,
            })?;
            let principal = self.binding().map_or("", |b| b.principal());
            let id = pages.create(message, form, principal).await?;
            question.page_kept(id);
        }
        #[cfg(not(feature = "web"))]
        let _ = question;
        Ok(())
    }

    /// Waits for the answer of the page the client let the person open, then tells the
    /// client the page is done (2025-11-25 push).
    async fn wait_page<Q: Asking>(
        &mut self,
        to: &impl Transport,
        question: &mut Q,
    ) -> Result<(), Halt> {
        #[cfg(feature = "web")]
        if let (Some(pages), Some(page)) = (&self.pages, question.page()) {
            let answer = pages.wait(page, self.settings.timeout).await?;
            if let Some(id) = question.take_page(answer)? {
                to.notify(super::Notice::ElicitationComplete(id)).await?;
            }
            return Ok(());
        }
        let _ = (to, question);
        Err(super::AskError::Peer("a page question has no page to wait for".into()).into())
    }

    /// The answer of `page`, if it has one.
    async fn page_answer(&self, page: &str) -> Result<Option<Value>, Halt> {
        #[cfg(feature = "web")]
        if let Some(pages) = &self.pages {
            return Ok(pages.answer(page).await?);
        }
        let _ = page;
        Ok(None)
    }

    /// `question` with how long the transport waits for its answer, and how often it
    /// says the call is alive meanwhile.
    fn timed(&self, mut question: Question) -> Question {
        question.timeout = self.settings.timeout;
        question.progress_interval = self.settings.progress_interval;
        question.progress_token.clone_from(&self.progress_token);
        question
    }

    /// One round of `question`: its logged answer; else its attempt so far, the answers
    /// this retry brings to what the last round asked, and either its answer (logged)
    /// or the round's end with what it still waits for.
    async fn round<Q: Asking>(&mut self, index: usize, mut question: Q) -> Result<Q::Answer, Halt> {
        if let Some(logged) = self.logged(index, question.pin()) {
            let logged = match question.logged_page(&logged) {
                Some(page) => self.page_answer(page).await?.ok_or_else(|| {
                    super::replay_error(crate::answer::AnswerError::Malformed(
                        "the page of an earlier answer has none",
                    ))
                })?,
                None => logged,
            };
            return question.replay(logged);
        }
        let resumed = match self.pending(index) {
            Some(pending) => {
                question.resume(pending)?;
                true
            }
            None => false,
        };
        // A page answered since the last round answers the question, whatever the
        // client says of its link.
        if resumed && let Some(page) = question.page() {
            let page = page.to_owned();
            if let Some(answer) = self.page_answer(&page).await? {
                question.take_page(answer)?;
            }
        }
        self.keep_page(&mut question).await?;
        // Each request is read once a retry: what is asked again, or next, waits for the
        // next round.
        for (key, pin) in question.waiting()? {
            if let Some(result) = self.response(index, &key, &pin) {
                question.take(&key, result)?;
            }
        }
        match question.next()? {
            Next::Done(answer) => {
                let logged = question.log()?;
                self.log(logged, question.pin().to_owned());
                Ok(answer)
            }
            Next::Ask(requests) => {
                let pending = question.pending(index);
                self.suspend(pending, requests)
            }
        }
    }
}
