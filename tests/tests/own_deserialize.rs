//! `#[elicit(deserialize)]`: the derive writes `Deserialize` itself and reads a clean
//! answer straight into the struct. Each form here is declared twice from one body, once
//! with serde's derive and once with the derive's own, and the two must agree on every
//! answer: the parsed value, or the error's text, through `from_content` (borrowed and
//! owned, strict and lenient), `serde_json::from_value` and `serde_json::from_str`.

#![deny(warnings)]

use serde_json::{Value, json};

/// Declares the items once in `by_serde` (serde's `Deserialize`) and once in `by_elicit`
/// (`#[elicit(deserialize)]`).
macro_rules! twins {
    (@each [$($serde:ident)?] [$($own:tt)*] $(#[$m:meta])* $kind:ident $name:ident $body:tt $($rest:tt)*) => {
        #[derive(Debug, Elicit $(, $serde)?)]
        $($own)*
        $(#[$m])*
        pub $kind $name $body
        twins!(@each [$($serde)?] [$($own)*] $($rest)*);
    };
    (@each [$($serde:ident)?] [$($own:tt)*]) => {};
    ($($item:tt)*) => {
        mod by_serde {
            #![allow(dead_code)]
            use super::one;
            use elicit_core::Elicit;
            use serde::Deserialize;
            twins!(@each [Deserialize] [] $($item)*);
        }
        mod by_elicit {
            #![allow(dead_code)]
            use super::one;
            use elicit_core::Elicit;
            twins!(@each [] [#[elicit(deserialize)]] $($item)*);
        }
    };
}

twins! {
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE", rename = "SizeOption")]
    enum Size {
        /// Small.
        #[elicit(title = "Small (S)")]
        Small,
        #[serde(rename = "M")]
        Medium,
        Large,
    }

    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Topping {
        #[serde(rename = "butter")]
        Butter,
        #[serde(rename = "salt")]
        Salt,
        #[serde(rename = "caramel")]
        Caramel,
    }

    #[serde(rename_all = "camelCase")]
    struct Order {
        #[elicit(title = "Size")]
        size: Size,
        #[elicit(title = "Toppings", min_items = 1, max_items = 2)]
        toppings: Vec<Topping>,
        extra_toppings: Option<std::collections::BTreeSet<Topping>>,
        #[elicit(minimum = 1, maximum = 4)]
        buckets: u8,
        #[elicit(format = "email", max_length = 40)]
        contact_email: String,
        #[elicit(format = "date")]
        pick_up: Option<String>,
        #[elicit(default = true)]
        napkins: bool,
        #[serde(default)]
        note: String,
        #[serde(default = "one")]
        #[elicit(minimum = 1)]
        tickets: u32,
        #[serde(skip)]
        internal: Vec<u8>,
        #[serde(rename = "TIP")]
        #[elicit(minimum = 0, maximum = 50)]
        tip: Option<f64>,
        ratio: Option<f32>,
        offset: Option<i64>,
        wide: Option<u128>,
        second_size: Option<Size>,
    }

    #[serde(deny_unknown_fields, rename = "StrictForm")]
    struct Strict {
        #[elicit(min_length = 1)]
        name: String,
        count: Option<i16>,
    }
}

fn one() -> u32 {
    1
}

fn answers() -> Vec<Value> {
    let clean = json!({
        "size": "SMALL", "toppings": ["butter", "caramel"], "buckets": 2,
        "contactEmail": "ada@example.com", "napkins": false, "tickets": 3
    });
    let mut out = vec![
        clean.clone(),
        json!({"size": "M", "toppings": ["salt"], "buckets": 4, "contactEmail": "b@c.de",
               "napkins": true, "note": "hi", "tickets": 1, "TIP": 2.5, "ratio": 16777217,
               "offset": -5, "wide": 18446744073709551615u64, "secondSize": "LARGE",
               "pickUp": "2025-02-03", "extraToppings": ["salt", "butter"]}),
        // Left out: a form default (filled), serde defaults, options.
        json!({"size": "LARGE", "toppings": ["salt"], "buckets": 1, "contactEmail": "a@b.co"}),
        // Not clean: nulls, coercible strings, unknown keys.
        json!({"size": "SMALL", "toppings": ["salt"], "buckets": "2", "contactEmail": "a@b.co",
               "napkins": "true", "TIP": null, "unknown": [1, {"x": 2}]}),
        json!({"size": "SMALL", "toppings": ["salt"], "buckets": 2.0, "contactEmail": "a@b.co",
               "ratio": 1.5e300, "offset": 9223372036854775807i64}),
        // Refused: every kind of mistake.
        json!({"size": "Medium", "toppings": [], "buckets": 9, "contactEmail": "nope"}),
        json!({"size": "SMALL", "toppings": ["salt", "salt"], "buckets": -1, "contactEmail": 5}),
        json!({"size": 1, "toppings": "salt", "buckets": 1, "contactEmail": "a@b.co", "tickets": 0}),
        json!({"toppings": ["salt", "butter", "caramel"], "TIP": 51, "pickUp": "2025-13-40"}),
        json!({"size": "SMALL", "toppings": ["salt"], "buckets": 1, "contactEmail": "a@b.co",
               "internal": [1, 2], "tickets": 4294967296u64}),
        json!({}),
        json!([1, 2]),
        json!("text"),
        Value::Null,
    ];
    // Each key of the clean answer left out, and each replaced by a wrong type.
    if let Value::Object(map) = &clean {
        for key in map.keys() {
            let mut less = map.clone();
            less.remove(key);
            out.push(Value::Object(less));
            let mut wrong = map.clone();
            wrong.insert(key.clone(), json!({"nested": true}));
            out.push(Value::Object(wrong));
        }
    }
    out
}

fn strict_answers() -> Vec<Value> {
    vec![
        json!({"name": "Ada"}),
        json!({"name": "Ada", "count": -3}),
        json!({"name": "Ada", "count": null}),
        json!({"name": "", "count": 40000}),
        json!({"name": "Ada", "other": 1}),
        json!({"count": 1}),
    ]
}

/// The result's text: the value's `Debug` (the twins print alike) or the error's
/// message.
fn text<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>) -> String {
    match r {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("error {e}"),
    }
}

fn agree<S, O>(answers: &[Value])
where
    S: elicit_core::Elicit + std::fmt::Debug,
    O: elicit_core::Elicit + std::fmt::Debug,
{
    use elicit_core::Strictness;
    for answer in answers {
        for strictness in [Strictness::Strict, Strictness::Lenient] {
            let content = Some(answer);
            assert_eq!(
                text(S::from_content_with(content, strictness)),
                text(O::from_content_with(content, strictness)),
                "from_content_with {answer} ({strictness:?})"
            );
            assert_eq!(
                text(S::from_content_owned_with(content.cloned(), strictness)),
                text(O::from_content_owned_with(content.cloned(), strictness)),
                "from_content_owned_with {answer} ({strictness:?})"
            );
        }
        assert_eq!(
            text(serde_json::from_value::<S>(answer.clone())),
            text(serde_json::from_value::<O>(answer.clone())),
            "from_value {answer}"
        );
        let json = answer.to_string();
        assert_eq!(
            text(serde_json::from_str::<S>(&json)),
            text(serde_json::from_str::<O>(&json)),
            "from_str {json}"
        );
    }
}

#[test]
fn the_own_deserialize_agrees_with_serdes() {
    let answers = answers();
    // The corpus is worth something only if it reaches both ends.
    let parsed = answers
        .iter()
        .filter(|a| <by_elicit::Order as elicit_core::Elicit>::from_content(Some(a)).is_ok())
        .count();
    assert!(parsed >= 4 && parsed < answers.len() - 4, "{parsed}");
    agree::<by_serde::Order, by_elicit::Order>(&answers);
    agree::<by_serde::Strict, by_elicit::Strict>(&strict_answers());
}

#[test]
fn duplicate_and_unknown_keys_in_json_text() {
    for json in [
        r#"{"name": "Ada", "name": "Bob"}"#,
        r#"{"name": "Ada", "other": 1}"#,
        r#"{"name": "Ada", "count": 1, "count": 2}"#,
        r#"{"name": "Ada\u0000", "count": 1}"#,
        r#"{"name": 1}"#,
        r#"["Ada", 1]"#,
    ] {
        assert_eq!(
            text(serde_json::from_str::<by_serde::Strict>(json)),
            text(serde_json::from_str::<by_elicit::Strict>(json)),
            "{json}"
        );
    }
    let dup = r#"{"size": "SMALL", "size": "LARGE", "toppings": ["salt"], "buckets": 1, "contactEmail": "a@b.co"}"#;
    let own = text(serde_json::from_str::<by_elicit::Order>(dup));
    assert!(own.starts_with("error duplicate field `size`"), "{own}");
    assert_eq!(own, text(serde_json::from_str::<by_serde::Order>(dup)));
}

#[test]
fn enums_read_alike() {
    for value in [
        json!("SMALL"),
        json!("M"),
        json!("Medium"),
        json!("LARGE"),
        json!(""),
        json!(0),
        json!({"SMALL": null}),
        json!(null),
    ] {
        assert_eq!(
            text(serde_json::from_value::<by_serde::Size>(value.clone())),
            text(serde_json::from_value::<by_elicit::Size>(value.clone())),
            "{value}"
        );
    }
}

#[test]
fn a_clean_answer_is_read_directly() {
    use elicit_core::{Elicit, Strictness};
    let answer = json!({
        "size": "M", "toppings": ["salt", "butter"], "buckets": 3,
        "contactEmail": "ada@example.com", "napkins": true, "tickets": 2, "secondSize": "SMALL"
    });
    let Value::Object(map) = &answer else {
        unreachable!()
    };
    // The fused reading takes it (nothing falls back to `Deserialize`)...
    let read = by_elicit::Order::__read_clean(map, Strictness::Strict)
        .expect("clean")
        .expect("read");
    assert_eq!(
        format!("{read:?}"),
        format!(
            "{:?}",
            by_serde::Order::from_content(Some(&answer)).unwrap()
        )
    );
    // ...and hands anything not clean back to the full pass.
    let mut unclean = map.clone();
    unclean.insert("buckets".into(), json!("3"));
    assert!(by_elicit::Order::__read_clean(&unclean, Strictness::Lenient).is_none());
    let mut defaulted = map.clone();
    defaulted.remove("napkins");
    assert!(by_elicit::Order::__read_clean(&defaulted, Strictness::Strict).is_none());
}

/// A struct with `#[elicit(deserialize)]` whose enums keep serde's `Deserialize`: those
/// fields are read by it, the rest directly.
mod mixed {
    #![allow(dead_code)]
    use elicit_core::Elicit;

    #[derive(Debug, Elicit)]
    #[elicit(deserialize)]
    pub struct Order {
        pub size: crate::by_serde::Size,
        pub more: Option<Vec<crate::by_serde::Topping>>,
        #[elicit(max_length = 5)]
        pub name: String,
    }
}

mod mixed_by_serde {
    #![allow(dead_code)]
    use elicit_core::Elicit;
    use serde::Deserialize;

    #[derive(Debug, Elicit, Deserialize)]
    pub struct Order {
        pub size: crate::by_serde::Size,
        pub more: Option<Vec<crate::by_serde::Topping>>,
        #[elicit(max_length = 5)]
        pub name: String,
    }
}

#[test]
fn fields_keep_their_own_deserialize() {
    use elicit_core::{Elicit, Strictness};
    let answers = [
        json!({"size": "M", "more": ["salt"], "name": "Ada"}),
        json!({"size": "LARGE", "name": "Ada"}),
        json!({"size": "Medium", "more": ["pepper"], "name": "Adalbert"}),
        json!({"size": "M", "more": null, "name": "Ada", "x": 1}),
        json!({"more": []}),
    ];
    agree::<mixed_by_serde::Order, mixed::Order>(&answers);
    let Value::Object(map) = &answers[0] else {
        unreachable!()
    };
    let read = mixed::Order::__read_clean(map, Strictness::Strict)
        .expect("clean")
        .expect("read");
    assert_eq!(read.size, by_serde::Size::Medium);
    assert_eq!(read.more, Some(vec![by_serde::Topping::Salt]));
}

/// A wizard whose steps are read by the derive's own `Deserialize`.
mod own_steps {
    use elicit_core::{Elicit, Wizard};

    #[derive(Debug, Elicit)]
    #[elicit(deserialize)]
    pub struct Name {
        #[elicit(min_length = 1)]
        pub name: String,
    }

    #[derive(Debug, Elicit)]
    #[elicit(deserialize)]
    pub struct Count {
        #[elicit(minimum = 1, maximum = 3)]
        pub count: u8,
        pub size: Option<crate::by_elicit::Size>,
    }

    #[derive(Debug, Wizard)]
    pub struct Order {
        #[step(message = "Who orders?")]
        pub name: Name,
        #[step(message = "How many?")]
        pub count: Count,
    }
}

#[test]
fn wizard_steps_read_by_the_own_deserialize() {
    use elicit_core::Revision;
    use elicit_core::wizard::{Flow, Outcome, Poll};
    let mut flow = Flow::<own_steps::Order>::new();
    let answers = [
        json!({"name": "Ada"}),
        // Refused (out of bounds), asked again, then read (an unknown key passed over).
        json!({"count": 9}),
        json!({"count": 2, "size": "M", "extra": true}),
    ];
    for answer in &answers {
        let Poll::Ask(_) = flow.poll(&(), Revision::V2025_11_25).unwrap() else {
            panic!("the wizard ended early")
        };
        flow.answer(&(), "accept", Some(answer)).unwrap();
    }
    match flow.poll(&(), Revision::V2025_11_25).unwrap() {
        Poll::Done(Outcome::Completed(order)) => {
            assert_eq!(order.name.name, "Ada");
            assert_eq!(order.count.count, 2);
            assert_eq!(order.count.size, Some(by_elicit::Size::Medium));
        }
        other => panic!("not completed: {other:?}"),
    }
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    /// A value a client might send for any field of `Order`: the options' wire names,
    /// numbers at and past the bounds, text with and without an e-mail's shape, nulls,
    /// lists of those.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            prop::sample::select(vec![
                "SMALL",
                "M",
                "LARGE",
                "Medium",
                "butter",
                "salt",
                "caramel",
                "pepper",
                "",
                "ada@example.com",
                "2025-02-03",
                "2025-13-01",
                "true",
                "3",
            ])
            .prop_map(Value::from),
            (-5i64..300).prop_map(Value::from),
            prop::sample::select(vec![
                json!(0.5),
                json!(2.0),
                json!(1e300),
                json!(u64::MAX),
                json!(i64::MIN),
                json!(16_777_217),
            ]),
            any::<bool>().prop_map(Value::from),
            Just(Value::Null),
        ];
        prop_oneof![
            3 => leaf.clone(),
            1 => prop::collection::vec(leaf, 0..4).prop_map(Value::from),
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "size",
            "toppings",
            "extraToppings",
            "buckets",
            "contactEmail",
            "pickUp",
            "napkins",
            "note",
            "tickets",
            "internal",
            "TIP",
            "ratio",
            "offset",
            "wide",
            "secondSize",
            "tip",
            "other",
        ])
        .prop_map(str::to_owned)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any map of those keys and values: the twins read it alike on every path.
        #[test]
        fn twins_agree_on_generated_answers(
            entries in prop::collection::vec((key(), value()), 0..12),
        ) {
            let answer = Value::Object(entries.into_iter().collect());
            agree::<by_serde::Order, by_elicit::Order>(std::slice::from_ref(&answer));
        }

        /// Mostly clean answers (every needed field good), with one entry changed.
        #[test]
        fn twins_agree_near_clean_answers(
            size in prop::sample::select(vec!["SMALL", "M", "LARGE"]),
            toppings in prop::sample::subsequence(vec!["butter", "salt", "caramel"], 1..=2),
            buckets in 1u8..=4,
            change in (key(), value()),
        ) {
            let mut answer = json!({
                "size": size, "toppings": toppings, "buckets": buckets,
                "contactEmail": "ada@example.com", "napkins": true, "tickets": 1
            });
            agree::<by_serde::Order, by_elicit::Order>(std::slice::from_ref(&answer));
            answer[change.0.as_str()] = change.1;
            agree::<by_serde::Order, by_elicit::Order>(std::slice::from_ref(&answer));
        }
    }
}
