//! Sealing and opening tokens: [`Sealer`], the cipher and the token format of the
//! module's documentation.

use std::sync::Arc;
use std::time::Duration;

use aes_gcm_siv::aead::AeadInOut;
use aes_gcm_siv::{Nonce, Tag};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Binding, KeyId, Keyring, MAX_TOKEN_LEN, SealError, exact, now};
#[cfg(any(test, feature = "testing"))]
use super::{CLOCK_SKEW, STATE_TTL};

pub(super) const VERSION: &str = "v4";
pub(super) const NONCE_LEN: usize = 12;
pub(super) const TAG_LEN: usize = 16;
/// The time of sealing and the expiry, 8 bytes each.
pub(super) const TIMES_LEN: usize = 16;

/// Seals and opens tokens with a [`Keyring`] and a time to live.
///
/// Not part of the API: the engine seals and opens every state (its lifetime and clock
/// skew are in its `Settings`). Public only through `__private::testing` (feature
/// `testing`), for the tests, the fuzz targets and the benchmarks, which seal states of
/// their own. Not covered by semver.
#[derive(Clone, Debug)]
pub struct Sealer {
    pub(super) keyring: Arc<Keyring>,
    pub(super) ttl: Duration,
    skew: Duration,
}

/// What the tests, fuzz targets and benchmarks use besides the engine's part.
#[cfg(any(test, feature = "testing"))]
impl Sealer {
    /// A sealer whose tokens open for 15 minutes, refused when sealed more than 30 s
    /// ahead of the opener's clock.
    pub fn new(keyring: Keyring) -> Sealer {
        Sealer::shared(Arc::new(keyring), STATE_TTL, CLOCK_SKEW)
    }

    /// How long a token opens after sealing (whole seconds; under one second, not at
    /// all).
    pub fn with_ttl(mut self, ttl: Duration) -> Sealer {
        self.ttl = ttl;
        self
    }

    /// How far ahead of this sealer's clock another replica's time of sealing may be
    /// (30 seconds by default; whole seconds).
    pub fn with_clock_skew(mut self, skew: Duration) -> Sealer {
        self.skew = skew;
        self
    }

    /// Opens `token` for `binding` and parses its payload.
    pub fn open<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
    ) -> Result<T, SealError> {
        self.open_at(binding, token, now())
    }

    /// [`open`](Self::open) as if the time were `now` (seconds since the Unix epoch),
    /// for a fixed clock.
    pub fn open_at<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
        now: u64,
    ) -> Result<T, SealError> {
        let (body, payload) = self.open_bytes_at(binding, token, now)?;
        exact::from_slice(&body[payload]).map_err(SealError::Payload)
    }
}

impl Sealer {
    /// A sealer over a keyring the engine shares between calls.
    pub(crate) fn shared(keyring: Arc<Keyring>, ttl: Duration, skew: Duration) -> Sealer {
        Sealer { keyring, ttl, skew }
    }

    /// Seals `payload` (as JSON) for `binding` with the current key, expiring after
    /// the TTL.
    pub fn seal<T: Serialize + ?Sized>(
        &self,
        binding: &Binding,
        payload: &T,
    ) -> Result<String, SealError> {
        self.seal_at(binding, payload, now())
    }

    /// [`seal`](Self::seal) as if the time were `now` (seconds since the Unix epoch),
    /// for a fixed clock.
    pub fn seal_at<T: Serialize + ?Sized>(
        &self,
        binding: &Binding,
        payload: &T,
        now: u64,
    ) -> Result<String, SealError> {
        self.seal_with(binding, payload, now, getrandom::fill)
    }

    /// [`seal_at`](Self::seal_at) with the nonce from `fill_nonce` (the operating
    /// system's randomness, or a fixed nonce in a test of the token format).
    pub(super) fn seal_with<T: Serialize + ?Sized>(
        &self,
        binding: &Binding,
        payload: &T,
        now: u64,
        fill_nonce: impl FnOnce(&mut [u8]) -> Result<(), getrandom::Error>,
    ) -> Result<String, SealError> {
        let expires = now.saturating_add(self.ttl.as_secs());
        // One buffer, `nonce | issued | expiry | JSON | tag`, encrypted in place.
        let mut body = Vec::with_capacity(NONCE_LEN + TIMES_LEN + 512 + TAG_LEN);
        body.extend_from_slice(&[0; NONCE_LEN]);
        body.extend_from_slice(&now.to_be_bytes());
        body.extend_from_slice(&expires.to_be_bytes());
        serde_json::to_writer(&mut body, payload).map_err(SealError::Payload)?;
        let (id, key) = self.keyring.current();
        let plain_len = body.len() - NONCE_LEN;
        let len = sealed_len(id.0.len(), plain_len);
        if len > MAX_TOKEN_LEN {
            return Err(SealError::TooLarge { len });
        }
        let mut nonce = [0u8; NONCE_LEN];
        fill_nonce(&mut nonce).map_err(|_| SealError::Random)?;
        body[..NONCE_LEN].copy_from_slice(&nonce);
        let aad = aad(&id.0, binding);
        let tag = key
            .cipher()
            .encrypt_inout_detached(&Nonce::from(nonce), &aad, (&mut body[NONCE_LEN..]).into())
            .map_err(|_| SealError::TooLarge { len: plain_len })?;
        body.extend_from_slice(&tag);
        let mut token = String::with_capacity(len);
        token.push_str(VERSION);
        token.push('.');
        token.push_str(&id.0);
        token.push('.');
        URL_SAFE_NO_PAD.encode_string(&body, &mut token);
        Ok(token)
    }

    /// [`open`](Self::open), with the token's time of sealing and its expiry (seconds
    /// since the Unix epoch).
    pub(crate) fn open_stamped<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
    ) -> Result<(T, u64, u64), SealError> {
        let (body, payload) = self.open_bytes_at(binding, token, now())?;
        let time = |at: usize| {
            body.get(at..at + 8)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(u64::from_be_bytes)
                .ok_or(SealError::Tampered)
        };
        let (issued, expires) = (time(NONCE_LEN)?, time(NONCE_LEN + 8)?);
        let value = exact::from_slice(&body[payload]).map_err(SealError::Payload)?;
        Ok((value, issued, expires))
    }

    /// Opens `token` in place: the decrypted body and where the payload's JSON bytes
    /// are in it, unparsed.
    fn open_bytes_at(
        &self,
        binding: &Binding,
        token: &str,
        now: u64,
    ) -> Result<(Vec<u8>, std::ops::Range<usize>), SealError> {
        if token.len() > MAX_TOKEN_LEN {
            return Err(SealError::Malformed("too long"));
        }
        let mut parts = token.splitn(3, '.');
        let (Some(version), Some(id), Some(body)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(SealError::Malformed("expected version.key.body"));
        };
        if version != VERSION {
            return Err(SealError::Malformed("unknown version"));
        }
        if !KeyId::valid(id) {
            return Err(SealError::Malformed("bad key id"));
        }
        let (id, key) = self
            .keyring
            .get(id)
            .ok_or_else(|| SealError::UnknownKey(id.to_owned()))?;
        let mut body = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| SealError::Malformed("bad base64"))?;
        let end = body.len().saturating_sub(TAG_LEN);
        if end < NONCE_LEN + TIMES_LEN {
            return Err(SealError::Malformed("too short"));
        }
        let (nonce, rest) = body.split_at_mut(NONCE_LEN);
        let (sealed, tag) = rest.split_at_mut(end - NONCE_LEN);
        let nonce = Nonce::try_from(&*nonce).map_err(|_| SealError::Malformed("too short"))?;
        let tag = Tag::try_from(&*tag).map_err(|_| SealError::Malformed("too short"))?;
        let aad = aad(&id.0, binding);
        key.cipher()
            .decrypt_inout_detached(&nonce, &aad, (&mut *sealed).into(), &tag)
            .map_err(|_| SealError::Tampered)?;
        // Authenticated, so ours: at least the two times. Checked all the same.
        let Some((issued, rest)) = sealed.split_first_chunk::<8>() else {
            return Err(SealError::Tampered);
        };
        let Some((expires, _)) = rest.split_first_chunk::<8>() else {
            return Err(SealError::Tampered);
        };
        let (issued, expires) = (u64::from_be_bytes(*issued), u64::from_be_bytes(*expires));
        if issued > now.saturating_add(self.skew.as_secs()) {
            return Err(SealError::FromTheFuture { issued_at: issued });
        }
        if now >= expires {
            return Err(SealError::Expired {
                expired_at: expires,
            });
        }
        Ok((body, NONCE_LEN + TIMES_LEN..end))
    }
}

/// The length of the token for a key id of `id_len` and a plaintext of `plain_len`.
pub(super) fn sealed_len(id_len: usize, plain_len: usize) -> usize {
    let body = NONCE_LEN + plain_len + TAG_LEN;
    // Base64 without padding: 4 characters per 3 bytes, rounded up.
    VERSION.len() + 1 + id_len + 1 + (4 * body).div_ceil(3)
}

/// The associated data: `v4.<key id>.` then the binding's parts.
pub(super) fn aad(id: &str, binding: &Binding) -> Vec<u8> {
    let mut aad = Vec::with_capacity(VERSION.len() + id.len() + 2 + binding.parts.len());
    aad.extend_from_slice(VERSION.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(id.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(&binding.parts);
    aad
}
