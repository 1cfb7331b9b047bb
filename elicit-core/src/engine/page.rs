//! A form asked on a web page of the engine's [`Pages`]: by URL mode where the client
//! takes it, else by a link in the tool result ([`Halt::Link`]), the call going on when
//! it is made again with the same arguments.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::exchange::{Asking, Next};
use super::pages::{Linked, Pages};
use super::state::{Params, Pending, question_digest};
use super::{AskError, Call, Halt, PageLink, Question, Transport, replay_error};
use crate::answer::{Action, AnswerError, Elicit, Elicitation, split_result_owned};
use crate::form::{Form, Revision};
use crate::seal::random_id;
use crate::wizard::{Flow, Outcome, Poll, Prepared, Wizard};

/// What a round seals of a page question while it waits: the page, and how often its
/// link was asked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct PageAttempt {
    pub(super) id: String,
    #[serde(default)]
    pub(super) asked: u32,
}

impl Call {
    /// Asks the form `T` on a web page the engine serves (its [`Pages`],
    /// `Engine::with_pages`), never in the client's own form: what a form must not ask
    /// (a secret), or a form for a client that shows none.
    ///
    /// Where the client takes URL-mode elicitations, it is sent the page's link (on
    /// 2025-11-25 with an `elicitationId`, and `notifications/elicitation/complete`
    /// once the page is answered); pushed or in a task the call waits for the answer, in
    /// rounds each retry looks whether the page was answered and asks the link again
    /// until it is. Where the client takes none, the call ends with [`Halt::Link`]: the
    /// link in the tool result, for the person; the same tool called again by the same
    /// principal with the same arguments goes on with the page's answer.
    ///
    /// The answer is validated on the page by the form's own rules, as a client's
    /// answer is; the tool gets the typed [`Elicitation`] as from [`ask`](Self::ask).
    pub async fn ask_on_page<T: Elicit>(
        &mut self,
        to: &impl Transport,
        question: impl Into<Prepared>,
    ) -> Result<Elicitation<T>, Halt> {
        let (message, form) = super::ask::prepared::<T>(question)?;
        let answer = self
            .ask_page(to, &message, &form, form.is_consent())
            .await?;
        Ok(super::ask::typed(answer)?)
    }

    /// Runs the wizard `W` with each step on a page (see [`Call::wizard`]): one page
    /// question per step, each answered on its page and handed to the wizard.
    pub(super) async fn wizard_on_pages<W: Wizard>(
        &mut self,
        to: &impl Transport,
        ctx: &W::Context,
    ) -> Result<Outcome<W>, Halt> {
        let revision = self.peer.revision.unwrap_or(Revision::V2025_11_25);
        let wizard_error = |e| Halt::Ask(AskError::Wizard(e));
        let mut flow = Flow::<W>::new().with_strictness(self.settings.strictness);
        loop {
            let step = match flow.poll(ctx, revision).map_err(wizard_error)? {
                Poll::Done(outcome) => return Ok(outcome),
                Poll::Ask(step) => step,
            };
            let (action, content) = match self
                .ask_page(to, step.message(), step.form(), step.form().is_consent())
                .await?
            {
                Elicitation::Accept(content) => (Action::Accept, Some(content)),
                Elicitation::Decline => (Action::Decline, None),
                Elicitation::Cancel => (Action::Cancel, None),
            };
            flow.answer(ctx, action, content).map_err(wizard_error)?;
        }
    }

    /// Whether this call's forms go on pages: the engine has pages, and the client shows
    /// no forms (it declares no form mode, or its profile says it shows none).
    pub(super) fn forms_on_pages(&self) -> bool {
        self.pages.is_some() && !(self.peer.supports("form") && self.renders.forms)
    }

    /// Asks `form` on a page: by URL mode, else by a link in the tool result (a consent
    /// only where the pages allow it).
    pub(super) async fn ask_page(
        &mut self,
        to: &impl Transport,
        message: &str,
        form: &Form,
        consent: bool,
    ) -> Result<Elicitation<Value>, Halt> {
        let index = self.begin().await?;
        let pages = self.pages.clone().ok_or(AskError::Unsupported {
            mode: "url",
            revision: self.peer.revision,
        })?;
        let revision = match self.peer.revision {
            Some(revision) if self.peer.supports("url") => revision,
            _ => return self.by_link(&pages, index, message, form, consent).await,
        };
        let question = OnPage::new(pages, message, form, revision, index)?;
        self.exchange(to, index, question).await
    }

    /// The page's answer for a client with no URL mode: the answer of the page asked
    /// for the same question by an earlier call with the same binding, or the link.
    async fn by_link(
        &mut self,
        pages: &Pages,
        index: usize,
        message: &str,
        form: &Form,
        consent: bool,
    ) -> Result<Elicitation<Value>, Halt> {
        let unsupported = AskError::Unsupported {
            mode: "url",
            revision: self.peer.revision,
        };
        if consent && !pages.allows_consent_by_link() {
            return Err(unsupported.into());
        }
        let Some(binding) = self.binding() else {
            return Err(unsupported.into());
        };
        let pin = page_pin(message, form)?;
        let link = binding.key(&format!("{index}\0{pin}"));
        let id = match pages.linked(&link).await? {
            Some(Linked::Answer(answer)) => {
                // Used until the call ends: a later question of this call (a wizard's next
                // step) goes on from it on the next call too.
                self.links.used.push(link);
                return Ok(read_answer(answer).map_err(AskError::Answer)?);
            }
            Some(Linked::Waiting(id)) => id,
            None => {
                let id = pages.create(message, form, binding.principal()).await?;
                pages.link(&link, &id).await?;
                id
            }
        };
        self.links.waiting = true;
        Err(Halt::Link(PageLink {
            url: pages.url(&id),
            message: message.to_owned(),
        }))
    }
}

/// The digest of a page question: its message and its form (its secret fields named),
/// whatever its page.
fn page_pin(message: &str, form: &Form) -> Result<String, AskError> {
    let (form, secret) = super::pages::page_form(form);
    let schema = form
        .requested_schema(Revision::V2025_11_25)
        .map_err(AskError::Schema)?;
    let method = format!("elicit/page {}", secret.join(","));
    Ok(question_digest(
        &method,
        &Params::form(message, None, &schema),
    ))
}

/// A page's answer (`{"action", "content"}`, validated on the page).
fn read_answer(answer: Value) -> Result<Elicitation<Value>, AnswerError> {
    let (action, content) = split_result_owned(answer)?;
    Ok(match action {
        Action::Accept => Elicitation::Accept(content.unwrap_or_default()),
        Action::Decline => Elicitation::Decline,
        Action::Cancel => Elicitation::Cancel,
    })
}

/// The links a call found answered, and whether it ends waiting for another.
#[derive(Debug, Default)]
pub(super) struct Links {
    pub(super) used: Vec<String>,
    pub(super) waiting: bool,
}

impl Drop for Call {
    /// A call that used the answers of pages it was sent to by links, and ends without
    /// sending a link again, unlinks them: the next call of the tool asks anew.
    fn drop(&mut self) {
        let used = std::mem::take(&mut self.links.used);
        if self.links.waiting || used.is_empty() {
            return;
        }
        let (Some(pages), Ok(runtime)) =
            (self.pages.clone(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        runtime.spawn(async move { pages.unlink(&used).await });
    }
}

/// A form asked on a page by URL mode, as the exchange drives it.
pub(super) struct OnPage<'q> {
    pages: Pages,
    message: &'q str,
    form: &'q Form,
    index: usize,
    pin: String,
    /// The page, once kept in the store.
    page: Option<PageAttempt>,
    /// The `elicitationId` of the link as pushed (2025-11-25).
    elicitation: Option<String>,
    /// The client said the person goes to the page.
    opened: bool,
    /// The page's answer (or the client's decline or cancel of the link).
    answer: Option<Value>,
    /// The answer is the page's (kept in its record), not the client's.
    from_page: bool,
}

impl<'q> OnPage<'q> {
    fn new(
        pages: Pages,
        message: &'q str,
        form: &'q Form,
        revision: Revision,
        index: usize,
    ) -> Result<OnPage<'q>, AskError> {
        // 2025-11-25 names a pushed link by an id, for its completion notification.
        let elicitation = (revision < Revision::V2026_07_28).then(random_id);
        Ok(OnPage {
            pin: page_pin(message, form)?,
            pages,
            message,
            form,
            index,
            page: None,
            elicitation,
            opened: false,
            answer: None,
            from_page: false,
        })
    }

    fn key(&self) -> String {
        match self.page.as_ref().map_or(0, |p| p.asked) {
            0 => format!("page{}", self.index),
            n => format!("page{}.{n}", self.index),
        }
    }

    /// The link as asked now.
    fn request(&self) -> Result<Question, AskError> {
        let Some(page) = &self.page else {
            return Err(AskError::Peer(
                "the page was not kept before its link was sent".into(),
            ));
        };
        let mut params = Map::new();
        params.insert("mode".into(), "url".into());
        let message = match page.asked {
            0 => self.message.to_owned(),
            _ => format!(
                "The page has not been answered yet: open it to answer.\n\n{}",
                self.message
            ),
        };
        params.insert("message".into(), message.into());
        params.insert("url".into(), self.pages.url(&page.id).into());
        if let Some(id) = &self.elicitation {
            params.insert("elicitationId".into(), id.clone().into());
        }
        let params = Params::of(&params);
        Ok(Question {
            key: self.key(),
            method: "elicitation/create".to_owned(),
            digest: question_digest("elicitation/create", &params),
            params: params.0,
            timeout: None,
            progress_interval: None,
            progress_token: None,
            ticks: Default::default(),
            pin: self.pin.clone(),
        })
    }
}

impl Asking for OnPage<'_> {
    type Answer = Elicitation<Value>;

    fn pin(&self) -> &str {
        &self.pin
    }

    fn replay(&mut self, logged: Value) -> Result<Self::Answer, Halt> {
        read_answer(logged).map_err(replay_error)
    }

    fn resume(&mut self, pending: &mut Pending) -> Result<(), Halt> {
        if pending.asked.values().any(|pin| *pin == self.pin) {
            self.page = pending.page.take();
        }
        Ok(())
    }

    fn next(&mut self) -> Result<Next<Self::Answer>, Halt> {
        match &self.answer {
            Some(answer) => Ok(Next::Done(
                read_answer(answer.clone()).map_err(AskError::Answer)?,
            )),
            None => Ok(Next::Ask(vec![self.request()?])),
        }
    }

    fn waiting(&mut self) -> Result<Vec<(String, String)>, Halt> {
        Ok(match self.answer {
            Some(_) => Vec::new(),
            None => vec![(self.key(), self.pin.clone())],
        })
    }

    fn take(&mut self, _: &str, result: Value) -> Result<(), Halt> {
        let (action, _) = split_result_owned(result).map_err(AskError::Answer)?;
        match action {
            Action::Accept => {
                self.opened = true;
                if let Some(page) = &mut self.page {
                    page.asked += 1;
                }
            }
            Action::Decline | Action::Cancel => {
                let mut answer = Map::new();
                answer.insert("action".into(), action.as_str().into());
                self.answer = Some(Value::Object(answer));
            }
        }
        Ok(())
    }

    fn log(&mut self) -> Result<Value, Halt> {
        // The page's answer stays in the page's record, never in the sealed state (it may
        // hold a secret): a round after this one reads it from there.
        match (&self.page, self.from_page) {
            (Some(page), true) => {
                let mut logged = Map::new();
                logged.insert("page".into(), page.id.clone().into());
                Ok(Value::Object(logged))
            }
            _ => Ok(self.answer.clone().unwrap_or_default()),
        }
    }

    fn pending(&mut self, index: usize) -> Pending {
        Pending {
            page: self.page.take(),
            ..Pending::new(index)
        }
    }

    fn new_page(&mut self) -> Option<(&str, &Form)> {
        match self.page {
            Some(_) => None,
            None => Some((self.message, self.form)),
        }
    }

    fn page_kept(&mut self, id: String) {
        self.page = Some(PageAttempt { id, asked: 0 });
    }

    fn page(&self) -> Option<&str> {
        self.page.as_ref().map(|p| p.id.as_str())
    }

    fn waits_for_page(&self) -> bool {
        self.opened && self.answer.is_none()
    }

    fn take_page(&mut self, answer: Value) -> Result<Option<String>, Halt> {
        self.answer = Some(answer);
        self.from_page = true;
        Ok(self.elicitation.take())
    }

    fn logged_page<'a>(&self, logged: &'a Value) -> Option<&'a str> {
        logged.get("page").and_then(Value::as_str)
    }
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
