//! The input as this crate sees it: a form struct with its fields, or a unit enum with
//! its variants, each with parsed attributes and its wire name.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, FieldAttrs, SerdeContainer, SerdeMember, VariantAttrs};
use crate::ctxt::Ctxt;

pub enum Input<'a> {
    Form(Form<'a>),
    Options(Options<'a>),
    /// Not a shape the derive accepts; the error is recorded.
    Invalid,
}

pub struct Form<'a> {
    pub ident: &'a Ident,
    /// Where the generated code finds `elicit_core` (`#[elicit(crate = "..")]`).
    pub krate: syn::Path,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    /// The identifier without `r#`.
    pub rust_name: String,
    pub wire: String,
    /// Span of what decided the wire name (the ident, or serde's `rename`).
    pub wire_span: Span,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    pub doc: Option<String>,
    /// serde fills the field when it is missing (`#[serde(default)]`).
    pub serde_default: bool,
}

pub struct Options<'a> {
    pub ident: &'a Ident,
    /// Where the generated code finds `elicit_core` (`#[elicit(crate = "..")]`).
    pub krate: syn::Path,
    pub variants: Vec<Variant<'a>>,
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
        let krate = attr::container(cx, &input.attrs);
        let serde = SerdeContainer::parse(cx, &input.attrs);
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
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    let mut fields = Vec::new();
                    for field in &named.named {
                        let attrs = FieldAttrs::parse(cx, &field.attrs);
                        let member = SerdeMember::parse(&field.attrs);
                        if let Some(span) = member.flatten {
                            cx.error(
                                span,
                                "`#[serde(flatten)]` cannot be used in a form: MCP forms are one flat object whose every field the derive must see; list the fields here instead",
                            );
                            continue;
                        }
                        let Some(ident) = field.ident.as_ref() else {
                            continue;
                        };
                        if member.skip {
                            continue;
                        }
                        let rust_name = unraw(ident);
                        let (wire, wire_span) = match (&member.rename, serde.rename_all) {
                            (Some((name, span)), _) => (name.clone(), *span),
                            (None, Some(rule)) => (rule.apply_to_field(&rust_name), ident.span()),
                            (None, None) => (rust_name.clone(), ident.span()),
                        };
                        fields.push(Field {
                            ident,
                            rust_name,
                            wire,
                            wire_span,
                            ty: &field.ty,
                            doc: attr::doc_text(&field.attrs),
                            attrs,
                            serde_default: member.default || serde.default,
                        });
                    }
                    Input::Form(Form {
                        ident: &input.ident,
                        krate,
                        fields,
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
            },
            Data::Enum(data) => {
                let mut variants = Vec::new();
                for variant in &data.variants {
                    let attrs = VariantAttrs::parse(cx, &variant.attrs);
                    let member = SerdeMember::parse(&variant.attrs);
                    if !matches!(variant.fields, Fields::Unit) {
                        cx.error(
                            variant.fields.span(),
                            format!(
                                "variant `{}` carries data: an enum deriving `Elicit` is a list of options, so every variant must be a unit variant",
                                variant.ident
                            ),
                        );
                        continue;
                    }
                    if member.skip {
                        continue;
                    }
                    let name = unraw(&variant.ident);
                    let wire = match (member.rename, serde.rename_all) {
                        (Some((name, _)), _) => name,
                        (None, Some(rule)) => rule.apply_to_variant(&name),
                        (None, None) => name,
                    };
                    variants.push(Variant {
                        ident: &variant.ident,
                        wire,
                        title: attrs.title.map(|t| t.value),
                    });
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
                Input::Options(Options {
                    ident: &input.ident,
                    krate,
                    variants,
                })
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
}
