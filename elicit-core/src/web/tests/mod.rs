//! The page and the reading of its answer, driven without a server: forms built with
//! `Form::new`, pages read as text, bodies as a browser (or an attacker) would post them.

use std::borrow::Cow;

use crate::form::{Choice, Field, FieldKind, Form, Format};

mod page;
mod read;
mod secret;

fn text(format: Option<Format>) -> FieldKind {
    FieldKind::String {
        format,
        min_length: None,
        max_length: None,
        default: None,
    }
}

fn choices(values: &[&str]) -> Vec<Choice> {
    values.iter().map(|v| Choice::owned(*v, None)).collect()
}

fn select(options: Vec<Choice>, default: Option<&'static str>) -> FieldKind {
    FieldKind::Select {
        options: options.into(),
        default: default.map(Cow::Borrowed),
        legacy_enum_names: false,
    }
}

fn multi(values: &[&str], min_items: Option<u64>, max_items: Option<u64>) -> FieldKind {
    FieldKind::MultiSelect {
        options: choices(values).into(),
        min_items,
        max_items,
        default: None,
    }
}

fn integer(minimum: Option<i128>, maximum: Option<i128>, default: Option<i128>) -> FieldKind {
    FieldKind::Integer {
        minimum,
        maximum,
        range: (0, 255),
        default,
    }
}

fn number(minimum: Option<f64>, default: Option<f64>) -> FieldKind {
    FieldKind::Number {
        minimum,
        maximum: None,
        single_precision: false,
        default,
    }
}

/// A form with a field of every kind, none with a default: `f0` … `f10`.
fn every_kind() -> Form {
    let mut name = Field::new(
        "name",
        true,
        FieldKind::String {
            format: None,
            min_length: Some(2),
            max_length: Some(40),
            default: None,
        },
    )
    .with_title("Your name");
    name.description = Some("As on your card.".into());
    let sizes = vec![
        Choice::owned("s", Some("Small".into())),
        Choice::owned("l", Some("Large".into())),
    ];
    Form::new(vec![
        name,
        Field::new("email", false, text(Some(Format::Email))),
        Field::new("site", false, text(Some(Format::Uri))),
        Field::new("day", false, text(Some(Format::Date))),
        Field::new("at", false, text(Some(Format::DateTime))),
        Field::new("copies", true, integer(Some(1), Some(10), None)),
        Field::new("score", false, number(Some(0.5), None)),
        Field::new("agree", true, FieldKind::Boolean { default: None }),
        Field::new("size", true, select(sizes, None)),
        Field::new(
            "city",
            false,
            select(choices(&["a", "b", "c", "d", "e", "f", "g"]), None),
        ),
        Field::new(
            "toppings",
            false,
            multi(&["ham", "egg", "corn"], Some(1), Some(2)),
        ),
    ])
    .expect("a valid form")
}

/// The same kinds, each with a default (and so none required).
fn with_defaults() -> Form {
    Form::new(vec![
        Field::new(
            "name",
            false,
            FieldKind::String {
                format: None,
                min_length: None,
                max_length: None,
                default: Some("Ada".into()),
            },
        ),
        Field::new(
            "at",
            false,
            FieldKind::String {
                format: Some(Format::DateTime),
                min_length: None,
                max_length: None,
                default: Some("2025-02-03T18:30:05+01:00".into()),
            },
        ),
        Field::new("copies", false, integer(None, None, Some(3))),
        Field::new("score", false, number(None, Some(95.5))),
        Field::new(
            "agree",
            false,
            FieldKind::Boolean {
                default: Some(true),
            },
        ),
        Field::new("size", false, select(choices(&["s", "m", "l"]), Some("m"))),
        Field::new(
            "city",
            false,
            select(choices(&["a", "b", "c", "d", "e", "f", "g"]), Some("f")),
        ),
        Field::new(
            "toppings",
            false,
            FieldKind::MultiSelect {
                options: choices(&["ham", "egg", "corn"]).into(),
                min_items: None,
                max_items: None,
                default: Some(Cow::Owned(vec!["egg".into(), "corn".into()])),
            },
        ),
    ])
    .expect("a valid form")
}

/// The opening tag of the element whose id is `id`.
fn tag<'h>(html: &'h str, id: &str) -> &'h str {
    let at = html
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element #{id} in {html}"));
    let start = html[..at].rfind('<').expect("a tag");
    let end = at + html[at..].find('>').expect("a tag's end");
    &html[start..=end]
}
