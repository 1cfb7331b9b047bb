//! Keys, key ids and keyrings: what seals and what still opens.

use std::fmt;
use std::str::FromStr;

use aes_gcm_siv::Aes256GcmSiv;
use aes_gcm_siv::aead::KeyInit;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

use super::SealError;

/// A 256-bit key. Its `Debug` never shows the bytes, and `==` takes the same time
/// whatever the keys.
#[derive(Clone)]
pub struct Key(pub(super) [u8; 32]);

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
    pub(crate) fn encoded(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }

    // Hidden: kept for one release so that code using it gets a warning instead of an
    // error.
    #[doc(hidden)]
    #[deprecated(note = "write the whole keyring instead: `Keyring::to_text`")]
    pub fn to_base64(&self) -> String {
        self.encoded()
    }

    /// AES-256-GCM-SIV under this key.
    pub(super) fn cipher(&self) -> Aes256GcmSiv {
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
    type Err = SealError;

    /// 64 hex digits, or 32 bytes in base64 (URL-safe or standard, padded or not).
    fn from_str(s: &str) -> Result<Key, SealError> {
        let s = s.trim();
        let bytes = if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            // All ASCII, so every two-byte slice is on a character boundary.
            (0..32)
                .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| bad_key())?
        } else {
            let unpadded = s.trim_end_matches('=');
            URL_SAFE_NO_PAD
                .decode(unpadded)
                .or_else(|_| STANDARD_NO_PAD.decode(unpadded))
                .map_err(|_| bad_key())?
        };
        let bytes: [u8; 32] = bytes.try_into().map_err(|_| bad_key())?;
        Key(bytes).usable()
    }
}

impl Key {
    /// The key, unless it is all zero bytes (a placeholder, not a secret).
    fn usable(self) -> Result<Key, SealError> {
        if self.0 == [0; 32] {
            Err(SealError::Key(
                "a key of all zero bytes is no secret: make one with `openssl rand -base64 32`"
                    .into(),
            ))
        } else {
            Ok(self)
        }
    }
}

/// A key's name in a token: 1 to 16 of `A-Z a-z 0-9 _ -`, so it is safe to show and
/// log.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct KeyId(pub(super) String);

impl KeyId {
    /// The longest id.
    const MAX_LEN: usize = 16;

    /// Checks `id`: 1 to 16 characters, each an ASCII letter or digit, `_` or `-`.
    pub(crate) fn new(id: &str) -> Result<KeyId, SealError> {
        if Self::valid(id) {
            Ok(KeyId(id.to_owned()))
        } else {
            Err(bad_id(id))
        }
    }

    pub(super) fn valid(id: &str) -> bool {
        (1..=Self::MAX_LEN).contains(&id.len())
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    }
}

impl FromStr for KeyId {
    type Err = SealError;

    fn from_str(s: &str) -> Result<KeyId, SealError> {
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

/// A key or keyring that could not be read. Its messages never show key material.
fn bad_key() -> SealError {
    SealError::Key("expected `id:key` with a key of 32 bytes in base64, or 64 hex digits".into())
}

fn bad_id(id: &str) -> SealError {
    let id: String = id.chars().take(32).collect();
    SealError::Key(format!(
        "key id {id:?} must be 1 to 16 letters, digits, '_' or '-'"
    ))
}

fn duplicate_id(id: &str) -> SealError {
    SealError::Key(format!("key id {id:?} is used twice"))
}

/// The current sealing key and the previous keys that still open tokens.
///
/// The text form is described in the [module docs](super#keys-and-rotation).
#[derive(Clone, Debug)]
pub struct Keyring {
    /// Never empty; the first is current.
    pub(super) keys: Vec<(KeyId, Key)>,
}

impl Keyring {
    /// A keyring whose current key is `key`, named `id`.
    pub fn new(id: impl AsRef<str>, key: Key) -> Result<Keyring, SealError> {
        Ok(Keyring {
            keys: vec![(KeyId::new(id.as_ref())?, key.usable()?)],
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
    pub fn with_previous(mut self, id: impl AsRef<str>, key: Key) -> Result<Keyring, SealError> {
        let id = KeyId::new(id.as_ref())?;
        if self.keys.iter().any(|(k, _)| *k == id) {
            return Err(duplicate_id(&id.0));
        }
        self.keys.push((id, key.usable()?));
        Ok(self)
    }

    /// The keyring in its text form, current key first. It holds the keys: treat it as
    /// a secret.
    pub fn to_text(&self) -> String {
        self.keys
            .iter()
            .map(|(id, key)| format!("{id}:{}", key.encoded()))
            .collect::<Vec<_>>()
            .join(",")
    }

    pub(super) fn current(&self) -> (&KeyId, &Key) {
        let (id, key) = &self.keys[0];
        (id, key)
    }

    pub(super) fn get(&self, id: &str) -> Option<(&KeyId, &Key)> {
        self.keys
            .iter()
            .find(|(k, _)| k.0 == id)
            .map(|(k, key)| (k, key))
    }
}

impl FromStr for Keyring {
    type Err = SealError;

    fn from_str(s: &str) -> Result<Keyring, SealError> {
        let mut ring: Option<Keyring> = None;
        // Comment lines go first, whole: a comment may contain commas.
        for pair in s
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(|line| line.split(','))
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (id, key) = pair.split_once(':').ok_or(bad_key())?;
            let key: Key = key.parse()?;
            ring = Some(match ring {
                None => Keyring::new(id.trim(), key)?,
                Some(r) => r.with_previous(id.trim(), key)?,
            });
        }
        ring.ok_or(SealError::Key(
            "no key given: expected `id:key[,id:key..]`".into(),
        ))
    }
}
