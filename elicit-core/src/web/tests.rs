//! The page and the reading of its answer, driven without a server.

use std::borrow::Cow;

use serde_json::json;

use super::*;
use crate::answer::{Action, AnswerError, Problem};
use crate::form::{Choice, Field, FieldKind, Form, Format};

fn text(format: Option<Format>) -> FieldKind {
    FieldKind::String {
        format,
        min_length: None,
        max_length: None,
        default: None,
    }
}

fn options(values: &[&str]) -> Vec<Choice> {
    values.iter().map(|v| Choice::owned(*v, None)).collect()
}

/// A form with a field of every kind.
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
    Form::new(vec![
        name,
        Field::new("email", false, text(Some(Format::Email))),
        Field::new("site", false, text(Some(Format::Uri))),
        Field::new("day", false, text(Some(Format::Date))),
        Field::new("at", false, text(Some(Format::DateTime))),
        Field::new(
            "copies",
            true,
            FieldKind::Integer {
                minimum: Some(1),
                maximum: Some(10),
                range: (0, 255),
                default: None,
            },
        ),
        Field::new(
            "score",
            false,
            FieldKind::Number {
                minimum: Some(0.5),
                maximum: None,
                single_precision: false,
                default: None,
            },
        ),
        Field::new("agree", true, FieldKind::Boolean { default: None }),
        Field::new(
            "size",
            true,
            FieldKind::Select {
                options: vec![Choice::owned("s", Some("Small".into())), Choice::owned("l", Some("Large".into()))].into(),
                default: None,
                legacy_enum_names: false,
            },
        ),
        Field::new(
            "city",
            false,
            FieldKind::Select {
                options: options(&["a", "b", "c", "d", "e", "f", "g"]).into(),
                default: None,
                legacy_enum_names: false,
            },
        ),
        Field::new(
            "toppings",
            false,
            FieldKind::MultiSelect {
                options: options(&["ham", "egg", "corn"]).into(),
                min_items: Some(1),
                max_items: Some(2),
                default: None,
            },
        ),
    ])
    .expect("a valid form")
}

#[test]
fn probe() {
    let form = every_kind();
    let mut page = Page::new("Hello <b>", "/answer");
    page.server = Some("Acme");
    page.hidden = &[("token", "t1"), ("action", "x")];
    println!("{}", page.render(&View::Form(&form)));
}
