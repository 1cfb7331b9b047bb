//! A request body held to its limits while the service reads it: at most so many bytes,
//! all of them by a deadline, and room among the bodies in flight for each piece of it
//! taken as that piece arrives. Nothing is copied or collected here, and the deadline's
//! timer is armed only when a read has to wait: a body that came with its head, as a
//! JSON-RPC message almost always does, arms none and takes its room in one atomic
//! update.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::task::{Context, Poll};

use hyper::body::{Body as HttpBody, Bytes, Frame, SizeHint};
use tokio::sync::Notify;
use tokio::sync::futures::OwnedNotified;

/// Why a body was cut off, for the response that replaces the service's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// More bytes than the largest body taken: `413`.
    TooLarge = 1,
    /// Not all in by the deadline: `408`.
    TooSlow = 2,
    /// It broke off (shorter than its `Content-Length`, or malformed): `400`.
    BrokeOff = 3,
}

/// What a [`Guarded`] body reports once the service has read it: `None` while it kept to
/// its limits.
#[derive(Clone, Default)]
pub(super) struct Verdict(Arc<AtomicU8>);

impl Verdict {
    fn set(&self, refusal: Refusal) {
        // The first refusal stands.
        let _ = self
            .0
            .compare_exchange(0, refusal as u8, Ordering::Relaxed, Ordering::Relaxed);
    }

    pub(super) fn get(&self) -> Option<Refusal> {
        match self.0.load(Ordering::Relaxed) {
            1 => Some(Refusal::TooLarge),
            2 => Some(Refusal::TooSlow),
            3 => Some(Refusal::BrokeOff),
            _ => None,
        }
    }
}

/// The room shared by the bodies in flight, in bytes. A body takes room for each piece
/// of it as the piece arrives (a request that has sent only its head holds none) and
/// gives it all back when it ends or is dropped.
///
/// A body whose next piece does not fit keeps that piece, is read no further, and waits
/// without holding any room for it; whenever room is given back it tries again. So a
/// smaller piece that fits is taken at once, never queued behind a larger one. (tokio's
/// `Semaphore` serves acquisitions first in, first out and hands a waiter the room that
/// frees up until it has all it asked for: one waiting for a large piece would hold up
/// every smaller one behind it.) The price is that a large piece may be passed by
/// smaller ones while room is short; its body is answered `408` if room has not come by
/// its deadline.
pub(super) struct Pool {
    free: AtomicUsize,
    /// How many bodies wait for room: room given back wakes them only when some do.
    waiting: AtomicUsize,
    freed: Arc<Notify>,
}

// All of `free` and `waiting` is read and written `SeqCst`, so that no wake-up is lost: a
// body that waits adds itself to `waiting`, then makes its `OwnedNotified` (which hears
// every `notify_waiters` from then on, polled or not), then tries `free` again; one that
// gives room back adds it to `free`, then reads `waiting`. If the giver read `waiting`
// before the waiter added itself, the waiter's next try comes after the room was added
// and sees it; otherwise the giver notifies, after the waiter's `OwnedNotified` was made
// (and it hears it) or before (and then the waiter's try comes after the room was added).
impl Pool {
    /// A pool of `bytes` of room.
    pub(super) fn new(bytes: usize) -> Pool {
        Pool {
            free: AtomicUsize::new(bytes),
            waiting: AtomicUsize::new(0),
            freed: Arc::new(Notify::new()),
        }
    }

    /// Takes `bytes` of room if they are free.
    fn try_take(&self, bytes: usize) -> bool {
        self.free
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |free| {
                free.checked_sub(bytes)
            })
            .is_ok()
    }

    /// Gives `bytes` of room back, waking the bodies waiting for room.
    fn give(&self, bytes: usize) {
        self.free.fetch_add(bytes, Ordering::SeqCst);
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.freed.notify_waiters();
        }
    }

    /// The room free now.
    #[cfg(test)]
    pub(super) fn free(&self) -> usize {
        self.free.load(Ordering::SeqCst)
    }
}

/// A request body read under limits; holds room in the [`Pool`] for the bytes it has
/// read until it ends, is refused or is dropped.
pub(super) struct Guarded {
    inner: axum::body::Body,
    deadline: tokio::time::Instant,
    max: usize,
    verdict: Verdict,
    pool: Arc<Pool>,
    /// The bytes read so far.
    read: usize,
    /// The room held (the bytes read, until the body ends or is refused).
    held: usize,
    /// The body ended or was refused: it is read no further.
    done: bool,
    /// A frame that arrived when there was no room for it, kept until there is.
    pending: Option<Frame<Bytes>>,
    /// While the body waits for room: woken when room is given back.
    wait: Option<Pin<Box<OwnedNotified>>>,
    /// Armed when a read first has to wait.
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Guarded {
    /// `inner` read under limits: at most `max` bytes, all of them by `deadline`, each
    /// with room in `pool`; what went wrong, if anything, is told in `verdict`.
    pub(super) fn new(
        inner: axum::body::Body,
        deadline: tokio::time::Instant,
        max: usize,
        verdict: Verdict,
        pool: Arc<Pool>,
    ) -> Guarded {
        Guarded {
            inner,
            deadline,
            max,
            verdict,
            pool,
            read: 0,
            held: 0,
            done: false,
            pending: None,
            wait: None,
            sleep: None,
        }
    }

    /// Reads no further and gives back the room held.
    fn finish(&mut self) {
        self.done = true;
        self.pending = None;
        self.sleep = None;
        self.stop_waiting();
        if self.held > 0 {
            self.pool.give(std::mem::take(&mut self.held));
        }
    }

    fn stop_waiting(&mut self) {
        if self.wait.take().is_some() {
            self.pool.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }

    fn refuse(&mut self, refusal: Refusal) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.verdict.set(refusal);
        self.finish();
        let why = match refusal {
            Refusal::TooLarge => "the request body is too large",
            Refusal::TooSlow => "the request body did not arrive in time",
            Refusal::BrokeOff => "the request body broke off",
        };
        Poll::Ready(Some(Err(axum::Error::new(why))))
    }

    /// `Pending`, or the refusal of a body not in by its deadline.
    fn until_deadline(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let deadline = self.deadline;
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if sleep.as_mut().poll(cx).is_ready() {
            return self.refuse(Refusal::TooSlow);
        }
        Poll::Pending
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.finish();
    }
}

impl HttpBody for Guarded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            let frame = match this.pending.take() {
                Some(frame) => frame,
                None => match Pin::new(&mut this.inner).poll_frame(cx) {
                    Poll::Ready(Some(Ok(frame))) => frame,
                    Poll::Ready(Some(Err(_))) => return this.refuse(Refusal::BrokeOff),
                    Poll::Ready(None) => {
                        this.finish();
                        return Poll::Ready(None);
                    }
                    Poll::Pending => return this.until_deadline(cx),
                },
            };
            let len = frame.data_ref().map_or(0, Bytes::len);
            if len == 0 {
                return Poll::Ready(Some(Ok(frame)));
            }
            if this.read.saturating_add(len) > this.max {
                return this.refuse(Refusal::TooLarge);
            }
            if this.pool.try_take(len) {
                this.read += len;
                this.held += len;
                this.stop_waiting();
                return Poll::Ready(Some(Ok(frame)));
            }
            // No room: keep the frame (and read no further, so the socket is not read
            // either), and wait for room to be given back. The waiter is made before the
            // next try, so room given back in between is not missed (see `Pool`).
            this.pending = Some(frame);
            match &mut this.wait {
                None => {
                    this.pool.waiting.fetch_add(1, Ordering::SeqCst);
                    let freed = Arc::clone(&this.pool.freed);
                    this.wait = Some(Box::pin(freed.notified_owned()));
                }
                Some(wait) => match wait.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        let freed = Arc::clone(&this.pool.freed);
                        wait.set(freed.notified_owned());
                    }
                    Poll::Pending => return this.until_deadline(cx),
                },
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || (self.pending.is_none() && self.inner.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        if self.done {
            return SizeHint::with_exact(0);
        }
        let mut hint = self.inner.size_hint();
        let kept = self
            .pending
            .as_ref()
            .and_then(Frame::data_ref)
            .map_or(0, |data| data.len() as u64);
        if kept > 0 {
            // The upper bound first: neither step may pass the other bound.
            if let Some(upper) = hint.upper() {
                hint.set_upper(upper.saturating_add(kept));
            }
            hint.set_lower(hint.lower().saturating_add(kept));
        }
        hint
    }
}

#[cfg(test)]
mod tests {
    use super::{Guarded, Pool, Refusal, Verdict};
    use hyper::body::{Body as HttpBody, Bytes, Frame};
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::sync::Arc;
    use std::task::{Context, Poll};
    use std::time::Duration;

    /// A body of the given pieces, each there at once.
    struct Pieces(VecDeque<Bytes>);

    impl HttpBody for Pieces {
        type Data = Bytes;
        type Error = std::convert::Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            Poll::Ready(self.0.pop_front().map(|piece| Ok(Frame::data(piece))))
        }
    }

    fn body(pieces: &[usize], pool: &Arc<Pool>, timeout: Duration) -> (Guarded, Verdict) {
        let pieces = pieces.iter().map(|&n| Bytes::from(vec![b' '; n])).collect();
        let verdict = Verdict::default();
        let guarded = Guarded::new(
            axum::body::Body::new(Pieces(pieces)),
            tokio::time::Instant::now() + timeout,
            1000,
            verdict.clone(),
            Arc::clone(pool),
        );
        (guarded, verdict)
    }

    /// The length of the next data frame, `None` at the end; `Pending` while it waits.
    fn poll_next(body: &mut Guarded, cx: &mut Context<'_>) -> Poll<Option<Result<usize, ()>>> {
        Pin::new(body).poll_frame(cx).map(|frame| {
            frame.map(|frame| {
                frame
                    .map(|frame| frame.into_data().map_or(0, |data| data.len()))
                    .map_err(|_| ())
            })
        })
    }

    /// Polls `body` once.
    async fn once(body: &mut Guarded) -> Poll<Option<Result<usize, ()>>> {
        std::future::poll_fn(|cx| Poll::Ready(poll_next(body, cx))).await
    }

    /// The next frame, waited for.
    async fn next(body: &mut Guarded) -> Option<Result<usize, ()>> {
        std::future::poll_fn(|cx| poll_next(body, cx)).await
    }

    /// Room is taken as bytes arrive, not for a length declared up front; a small piece
    /// that fits is taken at once while a large one waits for room, and the large one
    /// is given room once it is given back; every byte of room comes back in the end.
    #[tokio::test]
    async fn a_small_body_is_not_queued_behind_a_large_one() {
        let pool = Arc::new(Pool::new(1000));
        let long = Duration::from_secs(30);
        // Nothing read, nothing held.
        let (idle, _) = body(&[], &pool, long);
        assert_eq!(pool.free(), 1000);
        let (mut holder, _) = body(&[850, 100], &pool, long);
        assert_eq!(once(&mut holder).await, Poll::Ready(Some(Ok(850))));
        assert_eq!(pool.free(), 150);
        let (mut large, large_verdict) = body(&[500], &pool, long);
        assert_eq!(once(&mut large).await, Poll::Pending);
        assert_eq!(once(&mut large).await, Poll::Pending);
        // The large one waits without holding any room: the small one fits and is read.
        assert_eq!(pool.free(), 150);
        let (mut small, small_verdict) = body(&[60, 40], &pool, long);
        assert_eq!(once(&mut small).await, Poll::Ready(Some(Ok(60))));
        assert_eq!(once(&mut small).await, Poll::Ready(Some(Ok(40))));
        assert_eq!(pool.free(), 50);
        assert_eq!(once(&mut small).await, Poll::Ready(None));
        assert_eq!(small_verdict.get(), None);
        assert_eq!(pool.free(), 150);
        // The holder's room is given back when it is dropped, and the large one, woken,
        // gets its room.
        let waiter = tokio::spawn(async move {
            let got = next(&mut large).await;
            (got, large)
        });
        tokio::task::yield_now().await;
        drop(holder);
        let (got, mut large) = tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("woken when room is given back")
            .expect("the waiter");
        assert_eq!(got, Some(Ok(500)));
        assert_eq!(pool.free(), 500);
        assert_eq!(next(&mut large).await, None);
        assert_eq!(large_verdict.get(), None);
        drop((idle, large));
        assert_eq!(pool.free(), 1000);
        assert_eq!(pool.waiting.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    /// A body that waits for room past its deadline is refused as too slow, and what it
    /// held is given back; one with more bytes than the largest body is refused as too
    /// large.
    #[tokio::test]
    async fn a_body_waiting_for_room_past_its_deadline_is_too_slow() {
        let pool = Arc::new(Pool::new(1000));
        let (mut holder, _) = body(&[900], &pool, Duration::from_secs(30));
        assert_eq!(next(&mut holder).await, Some(Ok(900)));
        let (mut late, verdict) = body(&[50, 200], &pool, Duration::from_millis(100));
        assert_eq!(next(&mut late).await, Some(Ok(50)));
        assert_eq!(pool.free(), 50);
        assert_eq!(next(&mut late).await, Some(Err(())));
        assert_eq!(verdict.get(), Some(Refusal::TooSlow));
        assert_eq!(pool.free(), 100);
        assert_eq!(once(&mut late).await, Poll::Ready(None));
        drop(holder);
        let (mut large, verdict) = body(&[600, 600], &pool, Duration::from_secs(30));
        assert_eq!(next(&mut large).await, Some(Ok(600)));
        assert_eq!(next(&mut large).await, Some(Err(())));
        assert_eq!(verdict.get(), Some(Refusal::TooLarge));
        assert_eq!(pool.free(), 1000);
    }
}
