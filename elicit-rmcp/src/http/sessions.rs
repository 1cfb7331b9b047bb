//! Push-era sessions: capped, and bound to the principal that opened them.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::Arc;

use ::rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use ::rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use ::rmcp::transport::streamable_http_server::session::{EventStore, ServerSseMessage};
use ::rmcp::transport::streamable_http_server::{RestoreOutcome, SessionId, SessionManager};
use futures_core::Stream;

use crate::Principal;

tokio::task_local! {
    /// The principal of the HTTP request being served, set by
    /// [`service_middleware`](super::service_middleware) around the service.
    static REQUEST_PRINCIPAL: Principal;
}

/// Runs `future` (a request to the MCP service) as `principal`'s: the sessions it
/// opens are theirs, and it reaches no one else's. Not an `async fn`: one would keep
/// `future` twice in its state (as its argument and inside the scope it awaits), and
/// every request's future is moved whole a few times on its way to the runtime.
pub(super) fn as_principal<F: Future>(
    principal: Principal,
    future: F,
) -> impl Future<Output = F::Output> {
    REQUEST_PRINCIPAL.scope(principal, future)
}

/// The principal of the request being served; the anonymous (empty) one outside
/// [`as_principal`].
fn current() -> Principal {
    REQUEST_PRINCIPAL
        .try_with(Principal::clone)
        .unwrap_or_else(|_| Principal::new(""))
}

/// rmcp's [`LocalSessionManager`] with caps on live sessions, and each session bound
/// to the [`Principal`] whose request opened it.
///
/// - **Bound**: a request naming another principal's `Mcp-Session-Id` is answered as
///   for an unknown session (`404`), and its `DELETE` closes nothing.
/// - **Per principal** ([`HttpOptions::max_sessions_per_principal`](super::HttpOptions::max_sessions_per_principal)):
///   an authenticated principal's new session past its quota closes that principal's
///   oldest.
/// - **In all** ([`HttpOptions::max_sessions`](super::HttpOptions::max_sessions)): a
///   new session past the cap closes the oldest session of whoever holds the most, so
///   a principal holding no more than anyone else is never closed by another.
///
/// Sessions also close after [`HttpOptions::session_idle_timeout`](super::HttpOptions::session_idle_timeout)
/// unused. Only the push revisions (2025-06-18, 2025-11-25) have sessions; 2026-07-28
/// is stateless. The principal is the one [`router`](super::router)'s layers (or
/// [`service_middleware`](super::service_middleware) in an app of one's own) found
/// in the request; without it every request is the anonymous principal's.
pub struct CappedSessions {
    inner: Arc<LocalSessionManager>,
    max: usize,
    per_principal: usize,
    /// Taken by creations, one at a time.
    book: tokio::sync::Mutex<Book>,
    /// Who opened each live session; read on every request, never held across an await.
    owners: std::sync::Mutex<HashMap<SessionId, Principal>>,
}

/// Who opened which session, oldest first.
#[derive(Default)]
struct Book {
    /// Session ids oldest first, with their principals; ids of sessions closed
    /// otherwise (idle, by the client) are dropped when the book is tidied.
    order: VecDeque<(SessionId, Principal)>,
}

impl Book {
    /// The oldest session of `principal`.
    fn oldest_of(&self, principal: &Principal) -> Option<SessionId> {
        self.order
            .iter()
            .find(|(_, p)| p == principal)
            .map(|(id, _)| id.clone())
    }

    /// The principal holding the most sessions (the one whose oldest session is older,
    /// among equals).
    fn heaviest(&self) -> Option<Principal> {
        let mut counts: HashMap<&Principal, usize> = HashMap::new();
        for (_, p) in &self.order {
            *counts.entry(p).or_default() += 1;
        }
        let most = counts.values().copied().max()?;
        self.order
            .iter()
            .find(|(_, p)| counts[p] == most)
            .map(|(_, p)| p.clone())
    }
}

impl CappedSessions {
    pub(super) fn new(
        inner: Arc<LocalSessionManager>,
        max: usize,
        per_principal: usize,
    ) -> CappedSessions {
        CappedSessions {
            inner,
            max: max.max(1),
            per_principal: per_principal.max(1),
            book: tokio::sync::Mutex::new(Book::default()),
            owners: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Whether the request being served may use session `id`: it is unknown here
    /// (rmcp answers that itself) or it was opened by the same principal.
    fn reaches(&self, id: &SessionId) -> bool {
        match self.owners().get(id) {
            Some(owner) => *owner == current(),
            None => true,
        }
    }

    /// The owners' table (a panic elsewhere while it was held leaves it usable).
    fn owners(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Principal>> {
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets the sessions `inner` no longer has.
    async fn tidy(&self, book: &mut Book) {
        let live = self.inner.sessions.read().await;
        book.order.retain(|(id, _)| live.contains_key(id));
        self.owners().retain(|id, _| live.contains_key(id));
    }

    /// Forgets session `id`.
    fn forget(&self, book: &mut Book, id: &SessionId) {
        self.owners().remove(id);
        book.order.retain(|(i, _)| i != id);
    }

    /// `Err` (as for an unknown session) when the request may not use `id`.
    fn check(&self, id: &SessionId) -> Result<(), LocalSessionManagerError> {
        if self.reaches(id) {
            Ok(())
        } else {
            Err(LocalSessionManagerError::SessionNotFound(id.clone()))
        }
    }

    /// Closes `id` and forgets it.
    async fn evict(&self, book: &mut Book, id: &SessionId) {
        self.forget(book, id);
        // Already gone (closed by the client or idle): nothing to do.
        let _ = self.inner.close_session(id).await;
    }
}

impl fmt::Debug for CappedSessions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CappedSessions")
            .field("max", &self.max)
            .field("per_principal", &self.per_principal)
            .finish_non_exhaustive()
    }
}

impl SessionManager for CappedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let principal = current();
        // One creation at a time, so concurrent ones cannot pass the caps together.
        let mut book = self.book.lock().await;
        self.tidy(&mut book).await;
        // The quota is per authenticated principal: without authentication every client
        // is the anonymous one, bound by the total cap alone.
        let own = book.order.iter().filter(|(_, p)| *p == principal).count();
        if !principal.as_str().is_empty()
            && own >= self.per_principal
            && let Some(oldest) = book.oldest_of(&principal)
        {
            self.evict(&mut book, &oldest).await;
        }
        while self.inner.sessions.read().await.len() >= self.max {
            let Some(oldest) = book.heaviest().and_then(|p| book.oldest_of(&p)) else {
                // Sessions this wrapper did not open: nothing of ours to close.
                break;
            };
            self.evict(&mut book, &oldest).await;
        }
        let (id, transport) = self.inner.create_session().await?;
        self.owners().insert(id.clone(), principal.clone());
        book.order.push_back((id.clone(), principal));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.check(id)?;
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.reaches(id) && self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        // Another principal's session is not closed, and the answer is the one for an
        // unknown session (rmcp answers `202` either way).
        if !self.reaches(id) {
            return Ok(());
        }
        let mut book = self.book.lock().await;
        self.forget(&mut book, id);
        drop(book);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.check(id)?;
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.check(id)?;
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.check(id)?;
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.check(id)?;
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}
