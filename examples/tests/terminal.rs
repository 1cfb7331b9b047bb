//! `terminal-client` driven through a pseudo-terminal, as a person would: the `inquire`
//! widgets, the real `ticket-booking` server as its child, one accept, one decline, one
//! cancel (Esc) and one invalid-then-fixed answer.
#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

use expectrl::Session;
use expectrl::session::{OsProcess, OsProcessStream};

const ENTER: &str = "\r";
const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";

type Pty = Session<OsProcess, OsProcessStream>;

/// The demo, in a fresh pseudo-terminal, at the tool menu.
fn start() -> Pty {
    let mut command = Command::new(env!("CARGO_BIN_EXE_terminal-client"));
    command.env("TERM", "xterm").env_remove("ELICIT_KEYS");
    let mut p: Pty = Session::spawn(command).expect("spawn in a pty");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.expect("Which tool?").expect("the tool menu");
    p
}

/// Waits for `text`, then sends `keys` (giving the widget a moment to be ready).
fn step(p: &mut Pty, text: &str, keys: &str) {
    p.expect(text)
        .unwrap_or_else(|e| panic!("waiting for {text:?}: {e}"));
    std::thread::sleep(Duration::from_millis(150));
    p.send(keys).unwrap();
}

/// Picks `book_tickets` and chooses what to do with the first form.
fn open_date_form(p: &mut Pty, choice: &str) {
    std::thread::sleep(Duration::from_millis(150));
    p.send(ENTER).unwrap(); // book_tickets
    step(p, "Which day would you like to go?", "");
    step(p, "What do you want to do?", choice);
}

fn quit(mut p: Pty) {
    step(&mut p, "Which tool?", ESC);
    p.expect(expectrl::Eof).expect("the client exits");
}

#[test]
fn accept_books_a_seat() {
    let mut p = start();
    open_date_form(&mut p, ENTER); // Answer
    step(&mut p, "Date", &format!("2025-02-03{ENTER}"));
    step(&mut p, "Review", ENTER); // Submit
    step(&mut p, "Pick a seat for 2025-02-03", "");
    step(&mut p, "What do you want to do?", ENTER);
    step(&mut p, "A2", ENTER); // the first seat, A1
    step(&mut p, "Review", ENTER);
    step(&mut p, "Anything to eat?", "");
    step(&mut p, "What do you want to do?", ENTER);
    step(&mut p, "Popcorn?", &format!("n{ENTER}"));
    step(&mut p, "Drink", ENTER); // water
    step(&mut p, "Review", ENTER);
    p.expect("Booked seat A1 on 2025-02-03 with water.")
        .expect("the booking");
    quit(p);
}

#[test]
fn decline_is_not_cancel() {
    let mut p = start();
    open_date_form(&mut p, &format!("{DOWN}{ENTER}")); // Decline
    p.expect("Nothing booked: you declined the date step.")
        .expect("declined");
    quit(p);
}

#[test]
fn escape_cancels() {
    let mut p = start();
    open_date_form(&mut p, ESC);
    p.expect("Booking cancelled at the date step.")
        .expect("cancelled");
    quit(p);
}

#[test]
fn an_invalid_answer_is_explained_and_fixed() {
    let mut p = start();
    open_date_form(&mut p, ENTER);
    step(&mut p, "Date", &format!("tomorrow{ENTER}"));
    // The kit's own message, inline, and the same question again.
    step(
        &mut p,
        "not a date in the form YYYY-MM-DD",
        &format!("2025-02-01{ENTER}"),
    );
    step(&mut p, "Review", ENTER);
    // A valid date the server rejects (sold out) is asked again with its reason.
    step(&mut p, "No seats left on 2025-02-01", "");
    step(&mut p, "What do you want to do?", ENTER);
    step(&mut p, "Date", &format!("2025-02-04{ENTER}"));
    step(&mut p, "Review", ENTER);
    step(&mut p, "Pick a seat for 2025-02-04", "");
    step(&mut p, "What do you want to do?", ESC);
    p.expect("Booking cancelled at the seat step.")
        .expect("cancelled at the seat");
    quit(p);
}
