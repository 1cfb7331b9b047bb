//! The wire names in the schema are exactly the names serde's `Deserialize` reads.
//!
//! Two ways of proving it: (1) a recording `Deserializer` captures the field and
//! variant lists serde's derive passes to `deserialize_struct`/`deserialize_enum` (the
//! names it will accept, after `rename_all`, `rename`, `skip` and raw identifiers), and
//! they must equal the schema's properties and options, in order; (2) answers built
//! from the schema's property names parse through `from_content`/`from_result` and
//! through `serde_json::from_value` to the same value.

use std::collections::BTreeSet;
use std::fmt::Debug;

use elicit_core::{Elicit, Elicitation, Options, Revision};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value, json};

/// What serde's derive told the deserializer it reads.
#[derive(Debug, Default)]
struct Grab {
    fields: Option<&'static [&'static str]>,
    variants: Option<&'static [&'static str]>,
}

impl<'de> Deserializer<'de> for &mut Grab {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct or enum"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.fields = Some(fields);
        Err(de::Error::custom("grabbed"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.variants = Some(variants);
        Err(de::Error::custom("grabbed"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier ignored_any
    }
}

fn serde_fields<'de, T: Deserialize<'de>>() -> Vec<&'static str> {
    let mut grab = Grab::default();
    let _ = T::deserialize(&mut grab);
    grab.fields.expect("a struct deriving Deserialize").to_vec()
}

fn serde_variants<'de, T: Deserialize<'de>>() -> Vec<&'static str> {
    let mut grab = Grab::default();
    let _ = T::deserialize(&mut grab);
    grab.variants
        .expect("an enum deriving Deserialize")
        .to_vec()
}

fn schema_names<T: Elicit>() -> Vec<String> {
    T::form()
        .fields()
        .iter()
        .map(|f| f.name.to_string())
        .collect()
}

/// The schema's properties, in order, are serde's fields, in order, and the JSON
/// agrees with the form.
fn assert_fields_agree<T: Elicit>() -> Vec<String> {
    let names = schema_names::<T>();
    assert_eq!(names, serde_fields::<T>(), "{}", std::any::type_name::<T>());
    let schema = serde_json::to_value(T::requested_schema(Revision::LATEST).unwrap()).unwrap();
    let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    let mut sorted = names.clone();
    sorted.sort();
    let mut props_sorted: Vec<String> = props.into_iter().cloned().collect();
    props_sorted.sort();
    assert_eq!(props_sorted, sorted);
    names
}

fn assert_variants_agree<T: Options + for<'de> Deserialize<'de>>() -> Vec<&'static str> {
    let values: Vec<&'static str> = T::CHOICES.iter().map(|c| c.value.as_ref()).collect();
    assert_eq!(
        values,
        serde_variants::<T>(),
        "{}",
        std::any::type_name::<T>()
    );
    values
}

/// A valid answer value for a property, read off its schema.
fn sample(prop: &Value) -> Value {
    if let Some(d) = prop.get("default") {
        return d.clone();
    }
    let first_option = |v: &Value| -> Option<Value> {
        v.get("enum")
            .and_then(|e| e.get(0))
            .or_else(|| {
                v.get("oneOf")
                    .and_then(|o| o.get(0))
                    .and_then(|o| o.get("const"))
            })
            .or_else(|| {
                v.get("anyOf")
                    .and_then(|o| o.get(0))
                    .and_then(|o| o.get("const"))
            })
            .cloned()
    };
    match prop["type"].as_str().unwrap() {
        "string" => {
            first_option(prop).unwrap_or_else(|| match prop.get("format").and_then(Value::as_str) {
                Some("email") => json!("ada@example.com"),
                Some("uri") => json!("https://example.com/"),
                Some("date") => json!("2025-02-01"),
                Some("date-time") => json!("2025-02-01T18:30:00Z"),
                _ => json!("text"),
            })
        }
        "integer" | "number" => prop.get("minimum").cloned().unwrap_or(json!(1)),
        "boolean" => json!(true),
        "array" => json!([first_option(&prop["items"]).unwrap()]),
        other => panic!("unexpected type {other}"),
    }
}

/// An answer with every property of the schema, each with a valid value.
fn full_answer<T: Elicit>() -> Value {
    let schema = serde_json::to_value(T::requested_schema(Revision::LATEST).unwrap()).unwrap();
    let mut content = Map::new();
    for (name, prop) in schema["properties"].as_object().unwrap() {
        content.insert(name.clone(), sample(prop));
    }
    Value::Object(content)
}

/// Both readings of `content` give the same value.
fn parse_both<T: Elicit + PartialEq + Debug>(content: &Value) -> T {
    let via_form = T::from_content(Some(content)).expect("from_content");
    let via_serde: T = serde_json::from_value(content.clone()).expect("serde_json::from_value");
    assert_eq!(via_form, via_serde);
    match T::from_content(Some(content))
        .map(Elicitation::Accept)
        .unwrap()
    {
        Elicitation::Accept(v) => assert_eq!(v, via_form),
        other => panic!("not accepted: {:?}", other.action()),
    }
    via_form
}

// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Plan {
    FreeTier,
    #[serde(rename = "PRO")]
    Professional,
    #[serde(skip)]
    #[allow(dead_code)]
    Internal,
    /// A raw identifier keeps its name without `r#`.
    #[allow(non_camel_case_types)]
    r#Enterprise,
}

#[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Signup {
    #[elicit(title = "First name")]
    first_name: String,
    #[serde(rename = "e-mail")]
    #[elicit(format = "email")]
    email_address: String,
    /// `r#type` is read as `type`.
    r#type: Plan,
    /// serde never reads it: not in the form.
    #[serde(skip)]
    internal_id: u32,
    #[serde(skip_deserializing)]
    cached_score: f64,
    /// serde fills it when missing: not required.
    #[serde(default)]
    retry_count: u8,
    #[serde(rename(deserialize = "inName", serialize = "outName"))]
    renamed_one_way: bool,
    how_many_words_here: Option<i32>,
    #[elicit(default = 7)]
    lucky_number: i64,
}

#[test]
fn signup_wire_names_are_serdes() {
    let names = assert_fields_agree::<Signup>();
    assert_eq!(
        names,
        [
            "firstName",
            "e-mail",
            "type",
            "retryCount",
            "inName",
            "howManyWordsHere",
            "luckyNumber"
        ]
    );
    let form = Signup::form();
    assert!(form.field("internalId").is_none() && form.field("internal_id").is_none());
    assert!(form.field("cachedScore").is_none());
    let required: BTreeSet<&str> = form
        .fields()
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name.as_ref())
        .collect();
    assert_eq!(
        required,
        BTreeSet::from(["firstName", "e-mail", "type", "inName"])
    );
}

#[test]
fn plan_options_are_serdes_variants() {
    assert_eq!(
        assert_variants_agree::<Plan>(),
        ["free-tier", "PRO", "enterprise"]
    );
}

#[test]
fn answers_built_from_the_schema_parse_the_same_both_ways() {
    let content = full_answer::<Signup>();
    let signup: Signup = parse_both(&content);
    assert_eq!(signup.first_name, "text");
    assert_eq!(signup.email_address, "ada@example.com");
    assert_eq!(signup.r#type, Plan::FreeTier);
    assert!(signup.renamed_one_way);
    assert_eq!(signup.how_many_words_here, Some(-2147483648));
    assert_eq!(signup.lucky_number, 7);
    assert_eq!((signup.internal_id, signup.cached_score), (0, 0.0));

    // Each option of the select, by the wire value the schema offers.
    for (value, plan) in [
        ("free-tier", Plan::FreeTier),
        ("PRO", Plan::Professional),
        ("enterprise", Plan::r#Enterprise),
    ] {
        let mut content = content.clone();
        content["type"] = json!(value);
        assert_eq!(parse_both::<Signup>(&content).r#type, plan);
    }
}

#[test]
fn rust_names_are_not_wire_names() {
    // What serde refuses, the form refuses too.
    let content = json!({
        "first_name": "Ada", "email_address": "ada@example.com", "r#type": "PRO",
        "renamed_one_way": true, "outName": true
    });
    assert!(serde_json::from_value::<Signup>(content.clone()).is_err());
    let err = Signup::from_content(Some(&content)).unwrap_err();
    let missing: Vec<&str> = invalid(&err)
        .errors()
        .iter()
        .map(|e| e.field.as_ref())
        .collect();
    assert_eq!(missing, ["firstName", "e-mail", "type", "inName"]);
    // A variant's Rust name is not an option either.
    let mut good = full_answer::<Signup>();
    good["type"] = json!("Professional");
    assert!(serde_json::from_value::<Signup>(good.clone()).is_err());
    assert!(Signup::from_content(Some(&good)).is_err());
}

#[test]
fn skipped_and_defaulted_fields() {
    let mut content = full_answer::<Signup>();
    // A client sending a skipped field changes nothing.
    content["internalId"] = json!(99);
    content["internal_id"] = json!(99);
    content["cachedScore"] = json!(1.5);
    let signup: Signup = parse_both(&content);
    assert_eq!((signup.internal_id, signup.cached_score), (0, 0.0));
    // Leaving out the serde-default and optional fields is fine both ways.
    let obj = content.as_object_mut().unwrap();
    obj.remove("retryCount");
    obj.remove("howManyWordsHere");
    let signup: Signup = parse_both(&content);
    assert_eq!((signup.retry_count, signup.how_many_words_here), (0, None));
    // The elicit default is filled in by the form, to the value serde would read.
    content.as_object_mut().unwrap().remove("luckyNumber");
    let via_form = Signup::from_content(Some(&content)).unwrap();
    content["luckyNumber"] = json!(7);
    assert_eq!(via_form, serde_json::from_value::<Signup>(content).unwrap());
}

// Every rename rule, on fields and on variants, against serde's own reading.

macro_rules! rule_forms {
    ($($form:ident, $options:ident, $rule:literal;)*) => {$(
        #[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
        #[serde(rename_all = $rule)]
        struct $form {
            one: String,
            two_words: bool,
            three_word_name: Option<u16>,
            with_2_digits: Option<f64>,
            pick: $options,
        }

        #[derive(Debug, Clone, Copy, PartialEq, elicit_core::Elicit, serde::Deserialize)]
        #[serde(rename_all = $rule)]
        enum $options {
            One,
            TwoWords,
            ThreeWordName,
            With2Digits,
            HTTPServer,
        }
    )*};
}

rule_forms! {
    Lower, LowerOptions, "lowercase";
    Upper, UpperOptions, "UPPERCASE";
    Pascal, PascalOptions, "PascalCase";
    Camel, CamelOptions, "camelCase";
    Snake, SnakeOptions, "snake_case";
    ScreamingSnake, ScreamingSnakeOptions, "SCREAMING_SNAKE_CASE";
    Kebab, KebabOptions, "kebab-case";
    ScreamingKebab, ScreamingKebabOptions, "SCREAMING-KEBAB-CASE";
}

fn check_rule<F, O>() -> (Vec<String>, Vec<&'static str>)
where
    F: Elicit + PartialEq + Debug,
    O: Options + for<'de> Deserialize<'de>,
{
    let fields = assert_fields_agree::<F>();
    let variants = assert_variants_agree::<O>();
    // Every option of the select parses both ways under its wire name.
    for value in &variants {
        let mut content = full_answer::<F>();
        let pick = fields.last().unwrap().clone();
        content[pick.as_str()] = json!(value);
        parse_both::<F>(&content);
    }
    (fields, variants)
}

#[test]
fn every_rename_rule_agrees_with_serde() {
    let (fields, variants) = check_rule::<Camel, CamelOptions>();
    assert_eq!(
        fields,
        ["one", "twoWords", "threeWordName", "with2Digits", "pick"]
    );
    assert_eq!(
        variants,
        [
            "one",
            "twoWords",
            "threeWordName",
            "with2Digits",
            "hTTPServer"
        ]
    );
    let (fields, variants) = check_rule::<ScreamingKebab, ScreamingKebabOptions>();
    assert_eq!(
        fields,
        [
            "ONE",
            "TWO-WORDS",
            "THREE-WORD-NAME",
            "WITH-2-DIGITS",
            "PICK"
        ]
    );
    assert_eq!(
        variants,
        [
            "ONE",
            "TWO-WORDS",
            "THREE-WORD-NAME",
            "WITH2-DIGITS",
            "H-T-T-P-SERVER"
        ]
    );
    check_rule::<Lower, LowerOptions>();
    check_rule::<Upper, UpperOptions>();
    check_rule::<Pascal, PascalOptions>();
    check_rule::<Snake, SnakeOptions>();
    check_rule::<ScreamingSnake, ScreamingSnakeOptions>();
    check_rule::<Kebab, KebabOptions>();
}

/// `rename_all(deserialize = ..)` is the rule that counts; a serialize-only rule is not.
#[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "PascalCase"))]
struct SplitRule {
    first_field: String,
    #[serde(rename(serialize = "x"))]
    second_field: bool,
}

#[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(rename_all(serialize = "camelCase"))]
struct SerializeOnlyRule {
    first_field: String,
}

#[test]
fn deserialize_side_of_split_renames() {
    assert_eq!(
        assert_fields_agree::<SplitRule>(),
        ["FirstField", "SecondField"]
    );
    parse_both::<SplitRule>(&full_answer::<SplitRule>());
    assert_eq!(assert_fields_agree::<SerializeOnlyRule>(), ["first_field"]);
    parse_both::<SerializeOnlyRule>(&full_answer::<SerializeOnlyRule>());
}

/// A container `#[serde(default)]` makes every field optional, both ways.
#[derive(Debug, Default, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct AllDefault {
    page_size: u32,
    show_hidden: bool,
    sort_by: String,
}

#[test]
fn container_default() {
    assert_fields_agree::<AllDefault>();
    assert!(AllDefault::form().fields().iter().all(|f| !f.required));
    let schema =
        serde_json::to_value(AllDefault::requested_schema(Revision::LATEST).unwrap()).unwrap();
    assert!(schema.get("required").is_none(), "{schema}");
    assert_eq!(parse_both::<AllDefault>(&json!({})), AllDefault::default());
    let full = parse_both::<AllDefault>(&full_answer::<AllDefault>());
    assert_eq!(full.page_size, 0);
    assert!(full.show_hidden);
}

/// With `deny_unknown_fields`, serde would refuse extra keys; the form leaves them out
/// first (extra keys in an answer are to be ignored), and reads the same value.
#[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Strict {
    user_name: String,
    #[serde(skip)]
    hidden: bool,
}

#[test]
fn deny_unknown_fields_strips_what_serde_would_refuse() {
    assert_eq!(assert_fields_agree::<Strict>(), ["userName"]);
    let exact = json!({"userName": "ada"});
    assert_eq!(
        parse_both::<Strict>(&exact),
        Strict {
            user_name: "ada".into(),
            hidden: false
        }
    );
    let extra = json!({"userName": "ada", "hidden": true, "other": 1});
    assert!(serde_json::from_value::<Strict>(extra.clone()).is_err());
    assert_eq!(
        Strict::from_content(Some(&extra)).unwrap(),
        Strict {
            user_name: "ada".into(),
            hidden: false
        }
    );
}

/// serde's camelCase is "PascalCase, then lower the first letter": a field with a
/// leading underscore or an upper-case first letter is read as `privateNote` / `uRL`.
#[derive(Debug, PartialEq, elicit_core::Elicit, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(non_snake_case)]
struct OddCamel {
    _private_note: String,
    URL: String,
}

#[test]
fn camel_case_of_odd_field_names() {
    assert_eq!(assert_fields_agree::<OddCamel>(), ["privateNote", "uRL"]);
}

/// The field problems of an answer refused for them.
fn invalid(e: &elicit_core::AnswerError) -> &elicit_core::ValidationErrors {
    match e {
        elicit_core::AnswerError::Invalid(v) => v,
        other => panic!("not a validation error: {other}"),
    }
}
