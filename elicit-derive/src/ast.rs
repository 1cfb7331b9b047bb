//! The input as the expanders see it, built from `syn` with its attributes parsed by
//! `attr`: for `#[derive(Elicit)]` a form struct with its fields or a unit enum with its
//! variants, each with its wire name after serde's renaming ([`Input`]); for
//! `#[derive(Wizard)]` a struct with its list of steps ([`Wizard`]). This module owns
//! the shapes each derive accepts (named fields, unit variants, no generics) and reports
//! the others; rules between values are left to `check`.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Fields, Ident, Type, Visibility};

use crate::attr::{self, SerdeContainer, SerdeMember};
use crate::ctxt::Ctxt;

/// What `#[derive(Elicit)]` is given.
pub enum Input<'a> {
    Form(Form<'a>),
    Options(Options<'a>),
    /// Not a shape the derive accepts; the error is recorded.
    Invalid,
}

/// A struct of form fields.
pub struct Form<'a> {
    pub ident: &'a Ident,
    /// Where the generated code finds `elicit_core` (`#[elicit(crate = "..")]`).
    pub krate: syn::Path,
    pub fields: Vec<Field<'a>>,
    /// `#[elicit(consent)]`: the form is a consent.
    pub consent: bool,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    /// The identifier without `r#`.
    pub rust_name: String,
    pub wire: String,
    /// Span of what decided the wire name (the ident, or serde's `rename`).
    pub wire_span: Span,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    pub doc: Option<String>,
    /// serde fills the field when it is missing (`#[serde(default)]`).
    pub serde_default: bool,
}

/// A unit enum: the options of a select.
pub struct Options<'a> {
    pub ident: &'a Ident,
    /// Where the generated code finds `elicit_core` (`#[elicit(crate = "..")]`).
    pub krate: syn::Path,
    pub variants: Vec<Variant<'a>>,
    /// How many variants the enum declares, skipped ones too.
    pub declared: usize,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub wire: String,
    pub title: Option<String>,
}

fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

impl<'a> Input<'a> {
    pub fn from_syn(cx: &mut Ctxt, input: &'a DeriveInput) -> Input<'a> {
        let container = attr::Container::from_ast(cx, &input.attrs);
        let krate = container.krate;
        let serde = SerdeContainer::from_ast(cx, &input.attrs);
        if !input.generics.params.is_empty() {
            // A form is one concrete shape sent to a client; it has no parameters.
            cx.error(
                input.generics.span(),
                "`Elicit` cannot be derived for a generic type: a form is one concrete, flat shape",
            );
            // No impl at all: a stub without the parameters would add errors of its own.
            return Input::Invalid;
        }
        match &input.data {
            Data::Struct(data) => {
                let form = Input::from_struct(cx, input, krate, &serde, &data.fields);
                match form {
                    Input::Form(form) => Input::Form(Form {
                        consent: container.consent.is_some(),
                        ..form
                    }),
                    other => other,
                }
            }
            Data::Enum(data) => {
                if let Some(span) = container.consent {
                    cx.error(
                        span,
                        "`consent` marks a form (a struct of fields), not the options of a select: put it on the struct that holds this field",
                    );
                }
                Input::Options(Options::from_enum(cx, input, krate, &serde, data))
            }
            Data::Union(_) => {
                cx.error(
                    input.ident.span(),
                    "`Elicit` cannot be derived for a union: use a struct of named fields (a form) or a unit enum (the options of a select)",
                );
                Input::Invalid
            }
        }
    }

    /// The form of a struct with named fields; tuple and unit structs are reported.
    fn from_struct(
        cx: &mut Ctxt,
        input: &'a DeriveInput,
        krate: syn::Path,
        serde: &SerdeContainer,
        fields: &'a Fields,
    ) -> Input<'a> {
        match fields {
            Fields::Named(named) => {
                let mut fields = Vec::new();
                for field in &named.named {
                    if let Some(field) = Field::from_syn(cx, field, serde) {
                        fields.push(field);
                    }
                }
                Input::Form(Form {
                    ident: &input.ident,
                    krate,
                    fields,
                    consent: false,
                })
            }
            Fields::Unnamed(_) => {
                cx.error(
                    input.ident.span(),
                    "`Elicit` cannot be derived for a tuple struct: form fields need names, which become the answer's keys; use a struct with named fields",
                );
                Input::Invalid
            }
            Fields::Unit => {
                cx.error(
                    input.ident.span(),
                    "`Elicit` cannot be derived for a unit struct: a form needs at least one named field; for a yes/no question use `elicit_core::Confirm`",
                );
                Input::Invalid
            }
        }
    }
}

impl<'a> Field<'a> {
    /// One named field with its attributes and wire name; none when serde skips it, or
    /// flattens it (which is reported).
    fn from_syn(cx: &mut Ctxt, field: &'a syn::Field, serde: &SerdeContainer) -> Option<Field<'a>> {
        let attrs = attr::Field::from_ast(cx, &field.attrs);
        let member = SerdeMember::from_ast(&field.attrs);
        if let Some(span) = member.flatten {
            cx.error(
                span,
                "`#[serde(flatten)]` cannot be used in a form: MCP forms are one flat object whose every field the derive must see; list the fields here instead",
            );
            return None;
        }
        let ident = field.ident.as_ref()?;
        if member.skip {
            return None;
        }
        let rust_name = unraw(ident);
        let (wire, wire_span) = match (&member.rename, serde.rename_all) {
            (Some((name, span)), _) => (name.clone(), *span),
            (None, Some(rule)) => (rule.apply_to_field(&rust_name), ident.span()),
            (None, None) => (rust_name.clone(), ident.span()),
        };
        Some(Field {
            ident,
            rust_name,
            wire,
            wire_span,
            ty: &field.ty,
            doc: attr::doc_text(&field.attrs),
            attrs,
            serde_default: member.default || serde.default,
        })
    }
}

impl<'a> Options<'a> {
    /// The options of an enum of unit variants; a variant with data, and an enum with no
    /// variants, are reported.
    fn from_enum(
        cx: &mut Ctxt,
        input: &'a DeriveInput,
        krate: syn::Path,
        serde: &SerdeContainer,
        data: &'a DataEnum,
    ) -> Options<'a> {
        let mut variants = Vec::new();
        for variant in &data.variants {
            if let Some(variant) = Variant::from_syn(cx, variant, serde) {
                variants.push(variant);
            }
        }
        if data.variants.is_empty() {
            cx.error(
                input.ident.span(),
                format!(
                    "enum `{}` has no variants: a select needs at least one option",
                    input.ident
                ),
            );
        }
        Options {
            ident: &input.ident,
            krate,
            variants,
            declared: data.variants.len(),
        }
    }
}

impl<'a> Variant<'a> {
    /// One unit variant with its title and wire name; none when serde skips it, or when
    /// it carries data (which is reported).
    fn from_syn(
        cx: &mut Ctxt,
        variant: &'a syn::Variant,
        serde: &SerdeContainer,
    ) -> Option<Variant<'a>> {
        let attrs = attr::Variant::from_ast(cx, &variant.attrs);
        let member = SerdeMember::from_ast(&variant.attrs);
        if !matches!(variant.fields, Fields::Unit) {
            cx.error(
                variant.fields.span(),
                format!(
                    "variant `{}` carries data: an enum deriving `Elicit` is a list of options, so every variant must be a unit variant",
                    variant.ident
                ),
            );
            return None;
        }
        if member.skip {
            return None;
        }
        let name = unraw(&variant.ident);
        let wire = match (member.rename, serde.rename_all) {
            (Some((name, _)), _) => name,
            (None, Some(rule)) => rule.apply_to_variant(&name),
            (None, None) => name,
        };
        Some(Variant {
            ident: &variant.ident,
            wire,
            title: attrs.title,
        })
    }
}

/// What `#[derive(Wizard)]` is given: a struct of steps, in the order they are asked.
pub struct Wizard<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    /// `#[wizard(..)]`: where `elicit_core` is, the hooks' context, the default attempts.
    pub attrs: attr::Wizard,
    pub steps: Vec<Step<'a>>,
}

/// A field of the wizard struct: one step, whose type is its form.
pub struct Step<'a> {
    pub ident: &'a Ident,
    /// The identifier without `r#`: the step's name.
    pub name: String,
    /// The step's type: a form, or an `Option` of one.
    pub ty: &'a Type,
    pub attrs: attr::Step,
}

impl<'a> Wizard<'a> {
    pub fn from_syn(cx: &mut Ctxt, input: &'a DeriveInput) -> Wizard<'a> {
        let attrs = attr::Wizard::from_ast(cx, &input.attrs);
        if !input.generics.params.is_empty() {
            cx.error(
                input.generics.span(),
                "`Wizard` cannot be derived for a generic type: its steps and saved state have one concrete shape",
            );
        }
        let mut steps = Vec::new();
        match &input.data {
            Data::Struct(data) if matches!(data.fields, Fields::Named(_)) => {
                for field in &data.fields {
                    let Some(ident) = field.ident.as_ref() else {
                        continue;
                    };
                    steps.push(Step {
                        ident,
                        name: unraw(ident),
                        ty: &field.ty,
                        attrs: attr::Step::from_ast(cx, ident, &field.attrs),
                    });
                }
                if steps.is_empty() {
                    cx.error(
                        input.ident.span(),
                        "a wizard needs at least one step: a field whose type is a form deriving `Elicit`",
                    );
                }
            }
            _ => cx.error(
                input.ident.span(),
                "`Wizard` is derived for a struct with named fields, one per step",
            ),
        }
        Wizard {
            ident: &input.ident,
            vis: &input.vis,
            attrs,
            steps,
        }
    }
}
