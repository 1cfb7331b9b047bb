//! The code `#[derive(Elicit)]` generates names only absolute paths: it compiles in a
//! module that shadows the prelude's `Option`, `Some`, `None`, `Result`, `Ok`, `Err`,
//! `String`, `Vec`, `Box` and `Default` (and the crate names `core`, `std`, `serde`,
//! `serde_json`, `elicit_core`), and in a `#![no_implicit_prelude]` module; its locals
//! never capture a user's names; `#[elicit(crate = "..")]` moves its root.
#![deny(warnings)]

/// Local items named like the prelude's, in scope for the derive's expansion. Lints
/// are allowed on the shadowing items only, so a warning in generated code still fails.
mod shadowed {
    use ::elicit_core::Elicit;
    use ::serde::Deserialize;

    #[allow(dead_code)]
    pub struct Option;
    #[allow(dead_code)]
    pub struct Result;
    #[allow(dead_code)]
    pub struct String;
    #[allow(dead_code)]
    pub struct Vec;
    #[allow(dead_code)]
    pub struct Box;
    #[allow(dead_code)]
    pub struct Default;
    #[allow(dead_code, non_snake_case)]
    pub fn Some() {}
    #[allow(dead_code, non_snake_case)]
    pub fn Ok() {}
    #[allow(dead_code, non_snake_case)]
    pub fn Err() {}
    #[allow(dead_code, non_upper_case_globals)]
    pub const None: () = ();
    pub mod core {}
    pub mod std {}
    pub mod serde_json {}
    pub mod serde {}
    pub mod elicit_core {}
    #[allow(unused_macros)]
    macro_rules! panic {
        ($($t:tt)*) => {
            compile_error!("the derive used an unqualified `panic!`")
        };
    }
    #[allow(unused_macros)]
    macro_rules! unreachable {
        ($($t:tt)*) => {
            compile_error!("the derive used an unqualified `unreachable!`")
        };
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Elicit, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Flavor {
        #[elicit(title = "Vanilla")]
        Vanilla,
        Chocolate,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Elicit, Deserialize)]
    pub enum Cone {
        Waffle,
        Cup,
    }

    #[derive(Debug, Elicit, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    pub struct Order {
        /// Who orders.
        #[elicit(title = "Name", min_length = 1, max_length = 20, default = "Ada")]
        pub customer_name: ::std::string::String,
        #[elicit(format = "email")]
        pub email: ::core::option::Option<::std::string::String>,
        #[elicit(minimum = -3, maximum = 3, default = 0)]
        pub scoops: i8,
        #[elicit(minimum = 0.5, maximum = 9.5, default = 1.5)]
        pub weight: f64,
        #[elicit(default = true)]
        pub sprinkles: bool,
        #[elicit(default = "chocolate")]
        pub flavor: Flavor,
        pub cone: ::core::option::Option<Cone>,
        #[elicit(min_items = 1, max_items = 2, default = ["vanilla"])]
        pub extras: ::std::vec::Vec<Flavor>,
        pub cones: ::std::collections::BTreeSet<Cone>,
    }

    /// serde's default functions named like the locals generated code might bind: the
    /// form reads the same in every build (issue: a release-only local `map` once
    /// shadowed `default = "map"`).
    #[derive(Debug, Elicit, Deserialize)]
    #[allow(dead_code)]
    pub struct Defaults {
        #[serde(default = "map")]
        #[elicit(minimum = 1, maximum = 4)]
        pub party: u8,
        #[serde(default = "fields")]
        pub fields: ::std::string::String,
        #[serde(default = "key")]
        pub key: bool,
        #[serde(default = "value")]
        #[elicit(minimum = 0.5)]
        pub value: f64,
        #[serde(default = "entries")]
        pub entries: ::std::vec::Vec<Cone>,
        #[serde(default = "form")]
        pub form: ::core::option::Option<Flavor>,
        #[serde(default = "content")]
        #[elicit(default = "Waffle")]
        pub content: Cone,
    }
    pub fn map() -> u8 {
        2
    }
    pub fn fields() -> ::std::string::String {
        ::std::string::String::from("f")
    }
    pub fn key() -> bool {
        true
    }
    pub fn value() -> f64 {
        0.75
    }
    pub fn entries() -> ::std::vec::Vec<Cone> {
        ::std::vec![Cone::Cup]
    }
    pub fn form() -> ::core::option::Option<Flavor> {
        ::core::option::Option::Some(Flavor::Vanilla)
    }
    pub fn content() -> Cone {
        Cone::Cup
    }

    /// The generated code reaches `elicit_core` through a path of the user's choosing.
    pub mod reexport {
        pub use ::elicit_core as forms;
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Elicit, Deserialize)]
    #[elicit(crate = "self::reexport::forms")]
    pub enum Topping {
        Salt,
        Butter,
    }

    #[derive(Debug, Elicit, Deserialize)]
    #[elicit(crate = "crate::shadowed::reexport::forms")]
    #[allow(dead_code)]
    pub struct Snack {
        #[elicit(minimum = 1, default = 1)]
        pub bags: u8,
        pub toppings: ::std::collections::BTreeSet<Topping>,
    }
}

/// The same forms with no prelude at all.
mod bare {
    #![no_implicit_prelude]

    #[derive(
        ::core::fmt::Debug,
        ::core::clone::Clone,
        ::core::marker::Copy,
        ::core::cmp::PartialEq,
        ::core::cmp::Eq,
        ::core::hash::Hash,
        ::elicit_core::Elicit,
        ::serde::Deserialize,
    )]
    pub enum Size {
        #[elicit(title = "Small (S)")]
        Small,
        Large,
    }

    #[derive(::core::fmt::Debug, ::elicit_core::Elicit, ::serde::Deserialize)]
    #[allow(dead_code)]
    pub struct Plain {
        #[elicit(title = "Note", max_length = 10, default = "hi")]
        pub note: ::std::string::String,
        #[elicit(minimum = 1, maximum = 4)]
        pub count: u8,
        pub ratio: ::core::option::Option<f32>,
        #[elicit(default = false)]
        pub ok: bool,
        #[elicit(default = "Large")]
        pub size: Size,
        #[elicit(max_items = 1, default = ["Small"])]
        pub sizes: ::std::collections::HashSet<Size>,
    }

    /// Secret fields, and the checks the derives make of them: every field is probed for
    /// an unmarked secret, every step of a wizard for a form with one.
    #[derive(::core::fmt::Debug, ::elicit_core::Elicit, ::serde::Deserialize)]
    #[allow(dead_code)]
    pub struct Login {
        pub user: ::std::string::String,
        #[elicit(secret, min_length = 8)]
        pub password: ::elicit_core::SecretString,
        #[elicit(secret)]
        pub pin: ::core::option::Option<::elicit_core::SecretString>,
    }

    #[derive(::elicit_core::Wizard)]
    #[allow(dead_code)]
    pub struct Order {
        #[step(message = "Your order")]
        pub plain: Plain,
        #[step(message = "Anything else?")]
        pub more: ::core::option::Option<Plain>,
    }
}

use elicit_core::{Elicit, Elicitation, Options, Revision};
use serde_json::json;

#[test]
fn shadowed_prelude_form_is_right() {
    use shadowed::{Cone, Flavor, Order};
    assert_eq!(Order::form().min_revision(), Revision::V2025_11_25);
    assert!(Order::requested_schema(Revision::V2025_06_18).is_err());
    let schema =
        serde_json::to_value(Order::requested_schema(Revision::V2025_11_25).unwrap()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "customerName": {"type": "string", "title": "Name", "description": "Who orders.",
                                 "minLength": 1, "maxLength": 20, "default": "Ada"},
                "email": {"type": "string", "format": "email"},
                "scoops": {"type": "integer", "minimum": -3, "maximum": 3, "default": 0},
                "weight": {"type": "number", "minimum": 0.5, "maximum": 9.5, "default": 1.5},
                "sprinkles": {"type": "boolean", "default": true},
                "flavor": {"type": "string", "oneOf": [
                    {"const": "vanilla", "title": "Vanilla"},
                    {"const": "chocolate", "title": "chocolate"}
                ], "default": "chocolate"},
                "cone": {"type": "string", "enum": ["Waffle", "Cup"]},
                "extras": {"type": "array", "minItems": 1, "maxItems": 2,
                           "items": {"anyOf": [
                               {"const": "vanilla", "title": "Vanilla"},
                               {"const": "chocolate", "title": "chocolate"}
                           ]},
                           "default": ["vanilla"]},
                "cones": {"type": "array", "items": {"type": "string", "enum": ["Waffle", "Cup"]}}
            },
            "required": ["cones"]
        })
    );
    let answer = json!({"cones": ["Cup"], "cone": "Waffle", "scoops": 2});
    let Elicitation::Accept(order) = Order::from_content(Some(&answer))
        .map(Elicitation::Accept)
        .unwrap()
    else {
        panic!("not accepted");
    };
    assert_eq!(order.customer_name, "Ada");
    assert_eq!(order.scoops, 2);
    assert_eq!(order.flavor, Flavor::Chocolate);
    assert_eq!(order.cone, Some(Cone::Waffle));
    assert_eq!(order.extras, vec![Flavor::Vanilla]);
    assert_eq!(order.cones.into_iter().collect::<Vec<_>>(), [Cone::Cup]);
    assert_eq!(Flavor::CHOICES.len(), 2);
}

#[test]
fn no_implicit_prelude_form_is_right() {
    use bare::{Plain, Size};
    let schema =
        serde_json::to_value(Plain::requested_schema(Revision::V2026_07_28).unwrap()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "note": {"type": "string", "title": "Note", "maxLength": 10, "default": "hi"},
                "count": {"type": "integer", "minimum": 1, "maximum": 4},
                "ratio": {"type": "number"},
                "ok": {"type": "boolean", "default": false},
                "size": {"type": "string", "oneOf": [
                    {"const": "Small", "title": "Small (S)"},
                    {"const": "Large", "title": "Large"}
                ], "default": "Large"},
                "sizes": {"type": "array", "maxItems": 1,
                          "items": {"anyOf": [
                              {"const": "Small", "title": "Small (S)"},
                              {"const": "Large", "title": "Large"}
                          ]},
                          "default": ["Small"]}
            },
            "required": ["count"]
        })
    );
    let plain = Plain::from_content(Some(&json!({"count": 4}))).unwrap();
    assert_eq!(
        (plain.note.as_str(), plain.count, plain.ok),
        ("hi", 4, false)
    );
    assert_eq!(plain.size, Size::Large);
    assert!(plain.sizes.contains(&Size::Small) && plain.sizes.len() == 1);
    let err = Plain::from_content(Some(&json!({"count": 5}))).unwrap_err();
    assert_eq!(err.to_string(), "count: must be at most 4");
}

#[test]
fn secret_fields_are_marked_without_a_prelude() {
    use bare::Login;
    let flags: Vec<bool> = Login::form().fields().iter().map(|f| f.secret).collect();
    assert_eq!(flags, [false, true, true]);
    assert!(Login::requested_schema(Revision::LATEST).is_err());
    let login = Login::from_content(Some(&json!({"user": "ada", "password": "12345678"}))).unwrap();
    assert!(!format!("{login:?}").contains("12345678"));
    fn no_secrets<T: elicit_core::NoSecrets>() {}
    no_secrets::<bare::Plain>();
    no_secrets::<bare::Size>();
}

#[test]
fn default_functions_named_like_locals_are_called() {
    use shadowed::{Cone, Defaults, Flavor};
    let all_left_out = Defaults::from_content(Some(&json!({}))).unwrap();
    assert_eq!(all_left_out.party, 2);
    assert_eq!(all_left_out.fields, "f");
    assert!(all_left_out.key);
    assert_eq!(all_left_out.value, 0.75);
    assert_eq!(all_left_out.entries, vec![Cone::Cup]);
    assert_eq!(all_left_out.form, Some(Flavor::Vanilla));
    // The form's default is what the answer carries when left out.
    assert_eq!(all_left_out.content, Cone::Waffle);
    let answered = Defaults::from_content(Some(&json!({
        "party": 4, "fields": "x", "key": false, "value": 1.5,
        "entries": ["Waffle"], "form": "chocolate", "content": "Cup"
    })))
    .unwrap();
    assert_eq!((answered.party, answered.fields.as_str()), (4, "x"));
    assert_eq!(answered.form, Some(Flavor::Chocolate));
    assert_eq!(answered.content, Cone::Cup);
    let err = Defaults::from_content(Some(&json!({"party": 9}))).unwrap_err();
    assert_eq!(err.to_string(), "party: must be at most 4");
}

#[test]
fn crate_path_attribute_is_used() {
    use shadowed::{Snack, Topping};
    let snack = Snack::from_content(Some(&json!({"toppings": ["Butter"]}))).unwrap();
    assert_eq!(snack.bags, 1);
    assert!(snack.toppings.contains(&Topping::Butter));
    assert_eq!(Topping::CHOICES.len(), 2);
}

/// The form of the report that started the one-pipeline work, as written there: a
/// default function named `map` beside the former `#[elicit(deserialize)]` flag, which
/// is still taken and changes nothing. No code of the derive or the library depends on
/// the build profile (`no_profile_dependent_code`), so what this asserts holds in
/// release builds too.
mod reported {
    fn map() -> u8 {
        2
    }

    #[derive(Debug, elicit_core::Elicit, serde::Deserialize)]
    #[elicit(deserialize)]
    pub struct F {
        #[serde(default = "map")]
        #[elicit(minimum = 1, maximum = 4)]
        pub party: u8,
    }
}

#[test]
fn reported_form_reads_its_default_and_bounds() {
    use elicit_core::Elicit;
    use serde_json::json;
    let left_out = reported::F::from_content(Some(&json!({}))).unwrap();
    assert_eq!(left_out.party, 2);
    assert_eq!(reported::F::from_content(None).unwrap().party, 2);
    let given = reported::F::from_content(Some(&json!({"party": 4}))).unwrap();
    assert_eq!(given.party, 4);
    let err = reported::F::from_content(Some(&json!({"party": 9}))).unwrap_err();
    assert_eq!(err.to_string(), "party: must be at most 4");
}

/// Nothing in the derive or the library is compiled differently in debug and release:
/// no `debug_assertions` condition and no `cfg!(debug_assertions)` anywhere in their
/// sources, so the tests (run in the debug profile) judge the code release builds run.
#[test]
fn no_profile_dependent_code() {
    fn walk(dir: &std::path::Path, hits: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, hits);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("debug_assertions") || text.contains("opt-level") {
                    hits.push(path.display().to_string());
                }
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut hits = Vec::new();
    for dir in ["elicit-core/src", "elicit-derive/src"] {
        walk(&root.join(dir), &mut hits);
    }
    assert!(hits.is_empty(), "profile-dependent code in {hits:?}");
}
