//! JSON snapshots of every example form's `requestedSchema`, for every protocol
//! revision, compared byte for byte with `tests/snapshots/<form>.<revision>.json`.
//! A revision that cannot express a form has its typed error asserted here and its
//! message kept in `<form>.<revision>.error.txt`.
//!
//! After a deliberate change, rewrite the files with
//! `ELICIT_BLESS=1 cargo test -p elicit-tests --test snapshots`, then read the diff
//! against the MCP schemas before committing it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use elicit_core::FormError;
use elicit_core::{Confirm, Elicit, Form, Revision};
use elicit_examples::forms::{Alternatives, Everything, Popcorn, PurgeApproval, Size, Topping};
use elicit_examples::ticket::{PopcornSize, SeatChoice, ShowDate, Snacks};
use serde::Deserialize;

/// The shapes no example form uses: a titled multi-select (`items.anyOf`) with a
/// default, an unbounded untitled one, an untitled select with a default, the legacy
/// shape of an untitled enum, fractional and negative bounds, and the ranges integer
/// types announce on their own.
#[derive(Debug, Elicit, Deserialize)]
#[allow(dead_code)]
struct Kinds {
    /// Sizes to offer.
    #[elicit(title = "Sizes", min_items = 1, max_items = 3, default = ["Small", "Large"])]
    sizes: Vec<Size>,
    toppings: std::collections::BTreeSet<Topping>,
    #[elicit(default = "salt")]
    topping: Topping,
    #[elicit(enum_names)]
    legacy_topping: Option<Topping>,
    #[elicit(minimum = -1.5, maximum = 2.25, default = 0.5)]
    level: f32,
    tiny: i8,
    big: i64,
    byte: u8,
    #[elicit(default = 3)]
    small: Option<u32>,
    #[elicit(title = "Note", max_length = 0)]
    note: Option<String>,
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots")
}

fn blessing() -> bool {
    std::env::var_os("ELICIT_BLESS").is_some_and(|v| v == "1")
}

/// Every snapshotted form, by name.
fn forms() -> Vec<(&'static str, Form)> {
    vec![
        ("Alternatives", Alternatives::form().clone()),
        ("Popcorn", Popcorn::form().clone()),
        ("PurgeApproval", PurgeApproval::form().clone()),
        ("Everything", Everything::form().clone()),
        ("Kinds", Kinds::form().clone()),
        ("ShowDate", ShowDate::form().clone()),
        ("SeatChoice", SeatChoice::form().clone()),
        ("Snacks", Snacks::form().clone()),
        ("PopcornSize", PopcornSize::form().clone()),
        (
            "Confirm",
            Confirm::new("Delete 1,284 log files?").form().clone(),
        ),
        (
            "ConfirmWithDescription",
            Confirm::new("Delete 1,284 log files?")
                .with_description("Tick the box to delete them for good.")
                .form()
                .clone(),
        ),
    ]
}

/// The exact text a snapshot file holds for a form on a revision.
fn render(form: &Form, revision: Revision) -> (String, String) {
    match form.requested_schema(revision) {
        Ok(schema) => {
            let mut text = serde_json::to_string_pretty(&schema).expect("serialize");
            text.push('\n');
            ("json".to_owned(), text)
        }
        Err(err) => ("error.txt".to_owned(), format!("{err}\n")),
    }
}

fn file_name(name: &str, revision: Revision, ext: &str) -> String {
    format!("{name}.{revision}.{ext}")
}

#[test]
fn schemas_match_snapshots() {
    let dir = snapshot_dir();
    let bless = blessing();
    if bless {
        std::fs::create_dir_all(&dir).expect("create snapshot dir");
    }
    let mut mismatches = String::new();
    for (name, form) in forms() {
        for revision in Revision::ALL.iter().copied() {
            let (ext, actual) = render(&form, revision);
            let path = dir.join(file_name(name, revision, &ext));
            if bless {
                std::fs::write(&path, &actual).expect("write snapshot");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => {
                    let _ = writeln!(
                        mismatches,
                        "--- {} differs\nexpected:\n{expected}\nactual:\n{actual}",
                        path.display()
                    );
                }
                Err(e) => {
                    let _ = writeln!(
                        mismatches,
                        "--- {} cannot be read ({e}); actual:\n{actual}",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "snapshots differ (rerun with ELICIT_BLESS=1 to rewrite them, then read the diff):\n{mismatches}"
    );
}

/// Every file in `tests/snapshots` belongs to a case: a renamed form leaves no stale file.
#[test]
fn no_stale_snapshots() {
    if blessing() {
        return;
    }
    let mut expected = BTreeSet::new();
    for (name, form) in forms() {
        for revision in Revision::ALL.iter().copied() {
            let (ext, _) = render(&form, revision);
            expected.insert(file_name(name, revision, &ext));
        }
    }
    let found: BTreeSet<String> = std::fs::read_dir(snapshot_dir())
        .expect("tests/snapshots exists")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(found, expected);
}

/// The one form with a multi-select cannot be sent to a 2025-06-18 peer: the error
/// names the field and both revisions.
#[test]
fn multi_select_is_refused_on_2025_06_18() {
    assert_eq!(Everything::form().min_revision(), Revision::V2025_11_25);
    assert_eq!(Everything::form().min_revision(), Revision::V2025_11_25);
    let err = Everything::requested_schema(Revision::V2025_06_18).unwrap_err();
    assert!(matches!(
        &err,
        FormError::Unsupported { revision: Revision::V2025_06_18, needs: Revision::V2025_11_25, field, .. }
            if field == "toppings"
    ));
    assert_eq!(
        err.to_string(),
        "field `toppings` needs MCP 2025-11-25 or later (a multi-select), but the client speaks 2025-06-18"
    );
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        assert!(Everything::requested_schema(revision).is_ok(), "{revision}");
    }
}

/// Forms without a multi-select work on every revision.
#[test]
fn forms_without_multi_select_support_every_revision() {
    for (name, form) in forms() {
        if name == "Everything" || name == "Kinds" {
            continue;
        }
        assert_eq!(form.min_revision(), Revision::V2025_06_18, "{name}");
        for revision in Revision::ALL.iter().copied() {
            assert!(
                form.requested_schema(revision).is_ok(),
                "{name} on {revision}"
            );
        }
    }
}

/// The same form serializes to the same bytes every time, whichever way it is written.
#[test]
fn output_is_deterministic() {
    for (name, form) in forms() {
        for revision in Revision::ALL.iter().copied() {
            let Ok(schema) = form.requested_schema(revision) else {
                continue;
            };
            let a = serde_json::to_string(&schema).unwrap();
            let b = serde_json::to_string(&form.requested_schema(revision).unwrap()).unwrap();
            assert_eq!(a, b, "{name} {revision}");
            assert_eq!(schema.to_string(), a, "Display is the compact JSON");
            assert_eq!(
                serde_json::to_value(schema).unwrap(),
                serde_json::to_value(schema).unwrap(),
                "{name} {revision}"
            );
        }
    }
}

/// Properties come out in declaration order, whatever the wire names sort to.
#[test]
fn properties_keep_declaration_order() {
    let text =
        serde_json::to_string(&Everything::requested_schema(Revision::LATEST).unwrap()).unwrap();
    let order = [
        "name",
        "email",
        "homepage",
        "arrival",
        "age",
        "score",
        "ratio",
        "verified",
        "size",
        "legacySize",
        "toppings",
        "count",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| text.find(&format!("\"{k}\":{{")).expect(k))
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "{positions:?} in {text}"
    );
    let names: Vec<&str> = Everything::form()
        .fields()
        .iter()
        .map(|f| f.name.as_ref())
        .collect();
    assert_eq!(names, order);
}
