//! The MCP protocol revisions whose elicitation forms this crate can emit.

use core::fmt;
use core::str::FromStr;

use crate::form::FormError;

/// A revision of the Model Context Protocol, as negotiated with the peer.
///
/// Revisions are ordered by date, so `revision >= Revision::V2025_11_25` asks
/// "does the peer understand multi-selects and defaults?".
///
/// ```
/// use elicit_core::Revision;
///
/// let rev: Revision = "2025-11-25".parse()?;
/// assert_eq!(rev, Revision::V2025_11_25);
/// assert_eq!(rev.to_string(), "2025-11-25");
/// assert!(Revision::V2026_07_28 > rev);
/// # Ok::<(), elicit_core::FormError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Revision {
    /// `2025-06-18`: the first revision with elicitation (`enum` + `enumNames`, no defaults but booleans).
    V2025_06_18,
    /// `2025-11-25`: titled selects (`oneOf`), multi-selects, defaults, URL mode.
    V2025_11_25,
    /// `2026-07-28`: questions asked in rounds (`input_required` results, the call
    /// retried with the answers); the same form subset as 2025-11-25.
    V2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: &'static [Revision] = &[
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The newest revision this crate knows.
    pub const LATEST: Revision = Revision::V2026_07_28;

    /// The wire string, e.g. `"2025-06-18"`.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether string, number and enum fields may carry a `default`
    /// (booleans may in every revision).
    pub(crate) const fn supports_defaults(self) -> bool {
        !matches!(self, Revision::V2025_06_18)
    }

    /// Whether a call asks in rounds (2026-07-28: the call ends with an
    /// `input_required` result and is retried with the answers) rather than by pushed
    /// `elicitation/create` requests.
    pub const fn has_rounds(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }

    // Hidden: the old name, kept for one release so that code using it gets a warning
    // instead of an error.
    #[doc(hidden)]
    #[deprecated(note = "renamed to `Revision::has_rounds`")]
    pub const fn is_stateless(self) -> bool {
        self.has_rounds()
    }

    /// The later of two revisions (usable in constants).
    pub(crate) const fn max(self, other: Revision) -> Revision {
        if (self as u8) >= (other as u8) {
            self
        } else {
            other
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Revision {
    type Err = FormError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Revision::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| FormError::UnknownRevision(s.chars().take(40).collect()))
    }
}

impl serde::Serialize for Revision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Revision {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
