//! Looks for the MCP Python SDK its tests need (`../../tests/programs.rs`): missing, they
//! are ignored, with the reason, unless required.

include!("../../tests/programs.rs");

fn main() {
    python_sdk();
}
