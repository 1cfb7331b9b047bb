//! The page around the fields: the document, its heading and message, the error
//! summary, the buttons, and the two pages shown once a form is closed.

use std::borrow::Cow;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::answer::{Action, AnswerError, FieldError};
use crate::form::Form;
use crate::web::inputs::{self, Shown};
use crate::web::read::Entered;

/// The page's only stylesheet, inline; the Content-Security-Policy allows it by hash.
pub(super) const STYLE: &str = include_str!("page.css");

/// What the page says and where its form posts to; [`render`](Page::render) writes it.
///
/// Built with [`Page::new`], then the optional parts set on its fields.
///
/// ```
/// use elicit_core::web::{Page, View};
///
/// let mut page = Page::new("Which plan?", "/e/4f2a");
/// page.server = Some("Billing");
/// page.title = Some("Choose a plan");
/// let closed = page.render(&View::Expired);
/// assert!(closed.contains("<h1>This link can no longer be used</h1>"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Page<'a> {
    /// What the server asks (the elicitation's `message`); its line breaks are kept.
    pub message: &'a str,
    /// Where the form posts its answer: a path of the page's own origin.
    pub post_to: &'a str,
    /// The name of the server that asks, shown above the question.
    pub server: Option<&'a str>,
    /// The page's heading; "Please answer" if unset.
    pub title: Option<&'a str>,
    /// Hidden fields the form sends back as they are, `(name, value)`, such as a
    /// one-time token. The names `action`, and those that start with `f.` or `s.`, are
    /// the page's own: a hidden field under one of them is left out.
    pub hidden: &'a [(&'a str, &'a str)],
}

/// What a [`Page`] shows.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum View<'a> {
    /// The form, with its defaults filled in.
    Form(&'a Form),
    /// The form again after [`read`](crate::web::read) refused an answer: what the
    /// person typed, each problem beside its field, and a summary of them at the top.
    Refused {
        /// The form that was answered.
        form: &'a Form,
        /// What was typed, from [`Submission::Refused`](crate::web::Submission::Refused).
        entered: &'a Entered,
        /// Why the answer was refused, from the same.
        error: &'a AnswerError,
    },
    /// The link was used already, or has expired.
    Expired,
    /// The form was answered with this action: the person may close the page.
    Done(Action),
}

impl<'a> Page<'a> {
    /// A page asking `message`, whose form posts to `post_to`; no server name, the
    /// default heading, no hidden fields.
    pub fn new(message: &'a str, post_to: &'a str) -> Page<'a> {
        Page {
            message,
            post_to,
            server: None,
            title: None,
            hidden: &[],
        }
    }

    /// The whole HTML document for `view`, to send with the [`HEADERS`](crate::web::HEADERS).
    pub fn render(&self, view: &View<'_>) -> String {
        match *view {
            View::Form(form) => self.form_page(form, None, None),
            View::Refused {
                form,
                entered,
                error,
            } => self.form_page(form, Some(entered), Some(error)),
            View::Expired => self.notice(
                "This link can no longer be used",
                "It was used already, or it has expired. Go back to where you came from to ask for a new one.",
            ),
            View::Done(action) => {
                let said = match action {
                    Action::Accept => "Your answer was sent.",
                    Action::Decline => "You declined to answer.",
                    Action::Cancel => "You cancelled the request.",
                };
                self.notice("Thank you", &format!("{said} You may close this page."))
            }
        }
    }

    /// The form, blank or after a refused answer.
    fn form_page(
        &self,
        form: &Form,
        entered: Option<&Entered>,
        error: Option<&AnswerError>,
    ) -> String {
        let problems: &[FieldError] = match error {
            Some(AnswerError::Invalid(errors)) => errors.errors(),
            _ => &[],
        };
        let own = |name: &str| name == "action" || name.starts_with("f.") || name.starts_with("s.");
        let heading = clean(self.title.unwrap_or("Please answer"));
        let body = html! {
            @if let Some(error) = error {
                (summary(form, error, problems))
            }
            p.message { (clean(self.message)) }
            form method="post" action=(self.post_to) accept-charset="utf-8" {
                @for (name, value) in self.hidden.iter().filter(|(name, _)| !own(name)) {
                    input type="hidden" name=(name) value=(value);
                }
                @for (index, field) in form.fields().iter().enumerate() {
                    (inputs::field(index, field, &Shown::new(field, entered, problems)))
                }
                div.actions {
                    button type="submit" name="action" value="accept" { "Submit" }
                    button.secondary type="submit" name="action" value="decline" formnovalidate { "Decline" }
                    button.secondary type="submit" name="action" value="cancel" formnovalidate { "Cancel" }
                }
            }
        };
        self.document(&heading, error.is_some(), body)
    }

    /// A page with a heading and one paragraph.
    pub(crate) fn notice(&self, heading: &str, text: &str) -> String {
        self.document(heading, false, html! { p.message { (text) } })
    }

    /// The document: head, the server's name, the heading, then `body`.
    fn document(&self, heading: &str, failed: bool, body: Markup) -> String {
        let server = self.server.map(clean);
        let mut title = String::new();
        if failed {
            title.push_str("Error: ");
        }
        title.push_str(heading);
        if let Some(server) = &server {
            title.push_str(" – ");
            title.push_str(server);
        }
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    meta name="referrer" content="no-referrer";
                    title { (title) }
                    style { (PreEscaped(STYLE)) }
                }
                body {
                    main {
                        @if let Some(server) = &server {
                            p.server { "Asked by " strong { (server) } }
                        }
                        h1 { (heading) }
                        (body)
                    }
                }
            }
        }
        .into_string()
    }
}

/// The error summary: each field's problems as links to the field, or, for an answer
/// that could not be read at all, one line saying so.
fn summary(form: &Form, error: &AnswerError, problems: &[FieldError]) -> Markup {
    html! {
        div.summary role="alert" aria-labelledby="summary-title" tabindex="-1" autofocus {
            h2 #summary-title { "There is a problem" }
            ul {
                @if problems.is_empty() {
                    li { (unreadable(error)) }
                }
                @for problem in problems {
                    @let text = format!("{}: {}", clean(&problem.label), problem.problem);
                    @match form.fields().iter().enumerate().find(|(_, f)| f.name == problem.field) {
                        Some((i, field)) => li { a href={ "#" (inputs::anchor(i, field)) } { (text) } },
                        None => li { (text) },
                    }
                }
            }
        }
    }
}

/// What the summary says of an answer refused as a whole (not a browser's doing: a
/// page that was changed, or a request made by hand).
fn unreadable(error: &AnswerError) -> &'static str {
    match error {
        AnswerError::UnknownAction(_) => {
            "The answer did not say whether to submit, decline or cancel. Use one of the buttons below."
        }
        _ => "The answer could not be read. Check the form and send it again.",
    }
}

/// A server's text as it is shown: without control characters (but for line breaks and
/// tabs) and without invisible format characters (bidirectional overrides, zero-width
/// spaces, tag characters), which could make the page say something else than it seems.
pub(super) fn clean(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{2028}' | '\u{2029}')
            || (c > '\u{7f}' && !matches!(c, '\u{200c}' | '\u{200d}') && format_char(c))
    };
    if text.chars().any(hidden) {
        Cow::Owned(text.chars().filter(|c| !hidden(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// A Unicode format character (general category `Cf`), or any of the tag block.
fn format_char(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    ('\u{e0000}'..='\u{e007f}').contains(&c) || get_general_category(c) == GeneralCategory::Format
}
