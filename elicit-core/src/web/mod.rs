//! A form as a web page: the HTML of any [`Form`](crate::Form) (a derived form's, or a
//! wizard step's), and the reading of what that page posts back.
//!
//! For a client that renders no forms, and for what must not go through one (a secret:
//! MCP's URL mode), a server can show the question on a page of its own instead. This
//! module writes that page and reads its answer; both are pure functions of their input.
//!
//! - [`Page::render`] writes the page ([`View`]): the server's message, one native
//!   control per field (text, e-mail, URL, date, date and time, number, checkbox, radios
//!   or a list, a group of checkboxes), the defaults filled in, and three buttons:
//!   Submit, Decline and Cancel (the last two work with required fields left empty).
//!   After a refused answer it writes the form again with what the person typed, each
//!   problem beside its field and a summary of them at the top. It also writes the page
//!   for a link that is used up or expired, and the "thank you" page.
//! - [`read`] reads the posted body into a [`Submission`]: accept with the answer,
//!   validated by [`Form::validate`](crate::Form::validate) as a client's answer is
//!   (lenient: numbers and checkboxes arrive as text), decline, cancel, or refused with
//!   the problems and what was typed, to show the page again.
//!
//! ```
//! use elicit_core::web::{self, Page, Submission, View};
//! use elicit_core::{Elicit, Form};
//! use serde::Deserialize;
//!
//! #[derive(Elicit, Deserialize)]
//! struct Copies {
//!     /// How many copies to print.
//!     #[elicit(minimum = 1, maximum = 10)]
//!     copies: u8,
//! }
//!
//! let form: &Form = Copies::form();
//! let mut page = Page::new("Print the report?", "/answer");
//! page.server = Some("Print shop");
//! page.hidden = &[("token", "one-time-token")];
//! let html = page.render(&View::Form(form));
//! assert!(html.contains(r#"<input type="number" id="f0" name="f.copies""#));
//!
//! // What the browser posts when the person types 3 and presses Submit.
//! let body = b"token=one-time-token&f.copies=3&action=accept";
//! match web::read(form, body) {
//!     Submission::Accept(answer) => {
//!         let copies = Copies::deserialize(&answer)?;
//!         assert_eq!(copies.copies, 3);
//!     }
//!     Submission::Refused { entered, error } => {
//!         // Send the form again: what was typed, and what is wrong.
//!         let _html = page.render(&View::Refused { form, entered: &entered, error: &error });
//!     }
//!     Submission::Decline | Submission::Cancel => { /* the person said no */ }
//!     _ => {}
//! }
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! # What the caller still does
//! This module neither serves the page nor decides who may answer it. The caller:
//! - serves it over HTTPS with the [`HEADERS`], as `text/html; charset=utf-8`, and the
//!   thank-you or used-up page after an answer or a decline;
//! - makes the link one-time and short-lived (a token in the path or in a hidden field,
//!   redeemed once), and reads its own hidden fields from the body: [`read`] leaves
//!   them to it;
//! - in URL mode, checks that the person who opens the page is the one the MCP client
//!   speaks for (a session of its own): a link can be forwarded;
//! - reads at most 1 MiB of body: [`read`] refuses a larger one.
//!
//! # Security properties
//! - Every string the server or the person gave is escaped by construction (the HTML
//!   is built with `maud`, which escapes each value it is given); the server's texts
//!   are also rid of control and invisible format characters.
//! - No script at all, no asset from elsewhere: one inline stylesheet, allowed by its
//!   hash in the Content-Security-Policy of [`HEADERS`], which also forbids framing and
//!   posting anywhere but the page's own origin.
//! - [`read`] never panics: a body over 1 MiB, one that is not UTF-8, a missing or
//!   repeated action, a value for a field the form does not have are refused; a value
//!   that is not one of the options, a repeated value, text for a number, a value over
//!   16 384 characters (or the field's `maxLength`, if larger) are each refused as that
//!   field's problem; names outside the page's own are left to the caller.
//! - A secret field (`#[elicit(secret)]`) is a password input that the browser is asked
//!   not to fill in; its value is never written into the page, not even after a refused
//!   answer (the person types it again), and [`Entered`] does not keep it. Only
//!   [`Submission::Accept`] holds it: read the form's type from it (its `SecretString`
//!   keeps the value out of `Debug` output) and drop it.
//!
//! # The fields on the page
//! Each field's control is named `f.` and its wire name; a checkbox, or a group of them,
//! also sends a marker `s.` and its name, so that "nothing ticked" (false, an empty
//! list) differs from "not sent". The buttons send `action`. A single select is a list
//! (`<select>`) from seven options on, and radios below: few options read best all at
//! once. A date and time is a `datetime-local` control, read as UTC (the page says so):
//! without script the page cannot know the person's time zone.

mod inputs;
mod page;
mod read;
#[cfg(test)]
mod tests;

pub use page::{Page, View};
pub use read::{Entered, Submission, read};

/// The headers to send with every page, as `(name, value)`: a Content-Security-Policy
/// that allows the page's own stylesheet and nothing else (no script, no frame, no
/// form posted to another origin, no `<base>`), no sniffing of the content type, no
/// referrer (the page's link is a secret), and no caching.
///
/// ```
/// let csp = elicit_core::web::HEADERS.iter().find(|(name, _)| *name == "Content-Security-Policy");
/// assert!(csp.is_some_and(|(_, value)| value.starts_with("default-src 'none'")));
/// ```
pub const HEADERS: &[(&str, &str)] = &[
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
];

/// The page's policy; the hash is that of [`page::STYLE`], as the tests check.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; \
     style-src 'sha256-/axBZQ6xxABShsav/FCpjKSO+UPHeNeCvuSUw4H2bJE='; \
     form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
