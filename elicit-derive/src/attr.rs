//! `#[elicit(..)]`, the serde attributes that decide wire names, and doc comments,
//! turned into plain data. Errors are recorded in the context; parsing never stops early.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, Token, UnOp};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// A value with the span of its attribute key and of the value itself.
#[derive(Clone, Debug)]
pub struct Attr<T> {
    pub value: T,
    pub key: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(&self) -> f64 {
        match *self {
            Number::Int(v) => v as f64,
            Number::Float(v) => v,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

#[derive(Clone, Debug)]
pub enum DefaultValue {
    Str(String),
    Bool(bool),
    Number(Number),
    List(Vec<(String, Span)>),
}

pub const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// `#[elicit(..)]` on a struct field.
#[derive(Default)]
pub struct FieldAttrs {
    pub title: Option<Attr<String>>,
    pub description: Option<Attr<String>>,
    pub format: Option<Attr<String>>,
    pub min_length: Option<Attr<u64>>,
    pub max_length: Option<Attr<u64>>,
    pub minimum: Option<Attr<Number>>,
    pub maximum: Option<Attr<Number>>,
    pub default: Option<Attr<DefaultValue>>,
    pub min_items: Option<Attr<u64>>,
    pub max_items: Option<Attr<u64>>,
    pub enum_names: Option<Span>,
    pub not_secret: Option<Span>,
}

const FIELD_KEYS: &str = "title, description, format, min_length, max_length, minimum, maximum, default, min_items, max_items, enum_names, not_secret";

/// `#[elicit(..)]` on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub title: Option<Attr<String>>,
}

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

fn set<T>(cx: &mut Ctxt, slot: &mut Option<Attr<T>>, name: &str, attr: Attr<T>) {
    if let Some(first) = slot {
        let mut e = syn::Error::new(attr.key, format!("duplicate `{name}` in #[elicit(..)]"));
        e.combine(syn::Error::new(
            first.key,
            format!("`{name}` is first set here"),
        ));
        cx.push(e);
    } else {
        *slot = Some(attr);
    }
}

fn set_flag(cx: &mut Ctxt, slot: &mut Option<Span>, name: &str, key: Span) {
    if let Some(first) = slot {
        let mut e = syn::Error::new(key, format!("duplicate `{name}` in #[elicit(..)]"));
        e.combine(syn::Error::new(
            *first,
            format!("`{name}` is first set here"),
        ));
        cx.push(e);
    } else {
        *slot = Some(key);
    }
}

pub fn lit_str(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a string literal: `{key} = \"...\"`"),
            );
            None
        }
    }
}

pub fn lit_count(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<u64> {
    if let Expr::Lit(ExprLit {
        lit: Lit::Int(i), ..
    }) = expr
        && let Ok(v) = i.base10_parse::<u64>()
    {
        return Some(v);
    }
    cx.error(
        expr.span(),
        format!("`{key}` takes a non-negative whole number: `{key} = 3`"),
    );
    None
}

fn lit_number(expr: &Expr) -> Option<Number> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(Number::Int),
        Expr::Lit(ExprLit {
            lit: Lit::Float(f), ..
        }) => f
            .base10_parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Number::Float),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match lit_number(&u.expr)? {
            Number::Int(v) => Some(Number::Int(-v)),
            Number::Float(v) => Some(Number::Float(-v)),
        },
        Expr::Group(g) => lit_number(&g.expr),
        _ => None,
    }
}

fn default_value(cx: &mut Ctxt, expr: &Expr) -> Option<DefaultValue> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => return Some(DefaultValue::Str(s.value())),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => return Some(DefaultValue::Bool(b.value)),
        Expr::Array(array) => {
            let mut items = Vec::new();
            for item in &array.elems {
                match item {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) => items.push((s.value(), s.span())),
                    other => {
                        cx.error(
                            other.span(),
                            "a multi-select default lists the wire values of variants: `default = [\"a\", \"b\"]`",
                        );
                        return None;
                    }
                }
            }
            return Some(DefaultValue::List(items));
        }
        _ => {}
    }
    if let Some(n) = lit_number(expr) {
        return Some(DefaultValue::Number(n));
    }
    cx.error(
        expr.span(),
        "`default` takes a literal: text (\"...\", also the wire value of an enum variant), `true`/`false`, a number, or a list of variant values",
    );
    None
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

/// Runs `f` on each `key [= value]` of every `#[elicit(..)]`; `f` gets the key's name,
/// its span and the value expression when there is one.
fn each_elicit_key(
    cx: &mut Ctxt,
    attrs: &[Attribute],
    f: impl FnMut(&mut Ctxt, &str, Span, Option<Expr>),
) {
    each_key(cx, attrs, "elicit", f)
}

/// [`each_elicit_key`] for any attribute name (`#[wizard(..)]`, `#[step(..)]`).
pub fn each_key(
    cx: &mut Ctxt,
    attrs: &[Attribute],
    attr_name: &str,
    mut f: impl FnMut(&mut Ctxt, &str, Span, Option<Expr>),
) {
    for attr in attrs {
        if !attr.path().is_ident(attr_name) {
            continue;
        }
        let list = match &attr.meta {
            Meta::List(list) => list,
            other => {
                cx.error(
                    other.span(),
                    format!("expected `#[{attr_name}(key = value, ..)]`"),
                );
                continue;
            }
        };
        let parsed = list.parse_args_with(Punctuated::<KeyValue, Token![,]>::parse_terminated);
        match parsed {
            Ok(items) => {
                for item in items {
                    f(cx, &item.name, item.span, item.value);
                }
            }
            Err(e) => cx.push(e),
        }
    }
}

struct KeyValue {
    name: String,
    span: Span,
    value: Option<Expr>,
}

impl syn::parse::Parse for KeyValue {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let ident: syn::Ident = syn::ext::IdentExt::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse::<Expr>()?)
        } else {
            None
        };
        Ok(KeyValue {
            name: ident.to_string(),
            span: ident.span(),
            value,
        })
    }
}

pub fn needs_value(cx: &mut Ctxt, name: &str, key: Span, value: Option<Expr>) -> Option<Expr> {
    if value.is_none() {
        cx.error(key, format!("`{name}` needs a value: `{name} = ...`"));
    }
    value
}

fn no_value(cx: &mut Ctxt, name: &str, value: &Option<Expr>) {
    if let Some(v) = value {
        cx.error(
            v.span(),
            format!("`{name}` is a flag and takes no value: write `{name}`"),
        );
    }
}

impl FieldAttrs {
    pub fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        each_elicit_key(cx, attrs, |cx, name, key, value| {
            let flag = matches!(name, "enum_names" | "not_secret");
            if flag {
                no_value(cx, name, &value);
                match name {
                    // #[elicit(enum_names)]
                    "enum_names" => set_flag(cx, &mut out.enum_names, name, key),
                    // #[elicit(not_secret)]
                    _ => set_flag(cx, &mut out.not_secret, name, key),
                }
                return;
            }
            if !FIELD_KEYS.split(", ").any(|k| k == name) {
                cx.error(
                    key,
                    format!("unknown key `{name}` in #[elicit(..)]: a field takes {FIELD_KEYS}"),
                );
                return;
            }
            let Some(expr) = needs_value(cx, name, key, value) else {
                return;
            };
            let span = expr.span();
            match name {
                // #[elicit(title = "New Date")]
                "title" => {
                    if let Some(v) = lit_str(cx, &expr, name) {
                        set(
                            cx,
                            &mut out.title,
                            name,
                            Attr {
                                value: v,
                                key,
                                span,
                            },
                        );
                    }
                }
                // #[elicit(description = "The date to try instead")]
                "description" => {
                    if let Some(v) = lit_str(cx, &expr, name) {
                        set(
                            cx,
                            &mut out.description,
                            name,
                            Attr {
                                value: v,
                                key,
                                span,
                            },
                        );
                    }
                }
                // #[elicit(format = "date")]
                "format" => {
                    if let Some(v) = lit_str(cx, &expr, name) {
                        if FORMATS.contains(&v.as_str()) {
                            set(
                                cx,
                                &mut out.format,
                                name,
                                Attr {
                                    value: v,
                                    key,
                                    span,
                                },
                            );
                        } else {
                            cx.error(
                                span,
                                format!(
                                    "unknown format {v:?}: MCP forms allow \"email\", \"uri\", \"date\" or \"date-time\""
                                ),
                            );
                        }
                    }
                }
                // #[elicit(min_length = 1)], max_length, min_items, max_items
                "min_length" | "max_length" | "min_items" | "max_items" => {
                    if let Some(v) = lit_count(cx, &expr, name) {
                        let slot = match name {
                            "min_length" => &mut out.min_length,
                            "max_length" => &mut out.max_length,
                            "min_items" => &mut out.min_items,
                            _ => &mut out.max_items,
                        };
                        set(
                            cx,
                            slot,
                            name,
                            Attr {
                                value: v,
                                key,
                                span,
                            },
                        );
                    }
                }
                // #[elicit(minimum = 1)], #[elicit(maximum = 99.5)]
                "minimum" | "maximum" => match lit_number(&expr) {
                    Some(v) => {
                        let slot = if name == "minimum" {
                            &mut out.minimum
                        } else {
                            &mut out.maximum
                        };
                        set(
                            cx,
                            slot,
                            name,
                            Attr {
                                value: v,
                                key,
                                span,
                            },
                        );
                    }
                    None => cx.error(
                        span,
                        format!("`{name}` takes a number literal: `{name} = 1` or `{name} = 0.5`"),
                    ),
                },
                // #[elicit(default = false)], = "medium", = 3, = ["a", "b"]
                _ => {
                    if let Some(v) = default_value(cx, &expr) {
                        set(
                            cx,
                            &mut out.default,
                            name,
                            Attr {
                                value: v,
                                key,
                                span,
                            },
                        );
                    }
                }
            }
        });
        out
    }
}

impl VariantAttrs {
    pub fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> VariantAttrs {
        let mut out = VariantAttrs::default();
        each_elicit_key(cx, attrs, |cx, name, key, value| match name {
            // #[elicit(title = "Small (S)")]
            "title" => {
                if let Some(expr) = needs_value(cx, name, key, value)
                    && let Some(v) = lit_str(cx, &expr, name)
                {
                    let span = expr.span();
                    set(
                        cx,
                        &mut out.title,
                        name,
                        Attr {
                            value: v,
                            key,
                            span,
                        },
                    );
                }
            }
            _ => cx.error(
                key,
                format!("unknown key `{name}` in #[elicit(..)]: an enum variant takes `title`"),
            ),
        });
        out
    }
}

/// `#[elicit(..)]` on the type: `crate = "path"`, where the generated code finds
/// `elicit_core` (for a crate that re-exports it).
pub fn container(cx: &mut Ctxt, attrs: &[Attribute]) -> syn::Path {
    let mut krate: Option<Attr<syn::Path>> = None;
    each_elicit_key(cx, attrs, |cx, name, key, value| {
        if name == "crate" {
            if let Some(expr) = needs_value(cx, name, key, value)
                && let Some(path) = crate_path(cx, &expr)
            {
                let span = expr.span();
                set(
                    cx,
                    &mut krate,
                    name,
                    Attr {
                        value: path,
                        key,
                        span,
                    },
                );
            }
        } else {
            cx.error(
                key,
                format!("unknown key `{name}` in #[elicit(..)] on a type: the type takes only `crate = \"path\"`; put the other keys on fields and variants"),
            )
        }
    });
    krate.map_or_else(default_crate, |k| k.value)
}

/// `crate = "path"`: the path to `elicit_core` as the user's crate sees it.
pub fn crate_path(cx: &mut Ctxt, expr: &Expr) -> Option<syn::Path> {
    let text = lit_str(cx, expr, "crate")?;
    match syn::parse_str::<syn::Path>(&text) {
        Ok(path) => Some(path),
        Err(_) => {
            cx.error(
                expr.span(),
                format!("`crate` takes a path: `crate = \"my_crate::elicit_core\"`, not {text:?}"),
            );
            None
        }
    }
}

/// `::elicit_core`, the path the generated code uses unless told otherwise.
pub fn default_crate() -> syn::Path {
    syn::parse_quote!(::elicit_core)
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
    pub fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> SerdeContainer {
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
    pub fn parse(attrs: &[Attribute]) -> SerdeMember {
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
