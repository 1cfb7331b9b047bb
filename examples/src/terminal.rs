//! A terminal [`Asker`]: every elicitation rendered with `inquire` widgets (or line
//! prompts when stdin is not a terminal), one prompt per field, and answered accept,
//! decline or cancel. The validation is the kit's, the same the server runs.
//!
//! A form can be declined or cancelled at any of its prompts, nothing filled in first: a
//! form whose only field is a choice lists Decline among its choices, and Esc cancels it;
//! in any other form Esc opens a menu to decline it, cancel it or go back ([`fill`]).
//! Where the form has no default, no choice is made for the user: a list opens on the
//! client's own "(leave empty)" (optional) or "(choose one)" (required, where Enter is
//! refused). A filter that matches none of a list's choices says so.
//!
//! Every string a server sends — its name, message, field titles and descriptions,
//! option titles, defaults, the URL of a page — goes through
//! [`elicit_core::client::safe_text`] before it is printed: the prompters
//! clean what they are given, so no caller can forget. Only a server's message keeps its
//! line breaks, every line of it behind `│ `; anything else of the server's that is placed
//! in a line of the client's (a prompt, a help text, a choice, a review line) is kept on
//! that one line by [`one_line`], a line break shown as `␤`, so that no server text can
//! draw lines that pass for the client's own. In a list of choices every one of the
//! server's is behind the same `│ ` ([`server_choice`]) and none of the client's own
//! (Decline, Submit, Cancel, …) is, so no option can pass for the client's own whatever
//! its title; and one that reads like them ([`looks_own`]) never starts under the cursor.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Mutex;

use elicit_core::client::{Asker, Question, Reply, safe_text};
use elicit_core::{Action, Choice, Field, FieldKind, Form, Strictness};
use serde_json::{Map, Value};

/// How the user left a prompt without answering it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Esc (or Ctrl-D), or `esc` on a line prompt: dismiss the form, or, in a form whose
    /// choices do not list Decline, ask whether to decline or cancel it ([`fill`]).
    Cancel,
    /// The form's Decline choice, or `decline` on a line prompt: say no to the form.
    Decline,
    /// Ctrl-C on a widget: quit the client, as Ctrl-C quits any command-line program.
    Quit,
    /// The terminal is gone (closed, or no terminal after all): the form is cancelled.
    Closed,
}

/// What a prompt gives back: an answer, or how the user left it.
pub type Answer<T> = Result<T, End>;

/// The reply of a form left with `end` (Ctrl-C quits the client here).
fn ended(end: End) -> Reply {
    match end {
        End::Cancel | End::Closed => Reply::Cancel,
        End::Decline => Reply::Decline,
        End::Quit => quit(),
    }
}

/// Leaves the client at once, as Ctrl-C does (exit status 130, as after SIGINT): the
/// server sees the connection close, as with any client that quits.
///
/// The message goes on a line of its own, after a line feed: a widget left by Ctrl-C
/// puts the cursor back under its last line (its help) only by moving it down, which
/// stops at the screen's last line, so at the bottom of the screen the cursor is still
/// at the start of the help line, and the message would be written over it.
pub fn quit() -> ! {
    eprintln!("\nQuit (Ctrl-C).");
    std::process::exit(130)
}

/// The two ways to ask: `inquire` widgets on a terminal, plain lines otherwise. Every
/// text given to a prompter is shown through [`safe_text`]; all but the lines of
/// [`Prompter::say`] are kept on one line each, through [`one_line`].
pub trait Prompter {
    /// How to decline and cancel, in words to show under a form's message: `listed` when
    /// Decline is among the form's choices (Esc then cancels at once), else Esc offers it.
    fn keys(&self, listed: bool) -> &'static str;
    /// Whether a form can be declined by typing (`decline` on a line prompt), so that a
    /// one-field form needs no review screen to offer it.
    fn typed_decline(&self) -> bool {
        false
    }
    /// One of `options`, the cursor starting on `start`; `help` (the widget's own when
    /// empty) says how to choose.
    fn choose(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        start: usize,
    ) -> Answer<usize>;
    /// A line of text, checked by `check` before it is taken.
    fn text(
        &mut self,
        prompt: &str,
        help: &str,
        default: Option<&str>,
        check: &dyn Fn(&str) -> Result<(), String>,
    ) -> Answer<String>;
    /// Yes or no.
    fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool>;
    /// Several of `options`, checked by `check`.
    fn several(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        chosen: &[usize],
        check: &dyn Fn(&[usize]) -> Result<(), String>,
    ) -> Answer<Vec<usize>>;
    /// Shows a line of output (line breaks in it are kept: a caller puts a server's text
    /// in it through [`one_line`] or behind a mark on every line).
    fn say(&mut self, line: &str);
}

/// `inquire` widgets.
pub struct Widgets;

/// Ctrl-C quits; Esc and Ctrl-D cancel; a closed terminal (any other error) is closed.
fn esc<T>(r: Result<T, inquire::InquireError>) -> Answer<T> {
    r.map_err(|e| match e {
        inquire::InquireError::OperationInterrupted => End::Quit,
        inquire::InquireError::OperationCanceled => End::Cancel,
        _ => End::Closed,
    })
}

/// What a list of choices shows, alone, when what was typed to filter it matches none of
/// them (Enter on it asks again, with what was typed).
const NO_MATCH: &str = "(no choice matches what you typed: Backspace to change it)";

/// What a list answered with [`NO_MATCH`] shows as its answer, before it asks again.
const NOTHING_TAKEN: &str = "(nothing matched)";

/// The filter of a list of choices followed by [`NO_MATCH`] (at `none`): `inquire`'s
/// own matching for the choices, and the message only when none of them matches. The
/// choices are scored in order, from the first, each time what was typed changes.
struct Filter {
    none: usize,
    matched: std::cell::Cell<bool>,
    typed: std::cell::RefCell<String>,
}

impl Filter {
    /// The list shown for `options` (each cleaned, then [`NO_MATCH`]) and its filter.
    fn over(options: &[String]) -> (Vec<String>, Filter) {
        let mut shown = cleaned(options);
        let filter = Filter {
            none: shown.len(),
            matched: std::cell::Cell::new(false),
            typed: std::cell::RefCell::new(String::new()),
        };
        shown.push(NO_MATCH.to_owned());
        (shown, filter)
    }

    /// The score of choice `i` (`None` hides it) for `input`.
    fn score(&self, input: &str, option: &String, text: &str, i: usize) -> Option<i64> {
        if i == self.none {
            return (!self.matched.get()).then_some(0);
        }
        if i == 0 {
            self.matched.set(false);
            input.clone_into(&mut self.typed.borrow_mut());
        }
        let score = inquire::Select::<String>::DEFAULT_SCORER(input, option, text, i);
        if score.is_some() {
            self.matched.set(true);
        }
        score
    }

    /// What was last typed to filter the list.
    fn typed(&self) -> String {
        self.typed.borrow().clone()
    }
}

/// `texts` cleaned for the terminal, each on one line.
fn cleaned(texts: &[String]) -> Vec<String> {
    texts.iter().map(|t| one_line(t)).collect()
}

impl Prompter for Widgets {
    fn keys(&self, listed: bool) -> &'static str {
        if listed {
            "(Esc cancels the form, Ctrl-C quits; Decline is among the choices)"
        } else {
            "(Esc at any prompt to decline or cancel the form, Ctrl-C quits)"
        }
    }

    fn choose(
        &mut self,
        prompt: &str,
        help: &str,
        options: &[String],
        start: usize,
    ) -> Answer<usize> {
        let (prompt, help) = (one_line(prompt), one_line(help));
        // The choices, then [`NO_MATCH`], shown alone when the filter matches none.
        let (shown, filter) = Filter::over(options);
        let none = filter.none;
        let scorer = |input: &str, option: &String, text: &str, i: usize| {
            filter.score(input, option, text, i)
        };
        // Enter on the message takes nothing: it asks again, with what was typed.
        let echo = |o: inquire::list_option::ListOption<&String>| {
            if o.index == none {
                NOTHING_TAKEN.to_owned()
            } else {
                o.value.clone()
            }
        };
        let start = start.min(none.saturating_sub(1));
        let mut typed = String::new();
        loop {
            let mut select = inquire::Select::new(&prompt, shown.clone())
                .with_starting_cursor(start)
                .with_scorer(&scorer)
                .with_formatter(&echo)
                // The list without the message differs from the one `inquire` starts
                // with, which would put the cursor back on the first choice: only a
                // cursor that starts there may go back to the top as the filter changes.
                .with_reset_cursor(start == 0);
            if !help.is_empty() {
                select = select.with_help_message(&help);
            }
            if !typed.is_empty() {
                select = select.with_starting_filter_input(&typed);
            }
            let picked = esc(select.raw_prompt())?;
            if picked.index != none {
                return Ok(picked.index);
            }
            typed = filter.typed();
        }
    }

    fn text(
        &mut self,
        prompt: &str,
        help: &str,
        default: Option<&str>,
        check: &dyn Fn(&str) -> Result<(), String>,
    ) -> Answer<String> {
        // `inquire` wants an owned validator; the check is run on the result instead.
        let (prompt, help) = (one_line(prompt), one_line(help));
        let default = default.map(one_line);
        // A refused answer comes back as typed, to be mended rather than typed again.
        let mut typed: Option<String> = None;
        loop {
            let mut t = inquire::Text::new(&prompt).with_help_message(&help);
            if let Some(start) = typed.as_deref().or(default.as_deref()) {
                t = t.with_initial_value(start);
            }
            let answer = esc(t.prompt())?;
            match check(&answer) {
                Ok(()) => return Ok(answer),
                Err(e) => {
                    eprintln!("  ✗ {}", one_line(&e));
                    typed = Some(answer);
                }
            }
        }
    }

    fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool> {
        let (prompt, help) = (one_line(prompt), one_line(help));
        let mut c = inquire::Confirm::new(&prompt).with_help_message(&help);
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
        let (prompt, help) = (one_line(prompt), one_line(help));
        // The choices, then [`NO_MATCH`], shown alone when the filter matches none (and
        // never taken, even ticked).
        let (shown, filter) = Filter::over(options);
        let none = filter.none;
        let scorer = |input: &str, option: &String, text: &str, i: usize| {
            filter.score(input, option, text, i)
        };
        let echo = |picked: &[inquire::list_option::ListOption<&String>]| {
            let picked: Vec<&str> = picked
                .iter()
                .filter(|o| o.index != none)
                .map(|o| o.value.as_str())
                .collect();
            picked.join(", ")
        };
        loop {
            let picked = esc(inquire::MultiSelect::new(&prompt, shown.clone())
                .with_help_message(&help)
                .with_default(chosen)
                .with_scorer(&scorer)
                .with_formatter(&echo)
                .raw_prompt())?;
            let picked: Vec<usize> = picked
                .iter()
                .map(|o| o.index)
                .filter(|i| *i != none)
                .collect();
            match check(&picked) {
                Ok(()) => return Ok(picked),
                Err(e) => eprintln!("  ✗ {}", one_line(&e)),
            }
        }
    }

    fn say(&mut self, line: &str) {
        println!("{}", safe_text(line));
    }
}

/// Line prompts on any reader (stdin when it is not a terminal): a number or a value
/// per choice, an empty line for the default, `esc` (or end of input) to cancel,
/// `decline` to decline.
pub struct Lines<R> {
    input: R,
}

impl<R: BufRead> Lines<R> {
    /// Line prompts reading `input`.
    pub fn new(input: R) -> Lines<R> {
        Lines { input }
    }

    fn line(&mut self, prompt: &str) -> Answer<String> {
        print!("{} ", one_line(prompt));
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => Err(End::Closed),
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                match line.trim() {
                    "esc" => Err(End::Cancel),
                    "decline" => Err(End::Decline),
                    _ => Ok(line),
                }
            }
        }
    }
}

impl<R: BufRead> Prompter for Lines<R> {
    fn keys(&self, _listed: bool) -> &'static str {
        "(type esc to cancel, decline to decline)"
    }

    fn typed_decline(&self) -> bool {
        true
    }

    fn choose(
        &mut self,
        prompt: &str,
        _help: &str,
        options: &[String],
        start: usize,
    ) -> Answer<usize> {
        let options = cleaned(options);
        println!("{}", one_line(prompt));
        for (i, o) in options.iter().enumerate() {
            println!("  {}) {o}", i + 1);
        }
        loop {
            let line = self.line(&format!("choose 1-{} [{}]:", options.len(), start + 1))?;
            let line = line.trim();
            if line.is_empty() {
                return Ok(start);
            }
            if let Ok(n) = line.parse::<usize>()
                && (1..=options.len()).contains(&n)
            {
                return Ok(n - 1);
            }
            // The client's own entry first, then a server's by its text behind the mark.
            let typed = |o: &str| o.eq_ignore_ascii_case(line);
            if let Some(i) = options.iter().position(|o| typed(o)).or_else(|| {
                options
                    .iter()
                    .position(|o| o.strip_prefix(SERVER_MARK).is_some_and(typed))
            }) {
                return Ok(i);
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
                Ok(()) => return Ok(line),
                Err(e) => println!("  ✗ {}", one_line(&e)),
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
                "" if default.is_some() => return default.ok_or(End::Cancel),
                "y" | "yes" | "true" => return Ok(true),
                "n" | "no" | "false" => return Ok(false),
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
        println!("{}", one_line(&format!("{prompt} ({help})")));
        for (i, o) in cleaned(options).iter().enumerate() {
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
                    Ok(()) => return Ok(p),
                    Err(e) => println!("  ✗ {}", one_line(&e)),
                },
            }
        }
    }

    fn say(&mut self, line: &str) {
        println!("{}", safe_text(line));
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
                .errors()
                .iter()
                .filter(|e| e.field == name)
                .map(|e| e.problem.to_string())
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
    match field.kind {
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
    if !field.required {
        parts.push("optional".to_owned());
    }
    if let Some(d) = field.description.as_deref() {
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
            .kind
            .options()
            .and_then(|o| o.iter().find(|c| c.value == v))
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
        .get(field.name.as_ref())
        .cloned()
        .or_else(|| field.kind.default_value())
}

/// The choice that declines a form whose only field is a choice.
const DECLINE: &str = "✗ Decline this form";

/// The client's own entry that leaves an optional choice empty: the first of its list,
/// where the cursor starts unless the form has a default.
const LEAVE_EMPTY: &str = "(leave empty)";

/// The client's own entry where the cursor of a required choice without a default starts,
/// first in its list: Enter on it is refused, as nothing is chosen for the user.
const CHOOSE_ONE: &str = "(choose one)";

/// The help under a list whose cursor starts on [`LEAVE_EMPTY`] or [`CHOOSE_ONE`].
const NOTHING_CHOSEN: &str =
    "↑↓ to move, enter to select, type to filter; nothing is chosen for you";

/// What is said when Enter is pressed on [`CHOOSE_ONE`].
const CHOOSE_FIRST: &str = "  ✗ an answer is required: move to one of the choices, then Enter";

/// The mark before every one of a server's choices in a list, as before every line of its
/// message: none of the client's own entries starts with it.
pub const SERVER_MARK: &str = "│ ";

/// A server's text as a choice in a list: on one line, behind [`SERVER_MARK`], so that it
/// never reads exactly as one of the client's own entries, whatever it says.
pub fn server_choice(text: &str) -> String {
    format!("{SERVER_MARK}{}", one_line(text))
}

/// The beginnings of the words of the client's own entries that a server's choice may
/// imitate: Decline (and "✗ Decline this form"), Cancel, Submit, Quit; "leave empty" and
/// "choose one" are looked for as two words ([`OWN_PAIRS`]).
const OWN_WORDS: [&str; 4] = ["declin", "cancel", "submit", "quit"];

/// The client's own entries of two words: [`LEAVE_EMPTY`] and [`CHOOSE_ONE`].
const OWN_PAIRS: [[&str; 2]; 2] = [["leave", "empty"], ["choose", "one"]];

/// Whether a server's `text` reads like one of the client's own entries (Decline, Cancel,
/// Submit, Quit, "(leave empty)", "(choose one)"): one of its words as shown begins like
/// one of theirs once its letters are folded, so that case, accents, fullwidth or
/// mathematical letters, and Cyrillic or Greek letters that look Latin make no
/// difference. Such a choice never starts under the cursor. The mark of
/// [`server_choice`] is what tells a server's choice from the client's own; this only
/// keeps the likeliest imitations one key further away than Enter.
pub fn looks_own(text: &str) -> bool {
    // As shown: escape sequences and invisible characters gone, line breaks as ␤.
    let folded = look_alike(&one_line(text));
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let own = OWN_WORDS.map(look_alike);
    words
        .iter()
        .any(|w| own.iter().any(|o| w.starts_with(o.as_str())))
        || words.windows(2).any(|w| {
            OWN_PAIRS
                .iter()
                .any(|pair| w[0] == look_alike(pair[0]) && w[1] == look_alike(pair[1]))
        })
}

/// `text` as it looks rather than as it is written: compatibility forms (fullwidth,
/// mathematical, ligatures) and accented letters decomposed and their marks dropped,
/// Cyrillic and Greek letters that look Latin made Latin, lower case, and letters that
/// look alike in a terminal made one (`i`, `l`, `1`, `|` are all `l`; `0` is `o`; `rn`
/// is `m`).
fn look_alike(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let folded: String = text
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .map(latin_capital)
        .flat_map(char::to_lowercase)
        .map(latin_small)
        .collect();
    folded.replace("rn", "m")
}

/// The Latin capital a Cyrillic or Greek capital looks like, else `c`.
fn latin_capital(c: char) -> char {
    match c {
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'С' | 'Ϲ' => 'C',
        'Е' | 'Ε' => 'E',
        'Н' | 'Η' => 'H',
        'І' | 'Ι' | 'Ӏ' => 'I',
        'Ј' => 'J',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Ν' => 'N',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'Ѕ' => 'S',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'Υ' | 'Ү' => 'Y',
        'Ζ' => 'Z',
        c => c,
    }
}

/// The Latin small letter a lower-case Cyrillic, Greek or other letter looks like, with
/// `i`, `l`, `1` and `|` made one, and `0` made `o`; else `c`.
fn latin_small(c: char) -> char {
    match c {
        'а' | 'α' | 'ɑ' => 'a',
        'ь' | 'в' => 'b',
        'с' | 'ϲ' | 'ᴄ' => 'c',
        'ԁ' => 'd',
        'е' | 'ҽ' | 'ᴇ' => 'e',
        'һ' => 'h',
        'i' | 'і' | 'ι' | 'ı' | 'ӏ' | 'ǀ' | 'l' | '1' | '|' => 'l',
        'ј' | 'ϳ' => 'j',
        'к' | 'κ' => 'k',
        'м' | 'ᴍ' => 'm',
        'ո' => 'n',
        'о' | 'ο' | 'օ' | '0' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' | 'ս' => 'u',
        'ν' | 'ѵ' => 'v',
        'ԝ' => 'w',
        'х' | 'χ' => 'x',
        'у' => 'y',
        c => c,
    }
}

/// Where the cursor of a choice starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// On the server's option at this index: its default.
    Server(usize),
    /// On the client's own Decline.
    Decline,
    /// On the client's own first entry: [`LEAVE_EMPTY`] for an optional choice, else
    /// [`CHOOSE_ONE`]. Nothing is chosen for the user.
    Own,
}

/// Where the cursor of a choice among `options` starts: on `wanted` (the server's
/// default) unless that choice reads like one of the client's own entries
/// ([`looks_own`]), then on the client's own Decline when `decline` offers it; without a
/// default (or else), on the client's own first entry, "(leave empty)" or "(choose one)":
/// never on an option the server did not make its default.
fn start_of(options: &[Choice], wanted: Option<usize>, decline: bool) -> Start {
    match wanted {
        Some(w) if options.get(w).is_some_and(|c| !looks_own(c.label())) => Start::Server(w),
        Some(_) if decline => Start::Decline,
        _ => Start::Own,
    }
}

/// Asks one of `choices` (the server's behind their mark, or the client's Yes and No),
/// after the client's own first entry when `optional` ([`LEAVE_EMPTY`]) or when the
/// cursor starts there ([`CHOOSE_ONE`], which is refused), and before [`DECLINE`] when
/// `decline` offers it. `Ok(None)` leaves it empty.
fn pick(
    p: &mut dyn Prompter,
    prompt: &str,
    choices: Vec<String>,
    start: Start,
    optional: bool,
    decline: bool,
) -> Answer<Option<usize>> {
    let first = if optional {
        Some(LEAVE_EMPTY)
    } else {
        (start == Start::Own).then_some(CHOOSE_ONE)
    };
    let skip = usize::from(first.is_some());
    let count = choices.len();
    let mut labels: Vec<String> = first.map(str::to_owned).into_iter().collect();
    labels.extend(choices);
    if decline {
        labels.push(DECLINE.to_owned());
    }
    let (at, help) = match start {
        Start::Server(i) => (skip + i, ""),
        Start::Decline => (labels.len() - 1, ""),
        Start::Own => (0, NOTHING_CHOSEN),
    };
    loop {
        let i = p.choose(prompt, help, &labels, at)?;
        if (skip..skip + count).contains(&i) {
            return Ok(Some(i - skip));
        }
        if i >= skip + count {
            return Err(End::Decline);
        }
        if optional {
            return Ok(None);
        }
        p.say(CHOOSE_FIRST);
    }
}

/// Whether `field`, a form's only field, is asked as a choice, so that declining is one
/// of its choices (any other form is declined through the menu Esc opens, [`leave`]).
fn is_choice(field: &Field) -> bool {
    matches!(
        field.kind,
        FieldKind::Select { .. } | FieldKind::Boolean { .. }
    )
}

/// Asks one field; `Ok(None)` leaves it empty. With `decline`, a choice or yes/no field
/// offers [`DECLINE`] as its last choice.
fn ask_field(
    p: &mut dyn Prompter,
    form: &Form,
    field: &Field,
    now: Option<Value>,
    decline: bool,
) -> Answer<Option<Value>> {
    let label = &one_line(field.label());
    let help = one_line(&hint(field));
    let name = field.name.as_ref();
    let optional = !field.required;
    match &field.kind {
        FieldKind::Boolean { .. } if decline => {
            let d = now.as_ref().and_then(Value::as_bool);
            let labels = vec!["Yes".to_owned(), "No".to_owned()];
            let start = d.map_or(Start::Own, |d| Start::Server(usize::from(!d)));
            let prompt = format!("{label} ({help})");
            let i = pick(p, &prompt, labels, start, optional, decline)?;
            Ok(i.map(|i| Value::Bool(i == 0)))
        }
        FieldKind::Boolean { .. } => {
            let d = now.as_ref().and_then(Value::as_bool);
            p.confirm(label, &help, d).map(|b| Some(Value::Bool(b)))
        }
        FieldKind::Select { options, .. } => {
            let labels: Vec<String> = options.iter().map(|c| server_choice(c.label())).collect();
            let wanted = now
                .as_ref()
                .and_then(Value::as_str)
                .and_then(|v| options.iter().position(|c| c.value == v));
            let start = start_of(options, wanted, decline);
            let prompt = format!("{label} ({help})");
            let i = pick(p, &prompt, labels, start, optional, decline)?;
            Ok(i.and_then(|i| options.get(i))
                .map(|c| Value::from(c.value.as_ref())))
        }
        FieldKind::MultiSelect { options, .. } => {
            let labels: Vec<String> = options.iter().map(|c| server_choice(c.label())).collect();
            let chosen: Vec<usize> = now
                .as_ref()
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| {
                            options
                                .iter()
                                .position(|c| Some(c.value.as_ref()) == v.as_str())
                        })
                        .collect()
                })
                .unwrap_or_default();
            let to_value = |picked: &[usize]| {
                Value::Array(
                    picked
                        .iter()
                        .filter_map(|i| options.get(*i))
                        .map(|c| Value::from(c.value.as_ref()))
                        .collect(),
                )
            };
            let check = |picked: &[usize]| check_field(form, name, to_value(picked));
            let picked = p.several(label, &help, &labels, &chosen, &check)?;
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
            let default = now.map(|v| match v {
                Value::String(s) => s,
                other => other.to_string(),
            });
            // The default is shown cleaned, on one line; taken as it is, it stands for the
            // server's own.
            let shown_default: Option<String> = default.as_deref().map(one_line);
            let original = |s: &str| -> String {
                match (&default, &shown_default) {
                    (Some(d), Some(shown)) if s == shown.as_str() => d.clone(),
                    _ => s.to_owned(),
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
                check_field(form, name, parse(&original(s)))
            };
            let s = p.text(label, &help, shown_default.as_deref(), &check)?;
            Ok((!s.is_empty()).then(|| parse(&original(&s))))
        }
    }
}

/// Server text made safe and kept on one line (a line break shows as `␤`), for the
/// client's own lines that name it: a server cannot start a line of the client's. It
/// changes nothing it has already given.
pub fn one_line(text: &str) -> String {
    safe_text(text)
        .chars()
        .map(|c| if c == '\n' { '␤' } else { c })
        .collect()
}

/// A server's message made safe, every line of it behind `│ `: nothing it writes can
/// pass for the client's own frame (`── … asks ──`).
fn quoted(text: &str) -> String {
    safe_text(text)
        .lines()
        .map(|line| format!("│ {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The menu Esc opens in a form whose choices do not list Decline ([`fill`]): decline the
/// form, cancel it, or go back to it (as Esc on the menu does). `None` goes back.
fn leave(p: &mut dyn Prompter) -> Option<Reply> {
    let menu = [
        DECLINE.to_owned(),
        "Cancel the form".to_owned(),
        "Back to the form".to_owned(),
    ];
    match p.choose("Leave the form?", "", &menu, 0) {
        Ok(0) | Err(End::Decline) => Some(Reply::Decline),
        Ok(1) | Err(End::Closed) => Some(Reply::Cancel),
        Ok(_) | Err(End::Cancel) => None,
        Err(End::Quit) => quit(),
    }
}

/// Asks `field` of `form` (as [`ask_field`]) until it is answered, or the form is left:
/// `Err` holds the reply. With `leaves`, Esc opens [`leave`] rather than cancel the form.
fn ask_or_leave(
    p: &mut dyn Prompter,
    form: &Form,
    field: &Field,
    now: Option<Value>,
    decline: bool,
    leaves: bool,
) -> Result<Option<Value>, Reply> {
    loop {
        match ask_field(p, form, field, now.clone(), decline) {
            Ok(answer) => return Ok(answer),
            Err(End::Cancel) if leaves => {
                if let Some(reply) = leave(p) {
                    return Err(reply);
                }
            }
            Err(end) => return Err(ended(end)),
        }
    }
}

/// Fills `form` through `p`: who asks and the message, how to decline and cancel, then
/// one prompt per field (defaults pre-filled, problems inline, a refused answer given
/// back as typed). Declining is always within reach: a form whose only field is a
/// choice or yes/no offers Decline among its choices (Esc cancels it) and is sent as
/// soon as it is answered; in any other form, Esc at any prompt opens a menu to decline
/// or cancel the form or go back to it (on line prompts, `decline` and `esc` are typed
/// instead), so that no form must be filled in to be declined; with `review`, such a
/// form ends on a review screen (Submit, a change of any answer, Decline, Cancel) — on
/// line prompts only a form of two or more fields.
pub fn fill(p: &mut dyn Prompter, question: Question<'_>, review: bool) -> Reply {
    let form = question.form;
    // Declining is a visible choice among those of a form whose only field is a choice,
    // else Esc offers it at any prompt (or it is typed, on line prompts).
    let one_choice = matches!(form.fields(), [field] if is_choice(field));
    let leaves = !one_choice && !form.fields().is_empty() && !p.typed_decline();
    p.say("");
    p.say(&format!(
        "── {} asks ──",
        one_line(question.server.unwrap_or("the server"))
    ));
    p.say(&quoted(question.message));
    p.say(p.keys(!leaves));
    if form.fields().is_empty() {
        // Nothing to fill: a plain "OK?".
        return match p.confirm("Accept?", "nothing to fill in", Some(true)) {
            Ok(true) => Reply::validated(form, Value::Object(Map::new())).unwrap_or(Reply::Cancel),
            Ok(false) => Reply::Decline,
            Err(end) => ended(end),
        };
    }
    let reviewed = review && !one_choice && (form.fields().len() >= 2 || !p.typed_decline());
    let mut answers = Map::new();
    for field in form.fields() {
        let now = current(field, &answers);
        match ask_or_leave(p, form, field, now, one_choice, leaves) {
            Err(reply) => return reply,
            Ok(Some(v)) => {
                answers.insert(field.name.to_string(), v);
            }
            Ok(None) => {}
        }
    }
    if !reviewed {
        match Reply::validated(form, Value::Object(answers.clone())) {
            Ok(reply) => return reply,
            // Not expected (each field was checked), but never sent unchecked: review.
            Err(e) => p.say(&format!("  ✗ {}", one_line(&e.to_string()))),
        }
    }
    loop {
        p.say("");
        p.say("Your answers:");
        // One line per field, whatever line breaks its title or value holds.
        for field in form.fields() {
            p.say(&format!(
                "  {}: {}",
                one_line(field.label()),
                one_line(&shown(field, answers.get(field.name.as_ref())))
            ));
        }
        let mut menu = vec!["Submit".to_owned()];
        menu.extend(
            form.fields()
                .iter()
                .map(|f| format!("Change {}", one_line(f.label()))),
        );
        menu.push("Decline".to_owned());
        menu.push("Cancel".to_owned());
        let decline = menu.len() - 2;
        match p.choose("Review", "", &menu, 0) {
            Err(End::Cancel) if leaves => {
                if let Some(reply) = leave(p) {
                    return reply;
                }
            }
            Err(end) => return ended(end),
            Ok(0) => match Reply::validated(form, Value::Object(answers.clone())) {
                Ok(reply) => return reply,
                Err(e) => p.say(&format!("  ✗ {}", one_line(&e.to_string()))),
            },
            Ok(i) if i == decline => return Reply::Decline,
            Ok(i) if i > decline => return Reply::Cancel,
            Ok(i) => {
                let Some(field) = form.fields().get(i - 1) else {
                    continue;
                };
                let now = current(field, &answers);
                match ask_or_leave(p, form, field, now, false, leaves) {
                    Err(reply) => return reply,
                    Ok(Some(v)) => {
                        answers.insert(field.name.to_string(), v);
                    }
                    Ok(None) => {
                        answers.remove(field.name.as_ref());
                    }
                }
            }
        }
    }
}

/// The host a URL leads to, for the user to see plainly before opening it.
pub fn url_host(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    url.host_str().map(str::to_owned)
}

/// The terminal [`Asker`]: widgets on a terminal, line prompts otherwise.
pub struct Terminal {
    lock: Mutex<()>,
    widgets: bool,
    review: bool,
}

impl Terminal {
    /// Widgets when stdin and stdout are terminals, else line prompts; a review screen
    /// for forms of two or more fields.
    pub fn new() -> Terminal {
        Terminal {
            lock: Mutex::new(()),
            widgets: interactive(),
            review: true,
        }
    }

    /// With `false`, every form is sent once its last field is answered, without review.
    pub fn with_review(mut self, review: bool) -> Terminal {
        self.review = review;
        self
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
        tokio::task::block_in_place(|| self.with(|p| fill(p, question, self.review)))
    }

    async fn ask_url(&self, server: Option<&str>, message: &str, url: &str) -> Action {
        let host = match url_host(url) {
            Some(host) => format!("The page is on {host}"),
            None => "The address is not a web page".to_owned(),
        };
        let options = [
            "Open it (I will go there)".to_owned(),
            "Decline".to_owned(),
            "Cancel".to_owned(),
        ];
        let choice = tokio::task::block_in_place(|| {
            self.with(|p| {
                p.say("");
                p.say(&format!(
                    "── {} asks you to open a page ──",
                    one_line(server.unwrap_or("the server"))
                ));
                p.say(&quoted(message));
                p.say(&host);
                // One line, whatever the server put in it: a line break shows as ␤.
                p.say(&format!("Full address: {}", one_line(url)));
                p.say(p.keys(true));
                // Enter declines: opening a page takes a deliberate choice.
                p.choose("What do you want to do?", "", &options, 1)
            })
        });
        match choice {
            Ok(0) => Action::Accept,
            Ok(1) | Err(End::Decline) => Action::Decline,
            Err(End::Quit) => quit(),
            _ => Action::Cancel,
        }
    }

    fn progress(&self, server: Option<&str>, message: &str) {
        let _one_at_a_time = self.lock.lock();
        eprintln!(
            "… {}: {}",
            one_line(server.unwrap_or("the server")),
            one_line(message)
        );
    }

    fn refused(&self, server: Option<&str>, why: &str) {
        let _one_at_a_time = self.lock.lock();
        eprintln!(
            "✗ {} asked something this client will not show: {}",
            one_line(server.unwrap_or("the server")),
            one_line(why)
        );
    }
}

#[cfg(test)]
mod tests {
    use elicit_core::client::read_schema;
    use serde_json::json;

    use super::*;

    /// `Lines` over scripted input, its output discarded.
    fn answer(schema: Value, input: &str, review: bool) -> Reply {
        let form = read_schema(&schema.to_string()).unwrap();
        let mut p = Lines::new(input.as_bytes());
        fill(
            &mut p,
            Question {
                server: Some("test"),
                message: "Hello",
                form: &form,
            },
            review,
        )
    }

    fn one_text() -> Value {
        json!({"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}},
               "required": ["name"]})
    }

    #[test]
    fn a_one_field_form_is_one_line() {
        let reply = answer(one_text(), "Ann\n", true);
        assert_eq!(
            reply,
            Reply::Accept(json!({"name": "Ann"}).as_object().unwrap().clone())
        );
    }

    #[test]
    fn decline_and_cancel_are_one_word_each() {
        assert_eq!(answer(one_text(), "decline\n", true), Reply::Decline);
        assert_eq!(answer(one_text(), "esc\n", true), Reply::Cancel);
        assert_eq!(answer(one_text(), "", true), Reply::Cancel);
    }

    #[test]
    fn an_invalid_answer_is_asked_again() {
        let reply = answer(one_text(), "Annabel\nAnn\n", true);
        assert_eq!(
            reply,
            Reply::Accept(json!({"name": "Ann"}).as_object().unwrap().clone())
        );
    }

    fn two_fields() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "size": {"type": "string", "enum": ["s", "l"]}
        }, "required": ["name", "size"]})
    }

    #[test]
    fn two_fields_are_reviewed_unless_review_is_off() {
        // Name, size 3 (after "(choose one)" and s), then the review: change the name
        // (2), a new name, submit (1).
        let reply = answer(two_fields(), "Ann\n3\n2\nBob\n1\n", true);
        let want = json!({"name": "Bob", "size": "l"});
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
        // Without review, the answers go at once (the rest of the input is not read).
        let reply = answer(two_fields(), "Ann\n3\n2\nBob\n1\n", false);
        let want = json!({"name": "Ann", "size": "l"});
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
    }

    #[test]
    fn an_untouched_default_is_the_servers_own() {
        let schema = json!({"type": "object", "properties": {
            "note": {"type": "string", "default": "a\u{7}b"}}});
        let reply = answer(schema, "\n", true);
        assert_eq!(
            reply,
            Reply::Accept(json!({"note": "a\u{7}b"}).as_object().unwrap().clone())
        );
    }

    /// A prompter that answers as Enter would (the starting choice, the default, the
    /// choices already made) and keeps every text it is given.
    #[derive(Default)]
    struct Recorder {
        /// Prompts, help texts, defaults and choices.
        shown: Vec<String>,
        /// The lines given to `say`.
        said: Vec<String>,
    }

    impl Prompter for Recorder {
        fn keys(&self, _listed: bool) -> &'static str {
            "(keys)"
        }

        fn choose(
            &mut self,
            prompt: &str,
            _help: &str,
            options: &[String],
            start: usize,
        ) -> Answer<usize> {
            self.shown.push(prompt.to_owned());
            self.shown.extend(options.iter().cloned());
            Ok(start)
        }

        fn text(
            &mut self,
            prompt: &str,
            help: &str,
            default: Option<&str>,
            check: &dyn Fn(&str) -> Result<(), String>,
        ) -> Answer<String> {
            self.shown.extend([prompt, help].map(str::to_owned));
            self.shown.extend(default.map(str::to_owned));
            let answer = default.unwrap_or_default().to_owned();
            check(&answer).map_err(|_| End::Cancel)?;
            Ok(answer)
        }

        fn confirm(&mut self, prompt: &str, help: &str, default: Option<bool>) -> Answer<bool> {
            self.shown.extend([prompt, help].map(str::to_owned));
            Ok(default.unwrap_or(true))
        }

        fn several(
            &mut self,
            prompt: &str,
            help: &str,
            options: &[String],
            chosen: &[usize],
            check: &dyn Fn(&[usize]) -> Result<(), String>,
        ) -> Answer<Vec<usize>> {
            self.shown.extend([prompt, help].map(str::to_owned));
            self.shown.extend(options.iter().cloned());
            check(chosen).map_err(|_| End::Cancel)?;
            Ok(chosen.to_vec())
        }

        fn say(&mut self, line: &str) {
            self.said.push(line.to_owned());
        }
    }

    /// A form whose every title, description, option title and default holds a line
    /// break (of each kind the kit cleans into one).
    fn broken_lines() -> Value {
        json!({"type": "object", "properties": {
            "note": {"type": "string", "title": "Note\nTo: savings", "description": "d1\nd2",
                     "default": "a\nb"},
            "size": {"type": "string", "title": "Size\r\nX", "default": "s",
                     "oneOf": [{"const": "s", "title": "Small\nOK"}, {"const": "l"}]},
            "tags": {"type": "array", "title": "Tags\u{2028}Y", "default": ["x"],
                     "items": {"anyOf": [{"const": "x", "title": "X\rx"}, {"const": "y"}]}},
            "ok": {"type": "boolean", "title": "OK\u{2029}Z", "default": true},
            "n": {"type": "integer", "title": "N\nW", "default": 3}
        }, "required": ["note", "size", "tags", "ok", "n"]})
    }

    #[test]
    fn every_server_text_in_a_line_stays_on_it() {
        let form = read_schema(&broken_lines().to_string()).unwrap();
        let mut p = Recorder::default();
        let reply = fill(
            &mut p,
            Question {
                server: Some("evil\nserver"),
                message: "line 1\nline 2",
                form: &form,
            },
            true,
        );
        // The defaults, untouched, are the server's own, line breaks and all.
        let want = json!({"note": "a\nb", "size": "s", "tags": ["x"], "ok": true, "n": 3});
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
        for text in &p.shown {
            assert_eq!(&one_line(text), text, "in {:?}", p.shown);
        }
        // The message keeps its lines, each behind the mark; every other line is one.
        assert!(
            p.said.contains(&"│ line 1\n│ line 2".to_owned()),
            "{:?}",
            p.said
        );
        for line in p.said.iter().filter(|l| !l.starts_with("│ ")) {
            assert_eq!(&one_line(line), line, "in {:?}", p.said);
        }
        for line in [
            "  Note␤To: savings: a␤b",
            "  Size␤X: Small␤OK",
            "  Tags␤Y: X␤x",
        ] {
            assert!(
                p.said.contains(&line.to_owned()),
                "{line:?} in {:?}",
                p.said
            );
        }
    }

    #[test]
    fn one_line_shows_every_line_break_as_a_sign() {
        assert_eq!(one_line("a\r\nb\rc\u{2028}d\u{2029}e\nf"), "a␤b␤c␤d␤e␤f");
        // Other controls show as their pictures, and a line already given stays as it is.
        assert_eq!(one_line("a\u{b}b\u{c}c"), "a␋b␌c");
        assert_eq!(one_line(&one_line("a\nb\u{1b}[2Jc")), "a␤bc");
    }

    /// A one-choice form whose first option, titled `title`, answers `allow`, and whose
    /// second, Deny, answers `deny`; `default` is the server's default.
    fn look_alike_form(title: &str, default: Option<&str>) -> Value {
        let mut field = json!({"type": "string", "oneOf": [
            {"const": "allow", "title": title}, {"const": "deny", "title": "Deny"}]});
        if let Some(d) = default {
            field["default"] = json!(d);
        }
        json!({"type": "object", "properties": {"decision": field}, "required": ["decision"]})
    }

    #[test]
    fn a_choice_that_reads_like_decline_never_starts_under_the_cursor() {
        // Enter takes the choice under the cursor as it starts: the client's own Decline
        // when the look-alike is the server's default; without a default, the client's
        // own "(choose one)", where Enter is refused (and then the input ends).
        for title in [
            DECLINE,
            "Decline",
            "DECLINE THIS FORM",
            "Dеclinе (Cyrillic е)",
        ] {
            let form = look_alike_form(title, Some("allow"));
            assert_eq!(answer(form, "\n", true), Reply::Decline, "{title}");
            let form = look_alike_form(title, None);
            assert_eq!(answer(form, "\n", true), Reply::Cancel, "{title}");
        }
        // A default that reads like none of them is taken as before.
        let reply = answer(look_alike_form("Allow", Some("allow")), "\n", true);
        let want = json!({"decision": "allow"});
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
        // Typed, the client's own entry comes before the server's that reads the same.
        let reply = answer(
            look_alike_form(DECLINE, None),
            &format!("{DECLINE}\n"),
            true,
        );
        assert_eq!(reply, Reply::Decline);
        let reply = answer(look_alike_form("Allow", None), "deny\n", true);
        let want = json!({"decision": "deny"});
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
    }

    #[test]
    fn the_cursor_of_a_choice_starts_on_the_clients_own_entry_before_a_look_alike() {
        let form = read_schema(&look_alike_form("(Leave empty)", Some("allow")).to_string());
        let form = form.unwrap();
        let field = &form.fields()[0];
        let Some(options) = field.kind.options() else {
            panic!("a select");
        };
        // Options: 0 the look-alike, 1 Deny.
        assert_eq!(start_of(options, Some(0), true), Start::Decline);
        assert_eq!(start_of(options, Some(0), false), Start::Own);
        assert_eq!(start_of(options, Some(1), true), Start::Server(1));
        assert_eq!(start_of(options, None, true), Start::Own);
        assert_eq!(start_of(options, None, false), Start::Own);
    }

    /// Ticket-like snacks: an optional drink and, with `size`, a required size, neither
    /// with a default.
    fn no_defaults(size: bool) -> Value {
        let mut form = json!({"type": "object", "properties": {
            "drink": {"type": "string", "enum": ["water", "cola"]}}});
        if size {
            form["properties"]["size"] = json!({"type": "string", "enum": ["s", "m", "l"]});
            form["required"] = json!(["size"]);
        }
        form
    }

    #[test]
    fn without_a_default_no_choice_is_made_for_the_user() {
        // Optional: the list opens on "(leave empty)", and Enter leaves it empty.
        let empty = Map::new();
        assert_eq!(answer(no_defaults(false), "\n", true), Reply::Accept(empty));
        // "(leave empty)" is the first entry: the drinks follow it.
        let want = json!({"drink": "water"});
        let reply = answer(no_defaults(false), "2\n", true);
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
        // Required: Enter on "(choose one)" is refused and the question asked again.
        let want = json!({"size": "s"});
        let reply = answer(no_defaults(true), "\n\n2\n1\n", true);
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
        // A one-field yes/no without a default, likewise: nothing until Yes or No.
        let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}},
                            "required": ["ok"]});
        assert_eq!(answer(schema.clone(), "\n", true), Reply::Cancel);
        let want = json!({"ok": false});
        let reply = answer(schema, "\n3\n", true);
        assert_eq!(reply, Reply::Accept(want.as_object().unwrap().clone()));
    }

    /// A prompter on which every text and yes/no prompt is left with Esc, and every list
    /// answered from `picks` (`None` for Esc; the terminal is gone when they run out); it
    /// keeps the prompts of the lists.
    struct Escaper {
        picks: Vec<Option<usize>>,
        lists: Vec<String>,
        asked: usize,
    }

    impl Prompter for Escaper {
        fn keys(&self, listed: bool) -> &'static str {
            if listed { "listed" } else { "esc" }
        }

        fn choose(&mut self, prompt: &str, _: &str, _: &[String], _: usize) -> Answer<usize> {
            self.lists.push(prompt.to_owned());
            if self.picks.is_empty() {
                return Err(End::Closed);
            }
            self.picks.remove(0).ok_or(End::Cancel)
        }

        fn text(
            &mut self,
            _: &str,
            _: &str,
            _: Option<&str>,
            _: &dyn Fn(&str) -> Result<(), String>,
        ) -> Answer<String> {
            self.asked += 1;
            Err(End::Cancel)
        }

        fn confirm(&mut self, _: &str, _: &str, _: Option<bool>) -> Answer<bool> {
            self.asked += 1;
            Err(End::Cancel)
        }

        fn several(
            &mut self,
            _: &str,
            _: &str,
            _: &[String],
            _: &[usize],
            _: &dyn Fn(&[usize]) -> Result<(), String>,
        ) -> Answer<Vec<usize>> {
            self.asked += 1;
            Err(End::Cancel)
        }

        fn say(&mut self, _: &str) {}
    }

    /// The purge approval: a box to tick, an e-mail, a number of days.
    fn purge() -> Value {
        json!({"type": "object", "properties": {
            "confirm": {"type": "boolean"},
            "approver": {"type": "string", "format": "email"},
            "days": {"type": "integer", "minimum": 1, "default": 30}
        }, "required": ["confirm", "approver", "days"]})
    }

    fn escaped(schema: Value, picks: &[Option<usize>]) -> (Reply, Escaper) {
        let form = read_schema(&schema.to_string()).unwrap();
        let mut p = Escaper {
            picks: picks.to_vec(),
            lists: Vec::new(),
            asked: 0,
        };
        let question = Question {
            server: None,
            message: "",
            form: &form,
        };
        let reply = fill(&mut p, question, true);
        (reply, p)
    }

    #[test]
    fn esc_on_the_first_field_offers_decline_and_cancel() {
        // Esc on the box, then Decline (the first entry): nothing else is asked.
        let (reply, p) = escaped(purge(), &[Some(0)]);
        assert_eq!((reply, p.asked), (Reply::Decline, 1));
        assert_eq!(p.lists, ["Leave the form?"]);
        // Cancel, the second.
        assert_eq!(escaped(purge(), &[Some(1)]).0, Reply::Cancel);
        // Back to the form (the third, or Esc on the menu), whose box is asked again.
        let (reply, p) = escaped(purge(), &[Some(2), None, Some(0)]);
        assert_eq!((reply, p.asked), (Reply::Decline, 3));
        // A terminal gone on the menu cancels the form.
        assert_eq!(escaped(purge(), &[]).0, Reply::Cancel);
        // A form whose only field is a choice lists Decline itself: Esc cancels it.
        let (reply, p) = escaped(look_alike_form("Allow", None), &[None]);
        assert_eq!(reply, Reply::Cancel);
        assert_eq!(p.lists.len(), 1, "{:?}", p.lists);
    }

    #[test]
    fn what_reads_like_the_clients_own_entries() {
        for own in [
            DECLINE,
            "Decline",
            "✘ DECLINE",
            "Declined",
            "Ｄｅｃｌｉｎｅ",
            "𝐃𝐞𝐜𝐥𝐢𝐧𝐞",
            "Dеclinе",
            "DÉCLINE",
            "Dec1ine",
            "DecIine",
            "Dec\u{200b}line",
            "Cancel",
            "Cancel the request",
            "Subrnit",
            "Quit",
            "(leave empty)",
            "Leave  EMPTY",
            "(choose one)",
            "Choose 0NE",
        ] {
            assert!(looks_own(own), "{own}");
        }
        for server in [
            "Allow",
            "Deny",
            "Yes",
            "2031-07-02",
            "Dec line",
            "A1",
            "equity",
            "leave",
            "empty",
            "choose",
            "one",
        ] {
            assert!(!looks_own(server), "{server}");
        }
    }

    #[test]
    fn a_servers_choices_are_marked_and_the_clients_own_are_not() {
        assert_eq!(server_choice(DECLINE), format!("│ {DECLINE}"));
        assert_eq!(server_choice("a\nb"), "│ a␤b");
        let form = read_schema(&broken_lines().to_string()).unwrap();
        let mut p = Recorder::default();
        fill(
            &mut p,
            Question {
                server: None,
                message: "",
                form: &form,
            },
            true,
        );
        for option in ["│ Small␤OK", "│ l", "│ X␤x", "│ y"] {
            assert!(
                p.shown.contains(&option.to_owned()),
                "{option} in {:?}",
                p.shown
            );
        }
        for own in ["Submit", "Decline", "Cancel"] {
            assert!(p.shown.contains(&own.to_owned()), "{own} in {:?}", p.shown);
        }
    }

    #[test]
    fn a_filter_that_matches_nothing_shows_the_message_alone() {
        let options = ["│ 2031-07-02".to_owned(), "✗ Decline this form".to_owned()];
        let (shown, filter) = Filter::over(&options);
        assert_eq!(shown.last().map(String::as_str), Some(NO_MATCH));
        let scores = |input: &str| -> Vec<bool> {
            shown
                .iter()
                .enumerate()
                .map(|(i, o)| filter.score(input, o, o, i).is_some())
                .collect()
        };
        assert_eq!(scores(""), [true, true, false]);
        assert_eq!(scores("07"), [true, false, false]);
        assert_eq!(scores("zzz"), [false, false, true]);
        assert_eq!(filter.typed(), "zzz");
        assert_eq!(scores("dec"), [false, true, false]);
    }

    #[test]
    fn the_host_of_a_url() {
        assert_eq!(
            url_host("https://pay.example.com/x?y").as_deref(),
            Some("pay.example.com")
        );
        // A look-alike international name is shown in its ASCII (punycode) form.
        assert_eq!(
            url_host("https://pаypal.com/").as_deref(),
            Some("xn--pypal-4ve.com")
        );
        assert_eq!(url_host("not a url"), None);
    }
}
