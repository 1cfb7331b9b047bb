//! [`Pages`]: the pages an engine asks its forms on, kept in a store every replica
//! reads, and served at one-time links.
//!
//! A page is a record in a [`TaskStore`] under `page:<id>`, the id 128 random bits
//! (the link's only secret): version 1 holds the question (its message, the form as a
//! schema, when it expires); version 2 adds the answer, sealed with the engine's keys,
//! written once (the store's compare-and-set makes the first submission the only one);
//! version 3 marks an answer taken by a call that went on from a link.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::AskError;
use crate::answer::Action;
use crate::form::{FieldKind, Form, Revision};
use crate::seal::{Binding, Keyring, SealError, Sealer, now, random_id};
use crate::store::{MemoryStore, TaskStore};
use crate::web::{Page, Submission, View, read};

/// How long a page waits for its answer unless told otherwise (15 minutes).
const DEFAULT_TTL: Duration = Duration::from_secs(15 * 60);
/// How often a waiting call looks at the store when the store announces nothing.
const POLL: Duration = Duration::from_millis(100);
/// How often it looks all the same when the store announces its changes (an
/// announcement may be lost).
const POLL_ANNOUNCED: Duration = Duration::from_secs(2);

/// Where an engine's pages live: the address they are served at, the store their records
/// are kept in, and how long a page waits for its answer.
///
/// Give it to the engine (`Engine::with_pages`); serve what [`get`](Self::get) and
/// [`post`](Self::post) answer at `<base>{id}` (elicit-rmcp's HTTP router mounts them
/// for you). Replicas share a store ([`RedisStore`](crate::store::RedisStore)) and the
/// engine's keys, so that a page asked on one replica is served and answered on any.
///
/// ```
/// use elicit_core::engine::{Engine, Pages};
/// use elicit_core::seal::Keyring;
///
/// let engine = Engine::new(Keyring::generate())
///     .with_pages(Pages::new("http://127.0.0.1:8080/elicit/p/"));
/// assert!(engine.pages().is_some());
/// ```
#[derive(Clone)]
pub struct Pages {
    base: Arc<str>,
    store: Arc<dyn TaskStore>,
    ttl: Duration,
    consent_by_link: bool,
    /// Set by the engine: the keys that seal answers in the store.
    sealer: Option<Sealer>,
}

impl fmt::Debug for Pages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pages")
            .field("base", &self.base)
            .field("store", &self.store)
            .field("ttl", &self.ttl)
            .field("consent_by_link", &self.consent_by_link)
            .finish_non_exhaustive()
    }
}

/// What to answer a browser with: the status and the page, to send as
/// `text/html; charset=utf-8` with the [`HEADERS`](crate::web::HEADERS).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Served {
    /// The HTTP status: 200, 404 for a link that is unknown or expired, 409 for a link
    /// used already, 403 for a visitor who is not the person asked, 422 for an answer refused (the form again, each problem beside its
    /// field), 503 when the store cannot be read.
    pub status: u16,
    /// The whole HTML document.
    pub html: String,
}

/// What a link's page holds: its answer, or nothing yet.
pub(crate) enum Linked {
    Answer(Value),
    Waiting(String),
}

/// A page's record, as the store keeps it.
#[derive(Serialize, Deserialize)]
struct Record {
    /// The question above the form.
    message: String,
    /// The form, as a 2025-11-25 `requestedSchema` (with the bounds of each number's
    /// type written out, so the page refuses what the asker's type cannot hold).
    schema: String,
    /// The secret fields of the form (the schema has them as text: a page is no form
    /// mode): shown as password inputs, never written back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    secret: Vec<String>,
    /// Seconds since the Unix epoch.
    expires: u64,
    /// Whom the call that asked is for (`""`: nobody authenticated).
    #[serde(default)]
    principal: String,
    /// The answer (`{"action", "content"}`), sealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
}

impl Pages {
    /// Pages served at `base` followed by their id: an absolute URL ending with `/`, such
    /// as `https://example.com/elicit/p/` (a `/` is added if it is missing). Records are
    /// kept in this process's memory; a page waits 15 minutes for its answer; a consent
    /// is never asked by a link in a tool result (see
    /// [`consent_by_link`](Self::consent_by_link)).
    pub fn new(base: impl Into<String>) -> Pages {
        let mut base = base.into();
        if !base.ends_with('/') {
            base.push('/');
        }
        Pages {
            base: base.into(),
            store: Arc::new(MemoryStore::default()),
            ttl: DEFAULT_TTL,
            consent_by_link: false,
            sealer: None,
        }
    }

    /// These pages served at `base` instead (as [`new`](Self::new) takes it): for a
    /// server that learns its address once it listens.
    pub fn with_base(mut self, base: impl Into<String>) -> Pages {
        let settings = Pages::new(base);
        self.base = settings.base;
        self
    }

    /// Keeps the records in `store`: replicas behind a load balancer share one
    /// ([`RedisStore`](crate::store::RedisStore)).
    pub fn with_store(mut self, store: impl TaskStore + 'static) -> Pages {
        self.store = Arc::new(store);
        self
    }

    /// How long a page waits for its answer (whole seconds, at least one).
    pub fn with_ttl(mut self, ttl: Duration) -> Pages {
        self.ttl = ttl.max(Duration::from_secs(1));
        self
    }

    /// Whether a consent (a form declared with `#[elicit(consent)]`, or
    /// `Call::confirm`) may be asked through a link in a tool result, for a client
    /// with no elicitation. Default: `false`. The model reads that link as well as the
    /// person, and a model that can open web pages could approve on the person's behalf;
    /// allow it only where the page checks who opens it.
    pub fn consent_by_link(mut self, allow: bool) -> Pages {
        self.consent_by_link = allow;
        self
    }

    /// Where the pages are served: a page's link is this and its id.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Where the page `id` is served.
    pub(crate) fn url(&self, id: &str) -> String {
        format!("{}{id}", self.base)
    }

    pub(crate) fn allows_consent_by_link(&self) -> bool {
        self.consent_by_link
    }

    /// These pages, their answers sealed with `keyring`.
    pub(crate) fn keyed(mut self, keyring: Arc<Keyring>, skew: Duration) -> Pages {
        self.sealer = Some(Sealer::shared(keyring, self.ttl, skew));
        self
    }

    fn sealer(&self) -> Result<&Sealer, AskError> {
        self.sealer.as_ref().ok_or_else(|| {
            AskError::Peer("these pages were not given to an engine (Engine::with_pages)".into())
        })
    }

    /// Keeps a new page asking `form` under `message`; its id.
    pub(crate) async fn create(
        &self,
        message: &str,
        form: &Form,
        principal: &str,
    ) -> Result<String, AskError> {
        let (form, secret) = page_form(form);
        let schema = form
            .requested_schema(Revision::V2025_11_25)
            .map_err(AskError::Schema)?;
        let record = Record {
            message: message.to_owned(),
            schema: String::from_utf8_lossy(schema.json()).into_owned(),
            secret,
            expires: now() + self.ttl.as_secs(),
            principal: principal.to_owned(),
            answer: None,
        };
        let id = random_id();
        let text = serde_json::to_string(&record).map_err(|e| AskError::Peer(e.to_string()))?;
        let saved = self
            .store
            .save(&key(&id), 0, &text, record.expires)
            .await
            .map_err(store_error)?;
        if !saved {
            return Err(AskError::Peer("a page with this id exists already".into()));
        }
        Ok(id)
    }

    /// The answer of the page `id` (`{"action", "content"}`, validated by the page), if
    /// it has one; `Err(Timeout)`-free: `Ok(None)` while it waits.
    pub(crate) async fn answer(&self, id: &str) -> Result<Option<Value>, AskError> {
        let Some((version, text)) = self.store.load(&key(id)).await.map_err(store_error)? else {
            return Err(AskError::Peer(
                "the page expired before it was answered".into(),
            ));
        };
        if version < 2 {
            return Ok(None);
        }
        let record: Record =
            serde_json::from_str(&text).map_err(|e| AskError::Peer(e.to_string()))?;
        let sealed = record.answer.unwrap_or_default();
        let (answer, _, _) = self
            .sealer()?
            .open_stamped::<Value>(&page_binding(id), &sealed)
            .map_err(|e| AskError::Peer(format!("the page's answer cannot be read: {e}")))?;
        Ok(Some(answer))
    }

    /// Waits for the answer of the page `id`, at most `timeout`.
    pub(crate) async fn wait(
        &self,
        id: &str,
        timeout: Option<Duration>,
    ) -> Result<Value, AskError> {
        let waiting = async {
            let mut changes = self.store.changes();
            let every = if changes.is_some() {
                POLL_ANNOUNCED
            } else {
                POLL
            };
            let page = key(id);
            loop {
                if let Some(answer) = self.answer(id).await? {
                    return Ok(answer);
                }
                match &mut changes {
                    Some(stream) => {
                        let announced = async {
                            while let Some(changed) = futures_util::StreamExt::next(stream).await {
                                if changed.is_empty() || changed == page {
                                    return;
                                }
                            }
                            std::future::pending::<()>().await;
                        };
                        let _ = tokio::time::timeout(every, announced).await;
                    }
                    None => tokio::time::sleep(every).await,
                }
            }
        };
        match timeout {
            Some(limit) => tokio::time::timeout(limit, waiting)
                .await
                .unwrap_or(Err(AskError::Timeout(limit))),
            None => waiting.await,
        }
    }

    /// The page last linked under `link` (a call's binding and question): its answer, or
    /// the page itself while it waits; `None` once unlinked (the call that used the
    /// answer ended), expired, or with no page.
    pub(crate) async fn linked(&self, link: &str) -> Result<Option<Linked>, AskError> {
        let Some((_, id)) = self
            .store
            .load(&link_key(link))
            .await
            .map_err(store_error)?
        else {
            return Ok(None);
        };
        if id.is_empty() {
            return Ok(None);
        }
        match self.load(&id).await.map_err(AskError::Peer)? {
            Some((1, _)) => Ok(Some(Linked::Waiting(id))),
            Some((2, _)) => Ok(self.answer(&id).await?.map(Linked::Answer)),
            _ => Ok(None),
        }
    }

    /// Unlinks whatever page is linked under each of `links`: their answers were used by
    /// a call that ended, and the next call asks anew.
    pub(crate) async fn unlink(&self, links: &[String]) {
        for link in links {
            // Best effort: a link not unlinked expires with its page.
            let _ = self.link(link, "").await;
        }
    }

    /// Links the page `id` under `link`, in place of any page linked there before.
    pub(crate) async fn link(&self, link: &str, id: &str) -> Result<(), AskError> {
        let key = link_key(link);
        let expires = now() + self.ttl.as_secs();
        for _ in 0..3 {
            let version = self
                .store
                .load(&key)
                .await
                .map_err(store_error)?
                .map_or(0, |(v, _)| v);
            if self
                .store
                .save(&key, version, id, expires)
                .await
                .map_err(store_error)?
            {
                return Ok(());
            }
        }
        Err(AskError::Peer("the page's link could not be kept".into()))
    }

    /// The page `id`, to show a browser that opens its link. `visitor`: whom the server's
    /// own sign-in (a session cookie) says opens it; given, it must be whom the call
    /// that asked was for, else the page is refused (a link forwarded to someone else).
    /// `None`: the link alone admits (a server on the person's own machine).
    pub async fn get(&self, id: &str, visitor: Option<&str>) -> Served {
        match self.load(id).await {
            Ok(Some((_, record))) if !admits(&record, visitor) => served(403, someone_else()),
            Ok(Some((1, record))) => match read_form(&record) {
                Ok(form) => served(200, page(&record, id).render(&View::Form(&form))),
                Err(html) => served(503, html),
            },
            Ok(Some(_)) => served(409, Page::new("", "").render(&View::Expired)),
            Ok(None) => served(404, Page::new("", "").render(&View::Expired)),
            Err(html) => served(503, html),
        }
    }

    /// Reads what the page `id` posted (the body, `application/x-www-form-urlencoded`):
    /// the answer is kept for the call that waits for it and the person thanked; a
    /// refused answer gets the form again with its problems; a link used already or
    /// expired gets a page that says so.
    pub async fn post(&self, id: &str, visitor: Option<&str>, body: &[u8]) -> Served {
        let record = match self.load(id).await {
            Ok(Some((_, record))) if !admits(&record, visitor) => {
                return served(403, someone_else());
            }
            Ok(Some((1, record))) => record,
            Ok(Some(_)) => return served(409, Page::new("", "").render(&View::Expired)),
            Ok(None) => return served(404, Page::new("", "").render(&View::Expired)),
            Err(html) => return served(503, html),
        };
        let form = match read_form(&record) {
            Ok(form) => form,
            Err(html) => return served(503, html),
        };
        let (action, content) = match read(&form, body) {
            Submission::Accept(content) => (Action::Accept, Some(content)),
            Submission::Decline => (Action::Decline, None),
            Submission::Cancel => (Action::Cancel, None),
            Submission::Refused { entered, error } => {
                let view = View::Refused {
                    form: &form,
                    entered: &entered,
                    error: &error,
                };
                return served(422, page(&record, id).render(&view));
            }
        };
        let mut answer = serde_json::Map::new();
        answer.insert("action".into(), action.as_str().into());
        if let Some(content) = content {
            answer.insert("content".into(), content);
        }
        match self.keep_answer(id, record, Value::Object(answer)).await {
            Ok(true) => served(200, Page::new("", "").render(&View::Done(action))),
            Ok(false) => served(409, Page::new("", "").render(&View::Expired)),
            Err(e) => served(503, unavailable(&e.to_string())),
        }
    }

    async fn keep_answer(
        &self,
        id: &str,
        mut record: Record,
        answer: Value,
    ) -> Result<bool, AskError> {
        let sealed = self
            .sealer()?
            .seal(&page_binding(id), &answer)
            .map_err(|e| AskError::Peer(e.to_string()))?;
        record.answer = Some(sealed);
        let text = serde_json::to_string(&record).map_err(|e| AskError::Peer(e.to_string()))?;
        self.store
            .save(&key(id), 1, &text, record.expires)
            .await
            .map_err(store_error)
    }

    /// The record of the page `id` and its version, if it is kept and has not expired.
    async fn load(&self, id: &str) -> Result<Option<(u64, Record)>, String> {
        // Ids are ours: 22 characters of base64url. Anything else is no page.
        if id.len() != 22
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Ok(None);
        }
        let kept = self
            .store
            .load(&key(id))
            .await
            .map_err(|e| unavailable(&e.to_string()))?;
        Ok(kept.and_then(|(version, text)| {
            let record: Record = serde_json::from_str(&text).ok()?;
            (record.expires > now()).then_some((version, record))
        }))
    }
}

fn key(id: &str) -> String {
    format!("page:{id}")
}

fn link_key(link: &str) -> String {
    format!("page-link:{link}")
}

/// What a page's answer is sealed to: its id.
fn page_binding(id: &str) -> Binding {
    Binding::new("", "page", id, &Value::Null)
}

fn store_error(e: SealError) -> AskError {
    AskError::Peer(format!("the page store failed: {e}"))
}

/// Whether `visitor` may see and answer the page of `record`.
fn admits(record: &Record, visitor: Option<&str>) -> bool {
    visitor.is_none_or(|visitor| visitor == record.principal)
}

fn someone_else() -> String {
    Page::new("", "").notice(
        "This page is for someone else",
        "You are signed in as someone other than the person this question was asked of. \
         Sign in as them, or ask for a link of your own.",
    )
}

fn served(status: u16, html: String) -> Served {
    Served { status, html }
}

fn page<'a>(record: &'a Record, _id: &'a str) -> Page<'a> {
    // The form posts to the page's own address (its id is in the path).
    Page::new(&record.message, "")
}

fn read_form(record: &Record) -> Result<Form, String> {
    let mut form = crate::client::read_schema(&record.schema)
        .map_err(|e| unavailable(&format!("the form cannot be read: {e}")))?;
    if !record.secret.is_empty() {
        for field in form.fields_mut().iter_mut() {
            field.secret = record.secret.iter().any(|name| *name == field.name);
        }
    }
    Ok(form)
}

fn unavailable(why: &str) -> String {
    Page::new("", "").notice("This page cannot be shown now", why)
}

/// `form` as its page's record keeps it, and the names of its secret fields: each
/// integer's bounds those of its Rust type where it announces none (the page's form is
/// read back from the schema, and must refuse what the asker's type cannot hold), the
/// secrets plain text fields (the record names them).
pub(crate) fn page_form(form: &Form) -> (Form, Vec<String>) {
    let mut form = form.clone();
    let mut secret = Vec::new();
    for field in form.fields_mut().iter_mut() {
        if field.secret {
            field.secret = false;
            secret.push(field.name.to_string());
        }
        if let Some((low, high)) = field.kind.integer_bounds()
            && let FieldKind::Integer {
                minimum, maximum, ..
            } = &mut field.kind
        {
            // Bounds a person could type (those of the 32-bit types and narrower); the
            // validator enforces wider ones all the same.
            const TYPED: i128 = 1 << 53;
            if minimum.is_none() && low.abs() <= TYPED {
                *minimum = Some(low);
            }
            if maximum.is_none() && high.abs() <= TYPED {
                *maximum = Some(high);
            }
        }
    }
    (form, secret)
}
