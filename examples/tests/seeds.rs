//! The seeds' stories through the official MCP Python SDK client, in both eras: seed
//! 002's purge (tick, e-mail, keep the defaults, submit) ends in `[DELETED]` and deletes
//! exactly the listed old logs. (How the SDK is found: `elicit_examples::python_sdk`.)

#![cfg(unix)]

use elicit_examples::python_sdk::check_seed_purge;

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_seeds_purge_deletes_when_pushed() {
    check_seed_purge(env!("CARGO_BIN_EXE_purge-approval"), "legacy");
}

#[test]
#[cfg_attr(
    no_python_sdk,
    ignore = "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)"
)]
fn the_seeds_purge_deletes_in_rounds() {
    check_seed_purge(env!("CARGO_BIN_EXE_purge-approval"), "2026-07-28");
}
