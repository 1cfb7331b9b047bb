//! Sealed state for stateless servers (feature `seal`): encrypted, authenticated,
//! expiring tokens bound to who asked and for what.
//!
//! On MCP 2026-07-28 a server that asks the user something returns `input_required`
//! with an opaque `requestState`; the client echoes it on the retry. That string is
//! attacker-controlled and carries the user's answers so far, so it is sealed with
//! XChaCha20-Poly1305 (encrypted, not only signed: answers can be personal data), with
//! an expiry inside the authenticated payload and a [`Binding`] (principal, method,
//! tool or prompt name, a digest of the arguments) as associated data. A token sealed
//! for one call opens for no other.
//!
//! ```
//! use elicit_core::seal::{Binding, Key, Keyring, Sealer};
//! use serde_json::json;
//!
//! let sealer = Sealer::new(Keyring::new("k1", Key::generate())?);
//! let binding = Binding::new("alice", "tools/call", "book_tickets", &json!({}));
//! let token = sealer.seal(&binding, &json!({"step": 2}))?;
//! let back: serde_json::Value = sealer.open(&binding, &token)?;
//! assert_eq!(back["step"], 2);
//!
//! // The same token for another principal does not open.
//! let bob = Binding::new("bob", "tools/call", "book_tickets", &json!({}));
//! assert!(sealer.open::<serde_json::Value>(&bob, &token).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Keys and rotation
//!
//! A [`Keyring`] has one current key, which seals, and any number of previous keys,
//! which still open. Each token names its key id, so rotating is: add a new current
//! key, keep the old one as previous for as long as tokens live (the TTL, 15 minutes
//! by default), then drop it. Replicas behind a load balancer share the keyring.
//!
//! The text form (an environment variable or a key file) lists `id:key` pairs
//! separated by commas, current first; a key is 32 bytes in base64 (URL-safe or
//! standard) or 64 hex digits:
//!
//! ```text
//! k2:q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w,k1:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

/// The longest token [`Sealer::open`] reads; longer input is refused before decoding.
pub const MAX_TOKEN_LEN: usize = 64 * 1024;

/// How long a sealed token opens, unless the [`Sealer`] says otherwise.
pub const DEFAULT_TTL: Duration = Duration::from_secs(15 * 60);

const VERSION: &str = "v1";
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// A 256-bit key. Its `Debug` never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl Key {
    /// A fresh random key from the operating system.
    ///
    /// # Panics
    /// When the operating system has no randomness to give, which leaves nothing
    /// safe to do.
    pub fn generate() -> Key {
        let mut bytes = [0u8; 32];
        fill_random(&mut bytes);
        Key(bytes)
    }

    /// A key from its bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Key {
        Key(bytes)
    }

    /// The key in URL-safe base64, for a key file or an environment variable.
    pub fn to_base64(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }
}

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
            (0..32)
                .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| KeyError::BadKey)?
        } else {
            let unpadded = s.trim_end_matches('=');
            URL_SAFE_NO_PAD
                .decode(unpadded)
                .or_else(|_| STANDARD.decode(s))
                .map_err(|_| KeyError::BadKey)?
        };
        let bytes: [u8; 32] = bytes.try_into().map_err(|_| KeyError::BadKey)?;
        Ok(Key(bytes))
    }
}

/// Why a key or keyring could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// A key is not 32 bytes of base64 or 64 hex digits.
    BadKey,
    /// A key id is not 1 to 16 of `A-Z a-z 0-9 _ -`.
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
            KeyError::BadKey => f.write_str("a key must be 32 bytes in base64, or 64 hex digits"),
            KeyError::BadId(id) => write!(
                f,
                "key id {id:?} must be 1 to 16 letters, digits, '_' or '-'"
            ),
            KeyError::DuplicateId(id) => write!(f, "key id {id:?} is used twice"),
            KeyError::Empty => f.write_str("no key given: expected `id:key[,id:key..]`"),
            KeyError::MissingEnv(var) => write!(f, "the environment variable {var} is not set"),
        }
    }
}

impl std::error::Error for KeyError {}

fn check_id(id: &str) -> Result<(), KeyError> {
    let ok = (1..=16).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(KeyError::BadId(id.to_owned()))
    }
}

/// The current sealing key and the previous keys that still open tokens.
#[derive(Clone, Debug)]
pub struct Keyring {
    keys: Vec<(String, Key)>,
}

impl Keyring {
    /// A keyring whose current key is `key`, named `id`.
    pub fn new(id: impl Into<String>, key: Key) -> Result<Keyring, KeyError> {
        let id = id.into();
        check_id(&id)?;
        Ok(Keyring {
            keys: vec![(id, key)],
        })
    }

    /// A keyring with one fresh random key (`id` "k0"): fine for one process; replicas
    /// need a shared keyring.
    pub fn generate() -> Keyring {
        Keyring {
            keys: vec![("k0".to_owned(), Key::generate())],
        }
    }

    /// Adds a previous key: it opens tokens but no longer seals.
    pub fn with_previous(mut self, id: impl Into<String>, key: Key) -> Result<Keyring, KeyError> {
        let id = id.into();
        check_id(&id)?;
        if self.keys.iter().any(|(k, _)| *k == id) {
            return Err(KeyError::DuplicateId(id));
        }
        self.keys.push((id, key));
        Ok(self)
    }

    /// Reads the keyring from the environment variable `var` (see the
    /// [module docs](self) for the format).
    pub fn from_env(var: &str) -> Result<Keyring, KeyError> {
        std::env::var(var)
            .map_err(|_| KeyError::MissingEnv(var.to_owned()))?
            .parse()
    }

    /// The id of the key that seals.
    pub fn current_id(&self) -> &str {
        &self.keys[0].0
    }

    /// The keyring in its text form, current key first.
    pub fn to_text(&self) -> String {
        self.keys
            .iter()
            .map(|(id, key)| format!("{id}:{}", key.to_base64()))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn get(&self, id: &str) -> Option<&Key> {
        self.keys.iter().find(|(k, _)| k == id).map(|(_, key)| key)
    }
}

impl FromStr for Keyring {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Keyring, KeyError> {
        let mut ring: Option<Keyring> = None;
        for pair in s
            .split([',', '\n'])
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

/// What a token is bound to: the principal, the request's method and target, and a
/// digest of its arguments. It is the associated data of the cipher, never in the
/// token itself.
#[derive(Clone, PartialEq, Eq)]
pub struct Binding {
    digest: [u8; 32],
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Binding(..)")
    }
}

impl Binding {
    /// A binding for `principal` (a user or client id; `""` when unauthenticated)
    /// calling `method` (`"tools/call"`) on `name` with `arguments`.
    ///
    /// The arguments are digested as serde_json writes them; without serde_json's
    /// `preserve_order` feature its maps are sorted by key, so the same arguments in
    /// any order give the same digest. Every part is length-prefixed, so no two
    /// different bindings share a digest by concatenation.
    pub fn new(
        principal: &str,
        method: &str,
        name: &str,
        arguments: &serde_json::Value,
    ) -> Binding {
        let args = serde_json::to_vec(arguments).unwrap_or_default();
        let mut h = Sha256::new();
        for part in [
            principal.as_bytes(),
            method.as_bytes(),
            name.as_bytes(),
            &args,
        ] {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part);
        }
        Binding {
            digest: h.finalize().into(),
        }
    }
}

/// Why a token did not open (or could not be made).
#[derive(Debug)]
#[non_exhaustive]
pub enum SealError {
    /// Not a token of this format: wrong shape, bad base64 or too long.
    Malformed(&'static str),
    /// Sealed with a key this keyring does not have (foreign or retired).
    UnknownKey(String),
    /// Authentication failed: the token was changed, or it was sealed for another
    /// principal, request or arguments (the cipher cannot tell these apart).
    Tampered,
    /// The token's time is up.
    Expired {
        /// When it stopped opening (seconds since the Unix epoch).
        expired_at: u64,
    },
    /// The sealed payload is not what the caller expected.
    Payload(serde_json::Error),
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealError::Malformed(why) => write!(f, "not a sealed state ({why})"),
            SealError::UnknownKey(id) => write!(
                f,
                "sealed with key {id:?}, which this server does not have (foreign or retired key)"
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
            SealError::Payload(e) => write!(f, "the state's content is not usable: {e}"),
        }
    }
}

impl std::error::Error for SealError {}

/// Seals and opens tokens with a [`Keyring`] and a time to live.
#[derive(Clone, Debug)]
pub struct Sealer {
    keyring: Keyring,
    ttl: Duration,
}

impl Sealer {
    /// A sealer with the [`DEFAULT_TTL`].
    pub fn new(keyring: Keyring) -> Sealer {
        Sealer {
            keyring,
            ttl: DEFAULT_TTL,
        }
    }

    /// How long a token opens after sealing.
    pub fn with_ttl(mut self, ttl: Duration) -> Sealer {
        self.ttl = ttl;
        self
    }

    /// The keyring.
    pub fn keyring(&self) -> &Keyring {
        &self.keyring
    }

    /// Seals `payload` (as JSON) for `binding`, expiring after the TTL.
    pub fn seal<T: Serialize + ?Sized>(
        &self,
        binding: &Binding,
        payload: &T,
    ) -> Result<String, SealError> {
        self.seal_at(binding, payload, now())
    }

    /// [`seal`](Self::seal) as if the time were `now` (seconds since the Unix epoch).
    pub fn seal_at<T: Serialize + ?Sized>(
        &self,
        binding: &Binding,
        payload: &T,
        now: u64,
    ) -> Result<String, SealError> {
        let (id, key) = &self.keyring.keys[0];
        let expires = now.saturating_add(self.ttl.as_secs());
        let mut plain = expires.to_be_bytes().to_vec();
        serde_json::to_writer(&mut plain, payload).map_err(SealError::Payload)?;
        let mut nonce = [0u8; NONCE_LEN];
        fill_random(&mut nonce);
        let cipher = XChaCha20Poly1305::new(key.0.as_slice().into());
        let aad = aad(id, binding);
        let sealed = cipher
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: &plain,
                    aad: &aad,
                },
            )
            .map_err(|_| SealError::Malformed("the payload is too large to seal"))?;
        let mut body = nonce.to_vec();
        body.extend_from_slice(&sealed);
        let token = format!("{VERSION}.{id}.{}", URL_SAFE_NO_PAD.encode(body));
        if token.len() > MAX_TOKEN_LEN {
            return Err(SealError::Malformed("the payload is too large to seal"));
        }
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
    pub fn open_at<T: DeserializeOwned>(
        &self,
        binding: &Binding,
        token: &str,
        now: u64,
    ) -> Result<T, SealError> {
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
        if check_id(id).is_err() {
            return Err(SealError::Malformed("bad key id"));
        }
        let key = self
            .keyring
            .get(id)
            .ok_or_else(|| SealError::UnknownKey(id.to_owned()))?;
        let body = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| SealError::Malformed("bad base64"))?;
        if body.len() < NONCE_LEN + TAG_LEN {
            return Err(SealError::Malformed("too short"));
        }
        let (nonce, sealed) = body.split_at(NONCE_LEN);
        let cipher = XChaCha20Poly1305::new(key.0.as_slice().into());
        let aad = aad(id, binding);
        let plain = cipher
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| SealError::Tampered)?;
        let (expires, payload) = plain.split_at_checked(8).ok_or(SealError::Tampered)?;
        let mut at = [0u8; 8];
        at.copy_from_slice(expires);
        let expires = u64::from_be_bytes(at);
        if now >= expires {
            return Err(SealError::Expired {
                expired_at: expires,
            });
        }
        serde_json::from_slice(payload).map_err(SealError::Payload)
    }
}

fn aad(id: &str, binding: &Binding) -> Vec<u8> {
    let mut aad = Vec::with_capacity(4 + id.len() + 32);
    aad.extend_from_slice(VERSION.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(id.as_bytes());
    aad.push(b'.');
    aad.extend_from_slice(&binding.digest);
    aad
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn fill_random(buf: &mut [u8]) {
    // Without randomness no key or nonce is safe; there is no sensible fallback.
    getrandom::fill(buf).expect("the operating system's random number generator failed");
}

/// A random identifier (128 bits, URL-safe base64), e.g. an `elicitationId`.
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    fill_random(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn sealer() -> Sealer {
        Sealer::new(Keyring::new("k1", Key::generate()).unwrap())
    }

    fn binding() -> Binding {
        Binding::new("alice", "tools/call", "book", &json!({"a": 1, "b": [2]}))
    }

    #[test]
    fn roundtrip() {
        let s = sealer();
        let t = s.seal(&binding(), &json!({"x": "é"})).unwrap();
        assert!(t.starts_with("v1.k1."));
        let v: Value = s.open(&binding(), &t).unwrap();
        assert_eq!(v, json!({"x": "é"}));
        assert!(!t.contains("é"));
    }

    #[test]
    fn argument_order_does_not_matter() {
        let a: Value = serde_json::from_str(r#"{"b":[2],"a":1}"#).unwrap();
        assert_eq!(Binding::new("alice", "tools/call", "book", &a), binding());
    }

    #[test]
    fn any_changed_character_is_refused() {
        let s = sealer();
        let t = s.seal(&binding(), &json!({"x": 1})).unwrap();
        for i in 0..t.len() {
            let mut bytes = t.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let Ok(changed) = String::from_utf8(bytes) else {
                continue;
            };
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
    fn other_bindings_are_refused() {
        let s = sealer();
        let t = s.seal(&binding(), &json!(1)).unwrap();
        for other in [
            Binding::new("bob", "tools/call", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "prompts/get", "book", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "tools/call", "pay", &json!({"a": 1, "b": [2]})),
            Binding::new("alice", "tools/call", "book", &json!({"a": 2, "b": [2]})),
            // Concatenation cannot forge a binding.
            Binding::new("alicetools/call", "", "book", &json!({"a": 1, "b": [2]})),
        ] {
            assert!(matches!(
                s.open::<Value>(&other, &t),
                Err(SealError::Tampered)
            ));
        }
    }

    #[test]
    fn expiry() {
        let s = sealer().with_ttl(Duration::from_secs(60));
        let t = s.seal_at(&binding(), &json!(1), 1000).unwrap();
        assert!(s.open_at::<Value>(&binding(), &t, 1059).is_ok());
        assert!(matches!(
            s.open_at::<Value>(&binding(), &t, 1060),
            Err(SealError::Expired { expired_at: 1060 })
        ));
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
        assert!(
            matches!(other.open::<Value>(&binding(), &t), Err(SealError::UnknownKey(id)) if id == "k1")
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
        let after = Sealer::new(ring);
        assert_eq!(after.open::<Value>(&binding(), &t).unwrap(), json!(1));
        assert!(
            after
                .seal(&binding(), &json!(1))
                .unwrap()
                .starts_with("v1.k2.")
        );
    }

    #[test]
    fn keyring_text_form() {
        let ring = Keyring::new("k2", Key::generate())
            .unwrap()
            .with_previous("k1", Key::generate())
            .unwrap();
        let back: Keyring = ring.to_text().parse().unwrap();
        assert_eq!(back.current_id(), "k2");
        assert_eq!(back.keys[1].1, ring.keys[1].1);
        let hex: Keyring = "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            .parse()
            .unwrap();
        assert_eq!(hex.keys[0].1.0[1], 0x23);
        for bad in [
            "",
            "k1",
            "k1:short",
            "bad id!:AAAA",
            "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef,a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ] {
            assert!(bad.parse::<Keyring>().is_err(), "{bad}");
        }
        assert_eq!(format!("{:?}", Key::generate()), "Key(..)");
    }

    #[test]
    fn garbage_never_panics() {
        let s = sealer();
        let long = "v1.k1.".to_owned() + &"A".repeat(MAX_TOKEN_LEN);
        for t in [
            "",
            ".",
            "v1",
            "v1.k1",
            "v1.k1.",
            "v2.k1.AAAA",
            "v1.k1.!!!!",
            "v1..AAAA",
            "v1.k1.AAAA",
            &long,
        ] {
            assert!(s.open::<Value>(&binding(), t).is_err(), "{t:.20}");
        }
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for n in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 200) as usize;
            let junk: String = (0..len)
                .map(|i| {
                    char::from(b"v1.k1.AZaz09-_=+/ \x00\xff"[((x >> (i % 60)) as usize + n) % 18])
                })
                .collect();
            let _ = s.open::<Value>(&binding(), &junk);
        }
    }

    #[test]
    fn random_ids_differ() {
        assert_ne!(random_id(), random_id());
        assert_eq!(random_id().len(), 22);
    }
}
