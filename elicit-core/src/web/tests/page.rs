//! What the page shows: the controls, the defaults, escaping, the refused page, the
//! closed pages, the policy.

use base64::Engine;
use sha2::Digest;

use super::{every_kind, tag, with_defaults};
use crate::answer::Action;
use crate::form::{Choice, Field, FieldKind, Form};
use crate::web::page::STYLE;
use crate::web::{HEADERS, Page, Submission, View, read};

fn blank(form: &Form) -> String {
    Page::new("Print it?", "/answer").render(&View::Form(form))
}

/// Each kind of field has its native control, with the form's limits on it.
#[test]
fn each_kind_has_its_control() {
    let html = blank(&every_kind());
    let expected = [
        (
            "f0",
            r#"<input type="text" id="f0" name="f.name" required minlength="2" maxlength="40" aria-describedby="f0-hint">"#,
        ),
        ("f1", r#"<input type="email" id="f1" name="f.email">"#),
        ("f2", r#"<input type="url" id="f2" name="f.site">"#),
        ("f3", r#"<input type="date" id="f3" name="f.day">"#),
        (
            "f4",
            r#"<input type="datetime-local" id="f4" name="f.at" step="1" aria-describedby="f4-hint">"#,
        ),
        (
            "f5",
            r#"<input type="number" id="f5" name="f.copies" required min="1" max="10" step="1">"#,
        ),
        (
            "f6",
            r#"<input type="number" id="f6" name="f.score" min="0.5" step="any">"#,
        ),
        (
            "f7",
            r#"<input type="checkbox" id="f7" name="f.agree" value="true">"#,
        ),
        (
            "f8-0",
            r#"<input type="radio" id="f8-0" name="f.size" value="s" required>"#,
        ),
        ("f9", r#"<select id="f9" name="f.city">"#),
        (
            "f10-2",
            r#"<input type="checkbox" id="f10-2" name="f.toppings" value="corn">"#,
        ),
    ];
    for (id, control) in expected {
        assert_eq!(tag(&html, id), control);
        assert!(
            html.contains(&format!(r#"<label for="{id}">"#)),
            "no label for {id}"
        );
    }
    // A checkbox, alone or in a group, sends a marker; nothing else does.
    assert!(html.contains(r#"<input type="hidden" name="s.agree" value="1">"#));
    assert!(html.contains(r#"<input type="hidden" name="s.toppings" value="1">"#));
    assert_eq!(html.matches(r#"name="s."#).count(), 2);
    // Few options are radios in a fieldset, titled; many a list with an empty first.
    assert!(html.contains(
        r#"<fieldset class="field"><legend>size <span class="required">(required)</span></legend>"#
    ));
    assert!(html.contains(r#"<label for="f8-1">Large</label>"#));
    assert!(html.contains(r#"<select id="f9" name="f.city"><option value="">No answer</option><option value="a">a</option>"#));
    assert_eq!(html.matches("<option ").count(), 8);
    // A group of checkboxes says how many to choose.
    assert!(html.contains(
        r#"<fieldset class="field" aria-describedby="f10-hint"><legend>toppings</legend>"#
    ));
    assert!(html.contains(r#"<p class="hint" id="f10-hint">Choose between 1 and 2.</p>"#));
    // Required fields say so, and only they (a checkbox always answers).
    assert_eq!(html.matches("(required)").count(), 3);
    assert!(
        html.contains(
            r#"<label for="f0">Your name <span class="required">(required)</span></label>"#
        )
    );
    // The description is tied to its control.
    assert!(html.contains(r#"<p class="hint" id="f0-hint">As on your card.</p>"#));
    assert!(html.contains(r#"<p class="hint" id="f4-hint">The time is in UTC.</p>"#));
}

/// Counts on a group of checkboxes, as the hint says them.
#[test]
fn group_counts_are_stated() {
    for (min, max, said) in [
        (Some(2), Some(2), "Choose 2."),
        (Some(1), None, "Choose at least 1."),
        (Some(0), Some(3), "Choose at most 3."),
        (None, None, "Choose any number."),
    ] {
        let form = Form::new(vec![Field::new(
            "t",
            true,
            super::multi(&["a", "b", "c"], min, max),
        )])
        .unwrap();
        assert!(
            blank(&form).contains(&format!(r#"<p class="hint" id="f0-hint">{said}</p>"#)),
            "{said}"
        );
    }
}

/// An optional select of few options can be left unanswered: a "No answer" radio, ticked.
#[test]
fn optional_radios_offer_no_answer() {
    let field = Field::new(
        "size",
        false,
        super::select(super::choices(&["s", "l"]), None),
    );
    let html = blank(&Form::new(vec![field]).unwrap());
    assert_eq!(
        tag(&html, "f0-none"),
        r#"<input type="radio" id="f0-none" name="f.size" value="" checked>"#
    );
    assert!(!html.contains(" required") && !html.contains("(required)"));
}

/// Every default is shown as its control shows a value.
#[test]
fn defaults_are_filled_in() {
    let html = blank(&with_defaults());
    assert!(tag(&html, "f0").contains(r#"value="Ada""#));
    // A date and time with an offset, shown in UTC.
    assert!(tag(&html, "f1").contains(r#"value="2025-02-03T17:30:05""#));
    assert!(tag(&html, "f2").contains(r#"value="3""#));
    assert!(tag(&html, "f3").contains(r#"value="95.5""#));
    assert!(tag(&html, "f4").ends_with(" checked>"));
    assert!(tag(&html, "f5-1").ends_with(" checked>"));
    assert!(!tag(&html, "f5-0").contains("checked"));
    // With a default, no "No answer" radio: the default answers.
    assert!(!html.contains("f5-none"));
    assert!(html.contains(r#"<option value="f" selected>f</option>"#));
    assert_eq!(html.matches(" selected").count(), 1);
    assert!(!tag(&html, "f7-0").contains("checked"));
    assert!(tag(&html, "f7-1").contains("checked"));
    assert!(tag(&html, "f7-2").contains("checked"));
    assert!(!html.contains("(required)"));
}

/// The page's frame: language, landmarks, heading, the server, the hidden fields, three
/// buttons of which decline and cancel skip the browser's checks; no script anywhere.
#[test]
fn the_page_frames_the_form() {
    let mut page = Page::new("Line one\nline two", "/e/abc");
    page.server = Some("Acme");
    page.title = Some("Print");
    page.hidden = &[
        ("token", "t-1"),
        ("action", "accept"),
        ("f.name", "x"),
        ("s.agree", "1"),
    ];
    let html = page.render(&View::Form(&every_kind()));
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"));
    assert!(html.contains("<title>Print – Acme</title>"));
    assert!(html.contains(r#"<main><p class="server">Asked by <strong>Acme</strong></p><h1>Print</h1><p class="message">Line one
line two</p>"#));
    assert!(html.contains(r#"<form method="post" action="/e/abc" accept-charset="utf-8"><input type="hidden" name="token" value="t-1"><div"#));
    // Hidden fields under the page's own names are left out.
    assert_eq!(html.matches(r#"type="hidden""#).count(), 3);
    assert!(html.contains(concat!(
        r#"<div class="actions"><button type="submit" name="action" value="accept">Submit</button>"#,
        r#"<button class="secondary" type="submit" name="action" value="decline" formnovalidate>Decline</button>"#,
        r#"<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>"#
    )));
    assert_eq!(html.matches("<button").count(), 3);
    assert!(!html.to_lowercase().contains("<script"));
    assert!(!html.contains(r#"class="summary""#));
    assert!(
        Page::new("", "")
            .render(&View::Form(&every_kind()))
            .contains("<h1>Please answer</h1>")
    );
}

/// Hostile server text is shown as text: markup, quotes, ampersands, control and
/// invisible characters in the message, the server's name, titles, descriptions and
/// options; option values stay exactly what the answer carries.
#[test]
fn server_text_is_escaped() {
    let evil = "<script>alert(\"x\")</script> & 'q' \u{7}\u{1b}[31m\u{202e}\u{0}";
    let shown = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q' [31m";
    let mut field = Field::new(
        "pick",
        true,
        super::select(
            vec![Choice::owned("v\"><script>", Some(evil.to_owned()))],
            None,
        ),
    )
    .with_title(evil);
    field.description = Some(evil.to_owned().into());
    let mut page = Page::new(evil, "/a\"b");
    page.server = Some(evil);
    page.title = Some(evil);
    page.hidden = &[("t\"", "<v>")];
    let html = page.render(&View::Form(&Form::new(vec![field]).unwrap()));
    assert!(!html.contains("<script>"));
    assert!(
        !html.contains('\u{7}')
            && !html.contains('\u{1b}')
            && !html.contains('\u{202e}')
            && !html.contains('\0')
    );
    // Message, server, heading, legend, description, option label, title.
    assert!(html.matches(shown).count() >= 7, "{html}");
    assert!(html.contains(r#"value="v&quot;&gt;&lt;script&gt;""#));
    assert!(html.contains(r#"action="/a&quot;b""#));
    assert!(html.contains(r#"<input type="hidden" name="t&quot;" value="&lt;v&gt;">"#));
}

/// After a refused answer: the title says so, a summary links each problem to its
/// field, each problem sits beside its field, tied to it and marked invalid, and what
/// was typed is back in every control.
#[test]
fn refused_page_keeps_what_was_typed() {
    let form = every_kind();
    let body = "f.name=A&f.email=ada%40example.com&f.site=nope&f.day=2025-02-03&f.at=2025-02-03T10%3A00\
                &f.copies=11&f.score=abc&s.agree=1&f.size=l&f.city=g&s.toppings=1&f.toppings=ham\
                &f.toppings=egg&f.toppings=corn&action=accept";
    let Submission::Refused { entered, error } = read(&form, body.as_bytes()) else {
        panic!("refused expected");
    };
    let html = Page::new("Print?", "/a").render(&View::Refused {
        form: &form,
        entered: &entered,
        error: &error,
    });
    assert!(html.contains("<title>Error: Please answer</title>"));
    assert!(html.contains(r#"<div class="summary" role="alert" aria-labelledby="summary-title" tabindex="-1" autofocus><h2 id="summary-title">There is a problem</h2><ul>"#));
    for (anchor, text) in [
        ("f0", "Your name: must be at least 2 characters"),
        (
            "f2",
            "site: not an absolute URI (such as https://example.com/page)",
        ),
        ("f5", "copies: must be at most 10"),
        ("f6", "score: expected a number, got text"),
        ("f10-0", "toppings: choose at most 2 options"),
    ] {
        assert!(
            html.contains(&format!(r##"<li><a href="#{anchor}">{text}</a></li>"##)),
            "{text}"
        );
    }
    assert_eq!(html.matches("<li>").count(), 5);
    assert_eq!(
        tag(&html, "f0"),
        r#"<input type="text" id="f0" name="f.name" value="A" required minlength="2" maxlength="40" aria-describedby="f0-hint f0-error" aria-invalid="true">"#
    );
    assert!(html.contains(r#"<p class="error" id="f0-error"><span class="visually-hidden">Error: </span>must be at least 2 characters</p>"#));
    assert!(html.contains(r#"<div class="field field-error"><label for="f0">"#));
    assert!(tag(&html, "f1").contains(r#"value="ada@example.com""#));
    assert!(!tag(&html, "f1").contains("aria-invalid"));
    assert!(tag(&html, "f4").contains(r#"value="2025-02-03T10:00""#));
    assert!(tag(&html, "f6").contains(
        r#"value="abc" min="0.5" step="any" aria-describedby="f6-error" aria-invalid="true""#
    ));
    assert!(!tag(&html, "f7").contains("checked"));
    assert!(tag(&html, "f8-1").contains("checked"));
    assert!(html.contains(r#"<option value="g" selected>g</option>"#));
    for id in ["f10-0", "f10-1", "f10-2"] {
        assert!(
            tag(&html, id).ends_with(r#" checked aria-invalid="true">"#),
            "{id}"
        );
    }
    assert!(
        html.contains(
            r#"<fieldset class="field field-error" aria-describedby="f10-hint f10-error">"#
        )
    );
}

/// A refused answer keeps what was typed even where the default differs, unticked
/// boxes included; an answer refused as a whole shows the defaults and a plain summary.
#[test]
fn refused_page_shows_typed_over_defaults() {
    let form = with_defaults();
    let Submission::Refused { entered, error } = read(
        &form,
        b"f.name=Bo&f.copies=x&s.agree=1&s.toppings=1&action=accept",
    ) else {
        panic!("refused expected");
    };
    let html = Page::new("", "/").render(&View::Refused {
        form: &form,
        entered: &entered,
        error: &error,
    });
    assert!(tag(&html, "f0").contains(r#"value="Bo""#));
    assert!(!tag(&html, "f4").contains("checked"));
    assert!(!tag(&html, "f7-1").contains("checked"));
    // Left out of the body: empty, not the default.
    assert!(!tag(&html, "f3").contains("value="));

    let Submission::Refused { entered, error } = read(&form, b"f.name=Bo&action=maybe") else {
        panic!("refused expected");
    };
    let html = Page::new("", "/").render(&View::Refused {
        form: &form,
        entered: &entered,
        error: &error,
    });
    assert!(html.contains("<li>The answer did not say whether to submit, decline or cancel. Use one of the buttons below.</li>"));
    assert!(!html.contains(r#"aria-invalid="true""#));
    let Submission::Refused { entered, error } = read(&form, &[b'a'; (1 << 20) + 1]) else {
        panic!("refused expected");
    };
    let html = Page::new("", "/").render(&View::Refused {
        form: &form,
        entered: &entered,
        error: &error,
    });
    assert!(
        html.contains("<li>The answer could not be read. Check the form and send it again.</li>")
    );
    assert!(tag(&html, "f0").contains(r#"value="Ada""#));
}

/// The pages shown once a form is closed, in the same frame.
#[test]
fn closed_pages() {
    let mut page = Page::new("unused", "/unused");
    page.server = Some("Acme");
    let expired = page.render(&View::Expired);
    assert!(expired.contains("<h1>This link can no longer be used</h1>"));
    assert!(expired.contains("<title>This link can no longer be used – Acme</title>"));
    assert!(!expired.contains("<form") && !expired.contains("unused"));
    for (action, said) in [
        (Action::Accept, "Your answer was sent."),
        (Action::Decline, "You declined to answer."),
        (Action::Cancel, "You cancelled the request."),
    ] {
        let done = page.render(&View::Done(action));
        assert!(done.contains(&format!(
            r#"<h1>Thank you</h1><p class="message">{said} You may close this page.</p>"#
        )));
        assert!(done.contains("<html lang=\"en\">") && done.contains("<style>"));
    }
}

/// The policy allows exactly the page's stylesheet, by its hash, and nothing else.
#[test]
fn policy_hashes_the_stylesheet() {
    let hash =
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(STYLE.as_bytes()));
    let csp = HEADERS
        .iter()
        .find(|(name, _)| *name == "Content-Security-Policy")
        .map(|(_, value)| *value)
        .expect("a policy");
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    assert_eq!(
        directives,
        [
            "default-src 'none'",
            &format!("style-src 'sha256-{hash}'"),
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ]
    );
    // The stylesheet goes into the page byte for byte.
    let html = blank(&every_kind());
    assert!(html.contains(&format!("<style>{STYLE}</style>")));
    for header in ["X-Content-Type-Options", "Referrer-Policy", "Cache-Control"] {
        assert!(HEADERS.iter().any(|(name, _)| *name == header), "{header}");
    }
}

/// A select of many titled options is a list that shows the titles.
#[test]
fn long_select_shows_titles() {
    let options: Vec<Choice> = (0..9)
        .map(|i| Choice::owned(format!("v{i}"), Some(format!("Option {i}"))))
        .collect();
    let field = Field::new(
        "pick",
        true,
        FieldKind::Select {
            options: options.into(),
            default: None,
            legacy_enum_names: false,
        },
    );
    let html = blank(&Form::new(vec![field]).unwrap());
    assert!(html.contains(r#"<select id="f0" name="f.pick" required><option value="">Choose one</option><option value="v0">Option 0</option>"#));
}

/// A title that shows nothing leaves the label to the wire name.
#[test]
fn empty_title_labels_with_the_name() {
    let field = Field::new("agree", true, FieldKind::Boolean { default: None })
        .with_title("\u{200b}\u{7} ");
    let html = blank(&Form::new(vec![field]).unwrap());
    assert!(html.contains(r#"<label for="f0">agree</label>"#), "{html}");
}
