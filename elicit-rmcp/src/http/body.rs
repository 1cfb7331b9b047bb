//! A request body held to its limits while the service reads it: at most so many bytes,
//! all of them by a deadline. Nothing is copied or collected here, and the deadline's
//! timer is armed only when a read has to wait (a body that came with its head, as a
//! JSON-RPC message almost always does, arms none).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll};

use hyper::body::{Body as HttpBody, Bytes, Frame, SizeHint};

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

/// A request body read under limits; holds its room among the bodies in flight until
/// it is dropped.
pub(super) struct Guarded {
    pub(super) inner: axum::body::Body,
    pub(super) deadline: tokio::time::Instant,
    pub(super) max: usize,
    pub(super) verdict: Verdict,
    pub(super) room: Option<tokio::sync::OwnedSemaphorePermit>,
    /// Armed when a read first has to wait.
    pub(super) sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    pub(super) read: usize,
}

impl Guarded {
    fn refuse(&mut self, refusal: Refusal) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.verdict.set(refusal);
        self.room = None;
        let why = match refusal {
            Refusal::TooLarge => "the request body is too large",
            Refusal::TooSlow => "the request body did not arrive in time",
            Refusal::BrokeOff => "the request body broke off",
        };
        Poll::Ready(Some(Err(axum::Error::new(why))))
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
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.read = this.read.saturating_add(data.len());
                    if this.read > this.max {
                        return this.refuse(Refusal::TooLarge);
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(_))) => this.refuse(Refusal::BrokeOff),
            Poll::Ready(None) => {
                this.room = None;
                Poll::Ready(None)
            }
            Poll::Pending => {
                let deadline = this.deadline;
                let sleep = this
                    .sleep
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                if sleep.as_mut().poll(cx).is_ready() {
                    return this.refuse(Refusal::TooSlow);
                }
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
