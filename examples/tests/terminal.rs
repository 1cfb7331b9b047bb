//! `terminal-client` driven through a pseudo-terminal, as a person would: the `inquire`
//! widgets, the real `ticket-booking` server as its child (its shows counted from a
//! pinned "today"), one prompt per field, no choice made where the form has no default,
//! decline and cancel in one key each where Decline is a choice, and from any prompt of
//! any other form through Esc, the review of a two-field form; and a hostile server
//! whose escape sequences must not reach the terminal.
#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::Duration;

use expectrl::Session;
use expectrl::session::{OsProcess, OsProcessStream};

const ENTER: &str = "\r";
const DOWN: &str = "\x1b[B";
const BACKSPACE: &str = "\x7f";
const ESC: &str = "\x1b";
const CTRL_C: &str = "\x03";

/// The day the demo counts from in these tests: the shows are 2031-06-30 (sold out),
/// 2031-07-02 and 2031-07-03 (across a month's end, to show they are counted).
const TODAY: &str = "2031-06-29";

type Pty = Session<OsProcess, OsProcessStream>;

/// A client in a fresh pseudo-terminal, everything it printed, and the prompts answered.
struct Run {
    p: Pty,
    seen: Vec<u8>,
    prompts: usize,
}

impl Run {
    /// `terminal-client ARGS` at its tool menu.
    fn start(args: &[&str]) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_terminal-client"));
        command
            .args(args)
            .env("TERM", "xterm")
            .env_remove("ELICIT_KEYS");
        let mut p: Pty = Session::spawn(command).expect("spawn in a pty");
        p.set_expect_timeout(Some(Duration::from_secs(20)));
        let mut run = Run {
            p,
            seen: Vec::new(),
            prompts: 0,
        };
        run.wait("Which tool?");
        run
    }

    /// The ticket demo, counted from [`TODAY`], at its tool menu.
    fn demo(more: &[&str]) -> Run {
        let mut args = vec!["--today", TODAY];
        args.extend(more);
        Run::start(&args)
    }

    /// Waits for `text`; returns what was printed since the last wait, up to it.
    fn wait(&mut self, text: &str) -> String {
        let found = self
            .p
            .expect(text)
            .unwrap_or_else(|e| panic!("waiting for {text:?}: {e}"));
        self.seen.extend_from_slice(found.as_bytes());
        String::from_utf8_lossy(found.as_bytes()).into_owned()
    }

    /// Answers the prompt `text` with `keys` (giving the widget a moment to be ready).
    fn answer(&mut self, text: &str, keys: &str) -> String {
        let before = self.wait(text);
        std::thread::sleep(Duration::from_millis(150));
        self.p.send(keys).unwrap();
        self.prompts += 1;
        before
    }

    /// Picks the `n`th tool of the menu (0 for the first).
    fn tool(&mut self, n: usize) {
        std::thread::sleep(Duration::from_millis(150));
        self.p.send(format!("{}{ENTER}", DOWN.repeat(n))).unwrap();
    }

    /// Leaves at the tool menu; everything printed.
    fn quit(mut self) -> Vec<u8> {
        self.wait("Which tool?");
        std::thread::sleep(Duration::from_millis(150));
        self.p.send(ESC).unwrap();
        let rest = self.p.expect(expectrl::Eof).expect("the client exits");
        self.seen.extend_from_slice(rest.as_bytes());
        self.seen
    }
}

/// `text` without its escape sequences (the widgets' colours and cursor moves), to read
/// a list as it is drawn: `> ` before the choice under the cursor.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
        } else if chars.next() == Some('[') {
            // A control sequence ends with its first letter (or `~`, `@`).
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() || c == '~' || c == '@' {
                    break;
                }
            }
        }
    }
    out
}

/// The whole ticket flow with popcorn, all four steps: 6 prompts (date, seat, popcorn,
/// drink, the snacks' review, size) and 12 keys, as no choice is made for the user where
/// the form has no default (one arrow more for each of the four lists). Before one prompt
/// per field it took 13 prompts (each form opened with "Answer / Decline / Cancel" and
/// closed with a review); before the date was a choice, 18 keys.
#[test]
fn the_ticket_flow_takes_one_prompt_per_field() {
    let mut run = Run::demo(&[]);
    run.tool(0); // book_tickets
    // The date step offers the days that have seats, counted from "today".
    run.wait("Which day would you like to go?");
    let offered = run.answer("Date", &format!("{DOWN}{ENTER}")); // the first day, 2031-07-02
    let offered = offered + &run.wait("Decline this form");
    assert!(
        offered.contains("2031-07-02") && offered.contains("2031-07-03"),
        "{offered}"
    );
    assert!(!offered.contains("2031-06-30"), "sold out: {offered}");
    // One field, one prompt: the seat step comes next, with no review in between.
    let between = run.wait("Pick a seat for 2031-07-02");
    assert!(!between.contains("Review"), "{between}");
    run.answer("A2", &format!("{DOWN}{ENTER}")); // the first seat, A1
    run.answer("Popcorn?", &format!("y{ENTER}"));
    run.answer("Drink", &format!("{DOWN}{ENTER}")); // water
    run.answer("Review", ENTER); // two fields: reviewed, Submit preselected
    run.wait("Which size?");
    run.answer("Size", &format!("{DOWN}{DOWN}{ENTER}")); // medium
    run.wait("Booked seat A1 on 2031-07-02 with medium popcorn and water.");
    assert_eq!(run.prompts, 6);
    let seen = String::from_utf8_lossy(&run.quit()).into_owned();
    assert!(!seen.contains("What do you want to do?"), "no opening menu");
}

/// On 2026-07-28 the client declares the Tasks extension and the demo server runs the
/// wizard as a task: the same prompts, answered through `tasks/update`, and the task's
/// status message shown.
#[test]
fn the_ticket_flow_runs_as_a_task_on_2026_07_28() {
    let mut run = Run::demo(&["--protocol", "2026-07-28"]);
    run.tool(0); // book_tickets
    run.answer("Date", &format!("{DOWN}{ENTER}")); // the first day, 2031-07-02
    run.wait("Pick a seat for 2031-07-02");
    run.answer("A2", &format!("{DOWN}{ENTER}")); // the first seat, A1
    run.answer("Popcorn?", &format!("n{ENTER}"));
    run.answer("Drink", &format!("{DOWN}{ENTER}")); // water
    run.answer("Review", ENTER);
    run.wait("… ticket-booking: Booking seat A1 on 2031-07-02");
    run.wait("Booked seat A1 on 2031-07-02 with water.");
    assert_clean(&run.quit(), false);
}

#[test]
fn a_two_field_form_is_reviewed_and_can_be_changed() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    run.answer("Date", &format!("{DOWN}{DOWN}{ENTER}")); // the second day, 2031-07-03
    run.answer("C1", &format!("{DOWN}{ENTER}"));
    run.answer("Popcorn?", &format!("n{ENTER}"));
    run.answer("Drink", &format!("{DOWN}{ENTER}")); // water
    run.wait("Your answers:");
    run.wait("Drink: water");
    run.answer("Review", &format!("{DOWN}{DOWN}{ENTER}")); // Change Drink
    run.answer("Drink", &format!("{DOWN}{ENTER}")); // cola, after water as answered
    run.wait("Drink: cola");
    run.answer("Review", ENTER); // Submit
    run.wait("Booked seat C1 on 2031-07-03 with cola.");
    run.quit();
}

#[test]
fn the_review_can_be_skipped() {
    let mut run = Run::demo(&["--no-review"]);
    run.tool(0);
    run.answer("Date", &format!("{DOWN}{DOWN}{ENTER}")); // 2031-07-03
    run.answer("C1", &format!("{DOWN}{ENTER}"));
    run.answer("Popcorn?", &format!("n{ENTER}"));
    let before = run.answer("Drink", &format!("{DOWN}{ENTER}")); // water
    let after = run.wait("Booked seat C1 on 2031-07-03 with water.");
    assert!(!before.contains("Review") && !after.contains("Review"));
    run.quit();
}

/// Declining is a visible choice: the last one of a form whose only field is a choice.
#[test]
fn decline_is_one_of_the_choices() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    // The keys are named on screen, under the message.
    run.wait("Esc cancels the form, Ctrl-C quits; Decline is among the choices");
    // Past "(choose one)" and the two days.
    run.answer("Date", &format!("{DOWN}{DOWN}{DOWN}{ENTER}"));
    run.wait("Nothing booked: you declined the date step.");
    run.quit();
}

/// A form of several fields is declined from its first prompt, before any required field
/// is filled in: Esc there offers Decline (under the cursor), Cancel and Back, as the line
/// under the message says. Here the purge approval (a box to tick, the approver's
/// e-mail, the retention days), refused without typing an e-mail.
#[test]
fn a_form_is_declined_from_its_first_prompt() {
    let dir = std::env::temp_dir().join(format!("elicit-purge-{}", std::process::id()));
    let root = dir.to_str().unwrap();
    let purge = env!("CARGO_BIN_EXE_purge-approval");
    let mut run = Run::start(&["--", purge, "--root", root, "--create-samples"]);
    run.tool(0); // purge_old_logs, its arguments asked first
    run.answer("repo", &format!("demo-repo{ENTER}"));
    run.answer("days", &format!("30{ENTER}"));
    run.answer("dry_run", ENTER); // no
    run.wait("About to permanently delete demo-repo/logs (older than 30d): 4 objects.");
    run.wait("(Esc at any prompt to decline or cancel the form, Ctrl-C quits)");
    run.answer("I understand the logs are deleted for good", ESC);
    // Esc on the menu goes back to the form, to the same prompt.
    run.answer("Leave the form?", ESC);
    run.answer("I understand the logs are deleted for good", ESC);
    run.wait("Leave the form?");
    // Decline, under the cursor.
    let menu = plain(&run.answer("Back to the form", ENTER));
    assert!(menu.contains("> ✗ Decline this form"), "{menu}");
    assert!(menu.contains("Cancel the form"), "{menu}");
    run.wait("[BLOCKED] user declined; nothing deleted");
    let seen = String::from_utf8_lossy(&run.quit()).into_owned();
    let logs = std::fs::read_dir(dir.join("demo-repo")).unwrap().count();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(logs, 6, "nothing deleted");
    assert!(!seen.contains("Approver's e-mail"), "never asked: {seen}");
}

/// Where the form has no default, no choice is made for the user: a required list opens
/// on "(choose one)", where Enter is refused with a word why; an optional one opens on
/// "(leave empty)", where Enter leaves it empty (here, no drink).
#[test]
fn a_choice_without_a_default_is_not_made_for_the_user() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    let list = plain(&run.answer("Date", ENTER));
    let list = list + &plain(&run.wait("nothing is chosen for you"));
    assert!(list.contains("> (choose one)"), "{list}");
    run.wait("an answer is required: move to one of the choices, then Enter");
    run.answer("Date", &format!("{DOWN}{ENTER}")); // 2031-07-02
    run.answer("A2", &format!("{DOWN}{ENTER}")); // A1
    run.answer("Popcorn?", &format!("n{ENTER}"));
    run.wait("Drink");
    let list = plain(&run.answer("nothing is chosen for you", ENTER));
    assert!(list.contains("> (leave empty)"), "{list}");
    assert!(!list.contains("> │ water"), "{list}");
    run.wait("Drink: —");
    run.answer("Review", ENTER); // Submit
    run.wait("Booked seat A1 on 2031-07-02 with no snacks.");
    run.quit();
}

/// A filter that matches none of the choices says so; Backspace and another filter find
/// one.
#[test]
fn a_filter_that_matches_nothing_says_so() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    run.answer("Date", "zzz");
    // Enter on the message takes nothing and asks again, what was typed kept.
    let message = "no choice matches what you typed: Backspace to change it";
    run.answer(message, ENTER);
    run.wait("(nothing matched)");
    run.answer("no choice matches what you typed", &BACKSPACE.repeat(3));
    run.wait("2031-07-02");
    run.answer("Decline this form", &format!("07-03{ENTER}"));
    run.wait("Pick a seat for 2031-07-03");
    run.answer("Seat", ESC);
    run.wait("Booking cancelled at the seat step.");
    run.quit();
}

/// Ctrl-C quits the client, as in any command-line program, its message on a line of its
/// own: after a line feed, which at the bottom of the screen scrolls, where the cursor
/// moves the widget leaves behind stop, on its help line.
#[test]
fn ctrl_c_quits() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    run.answer("Date", CTRL_C);
    let seen = run.wait("Quit (Ctrl-C).");
    let before = seen.strip_suffix("Quit (Ctrl-C).").unwrap();
    assert!(
        plain(before).contains("nothing is chosen for you]"),
        "{before:?}"
    );
    assert!(before.ends_with('\n'), "{before:?}");
    run.p.expect(expectrl::Eof).expect("the client exits");
}

#[test]
fn escape_cancels_in_one_key() {
    let mut run = Run::demo(&[]);
    run.tool(0);
    run.answer("Date", ESC);
    run.wait("Booking cancelled at the date step.");
    run.quit();
}

/// A refused answer is explained inline and comes back as typed, to be mended rather
/// than typed again (here against `book-trip`, whose alternative date is text).
#[test]
fn an_invalid_answer_is_explained_and_given_back_as_typed() {
    let mut run = Run::start(&["--", env!("CARGO_BIN_EXE_book-trip"), "--today", TODAY]);
    run.tool(0); // book-trip
    run.answer("The travel date", &format!("2031-06-30{ENTER}")); // sold out
    run.wait("No trip available on 2031-06-30");
    run.answer("Alternate date", &format!("y{ENTER}"));
    run.answer("New Date", &format!("2031-07-0{ENTER}"));
    // The kit's own message, inline, and the same question again, holding the text:
    // one more key makes it a date.
    run.answer("not a date in the form YYYY-MM-DD", &format!("2{ENTER}"));
    run.answer("Review", ENTER);
    run.wait("Trip booked on alternate date: 2031-07-02");
    run.quit();
}

/// The escape sequences, BEL, C1 CSI and override the hostile server puts in every
/// string it sends. The widgets draw with escape sequences of their own (cursor moves,
/// colors), so on a terminal the server's are looked for one by one; without a
/// terminal (see below) no escape byte may appear at all.
const HOSTILE: [&[u8]; 8] = [
    b"\x1b[2J",
    b"\x1b[8m",
    b"\x1b]8;",
    b"\x1b]52;",
    b"\x1b[6n",
    b"\x1b[?1049h",
    b"\x07",
    "\u{9b}".as_bytes(),
];

fn assert_clean(seen: &[u8], strict: bool) {
    for needle in HOSTILE {
        assert!(
            !seen.windows(needle.len()).any(|w| w == needle),
            "{needle:?} reached the terminal: {}",
            String::from_utf8_lossy(seen)
        );
    }
    let text = String::from_utf8_lossy(seen);
    assert!(
        !text.contains('\u{202e}'),
        "a right-to-left override got through"
    );
    // Invisible format characters: zero-width space, word joiner, byte order mark, tags.
    for c in ['\u{200b}', '\u{2060}', '\u{feff}', '\u{e0049}', '\u{e0047}'] {
        assert!(
            !text.contains(c),
            "U+{:04X} (invisible) got through",
            c as u32
        );
    }
    if strict {
        assert!(!seen.contains(&0x1b), "an escape byte got through: {text}");
    }
}

fn hostile() -> &'static str {
    env!("CARGO_BIN_EXE_hostile-server")
}

#[test]
fn a_hostile_servers_strings_reach_the_terminal_only_as_text() {
    let mut run = Run::start(&["--", hostile()]);
    run.tool(0); // greet
    run.answer("FIELD", ENTER); // one field: its option, and the form is sent
    run.wait("you answered accept");
    run.wait("Which tool?");
    run.tool(6); // the tool with a hostile name
    run.wait("RESULT");
    let seen = run.quit();
    assert_clean(&seen, false);
    // Every string was shown, its words readable.
    let text = String::from_utf8_lossy(&seen);
    for word in [
        "SERVER",
        "DESCRIPTION",
        "TOOLNAME",
        "QUESTION",
        "FIELD",
        "HELP",
        "OPTION",
        "RESULT",
        "STDERR",
        "HIDDEN",
        "LINK",
    ] {
        assert!(text.contains(word), "{word} was not shown: {text}");
    }
}

#[test]
fn a_url_is_shown_by_its_host_before_it_is_opened() {
    let mut run = Run::start(&["--", hostile()]);
    run.tool(3); // pay
    run.wait("PAYMENT");
    run.wait("The page is on pay.evil.example");
    run.wait("https://pay.evil.example/checkout?next=https://bank.example/");
    // Enter declines: opening a page takes a deliberate choice.
    run.answer("What do you want to do?", ENTER);
    run.wait("you answered decline");
    assert_clean(&run.quit(), false);
}

/// An option titled exactly like the client's own "✗ Decline this form", preselected by
/// the server, is shown apart from the client's Decline (behind the `│ ` that marks the
/// server's choices), and Enter on the cursor as it starts declines rather than accept
/// the look-alike's `allow`. On line prompts, likewise.
#[test]
fn an_option_titled_like_decline_is_shown_apart_and_never_preselected() {
    let mut run = Run::start(&["--", hostile()]);
    run.tool(8); // lookalike
    run.wait("Allow the agent to delete your files?");
    run.wait("Decision");
    // Both entries, as the list is first drawn.
    let list = run.wait("Decline this form") + &run.wait("Decline this form");
    assert!(list.contains("│ ✗ Decline this form"), "{list}");
    std::thread::sleep(Duration::from_millis(150));
    run.p.send(ENTER).unwrap();
    run.wait("you answered ");
    let action = run.wait("\n");
    assert_eq!(action.trim_end(), "decline");
    assert_clean(&run.quit(), false);

    let (ok, seen) = piped(&["--tool", "lookalike", "--", hostile()], "\n");
    let text = String::from_utf8_lossy(&seen);
    assert!(ok, "{text}");
    assert!(text.contains("1) │ ✗ Decline this form"), "{text}");
    assert!(text.contains("2) ✗ Decline this form"), "{text}");
    assert!(text.contains("you answered decline"), "{text}");
}

/// A field title with line breaks shows on one line of the review screen (a break as
/// `␤`), never as review lines of its own making.
#[test]
fn a_multi_line_title_stays_on_one_review_line() {
    let forged = |text: &str| {
        text.lines()
            .any(|l| l.trim_start().starts_with("To: savings") || l.trim_end() == "  Note: 5000")
    };
    let mut run = Run::start(&["--", hostile()]);
    run.tool(9); // forged
    run.answer("Note", ENTER); // the amount, 5000 as the server put it
    run.answer("Reference", ENTER);
    run.wait("Your answers:");
    let review = run.answer("Review", ENTER); // Submit
    assert!(
        review.contains("  Amount: 50␤  To: savings (your own)␤  Note: 5000"),
        "{review}"
    );
    assert!(!forged(&review), "{review}");
    run.wait(r#"you answered accept {"amount":5000,"to":"acct-666-mallory"}"#);
    assert_clean(&run.quit(), false);

    let (ok, seen) = piped(&["--tool", "forged", "--", hostile()], "\n\n1\n");
    let text = String::from_utf8_lossy(&seen);
    assert!(ok, "{text}");
    assert!(
        text.contains("  Amount: 50␤  To: savings (your own)␤  Note: 5000"),
        "{text}"
    );
    assert!(!forged(&text), "{text}");
    assert!(text.contains("you answered accept"), "{text}");
}

/// Runs the client without a terminal: `input` on its stdin; stdout and stderr together.
fn piped(args: &[&str], input: &str) -> (bool, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_terminal-client"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let mut all = out.stdout;
    all.extend(out.stderr);
    (out.status.success(), all)
}

#[test]
fn line_prompts_show_no_escape_byte() {
    // The menu, the greet form (option 1), the menu again: end of input quits.
    let (ok, seen) = piped(&["--", hostile()], "1\n1\n");
    assert!(ok, "{}", String::from_utf8_lossy(&seen));
    assert!(String::from_utf8_lossy(&seen).contains("you answered accept"));
    assert_clean(&seen, true);
    // The server's message and name carry lines imitating the client's frame around a
    // question: shown, but never as a line of the client's own.
    let text = String::from_utf8_lossy(&seen);
    assert!(text.contains("│ ── bank.example asks ──"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("── bank.example")),
        "a server line passed for the client's frame: {text}"
    );
}

#[test]
fn answers_mode_shows_no_escape_byte() {
    let dir = std::env::temp_dir().join(format!("elicit-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("answers.json");
    std::fs::write(
        &script,
        r#"[{"fields": ["pick"], "action": "accept", "content": {"pick": "b"}}]"#,
    )
    .unwrap();
    let args = [
        "--answers",
        script.to_str().unwrap(),
        "--tool",
        "greet",
        "--",
        hostile(),
    ];
    let (ok, seen) = piped(&args, "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(ok, "{}", String::from_utf8_lossy(&seen));
    assert!(String::from_utf8_lossy(&seen).contains("you answered accept"));
    assert_clean(&seen, true);
}

#[test]
fn a_message_too_large_closes_the_connection_with_a_clear_error() {
    for tool in ["huge", "bomb"] {
        let (ok, seen) = piped(&["--tool", tool, "--", hostile()], "");
        let text = String::from_utf8_lossy(&seen);
        assert!(!ok, "{text}");
        assert!(
            text.contains(
                "the server sent a message larger than 1048576 bytes, the most this client reads"
            ),
            "{tool}: {text}"
        );
    }
}

/// A form the kit refuses is not shown, the server gets an error, and the user is told
/// why, in words that quote the server only as text.
#[test]
fn a_refused_form_is_explained_to_the_user() {
    for (tool, why) in [
        (
            "titled",
            "title: 5000 bytes, more than the 4096 a client shows",
        ),
        (
            "long",
            "the message is 102400 bytes, more than the 65536 a client shows",
        ),
    ] {
        let (ok, seen) = piped(&["--tool", tool, "--", hostile()], "");
        let text = String::from_utf8_lossy(&seen);
        assert!(ok, "{text}");
        assert!(
            text.contains("asked something this client will not show"),
            "{text}"
        );
        assert!(text.contains(why), "{tool}: {text}");
        assert!(text.contains("you answered an error"), "{text}");
        assert_clean(&seen, true);
    }
}

/// A URL whose line break and line separator would print a line of the server's making
/// under the client's ("The page is on bank.example") is refused, never shown.
#[test]
fn a_url_with_line_breaks_is_refused() {
    let (ok, seen) = piped(&["--tool", "spoof", "--", hostile()], "");
    let text = String::from_utf8_lossy(&seen);
    assert!(ok, "{text}");
    assert!(
        text.contains("asked something this client will not show"),
        "{text}"
    );
    assert!(text.contains("not a valid absolute URI"), "{text}");
    assert!(!text.contains("The page is on bank.example"), "{text}");
    assert!(text.contains("you answered an error"), "{text}");
}

/// A server that always has one more page of tools is cut off at the client's limit,
/// with an error naming it, instead of followed until memory runs out.
#[test]
fn an_endless_tool_list_is_cut_off() {
    let (ok, seen) = piped(&["--", hostile(), "--endless-list"], "");
    let text = String::from_utf8_lossy(&seen);
    assert!(!ok, "{text}");
    assert!(text.contains("more than 64 pages or 10000 tools"), "{text}");
}

/// The unattended mode books as before, from a script matching by message.
#[test]
fn answers_mode_books_from_a_script() {
    let dir = std::env::temp_dir().join(format!("elicit-answers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("answers.json");
    std::fs::write(
        &script,
        r#"[{"message": "Which day", "action": "accept", "content": {"date": "2031-07-02"}},
            {"message": "Pick a seat", "action": "accept", "content": {"seat": "B4"}},
            {"fields": ["popcorn", "drink"], "action": "accept", "content": {"drink": "cola"}}]"#,
    )
    .unwrap();
    // Pushed (the handshake's default), and as a task on 2026-07-28.
    for protocol in [None, Some("2026-07-28")] {
        let mut args = vec![
            "--answers",
            script.to_str().unwrap(),
            "--tool",
            "book_tickets",
            "--today",
            TODAY,
        ];
        args.extend(protocol.iter().flat_map(|p| ["--protocol", p]));
        let (ok, seen) = piped(&args, "");
        let text = String::from_utf8_lossy(&seen);
        assert!(ok, "{protocol:?}: {text}");
        assert!(
            text.contains("→ Booked seat B4 on 2031-07-02 with cola."),
            "{protocol:?}: {text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
