//! A terminal [`Asker`]: every elicitation rendered with `inquire` widgets (or line
//! prompts when stdin is not a terminal), reviewed, and answered accept, decline or
//! cancel. The validation is the kit's, the same the server runs.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Mutex;

use elicit_core::client::{Asker, Question, Reply};
use elicit_core::{Action, Field, FieldKind, Form, Strictness};
use serde_json::{Map, Value};

/// What a prompt gives back: an answer, or Esc (cancel the whole form).
type Answer<T> = Option<T>;

/// The two ways to ask: `inquire` widgets on a terminal, plain lines otherwise.
pub trait Prompter {
    /// One of `options`; `None` on Esc.
    fn choose(&mut self, prompt: &str, options: &[String], start: usize) -> Answer<usize>;
    /// A line of text, checked by `check` before it is taken; `None` on Esc.
    fn text(
        &mut self,
        prompt: &str,
        help: &str,
        default: Option<&str>,
        check: &dyn Fn(&str) -> Result<(), String>,
    ) -> Answer<String>;
    /// Yes or no; `None` on Esc.
    fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool>;
    /// Several of `options`, checked by `check`; `None` on Esc.
    fn several(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        chosen: &[usize],
        check: &dyn Fn(&[usize]) -> Result<(), String>,
    ) -> Answer<Vec<usize>>;
    /// Shows a line of output.
    fn say(&mut self, line: &str);
}

/// `inquire` widgets.
pub struct Widgets;

/// Esc, Ctrl-C and a closed terminal all end the form as a cancel.
fn esc<T>(r: Result<T, inquire::InquireError>) -> Answer<T> {
    r.ok()
}

impl Prompter for Widgets {
    fn choose(&mut self, prompt: &str, options: &[String], start: usize) -> Answer<usize> {
        let labels: Vec<String> = options.to_vec();
        esc(inquire::Select::new(prompt, labels)
            .with_starting_cursor(start.min(options.len().saturating_sub(1)))
            .raw_prompt())
        .map(|o| o.index)
    }

    fn text(
        &mut self,
        prompt: &str,
        help: &str,
        default: Option<&str>,
        check: &dyn Fn(&str) -> Result<(), String>,
    ) -> Answer<String> {
        // `inquire` wants an owned validator; the check is run again on the result.
        let mut t = inquire::Text::new(prompt).with_help_message(help);
        if let Some(d) = default {
            t = t.with_initial_value(d);
        }
        loop {
            let answer = esc(t.clone().prompt())?;
            match check(&answer) {
                Ok(()) => return Some(answer),
                Err(e) => eprintln!("  ✗ {e}"),
            }
        }
    }

    fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool> {
        let mut c = inquire::Confirm::new(prompt).with_help_message(help);
        if let Some(d) = default {
            c = c.with_default(d);
        }
        esc(c.prompt())
    }

    fn several(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        chosen: &[usize],
        check: &dyn Fn(&[usize]) -> Result<(), String>,
    ) -> Answer<Vec<usize>> {
        loop {
            let picked = esc(inquire::MultiSelect::new(prompt, options.to_vec())
                .with_help_message(help)
                .with_default(chosen)
                .raw_prompt())?;
            let picked: Vec<usize> = picked.iter().map(|o| o.index).collect();
            match check(&picked) {
                Ok(()) => return Some(picked),
                Err(e) => eprintln!("  ✗ {e}"),
            }
        }
    }

    fn say(&mut self, line: &str) {
        println!("{line}");
    }
}

/// Line prompts on any reader (stdin when it is not a terminal): a number or a value
/// per choice, an empty line for the default, `esc` (or end of input) to cancel.
pub struct Lines<R> {
    input: R,
}

impl<R: BufRead> Lines<R> {
    /// Line prompts reading `input`.
    pub fn new(input: R) -> Lines<R> {
        Lines { input }
    }

    fn line(&mut self, prompt: &str) -> Answer<String> {
        print!("{prompt} ");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                (line.trim() != "esc").then_some(line)
            }
        }
    }
}

impl<R: BufRead> Prompter for Lines<R> {
    fn choose(&mut self, prompt: &str, options: &[String], start: usize) -> Answer<usize> {
        println!("{prompt}");
        for (i, o) in options.iter().enumerate() {
            println!("  {}) {o}", i + 1);
        }
        loop {
            let line = self.line(&format!("choose 1-{} [{}]:", options.len(), start + 1))?;
            let line = line.trim();
            if line.is_empty() {
                return Some(start);
            }
            if let Ok(n) = line.parse::<usize>()
                && (1..=options.len()).contains(&n)
            {
                return Some(n - 1);
            }
            if let Some(i) = options.iter().position(|o| o.eq_ignore_ascii_case(line)) {
                return Some(i);
            }
            println!("  ✗ not one of the choices");
        }
    }

    fn text(
        &mut self,
        prompt: &str,
        help: &str,
        default: Option<&str>,
        check: &dyn Fn(&str) -> Result<(), String>,
    ) -> Answer<String> {
        loop {
            let shown = match default {
                Some(d) => format!("{prompt} ({help}) [{d}]:"),
                None => format!("{prompt} ({help}):"),
            };
            let mut line = self.line(&shown)?;
            if line.is_empty()
                && let Some(d) = default
            {
                line = d.to_owned();
            }
            match check(&line) {
                Ok(()) => return Some(line),
                Err(e) => println!("  ✗ {e}"),
            }
        }
    }

    fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool> {
        let hint = match default {
            Some(true) => "Y/n",
            Some(false) => "y/N",
            None => "y/n",
        };
        loop {
            let line = self.line(&format!("{prompt} ({help}) [{hint}]:"))?;
            match line.trim().to_ascii_lowercase().as_str() {
                "" if default.is_some() => return default,
                "y" | "yes" | "true" => return Some(true),
                "n" | "no" | "false" => return Some(false),
                _ => println!("  ✗ answer y or n"),
            }
        }
    }

    fn several(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        chosen: &[usize],
        check: &dyn Fn(&[usize]) -> Result<(), String>,
    ) -> Answer<Vec<usize>> {
        println!("{prompt} ({help})");
        for (i, o) in options.iter().enumerate() {
            println!("  {}) {o}", i + 1);
        }
        loop {
            let shown: Vec<String> = chosen.iter().map(|i| (i + 1).to_string()).collect();
            let line = self.line(&format!(
                "numbers separated by commas [{}]:",
                shown.join(",")
            ))?;
            let picked: Result<Vec<usize>, ()> = if line.trim().is_empty() {
                Ok(chosen.to_vec())
            } else {
                line.split(',')
                    .map(|p| match p.trim().parse::<usize>() {
                        Ok(n) if (1..=options.len()).contains(&n) => Ok(n - 1),
                        _ => Err(()),
                    })
                    .collect()
            };
            match picked {
                Err(()) => println!("  ✗ numbers between 1 and {}", options.len()),
                Ok(p) => match check(&p) {
                    Ok(()) => return Some(p),
                    Err(e) => println!("  ✗ {e}"),
                },
            }
        }
    }

    fn say(&mut self, line: &str) {
        println!("{line}");
    }
}

/// The problems of one field's value, in the kit's words (other fields ignored).
fn check_field(form: &Form, name: &str, value: Value) -> Result<(), String> {
    let mut content = Map::new();
    content.insert(name.to_owned(), value);
    match form.validate(Some(&Value::Object(content)), Strictness::Strict) {
        Ok(_) => Ok(()),
        Err(elicit_core::AnswerError::Invalid(errors)) => {
            let mine: Vec<String> = errors
                .for_field(name)
                .map(|e| e.problem().to_string())
                .collect();
            if mine.is_empty() {
                Ok(())
            } else {
                Err(mine.join("; "))
            }
        }
        Err(e) => Err(e.to_string()),
    }
}

/// What to show next to a field: its kind, limits and whether it may stay empty.
fn hint(field: &Field) -> String {
    let mut parts = Vec::new();
    match field.kind() {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            parts.push(match format {
                Some(f) => format!("{f}"),
                None => "text".to_owned(),
            });
            match (min_length, max_length) {
                (Some(a), Some(b)) => parts.push(format!("{a}-{b} characters")),
                (Some(a), None) => parts.push(format!("at least {a} characters")),
                (None, Some(b)) => parts.push(format!("at most {b} characters")),
                (None, None) => {}
            }
        }
        FieldKind::Integer {
            minimum, maximum, ..
        } => {
            parts.push("whole number".to_owned());
            bounds(
                &mut parts,
                minimum.map(|m| m.to_string()),
                maximum.map(|m| m.to_string()),
            );
        }
        FieldKind::Number {
            minimum, maximum, ..
        } => {
            parts.push("number".to_owned());
            bounds(
                &mut parts,
                minimum.map(|m| m.to_string()),
                maximum.map(|m| m.to_string()),
            );
        }
        FieldKind::Boolean { .. } => parts.push("yes/no".to_owned()),
        FieldKind::Select { .. } => parts.push("one choice".to_owned()),
        FieldKind::MultiSelect {
            min_items,
            max_items,
            ..
        } => {
            parts.push("several choices".to_owned());
            bounds(
                &mut parts,
                min_items.map(|m| m.to_string()),
                max_items.map(|m| m.to_string()),
            );
        }
        // A kind this client does not know yet: its type says enough.
        _ => {}
    }
    if !field.required() {
        parts.push("optional".to_owned());
    }
    if let Some(d) = field.description() {
        parts.push(d.to_string());
    }
    parts.join(", ")
}

fn bounds(parts: &mut Vec<String>, lo: Option<String>, hi: Option<String>) {
    match (lo, hi) {
        (Some(a), Some(b)) => parts.push(format!("{a} to {b}")),
        (Some(a), None) => parts.push(format!("at least {a}")),
        (None, Some(b)) => parts.push(format!("at most {b}")),
        (None, None) => {}
    }
}

/// A field's value as shown on the review screen.
fn shown(field: &Field, value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "—".to_owned();
    };
    let label = |v: &str| {
        field
            .kind()
            .options()
            .and_then(|o| o.iter().find(|c| c.value() == v))
            .map_or_else(|| v.to_owned(), |c| c.label().to_owned())
    };
    match value {
        Value::String(s) => label(s),
        Value::Array(items) => items
            .iter()
            .map(|i| label(i.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        other => other.to_string(),
    }
}

/// The value already given or pre-filled for `field`.
fn current(field: &Field, answers: &Map<String, Value>) -> Option<Value> {
    answers
        .get(field.name())
        .cloned()
        .or_else(|| field.kind().default_value())
}

/// Asks one field; `Ok(None)` leaves it empty; `Err(())` is Esc.
fn ask_field(
    p: &mut dyn Prompter,
    form: &Form,
    field: &Field,
    now: Option<Value>,
) -> Result<Option<Value>, ()> {
    let label = field.label();
    let help = hint(field);
    let name = field.name();
    let optional = !field.required();
    match field.kind() {
        FieldKind::Boolean { .. } => {
            let d = now.as_ref().and_then(Value::as_bool);
            p.confirm(label, &help, d)
                .map(|b| Some(Value::Bool(b)))
                .ok_or(())
        }
        FieldKind::Select { options, .. } => {
            let mut labels: Vec<String> = options.iter().map(|c| c.label().to_owned()).collect();
            if optional {
                labels.push("(leave empty)".to_owned());
            }
            let start = now
                .as_ref()
                .and_then(Value::as_str)
                .and_then(|v| options.iter().position(|c| c.value() == v))
                .unwrap_or(0);
            let i = p
                .choose(&format!("{label} ({help})"), &labels, start)
                .ok_or(())?;
            Ok(options.get(i).map(|c| Value::from(c.value())))
        }
        FieldKind::MultiSelect { options, .. } => {
            let labels: Vec<String> = options.iter().map(|c| c.label().to_owned()).collect();
            let chosen: Vec<usize> = now
                .as_ref()
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| options.iter().position(|c| Some(c.value()) == v.as_str()))
                        .collect()
                })
                .unwrap_or_default();
            let to_value = |picked: &[usize]| {
                Value::Array(
                    picked
                        .iter()
                        .map(|i| Value::from(options[*i].value()))
                        .collect(),
                )
            };
            let check = |picked: &[usize]| check_field(form, name, to_value(picked));
            let picked = p
                .several(label, &help, &labels, &chosen, &check)
                .ok_or(())?;
            Ok(Some(to_value(&picked)))
        }
        kind => {
            let number = !matches!(kind, FieldKind::String { .. });
            let parse = |s: &str| -> Value {
                if number {
                    serde_json::from_str::<serde_json::Number>(s.trim())
                        .map(Value::Number)
                        .unwrap_or_else(|_| Value::from(s))
                } else {
                    Value::from(s)
                }
            };
            let check = |s: &str| {
                if s.is_empty() {
                    return if optional {
                        Ok(())
                    } else {
                        Err("an answer is required".to_owned())
                    };
                }
                check_field(form, name, parse(s))
            };
            let default = now.map(|v| match v {
                Value::String(s) => s,
                other => other.to_string(),
            });
            let s = p.text(label, &help, default.as_deref(), &check).ok_or(())?;
            Ok((!s.is_empty()).then(|| parse(&s)))
        }
    }
}

/// Fills `form` through `p`: answer, decline or cancel first; every field (defaults
/// pre-filled, inline problems); then a review where any answer can be changed.
pub fn fill(p: &mut dyn Prompter, question: Question<'_>) -> Reply {
    let form = question.form;
    p.say("");
    p.say(&format!(
        "── {} asks ──",
        question.server.unwrap_or("the server")
    ));
    p.say(question.message);
    let first = [
        "Answer".to_owned(),
        "Decline".to_owned(),
        "Cancel".to_owned(),
    ];
    match p.choose("What do you want to do?", &first, 0) {
        Some(0) => {}
        Some(1) => return Reply::Decline,
        _ => return Reply::Cancel,
    }
    let mut answers = Map::new();
    for field in form.fields() {
        match ask_field(p, form, field, current(field, &answers)) {
            Err(()) => return Reply::Cancel,
            Ok(Some(v)) => {
                answers.insert(field.name().to_string(), v);
            }
            Ok(None) => {}
        }
    }
    loop {
        p.say("");
        p.say("Your answers:");
        for field in form.fields() {
            p.say(&format!(
                "  {}: {}",
                field.label(),
                shown(field, answers.get(field.name()))
            ));
        }
        let mut menu = vec!["Submit".to_owned()];
        menu.extend(
            form.fields()
                .iter()
                .map(|f| format!("Change {}", f.label())),
        );
        menu.push("Decline".to_owned());
        menu.push("Cancel".to_owned());
        let decline = menu.len() - 2;
        match p.choose("Review", &menu, 0) {
            None => return Reply::Cancel,
            Some(0) => match Reply::accept(form, Value::Object(answers.clone())) {
                Ok(reply) => return reply,
                Err(e) => p.say(&format!("  ✗ {e}")),
            },
            Some(i) if i == decline => return Reply::Decline,
            Some(i) if i > decline => return Reply::Cancel,
            Some(i) => {
                let field = &form.fields()[i - 1];
                match ask_field(p, form, field, current(field, &answers)) {
                    Err(()) => return Reply::Cancel,
                    Ok(Some(v)) => {
                        answers.insert(field.name().to_string(), v);
                    }
                    Ok(None) => {
                        answers.remove(field.name());
                    }
                }
            }
        }
    }
}

/// The terminal [`Asker`]: widgets on a terminal, line prompts otherwise.
pub struct Terminal {
    lock: Mutex<()>,
    widgets: bool,
}

impl Terminal {
    /// Widgets when stdin and stdout are terminals, else line prompts.
    pub fn new() -> Terminal {
        Terminal {
            lock: Mutex::new(()),
            widgets: interactive(),
        }
    }

    /// Runs `f` with the prompter, one question at a time.
    pub fn with<T>(&self, f: impl FnOnce(&mut dyn Prompter) -> T) -> T {
        let _one_at_a_time = self.lock.lock();
        with_prompter(self.widgets, f)
    }
}

/// Whether stdin and stdout are both terminals (widgets), or not (line prompts).
pub fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Runs `f` with `inquire` widgets, or with line prompts on stdin.
pub fn with_prompter<T>(widgets: bool, f: impl FnOnce(&mut dyn Prompter) -> T) -> T {
    if widgets {
        f(&mut Widgets)
    } else {
        f(&mut Lines::new(std::io::stdin().lock()))
    }
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

impl Asker for Terminal {
    async fn ask(&self, question: Question<'_>) -> Reply {
        // The prompts block: `block_in_place` keeps them off the runtime's other tasks.
        tokio::task::block_in_place(|| self.with(|p| fill(p, question)))
    }

    async fn ask_url(&self, server: Option<&str>, message: &str, url: &str) -> Action {
        let text = format!(
            "── {} asks you to open a page ──\n{message}\n{url}",
            server.unwrap_or("the server")
        );
        let options = [
            "Open it (I will go there)".to_owned(),
            "Decline".to_owned(),
            "Cancel".to_owned(),
        ];
        let choice = tokio::task::block_in_place(|| {
            self.with(|p| {
                p.say(&text);
                p.choose("What do you want to do?", &options, 0)
            })
        });
        match choice {
            Some(0) => Action::Accept,
            Some(1) => Action::Decline,
            _ => Action::Cancel,
        }
    }
}
