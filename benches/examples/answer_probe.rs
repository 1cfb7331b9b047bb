//! A probe for instruction counts (callgrind) of one answer parse: runs N parses of
//! one bench form's answer by one route.
//!
//! ```sh
//! cargo build --release -p elicit-benches --example answer_probe
//! P=target/release/examples/answer_probe
//! valgrind --tool=callgrind $P setup form20 100000
//! valgrind --tool=callgrind $P elicit form20 100000
//! ```
//!
//! (route minus setup) / N is one parse's count. Routes: `setup` (the validator built,
//! nothing parsed); `elicit` (`from_content`, borrowed); `elicit_owned`
//! (`from_content_owned` of a clone); `serde` (`from_value` of a clone); `serde_ref`
//! (`T::deserialize(&value)`); `clone`; `jsonschema` (validate, formats on, then
//! `from_value` of a clone). Forms: `form5`, `form20`, `enums`, and `own_form5`,
//! `own_form20`, `own_enums`: ours with `#[elicit(deserialize)]`, every other route
//! reading the serde-derived twin.

use std::hint::black_box;

use elicit_benches::{
    Form5, Form20, FormEnums, form_enums_answer, form5_answer, form20_answer, own,
};
use elicit_core::{Elicit, Revision};
use serde::de::DeserializeOwned;
use serde_json::Value;

fn run<T: Elicit, U: DeserializeOwned>(route: &str, answer: Value, n: usize) -> usize {
    let schema = T::requested_schema(Revision::V2025_11_25)
        .unwrap()
        .to_value();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let mut sink = 0;
    for _ in 0..n {
        let v = black_box(&answer);
        sink += match route {
            "setup" => 0,
            "elicit" => keep(T::from_content(Some(v)).unwrap()),
            "elicit_owned" => keep(T::from_content_owned(Some(v.clone())).unwrap()),
            "serde" => keep(serde_json::from_value::<U>(v.clone()).unwrap()),
            "serde_ref" => keep(U::deserialize(v).unwrap()),
            "clone" => keep(v.clone()),
            "jsonschema" => {
                validator.validate(v).unwrap();
                keep(serde_json::from_value::<U>(v.clone()).unwrap())
            }
            other => panic!("unknown route {other}"),
        };
    }
    sink
}

/// Keeps a parsed value from being optimized away, then drops it.
fn keep<X>(x: X) -> usize {
    black_box(x);
    1
}

fn main() {
    let mut args = std::env::args().skip(1);
    let route = args.next().expect("a route");
    let form = args.next().expect("a form");
    let n: usize = args.next().expect("a count").parse().expect("a number");
    let sink = match form.as_str() {
        "form5" => run::<Form5, Form5>(&route, form5_answer(), n),
        "form20" => run::<Form20, Form20>(&route, form20_answer(), n),
        "enums" => run::<FormEnums, FormEnums>(&route, form_enums_answer(), n),
        // Ours with `#[elicit(deserialize)]`; the other routes read the serde twin.
        "own_form5" => run::<own::Form5, Form5>(&route, form5_answer(), n),
        "own_form20" => run::<own::Form20, Form20>(&route, form20_answer(), n),
        "own_enums" => run::<own::FormEnums, FormEnums>(&route, form_enums_answer(), n),
        other => panic!("unknown form {other}"),
    };
    println!("{sink}");
}
