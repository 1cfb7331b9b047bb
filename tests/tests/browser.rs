//! The web pages of `elicit_core::web` in a real browser: a headless Chromium (Debian
//! package `chromium`) started by each test and driven over the DevTools protocol, on
//! pages served by a small server of the test's own (below).
//!
//! The purge approval and the ticket wizard are completed by clicking and typing, and
//! the purge by the keyboard alone; on each page an invalid answer is shown beside its
//! field, with what was typed kept, then corrected; decline and cancel work with
//! required fields empty; an expired and a used link show the closed page. Every kind
//! of page passes axe-core's WCAG 2.x A and AA rules with no serious or critical
//! violation.
//!
//! Without Chromium (or axe-core, `npm ci --prefix tests/browser`) the tests say so and
//! pass on a developer machine; under CI (`CI` or `ELICIT_REQUIRE_BROWSER` set; `.ci/run`
//! sets the latter after installing both) they fail instead of skipping.

mod support {
    pub mod browser;
}

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use elicit_core::__private::testing::{Flow, Poll, Step};
use elicit_core::web::{self, Page, Submission, View};
use elicit_core::wizard::{Outcome, Prepared, PreparedForm};
use elicit_core::{Action, Elicit, Form, Revision};
use elicit_examples::forms::{PurgeApproval, Size, Topping};
use elicit_examples::ticket::{Cinema, Drink, TicketOrder};
use serde::Deserialize;
use serde_json::{Value, json};
use support::browser::{Audit, Axe, Browser, Key};

/// The name the pages give as the server that asks.
const SERVER: &str = "Log keeper";

/// What the purge approval asks (the purge tool's message, shortened).
const PURGE_MESSAGE: &str = "About to permanently delete logs/: 3 objects. This cannot be undone. Please review.\n\n- app-2024-01.log\n- app-2024-02.log\n- app-2024-03.log";

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
#[allow(dead_code)] // Read through the browser, not in Rust.
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

// ---------------------------------------------------------------------------------
// The test server: each page behind a one-time link, `/e/TOKEN`.
// ---------------------------------------------------------------------------------

/// What a link shows.
enum Target {
    /// A form on its own.
    Form {
        /// Which form, in the answers recorded.
        name: &'static str,
        message: String,
        form: PreparedForm,
    },
    /// A step of the ticket wizard; its answer goes to the flow.
    Step {
        wizard: Arc<Mutex<Ticket>>,
        step: Step,
    },
}

impl Target {
    fn form(&self) -> &Form {
        match self {
            Target::Form { form, .. } => form.form(),
            Target::Step { step, .. } => step.form(),
        }
    }

    fn message(&self) -> &str {
        match self {
            Target::Form { message, .. } => message,
            Target::Step { step, .. } => step.message(),
        }
    }

    fn name(&self) -> &str {
        match self {
            Target::Form { name, .. } => name,
            Target::Step { step, .. } => step.id.name,
        }
    }
}

/// A ticket wizard in progress.
struct Ticket {
    flow: Flow<TicketOrder>,
    cinema: Cinema,
}

/// A one-time link: usable until answered (accepted, declined or cancelled) or until it
/// expires; an answer that is refused leaves it open.
struct Link {
    target: Target,
    expires: Instant,
    used: bool,
}

/// One answer the server took, as the page's reader gave it.
#[derive(Clone, Debug, PartialEq)]
struct Answered {
    /// The form's name, or the wizard step's.
    page: String,
    action: Action,
    content: Option<Value>,
}

#[derive(Default)]
struct Shared {
    links: Mutex<HashMap<String, Link>>,
    answers: Mutex<Vec<Answered>>,
    outcomes: Mutex<Vec<Outcome<TicketOrder>>>,
    issued: AtomicU64,
}

impl Shared {
    /// A new link to `target`, open for `ttl`; its path.
    fn issue(&self, target: Target, ttl: Duration) -> String {
        let n = self.issued.fetch_add(1, Ordering::Relaxed);
        // Unguessable enough for a test: a random key of the standard library's hasher.
        let random = RandomState::new().build_hasher().finish();
        let token = format!("{n}-{random:016x}");
        let link = Link {
            target,
            expires: Instant::now() + ttl,
            used: false,
        };
        self.links.lock().unwrap().insert(token.clone(), link);
        format!("/e/{token}")
    }
}

/// How long a link stays open unless a test says otherwise.
const TTL: Duration = Duration::from_secs(600);

/// The server, on 127.0.0.1 and a free port, in a thread of its own; stopped on drop.
struct Server {
    address: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let shared = Arc::new(Shared::default());
        let app = Router::new()
            .route("/e/{token}", get(show).post(answer))
            .with_state(Arc::clone(&shared));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a port");
        let address = listener.local_addr().expect("an address");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("the test server runs");
            });
        });
        Server {
            address,
            shared,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// A link to the purge approval as the purge tool shapes it: 30 days the default
    /// and the least retention.
    fn purge(&self) -> String {
        self.purge_for(TTL)
    }

    fn purge_for(&self, ttl: Duration) -> String {
        let form = Prepared::new()
            .range("retention_days", 30, 3650)
            .default_value("retention_days", 30)
            .build(PurgeApproval::form())
            .expect("the purge's form");
        let target = Target::Form {
            name: "purge",
            message: PURGE_MESSAGE.to_owned(),
            form,
        };
        self.url(&self.shared.issue(target, ttl))
    }

    /// A link to the form with every kind of field.
    fn all_kinds(&self) -> String {
        let form = Prepared::new().build(AllKinds::form()).expect("the form");
        let target = Target::Form {
            name: "all kinds",
            message: "Tell us about your visit.".to_owned(),
            form,
        };
        self.url(&self.shared.issue(target, TTL))
    }

    /// A link to the first step of a new ticket wizard in the demo cinema.
    fn ticket(&self) -> String {
        let mut ticket = Ticket {
            flow: Flow::new(),
            cinema: Cinema::demo(),
        };
        let Poll::Ask(step) = ticket
            .flow
            .poll(&ticket.cinema, Revision::V2025_11_25)
            .expect("the wizard starts")
        else {
            panic!("the wizard asks nothing");
        };
        let target = Target::Step {
            wizard: Arc::new(Mutex::new(ticket)),
            step,
        };
        self.url(&self.shared.issue(target, TTL))
    }

    /// Marks the link at `url` used, as if answered in another tab.
    fn use_up(&self, url: &str) {
        let token = url.rsplit('/').next().expect("a token");
        let mut links = self.shared.links.lock().unwrap();
        links.get_mut(token).expect("a link").used = true;
    }

    /// Every answer taken so far.
    fn answers(&self) -> Vec<Answered> {
        self.shared.answers.lock().unwrap().clone()
    }

    /// Every wizard that ended, with how.
    fn outcomes(&self) -> Vec<Outcome<TicketOrder>> {
        std::mem::take(&mut *self.shared.outcomes.lock().unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A page with the headers every page is sent with.
fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        "text/html; charset=utf-8".parse().expect("a header"),
    );
    for (name, value) in web::HEADERS {
        headers.insert(*name, value.parse().expect("a header"));
    }
    response
}

/// The page of a link, shown as it asks.
fn page<'a>(target: &'a Target, post_to: &'a str) -> Page<'a> {
    let mut page = Page::new(target.message(), post_to);
    page.server = Some(SERVER);
    if let Target::Step { .. } = target {
        page.title = Some("Book a ticket");
    }
    page
}

/// The page for a link that is unknown, used or expired.
fn closed() -> Response {
    let page = Page::new("", "");
    html(StatusCode::GONE, page.render(&View::Expired))
}

async fn show(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    let links = shared.links.lock().unwrap();
    match links.get(&token) {
        Some(link) if !link.used && Instant::now() < link.expires => {
            let post_to = format!("/e/{token}");
            let body = page(&link.target, &post_to).render(&View::Form(link.target.form()));
            html(StatusCode::OK, body)
        }
        _ => closed(),
    }
}

async fn answer(
    State(shared): State<Arc<Shared>>,
    Path(token): Path<String>,
    body: Bytes,
) -> Response {
    let mut links = shared.links.lock().unwrap();
    let Some(link) = links
        .get_mut(&token)
        .filter(|l| !l.used && Instant::now() < l.expires)
    else {
        return closed();
    };
    let form = link.target.form();
    let (action, content) = match web::read(form, &body) {
        Submission::Refused { entered, error } => {
            let post_to = format!("/e/{token}");
            let view = View::Refused {
                form,
                entered: &entered,
                error: &error,
            };
            let body = page(&link.target, &post_to).render(&view);
            return html(StatusCode::UNPROCESSABLE_ENTITY, body);
        }
        Submission::Accept(answer) => (Action::Accept, Some(answer)),
        Submission::Decline => (Action::Decline, None),
        Submission::Cancel => (Action::Cancel, None),
        other => {
            let body = format!("an unexpected submission: {other:?}");
            return (StatusCode::INTERNAL_SERVER_ERROR, body).into_response();
        }
    };
    link.used = true;
    shared.answers.lock().unwrap().push(Answered {
        page: link.target.name().to_owned(),
        action,
        content: content.clone(),
    });
    let Target::Step { wizard, .. } = &link.target else {
        return html(
            StatusCode::OK,
            Page::new("", "").render(&View::Done(action)),
        );
    };
    let wizard = Arc::clone(wizard);
    let mut ticket = wizard.lock().unwrap();
    let Ticket { flow, cinema } = &mut *ticket;
    flow.answer(cinema, action, content)
        .expect("the wizard takes the answer");
    match flow
        .poll(cinema, Revision::V2025_11_25)
        .expect("the wizard goes on")
    {
        Poll::Ask(step) => {
            drop(links);
            let next = shared.issue(
                Target::Step {
                    wizard: Arc::clone(&wizard),
                    step,
                },
                TTL,
            );
            (StatusCode::SEE_OTHER, [(header::LOCATION, next)]).into_response()
        }
        Poll::Done(outcome) => {
            shared.outcomes.lock().unwrap().push(outcome);
            html(
                StatusCode::OK,
                Page::new("", "").render(&View::Done(action)),
            )
        }
    }
}

// ---------------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------------

/// A browser and a server, or `None` when the test is skipped.
fn start() -> Option<(Browser, Server)> {
    let browser = Browser::for_test()?;
    Some((browser, Server::start()))
}

/// The answer of the purge by "tick, e-mail, keep the defaults, submit".
fn purge_answer(approver: &str) -> Answered {
    Answered {
        page: "purge".to_owned(),
        action: Action::Accept,
        content: Some(json!({"confirm": true, "approver": approver, "retention_days": 30})),
    }
}

/// The closed page's heading.
const CLOSED: &str = "This link can no longer be used";

#[test]
fn purge_by_clicking_and_typing() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    let link = server.purge();
    browser.goto(&link);
    assert_eq!(browser.title(), format!("Please answer – {SERVER}"));
    let text = browser.text();
    assert!(text.contains("About to permanently delete logs/"), "{text}");
    assert!(text.contains("- app-2024-02.log"), "{text}");
    // The default retention is filled in, the box unticked.
    assert_eq!(browser.value("#f2"), "30");
    assert!(!browser.checked("#f0"));

    browser.click("#f0");
    assert!(browser.checked("#f0"));
    browser.click("#f1");
    browser.type_text("ops@example.com");
    assert_eq!(browser.value("#f1"), "ops@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));

    assert!(browser.text().contains("Your answer was sent."));
    assert_eq!(server.answers(), [purge_answer("ops@example.com")]);

    // The link was used: opened again, it shows the closed page and takes nothing.
    browser.goto(&link);
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert!(!browser.exists("form"));
    assert_eq!(server.answers().len(), 1);
}

#[test]
fn purge_by_keyboard_alone() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    browser.goto(&server.purge());
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
    assert!(server.answers().is_empty());
    assert!(browser.has_focus(".summary"), "the summary is not focused");
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
    assert_eq!(server.answers(), [purge_answer("ops.team@example.com")]);
}

#[test]
fn purge_refuses_a_bad_e_mail_beside_its_field_then_takes_it_corrected() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    let link = server.purge();
    browser.goto(&link);
    browser.click("#f0");
    // Two dots in a row: the browser's own check of an e-mail lets it through (its
    // pattern allows any dots before the @), the server's refuses it.
    browser.click("#f1");
    browser.type_text("ops..team@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));

    assert!(server.answers().is_empty(), "a refused answer was taken");
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
    assert_eq!(server.answers(), [purge_answer("ops.team@example.com")]);
}

#[test]
fn decline_and_cancel_work_with_required_fields_empty() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    for (button, said, action) in [
        ("decline", "You declined to answer.", Action::Decline),
        ("cancel", "You cancelled the request.", Action::Cancel),
    ] {
        browser.goto(&server.purge());
        // The e-mail is required and empty: Submit would be stopped, these are not.
        assert_eq!(browser.value("#f1"), "");
        assert_eq!(browser.attribute("#f1", "required").as_deref(), Some(""));
        browser.navigating(|b| b.click(&format!("button[value={button}]")));
        assert!(browser.text().contains(said), "{}", browser.text());
        let last = server.answers().pop().expect("an answer");
        assert_eq!(
            last,
            Answered {
                page: "purge".to_owned(),
                action,
                content: None
            }
        );
    }
    assert_eq!(server.answers().len(), 2);
}

#[test]
fn expired_and_used_links_show_the_closed_page() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    // Expired before it is opened.
    browser.goto(&server.purge_for(Duration::ZERO));
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert_eq!(browser.title(), CLOSED);
    assert!(!browser.exists("form"));

    // Answered elsewhere (another tab) while this page was open: its answer is not
    // taken, the closed page is shown.
    let link = server.purge();
    browser.goto(&link);
    browser.click("#f0");
    browser.click("#f1");
    browser.type_text("ops@example.com");
    server.use_up(&link);
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert!(server.answers().is_empty());

    // Declined, then opened again with Back: the page is not kept (no-store), and the
    // link is used.
    let link = server.purge();
    browser.goto(&link);
    browser.navigating(|b| b.click("button[value=decline]"));
    browser.navigating(|b| {
        b.eval("history.back()");
    });
    assert_eq!(browser.url(), link);
    assert!(browser.text().contains(CLOSED), "{}", browser.text());
    assert_eq!(server.answers().len(), 1);
}

#[test]
fn ticket_wizard_completed_page_after_page() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    let first = server.ticket();
    browser.goto(&first);

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

    // 1. The date, among the days with seats.
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
    browser.navigating(|b| b.click("button[value=accept]"));

    // 2. The seat, among that day's free seats.
    let text = browser.text();
    assert!(text.contains("Pick a seat for 2025-02-03"), "{text}");
    for seat in ["A1", "A2", "B4"] {
        assert!(text.contains(seat), "{text}");
    }
    refuse_empty(&mut browser, "f0");
    browser.click("#f0-1");
    browser.navigating(|b| b.click("button[value=accept]"));

    // 3. Snacks: popcorn and a cola.
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
    browser.navigating(|b| b.click("button[value=accept]"));

    // 4. The popcorn size, asked because popcorn was wanted.
    assert!(browser.text().contains("Which size?"));
    refuse_empty(&mut browser, "f0");
    browser.click("#f0-2");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));

    let pages: Vec<(String, Option<Value>)> = server
        .answers()
        .into_iter()
        .map(|a| {
            assert_eq!(a.action, Action::Accept);
            (a.page, a.content)
        })
        .collect();
    assert_eq!(
        pages,
        [
            ("date".to_owned(), Some(json!({"date": "2025-02-03"}))),
            ("seat".to_owned(), Some(json!({"seat": "A2"}))),
            (
                "snacks".to_owned(),
                Some(json!({"popcorn": true, "drink": "cola"}))
            ),
            ("size".to_owned(), Some(json!({"size": "Large"}))),
        ]
    );
    match server.outcomes().as_slice() {
        [Outcome::Completed(order)] => {
            assert_eq!(order.date.date, "2025-02-03");
            assert_eq!(order.seat.seat, "A2");
            assert!(order.snacks.popcorn);
            assert_eq!(order.snacks.drink, Some(Drink::Cola));
            assert_eq!(order.size.as_ref().map(|s| s.size), Some(Size::Large));
        }
        other => panic!("the wizard ended so: {other:?}"),
    }

    // The first step's link was used.
    browser.goto(&first);
    assert!(browser.text().contains(CLOSED));
}

#[test]
fn every_kind_of_field_refused_beside_itself_then_corrected() {
    let Some((mut browser, server)) = start() else {
        return;
    };
    browser.goto(&server.all_kinds());
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

    assert!(server.answers().is_empty());
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
    let taken = server.answers().pop().expect("an answer").content;
    assert_eq!(
        taken,
        Some(json!({
            "name": "Ada Lovelace",
            "email": "ada@example.com",
            "homepage": "https://example.com/ada",
            "guests": 2,
            "newsletter": true,
            "size": "Medium",
            "toppings": ["butter"],
        }))
    );
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
fn every_page_passes_the_accessibility_audit() {
    let Some(axe) = Axe::for_test() else {
        return;
    };
    let Some((mut browser, server)) = start() else {
        return;
    };

    // The purge: fresh, refused, answered.
    browser.goto(&server.purge());
    audit(&mut browser, &axe, "the purge approval");
    browser.click("#f1");
    browser.type_text("ops..team@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.exists("#f1-error"));
    audit(&mut browser, &axe, "the purge approval, refused");
    browser.fill("#f1", "ops@example.com");
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.text().contains("Your answer was sent."));
    audit(&mut browser, &axe, "the page after an answer");

    // Every kind of field: fresh, then refused on several fields at once (a required
    // text left empty, a bad e-mail, too few toppings).
    browser.goto(&server.all_kinds());
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

    // The ticket wizard's pages.
    browser.goto(&server.ticket());
    audit(&mut browser, &axe, "the wizard's date");
    browser.click("#f0-0");
    browser.navigating(|b| b.click("button[value=accept]"));
    audit(&mut browser, &axe, "the wizard's seat");
    browser.click("#f0-0");
    browser.navigating(|b| b.click("button[value=accept]"));
    audit(&mut browser, &axe, "the wizard's snacks");
    browser.click("#f0");
    browser.navigating(|b| b.click("button[value=accept]"));
    audit(&mut browser, &axe, "the wizard's size");
    browser.skip_browser_validation();
    browser.navigating(|b| b.click("button[value=accept]"));
    assert!(browser.exists("#f0-error"));
    audit(&mut browser, &axe, "the wizard's size, refused");

    // The closed pages: expired, declined, cancelled.
    browser.goto(&server.purge_for(Duration::ZERO));
    assert!(browser.text().contains(CLOSED));
    audit(&mut browser, &axe, "the closed page");
    for button in ["decline", "cancel"] {
        browser.goto(&server.purge());
        browser.navigating(|b| b.click(&format!("button[value={button}]")));
        audit(&mut browser, &axe, &format!("the page after {button}"));
    }
}

/// The audit fails where it should: a page whose field lost its label, and whose text
/// lost its contrast, has serious violations.
#[test]
fn the_audit_finds_what_is_wrong() {
    let Some(axe) = Axe::for_test() else {
        return;
    };
    let Some((mut browser, server)) = start() else {
        return;
    };
    browser.goto(&server.purge());
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
