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
//! `from_value` of a clone). Forms: `form5`, `form20`, `enums`.

use std::hint::black_box;

use elicit_benches::{Form5, Form20, FormEnums, form_enums_answer, form5_answer, form20_answer};
use elicit_core::{Elicit, Revision};
use serde_json::Value;

fn run<T: Elicit>(route: &str, answer: Value, n: usize) -> usize {
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
        let parsed: Option<T> = match route {
            "setup" => None,
            "elicit" => Some(T::from_content(Some(v)).unwrap()),
            "elicit_owned" => Some(T::from_content_owned(Some(v.clone())).unwrap()),
            "serde" => Some(serde_json::from_value(v.clone()).unwrap()),
            "serde_ref" => Some(T::deserialize(v).unwrap()),
            "clone" => {
                sink += black_box(v.clone()).is_object() as usize;
                None
            }
            "jsonschema" => {
                validator.validate(v).unwrap();
                Some(serde_json::from_value(v.clone()).unwrap())
            }
            other => panic!("unknown route {other}"),
        };
        sink += parsed.is_some() as usize;
    }
    sink
}

fn main() {
    let mut args = std::env::args().skip(1);
    let route = args.next().expect("a route");
    let form = args.next().expect("a form");
    let n: usize = args.next().expect("a count").parse().expect("a number");
    let sink = match form.as_str() {
        "form5" => run::<Form5>(&route, form5_answer(), n),
        "form20" => run::<Form20>(&route, form20_answer(), n),
        "enums" => run::<FormEnums>(&route, form_enums_answer(), n),
        other => panic!("unknown form {other}"),
    };
    println!("{sink}");
}
