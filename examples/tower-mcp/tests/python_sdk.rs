//! elicit on the tower-mcp SDK: `ticket-tower` (tower-mcp 0.25, `elicit_core::engine`)
//! driven by the official MCP Python SDK client in both eras, every step first answered
//! with something unusable and asked again with the problem; in rounds, a replayed state
//! is refused. And the glue stays small. (The same checks as `examples/tests/any_server.rs`;
//! how the SDK is found: `elicit_examples::python_sdk`.)

use elicit_examples::python_sdk::{check_glue, check_pushed, check_rounds};

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_tower_mcp_pushed() {
    check_pushed(env!("CARGO_BIN_EXE_ticket-tower"));
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_ticket_wizard_books_on_tower_mcp_in_rounds_and_a_replay_is_refused() {
    check_rounds(env!("CARGO_BIN_EXE_ticket-tower"));
}

#[test]
fn the_glue_stays_under_40_lines() {
    check_glue("ticket-tower", include_str!("../src/main.rs"));
}
