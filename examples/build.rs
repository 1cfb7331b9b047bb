//! Looks for the programs the Redis and Python SDK tests need (`../tests/programs.rs`): a
//! missing one makes its tests ignored, with the reason, unless required.

include!("../tests/programs.rs");

fn main() {
    redis();
    python_sdk();
}
