//! Property tests of the answer validator on random runtime forms: every answer the
//! form allows is accepted, and every answer that breaks exactly one constraint of one
//! field is refused with that field, and only that field, named.

use crate::{AnswerError, Choice, Field, FieldKind, Form, Format, Strictness};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// One field's kind, a valid value for it, and a value that breaks one constraint.
#[derive(Clone, Debug)]
struct Case {
    kind: FieldKind,
    valid: Value,
    broken: Value,
}

fn options(n: usize) -> Vec<Choice> {
    (0..n)
        .map(|i| Choice::owned(format!("o{i}"), None))
        .collect()
}

fn text_case() -> impl Strategy<Value = Case> {
    (0u64..5, 0u64..8, any::<bool>(), any::<bool>()).prop_flat_map(|(min, span, lo, hi)| {
        let max = min + span;
        let min_length = lo.then_some(min);
        let max_length = hi.then_some(max);
        let from = if lo { min } else { 0 };
        let to = if hi { max } else { from + 6 };
        ("[a-zé€]{0,20}", from..=to).prop_map(move |(seed, len)| {
            let valid: String = seed.chars().cycle().take(len as usize).collect();
            let valid = if valid.chars().count() == len as usize {
                valid
            } else {
                "x".repeat(len as usize)
            };
            let broken = match (min_length, max_length) {
                (_, Some(max)) => Value::from("y".repeat(max as usize + 1)),
                (Some(min), None) if min > 0 => Value::from("y".repeat(min as usize - 1)),
                _ => json!(7),
            };
            Case {
                kind: FieldKind::String {
                    format: None,
                    min_length,
                    max_length,
                    default: None,
                },
                valid: Value::from(valid),
                broken,
            }
        })
    })
}

fn format_case() -> impl Strategy<Value = Case> {
    let valid = prop_oneof![
        ("[a-z]{1,8}", "[a-z]{1,8}").prop_map(|(a, b)| (Format::Email, format!("{a}@{b}.org"))),
        "[a-z]{1,8}".prop_map(|p| (Format::Uri, format!("https://example.com/{p}"))),
        (1000u32..9999, 1u32..=12, 1u32..=28)
            .prop_map(|(y, m, d)| (Format::Date, format!("{y:04}-{m:02}-{d:02}"))),
        (1000u32..9999, 0u32..24)
            .prop_map(|(y, h)| (Format::DateTime, format!("{y:04}-02-03T{h:02}:30:00Z"))),
    ];
    valid.prop_map(|(format, s)| Case {
        kind: FieldKind::String {
            format: Some(format),
            min_length: None,
            max_length: None,
            default: None,
        },
        valid: Value::from(s),
        broken: Value::from(match format {
            Format::Email => "no at sign",
            Format::Uri => "relative/path",
            Format::Date => "2025-02-30",
            Format::DateTime => "2025-02-03 10:00",
        }),
    })
}

fn integer_case() -> impl Strategy<Value = Case> {
    (-1000i64..1000, 0i64..1000, 0u8..3).prop_flat_map(|(min, span, how)| {
        let max = min + span;
        (min..=max).prop_map(move |v| Case {
            kind: FieldKind::Integer {
                minimum: Some(i128::from(min)),
                maximum: Some(i128::from(max)),
                range: (i128::from(i64::MIN), i128::from(i64::MAX)),
                default: None,
            },
            valid: json!(v),
            broken: match how {
                0 => json!(max + 1),
                1 => json!(min - 1),
                _ => json!(f64::from(min as i32) + 0.5),
            },
        })
    })
}

fn number_case() -> impl Strategy<Value = Case> {
    (-1000.0f64..1000.0, 0.0f64..1000.0, any::<bool>()).prop_flat_map(|(min, span, above)| {
        let max = min + span;
        (min..=max).prop_map(move |v| Case {
            kind: FieldKind::Number {
                minimum: Some(min),
                maximum: Some(max),
                single_precision: false,
                default: None,
            },
            valid: json!(v),
            broken: if above {
                json!(max + 1.0)
            } else {
                json!(min - 1.0)
            },
        })
    })
}

fn boolean_case() -> impl Strategy<Value = Case> {
    any::<bool>().prop_map(|b| Case {
        kind: FieldKind::Boolean { default: None },
        valid: json!(b),
        broken: json!(if b { "true" } else { "false" }),
    })
}

fn select_case() -> impl Strategy<Value = Case> {
    (1usize..6).prop_flat_map(|n| {
        (0..n).prop_map(move |i| Case {
            kind: FieldKind::Select {
                options: options(n).into(),
                default: None,
                legacy_enum_names: false,
            },
            valid: json!(format!("o{i}")),
            broken: json!("not-offered"),
        })
    })
}

fn multi_case() -> impl Strategy<Value = Case> {
    (1usize..6)
        .prop_flat_map(|n| (Just(n), 0..=n, 0..=n, 0u8..3))
        .prop_flat_map(|(n, a, b, how)| {
            let (min, max) = (a.min(b), a.max(b));
            (
                Just((n, min, max, how)),
                proptest::sample::subsequence((0..n).collect::<Vec<_>>(), min..=max),
            )
        })
        .prop_map(|((n, min, max, how), picked)| {
            let valid: Vec<Value> = picked.iter().map(|i| json!(format!("o{i}"))).collect();
            let mut broken = valid.clone();
            match how {
                0 if !broken.is_empty() => broken.push(broken[0].clone()),
                1 => broken.push(json!("not-offered")),
                _ if max < n => {
                    broken = (0..=max).map(|i| json!(format!("o{i}"))).collect();
                }
                _ => broken = vec![json!(1)],
            }
            Case {
                kind: FieldKind::MultiSelect {
                    options: options(n).into(),
                    min_items: Some(min as u64),
                    max_items: Some(max as u64),
                    default: None,
                },
                valid: Value::Array(valid),
                broken: Value::Array(broken),
            }
        })
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![
        text_case(),
        format_case(),
        integer_case(),
        number_case(),
        boolean_case(),
        select_case(),
        multi_case(),
    ]
}

fn form_of(cases: &[(Case, bool)]) -> Form {
    Form::new(
        cases
            .iter()
            .enumerate()
            .map(|(i, (c, required))| Field::new(format!("f{i}"), *required, c.kind.clone()))
            .collect(),
    )
    .expect("a well-formed form")
}

fn answer(cases: &[(Case, bool)], broken: Option<usize>) -> Value {
    let mut map = Map::new();
    for (i, (c, _)) in cases.iter().enumerate() {
        let v = if broken == Some(i) {
            &c.broken
        } else {
            &c.valid
        };
        map.insert(format!("f{i}"), v.clone());
    }
    Value::Object(map)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn every_allowed_answer_is_accepted(cases in prop::collection::vec((case(), any::<bool>()), 1..8)) {
        let form = form_of(&cases);
        let content = answer(&cases, None);
        let valid = form.validate(Some(&content), Strictness::Strict);
        prop_assert!(valid.is_ok(), "{content} refused: {:?}", valid.err());
    }

    #[test]
    fn one_broken_constraint_names_its_field_only(
        cases in prop::collection::vec((case(), any::<bool>()), 1..8),
        pick in any::<prop::sample::Index>(),
    ) {
        let form = form_of(&cases);
        let broken = pick.index(cases.len());
        let content = answer(&cases, Some(broken));
        match form.validate(Some(&content), Strictness::Strict) {
            Err(AnswerError::Invalid(errors)) => {
                let name = format!("f{broken}");
                prop_assert!(
                    errors.errors().iter().all(|e| e.field == name.as_str()),
                    "{content}: {errors}"
                );
            }
            other => prop_assert!(false, "{content} with f{broken} broken gave {other:?}"),
        }
    }

    #[test]
    fn a_missing_required_field_is_named(cases in prop::collection::vec((case(), any::<bool>()), 1..8)) {
        let form = form_of(&cases);
        let mut content = answer(&cases, None);
        let required: Vec<usize> = cases.iter().enumerate().filter(|(_, (_, r))| *r).map(|(i, _)| i).collect();
        if let Some(&gone) = required.first() {
            content.as_object_mut().unwrap().remove(&format!("f{gone}"));
            match form.validate(Some(&content), Strictness::Strict) {
                Err(AnswerError::Invalid(errors)) => {
                    prop_assert_eq!(errors.errors().len(), 1);
                    let want = format!("f{gone}");
                    prop_assert_eq!(errors.errors()[0].field.as_ref(), want.as_str());
                }
                other => prop_assert!(false, "{content}: {other:?}"),
            }
        }
    }
}
