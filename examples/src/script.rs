//! Scripted answers: the unattended client, for tests and automation.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use elicit_core::Action;
use elicit_core::client::{Asker, Question, Reply};

/// One scripted answer: which form it is for, and what to answer. Its JSON form is
/// described on [`Script`].
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptEntry {
    /// Matches a form whose message contains this text.
    #[serde(default)]
    message: Option<String>,
    /// Matches a form with exactly these fields (any order).
    #[serde(default)]
    fields: Option<Vec<String>>,
    /// `accept`, `decline` or `cancel`.
    action: String,
    /// The answers of an accept (defaults fill the rest).
    #[serde(default)]
    content: Map<String, Value>,
}

impl ScriptEntry {
    fn matches(&self, question: &Question<'_>) -> bool {
        let message_ok = self
            .message
            .as_deref()
            .is_none_or(|m| question.message.contains(m));
        let fields_ok = self.fields.as_ref().is_none_or(|names| {
            names.len() == question.form.fields().len()
                && names.iter().all(|n| question.form.field(n).is_some())
        });
        message_ok && fields_ok && (self.message.is_some() || self.fields.is_some())
    }
}

/// Why a script cannot be used.
#[derive(Debug)]
pub struct ScriptError(String);

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

/// Answers forms from a script, in order — the unattended equivalent of Claude Code's
/// Elicitation hook. Each entry answers the first form it matches (by message text
/// and/or exact field names) and is used once.
///
/// It never accepts a form nobody scripted: a form no entry matches is **cancelled**,
/// and so is an accept whose content the form refuses. [`events`](Self::events) says
/// what happened to each form.
///
/// A script is a JSON list of entries, read with `parse` (its [`FromStr`]) or
/// [`from_file`](Self::from_file). An entry has:
///
/// - `message` (text the form's message contains) and/or `fields` (exactly these field
///   names, in any order): which form it answers; at least one of the two;
/// - `action`: `accept`, `decline` or `cancel`;
/// - `content`: the answers of an accept (defaults fill the rest).
///
/// ```
/// use elicit_core::client::{Asker, Question, Reply, read_schema};
/// use elicit_examples::script::Script;
///
/// let script: Script = r#"[
///     {"fields": ["seat"], "action": "accept", "content": {"seat": "A2"}},
///     {"message": "popcorn", "action": "decline"}
/// ]"#.parse()?;
/// let form = read_schema(r#"{"type": "object",
///     "properties": {"seat": {"type": "string", "enum": ["A1", "A2"]}}}"#)?;
/// let ask = |message| Question { server: Some("ticket-booking"), message, form: &form };
/// # tokio_test_block_on(async {
/// assert!(matches!(script.ask(ask("Pick a seat")).await, Reply::Accept(_)));
/// // Used up: the same form again is not auto-accepted.
/// assert_eq!(script.ask(ask("Pick a seat")).await, Reply::Cancel);
/// # });
/// # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let waker = std::task::Waker::noop();
/// #     let mut cx = std::task::Context::from_waker(&waker);
/// #     let mut f = std::pin::pin!(f);
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Script {
    entries: std::sync::Mutex<Vec<Option<ScriptEntry>>>,
    events: std::sync::Mutex<Vec<String>>,
}

impl Script {
    /// A script of these entries.
    fn new(entries: Vec<ScriptEntry>) -> Result<Script, ScriptError> {
        for (i, e) in entries.iter().enumerate() {
            e.action
                .parse::<Action>()
                .map_err(|err| ScriptError(format!("entry {}: {err}", i + 1)))?;
            if e.message.is_none() && e.fields.is_none() {
                return Err(ScriptError(format!(
                    "entry {}: say which form it answers (`message` and/or `fields`)",
                    i + 1
                )));
            }
        }
        Ok(Script {
            entries: std::sync::Mutex::new(entries.into_iter().map(Some).collect()),
            events: std::sync::Mutex::default(),
        })
    }

    /// A script from a JSON file (the text [`Script`] describes).
    pub fn from_file(path: &std::path::Path) -> Result<Script, ScriptError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScriptError(format!("cannot read {}: {e}", path.display())))?;
        text.parse()
    }

    /// What happened to each form asked so far, in order.
    pub fn events(&self) -> Vec<String> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// Entries no form has used.
    pub fn unused(&self) -> usize {
        self.entries
            .lock()
            .map(|e| e.iter().filter(|e| e.is_some()).count())
            .unwrap_or(0)
    }

    fn answer(&self, question: Question<'_>) -> Reply {
        let entry = self.entries.lock().ok().and_then(|mut entries| {
            entries
                .iter_mut()
                .find(|e| e.as_ref().is_some_and(|e| e.matches(&question)))
                .and_then(Option::take)
        });
        let (reply, event) = match entry {
            None => (
                Reply::Cancel,
                format!(
                    "cancelled {:?}: no script entry for this form",
                    question.message
                ),
            ),
            Some(e) => match e.action.parse::<Action>() {
                Ok(Action::Accept) => {
                    match Reply::validated(question.form, Value::Object(e.content)) {
                        Ok(reply) => (reply, format!("accepted {:?}", question.message)),
                        Err(err) => (
                            Reply::Cancel,
                            format!(
                                "cancelled {:?}: the scripted answer does not fit the form ({err})",
                                question.message
                            ),
                        ),
                    }
                }
                Ok(Action::Decline) => (Reply::Decline, format!("declined {:?}", question.message)),
                _ => (Reply::Cancel, format!("cancelled {:?}", question.message)),
            },
        };
        if let Ok(mut events) = self.events.lock() {
            events.push(event);
        }
        reply
    }
}

/// A script from its JSON text, a list of entries (see [`Script`]).
impl FromStr for Script {
    type Err = ScriptError;

    fn from_str(text: &str) -> Result<Script, ScriptError> {
        let entries: Vec<ScriptEntry> = serde_json::from_str(text)
            .map_err(|e| ScriptError(format!("not a script (a JSON list of entries): {e}")))?;
        Script::new(entries)
    }
}

impl Asker for Script {
    fn ask(&self, question: Question<'_>) -> impl std::future::Future<Output = Reply> + Send {
        std::future::ready(self.answer(question))
    }
}
