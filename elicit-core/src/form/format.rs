//! The four string formats MCP forms allow, and what each accepts.

use std::fmt;

/// The string formats MCP forms allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `"email"`: an e-mail address.
    Email,
    /// `"uri"`: an absolute URI.
    Uri,
    /// `"date"`: an RFC 3339 full date, `YYYY-MM-DD`.
    Date,
    /// `"date-time"`: an RFC 3339 date and time with offset.
    DateTime,
}

impl Format {
    /// The JSON Schema keyword value.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::DateTime => "date-time",
        }
    }

    /// Parses a JSON Schema `format` value; `None` for formats outside the MCP subset.
    pub(crate) fn from_keyword(s: &str) -> Option<Format> {
        match s {
            "email" => Some(Format::Email),
            "uri" => Some(Format::Uri),
            "date" => Some(Format::Date),
            "date-time" => Some(Format::DateTime),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Format {
    /// Whether `s` is a value of this format. Each is decided by a crate:
    /// `email_address` (e-mail), `fluent_uri` (URI, RFC 3986), `time` (date and
    /// date-time, RFC 3339).
    pub fn accepts(self, s: &str) -> bool {
        match self {
            Format::Email => email_ok(s),
            Format::Uri => fluent_uri::Uri::parse(s).is_ok(),
            Format::Date => date_ok(s),
            Format::DateTime => {
                time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
                    .is_ok()
            }
        }
    }
}

/// An addr-spec (`local@domain`), not the display form `Name <local@domain>` that
/// `EmailAddress::is_valid` also takes: the part after the last `@` must be a domain
/// and the part before it a local part, as `email_address` checks them.
fn email_ok(s: &str) -> bool {
    s.rsplit_once('@').is_some_and(|(local, domain)| {
        email_address::EmailAddress::is_valid_local_part(local)
            && email_address::EmailAddress::is_valid_domain(domain)
    })
}

/// An RFC 3339 `full-date`: exactly `YYYY-MM-DD` (ten characters, so no sign and no
/// wider year), a day that exists.
fn date_ok(s: &str) -> bool {
    s.len() == 10
        && time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]")).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each format accepts and refuses, at the edges callers meet.
    #[test]
    fn formats_accept_and_refuse() {
        let local64 = "a".repeat(64);
        let label63 = "b".repeat(63);
        // A domain of 254 bytes (four labels) and one of 255.
        let domain254 = [label63.as_str(); 4].join(".").replacen('b', "", 1);
        let domain255 = [label63.as_str(); 4].join(".");
        assert_eq!((domain254.len(), domain255.len()), (254, 255));
        let cases: Vec<(Format, String, bool)> = [
            (Format::Email, "ada@example.com", true),
            (Format::Email, "a.b+c@x-y.example", true),
            (Format::Email, "a!#$%&'*/=?^_`{|}~-@x.org", true),
            (Format::Email, "ada@localhost", true),
            (Format::Email, "\"ada lovelace\"@example.com", true),
            (Format::Email, "\"a@b\"@example.com", true),
            (Format::Email, "ada@[192.168.0.1]", true),
            (Format::Email, "ada@exämple.com", true),
            (Format::Email, "Ada <ada@example.com>", false),
            (Format::Email, " <ada@example.com>", false),
            (Format::Email, "<ada@example.com>", false),
            (Format::Email, "ada@example.com ", false),
            (Format::Email, "ada", false),
            (Format::Email, "ada@", false),
            (Format::Email, "@example.com", false),
            (Format::Email, ".ada@x.org", false),
            (Format::Email, "ada.@x.org", false),
            (Format::Email, "a..b@x.org", false),
            (Format::Email, "a@b@x.org", false),
            (Format::Email, "ada@-x.org", false),
            (Format::Email, "ada@x-.org", false),
            (Format::Email, "ada@x..org", false),
            (Format::Email, "ada@x.org.", false),
            (Format::Email, "", false),
            (Format::Uri, "https://example.com/ada", true),
            (Format::Uri, "http://a.b-c.d/x/y?q=1&r=2#top", true),
            (Format::Uri, "urn:isbn:0451450523", true),
            (Format::Uri, "https://example.com:8080/", true),
            (Format::Uri, "https://user@example.com/", true),
            (Format::Uri, "https://[::1]/", true),
            (Format::Uri, "mailto:ada@example.com", true),
            (Format::Uri, "HTTPS://EXAMPLE.COM/%7E", true),
            (Format::Uri, "https://", true),
            (Format::Uri, "https:///path", true),
            (Format::Uri, "https://ex ample.com/", false),
            (Format::Uri, "https://example.com/a b", false),
            (Format::Uri, "https://example.com/#a#b", false),
            (Format::Uri, "https://example.com/%4", false),
            (Format::Uri, "https://example.com/é", false),
            (Format::Uri, "1http://x/", false),
            (Format::Uri, "//example.com/", false),
            (Format::Uri, "example.com/page", false),
            (Format::Uri, "", false),
            (Format::Date, "2025-02-03", true),
            (Format::Date, "2024-02-29", true),
            (Format::Date, "0000-01-01", true),
            (Format::Date, "9999-12-31", true),
            (Format::Date, "2025-02-29", false),
            (Format::Date, "2100-02-29", false),
            (Format::Date, "2025-13-01", false),
            (Format::Date, "2025-00-10", false),
            (Format::Date, "2025-01-00", false),
            (Format::Date, "2025-01-32", false),
            (Format::Date, "2025-2-03", false),
            (Format::Date, "2025-02-3", false),
            (Format::Date, "+2025-02-03", false),
            (Format::Date, "-999-01-01", false),
            (Format::Date, "+999-01-01", false),
            (Format::Date, "2025/02/03", false),
            (Format::Date, "2025-02-03T", false),
            (Format::Date, "２０２５-02-03", false),
            (Format::Date, "", false),
            (Format::DateTime, "2025-02-03T18:30:00Z", true),
            (Format::DateTime, "2025-02-03t18:30:00z", true),
            (
                Format::DateTime,
                "2025-02-03T18:30:00.123456789+01:00",
                true,
            ),
            (Format::DateTime, "2025-02-03T18:30:00-23:59", true),
            (Format::DateTime, "2016-12-31T23:59:60Z", true),
            (Format::DateTime, "2024-02-29T00:00:00Z", true),
            (Format::DateTime, "2025-02-03T18:30:00", false),
            (Format::DateTime, "2025-02-03 18:30:00Z", true),
            (Format::DateTime, "2025-02-03T24:00:00Z", false),
            (Format::DateTime, "2025-02-03T12:60:00Z", false),
            (Format::DateTime, "2025-02-03T18:30:00.Z", false),
            (Format::DateTime, "2025-02-03T18:30:00.1234567890Z", true),
            (Format::DateTime, "2025-02-03T18:30:00+0100", false),
            (Format::DateTime, "2025-02-03T18:30:00+24:00", false),
            (Format::DateTime, "2025-02-29T18:30:00Z", false),
            (Format::DateTime, "2025-02-03T18:30:00Z ", false),
            (Format::DateTime, "2025-02-03", false),
            (Format::DateTime, "", false),
        ]
        .into_iter()
        .map(|(f, s, ok)| (f, s.to_owned(), ok))
        .chain([
            (Format::Email, format!("{local64}@x.org"), true),
            (Format::Email, format!("a{local64}@x.org"), false),
            (Format::Email, format!("a@{label63}.org"), true),
            (Format::Email, format!("a@b{label63}.org"), false),
            (Format::Email, format!("a@{domain254}"), true),
            (Format::Email, format!("a@{domain255}"), false),
            (Format::Email, format!("{local64}@{domain254}"), true),
        ])
        .collect();
        for (format, s, ok) in cases {
            assert_eq!(Format::accepts(format, &s), ok, "{format:?} {s:?}");
        }
    }
}
