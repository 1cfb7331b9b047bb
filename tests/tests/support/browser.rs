//! A headless Chromium of a test's own (Debian package `chromium`), driven over the
//! DevTools protocol, and the axe-core accessibility audit of the page it shows.
//!
//! [`Browser::for_test`] starts `/usr/bin/chromium` (or `$ELICIT_CHROMIUM`) headless on
//! a temporary profile, with a DevTools port of its own and no name resolved but
//! `127.0.0.1`, and kills it by its process id when dropped. Each operation acts as a
//! person does: a click is a mouse press and release at the element's centre (after
//! checking nothing covers it), typing is one key press per character into the focused
//! control, Tab, Space and Enter are key presses. Every wait has a deadline; a failure
//! panics with what was being done.
//!
//! The protocol is spoken here over a blocking WebSocket (`tungstenite`): the few
//! commands the tests need (`Target`, `Page.navigate`, `Input.dispatch*`,
//! `Runtime.evaluate`) fit in this file, where the crates made for it (`chromiumoxide`,
//! `headless_chrome`) compile the whole generated protocol into the test.
//!
//! [`Axe::for_test`] reads axe-core from `tests/browser/node_modules` (`npm ci` there);
//! [`Browser::audit`] injects it into the page through DevTools (which the page's
//! Content-Security-Policy does not govern) and runs the WCAG 2.x A and AA rules.
//!
//! Both panic when what they start or read is missing. The tests that call them carry
//! `#[cfg_attr(no_chromium, ignore = "...")]` (and `no_axe`): without Chromium or
//! axe-core the build script (`tests/programs.rs`) marks them ignored, unless `CI` or
//! `ELICIT_REQUIRE_BROWSER` is set (`.ci/run` sets the latter after installing both).
#![allow(dead_code)] // Each test binary that shares this module uses part of it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

/// How long Chromium may take to start and open its DevTools port.
const START_LIMIT: Duration = Duration::from_secs(20);
/// How long one command, or one navigation, may take.
const STEP_LIMIT: Duration = Duration::from_secs(10);
/// How long an accessibility audit of one page may take.
const AUDIT_LIMIT: Duration = Duration::from_secs(30);
/// How long Chromium may take to close when asked, before it is killed.
const CLOSE_LIMIT: Duration = Duration::from_secs(5);

/// The Chromium to start: `$ELICIT_CHROMIUM`, or Debian's `/usr/bin/chromium`.
fn executable() -> PathBuf {
    std::env::var_os("ELICIT_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// Whether this process runs as root (Chromium's sandbox refuses to run as root).
fn root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

/// What Chromium wrote to its standard error, the last lines of it, for a failure's
/// message.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<VecDeque<String>>>);

impl Log {
    fn push(&self, line: String) {
        let mut lines = self.0.lock().unwrap();
        if lines.len() == 40 {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    fn tail(&self) -> String {
        let lines = self.0.lock().unwrap();
        lines.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

/// The Chromium process and its profile: killed by its process id, and the profile
/// removed, when dropped (also when the start fails half-way).
struct Process {
    child: Child,
    profile: PathBuf,
    /// Gets the DevTools URL; disconnects when every process of the browser has closed
    /// its standard error (so has ended).
    said: mpsc::Receiver<String>,
    /// Whether the browser was asked to close: then it is given [`CLOSE_LIMIT`] to end
    /// its other processes before it is killed.
    closing: bool,
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.closing {
            let _ = self.said.recv_timeout(CLOSE_LIMIT);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A headless Chromium and one page (tab) in it, driven over DevTools; killed on drop.
pub struct Browser {
    socket: WebSocket<TcpStream>,
    /// The DevTools session of the page.
    session: String,
    next_id: u64,
    /// Events received while waiting for something else, oldest first.
    events: VecDeque<Value>,
    log: Log,
    /// Declared last: dropped after the socket is closed.
    process: Process,
}

impl Browser {
    /// For a test: a started browser showing a blank page. Panics when Chromium is not
    /// installed or does not start.
    pub fn for_test() -> Browser {
        let executable = executable();
        assert!(
            executable.is_file(),
            "chromium is not installed at {} (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)",
            executable.display()
        );
        Browser::start(&executable)
    }

    /// Starts `executable` headless on a new profile and opens a blank page.
    fn start(executable: &Path) -> Browser {
        static STARTED: AtomicU32 = AtomicU32::new(0);
        let profile = std::env::temp_dir().join(format!(
            "elicit-chromium-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        let mut command = Command::new(executable);
        command
            .arg("--headless=new")
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.display()))
            // Nothing but the test's own server: no name resolves but 127.0.0.1, and
            // none of the browser's own services are called.
            .arg("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
            .args([
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-default-apps",
                "--disable-extensions",
                "--disable-sync",
                "--disable-domain-reliability",
                "--disable-client-side-phishing-detection",
                "--disable-breakpad",
                "--no-pings",
                "--metrics-recording-only",
                "--password-store=basic",
                "--use-mock-keychain",
                "--mute-audio",
                // Containers have a small /dev/shm.
                "--disable-dev-shm-usage",
                "--window-size=1024,768",
            ]);
        if root() {
            // Chromium's sandbox refuses to run as root.
            command.arg("--no-sandbox");
        }
        let mut child = command
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", executable.display()));
        // The whole of standard error is read (a full pipe would stall the browser),
        // its last lines kept; the DevTools URL is sent on as soon as it is written.
        let stderr = child.stderr.take().expect("piped");
        let log = Log::default();
        let (tx, said) = mpsc::channel();
        let kept = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let _ = tx.send(url.trim().to_owned());
                }
                kept.push(line);
            }
        });
        let process = Process {
            child,
            profile,
            said,
            closing: false,
        };
        let url = process.said.recv_timeout(START_LIMIT).unwrap_or_else(|e| {
            panic!(
                "chromium did not open its DevTools port ({e}); it said:\n{}",
                log.tail()
            )
        });
        let mut browser = Browser {
            socket: connect(&url),
            session: String::new(),
            next_id: 0,
            events: VecDeque::new(),
            log,
            process,
        };
        let target = browser.call_on(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().expect("a target id").to_owned();
        let attached = browser.call_on(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        browser.call("Page.enable", json!({}));
        // A headless page is never the focused window: without this, focus and
        // `:focus-visible` would not follow the keyboard as in a window in front.
        browser.call(
            "Emulation.setFocusEmulationEnabled",
            json!({"enabled": true}),
        );
        browser
    }

    /// Sends a command to the page's session and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call_on(Some(&session), method, params)
    }

    /// Sends a command (to the browser, or to a session) and returns its result;
    /// panics on a protocol error or after [`STEP_LIMIT`].
    fn call_on(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.call_within(session, method, params, STEP_LIMIT)
    }

    fn call_within(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        limit: Duration,
    ) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .unwrap_or_else(|e| panic!("{method}: cannot send: {e}"));
        let deadline = Instant::now() + limit;
        loop {
            let message = self.receive(deadline, method);
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed: {error}");
                }
                return message["result"].clone();
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// The next message from the browser; panics at `deadline`.
    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                panic!(
                    "timed out waiting for {waiting_for}; chromium said:\n{}",
                    self.log.tail()
                );
            }
            self.socket
                .get_mut()
                .set_read_timeout(Some(left))
                .expect("a read timeout");
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return serde_json::from_str(text.as_str()).expect("DevTools sends JSON");
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!(
                    "DevTools connection failed waiting for {waiting_for}: {e}; chromium said:\n{}",
                    self.log.tail()
                ),
            }
        }
    }

    /// Waits for the page's event `method` (one received since the last action, or the
    /// next one); panics after [`STEP_LIMIT`].
    fn wait_for_event(&mut self, method: &str) -> Value {
        let mine = |event: &Value, session: &str| {
            event["method"] == method && event["sessionId"].as_str() == Some(session)
        };
        if let Some(at) = self.events.iter().position(|e| mine(e, &self.session)) {
            return self.events.remove(at).expect("found");
        }
        let deadline = Instant::now() + STEP_LIMIT;
        loop {
            let message = self.receive(deadline, method);
            if mine(&message, &self.session) {
                return message;
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// Runs `action`, which must make the page load a new document, and waits until
    /// that document has loaded.
    pub fn navigating<T>(&mut self, action: impl FnOnce(&mut Browser) -> T) -> T {
        self.events.clear();
        let done = action(self);
        self.wait_for_event("Page.loadEventFired");
        done
    }

    /// Opens `url` and waits until it has loaded.
    pub fn goto(&mut self, url: &str) {
        self.navigating(|b| {
            let result = b.call("Page.navigate", json!({"url": url}));
            if let Some(error) = result.get("errorText") {
                panic!("cannot open {url}: {error}");
            }
        });
    }

    /// The value of a script run in the page (awaited when it is a promise); panics when
    /// it throws. Only for reading the page and for the audit: the tests act through
    /// the mouse and keyboard.
    pub fn eval(&mut self, expression: &str) -> Value {
        self.eval_within(expression, STEP_LIMIT)
    }

    fn eval_within(&mut self, expression: &str, limit: Duration) -> Value {
        let session = self.session.clone();
        let result = self.call_within(
            Some(&session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            limit,
        );
        if let Some(exception) = result.get("exceptionDetails") {
            let what = exception["exception"]["description"]
                .as_str()
                .or_else(|| exception["text"].as_str())
                .unwrap_or_default();
            let shown: String = expression.chars().take(200).collect();
            panic!("the script `{shown}` threw: {what}");
        }
        result["result"]["value"].clone()
    }

    /// The visible text of the page.
    pub fn text(&mut self) -> String {
        self.eval("document.body.innerText")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The document's title.
    pub fn title(&mut self) -> String {
        self.eval("document.title")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The current address.
    pub fn url(&mut self) -> String {
        self.eval("location.href")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The attribute `name` of the element matching `selector` (`None` when it has no
    /// such attribute); panics when no element matches.
    pub fn attribute(&mut self, selector: &str, name: &str) -> Option<String> {
        let value = self.eval(&format!(
            "(() => {{ const e = {}; return e ? [e.getAttribute({})] : null; }})()",
            element(selector),
            json!(name)
        ));
        match value {
            Value::Array(mut one) => one.pop().and_then(|v| v.as_str().map(str::to_owned)),
            _ => panic!("no element matches {selector}"),
        }
    }

    /// The current value of the control matching `selector`.
    pub fn value(&mut self, selector: &str) -> String {
        self.property(selector, "value")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether the checkbox or radio matching `selector` is ticked.
    pub fn checked(&mut self, selector: &str) -> bool {
        self.property(selector, "checked") == json!(true)
    }

    /// The text of the element matching `selector`.
    pub fn text_of(&mut self, selector: &str) -> String {
        self.property(selector, "innerText")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether an element matches `selector`.
    pub fn exists(&mut self, selector: &str) -> bool {
        self.eval(&format!("{} !== null", element(selector))) == json!(true)
    }

    fn property(&mut self, selector: &str, name: &str) -> Value {
        let value = self.eval(&format!(
            "(() => {{ const e = {}; return e ? [e[{}]] : null; }})()",
            element(selector),
            json!(name)
        ));
        match value {
            Value::Array(mut one) => one.pop().unwrap_or_default(),
            _ => panic!("no element matches {selector}"),
        }
    }

    /// The `id` of the focused element (empty when it has none, or nothing is focused).
    pub fn focused(&mut self) -> String {
        self.eval("document.activeElement ? document.activeElement.id : ''")
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether the focused element matches `selector`.
    pub fn has_focus(&mut self, selector: &str) -> bool {
        self.eval(&Self::focus_script(selector)) == json!(true)
    }

    /// Whether the element matching `selector` gets the focus within [`STEP_LIMIT`]:
    /// a browser moves the focus to an `autofocus` element at a rendering update,
    /// which may come after the load event.
    pub fn gets_focus(&mut self, selector: &str) -> bool {
        let script = Self::focus_script(selector);
        let deadline = Instant::now() + STEP_LIMIT;
        loop {
            if self.eval(&script) == json!(true) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn focus_script(selector: &str) -> String {
        format!(
            "document.activeElement !== null && document.activeElement.matches({})",
            json!(selector)
        )
    }

    /// Waits until the script `condition` is true, checking every 20 ms; panics after
    /// [`STEP_LIMIT`].
    pub fn wait_until(&mut self, condition: &str) {
        let deadline = Instant::now() + STEP_LIMIT;
        while self.eval(condition) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting until {condition}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Clicks the element matching `selector` with the mouse, at its centre, after
    /// scrolling it into view; panics when it is missing or covered by another element
    /// (its own label may cover it).
    pub fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{
                const e = {};
                if (!e) return null;
                e.scrollIntoView({{block: 'center', inline: 'center'}});
                const r = e.getBoundingClientRect();
                const x = r.left + r.width / 2, y = r.top + r.height / 2;
                const hit = document.elementFromPoint(x, y);
                const mine = hit && (hit === e || e.contains(hit) || hit.control === e);
                return {{x, y, mine, hit: hit ? hit.outerHTML.slice(0, 120) : null}};
            }})()",
            element(selector)
        ));
        if at.is_null() {
            panic!("no element matches {selector}");
        }
        assert!(
            at["mine"] == json!(true),
            "{selector} is covered by {}",
            at["hit"]
        );
        let (x, y) = (at["x"].clone(), at["y"].clone());
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
            );
        }
    }

    /// Types `text` into the focused control, one key press per character.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let c = c.to_string();
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": "keyDown", "key": c, "text": c, "unmodifiedText": c}),
            );
            self.call("Input.dispatchKeyEvent", json!({"type": "keyUp", "key": c}));
        }
    }

    /// Clicks the control matching `selector`, deletes what it holds (End, then
    /// Backspace for each character) and types `text`.
    pub fn fill(&mut self, selector: &str, text: &str) {
        self.click(selector);
        let held = self.value(selector).chars().count();
        self.press(Key::End);
        for _ in 0..held {
            self.press(Key::Backspace);
        }
        assert_eq!(self.value(selector), "", "{selector} was not emptied");
        self.type_text(text);
    }

    /// Presses and releases `key`.
    pub fn press(&mut self, key: Key) {
        let (name, code, number, text) = key.describe();
        let mut event = json!({
            "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
            "key": name,
            "code": code,
            "windowsVirtualKeyCode": number,
            "nativeVirtualKeyCode": number,
        });
        if let Some(text) = text {
            event["text"] = json!(text);
            event["unmodifiedText"] = json!(text);
        }
        self.call("Input.dispatchKeyEvent", event.clone());
        event["type"] = json!("keyUp");
        if let Some(fields) = event.as_object_mut() {
            fields.remove("text");
            fields.remove("unmodifiedText");
        }
        self.call("Input.dispatchKeyEvent", event);
    }

    /// Runs axe-core's WCAG 2.x A and AA rules on the page.
    pub fn audit(&mut self, axe: &Axe) -> Audit {
        if self.eval("typeof axe") != json!("object") {
            self.eval_within(&axe.source, AUDIT_LIMIT);
        }
        let found = self.eval_within(
            "axe.run(document, {
                runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']},
                
            }).then(r => {
                const brief = v => ({
                    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
                    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html, summary: n.failureSummary})),
                });
                return {violations: r.violations.map(brief), incomplete: r.incomplete.map(brief), passes: r.passes.length};
            })",
            AUDIT_LIMIT,
        );
        let audit = Audit {
            violations: found["violations"].as_array().cloned().unwrap_or_default(),
            incomplete: found["incomplete"].as_array().cloned().unwrap_or_default(),
            passes: found["passes"].as_u64().unwrap_or_default(),
        };
        assert!(audit.passes > 0, "axe-core ran no rule: {found}");
        audit
    }

    /// Sets the cookie `name=value` for `url`'s site, as the server's own sign-in would
    /// have.
    pub fn set_cookie(&mut self, url: &str, name: &str, value: &str) {
        let set = self.call(
            "Network.setCookie",
            json!({"url": url, "name": name, "value": value}),
        );
        assert_ne!(
            set["success"],
            json!(false),
            "the cookie {name} was not set"
        );
    }

    /// Disables the browser's own checks of the form (`novalidate`), as a browser that
    /// does not check forms would send it: to reach the server's checks with an answer
    /// no control on the page lets through (a required choice left empty).
    pub fn skip_browser_validation(&mut self) {
        self.eval("document.querySelector('form').noValidate = true");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Asked to close, Chromium ends its other processes; killed, they notice alone.
        let close = json!({"id": 0, "method": "Browser.close"}).to_string();
        self.process.closing = self.socket.send(Message::text(close)).is_ok();
    }
}

/// Opens the DevTools WebSocket at `url` (`ws://127.0.0.1:PORT/devtools/browser/…`).
fn connect(url: &str) -> WebSocket<TcpStream> {
    let address = url
        .strip_prefix("ws://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("an unexpected DevTools URL: {url}"));
    let address = address
        .parse()
        .unwrap_or_else(|e| panic!("an unexpected DevTools address {address}: {e}"));
    let stream = TcpStream::connect_timeout(&address, STEP_LIMIT)
        .unwrap_or_else(|e| panic!("cannot reach DevTools at {url}: {e}"));
    stream
        .set_read_timeout(Some(STEP_LIMIT))
        .expect("a timeout");
    stream
        .set_write_timeout(Some(STEP_LIMIT))
        .expect("a timeout");
    let (socket, _) = tungstenite::client(url, stream)
        .unwrap_or_else(|e| panic!("the DevTools handshake with {url} failed: {e}"));
    socket
}

/// The script that finds the element matching `selector`.
fn element(selector: &str) -> String {
    format!("document.querySelector({})", json!(selector))
}

/// A key pressed on its own.
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Tab,
    Space,
    Enter,
    Backspace,
    End,
    ArrowDown,
}

impl Key {
    /// Its DOM `key` and `code`, Windows key code, and the text it types.
    fn describe(self) -> (&'static str, &'static str, u32, Option<&'static str>) {
        match self {
            Key::Tab => ("Tab", "Tab", 9, None),
            Key::Space => (" ", "Space", 32, Some(" ")),
            Key::Enter => ("Enter", "Enter", 13, Some("\r")),
            Key::Backspace => ("Backspace", "Backspace", 8, None),
            Key::End => ("End", "End", 35, None),
            Key::ArrowDown => ("ArrowDown", "ArrowDown", 40, None),
        }
    }
}

/// axe-core's script, from `tests/browser/node_modules` (`npm ci --prefix tests/browser`).
pub struct Axe {
    source: String,
}

impl Axe {
    /// For a test: the script. Panics when it is not installed.
    pub fn for_test() -> Axe {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("browser/node_modules/axe-core/axe.min.js");
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "axe-core is not installed at {} ({e}): run `npm ci --prefix tests/browser`",
                path.display()
            )
        });
        Axe { source }
    }
}

/// What an audit of one page found.
#[derive(Debug)]
pub struct Audit {
    /// Each rule the page breaks: `id`, `impact`, `help`, `helpUrl`, `nodes`.
    pub violations: Vec<Value>,
    /// Each rule axe could not decide alone (to review by hand).
    pub incomplete: Vec<Value>,
    /// How many rules the page passed.
    pub passes: u64,
}

impl Audit {
    /// The violations of `serious` or `critical` impact.
    pub fn serious(&self) -> Vec<&Value> {
        self.violations
            .iter()
            .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
            .collect()
    }

    /// Each violation, readably: rule, impact, help, and every element with what is
    /// wrong with it.
    pub fn describe(violations: &[&Value]) -> String {
        let mut out = String::new();
        for v in violations {
            out.push_str(&format!(
                "- {} ({}): {} <{}>\n",
                v["id"].as_str().unwrap_or("?"),
                v["impact"].as_str().unwrap_or("no impact"),
                v["help"].as_str().unwrap_or_default(),
                v["helpUrl"].as_str().unwrap_or_default(),
            ));
            for node in v["nodes"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "    at {}: {}\n      {}\n",
                    node["target"].as_str().unwrap_or_default(),
                    node["html"].as_str().unwrap_or_default(),
                    node["summary"]
                        .as_str()
                        .unwrap_or_default()
                        .replace('\n', "\n      "),
                ));
            }
        }
        out
    }
}
