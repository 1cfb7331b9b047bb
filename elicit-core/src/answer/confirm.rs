//! The ready-made approval form: one required checkbox.

use std::borrow::Cow;

use crate::form::{Field, FieldKind, Form};

/// A yes/no question as a form with one required boolean, for approvals such as
/// "Really delete 1,284 logs?". An empty form hangs at least one real client; this
/// is the shape that works everywhere.
///
/// ```
/// use elicit_core::{Confirm, Revision, Strictness};
/// use serde_json::json;
///
/// let confirm = Confirm::new("Delete 1,284 log files?")
///     .with_description("Tick the box to delete them for good.");
/// let schema = serde_json::to_value(confirm.form().requested_schema(Revision::V2025_06_18)?)?;
/// assert_eq!(schema["required"], json!(["confirm"]));
///
/// // Ask it with `Call::confirm` (the engine, feature `seal`), or validate an answer:
/// let content = json!({"confirm": true});
/// let answer = confirm.form().validate(Some(&content), Strictness::Strict)?;
/// assert_eq!(answer["confirm"], true);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    form: Form,
}

impl Confirm {
    /// The wire name of the checkbox.
    pub(crate) const FIELD: &'static str = "confirm";

    /// A confirm form whose checkbox carries `title`.
    pub fn new(title: impl Into<Cow<'static, str>>) -> Confirm {
        let field =
            Field::new(Self::FIELD, true, FieldKind::Boolean { default: None }).with_title(title);
        Confirm {
            // One named boolean is always a valid form.
            form: Form::from_checked(vec![field]),
        }
    }

    /// Adds help text under the checkbox.
    pub fn with_description(mut self, description: impl Into<Cow<'static, str>>) -> Confirm {
        if let Some(field) = self.form.fields_mut().first_mut() {
            field.description = Some(description.into());
        }
        self
    }

    /// The form.
    pub fn form(&self) -> &Form {
        &self.form
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::Confirm;
    use crate::form::Revision;

    /// A description changes the form, so the schema JSON it keeps is written again.
    #[test]
    fn a_description_writes_the_schema_again() {
        let confirm = Confirm::new("Go?");
        let before = confirm
            .form()
            .requested_schema(Revision::LATEST)
            .expect("valid");
        let before = before.json().to_vec();
        let confirm = confirm.with_description(Cow::Borrowed("Really."));
        let after = confirm
            .form()
            .requested_schema(Revision::LATEST)
            .expect("valid");
        assert_ne!(after.json(), before.as_slice());
        assert_eq!(
            after.json(),
            serde_json::to_vec(&after).expect("plain JSON")
        );
    }
}
