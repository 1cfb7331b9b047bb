//! The engine's web pages served for real, attacked through HTTP: the purge server
//! (`purge-approval`) over Streamable HTTP on `127.0.0.1:0`, its pages on the same
//! router (`HttpOptions::pages`), a real MCP client of 2025-11-25 that takes URL mode
//! only; the tool asks its approval on a page and waits, while the test sends the page
//! hand-written requests (see `support/served.rs`).
//!
//! What no page may take: an answer posted from another origin (403: a browser posts
//! the page's own form with `Origin: null` and `Sec-Fetch-Site: same-origin`, another
//! site's page with another origin, or `null` and `cross-site`), any request to
//! another `Host` (403), a body over 1 MiB (413), a body with fields the form lacks,
//! missing or of the wrong type (422, the form again), an unknown or forged link (404),
//! and, with a visitor hook, a visitor without an identity (401) or another person
//! (403). After each, the page is still open and unanswered (it still shows its form, a
//! page once answered would not), nothing is deleted, and the person's own answer then
//! completes the tool call. A client with neither forms nor URL mode is not sent the
//! approval as a link (the model could approve it).

use std::time::Duration;

use serde_json::json;

#[path = "support/served.rs"]
mod served;
mod support;

use served::{Calling, Served, Setup, path_of, visitor};
use support::{Era, Logs, PURGE, Scripted, demo_purge};

/// The answer the person gives: ticked, ops@example.com, the 30 days kept.
const APPROVED: &[u8] =
    b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.retention_days=30&action=accept";

/// What the purge says once that answer is taken (4 of demo-repo's 6 logs are older
/// than 30 days).
const DELETED: &str = "[DELETED] demo-repo/logs (older than 30d), 4 objects, approved by ops@example.com, retention=30d";

/// The page every link shows once it cannot be used.
const CLOSED: &str = "This link can no longer be used";

/// A purge of demo-repo's logs older than 30 days, called on the purge server of `logs`
/// as `setup` says, waiting on its page: the server, the call, the page's path.
fn purging(logs: &Logs, setup: Setup) -> (Served, Calling, String) {
    let served = Served::start(setup, |elicitor| logs.server_with(elicitor));
    let calling = served.call(PURGE, demo_purge(30));
    let path = path_of(&served.link(1));
    (served, calling, path)
}

/// The page at `path` is still open and unanswered, the call still waits, nothing is
/// deleted.
fn still_open(served: &Served, calling: &Calling, logs: &Logs, path: &str) {
    let page = served.get(path, &[]);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<form"), "{}", page.body);
    assert!(!calling.ended(), "the call ended");
    assert_eq!(logs.count("demo-repo"), 6, "logs were deleted");
}

/// The person answers at `path`: the call ends deleting the four old logs.
fn approve(served: &Served, calling: Calling, logs: &Logs, path: &str) {
    let done = served.post(path, &[], APPROVED);
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("Your answer was sent."), "{}", done.body);
    assert_eq!(calling.text(), DELETED);
    assert_eq!(logs.count("demo-repo"), 2);
}

#[test]
fn an_answer_posted_from_another_origin_is_refused_and_nothing_is_taken() {
    let logs = Logs::new("http-origin");
    let (served, calling, path) = purging(&logs, Setup::new());
    let port = served.addr().port();
    let own = served.origin();
    let localhost = format!("http://localhost:{port}");
    let other_port = format!("http://127.0.0.1:{}", if port == 1 { 2 } else { port - 1 });
    // The `Origin` and `Sec-Fetch-Site` of each post (`None`: not sent).
    for (origin, site) in [
        (Some("https://evil.example"), None),
        (Some("https://evil.example"), Some("cross-site")),
        // A page of this machine, but not this server's own: `localhost` is another
        // origin than `127.0.0.1`, as is another port.
        (Some(localhost.as_str()), None),
        (Some(localhost.as_str()), Some("same-site")),
        (Some(other_port.as_str()), None),
        // `null`: what a sandboxed frame or a page with no referrer sends, from any
        // site; taken only with the browser's word that it is the page's own.
        (Some("null"), None),
        (Some("null"), Some("cross-site")),
        (Some("null"), Some("none")),
        (None, Some("cross-site")),
        // The browser's word and the origin it names disagree.
        (Some(own.as_str()), Some("cross-site")),
        (Some("https://evil.example"), Some("same-origin")),
    ] {
        let headers: Vec<(&str, &str)> = site.map(|s| ("Sec-Fetch-Site", s)).into_iter().collect();
        let refused = served.post_from(origin, &path, &headers, APPROVED);
        let what = format!("Origin {origin:?}, Sec-Fetch-Site {site:?}");
        assert_eq!(refused.status, 403, "{what}: {}", refused.body);
        assert!(
            refused.body.contains("must be posted from the page itself"),
            "{what}: {}",
            refused.body
        );
        still_open(&served, &calling, &logs, &path);
    }
    // Posted as a browser posts the page's own form (`Origin: null`, `Sec-Fetch-Site:
    // same-origin`): taken.
    approve(&served, calling, &logs, &path);
}

#[test]
fn an_answer_from_the_page_s_own_origin_or_from_no_browser_is_taken() {
    for (name, origin, site) in [
        ("http-own-origin", true, Some("same-origin")),
        ("http-own-origin-only", true, None),
        ("http-no-browser", false, None),
    ] {
        let logs = Logs::new(name);
        let (served, calling, path) = purging(&logs, Setup::new());
        let own = served.origin();
        let headers: Vec<(&str, &str)> = site.map(|s| ("Sec-Fetch-Site", s)).into_iter().collect();
        let origin = origin.then_some(own.as_str());
        let done = served.post_from(origin, &path, &headers, APPROVED);
        assert_eq!(done.status, 200, "{name}: {}", done.body);
        assert_eq!(calling.text(), DELETED, "{name}");
        assert_eq!(logs.count("demo-repo"), 2, "{name}");
    }
}

#[test]
fn a_request_to_another_host_is_refused() {
    let logs = Logs::new("http-host");
    let (served, calling, path) = purging(&logs, Setup::new());
    let port = served.addr().port();
    // A name rebound to 127.0.0.1 by a page of that name (DNS rebinding): its requests
    // carry its own name, with or without the port, and its own origin.
    for host in ["evil.example".to_owned(), format!("evil.example:{port}")] {
        let shown = served.request(&format!("GET {path} HTTP/1.1\r\nHost: {host}"), b"");
        assert_eq!(shown.status, 403, "{host}: {}", shown.body);
        assert!(!shown.body.contains("<form"), "{host}: {}", shown.body);
        let posted = served.request(
            &format!(
                "POST {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\
                 Content-Type: application/x-www-form-urlencoded"
            ),
            APPROVED,
        );
        assert_eq!(posted.status, 403, "{host}: {}", posted.body);
        still_open(&served, &calling, &logs, &path);
    }
    // No Host at all (HTTP/1.0): refused too.
    let bare = served.request(&format!("GET {path} HTTP/1.0"), b"");
    assert_eq!(bare.status, 403, "{}", bare.body);
    // `localhost` is this machine: shown.
    let local = served.request(
        &format!("GET {path} HTTP/1.1\r\nHost: localhost:{port}"),
        b"",
    );
    assert_eq!(local.status, 200, "{}", local.body);
    approve(&served, calling, &logs, &path);
}

#[test]
fn a_body_over_one_mebibyte_is_refused_and_one_of_exactly_that_is_read() {
    const MIB: usize = 1 << 20;
    let logs = Logs::new("http-size");
    let (served, calling, path) = purging(&logs, Setup::new());
    // The answer, padded with a name of the server's own (which the page's reader leaves
    // alone) to the size wanted.
    let padded = |size: usize| {
        let mut body = APPROVED.to_vec();
        body.extend(b"&pad=");
        body.resize(size, b'a');
        body
    };
    let refused = served.post(&path, &[], &padded(MIB + 1));
    assert_eq!(refused.status, 413, "{}", refused.head);
    still_open(&served, &calling, &logs, &path);
    let taken = served.post(&path, &[], &padded(MIB));
    assert_eq!(taken.status, 200, "{}", taken.body);
    assert_eq!(calling.text(), DELETED);
    assert_eq!(logs.count("demo-repo"), 2);
}

#[test]
fn fields_extra_missing_or_of_the_wrong_type_get_the_form_again() {
    let logs = Logs::new("http-fields");
    let (served, calling, path) = purging(&logs, Setup::new());
    // Each body, what it is, and what the page says of it: beside its field (`fN`)
    // where one field is wrong, else above the form.
    const UNREAD: &str = "The answer could not be read. Check the form and send it again.";
    for (body, why, field, said) in [
        (
            &b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.retention_days=30&f.extra=1&action=accept"[..],
            "a field the form lacks",
            None,
            UNREAD,
        ),
        (
            b"s.confirm=1&f.confirm=true&f.retention_days=30&action=accept",
            "the approver left out",
            Some("f1"),
            "Approver's e-mail: an answer is required",
        ),
        (
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.retention_days=thirty&action=accept",
            "days as a word",
            Some("f2"),
            "Retention days: expected a whole number, got text",
        ),
        (
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.retention_days=29&action=accept",
            "fewer days than the call's (it would widen the purge)",
            Some("f2"),
            "Retention days: must be at least 30",
        ),
        (
            b"s.confirm=1&f.confirm=maybe&f.approver=ops%40example.com&f.retention_days=30&action=accept",
            "a box neither ticked nor not",
            Some("f0"),
            "expected true or false, got text",
        ),
        (
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&f.approver=dev%40example.com&action=accept",
            "two approvers",
            Some("f1"),
            "Approver's e-mail: expected text, got a list",
        ),
        (
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com",
            "no action",
            None,
            UNREAD,
        ),
        (
            b"s.confirm=1&f.confirm=true&f.approver=ops%40example.com&action=approve",
            "an action not known",
            None,
            "The answer did not say whether to submit, decline or cancel.",
        ),
        (b"action=accept&action=decline", "two actions", None, UNREAD),
        (b"\xff\xfe=1&action=accept", "not UTF-8", None, UNREAD),
    ] {
        let refused = served.post(&path, &[], body);
        assert_eq!(refused.status, 422, "{why}: {}", refused.body);
        // The form again, to answer on, with what is wrong.
        assert!(refused.body.contains("<form"), "{why}: {}", refused.body);
        assert!(refused.body.contains(said), "{why}: {}", refused.body);
        if let Some(field) = field {
            let beside = format!("id=\"{field}-error\"");
            assert!(refused.body.contains(&beside), "{why}: {}", refused.body);
        }
        still_open(&served, &calling, &logs, &path);
    }
    approve(&served, calling, &logs, &path);
}

#[test]
fn an_unknown_or_forged_link_is_not_found() {
    let logs = Logs::new("http-links");
    let (served, calling, path) = purging(&logs, Setup::new());
    let id = path.rsplit('/').next().unwrap().to_owned();
    assert_eq!(id.len(), 22, "{id}");
    let flipped = {
        let mut forged = id.clone();
        let last = forged.pop().unwrap();
        forged.push(if last == 'A' { 'B' } else { 'A' });
        forged
    };
    for forged in [
        "AAAAAAAAAAAAAAAAAAAAAA".to_owned(),
        flipped,
        format!("{id}A"),
        id[..21].to_owned(),
        id.to_lowercase(),
        "..%2F..%2Fmcp".to_owned(),
        "%00".to_owned(),
    ] {
        if forged == id {
            continue;
        }
        let forged = format!("/elicit/p/{forged}");
        let shown = served.get(&forged, &[]);
        assert_eq!(shown.status, 404, "{forged}: {}", shown.body);
        assert!(shown.body.contains(CLOSED), "{forged}: {}", shown.body);
        let posted = served.post(&forged, &[], APPROVED);
        assert_eq!(posted.status, 404, "{forged}: {}", posted.body);
        still_open(&served, &calling, &logs, &path);
    }
    approve(&served, calling, &logs, &path);
    // Used: the link is closed now (409), to a GET and a POST alike.
    let again = served.get(&path, &[]);
    assert_eq!(again.status, 409, "{}", again.body);
    assert!(again.body.contains(CLOSED), "{}", again.body);
    assert_eq!(served.post(&path, &[], APPROVED).status, 409);
}

#[test]
fn with_a_visitor_hook_only_the_person_asked_sees_and_answers_the_page() {
    let logs = Logs::new("http-visitor");
    let options = elicit_rmcp::http::HttpOptions::default()
        .bearer_token("alice-3q2+7wQx1m0Yl0a7bKc3dA8u", "alice")
        .bearer_token("bob-Zk1v8sYc2nQe4rTw6uIo0pAs", "bob")
        .page_visitor(visitor);
    // The client calls as alice: the page is hers.
    let setup = Setup::new()
        .options(options)
        .token("alice-3q2+7wQx1m0Yl0a7bKc3dA8u");
    let (served, calling, path) = purging(&logs, setup);
    let as_alice = [("Cookie", "who=alice")];

    // Nobody signed in: told to sign in, shown nothing, nothing taken.
    let shown = served.get(&path, &[]);
    assert_eq!(shown.status, 401, "{}", shown.body);
    assert!(!shown.body.contains("<form"), "{}", shown.body);
    assert_eq!(served.post(&path, &[], APPROVED).status, 401);
    let open = served.get(&path, &as_alice);
    assert_eq!(open.status, 200, "{}", open.body);

    // Bob, with alice's link: refused, to see and to answer.
    let as_bob = [("Cookie", "theme=dark; who=bob")];
    let shown = served.get(&path, &as_bob);
    assert_eq!(shown.status, 403, "{}", shown.body);
    assert!(
        shown.body.contains("This page is for someone else"),
        "{}",
        shown.body
    );
    assert!(!shown.body.contains("<form"), "{}", shown.body);
    let posted = served.post(&path, &as_bob, APPROVED);
    assert_eq!(posted.status, 403, "{}", posted.body);
    let open = served.get(&path, &as_alice);
    assert_eq!(open.status, 200, "{}", open.body);
    assert!(!calling.ended(), "bob's answer was taken");
    assert_eq!(logs.count("demo-repo"), 6);

    // Alice answers.
    let done = served.post(&path, &as_alice, APPROVED);
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(calling.text(), DELETED);
    assert_eq!(logs.count("demo-repo"), 2);
}

#[test]
fn a_client_without_forms_or_url_mode_is_not_sent_the_approval_as_a_link() {
    let logs = Logs::new("http-no-elicitation");
    let client = Scripted::new(Era::V1125, vec![]).with_capabilities(json!({}));
    let served = Served::start(Setup::new().client(client), |e| logs.server_with(e));
    let said = served.call(PURGE, demo_purge(30)).text();
    assert!(
        said.starts_with("[BLOCKED] this client cannot show the approval form"),
        "{said}"
    );
    assert!(!said.contains("/elicit/p/"), "{said}");
    assert!(served.client().asked().is_empty());
    assert_eq!(logs.count("demo-repo"), 6);
}

#[test]
fn an_expired_link_is_closed_and_the_call_says_so() {
    let logs = Logs::new("http-expired");
    let (served, calling, path) = purging(&logs, Setup::new().ttl(Duration::from_secs(1)));
    // The page lives a second at most (whole seconds): the call ends with it.
    let said = calling.result();
    let error = said.expect_err("the call ends with an error");
    assert!(error.contains("expired"), "{error}");
    let shown = served.get(&path, &[]);
    assert_eq!(shown.status, 404, "{}", shown.body);
    assert!(shown.body.contains(CLOSED), "{}", shown.body);
    assert_eq!(served.post(&path, &[], APPROVED).status, 404);
    assert_eq!(logs.count("demo-repo"), 6);
}
