//! Sealed state for stateless servers (feature `seal`): encrypted, authenticated,
//! expiring tokens bound to who asked and for what.
//!
//! On MCP 2026-07-28 (Multi Round-Trip Requests) a server that asks the user something
//! returns `input_required` with an opaque `requestState`; the client echoes it on the
//! retry. That string is attacker-controlled and carries the user's answers so far, so
//! it is sealed with AES-256-GCM-SIV (encrypted, not only signed: answers can be
//! personal data), with an expiry inside the authenticated payload and a [`Binding`]
//! (principal, method, tool or prompt name, the arguments) as associated data. A token
//! sealed for one call opens for no other.
//!
//! ```
//! use elicit_core::seal::{Binding, Key, Keyring, SealError, Sealer};
//! use serde_json::json;
//!
//! let sealer = Sealer::new(Keyring::new("k1", Key::generate())?);
//! let args = json!({"event": "concert", "seats": 2});
//! let binding = Binding::new("alice", "tools/call", "book_tickets", &args);
//! let token = sealer.seal(&binding, &json!({"step": 2}))?;
//! assert!(token.starts_with("v4.k1."));
//! let back: serde_json::Value = sealer.open(&binding, &token)?;
//! assert_eq!(back["step"], 2);
//!
//! // The same token for another principal (or tool, or arguments) does not open.
//! let bob = Binding::new("bob", "tools/call", "book_tickets", &args);
//! assert!(matches!(
//!     sealer.open::<serde_json::Value>(&bob, &token),
//!     Err(SealError::Tampered)
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
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
//! (`v1` tokens, from before 0.1's release, bound a SHA-256 digest of the binding
//! instead, `v2` tokens had no time of sealing, and `v3` tokens were sealed with
//! XChaCha20-Poly1305; none of them opens any more.) Tokens longer than [`MAX_TOKEN_LEN`] are
//! refused before any decoding, and never produced.
//!
//! A token sealed for another binding fails authentication exactly like a changed
//! token: the cipher cannot tell the two apart, so both are [`SealError::Tampered`].
//! A token sealed in the future (more than the clock skew allowed, [`CLOCK_SKEW`] by
//! default, ahead of the opener's clock) is refused: a replica whose clock runs fast
//! cannot hand out states that live longer elsewhere.
//!
//! Within its lifetime a token opens as often as it is presented: the cipher alone
//! cannot make it single use. The rmcp adapter (`elicit_rmcp`) records each
//! state it opens in a [`store::RedeemStore`] and refuses the second redemption.
//!
//! # Keys and rotation
//!
//! A [`Keyring`] has one current key, which seals, and any number of previous keys,
//! which still open. Each token names its key id, so rotating is: add a new current
//! key, keep the old one as previous for as long as tokens live (the TTL, 15 minutes
//! by default), then drop it. Replicas behind a load balancer share the keyring.
//!
//! The text form (an environment variable, see [`Keyring::from_env`], or a key file)
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
//! // Generate a key for the file: `Key::generate().to_base64()`; write a keyring
//! // back in the same form with `to_text()`.
//! let round_trip: Keyring = ring.to_text().parse()?;
//! assert_eq!(round_trip.to_text(), ring.to_text());
//! # Ok::<(), elicit_core::seal::KeyError>(())
//! ```

#[cfg(feature = "redis")]
pub mod redis;
pub mod store;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aes_gcm_siv::aead::{AeadInOut, KeyInit};
use aes_gcm_siv::{Aes256GcmSiv, Nonce, Tag};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The longest token [`Sealer::open`] reads (64 KiB); longer input is refused before
/// any decoding, and [`Sealer::seal`] never produces a longer one.
pub const MAX_TOKEN_LEN: usize = 64 * 1024;

/// How long a sealed token opens (15 minutes), unless the [`Sealer`] says otherwise.
pub const DEFAULT_TTL: Duration = Duration::from_secs(15 * 60);

/// How far ahead of the opener's clock a token's time of sealing may be (30 seconds),
/// unless the [`Sealer`] says otherwise: replicas' clocks differ a little, never by
/// minutes.
pub const CLOCK_SKEW: Duration = Duration::from_secs(30);

const VERSION: &str = "v4";
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
/// The time of sealing and the expiry, 8 bytes each.
const TIMES_LEN: usize = 16;

/// A 256-bit key. Its `Debug` never shows the bytes, and `==` takes the same time
/// whatever the keys.
#[derive(Clone)]
pub struct Key([u8; 32]);

impl Key {
    /// A fresh random key from the operating system.
    ///
    /// # Panics
    /// When the operating system has no randomness to give, which leaves nothing
    /// safe to do.
    pub fn generate() -> Key {
        let mut bytes = [0u8; 32];
        // Without randomness no key is safe; there is no sensible fallback.
        getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
        Key(bytes)
    }

    /// A key from its bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Key {
        Key(bytes)
    }

    /// The key in URL-safe base64 without padding, for a key file or an environment
    /// variable.
    pub fn to_base64(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }

    /// AES-256-GCM-SIV under this key.
    fn cipher(&self) -> Aes256GcmSiv {
        Aes256GcmSiv::new(&self.0.into())
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl Eq for Key {}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(..)")
    }
}

impl FromStr for Key {
    type Err = KeyError;

    /// 64 hex digits, or 32 bytes in base64 (URL-safe or standard, padded or not).
    fn from_str(s: &str) -> Result<Key, KeyError> {
        let s = s.trim();
        let bytes = if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            // All ASCII, so every two-byte slice is on a character boundary.
            (0..32)
                .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| KeyError::BadKey)?
        } else {
            let unpadded = s.trim_end_matches('=');
            URL_SAFE_NO_PAD
                .decode(unpadded)
                .or_else(|_| STANDARD_NO_PAD.decode(unpadded))
                .map_err(|_| KeyError::BadKey)?
        };
        let bytes: [u8; 32] = bytes.try_into().map_err(|_| KeyError::BadKey)?;
        Ok(Key(bytes))
    }
}

/// A key's name in a token: 1 to 16 of `A-Z a-z 0-9 _ -`, so it is safe to show and
/// log.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(String);

impl KeyId {
    /// The longest id.
    const MAX_LEN: usize = 16;

    /// Checks `id`: 1 to 16 characters, each an ASCII letter or digit, `_` or `-`;
    /// anything else is [`KeyError::BadId`].
    ///
    /// The id's text is its `Display` and its `AsRef<str>`, and an id compares equal
    /// to its text (`id == "k1"`).
    pub fn new(id: &str) -> Result<KeyId, KeyError> {
        if Self::valid(id) {
            Ok(KeyId(id.to_owned()))
        } else {
            Err(KeyError::BadId(id.chars().take(32).collect()))
        }
    }

    fn valid(id: &str) -> bool {
        (1..=Self::MAX_LEN).contains(&id.len())
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    }
}

impl FromStr for KeyId {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<KeyId, KeyError> {
        KeyId::new(s)
    }
}

impl AsRef<str> for KeyId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyId({:?})", self.0)
    }
}

impl PartialEq<str> for KeyId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for KeyId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// Why a key or keyring could not be read. Its messages never show key material.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// A key is not 32 bytes of base64 or 64 hex digits, or an entry is not `id:key`.
    BadKey,
    /// A key id is not 1 to 16 of `A-Z a-z 0-9 _ -` (at most 32 characters of it).
    BadId(String),
    /// Two keys share an id.
    DuplicateId(String),
    /// The text has no `id:key` pair.
    Empty,
    /// The environment variable is not set or not Unicode.
    MissingEnv(String),
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::BadKey => {
                f.write_str("expected `id:key` with a key of 32 bytes in base64, or 64 hex digits")
            }
            KeyError::BadId(id) => write!(
                f,
                "key id {id:?} must be 1 to 16 letters, digits, '_' or '-'"
            ),
            KeyError::DuplicateId(id) => write!(f, "key id {id:?} is used twice"),
            KeyError::Empty => f.write_str("no key given: expected `id:key[,id:key..]`"),
            KeyError::MissingEnv(var) => {
                write!(
                    f,
                    "the environment variable {var} is not set (or not Unicode)"
                )
            }
        }
    }
}

impl std::error::Error for KeyError {}

/// The current sealing key and the previous keys that still open tokens.
///
/// The text form is described in the [module docs](self#keys-and-rotation).
#[derive(Clone, Debug)]
pub struct Keyring {
    /// Never empty; the first is current.
    keys: Vec<(KeyId, Key)>,
}

impl Keyring {
    /// A keyring whose current key is `key`, named `id`.
    pub fn new(id: impl AsRef<str>, key: Key) -> Result<Keyring, KeyError> {
        Ok(Keyring {
            keys: vec![(KeyId::new(id.as_ref())?, key)],
        })
    }

    /// A keyring with one fresh random key (id `k0`): fine for one process; replicas
    /// need a shared keyring.
    ///
    /// # Panics
    /// As [`Key::generate`].
    pub fn generate() -> Keyring {
        Keyring {
            keys: vec![(KeyId("k0".to_owned()), Key::generate())],
        }
    }

    /// Adds a previous key: it opens tokens but no longer seals.
    pub fn with_previous(mut self, id: impl AsRef<str>, key: Key) -> Result<Keyring, KeyError> {
        let id = KeyId::new(id.as_ref())?;
        if self.keys.iter().any(|(k, _)| *k == id) {
            return Err(KeyError::DuplicateId(id.0));
        }
        self.keys.push((id, key));
        Ok(self)
    }

    /// Reads the keyring from the environment variable `var`, in the text form of the
    /// [module docs](self#keys-and-rotation), such as
    /// `ELICIT_KEYS=k2:BASE64KEY,k1:BASE64KEY`.
    pub fn from_env(var: &str) -> Result<Keyring, KeyError> {
        std::env::var(var)
            .map_err(|_| KeyError::MissingEnv(var.to_owned()))?
            .parse()
    }

    /// The keyring in its text form, current key first. It holds the keys: treat it as
    /// a secret.
    pub fn to_text(&self) -> String {
        self.keys
            .iter()
            .map(|(id, key)| format!("{id}:{}", key.to_base64()))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn current(&self) -> (&KeyId, &Key) {
        let (id, key) = &self.keys[0];
        (id, key)
    }

    fn get(&self, id: &str) -> Option<(&KeyId, &Key)> {
        self.keys
            .iter()
            .find(|(k, _)| k.0 == id)
            .map(|(k, key)| (k, key))
    }
}

impl FromStr for Keyring {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Keyring, KeyError> {
        let mut ring: Option<Keyring> = None;
        // Comment lines go first, whole: a comment may contain commas.
        for pair in s
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(|line| line.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (id, key) = pair.split_once(':').ok_or(KeyError::BadKey)?;
            let key: Key = key.parse()?;
            ring = Some(match ring {
                None => Keyring::new(id.trim(), key)?,
                Some(r) => r.with_previous(id.trim(), key)?,
            });
        }
        ring.ok_or(KeyError::Empty)
    }
}

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
        canonical_json(arguments, &mut parts);
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
    fn principal(&self) -> &str {
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
        Value::Object(map) => {
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
        scalar => {
            let _ = serde_json::to_writer(&mut *out, scalar);
        }
    }
}

/// Why a token did not open (or could not be made). Its messages are fit for a user
/// or a log: they show neither the payload nor key material.
#[derive(Debug)]
#[non_exhaustive]
pub enum SealError {
    /// Not a token of this format: wrong shape or version, bad key id, bad base64,
    /// too short or longer than [`MAX_TOKEN_LEN`].
    Malformed(&'static str),
    /// Sealed with a key this keyring does not have (foreign or retired).
    UnknownKey(KeyId),
    /// Authentication failed: the token was changed, or it was sealed for another
    /// principal, method, name or arguments, or by another key under the same id.
    /// The cipher cannot tell these apart.
    Tampered,
    /// The token's time is up.
    Expired {
        /// When it stopped opening (seconds since the Unix epoch).
        expired_at: u64,
    },
    /// The token was sealed later than the opener's clock allows (by more than the
    /// clock skew): the sealing replica's clock runs fast.
    FromTheFuture {
        /// When it says it was sealed (seconds since the Unix epoch).
        issued_at: u64,
    },
    /// The sealed payload is not what the caller expected (or, when sealing, could not
    /// be written as JSON). The serde_json error is the [`source`](std::error::Error::source);
    /// it can quote the payload, so it is not part of the message.
    Payload(serde_json::Error),
    /// Sealing: the payload makes a token longer than [`MAX_TOKEN_LEN`].
    TooLarge {
        /// The token's length.
        len: usize,
    },
    /// Sealing: the operating system gave no randomness for the nonce.
    Random,
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
        }
    }
}

impl std::error::Error for SealError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SealError::Payload(e) => Some(e),
            _ => None,
        }
    }
}

/// Seals and opens tokens with a [`Keyring`] and a time to live.
#[derive(Clone, Debug)]
pub struct Sealer {
    keyring: Keyring,
    ttl: Duration,
    skew: Duration,
}

impl Sealer {
    /// A sealer with the [`DEFAULT_TTL`].
    pub fn new(keyring: Keyring) -> Sealer {
        Sealer {
            keyring,
            ttl: DEFAULT_TTL,
            skew: CLOCK_SKEW,
        }
    }

    /// How long a token opens after sealing (whole seconds; under one second, not at
    /// all).
    pub fn with_ttl(mut self, ttl: Duration) -> Sealer {
        self.ttl = ttl;
        self
    }

    /// How far ahead of this sealer's clock another replica's time of sealing may be
    /// ([`CLOCK_SKEW`] by default; whole seconds).
    pub fn with_clock_skew(mut self, skew: Duration) -> Sealer {
        self.skew = skew;
        self
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

    /// [`seal`](Self::seal) as if the time were `now` (seconds since the Unix epoch).
    //
    // Hidden from the documented API: it exists for tests (and the fuzz targets) that
    // need a fixed clock, and for replicas that must seal against a clock they are
    // given rather than the system's. Not covered by semver.
    #[doc(hidden)]
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
    fn seal_with<T: Serialize + ?Sized>(
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

    /// Opens `token` for `binding` and parses its payload.
    pub fn open<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
    ) -> Result<T, SealError> {
        self.open_at(binding, token, now())
    }

    /// [`open`](Self::open) as if the time were `now` (seconds since the Unix epoch).
    //
    // Hidden from the documented API, like `seal_at`: for tests, fuzz targets and
    // replicas that open against a clock they are given. Not covered by semver.
    #[doc(hidden)]
    pub fn open_at<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
        now: u64,
    ) -> Result<T, SealError> {
        let (body, payload) = self.open_bytes_at(binding, token, now)?;
        serde_json::from_slice(&body[payload]).map_err(SealError::Payload)
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
        let value = serde_json::from_slice(&body[payload]).map_err(SealError::Payload)?;
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
            .ok_or_else(|| SealError::UnknownKey(KeyId(id.to_owned())))?;
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
fn sealed_len(id_len: usize, plain_len: usize) -> usize {
    let body = NONCE_LEN + plain_len + TAG_LEN;
    // Base64 without padding: 4 characters per 3 bytes, rounded up.
    VERSION.len() + 1 + id_len + 1 + (4 * body).div_ceil(3)
}

/// The associated data: `v4.<key id>.` then the binding's parts.
fn aad(id: &str, binding: &Binding) -> Vec<u8> {
    let mut aad = Vec::with_capacity(VERSION.len() + id.len() + 2 + binding.parts.len());
    aad.extend_from_slice(VERSION.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(id.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(&binding.parts);
    aad
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
#[doc(hidden)]
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sealer() -> Sealer {
        Sealer::new(Keyring::new("k1", Key::generate()).unwrap())
    }

    fn binding() -> Binding {
        Binding::new("alice", "tools/call", "book", &json!({"a": 1, "b": [2]}))
    }

    /// The token with the character at `i` replaced by another base64url character.
    fn flip(token: &str, i: usize) -> String {
        let mut bytes = token.as_bytes().to_vec();
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        String::from_utf8(bytes).unwrap()
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The cipher is AES-256-GCM-SIV: it gives the output of RFC 8452's test vectors
    /// (appendix C.2, with and without associated data).
    #[test]
    fn the_cipher_is_aes_256_gcm_siv() {
        let key = Key::from_bytes(std::array::from_fn(|i| u8::from(i == 0)));
        let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| if i == 0 { 3 } else { 0 });
        for (aad, plain, sealed) in [
            ("", "", "07f5f4169bbf55a8400cd47ea6fd400f"),
            (
                "",
                "0100000000000000",
                "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28",
            ),
            (
                "",
                "0100000000000000000000000000000002000000000000000000000000000000",
                "4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027f\
                 e819e63abcd020b006a976397632eb5d",
            ),
            (
                "01",
                "0200000000000000",
                "1de22967237a813291213f267e3b452f02d01ae33e4ec854",
            ),
        ] {
            let mut buf = hex(plain);
            let tag = key
                .cipher()
                .encrypt_inout_detached(&Nonce::from(nonce), &hex(aad), (&mut buf[..]).into())
                .unwrap();
            buf.extend_from_slice(&tag);
            assert_eq!(buf, hex(&sealed.replace(' ', "")), "{plain}");
        }
    }

    /// The token format does not change: a token sealed with a fixed key, nonce, time
    /// and payload is byte for byte the one OpenSSL's AES-256-GCM-SIV makes from the
    /// same parts as the module's documentation lays them out, and it opens; so are the
    /// tags at payload lengths around the cipher's 16-byte blocks.
    #[test]
    fn tokens_keep_their_format() {
        let key = Key::from_bytes(std::array::from_fn(|i| i as u8));
        let s = Sealer::new(Keyring::new("k1", key).unwrap());
        let fixed = |n: &mut [u8]| {
            for (i, b) in n.iter_mut().enumerate() {
                *b = 0xa0 + i as u8;
            }
            Ok(())
        };
        let now = 1_700_000_000;
        let known = "v4.k1.oKGio6SlpqeoqaqrkTbOyG_b0-aBKJ2ufNHfRUxMaFFZmD_G-jKvjQlxi0UR36oL1fkXWrdeQzxfxLmW";
        let payload = json!({"s": "é", "x": 1});
        assert_eq!(
            s.seal_with(&binding(), &payload, now, fixed).unwrap(),
            known
        );
        assert_eq!(s.open_at::<Value>(&binding(), known, now).unwrap(), payload);
        // A token of the XChaCha20-Poly1305 format (`v3`) is refused, not misread.
        let v3 = "v3.k1.oKGio6SlpqeoqaqrrK2ur7CxsrO0tba3RewKHdIOVaxhby2JFGNXRECI5w6QN-b7bmKxxSQK3EvTKGJBJEvH_SfRXvBRhzeM";
        assert!(matches!(
            s.open_at::<Value>(&binding(), v3, now),
            Err(SealError::Malformed("unknown version"))
        ));
        for (len, tag) in [
            (0, "dj-1itSlOocveBvAxr74cQ"),
            (1, "_-354zxdZj-xCbtwlaS0Eg"),
            (15, "crFuA1GMfRCSRwQHe7FhQg"),
            (16, "Dr8IhmSBzdssWjCgE60w-w"),
            (17, "fd5hn8G5VwjeUXET7RysOQ"),
            (63, "0GJKKlPolC1CoBywE-3V_g"),
            (64, "4lzZeXv1Tp1nEN3Nh9EgSg"),
            (65, "MRuIFJLnOa2hScRfQf63GA"),
            (300, "8q1rvnRBStJgFpoSSxUT-w"),
            (4096, "b33-WRId1PwkgFYIygm7rw"),
        ] {
            let payload = json!({"s": "y".repeat(len)});
            let token = s.seal_with(&binding(), &payload, now, fixed).unwrap();
            let json = serde_json::to_vec(&payload).unwrap();
            assert_eq!(token.len(), sealed_len(2, TIMES_LEN + json.len()), "{len}");
            let body = URL_SAFE_NO_PAD.decode(&token["v4.k1.".len()..]).unwrap();
            assert_eq!(
                URL_SAFE_NO_PAD.encode(&body[body.len() - TAG_LEN..]),
                tag,
                "{len}"
            );
            assert_eq!(
                s.open_at::<Value>(&binding(), &token, now).unwrap(),
                payload
            );
        }
    }

    /// Sealed by a replica whose clock runs ahead: opens within the skew, is refused
    /// beyond it, and expires by the time it names.
    #[test]
    fn times_of_sealing_from_the_future() {
        let s = sealer().with_ttl(Duration::from_secs(600));
        let now = 1_700_000_000;
        let skew = CLOCK_SKEW.as_secs();
        let ahead = s.seal_at(&binding(), &1, now + skew).unwrap();
        assert_eq!(s.open_at::<u32>(&binding(), &ahead, now).unwrap(), 1);
        let too_far = s.seal_at(&binding(), &1, now + skew + 1).unwrap();
        let err = s.open_at::<u32>(&binding(), &too_far, now).unwrap_err();
        assert!(
            matches!(err, SealError::FromTheFuture { issued_at } if issued_at == now + skew + 1),
            "{err:?}"
        );
        assert!(err.to_string().contains("issued in the future"), "{err}");
        // A wider allowance takes it; the expiry is the sealer's time plus the TTL.
        let lenient = s.clone().with_clock_skew(Duration::from_secs(skew + 1));
        assert_eq!(
            lenient.open_at::<u32>(&binding(), &too_far, now).unwrap(),
            1
        );
        assert!(matches!(
            lenient.open_at::<u32>(&binding(), &too_far, now + skew + 1 + 600),
            Err(SealError::Expired { .. })
        ));
    }

    /// The associated data is the version, the key id and the binding's parts, each
    /// length-prefixed, exactly as the module's documentation says.
    #[test]
    fn associated_data_layout() {
        let b = Binding::new("al", "tools/call", "book", &json!({"b": [2], "a": 1}));
        let mut want = b"v4.k1.".to_vec();
        for part in ["al", "tools/call", "book", r#"{"a":1,"b":[2]}"#] {
            want.extend_from_slice(&(part.len() as u64).to_be_bytes());
            want.extend_from_slice(part.as_bytes());
        }
        assert_eq!(aad("k1", &b), want);
        // Long arguments: the same layout.
        let text = "x".repeat(600);
        let long = Binding::new("al", "tools/call", "book", &json!({ "t": text }));
        let mut want = b"v4.k1.".to_vec();
        for part in ["al", "tools/call", "book", &format!(r#"{{"t":"{text}"}}"#)] {
            want.extend_from_slice(&(part.len() as u64).to_be_bytes());
            want.extend_from_slice(part.as_bytes());
        }
        assert_eq!(aad("k1", &long), want);
        assert_eq!(
            (b.principal(), b.method(), b.name(), b.arguments()),
            ("al", "tools/call", "book", r#"{"a":1,"b":[2]}"#)
        );
        // No two bindings meet by concatenation.
        assert_ne!(
            Binding::new("ab", "c", "d", &json!({})),
            Binding::new("a", "bc", "d", &json!({}))
        );
        let debug = format!("{b:?}");
        assert!(
            debug.contains("arguments_len: 15") && !debug.contains("\"a\""),
            "{debug}"
        );
    }

    #[test]
    fn roundtrip() {
        let s = sealer();
        let t = s
            .seal(&binding(), &json!({"x": "é", "email": "alice@example.com"}))
            .unwrap();
        assert!(t.starts_with("v4.k1."));
        assert!(t.len() <= MAX_TOKEN_LEN);
        let v: Value = s.open(&binding(), &t).unwrap();
        assert_eq!(v, json!({"x": "é", "email": "alice@example.com"}));
        // Encrypted, not just signed: nothing of the payload shows.
        let body = URL_SAFE_NO_PAD
            .decode(t.rsplit('.').next().unwrap())
            .unwrap();
        assert!(!body.windows(5).any(|w| w == b"alice"));
        // Typed payloads too, and two seals of the same payload differ (random nonce).
        let u = s.seal(&binding(), &(3u32, "x")).unwrap();
        assert_eq!(
            s.open::<(u32, String)>(&binding(), &u).unwrap(),
            (3, "x".to_owned())
        );
        assert_ne!(
            s.seal(&binding(), &1).unwrap(),
            s.seal(&binding(), &1).unwrap()
        );
    }

    #[test]
    fn numbers_come_back_exactly() {
        // Found by the `wizard_state` fuzz target: without serde_json's
        // `float_roundtrip`, this one read back one unit off in the last place.
        let s = sealer();
        for x in [2.2222220222222225e27, 0.1, 1e-300, f64::MAX, 5e-324] {
            let t = s.seal(&binding(), &json!({ "n": x })).unwrap();
            let v: Value = s.open(&binding(), &t).unwrap();
            assert_eq!(v["n"].as_f64(), Some(x), "{x:e}");
        }
    }

    #[test]
    fn argument_order_does_not_matter() {
        let a: Value = serde_json::from_str(r#"{"b":[2],"a":1}"#).unwrap();
        assert_eq!(Binding::new("alice", "tools/call", "book", &a), binding());
        let x: Value =
            serde_json::from_str(r#"{"z":{"q":1,"p":[{"d":4,"c":3}]},"y":null}"#).unwrap();
        let y: Value =
            serde_json::from_str(r#"{"y":null,"z":{"p":[{"c":3,"d":4}],"q":1}}"#).unwrap();
        let bind = |args: &Value| Binding::new("", "tools/call", "t", args);
        assert_eq!(bind(&x), bind(&y));
        // Array order does matter.
        assert_ne!(bind(&json!([1, 2])), bind(&json!([2, 1])));
    }

    /// With serde_json's sorted maps (no `preserve_order`), the canonical form is what
    /// serde_json writes.
    #[test]
    fn canonical_form_is_serde_json_output() {
        let v =
            json!({"é": "\"q\"\n", "b": [1, 2.5, -3, true, null, {"y": {}, "x": []}], "a": 1e300});
        let mut out = Vec::new();
        canonical_json(&v, &mut out);
        let mut probe = serde_json::Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        let sorted = probe.keys().next().map(String::as_str) == Some("a");
        if sorted {
            assert_eq!(out, serde_json::to_vec(&v).unwrap());
        }
        let back: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn any_changed_character_is_refused() {
        let s = sealer();
        let t = s.seal(&binding(), &json!({"x": 1})).unwrap();
        for i in 0..t.len() {
            let changed = flip(&t, i);
            if changed == t {
                continue;
            }
            assert!(
                s.open::<Value>(&binding(), &changed).is_err(),
                "position {i}"
            );
        }
    }

    #[test]
    fn tampering_each_part() {
        let old = Key::generate();
        let ring = Keyring::new("k2", Key::generate())
            .unwrap()
            .with_previous("k1", old.clone())
            .unwrap();
        let s = Sealer::new(ring);
        let t = s.seal(&binding(), &json!({"x": 1})).unwrap();
        let body = t.strip_prefix("v4.k2.").unwrap();

        // The version.
        for v in ["v1", "v2", "v3", "V4", "v5", ""] {
            assert!(matches!(
                s.open::<Value>(&binding(), &format!("{v}.k2.{body}")),
                Err(SealError::Malformed(_))
            ));
        }
        // The key id: unknown, or another key of the ring.
        assert!(matches!(
            s.open::<Value>(&binding(), &format!("v4.k3.{body}")),
            Err(SealError::UnknownKey(id)) if id == "k3"
        ));
        assert!(matches!(
            s.open::<Value>(&binding(), &format!("v4.k1.{body}")),
            Err(SealError::Tampered)
        ));
        assert!(matches!(
            s.open::<Value>(&binding(), &format!("v4.k2!.{body}")),
            Err(SealError::Malformed(_))
        ));
        // The nonce, the ciphertext and the tag (the last character can carry unused
        // bits, so stay before it).
        let start = "v4.k2.".len();
        for i in [start, start + 20, start + 40, start + 60, t.len() - 2] {
            assert!(
                matches!(
                    s.open::<Value>(&binding(), &flip(&t, i)),
                    Err(SealError::Tampered)
                ),
                "position {i}"
            );
        }
        // Cut short, or extended.
        assert!(s.open::<Value>(&binding(), &t[..t.len() - 4]).is_err());
        assert!(s.open::<Value>(&binding(), &format!("{t}AAAA")).is_err());
        assert!(s.open::<Value>(&binding(), &format!("{t}.x")).is_err());
        // Untouched, it opens.
        assert_eq!(s.open::<Value>(&binding(), &t).unwrap(), json!({"x": 1}));
    }

    #[test]
    fn other_bindings_are_refused() {
        let s = sealer();
        let t = s.seal(&binding(), &json!(1)).unwrap();
        for other in [
            Binding::new("bob", "tools/call", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("", "tools/call", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "prompts/get", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "tools/call", "pay", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "tools/call", "book", &json!({"a": 2, "b": [2]})),
            Binding::new(
                "alice",
                "tools/call",
                "book",
                &json!({"a": 1, "b": [2], "c": 0}),
            ),
            Binding::new("alice", "tools/call", "book", &json!({"a": 1})),
            Binding::new("alice", "tools/call", "book", &json!({"a": 1.0, "b": [2]})),
            // Concatenation cannot forge a binding.
            Binding::new("alicetools/call", "", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("alic", "etools/call", "book", &json!({"a": 1, "b": [2]})),
        ] {
            assert!(
                matches!(s.open::<Value>(&other, &t), Err(SealError::Tampered)),
                "{other:?}"
            );
        }
    }

    #[test]
    fn expiry() {
        let s = sealer().with_ttl(Duration::from_secs(60));
        let t = s.seal_at(&binding(), &json!(1), 1000).unwrap();
        assert!(s.open_at::<Value>(&binding(), &t, 1000).is_ok());
        assert!(s.open_at::<Value>(&binding(), &t, 1059).is_ok());
        for late in [1060, 5000, u64::MAX] {
            assert!(matches!(
                s.open_at::<Value>(&binding(), &t, late),
                Err(SealError::Expired { expired_at: 1060 })
            ));
        }
        // The real clock: a token sealed in 1970 is long expired; a fresh one is not.
        assert!(matches!(
            s.open::<Value>(&binding(), &t),
            Err(SealError::Expired { .. })
        ));
        assert!(
            s.open::<Value>(&binding(), &s.seal(&binding(), &1).unwrap())
                .is_ok()
        );
        // The expiry is authenticated: another sealer's TTL does not matter.
        let long = Sealer::new(s.keyring.clone()).with_ttl(Duration::from_secs(3600));
        assert!(long.open_at::<Value>(&binding(), &t, 1060).is_err());
        assert_eq!(sealer().ttl, DEFAULT_TTL);
    }

    #[test]
    fn foreign_keys_are_refused() {
        let t = sealer().seal(&binding(), &json!(1)).unwrap();
        // Same id, other key.
        assert!(matches!(
            sealer().open::<Value>(&binding(), &t),
            Err(SealError::Tampered)
        ));
        // Unknown id.
        let other = Sealer::new(Keyring::new("k9", Key::generate()).unwrap());
        let err = other.open::<Value>(&binding(), &t).unwrap_err();
        assert!(matches!(&err, SealError::UnknownKey(id) if id == "k1"));
        assert_eq!(
            err.to_string(),
            "sealed with key \"k1\", which this server does not have (foreign or retired key)"
        );
    }

    #[test]
    fn rotation() {
        let old = Key::generate();
        let before = Sealer::new(Keyring::new("k1", old.clone()).unwrap());
        let t = before.seal(&binding(), &json!(1)).unwrap();
        let ring = Keyring::new("k2", Key::generate())
            .unwrap()
            .with_previous("k1", old)
            .unwrap();
        let after = Sealer::new(ring.clone());
        assert_eq!(after.open::<Value>(&binding(), &t).unwrap(), json!(1));
        let fresh = after.seal(&binding(), &json!(2)).unwrap();
        assert!(fresh.starts_with("v4.k2."));
        assert_eq!(after.open::<Value>(&binding(), &fresh).unwrap(), json!(2));
        // The old keyring cannot open new tokens; after retiring k1 old tokens fail.
        assert!(matches!(
            before.open::<Value>(&binding(), &fresh),
            Err(SealError::UnknownKey(_))
        ));
        let (id, key) = ring.current();
        let retired = Sealer::new(Keyring::new(id, key.clone()).unwrap());
        assert!(matches!(
            retired.open::<Value>(&binding(), &t),
            Err(SealError::UnknownKey(id)) if id == "k1"
        ));
        let ids: Vec<&str> = ring.keys.iter().map(|(id, _)| id.as_ref()).collect();
        assert_eq!(ids, ["k2", "k1"]);
    }

    #[test]
    fn keys_and_ids() {
        let hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789ABCDEF";
        let k: Key = hex.parse().unwrap();
        assert_eq!(k.0[1], 0x23);
        assert_eq!(k.0[31], 0xef);
        let bytes: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(250));
        let key = Key::from_bytes(bytes);
        let std_b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
        assert!(std_b64.contains('+') || std_b64.contains('/'));
        for text in [
            key.to_base64(),
            std_b64.clone(),
            std_b64.trim_end_matches('=').to_owned(),
            format!("{}=", key.to_base64()),
        ] {
            assert_eq!(text.parse::<Key>().unwrap(), key, "{text}");
        }
        for bad in [
            "",
            "AAAA",
            &hex[..62],
            &format!("{hex}00"),
            "zz23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ] {
            assert_eq!(bad.parse::<Key>().unwrap_err(), KeyError::BadKey, "{bad}");
        }
        assert_eq!(format!("{key:?}"), "Key(..)");
        assert!(
            !format!("{:?}", Keyring::new("k1", key.clone()).unwrap()).contains(&key.to_base64())
        );
        assert_ne!(Key::generate(), Key::generate());

        for good in ["a", "k-1_B", "0123456789abcdef"] {
            assert_eq!(good.parse::<KeyId>().unwrap(), good);
            assert_eq!(good.parse::<KeyId>().unwrap().to_string(), good);
        }
        for bad in ["", "0123456789abcdefg", "a.b", "a b", "é", "a:b"] {
            assert!(bad.parse::<KeyId>().is_err(), "{bad}");
            assert!(Keyring::new(bad, Key::generate()).is_err());
        }
    }

    #[test]
    fn keyring_text_form() {
        let ring = Keyring::new("k2", Key::generate())
            .unwrap()
            .with_previous("k1", Key::generate())
            .unwrap();
        let back: Keyring = ring.to_text().parse().unwrap();
        assert_eq!(back.current().0, "k2");
        assert_eq!(back.keys[1].1, ring.keys[1].1);
        let file = format!(
            "# sealing keys, current first\n{}\n\n  k0 : {}  \n  # old: k9, retired\n",
            ring.to_text(),
            Key::generate().to_base64()
        );
        let from_file: Keyring = file.parse().unwrap();
        assert_eq!(from_file.keys.len(), 3);
        let hex: Keyring = "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            .parse()
            .unwrap();
        assert_eq!(hex.keys[0].1.0[1], 0x23);
        for (bad, err) in [
            ("", KeyError::Empty),
            (" , \n# only a comment", KeyError::Empty),
            ("k1", KeyError::BadKey),
            ("k1:short", KeyError::BadKey),
            ("bad id!:AAAA", KeyError::BadKey),
            (
                "bad id!:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                KeyError::BadId("bad id!".into()),
            ),
            (
                "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef,a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                KeyError::DuplicateId("a".into()),
            ),
        ] {
            assert_eq!(bad.parse::<Keyring>().unwrap_err(), err, "{bad}");
        }
        assert!(matches!(
            Keyring::from_env("ELICIT_SEAL_TEST_SURELY_UNSET_VARIABLE"),
            Err(KeyError::MissingEnv(_))
        ));
    }

    #[test]
    fn payload_errors_do_not_quote_the_payload() {
        let s = sealer();
        let t = s
            .seal(&binding(), &json!({"secret": "alice@example.com"}))
            .unwrap();
        let err = s.open::<u32>(&binding(), &t).unwrap_err();
        assert!(matches!(err, SealError::Payload(_)));
        assert!(!err.to_string().contains("alice"));
        assert!(std::error::Error::source(&err).is_some());
    }

    #[test]
    fn size_limit() {
        let s = sealer();
        // The computed length is the real one.
        for n in 0..40 {
            let t = s.seal(&binding(), &"x".repeat(n)).unwrap();
            assert_eq!(t.len(), sealed_len(2, TIMES_LEN + n + 2), "{n}");
        }
        // The largest payload that fits seals and opens; one byte more does not seal.
        let overhead = sealed_len(2, TIMES_LEN + 2);
        let mut n = (MAX_TOKEN_LEN - overhead) * 3 / 4 - 10;
        assert!(sealed_len(2, TIMES_LEN + n + 2) <= MAX_TOKEN_LEN);
        while sealed_len(2, TIMES_LEN + n + 3) <= MAX_TOKEN_LEN {
            n += 1;
        }
        let t = s.seal(&binding(), &"x".repeat(n)).unwrap();
        assert!(t.len() <= MAX_TOKEN_LEN);
        assert_eq!(s.open::<String>(&binding(), &t).unwrap().len(), n);
        assert!(matches!(
            s.seal(&binding(), &"x".repeat(n + 1)),
            Err(SealError::TooLarge { .. })
        ));
        // Over the limit is refused before anything else is looked at.
        let long = "v4.k1.".to_owned() + &"A".repeat(MAX_TOKEN_LEN);
        assert!(matches!(
            s.open::<Value>(&binding(), &long),
            Err(SealError::Malformed("too long"))
        ));
        assert!(matches!(
            s.open::<Value>(&binding(), &"é".repeat(MAX_TOKEN_LEN)),
            Err(SealError::Malformed("too long"))
        ));
    }

    #[test]
    fn garbage_never_panics() {
        let s = sealer();
        for t in [
            "",
            ".",
            "..",
            "...",
            "v4",
            "v4.",
            "v4.k1",
            "v4.k1.",
            "v4.k1.AAAA",
            "v4.k1.!!!!",
            "v4..AAAA",
            "v4.k1.AAAA",
            "v4.k1.A",
            "v4.k1.====",
            "v4.é.AAAA",
            "v4.k1.é",
            "\0",
            "v4.k1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ] {
            assert!(s.open::<Value>(&binding(), t).is_err(), "{t:?}");
        }
        let mut buf = [0u8; 256];
        for n in 0..3000 {
            getrandom::fill(&mut buf).unwrap();
            let len = usize::from(buf[0]);
            let junk = String::from_utf8_lossy(&buf[1..1 + len.min(255)]).into_owned();
            assert!(s.open::<Value>(&binding(), &junk).is_err());
            // Well-formed heads with random bodies reach the cipher.
            let body = URL_SAFE_NO_PAD.encode(&buf[..len.max(NONCE_LEN + TAG_LEN + TIMES_LEN)]);
            let kid = if n % 2 == 0 { "k1" } else { "kx" };
            assert!(
                s.open::<Value>(&binding(), &format!("v4.{kid}.{body}"))
                    .is_err()
            );
        }
    }

    #[test]
    fn messages() {
        for (e, text) in [
            (
                SealError::Malformed("too long"),
                "not a sealed state (too long)",
            ),
            (
                SealError::Tampered,
                "the state was altered, or was issued for another user, tool or arguments",
            ),
            (
                SealError::Expired { expired_at: 5 },
                "the state expired (at 5 s since the Unix epoch)",
            ),
        ] {
            assert_eq!(e.to_string(), text);
        }
    }

    #[test]
    fn random_ids_differ() {
        assert_ne!(random_id(), random_id());
        assert_eq!(random_id().len(), 22);
    }
}
