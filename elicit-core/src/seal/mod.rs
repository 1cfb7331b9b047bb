//! Sealed state for calls in rounds (feature `seal`): encrypted, authenticated,
//! expiring tokens bound to who asked and for what.
//!
//! On MCP 2026-07-28, where a call asks in rounds, a server that asks the user something
//! returns `input_required` with an opaque `requestState`; the client echoes it on the
//! retry. That string is attacker-controlled and carries the user's answers so far, so
//! it is sealed with AES-256-GCM-SIV (encrypted, not only signed: answers can be
//! personal data), with an expiry inside the authenticated payload and a [`Binding`]
//! (principal, method, tool or prompt name, the arguments) as associated data. A token
//! sealed for one call opens for no other.
//!
//! The question engine seals and opens every state: a server gives it the keyring once
//! and, with each call, what the call's states are bound to.
//!
//! ```
//! use elicit_core::engine::Engine;
//! use elicit_core::seal::{Binding, Key, Keyring};
//! use serde_json::json;
//!
//! let engine = Engine::new(Keyring::new("k1", Key::generate())?);
//! let args = json!({"event": "concert", "seats": 2});
//! let alice = Binding::new("alice", "tools/call", "book_tickets", &args);
//! // A state sealed for Alice's call opens for no other principal (or tool, or arguments).
//! assert_ne!(alice, Binding::new("bob", "tools/call", "book_tickets", &args));
//! # drop(engine);
//! # Ok::<(), elicit_core::seal::SealError>(())
//! ```
//!
//! # Token format
//!
//! `v4.<key id>.<base64url without padding of (12-byte nonce || ciphertext || 16-byte tag)>`,
//! the nonce, ciphertext and tag being AES-256-GCM-SIV's (RFC 8452, RustCrypto's
//! `aes-gcm-siv`; tests hold the cipher to the RFC's vectors and the tokens to output made
//! with OpenSSL). The nonce is drawn at random: the cipher resists nonce reuse (a repeated
//! nonce would only show that two tokens are identical), so replicas sharing a key need no
//! counter. The plaintext is the
//! time of sealing and the expiry (8 bytes each, big-endian seconds since the Unix epoch)
//! followed by the payload as JSON. The associated data is `v4.<key id>.` followed by the [`Binding`]'s four parts,
//! each as its length (8 bytes, big-endian) and its bytes: principal, method, name, and
//! the arguments as canonical JSON (see [`Binding::new`]). So the version, the key id
//! and the binding are all authenticated without being stored.
//! Tokens of other versions (`v1` to `v3`) do not open. Tokens longer than 64 KiB are
//! refused before any decoding, and never produced.
//!
//! A token sealed for another binding fails authentication exactly like a changed
//! token: the cipher cannot tell the two apart, so both are [`SealError::Tampered`].
//! A token sealed in the future (more than the clock skew allowed, 30 seconds by
//! default, ahead of the opener's clock) is refused: a replica whose clock runs fast
//! cannot hand out states that live longer elsewhere.
//!
//! Within its lifetime a token opens as often as it is presented: the cipher alone
//! cannot make it single use. The question engine (`elicit_core::engine`, which
//! `elicit_rmcp` runs) records each state it opens in a redeem store
//! (`elicit_core::store::RedeemStore`) and refuses the second redemption.
//!
//! # Keys and rotation
//!
//! A [`Keyring`] has one current key, which seals, and any number of previous keys,
//! which still open. Each token names its key id, so rotating is: add a new current
//! key, keep the old one as previous for as long as tokens live (the TTL, 15 minutes
//! by default), then drop it. Replicas behind a load balancer share the keyring.
//!
//! The text form (an environment variable or a key file, read with `str::parse`)
//! lists `id:key` pairs separated by commas or newlines, **current first**. An id is 1
//! to 16 of `A-Z a-z 0-9 _ -`; a key is 32 bytes in base64 (URL-safe or standard,
//! padded or not) or 64 hex digits. Blank entries and lines starting with `#` are
//! ignored.
//!
//! ```
//! use elicit_core::seal::Keyring;
//!
//! // k2 seals; k1 (retiring) still opens tokens sealed before the rotation.
//! let text = "k2:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w,\
//!             k1:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
//! let ring: Keyring = text.parse()?;
//!
//! // A new keyring for the file: `Keyring::generate().to_text()`; any keyring is
//! // written back in the same form with `to_text()`.
//! let round_trip: Keyring = ring.to_text().parse()?;
//! assert_eq!(round_trip.to_text(), ring.to_text());
//! # Ok::<(), elicit_core::seal::SealError>(())
//! ```

mod exact;
mod keys;
mod moved;
pub(crate) mod sealer;

pub(crate) use keys::KeyId;
pub use keys::{Key, Keyring};
#[allow(deprecated)]
pub use moved::*;
pub(crate) use sealer::Sealer;

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;

/// The longest token a sealer opens (64 KiB); longer input is refused before any
/// decoding, and a sealer never produces a longer one.
pub(crate) const MAX_TOKEN_LEN: usize = 64 * 1024;

/// How long a sealed token opens (15 minutes), unless the engine's settings say otherwise.
pub(crate) const STATE_TTL: Duration = Duration::from_secs(15 * 60);

// Hidden: the old name, kept for one release so that code using it gets a warning
// instead of an error.
#[doc(hidden)]
#[deprecated(note = "read `engine::Settings::default().state_ttl`")]
pub const DEFAULT_TTL: Duration = STATE_TTL;

/// How far ahead of the opener's clock a token's time of sealing may be (30 seconds),
/// unless the engine's settings say otherwise: replicas' clocks differ a little, never by
/// minutes.
pub(crate) const CLOCK_SKEW: Duration = Duration::from_secs(30);

/// What a token is bound to: the principal, the request's method and target, and its
/// arguments. It is the associated data of the cipher, never written into the token.
#[derive(Clone, PartialEq, Eq)]
pub struct Binding {
    /// The four parts as the associated data carries them, made once (every seal and
    /// open reads them): each its length (8 bytes, big-endian) then its bytes, so no
    /// two bindings meet by concatenation (`"ab" + "c"` against `"a" + "bc"`).
    parts: Vec<u8>,
    /// Where the principal, method and name are in `parts`.
    ends: [usize; 3],
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The arguments can be personal data: only their size shows.
        f.debug_struct("Binding")
            .field("principal", &self.principal())
            .field("method", &self.method())
            .field("name", &self.name())
            .field("arguments_len", &self.arguments().len())
            .finish()
    }
}

impl Binding {
    /// A binding for `principal` (a user or client id; `""` when unauthenticated)
    /// calling `method` (`"tools/call"`, `"prompts/get"`) on `name` with `arguments`
    /// (the request's arguments object, without the `requestState` itself).
    ///
    /// The arguments are bound as compact JSON with every object's keys sorted (by
    /// their UTF-8 bytes), at every depth, so the same arguments with their keys in
    /// another order bind the same. That is byte for byte what `serde_json::to_vec`
    /// writes when serde_json's `Map` is a sorted `BTreeMap`, i.e. without its
    /// `preserve_order` feature; the keys are sorted here all the same, so a crate
    /// elsewhere in the build that turns `preserve_order` on (features unify) does not
    /// make the binding depend on the order in which the client sent the keys. Numbers
    /// are written as serde_json parsed them (`1` and `1.0` differ). Both bindings
    /// below bind the arguments as `{"a":1,"b":[2]}`:
    ///
    /// ```
    /// use elicit_core::seal::Binding;
    /// use serde_json::json;
    ///
    /// let a = Binding::new("alice", "tools/call", "book", &json!({"a": 1, "b": [2]}));
    /// let b = Binding::new("alice", "tools/call", "book", &json!({"b": [2], "a": 1}));
    /// assert_eq!(a, b);
    /// assert_ne!(a, Binding::new("alice", "tools/call", "book", &json!({"a": 1.0, "b": [2]})));
    /// ```
    pub fn new(principal: &str, method: &str, name: &str, arguments: &Value) -> Binding {
        Binding::build(principal, method, name, |out| {
            canonical_json(arguments, out)
        })
    }

    /// [`new`](Self::new) for the arguments object as an SDK keeps it in its request
    /// (`None`: no arguments, bound as `null`): the same binding, read in place, without
    /// building a `Value` of the arguments first.
    ///
    /// ```
    /// use elicit_core::seal::Binding;
    /// use serde_json::json;
    ///
    /// let arguments = json!({"a": 1, "b": [2]});
    /// let in_place = Binding::for_arguments("alice", "tools/call", "book", arguments.as_object());
    /// assert_eq!(in_place, Binding::new("alice", "tools/call", "book", &arguments));
    /// assert_eq!(
    ///     Binding::for_arguments("alice", "tools/call", "book", None),
    ///     Binding::new("alice", "tools/call", "book", &serde_json::Value::Null),
    /// );
    /// ```
    pub fn for_arguments(
        principal: &str,
        method: &str,
        name: &str,
        arguments: Option<&serde_json::Map<String, Value>>,
    ) -> Binding {
        Binding::build(principal, method, name, |out| match arguments {
            Some(map) => canonical_object(map, out),
            None => canonical_json(&Value::Null, out),
        })
    }

    /// A key naming this binding and `salt` in a store: 128 bits of SHA-256 over both,
    /// base64url (the arguments, personal data maybe, never show in it).
    #[cfg_attr(not(feature = "web"), allow(dead_code))]
    pub(crate) fn key(&self, salt: &str) -> String {
        use sha2::Digest;
        let mut hashing = sha2::Sha256::new();
        hashing.update(&self.parts);
        hashing.update((salt.len() as u64).to_be_bytes());
        hashing.update(salt.as_bytes());
        URL_SAFE_NO_PAD.encode(&hashing.finalize()[..16])
    }

    /// The binding of the three names and the arguments `write` writes canonically.
    fn build(
        principal: &str,
        method: &str,
        name: &str,
        write: impl FnOnce(&mut Vec<u8>),
    ) -> Binding {
        let mut parts =
            Vec::with_capacity(4 * 8 + principal.len() + method.len() + name.len() + 64);
        let mut ends = [0; 3];
        for (end, part) in ends.iter_mut().zip([principal, method, name]) {
            parts.extend_from_slice(&(part.len() as u64).to_be_bytes());
            parts.extend_from_slice(part.as_bytes());
            *end = parts.len();
        }
        parts.extend_from_slice(&[0; 8]);
        let start = parts.len();
        write(&mut parts);
        let len = (parts.len() - start) as u64;
        parts[start - 8..start].copy_from_slice(&len.to_be_bytes());
        Binding { parts, ends }
    }

    /// The part that ends at `end`, after its 8-byte length.
    fn part(&self, start: usize, end: usize) -> &str {
        // Every part was written from a `&str`, so this never falls back.
        std::str::from_utf8(self.parts.get(start + 8..end).unwrap_or_default()).unwrap_or_default()
    }

    /// The principal.
    pub(crate) fn principal(&self) -> &str {
        self.part(0, self.ends[0])
    }

    /// The method, such as `tools/call`.
    fn method(&self) -> &str {
        self.part(self.ends[0], self.ends[1])
    }

    /// The tool's or prompt's name.
    fn name(&self) -> &str {
        self.part(self.ends[1], self.ends[2])
    }

    /// The arguments as bound: canonical JSON (see [`Binding::new`]).
    fn arguments(&self) -> &str {
        self.part(self.ends[2], self.parts.len())
    }
}

/// Compact JSON with sorted keys. Scalars are written by serde_json (writing a
/// `Value` to a `Vec` cannot fail: its keys are strings and its numbers finite).
pub(crate) fn canonical_json(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical_json(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => canonical_object(map, out),
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

/// An object of [`canonical_json`]: its keys sorted, at every depth.
fn canonical_object(map: &serde_json::Map<String, Value>, out: &mut Vec<u8>) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    out.push(b'{');
    for (i, (key, item)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut *out, key);
        out.push(b':');
        canonical_json(item, out);
    }
    out.push(b'}');
}

/// Why a token did not open (or could not be made). Its messages are fit for a user
/// or a log: they show neither the payload nor key material.
#[derive(Debug)]
#[non_exhaustive]
pub enum SealError {
    /// Not a token of this format: wrong shape or version, bad key id, bad base64,
    /// too short or longer than 64 KiB.
    Malformed(&'static str),
    /// Sealed with a key this keyring does not have (foreign or retired); its id.
    UnknownKey(String),
    /// Authentication failed: the token was changed, or it was sealed for another
    /// principal, method, name or arguments, or by another key under the same id.
    /// The cipher cannot tell these apart.
    Tampered,
    /// The token's time is up.
    #[non_exhaustive]
    Expired {
        /// When it stopped opening (seconds since the Unix epoch).
        expired_at: u64,
    },
    /// The token was sealed later than the opener's clock allows (by more than the
    /// clock skew): the sealing replica's clock runs fast.
    #[non_exhaustive]
    FromTheFuture {
        /// When it says it was sealed (seconds since the Unix epoch).
        issued_at: u64,
    },
    /// The sealed payload is not what the caller expected (or, when sealing, could not
    /// be written as JSON). The serde_json error is the [`source`](std::error::Error::source);
    /// it can quote the payload, so it is not part of the message.
    Payload(serde_json::Error),
    /// Sealing: the payload makes a token longer than 64 KiB.
    #[non_exhaustive]
    TooLarge {
        /// The token's length.
        len: usize,
    },
    /// Sealing: the operating system gave no randomness for the nonce.
    Random,
    /// A key or keyring could not be read (a key that is not 32 bytes of base64 or 64
    /// hex digits, an id that is not 1 to 16 of `A-Z a-z 0-9 _ -`, an id used twice, no
    /// key, an unset variable). The text never shows key material.
    Key(String),
    /// The store of redeemed states could not record a redemption (unreachable): the
    /// state is refused, since single use cannot be promised without the record.
    /// A store of your own makes one with [`SealError::store`].
    #[non_exhaustive]
    Store {
        /// What failed, fit for a log.
        message: String,
        /// The store's own error.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

impl SealError {
    /// A [`SealError::Store`]: `message`, caused by `source` when there is one.
    pub fn store(
        message: impl Into<String>,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> SealError {
        SealError::Store {
            message: message.into(),
            source,
        }
    }
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealError::Malformed(why) => write!(f, "not a sealed state ({why})"),
            // A key id is only letters, digits, `_` and `-`: quoting its text is safe.
            SealError::UnknownKey(id) => write!(
                f,
                "sealed with key \"{id}\", which this server does not have (foreign or retired key)"
            ),
            SealError::Tampered => f.write_str(
                "the state was altered, or was issued for another user, tool or arguments",
            ),
            SealError::Expired { expired_at } => {
                write!(
                    f,
                    "the state expired (at {expired_at} s since the Unix epoch)"
                )
            }
            SealError::FromTheFuture { issued_at } => write!(
                f,
                "the state was issued in the future (at {issued_at} s since the Unix epoch): \
                 the clocks of the servers disagree"
            ),
            SealError::Payload(_) => f.write_str("the state's content is not what was expected"),
            SealError::TooLarge { len } => write!(
                f,
                "the state is too large to seal ({len} bytes, at most {MAX_TOKEN_LEN})"
            ),
            SealError::Random => f.write_str("no randomness for a nonce"),
            SealError::Key(why) => f.write_str(why),
            SealError::Store { message, source } => {
                f.write_str(message)?;
                if let Some(source) = source {
                    write!(f, ": {source}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SealError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SealError::Payload(e) => Some(e),
            SealError::Store {
                source: Some(source),
                ..
            } => Some(&**source),
            _ => None,
        }
    }
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A random identifier (128 bits, URL-safe base64 without padding, 22 characters),
/// e.g. an `elicitationId`.
///
/// # Panics
/// When the operating system has no randomness to give.
pub(crate) fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests;
