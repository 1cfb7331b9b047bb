//! Questions asked on pages: by URL mode pushed, in rounds and in a task, by a link in
//! the tool result where the client has no URL mode; the page answered through what a
//! browser would post.

use std::sync::{Mutex, OnceLock};

use serde::Deserialize;
use serde_json::{Value, json};

use super::super::Pages;
use super::super::*;
use crate::answer::{Elicit, Elicitation};
use crate::form::{Field, FieldKind, Form};

#[derive(Debug, Deserialize, PartialEq)]
struct Copies {
    copies: u8,
}

impl crate::NoSecrets for Copies {}

impl Elicit for Copies {
    fn form() -> &'static Form {
        static FORM: OnceLock<Form> = OnceLock::new();
        FORM.get_or_init(|| {
            let kind = FieldKind::Integer {
                minimum: Some(1),
                maximum: Some(10),
                range: (0, 255),
                default: None,
            };
            Form::new(vec![Field::new("copies", true, kind)]).expect("a valid form")
        })
    }
}

fn engine() -> Engine {
    Engine::new(Keyring::generate()).with_pages(Pages::new("https://example.com/elicit/p"))
}

/// The page id in a URL request's params.
fn page_id(question: &Question) -> String {
    let params: Value = serde_json::from_str(&question.params).expect("JSON params");
    let url = params["url"].as_str().expect("a URL request");
    url.strip_prefix("https://example.com/elicit/p/")
        .expect("the pages' base")
        .to_owned()
}

/// A client that takes URL mode, and a person who answers each page: first with
/// `first` (refused), then with `then`.
struct Person {
    pages: Pages,
    first: &'static [u8],
    then: &'static [u8],
    sent: Mutex<Vec<Question>>,
    notices: Mutex<Vec<Notice>>,
}

impl Person {
    fn new(pages: &Pages, first: &'static [u8], then: &'static [u8]) -> Person {
        Person {
            pages: pages.clone(),
            first,
            then,
            sent: Mutex::default(),
            notices: Mutex::default(),
        }
    }
}

impl Transport for Person {
    async fn send(&self, question: Question) -> Result<Value, AskError> {
        let id = page_id(&question);
        self.sent.lock().unwrap().push(question);
        let shown = self.pages.get(&id, None).await;
        assert_eq!(shown.status, 200);
        assert!(shown.html.contains(r#"name="f."#), "{}", shown.html);
        let refused = self.pages.post(&id, None, self.first).await;
        assert_eq!(refused.status, 422, "{}", refused.html);
        let done = self.pages.post(&id, None, self.then).await;
        assert_eq!(done.status, 200, "{}", done.html);
        // The link is used up.
        assert_eq!(self.pages.post(&id, None, self.then).await.status, 409);
        assert_eq!(self.pages.get(&id, None).await.status, 409);
        Ok(json!({"action": "accept"}))
    }

    async fn notify(&self, notice: Notice) -> Result<(), AskError> {
        self.notices.lock().unwrap().push(notice);
        Ok(())
    }
}

fn url_client(revision: Revision) -> Peer {
    Peer::new(Some(revision), &json!({"elicitation": {"url": {}}}))
}

#[tokio::test]
async fn pushed_the_link_goes_by_url_mode_and_the_page_s_answer_comes_back_typed() {
    let engine = engine();
    let pages = engine.pages().unwrap();
    let person = Person::new(
        pages,
        b"f.copies=11&action=accept",
        b"f.copies=3&action=accept",
    );
    let mut call = engine.push(url_client(Revision::V2025_11_25));
    let answer = call
        .ask_on_page::<Copies>(&person, "How many?")
        .await
        .unwrap();
    assert_eq!(answer, Elicitation::Accept(Copies { copies: 3 }));
    let sent = person.sent.lock().unwrap();
    let params: Value = serde_json::from_str(&sent[0].params).unwrap();
    assert_eq!(params["mode"], "url");
    assert_eq!(params["message"], "How many?");
    // The completion is announced under the id the request carried.
    let id = params["elicitationId"]
        .as_str()
        .expect("an elicitationId on 2025-11-25");
    assert_eq!(
        *person.notices.lock().unwrap(),
        [Notice::ElicitationComplete(id.to_owned())]
    );
}

#[tokio::test]
async fn a_client_that_shows_no_forms_gets_the_form_on_a_page() {
    let engine = engine();
    let pages = engine.pages().unwrap();
    let person = Person::new(pages, b"f.copies=0&action=accept", b"action=decline");
    // URL mode only: `ask` goes to the page.
    let mut call = engine.push(url_client(Revision::V2025_11_25));
    let answer = call.ask::<Copies>(&person, "How many?").await.unwrap();
    assert_eq!(answer, Elicitation::Decline);
    assert_eq!(person.sent.lock().unwrap().len(), 1);
    // A client whose profile says it shows no forms, though it declares them.
    let mut engine = engine.clone();
    let renders = Renders {
        forms: false,
        ..Renders::default()
    };
    engine.settings_mut().client_profiles = vec![("no-forms".to_owned(), renders)];
    let mut peer = Peer::new(
        Some(Revision::V2025_11_25),
        &json!({"elicitation": {"form": {}, "url": {}}}),
    );
    peer.name = Some("no-forms".to_owned());
    let person = Person::new(
        pages,
        b"f.copies=x&action=accept",
        b"f.copies=2&action=accept",
    );
    let mut call = engine.push(peer);
    let answer = call.ask::<Copies>(&person, "How many?").await.unwrap();
    assert_eq!(answer, Elicitation::Accept(Copies { copies: 2 }));
    assert_eq!(person.sent.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn in_rounds_each_retry_looks_at_the_page_and_a_later_round_reads_its_answer_from_the_page() {
    let engine = engine();
    let pages = engine.pages().unwrap().clone();
    let peer = Peer::new(
        Some(Revision::V2026_07_28),
        &json!({"elicitation": {"form": {}, "url": {}}}),
    );
    let binding = Binding::new("alice", "tools/call", "print", &json!({}));
    let open = |state: Option<&str>, answers: Vec<(String, Value)>| {
        engine
            .rounds(
                peer.clone(),
                binding.clone(),
                state,
                answers.into_iter().collect(),
            )
            .unwrap()
    };
    async fn body(call: &mut Call) -> Result<(Elicitation<Copies>, bool), Halt> {
        let copies = call.ask_on_page::<Copies>(&(), "How many?").await?;
        let more = call
            .confirm(&(), "Staple them?", &crate::answer::Confirm::new("Yes"))
            .await?;
        Ok((copies, matches!(more, Elicitation::Accept(true))))
    }
    // Round 1: the link.
    let Err(Halt::InputRequired(round)) = body(&mut open(None, vec![])).await else {
        panic!("the link is asked")
    };
    assert_eq!(round.requests[0].key, "page0");
    let id = page_id(&round.requests[0]);
    // The client says the person went, but the page has no answer yet: asked again.
    let accept = json!({"action": "accept"});
    let Err(Halt::InputRequired(again)) = body(&mut open(
        Some(&round.state),
        vec![("page0".into(), accept.clone())],
    ))
    .await
    else {
        panic!("asked again")
    };
    assert_eq!(again.requests[0].key, "page0.1");
    assert!(again.requests[0].params.contains("not been answered yet"));
    assert_eq!(page_id(&again.requests[0]), id);
    // The person answers; the retry goes on to the next question.
    assert_eq!(
        pages
            .post(&id, None, b"f.copies=7&action=accept")
            .await
            .status,
        200
    );
    let Err(Halt::InputRequired(next)) = body(&mut open(
        Some(&again.state),
        vec![("page0.1".into(), accept)],
    ))
    .await
    else {
        panic!("the confirm is asked")
    };
    assert_eq!(next.requests[0].key, "ask1");
    // The last retry replays the page's answer from its record.
    let yes = json!({"action": "accept", "content": {"confirm": true}});
    let (copies, stapled) = body(&mut open(Some(&next.state), vec![("ask1".into(), yes)]))
        .await
        .unwrap();
    assert_eq!(copies, Elicitation::Accept(Copies { copies: 7 }));
    assert!(stapled);
}

fn no_elicitation() -> Peer {
    Peer::new(Some(Revision::V2025_11_25), &json!({}))
}

#[tokio::test]
async fn without_url_mode_the_link_goes_in_the_tool_result_and_the_next_call_goes_on() {
    let engine = engine();
    let pages = engine.pages().unwrap().clone();
    let binding = Binding::new("alice", "tools/call", "print", &json!({"doc": 1}));
    let ask = || async {
        let mut call = engine.push(no_elicitation()).bind(binding.clone());
        call.ask_on_page::<Copies>(&(), "How many?").await
    };
    let Err(Halt::Link(link)) = ask().await else {
        panic!("the link")
    };
    assert!(link.text().contains(&link.url));
    // Called again before the page is answered: the same link.
    let Err(Halt::Link(same)) = ask().await else {
        panic!("the link again")
    };
    assert_eq!(same, link);
    let id = link.url.rsplit('/').next().unwrap();
    assert_eq!(
        pages
            .post(id, None, b"f.copies=4&action=accept")
            .await
            .status,
        200
    );
    assert_eq!(
        ask().await.unwrap(),
        Elicitation::Accept(Copies { copies: 4 })
    );
    // The call that used the answer ended (dropped): the call after asks anew, once the
    // unlinking it set off has run.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    let Err(Halt::Link(fresh)) = ask().await else {
        panic!("a new link")
    };
    assert_ne!(fresh.url, link.url);
    // Another principal, or other arguments, do not go on with it.
    let other = Binding::new("mallory", "tools/call", "print", &json!({"doc": 1}));
    let mut call = engine.push(no_elicitation()).bind(other);
    assert!(matches!(
        call.ask_on_page::<Copies>(&(), "How many?").await,
        Err(Halt::Link(l)) if l.url != fresh.url
    ));
}

/// A consent form (`#[elicit(consent)]`).
#[derive(Debug, Deserialize, PartialEq)]
struct Approve {
    confirm: bool,
}

impl crate::NoSecrets for Approve {}

impl Elicit for Approve {
    fn form() -> &'static Form {
        static FORM: OnceLock<Form> = OnceLock::new();
        FORM.get_or_init(|| {
            let field = Field::new("confirm", true, FieldKind::Boolean { default: None });
            Form::new(vec![field]).expect("a valid form").into_consent()
        })
    }
}

#[tokio::test]
async fn a_consent_form_goes_by_url_mode_but_never_by_a_link_unless_allowed() {
    let binding = Binding::new("alice", "tools/call", "purge", &json!({}));
    let engine = engine();
    let mut call = engine.push(no_elicitation()).bind(binding.clone());
    let refused = call.ask::<Approve>(&(), "Delete 1,284 logs?").await;
    assert!(
        matches!(
            refused,
            Err(Halt::Ask(AskError::Unsupported { mode: "url", .. }))
        ),
        "{refused:?}"
    );
    // By URL mode the page opens where the model cannot read it: asked.
    let pages = engine.pages().unwrap();
    let person = Person::new(
        pages,
        b"action=accept",
        b"s.confirm=1&f.confirm=true&action=accept",
    );
    let mut call = engine
        .push(url_client(Revision::V2025_11_25))
        .bind(binding.clone());
    let answer = call.ask::<Approve>(&person, "Delete 1,284 logs?").await;
    assert_eq!(
        answer.unwrap(),
        Elicitation::Accept(Approve { confirm: true })
    );
    let engine = Engine::new(Keyring::generate())
        .with_pages(Pages::new("https://example.com/elicit/p").consent_by_link(true));
    let mut call = engine.push(no_elicitation()).bind(binding);
    assert!(matches!(
        call.ask::<Approve>(&(), "Delete 1,284 logs?").await,
        Err(Halt::Link(_))
    ));
}

#[tokio::test]
async fn a_consent_is_never_asked_by_a_link_unless_the_pages_allow_it() {
    let binding = Binding::new("alice", "tools/call", "purge", &json!({}));
    let confirm = crate::answer::Confirm::new("Delete them");
    let engine = engine();
    let mut call = engine.push(no_elicitation()).bind(binding.clone());
    let refused = call.confirm(&(), "Delete 1,284 logs?", &confirm).await;
    assert!(
        matches!(
            refused,
            Err(Halt::Ask(AskError::Unsupported { mode: "url", .. }))
        ),
        "{refused:?}"
    );
    let engine = Engine::new(Keyring::generate())
        .with_pages(Pages::new("https://example.com/elicit/p").consent_by_link(true));
    let mut call = engine.push(no_elicitation()).bind(binding);
    assert!(matches!(
        call.confirm(&(), "Delete 1,284 logs?", &confirm).await,
        Err(Halt::Link(_))
    ));
}

#[tokio::test]
async fn a_forged_an_unknown_or_an_expired_page_is_refused() {
    let engine = Engine::new(Keyring::generate()).with_pages(
        Pages::new("https://example.com/elicit/p").with_ttl(std::time::Duration::from_secs(1)),
    );
    let pages = engine.pages().unwrap().clone();
    for id in ["", "x", "../../etc/passwd", "AAAAAAAAAAAAAAAAAAAAAA"] {
        assert_eq!(pages.get(id, None).await.status, 404, "{id}");
        assert_eq!(
            pages.post(id, None, b"action=accept").await.status,
            404,
            "{id}"
        );
    }
    let binding = Binding::new("alice", "tools/call", "print", &json!({}));
    let mut call = engine.push(no_elicitation()).bind(binding);
    let Err(Halt::Link(link)) = call.ask_on_page::<Copies>(&(), "How many?").await else {
        panic!("the link")
    };
    let id = link.url.rsplit('/').next().unwrap();
    assert_eq!(pages.get(id, None).await.status, 200);
    // Extra, missing, oversized, wrong-typed: refused with the form again.
    for body in [
        &b"f.copies=3&f.admin=1&action=accept"[..],
        b"action=accept",
        b"f.copies=300&action=accept",
        b"f.copies=three&action=accept",
        b"f.copies=3",
    ] {
        let served = pages.post(id, None, body).await;
        assert!(
            served.status == 422 || served.status == 400,
            "{}: {}",
            served.status,
            String::from_utf8_lossy(body)
        );
    }
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(pages.get(id, None).await.status, 404);
    assert_eq!(
        pages
            .post(id, None, b"f.copies=3&action=accept")
            .await
            .status,
        404
    );
}

/// A sign-in with a secret: asked on pages only.
#[derive(Debug, Deserialize)]
struct SignIn {
    user: String,
    key: crate::SecretString,
}

impl Elicit for SignIn {
    fn form() -> &'static Form {
        static FORM: OnceLock<Form> = OnceLock::new();
        FORM.get_or_init(|| {
            let text = || FieldKind::String {
                min_length: None,
                max_length: None,
                format: None,
                default: None,
            };
            let mut key = Field::new("key", true, text());
            key.secret = true;
            Form::new(vec![Field::new("user", true, text()), key]).expect("a valid form")
        })
    }
}

#[tokio::test]
async fn a_secret_asked_on_a_page_never_enters_the_sealed_state() {
    const SECRET: &str = "sk-live-0123456789";
    let engine = engine();
    let pages = engine.pages().unwrap().clone();
    let peer = Peer::new(
        Some(Revision::V2026_07_28),
        &json!({"elicitation": {"form": {}, "url": {}}}),
    );
    let binding = Binding::new("alice", "tools/call", "connect", &json!({}));
    let sealer = crate::seal::Sealer::shared(
        engine.keyring.clone(),
        engine.settings.state_ttl,
        engine.settings.clock_skew,
    );
    // Everything a state holds, opened.
    let opened = |state: &str| -> String {
        let (saved, _, _) = sealer.open_stamped::<Value>(&binding, state).unwrap();
        saved.to_string()
    };
    async fn body(call: &mut Call) -> Result<String, Halt> {
        let signed = call.ask_on_page::<SignIn>(&(), "Your API key").await?;
        let more = call
            .confirm(&(), "Connect now?", &crate::answer::Confirm::new("Yes"))
            .await?;
        Ok(match (signed, more) {
            (Elicitation::Accept(s), Elicitation::Accept(true)) => {
                use crate::ExposeSecret;
                format!("{} {} {:?}", s.user, s.key.expose_secret().len(), s)
            }
            _ => "no".to_owned(),
        })
    }
    let mut call = engine
        .rounds(peer.clone(), binding.clone(), None, Default::default())
        .unwrap();
    let Err(Halt::InputRequired(round)) = body(&mut call).await else {
        panic!("the link")
    };
    let id = page_id(&round.requests[0]);
    let page = pages.get(&id, None).await;
    assert!(page.html.contains(r#"type="password""#), "{}", page.html);
    let body_text = format!("f.user=ann&f.key={SECRET}&action=accept");
    assert_eq!(
        pages.post(&id, None, body_text.as_bytes()).await.status,
        200
    );
    let answers = [("page0".to_owned(), json!({"action": "accept"}))].into();
    let mut call = engine
        .rounds(peer.clone(), binding.clone(), Some(&round.state), answers)
        .unwrap();
    let Err(Halt::InputRequired(next)) = body(&mut call).await else {
        panic!("the confirm")
    };
    assert!(
        !opened(&next.state).contains(SECRET),
        "{}",
        opened(&next.state)
    );
    assert!(
        opened(&next.state).contains(&id),
        "the state names the page"
    );
    let yes = json!({"action": "accept", "content": {"confirm": true}});
    let answers = [("ask1".to_owned(), yes)].into();
    let mut call = engine
        .rounds(peer, binding.clone(), Some(&next.state), answers)
        .unwrap();
    let said = body(&mut call).await.unwrap();
    // The tool reads the secret; its `Debug` shows none of it.
    assert!(
        said.starts_with(&format!("ann {} ", SECRET.len())),
        "{said}"
    );
    assert!(!said.contains(SECRET), "{said}");
}

#[tokio::test]
async fn in_a_task_a_secret_s_page_keeps_it_out_of_what_the_task_holds() {
    const SECRET: &str = "sk-live-0123456789";
    let engine = engine();
    let pages = engine.pages().unwrap();
    let body = format!("f.user=ann&f.key={SECRET}&action=accept");
    let body: &'static [u8] = Box::leak(body.into_bytes().into_boxed_slice());
    let person = Person::new(pages, b"f.user=ann&action=accept", body);
    let mut call = engine.push(url_client(Revision::V2026_07_28)).into_task();
    let answer = call
        .ask_on_page::<SignIn>(&person, "Your API key")
        .await
        .unwrap();
    let Elicitation::Accept(signed) = answer else {
        panic!("accepted")
    };
    use crate::ExposeSecret;
    assert_eq!(signed.key.expose_secret(), SECRET);
    // What the task carries to the client (and keeps in its record): the link only.
    let sent = person.sent.lock().unwrap();
    assert_eq!(sent.len(), 1);
    assert!(!sent[0].params.contains(SECRET) && !sent[0].to_string().contains(SECRET));
    assert!(!format!("{sent:?}").contains(SECRET));
}

#[tokio::test]
async fn claude_desktop_declares_forms_but_gets_its_forms_on_a_page() {
    let engine = engine();
    let pages = engine.pages().unwrap();
    let person = Person::new(
        pages,
        b"f.copies=0&action=accept",
        b"f.copies=5&action=accept",
    );
    let mut peer = Peer::new(
        Some(Revision::V2025_11_25),
        &json!({"elicitation": {"form": {}, "url": {}}}),
    );
    peer.name = Some("claude-ai".to_owned());
    let mut call = engine.push(peer.clone());
    let answer = call.ask::<Copies>(&person, "How many?").await.unwrap();
    assert_eq!(answer, Elicitation::Accept(Copies { copies: 5 }));
    let params: Value = serde_json::from_str(&person.sent.lock().unwrap()[0].params).unwrap();
    assert_eq!(params["mode"], "url");
    // Without pages, nothing changes: the form goes to the client.
    struct Declines(Mutex<Vec<Question>>);
    impl Transport for Declines {
        async fn send(&self, question: Question) -> Result<Value, AskError> {
            self.0.lock().unwrap().push(question);
            Ok(json!({"action": "decline"}))
        }
    }
    let client = Declines(Mutex::default());
    let plain = Engine::new(Keyring::generate());
    let mut call = plain.push(peer);
    let answer = call.ask::<Copies>(&client, "How many?").await.unwrap();
    assert_eq!(answer, Elicitation::Decline);
    let params: Value = serde_json::from_str(&client.0.lock().unwrap()[0].params).unwrap();
    assert_eq!(params["mode"], "form");
}
