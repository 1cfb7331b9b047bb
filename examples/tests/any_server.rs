//! elicit on no MCP SDK: `ticket-plain` (plain stdio JSON-RPC, `elicit_core::engine`)
//! driven by the official MCP Python SDK client in both eras, every step first answered
//! with something unusable and asked again with the problem; in rounds, a replayed state
//! is refused. And the glue stays small. (How the SDK is found: `elicit_examples::python_sdk`.)

use elicit_examples::python_sdk::{check_glue, check_pushed, check_rounds};

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_no_sdk_pushed() {
    check_pushed(env!("CARGO_BIN_EXE_ticket-plain"));
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_no_sdk_in_rounds_and_a_replay_is_refused() {
    check_rounds(env!("CARGO_BIN_EXE_ticket-plain"));
}

#[test]
fn the_glue_stays_under_40_lines() {
    check_glue("ticket-plain", include_str!("../src/bin/ticket-plain.rs"));
}

/// While a pushed question waits for the person, the plain transport sends the engine's
/// keep-alive for the call's `progressToken` each interval (10 s by default), from its
/// own timer: no SDK, no async runtime's clock.
#[test]
fn a_waiting_question_keeps_the_call_alive_on_a_plain_transport() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    let mut server = Command::new(env!("CARGO_BIN_EXE_ticket-plain"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ticket-plain starts");
    let (lines, read) = mpsc::channel();
    let stdout = server.stdout.take().expect("its stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = server.stdin.take().expect("its stdin");
    for message in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book_tickets","arguments":{},"_meta":{"progressToken":"call-2"}}}"#,
    ] {
        writeln!(stdin, "{message}").expect("a line to the server");
    }
    let next = || -> serde_json::Value {
        let line = read.recv_timeout(Duration::from_secs(30));
        serde_json::from_str(&line.expect("a message within 30 s")).expect("JSON")
    };
    assert_eq!(next()["id"], 1, "the initialize result");
    let asked = next();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let alive = next();
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(alive["method"], "notifications/progress", "{alive}");
    assert_eq!(alive["params"]["progressToken"], "call-2", "{alive}");
    assert_eq!(alive["params"]["progress"], 1, "{alive}");
}
