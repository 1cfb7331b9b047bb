//! The serde attributes that decide what `Deserialize` reads: wire names, skipped and
//! defaulted members.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// The serde attributes of a container that change what `Deserialize` reads.
#[derive(Default)]
pub struct SerdeContainer {
    pub rename_all: Option<RenameRule>,
    /// `#[serde(default)]`: every field may be left out.
    pub default: bool,
}

/// The serde attributes of a field or variant that change what `Deserialize` reads.
#[derive(Default)]
pub struct SerdeMember {
    /// The name `Deserialize` reads, with the span of the attribute that sets it.
    pub rename: Option<(String, Span)>,
    pub skip: bool,
    /// `#[serde(default)]` or `default = "path"`: the field may be left out.
    pub default: bool,
    pub flatten: Option<Span>,
}

fn serde_metas(attrs: &[Attribute]) -> Vec<Meta> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .collect()
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name `Deserialize` reads.
fn deserialize_name(meta: &Meta) -> Option<String> {
    match meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        Meta::List(list) => {
            let inner = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            inner
                .iter()
                .find(|m| m.path().is_ident("deserialize"))
                .and_then(deserialize_name)
        }
        Meta::Path(_) => None,
    }
}

impl SerdeContainer {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> SerdeContainer {
        let mut out = SerdeContainer::default();
        for meta in serde_metas(attrs) {
            let path = meta.path();
            if path.is_ident("rename_all") {
                if let Some(rule) = deserialize_name(&meta) {
                    match RenameRule::from_str(&rule) {
                        Some(r) => out.rename_all = Some(r),
                        // serde reports the unknown rule itself.
                        None => {
                            cx.error(meta.span(), format!("unknown serde rename rule {rule:?}"))
                        }
                    }
                }
            } else if path.is_ident("default") {
                out.default = true;
            }
        }
        out
    }
}

impl SerdeMember {
    pub fn from_ast(attrs: &[Attribute]) -> SerdeMember {
        let mut out = SerdeMember::default();
        for meta in serde_metas(attrs) {
            let path = meta.path();
            if path.is_ident("rename") {
                if let Some(name) = deserialize_name(&meta) {
                    let span = match &meta {
                        Meta::NameValue(nv) => nv.value.span(),
                        other => other.span(),
                    };
                    out.rename = Some((name, span));
                }
            } else if path.is_ident("skip") || path.is_ident("skip_deserializing") {
                out.skip = true;
            } else if path.is_ident("default") {
                out.default = true;
            } else if path.is_ident("flatten") {
                out.flatten = Some(path.span());
            }
        }
        out
    }
}
