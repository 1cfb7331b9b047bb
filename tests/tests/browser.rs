//! The engine's web pages in a real browser, served for real: a headless Chromium
//! (Debian package `chromium`) started by each test and driven over the DevTools
//! protocol (`support/browser.rs`), on the pages of an rmcp MCP server served over
//! Streamable HTTP on `127.0.0.1:0` with the pages on its own router
//! (`HttpOptions::pages`, at `http://127.0.0.1:PORT/elicit/p/ID`), called by a real MCP
//! client over HTTP that speaks 2025-11-25 and takes URL mode only (`support/served.rs`).
//! Each page the browser opens is the one the engine created for a tool call and sent
//! the client as its URL-mode link; each tool result shows what was typed in the
//! browser.
//!
//! The purge approval (`purge-approval`) and the ticket wizard (`ticket-booking`, page
//! after page) are completed by clicking and typing, and the purge by the keyboard
//! alone; the purge deletes the logs only then. An invalid answer is shown beside its
//! field, with what was typed kept, then corrected; decline and cancel work with
//! required fields empty, and the tool says so; an expired link, a link answered in
//! another tab and a used one show the closed page. A form with every kind of field is
//! asked by a tool of the test's own. Every kind of page (the form, refused, answered,
//! declined, cancelled, closed, and for someone else) passes axe-core's WCAG 2.x A and
//! AA rules with no serious or critical violation, and the audit finds what is wrong
//! with a broken page.
//!
//! Hostile requests to the pages (another origin, another host, too large, malformed,
//! forged links, another visitor) need no browser: `pages_http.rs`.
//!
//! Without Chromium (or axe-core, `npm ci --prefix tests/browser`) the tests are ignored,
//! with the reason (the build script, `programs.rs`, sets `no_chromium` or `no_axe`);
//! under CI (`CI` or `ELICIT_REQUIRE_BROWSER` set; `.ci/run` sets the latter after
//! installing both) they run, and fail without them.

use std::time::Duration;

use elicit_core::{Elicit, Elicitation};
use elicit_examples::forms::{Size, Topping};
use elicit_rmcp::Elicitor;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/browser.rs"]
mod browser;
#[path = "support/served.rs"]
mod served;
mod support;

use browser::{Audit, Axe, Browser, Key};
use served::{Served, Setup, path_of, visitor};
use support::{Logs, OneTool, PURGE, demo_purge, ticket_server};

/// A day of the week, a single select of seven options: a list, not radios.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Weekday {
    #[elicit(title = "Monday")]
    Mon,
    #[elicit(title = "Tuesday")]
    Tue,
    #[elicit(title = "Wednesday")]
    Wed,
    #[elicit(title = "Thursday")]
    Thu,
    #[elicit(title = "Friday")]
    Fri,
    #[elicit(title = "Saturday")]
    Sat,
    #[elicit(title = "Sunday")]
    Sun,
}

/// A form with every kind of field: text with lengths, each format, an integer and a
/// number with bounds, a checkbox, selects with titled options (radios and a list), a
/// multi-select with counts, optional fields.
#[derive(Debug, Elicit, Deserialize)]
#[allow(dead_code)] // Read back only through `Debug`, in the tool result.
struct AllKinds {
    /// As it should be printed on the badge.
    #[elicit(title = "Name", min_length = 2, max_length = 40)]
    name: String,
    /// Where the receipt goes.
    #[elicit(title = "E-mail", format = "email")]
    email: String,
    #[elicit(title = "Homepage", format = "uri")]
    homepage: Option<String>,
    #[elicit(title = "Birthday", format = "date")]
    birthday: Option<String>,
    /// When you expect to arrive.
    #[elicit(title = "Arrival", format = "date-time")]
    arrival: Option<String>,
    #[elicit(title = "Guests", minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    /// In euros.
    #[elicit(title = "Budget", minimum = 0, maximum = 10000)]
    budget: Option<f64>,
    #[elicit(title = "Send me the newsletter", default = true)]
    newsletter: bool,
    #[elicit(title = "T-shirt size", default = "Medium")]
    size: Size,
    #[elicit(title = "Day of arrival")]
    weekday: Option<Weekday>,
    #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
    toppings: Vec<Topping>,
    /// Anything the staff should know.
    note: Option<String>,
}

/// The tool of the test's own, `visit`: asks [`AllKinds`] on a page, and answers with
/// what came back.
async fn visit(s: &mut elicit_rmcp::Session) -> elicit_rmcp::Asked<CallToolResult> {
    let said = match s
        .ask_on_page::<AllKinds>("Tell us about your visit.")
        .await?
    {
        Elicitation::Accept(visit) => format!("{visit:?}"),
        Elicitation::Decline => "declined".to_owned(),
        Elicitation::Cancel => "cancelled".to_owned(),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(said)]))
}

fn visit_server(elicitor: Elicitor) -> OneTool {
    OneTool(elicitor, |s| Box::pin(visit(s)))
}

// ---------------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------------

/// The page every link shows once it cannot be used.
const CLOSED: &str = "This link can no longer be used";

/// What the purge of demo-repo's logs older than 30 days says once approved by
/// `approver` with the 30 days kept (4 of its 6 logs are older).
fn deleted(approver: &str) -> String {
    format!(
        "[DELETED] demo-repo/logs (older than 30d), 4 objects, approved by {approver}, retention=30d"
    )
}

/// A browser, and the purge server over fresh logs (named `name`).
fn purge(name: &str) -> (Browser, Logs, Served) {
    let browser = Browser::for_test();
    let logs = Logs::new(name);
    let served = Served::start(Setup::new(), |elicitor| logs.server_with(elicitor));
    (browser, logs, served)
}

/// Waits until the client was told that the page of its `n`th question (from 1) was
/// answered (`notifications/elicitation/complete` naming the link's elicitation).
fn completion_announced(served: &Served, n: usize) {
    let elicitation = served.asked(n)["elicitationId"].clone();
    assert!(elicitation.is_string(), "{}", served.asked(n));
    let announced = (
        "notifications/elicitation/complete".to_owned(),
        json!({"elicitationId": elicitation}),
    );
    let deadline = std::time::Instant::now() + served::ASK_LIMIT;
    while !served.notified().contains(&announced) {
        assert!(
            std::time::Instant::now() < deadline,
            "not announced: {:?}",
            served.notified()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn purge_approved_by_clicking_and_typing() {
    let (mut browser, logs, served) = purge("browser-click");
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(1);
    browser.goto(&link);
    assert_eq!(browser.title(), "Please answer");
    let text = browser.text();
    assert!(
        text.contains("About to permanently delete demo-repo/logs (older than 30d): 4 objects."),
        "{text}"
    );
    assert!(text.contains("app-045d.log, app-100d.log"), "{text}");
    // The call's days are the default retention, the box unticked.
    assert_eq!(browser.value("#f2"), "30");
    assert_eq!(browser.attribute("#f2", "min").as_deref(), Some("30"));
    assert!(!browser.checked("#f0"));

    browser.click("#f0");
    assert!(browser.checked("#f0"));
    browser.click("#f1");
    browser.type_text("ops@example.com");
    assert_eq!(browser.value("#f1"), "ops@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));

    // The tool got what was typed, and deleted.
    assert_eq!(calling.text(), deleted("ops@example.com"));
    assert_eq!(logs.count("demo-repo"), 2);
    completion_announced(&served, 1);

    // The link was used: opened again, it shows the closed page and takes nothing.
    browser.goto(&link);
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert!(!browser.exists("form"));
    assert_eq!(served.client().asked().len(), 1);
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn purge_by_keyboard_alone() {
    let (mut browser, logs, served) = purge("browser-keyboard");
    let calling = served.call(PURGE, demo_purge(30));
    browser.goto(&served.link(1));
    // Tab to the box and tick it with Space, Tab to the e-mail and type it (wrong at
    // first), Tab past the retention (its default kept), Enter to submit.
    browser.press(Key::Tab);
    assert_eq!(browser.focused(), "f0");
    browser.press(Key::Space);
    assert!(browser.checked("#f0"));
    browser.press(Key::Tab);
    assert_eq!(browser.focused(), "f1");
    browser.type_text("ops..team@example.com");
    browser.press(Key::Tab);
    assert_eq!(browser.focused(), "f2");
    browser.navigating(|b| b.press(Key::Enter));

    // Refused: the summary of problems has the focus (a screen reader reads it first);
    // Tab reaches its link to the field, Enter follows it to the field.
    assert!(!calling.ended(), "a refused answer ended the call");
    assert!(browser.gets_focus(".summary"), "the summary is not focused");
    browser.press(Key::Tab);
    assert!(browser.has_focus(".summary a[href='#f1']"));
    browser.press(Key::Enter);
    browser.wait_until("document.activeElement.id === 'f1'");
    // What was typed is there to correct: to its end, delete the domain and the
    // doubled dot, type the rest again.
    browser.press(Key::End);
    for _ in 0.."team@example.com".len() + 1 {
        browser.press(Key::Backspace);
    }
    assert_eq!(browser.value("#f1"), "ops.");
    browser.type_text("team@example.com");
    browser.navigating(|b| b.press(Key::Enter));

    assert!(browser.text().contains("Your answer was sent."));
    assert_eq!(calling.text(), deleted("ops.team@example.com"));
    assert_eq!(logs.count("demo-repo"), 2);
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn purge_refuses_a_bad_e_mail_beside_its_field_then_takes_it_corrected() {
    let (mut browser, logs, served) = purge("browser-refused");
    let calling = served.call(PURGE, demo_purge(30));
    browser.goto(&served.link(1));
    browser.click("#f0");
    // Two dots in a row: the browser's own check of an e-mail lets it through (its
    // pattern allows any dots before the @), the server's refuses it.
    browser.click("#f1");
    browser.type_text("ops..team@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));

    assert!(!calling.ended(), "a refused answer ended the call");
    assert_eq!(logs.count("demo-repo"), 6);
    assert!(browser.title().starts_with("Error: "));
    // The problem beside its field, tied to it, the field marked; and in the summary.
    let error = browser.text_of("#f1-error");
    assert!(error.contains("not an e-mail address"), "{error}");
    assert_eq!(
        browser.attribute("#f1", "aria-describedby").as_deref(),
        Some("f1-hint f1-error")
    );
    assert_eq!(
        browser.attribute("#f1", "aria-invalid").as_deref(),
        Some("true")
    );
    let summary = browser.text_of(".summary");
    assert!(
        summary.contains("Approver's e-mail: not an e-mail address"),
        "{summary}"
    );
    // What was typed is kept, the box too; no other field is marked.
    assert_eq!(browser.value("#f1"), "ops..team@example.com");
    assert!(browser.checked("#f0"));
    assert_eq!(browser.value("#f2"), "30");
    assert!(!browser.exists("#f0-error") && !browser.exists("#f2-error"));
    // The page's link to the field in the summary goes to it.
    assert_eq!(
        browser.attribute(".summary a", "href").as_deref(),
        Some("#f1")
    );

    browser.fill("#f1", "ops.team@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));
    assert_eq!(calling.text(), deleted("ops.team@example.com"));
    assert_eq!(logs.count("demo-repo"), 2);
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn decline_and_cancel_work_with_required_fields_empty() {
    let (mut browser, logs, served) = purge("browser-decline");
    for (n, (button, shown, said)) in [
        (
            "decline",
            "You declined to answer.",
            "[BLOCKED] user declined; nothing deleted",
        ),
        (
            "cancel",
            "You cancelled the request.",
            "[CANCELLED] user dismissed the dialog",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let calling = served.call(PURGE, demo_purge(30));
        browser.goto(&served.link(n + 1));
        // The e-mail is required and empty: Submit would be stopped, these are not.
        assert_eq!(browser.value("#f1"), "");
        assert_eq!(browser.attribute("#f1", "required").as_deref(), Some(""));
        browser.navigating(|b| b.click(&format!("button[value={button}]")));
        assert!(browser.text().contains(shown), "{}", browser.text());
        assert_eq!(calling.text(), said);
        assert_eq!(logs.count("demo-repo"), 6);
    }
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn expired_answered_elsewhere_and_used_links_show_the_closed_page() {
    let mut browser = Browser::for_test();
    // Expired before it is opened: the call ended with the page (a second at most).
    let logs = Logs::new("browser-expired");
    let served = Served::start(Setup::new().ttl(Duration::from_secs(1)), |e| {
        logs.server_with(e)
    });
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(1);
    let error = calling.result().expect_err("the call ends with an error");
    assert!(error.contains("expired"), "{error}");
    browser.goto(&link);
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert_eq!(browser.title(), CLOSED);
    assert!(!browser.exists("form"));
    drop(served);

    let logs = Logs::new("browser-elsewhere");
    let served = Served::start(Setup::new(), |e| logs.server_with(e));
    // Declined in another tab while this page was open: the first answer is the one
    // taken; this page's is not, and it shows the closed page.
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(1);
    browser.goto(&link);
    browser.click("#f0");
    browser.click("#f1");
    browser.type_text("ops@example.com");
    let elsewhere = served.post(&path_of(&link), &[], b"action=decline");
    assert_eq!(elsewhere.status, 200, "{}", elsewhere.body);
    assert_eq!(calling.text(), "[BLOCKED] user declined; nothing deleted");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert_eq!(logs.count("demo-repo"), 6);

    // Declined, then opened again with Back: the page is not kept (no-store), and the
    // link is used.
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(2);
    browser.goto(&link);
    browser.navigating(|b| b.click("button[value=decline]"));
    assert_eq!(calling.text(), "[BLOCKED] user declined; nothing deleted");
    browser.navigating(|b| {
        b.eval("history.back()");
    });
    assert_eq!(browser.url(), link);
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert_eq!(logs.count("demo-repo"), 6);
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn ticket_wizard_completed_page_after_page() {
    let mut browser = Browser::for_test();
    let served = Served::start(Setup::new(), ticket_server);
    let calling = served.call("book_tickets", json!({}));

    // Each step: first sent with its required choice left empty (the browser's check
    // turned off, as a browser without one would send it): refused beside the field.
    // Then answered.
    let refuse_empty = |browser: &mut Browser, field: &str| {
        browser.skip_browser_validation();
        browser.navigating(|b| b.click("button[value=accept]"));
        let error = browser.text_of(&format!("#{field}-error"));
        assert!(error.contains("an answer is required"), "{error}");
        assert!(browser.title().starts_with("Error: "));
    };
    let answered = |browser: &mut Browser| {
        browser.navigating(|b| b.click("button[value=accept]"));
        assert!(browser.text().contains("Your answer was sent."));
    };

    // 1. The date, among the days with seats.
    let first = served.link(1);
    browser.goto(&first);
    let text = browser.text();
    assert!(text.contains("Which day would you like to go?"), "{text}");
    assert!(
        !text.contains("2025-02-01"),
        "a sold-out day is offered: {text}"
    );
    refuse_empty(&mut browser, "f0");
    browser.click("label[for=f0-0]");
    assert_eq!(browser.value("#f0-0"), "2025-02-03");
    assert!(browser.checked("#f0-0"));
    answered(&mut browser);

    // 2. The seat, among that day's free seats: the next page, sent to the client.
    browser.goto(&served.link(2));
    let text = browser.text();
    assert!(text.contains("Pick a seat for 2025-02-03"), "{text}");
    for seat in ["A1", "A2", "B4"] {
        assert!(text.contains(seat), "{text}");
    }
    refuse_empty(&mut browser, "f0");
    browser.click("#f0-1");
    answered(&mut browser);

    // 3. Snacks: popcorn and a cola.
    browser.goto(&served.link(3));
    assert!(browser.text().contains("Anything to eat?"));
    assert!(browser.checked("#f1-none"), "no drink is chosen at first");
    // An option the page does not offer (the page changed, or a request made by hand)
    // is refused beside its field.
    browser.eval("document.querySelector('#f1-1').value = 'beer'");
    browser.click("#f0");
    browser.click("label[for=f1-1]");
    browser.navigating(|b| b.click("button[value=accept]"));
    let error = browser.text_of("#f1-error");
    assert!(
        error.contains(r#""beer" is not one of the options"#),
        "{error}"
    );
    assert!(browser.checked("#f0"), "the box stays ticked");
    browser.click("label[for=f1-1]");
    answered(&mut browser);

    // 4. The popcorn size, asked because popcorn was wanted.
    browser.goto(&served.link(4));
    assert!(browser.text().contains("Which size?"));
    refuse_empty(&mut browser, "f0");
    browser.click("#f0-2");
    answered(&mut browser);

    assert_eq!(
        calling.text(),
        "Booked seat A2 on 2025-02-03 with large popcorn and cola."
    );
    assert_eq!(served.client().asked().len(), 4, "one page per step");
    for step in 1..=4 {
        completion_announced(&served, step);
    }
    // The first step's link was used.
    browser.goto(&first);
    assert!(browser.text().contains(CLOSED));
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
fn every_kind_of_field_refused_beside_itself_then_corrected() {
    let mut browser = Browser::for_test();
    let served = Served::start(Setup::new(), visit_server);
    let calling = served.call("visit", json!({}));
    browser.goto(&served.link(1));
    browser.click("#f0");
    browser.type_text("Ada Lovelace");
    browser.click("#f1");
    browser.type_text("ada@example.com");
    // A space in the path: a URL the browser's own check takes (its parser escapes
    // it), not an RFC 3986 URI.
    browser.click("#f2");
    browser.type_text("https://example.com/ada lovelace");
    browser.click("label[for=f10-0]");
    browser.navigating(|b| b.click("button[value=accept]"));

    assert!(!calling.ended(), "a refused answer ended the call");
    let error = browser.text_of("#f2-error");
    assert!(error.contains("not an absolute URI"), "{error}");
    assert_eq!(
        browser.value("#f2"),
        "https://example.com/ada lovelace",
        "what was typed is kept"
    );
    assert_eq!(browser.value("#f0"), "Ada Lovelace");
    assert!(browser.checked("#f10-0"));

    browser.fill("#f2", "https://example.com/ada");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));
    // The tool's typed answer: what was typed, the defaults kept.
    let expected = AllKinds {
        name: "Ada Lovelace".to_owned(),
        email: "ada@example.com".to_owned(),
        homepage: Some("https://example.com/ada".to_owned()),
        birthday: None,
        arrival: None,
        guests: 2,
        budget: None,
        newsletter: true,
        size: Size::Medium,
        weekday: None,
        toppings: vec![Topping::Butter],
        note: None,
    };
    assert_eq!(calling.text(), format!("{expected:?}"));
}

/// Audits the page shown, failing on any serious or critical violation; prints the
/// others and what axe could not decide.
fn audit(browser: &mut Browser, axe: &Axe, what: &str) {
    let audit = browser.audit(axe);
    let serious = audit.serious();
    assert!(
        serious.is_empty(),
        "{what}: serious or critical accessibility violations:\n{}",
        Audit::describe(&serious)
    );
    let minor: Vec<&Value> = audit.violations.iter().collect();
    if !minor.is_empty() {
        eprintln!("{what}: minor violations:\n{}", Audit::describe(&minor));
    }
    eprintln!("{what}: {} rules passed", audit.passes);
    let unsure: Vec<&Value> = audit.incomplete.iter().collect();
    if !unsure.is_empty() {
        eprintln!("{what}: to review by hand:\n{}", Audit::describe(&unsure));
    }
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
#[cfg_attr(
    all(no_axe, not(no_chromium)),
    ignore = "axe-core is not installed (npm ci --prefix tests/browser)"
)]
fn every_page_passes_the_accessibility_audit() {
    let axe = Axe::for_test();
    let (mut browser, _logs, served) = purge("browser-audit");

    // The purge: fresh, refused, answered, then closed.
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(1);
    browser.goto(&link);
    audit(&mut browser, &axe, "the purge approval");
    browser.click("#f0");
    browser.click("#f1");
    browser.type_text("ops..team@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.exists("#f1-error"));
    audit(&mut browser, &axe, "the purge approval, refused");
    browser.fill("#f1", "ops@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));
    audit(&mut browser, &axe, "the page after an answer");
    assert_eq!(calling.text(), deleted("ops@example.com"));
    browser.goto(&link);
    assert!(browser.text().contains(CLOSED));
    audit(&mut browser, &axe, "the closed page");

    // Declined, cancelled (a purge of the logs left, those older than a day).
    for (n, button, said) in [
        (2, "decline", "[BLOCKED] user declined; nothing deleted"),
        (3, "cancel", "[CANCELLED] user dismissed the dialog"),
    ] {
        let calling = served.call(PURGE, demo_purge(1));
        browser.goto(&served.link(n));
        browser.navigating(|b| b.click(&format!("button[value={button}]")));
        audit(&mut browser, &axe, &format!("the page after {button}"));
        assert_eq!(calling.text(), said);
    }
    drop(served);

    // Every kind of field: fresh, then refused on several fields at once (a required
    // text left empty, a bad e-mail, too few toppings).
    let served = Served::start(Setup::new(), visit_server);
    let calling = served.call("visit", json!({}));
    browser.goto(&served.link(1));
    assert_eq!(
        browser.eval("document.querySelectorAll('select').length"),
        json!(1),
        "the seven days are a list"
    );
    audit(&mut browser, &axe, "every kind of field");
    browser.click("#f1");
    browser.type_text("ada..l@example.com");
    browser.skip_browser_validation();
    browser.navigating(|b| b.click("button[value=accept]"));
    for field in ["f0", "f1", "f10"] {
        assert!(browser.exists(&format!("#{field}-error")), "{field}");
    }
    audit(&mut browser, &axe, "every kind of field, refused");
    browser.navigating(|b| b.click("button[value=cancel]"));
    assert_eq!(calling.text(), "cancelled");
    drop(served);

    // The ticket wizard's pages.
    let served = Served::start(Setup::new(), ticket_server);
    let calling = served.call("book_tickets", json!({}));
    browser.goto(&served.link(1));
    audit(&mut browser, &axe, "the wizard's date");
    browser.click("#f0-0");
    browser.navigating(|b| b.click("button[value=accept]"));
    browser.goto(&served.link(2));
    audit(&mut browser, &axe, "the wizard's seat");
    browser.click("#f0-0");
    browser.navigating(|b| b.click("button[value=accept]"));
    browser.goto(&served.link(3));
    audit(&mut browser, &axe, "the wizard's snacks");
    browser.click("#f0");
    browser.navigating(|b| b.click("button[value=accept]"));
    browser.goto(&served.link(4));
    audit(&mut browser, &axe, "the wizard's size");
    browser.skip_browser_validation();
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.exists("#f0-error"));
    audit(&mut browser, &axe, "the wizard's size, refused");
    browser.click("#f0-0");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(
        calling.text().starts_with("Booked seat A1 on 2025-02-03"),
        "the wizard ends"
    );
    drop(served);

    // A page opened by someone other than the person asked (the visitor hook).
    let logs = Logs::new("browser-audit-visitor");
    let options = elicit_rmcp::http::HttpOptions::default()
        .bearer_token("alice-3q2+7wQx1m0Yl0a7bKc3dA8u", "alice")
        .page_visitor(visitor);
    let setup = Setup::new()
        .options(options)
        .token("alice-3q2+7wQx1m0Yl0a7bKc3dA8u");
    let served = Served::start(setup, |e| logs.server_with(e));
    let calling = served.call(PURGE, demo_purge(30));
    let link = served.link(1);
    browser.set_cookie(&link, "who", "bob");
    browser.goto(&link);
    assert!(browser.text().contains("This page is for someone else"));
    assert!(!browser.exists("form"));
    audit(&mut browser, &axe, "the page for someone else");
    assert!(!calling.ended());
    assert_eq!(logs.count("demo-repo"), 6);
}

/// The audit fails where it should: a page whose field lost its label, and whose text
/// lost its contrast, has serious violations.
#[test]
#[cfg_attr(
    no_chromium,
    ignore = "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)"
)]
#[cfg_attr(
    all(no_axe, not(no_chromium)),
    ignore = "axe-core is not installed (npm ci --prefix tests/browser)"
)]
fn the_audit_finds_what_is_wrong() {
    let axe = Axe::for_test();
    let (mut browser, _logs, served) = purge("browser-audit-wrong");
    let _calling = served.call(PURGE, demo_purge(30));
    browser.goto(&served.link(1));
    browser.eval(
        "document.querySelector('label[for=f1]').remove();
         document.querySelector('.message').style.color = '#ddd';",
    );
    let audit = browser.audit(&axe);
    let serious: Vec<&str> = audit
        .serious()
        .iter()
        .filter_map(|v| v["id"].as_str())
        .collect();
    assert!(serious.contains(&"label"), "{serious:?}");
    assert!(serious.contains(&"color-contrast"), "{serious:?}");
}
