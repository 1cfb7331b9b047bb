//! Random ids: the `elicitationId` of a URL-mode question, the id of a durable task.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A random id: 128 bits, URL-safe base64 without padding (22 characters).
///
/// # Panics
/// When the operating system has no randomness to give.
pub(crate) fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_22_characters_and_differ() {
        let (a, b) = (super::random_id(), super::random_id());
        assert_eq!(a.len(), 22);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_ne!(a, b);
    }
}
