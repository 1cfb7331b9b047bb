//! Attribute parsing, and nothing else: `#[elicit(..)]` on a type ([`Container`]), a
//! field ([`Field`]) or an enum variant ([`Variant`]), `#[wizard(..)]` ([`Wizard`]) and
//! `#[step(..)]` ([`Step`]), the serde attributes that decide wire names
//! ([`SerdeContainer`], [`SerdeMember`]), and doc comments, each turned into plain
//! data. The keys of each attribute are an enum ([`Key`], [`WizardKey`], [`StepKey`])
//! that knows where each key may be written, so an unknown or misplaced key is
//! reported with the list of keys that place takes; each key's value is kept in one
//! [`Attr`] slot, which reports a key set twice the same way for every attribute.
//! Whether a value makes sense next to other values or the field's type is left to
//! `check` and to the type checker. Errors are recorded in the [`Ctxt`]; parsing never
//! stops early.
//!
//! Here, the attributes as data; in `keys`, the key enums and the walk over an
//! attribute's keys; in `slot`, the slots; in `value`, the values and their parsers; in
//! `serde`, the serde attributes.

use proc_macro2::Span;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, Meta, Path, Type};

use crate::ctxt::Ctxt;

mod keys;
mod serde;
mod slot;
mod value;

use keys::{Key, Place, StepKey, WizardKey, each_key};
pub use serde::{SerdeContainer, SerdeMember};
pub use slot::Setting;
use slot::{Attr, BoolAttr};
pub use value::{DefaultValue, Format, Number};
use value::{
    attempts_value, crate_path, default_crate, default_value, format_value, hook_path, lit_count,
    lit_str, number_value, type_value,
};

/// `#[elicit(..)]` on the type.
pub struct Container {
    /// `crate = "path"`: where the generated code finds `elicit_core` (for a crate that
    /// re-exports it); `::elicit_core` unless told otherwise.
    pub krate: Path,
    /// `consent`: the form is a consent, never asked through a link the model reads.
    pub consent: Option<Span>,
}

impl Container {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Container {
        let mut krate = Attr::none(Key::Crate);
        let mut consent = BoolAttr::none(Key::Consent);
        each_key(cx, attrs, Place::Type, |cx, item| match item.key {
            Key::Crate => item.set(cx, &mut krate, crate_path),
            Key::Consent => item.set_flag(cx, &mut consent),
            _ => unreachable!("each_key passes only the keys a type takes"),
        });
        Container {
            krate: krate.value().unwrap_or_else(default_crate),
            consent: consent.get(),
        }
    }
}

/// `#[elicit(..)]` on a form field.
pub struct Field {
    pub title: Option<Setting<String>>,
    pub description: Option<Setting<String>>,
    pub format: Option<Setting<Format>>,
    pub min_length: Option<Setting<u64>>,
    pub max_length: Option<Setting<u64>>,
    pub minimum: Option<Setting<Number>>,
    pub maximum: Option<Setting<Number>>,
    pub default: Option<Setting<DefaultValue>>,
    pub min_items: Option<Setting<u64>>,
    pub max_items: Option<Setting<u64>>,
    /// The span of the `enum_names` flag, when set.
    pub enum_names: Option<Span>,
    /// The span of the `secret` flag, when set: the field is a secret, asked on a web
    /// page only.
    pub secret: Option<Span>,
    /// The span of the `not_secret` flag, when set.
    pub not_secret: Option<Span>,
}

impl Field {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Field {
        let mut title = Attr::none(Key::Title);
        let mut description = Attr::none(Key::Description);
        let mut format = Attr::none(Key::Format);
        let mut min_length = Attr::none(Key::MinLength);
        let mut max_length = Attr::none(Key::MaxLength);
        let mut minimum = Attr::none(Key::Minimum);
        let mut maximum = Attr::none(Key::Maximum);
        let mut default = Attr::none(Key::Default);
        let mut min_items = Attr::none(Key::MinItems);
        let mut max_items = Attr::none(Key::MaxItems);
        let mut enum_names = BoolAttr::none(Key::EnumNames);
        let mut secret = BoolAttr::none(Key::Secret);
        let mut not_secret = BoolAttr::none(Key::NotSecret);
        each_key(cx, attrs, Place::Field, |cx, item| match item.key {
            Key::Title => item.set(cx, &mut title, lit_str),
            Key::Description => item.set(cx, &mut description, lit_str),
            Key::Format => item.set(cx, &mut format, format_value),
            Key::MinLength => item.set(cx, &mut min_length, lit_count),
            Key::MaxLength => item.set(cx, &mut max_length, lit_count),
            Key::Minimum => item.set(cx, &mut minimum, number_value),
            Key::Maximum => item.set(cx, &mut maximum, number_value),
            Key::Default => item.set(cx, &mut default, default_value),
            Key::MinItems => item.set(cx, &mut min_items, lit_count),
            Key::MaxItems => item.set(cx, &mut max_items, lit_count),
            Key::EnumNames => item.set_flag(cx, &mut enum_names),
            Key::Secret => item.set_flag(cx, &mut secret),
            Key::NotSecret => item.set_flag(cx, &mut not_secret),
            Key::Crate | Key::Consent => {
                unreachable!("each_key passes only the keys a field takes")
            }
        });
        Field {
            title: title.get(),
            description: description.get(),
            format: format.get(),
            min_length: min_length.get(),
            max_length: max_length.get(),
            minimum: minimum.get(),
            maximum: maximum.get(),
            default: default.get(),
            min_items: min_items.get(),
            max_items: max_items.get(),
            enum_names: enum_names.get(),
            secret: secret.get(),
            not_secret: not_secret.get(),
        }
    }
}

/// `#[elicit(..)]` on an enum variant.
pub struct Variant {
    pub title: Option<String>,
}

impl Variant {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Variant {
        let mut title = Attr::none(Key::Title);
        each_key(cx, attrs, Place::Variant, |cx, item| match item.key {
            Key::Title => item.set(cx, &mut title, lit_str),
            _ => unreachable!("each_key passes only the keys a variant takes"),
        });
        Variant {
            title: title.value(),
        }
    }
}

/// `#[wizard(..)]` on the type.
pub struct Wizard {
    /// `crate = "path"`, as in [`Container::krate`].
    pub krate: Path,
    /// `context = Type`: what the hooks are given; `()` when not set.
    pub context: Option<Type>,
    /// `attempts = n`: how many answers each step may get, unless the step says.
    pub attempts: Option<u64>,
}

impl Wizard {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Wizard {
        let mut krate = Attr::none(WizardKey::Crate);
        let mut context = Attr::none(WizardKey::Context);
        let mut attempts = Attr::none(WizardKey::Attempts);
        each_key(cx, attrs, Place::Wizard, |cx, item| match item.key {
            WizardKey::Crate => item.set(cx, &mut krate, crate_path),
            WizardKey::Context => item.set(cx, &mut context, type_value),
            WizardKey::Attempts => item.set(cx, &mut attempts, attempts_value),
        });
        Wizard {
            krate: krate.value().unwrap_or_else(default_crate),
            context: context.value(),
            attempts: attempts.value(),
        }
    }
}

/// `#[step(..)]` on a wizard's step.
pub struct Step {
    /// The question shown above the step's form; every step has one.
    pub message: Option<String>,
    /// `check = f`: judges an answer against the context.
    pub check: Option<Path>,
    /// `prepare = f`: fills the step's choices from the context.
    pub prepare: Option<Path>,
    /// `skip_if = f`: whether the step is left out.
    pub skip_if: Option<Path>,
    /// `attempts = n`, over the wizard's.
    pub attempts: Option<u64>,
}

impl Step {
    /// The attributes of the step `ident`; a step without `message` is reported there.
    pub fn from_ast(cx: &mut Ctxt, ident: &Ident, attrs: &[Attribute]) -> Step {
        let mut message = Attr::none(StepKey::Message);
        let mut check = Attr::none(StepKey::Check);
        let mut prepare = Attr::none(StepKey::Prepare);
        let mut skip_if = Attr::none(StepKey::SkipIf);
        let mut attempts = Attr::none(StepKey::Attempts);
        // Written at all, even with a wrong value (which has its own error).
        let mut message_written = false;
        each_key(cx, attrs, Place::Step, |cx, item| match item.key {
            StepKey::Message => {
                message_written = true;
                item.set(cx, &mut message, lit_str);
            }
            StepKey::Check => item.set(cx, &mut check, hook_path),
            StepKey::Prepare => item.set(cx, &mut prepare, hook_path),
            StepKey::SkipIf => item.set(cx, &mut skip_if, hook_path),
            StepKey::Attempts => item.set(cx, &mut attempts, attempts_value),
        });
        if !message_written {
            cx.error(
                ident.span(),
                format!("step `{ident}` needs a message: add `#[step(message = \"...\")]`, the question shown above its form"),
            );
        }
        Step {
            message: message.value(),
            check: check.value(),
            prepare: prepare.value(),
            skip_if: skip_if.value(),
            attempts: attempts.value(),
        }
    }
}

/// The doc comment as plain text: lines trimmed, paragraphs kept apart.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            lines.push(s.value());
        }
    }
    let mut out = String::new();
    let mut blank = false;
    for line in lines.iter().flat_map(|l| l.lines()) {
        let line = line.trim();
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { " " });
        }
        blank = false;
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}
