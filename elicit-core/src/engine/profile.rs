//! What a client renders of a form, and a form brought down to what it renders: a field
//! kind the client cannot show is asked as one it can, and the answer is read back into
//! the field's own kind before the form's own rules validate it.

use std::borrow::Cow;

use serde_json::Value;

use super::AskError;
use crate::form::{Choice, Choices, Field, FieldKind, Form, FormError};

/// What a client renders of a form: which field kinds it shows. Looked up by the client's
/// `clientInfo.name` in [`Settings::client_profiles`](super::Settings::client_profiles);
/// an unknown client renders everything (`Renders::default()`).
///
/// A question for a client that lacks a kind is asked with that field brought down to one
/// it has (see [`Settings::client_profiles`](super::Settings::client_profiles)), and the
/// answer is read back and validated by the field's own rules: the typed answer is the
/// same whichever client gave it.
///
/// ```
/// use elicit_core::engine::{Engine, Renders};
/// use elicit_core::seal::Keyring;
///
/// // A client of our own that shows no number fields.
/// let mut renders = Renders::default();
/// renders.number = false;
/// renders.integer = false;
/// let mut engine = Engine::new(Keyring::generate());
/// engine
///     .settings_mut()
///     .client_profiles
///     .push(("our-kiosk".to_owned(), renders));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Renders {
    /// Whole-number fields (`type: "integer"`). Else a small range (at most 12 values)
    /// is asked as a select of its values, a larger one as text with the rule in the
    /// field's description.
    pub integer: bool,
    /// Number fields (`type: "number"`). Else asked as text with the rule in the
    /// description.
    pub number: bool,
    /// Multi-selects (`type: "array"`). Else asked as text: the options' values (or
    /// titles), separated by commas.
    pub multi_select: bool,
    /// Selects whose options have titles (`oneOf` of `const`/`title`). Else the titles are
    /// dropped and the values shown.
    pub titled_enum: bool,
    /// Selects without titles (a plain `enum`). Else each option is titled with its value.
    pub plain_enum: bool,
    /// Forms at all. A client that declares form mode but shows no form (it cancels or
    /// declines unseen) is asked on a page instead, where the engine has pages
    /// (`Engine::with_pages`, feature `web`).
    pub forms: bool,
}

impl Default for Renders {
    /// Everything the form subset has.
    fn default() -> Renders {
        Renders {
            integer: true,
            number: true,
            multi_select: true,
            titled_enum: true,
            plain_enum: true,
            forms: true,
        }
    }
}

impl Renders {
    /// Whether the client shows every field of `form` as it is.
    fn shows(&self, form: &Form) -> bool {
        form.fields().iter().all(|f| self.shows_kind(&f.kind))
    }

    fn shows_kind(&self, kind: &FieldKind) -> bool {
        match kind {
            FieldKind::Integer { .. } => self.integer,
            FieldKind::Number { .. } => self.number,
            FieldKind::MultiSelect { .. } => self.multi_select,
            FieldKind::Select { options, .. } => {
                let titled = options.iter().any(|c| c.title.is_some());
                if titled {
                    self.titled_enum
                } else {
                    self.plain_enum
                }
            }
            _ => true,
        }
    }
}

/// The profiles known out of the box (see docs/client-profiles.md for the sources): only the
/// clients that lack something are listed.
pub(super) fn known_profiles() -> Vec<(String, Renders)> {
    let all = Renders::default();
    vec![
        // Codex CLI shows no number, integer or multi-select field: its form falls back
        // to a bare approval that accepts with empty content (openai/codex#41797).
        (
            "codex-mcp-client".to_owned(),
            Renders {
                integer: false,
                number: false,
                multi_select: false,
                ..all
            },
        ),
        // GitHub Copilot CLI needs selects as titled `oneOf` (microsoft/mcp#2214).
        (
            "github-copilot-developer".to_owned(),
            Renders {
                plain_enum: false,
                ..all
            },
        ),
        // Goose's form shows titled `oneOf` and multi-selects as a bare text box.
        (
            "goose".to_owned(),
            Renders {
                titled_enum: false,
                multi_select: false,
                ..all
            },
        ),
        // Claude Desktop (and Cowork, which shares its client) declares elicitation but
        // shows no form: it cancels after 60 s or declines at once (anthropics/claude-code
        // #88901, #94450, #94806). With pages, its forms go to a page.
        (
            "claude-ai".to_owned(),
            Renders {
                forms: false,
                ..all
            },
        ),
    ]
}

/// The most values a whole-number range may have to be asked as a select of them.
const SMALL_RANGE: i128 = 12;

/// `form` as a client that renders `renders` is asked it, when that differs.
pub(super) fn adapt(form: &Form, renders: Renders) -> Option<Form> {
    if renders.shows(form) {
        return None;
    }
    let fields = form
        .fields()
        .iter()
        .map(|f| {
            if renders.shows_kind(&f.kind) {
                f.clone()
            } else {
                adapt_field(f, renders)
            }
        })
        .collect();
    Some(Form::from_checked(fields))
}

/// A field brought down to what the client renders.
fn adapt_field(field: &Field, renders: Renders) -> Field {
    let mut out = field.clone();
    let text = |rule: String, default: Option<String>| {
        (
            FieldKind::String {
                format: None,
                min_length: None,
                max_length: None,
                default: default.map(Cow::Owned),
            },
            Some(rule),
        )
    };
    let (kind, rule) = match &field.kind {
        FieldKind::Integer { default, .. } => {
            let (lo, hi) = field.kind.integer_bounds().unwrap_or((0, -1));
            if hi >= lo && hi - lo < SMALL_RANGE {
                let titled = !renders.plain_enum;
                let options: Choices = (lo..=hi)
                    .map(|n| Choice::owned(n.to_string(), titled.then(|| n.to_string())))
                    .collect();
                let kind = FieldKind::Select {
                    options,
                    default: default.map(|d| Cow::Owned(d.to_string())),
                    legacy_enum_names: false,
                };
                (kind, None)
            } else {
                text(whole_rule(lo, hi), default.map(|d| d.to_string()))
            }
        }
        FieldKind::Number {
            minimum,
            maximum,
            default,
            ..
        } => text(
            number_rule(*minimum, *maximum),
            default.map(|d| d.to_string()),
        ),
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
            default,
        } => {
            let listed: Vec<&str> = options.iter().map(|c| c.label()).collect();
            let how_many = match min_items {
                Some(n) if *n > 0 => "one or more of",
                _ => "any of",
            };
            let mut rule = format!("{how_many}: {}; separated by commas", listed.join(", "));
            if let Some(max) = max_items {
                rule.push_str(&format!(" (at most {max})"));
            }
            let default = default.as_ref().map(|d| {
                d.iter()
                    .map(|v| label_of(options, v))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            text(rule, default)
        }
        FieldKind::Select {
            options,
            default,
            legacy_enum_names,
        } => {
            let options: Choices = options
                .iter()
                .map(|c| {
                    let title = match renders.titled_enum {
                        false => None,
                        true => Some(c.title.clone().unwrap_or_else(|| c.value.clone())),
                    };
                    Choice {
                        value: c.value.clone(),
                        title,
                    }
                })
                .collect();
            let kind = FieldKind::Select {
                options,
                default: default.clone(),
                legacy_enum_names: *legacy_enum_names,
            };
            (kind, None)
        }
        other => (other.clone(), None),
    };
    out.kind = kind;
    if let Some(rule) = rule {
        out.description = Some(Cow::Owned(match &field.description {
            Some(d) => format!("{d} ({rule})"),
            None => format!("({rule})"),
        }));
    }
    out
}

fn whole_rule(lo: i128, hi: i128) -> String {
    let (min, max) = (i128::from(i64::MIN), i128::from(u64::MAX));
    match (lo > min, hi < max) {
        (true, true) => format!("a whole number from {lo} to {hi}"),
        (true, false) => format!("a whole number, at least {lo}"),
        (false, true) => format!("a whole number, at most {hi}"),
        (false, false) => "a whole number".to_owned(),
    }
}

fn number_rule(lo: Option<f64>, hi: Option<f64>) -> String {
    match (lo, hi) {
        (Some(lo), Some(hi)) => format!("a number from {lo} to {hi}"),
        (Some(lo), None) => format!("a number, at least {lo}"),
        (None, Some(hi)) => format!("a number, at most {hi}"),
        (None, None) => "a number".to_owned(),
    }
}

/// How the option `value` is shown (its title, else itself).
fn label_of<'a>(options: &'a Choices, value: &'a str) -> &'a str {
    options
        .iter()
        .find(|c| c.value == value)
        .map_or(value, Choice::label)
}

/// A result to `form` asked as `shown` (brought down): each answer to a field asked as
/// another kind read back into its own kind (text to a number, a list of labels to a list
/// of values). What cannot be read back is left as it came, and the form's own validation
/// refuses it with the field's own message. Fields asked as they are stay as they came.
pub(super) fn restore(form: &Form, shown: &Form, mut result: Value) -> Value {
    let Some(Value::Object(content)) = result.get_mut("content") else {
        return result;
    };
    for (name, value) in content.iter_mut() {
        let (Some(own), Some(asked)) = (form.field(name), shown.field(name)) else {
            continue;
        };
        if own.kind != asked.kind {
            *value = restore_value(&own.kind, value);
        }
    }
    result
}

fn restore_value(kind: &FieldKind, value: &Value) -> Value {
    let Value::String(text) = value else {
        return value.clone();
    };
    let text = text.trim();
    match kind {
        FieldKind::Integer { .. } => text
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .unwrap_or_else(|_| value.clone()),
        FieldKind::Number { .. } => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        FieldKind::MultiSelect { options, .. } => Value::Array(
            text.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| {
                    let value = options
                        .iter()
                        .find(|c| c.value == item || c.title.as_deref() == Some(item))
                        .map_or(item, |c| &*c.value);
                    Value::String(value.to_owned())
                })
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// Whether `result` accepts without answering a single field of `form`, which has
/// fields the person must fill: what a client that could not show the form sends.
pub(super) fn empty_accept(form: &Form, result: &Value) -> bool {
    if result.get("action").and_then(Value::as_str) != Some("accept") {
        return false;
    }
    let answered = match result.get("content") {
        Some(Value::Object(content)) => content.values().any(|v| !v.is_null()),
        _ => false,
    };
    !answered && form.fields().iter().any(|f| f.required)
}

/// What an accept that answers nothing of a form with required fields is, once the
/// form was asked again brought down to text, checkboxes and selects.
pub(super) const NOTHING_ANSWERED: &str = "the client accepted the form without answering any of its \
     fields, also when asked with text fields only: it may be unable to show this form";

/// A form as a client is asked it: level 0 as its profile shows it, level 1 brought
/// down to text, checkboxes and selects (after an accept that answered nothing).
pub(super) struct Shown<'f> {
    pub(super) form: &'f Form,
    levels: [Option<Form>; 2],
}

impl<'f> Shown<'f> {
    /// `form` for a client that renders `renders`; a form with no fields is refused
    /// (clients show it as a form with nothing to submit).
    pub(super) fn new(form: &'f Form, renders: Renders) -> Result<Shown<'f>, AskError> {
        if form.fields().is_empty() {
            return Err(AskError::Schema(FormError::new(
                "a form with no fields: clients show nothing to fill or submit; ask a yes/no \
                 question with `confirm` instead"
                    .into(),
            )));
        }
        let basic = Renders {
            integer: false,
            number: false,
            multi_select: false,
            ..renders
        };
        let first = adapt(form, renders);
        let text = if basic == renders {
            None
        } else {
            adapt(form, basic)
        };
        // Only a level that changes something more is a level.
        let text = match (&first, text) {
            (Some(a), Some(b)) if *a == b => None,
            (_, text) => text,
        };
        Ok(Shown {
            form,
            levels: [first, text],
        })
    }

    /// `form` as it is, at every level.
    pub(super) fn plain(form: &'f Form) -> Shown<'f> {
        Shown {
            form,
            levels: [None, None],
        }
    }

    /// The form as asked at `level` (a level with no changes of its own asks the one
    /// before it).
    pub(super) fn at(&self, level: usize) -> &Form {
        match level {
            0 => self.levels[0].as_ref().unwrap_or(self.form),
            _ => self.levels[1].as_ref().unwrap_or_else(|| self.at(0)),
        }
    }

    /// The last level there is.
    pub(super) fn last_level(&self) -> usize {
        usize::from(self.levels[1].is_some())
    }

    /// A client's result to the form asked at `level`, read back into the form's own
    /// kinds.
    pub(super) fn restore(&self, level: usize, result: Value) -> Value {
        match level.min(1) {
            0 if self.levels[0].is_none() => result,
            _ => restore(self.form, self.at(level), result),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Strictness;
    use crate::form::Revision;

    /// One field of each kind a profile may bring down, as a derived form has them.
    fn every_kind() -> Form {
        let choices = |titled: bool| -> Choices {
            ["s", "l"]
                .iter()
                .map(|v| Choice::owned(*v, titled.then(|| v.to_uppercase())))
                .collect()
        };
        Form::from_checked(vec![
            Field::new(
                "days",
                false,
                FieldKind::Integer {
                    minimum: Some(90),
                    maximum: Some(3650),
                    range: (90, 3650),
                    default: Some(90),
                },
            ),
            Field::new(
                "guests",
                true,
                FieldKind::Integer {
                    minimum: Some(1),
                    maximum: Some(4),
                    range: (1, 4),
                    default: None,
                },
            ),
            Field::new(
                "ratio",
                true,
                FieldKind::Number {
                    minimum: Some(0.0),
                    maximum: Some(1.0),
                    single_precision: false,
                    default: None,
                },
            ),
            Field::new(
                "extras",
                true,
                FieldKind::MultiSelect {
                    options: choices(true),
                    min_items: Some(1),
                    max_items: None,
                    default: None,
                },
            ),
            Field::new(
                "size",
                true,
                FieldKind::Select {
                    options: choices(true),
                    default: None,
                    legacy_enum_names: false,
                },
            ),
            Field::new(
                "cup",
                true,
                FieldKind::Select {
                    options: choices(false),
                    default: None,
                    legacy_enum_names: false,
                },
            ),
        ])
    }

    fn profile(name: &str) -> Renders {
        known_profiles()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r)
            .unwrap()
    }

    fn schema(form: &Form) -> Value {
        serde_json::to_value(form.requested_schema(Revision::V2025_11_25).unwrap()).unwrap()
    }

    /// What each known profile is sent, field kind by field kind.
    #[test]
    fn each_profile_is_sent_what_it_renders() {
        let form = every_kind();
        assert!(adapt(&form, Renders::default()).is_none());

        let codex = schema(&adapt(&form, profile("codex-mcp-client")).unwrap());
        let p = &codex["properties"];
        assert_eq!(p["days"]["type"], "string");
        assert_eq!(p["days"]["default"], "90");
        assert_eq!(p["days"]["description"], "(a whole number from 90 to 3650)");
        // A small range is a select of its values.
        assert_eq!(p["guests"]["type"], "string");
        assert_eq!(p["guests"]["enum"], json!(["1", "2", "3", "4"]));
        assert_eq!(p["ratio"]["type"], "string");
        assert_eq!(p["ratio"]["description"], "(a number from 0 to 1)");
        assert_eq!(p["extras"]["type"], "string");
        assert_eq!(
            p["extras"]["description"],
            "(one or more of: S, L; separated by commas)"
        );
        // Selects it renders stay as they are.
        assert_eq!(p["size"]["oneOf"][0], json!({"const": "s", "title": "S"}));
        assert_eq!(p["cup"]["enum"], json!(["s", "l"]));
        assert_eq!(codex["required"], schema(&form)["required"]);

        let copilot = schema(&adapt(&form, profile("github-copilot-developer")).unwrap());
        let p = &copilot["properties"];
        assert_eq!(p["cup"]["oneOf"][1], json!({"const": "l", "title": "l"}));
        assert_eq!(p["days"]["type"], "integer");
        assert_eq!(p["extras"]["type"], "array");

        let goose = schema(&adapt(&form, profile("goose")).unwrap());
        let p = &goose["properties"];
        assert_eq!(p["size"]["enum"], json!(["s", "l"]));
        assert!(p["size"].get("oneOf").is_none());
        assert_eq!(p["extras"]["type"], "string");
        assert_eq!(p["ratio"]["type"], "number");
    }

    /// What each profile's answers read back as: the same typed values a complete
    /// client gives, checked by the same rules.
    #[test]
    fn answers_read_back_into_the_fields_own_kinds() {
        let form = every_kind();
        let shown = adapt(&form, profile("codex-mcp-client")).unwrap();
        let answer = json!({"action": "accept", "content": {
            "days": " 120 ", "guests": "2", "ratio": "0.5", "extras": "S, l", "size": "s", "cup": "l"
        }});
        let read = restore(&form, &shown, answer);
        assert_eq!(
            read["content"],
            json!({"days": 120, "guests": 2, "ratio": 0.5, "extras": ["s", "l"], "size": "s", "cup": "l"})
        );
        let valid = form
            .validate(read.get("content"), Strictness::Strict)
            .unwrap();
        assert_eq!(valid["days"], 120);

        // Out of the field's own bounds, or not a number: the field's own messages.
        let bad = json!({"action": "accept", "content": {
            "days": "30", "guests": "2", "ratio": "lots", "extras": "S, XL", "size": "s", "cup": "l"
        }});
        let read = restore(&form, &shown, bad);
        let error = form
            .validate(read.get("content"), Strictness::Strict)
            .unwrap_err()
            .to_string();
        assert!(error.contains("days: must be at least 90"), "{error}");
        assert!(error.contains("ratio: expected a number"), "{error}");
        assert!(error.contains("extras"), "{error}");

        // A field asked as it is stays as it came: no coercion the form did not ask for.
        let as_is = json!({"action": "accept", "content": {"size": "s", "cup": 7}});
        let read = restore(&form, &shown, as_is);
        assert_eq!(read["content"]["cup"], 7);
    }

    #[test]
    fn an_accept_that_answers_nothing_is_told_apart() {
        let form = every_kind();
        for empty in [
            json!({"action": "accept"}),
            json!({"action": "accept", "content": {}}),
            json!({"action": "accept", "content": {"days": null}}),
        ] {
            assert!(empty_accept(&form, &empty), "{empty}");
        }
        for other in [
            json!({"action": "decline"}),
            json!({"action": "accept", "content": {"days": 100}}),
        ] {
            assert!(!empty_accept(&form, &other), "{other}");
        }
        // A form whose every field has a default is answered by an empty accept.
        let defaults = Form::from_checked(vec![Field::new(
            "ok",
            false,
            FieldKind::Boolean {
                default: Some(true),
            },
        )]);
        assert!(!empty_accept(
            &defaults,
            &json!({"action": "accept", "content": {}})
        ));
    }
}
