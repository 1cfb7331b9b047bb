//! Compile-fail tests: every declaration mistake the derives refuse, with the
//! error a user sees committed next to it (`ui/**/*.stderr`). The messages are
//! part of the product: read a changed `.stderr` before accepting it
//! (`TRYBUILD=overwrite cargo test -p elicit-compile-fail`).

#[test]
fn elicit_declaration_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/elicit/*.rs");
}

#[test]
fn wizard_declaration_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/wizard/*.rs");
}

#[test]
fn accepted_declarations() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
}
