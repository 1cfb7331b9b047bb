//! Looks for the programs the Redis and browser tests need (`programs.rs`): a missing one
//! makes its tests ignored, with the reason, unless required.

include!("programs.rs");

fn main() {
    redis();
    browser(Path::new("browser"));
}
