//! The values keys take, and their parsers: each takes the value and the key's name, and
//! reports a value of the wrong kind at the value.

use proc_macro2::Span;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, Path, Type, UnOp};

use crate::ctxt::Ctxt;

/// A number in `minimum`, `maximum` or `default`, as written.
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

/// The value of `default`.
#[derive(Clone, Debug)]
pub enum DefaultValue {
    Str(String),
    Bool(bool),
    Number(Number),
    List(Vec<(String, Span)>),
}

/// The string formats MCP forms allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Email,
    Uri,
    Date,
    DateTime,
}

impl Format {
    fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "email" => Format::Email,
            "uri" => Format::Uri,
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            _ => return None,
        })
    }
}

pub(super) fn lit_str(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<String> {
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

pub(super) fn lit_count(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<u64> {
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

pub(super) fn format_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Format> {
    let name = lit_str(cx, expr, key)?;
    let format = Format::from_name(&name);
    if format.is_none() {
        cx.error(
            expr.span(),
            format!(
                "unknown format {name:?}: MCP forms allow \"email\", \"uri\", \"date\" or \"date-time\""
            ),
        );
    }
    format
}

pub(super) fn number_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Number> {
    let number = lit_number(expr);
    if number.is_none() {
        cx.error(
            expr.span(),
            format!("`{key}` takes a number literal: `{key} = 1` or `{key} = 0.5`"),
        );
    }
    number
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

pub(super) fn default_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<DefaultValue> {
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
                            format!("a multi-select default lists the wire values of variants: `{key} = [\"a\", \"b\"]`"),
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
        format!("`{key}` takes a literal: text (\"...\", also the wire value of an enum variant), `true`/`false`, a number, or a list of variant values"),
    );
    None
}

/// `crate = "path"`: the path to `elicit_core` as the user's crate sees it.
pub(super) fn crate_path(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Path> {
    let text = lit_str(cx, expr, key)?;
    match syn::parse_str::<Path>(&text) {
        Ok(path) => Some(path),
        Err(_) => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a path: `{key} = \"my_crate::elicit_core\"`, not {text:?}"),
            );
            None
        }
    }
}

/// `::elicit_core`, the path the generated code uses unless told otherwise.
pub(super) fn default_crate() -> Path {
    syn::parse_quote!(::elicit_core)
}

pub(super) fn type_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Type> {
    match syn::parse2::<Type>(quote!(#expr)) {
        Ok(ty) => Some(ty),
        Err(_) => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a type: `{key} = MyServerState`"),
            );
            None
        }
    }
}

pub(super) fn hook_path(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Path> {
    match expr {
        Expr::Path(p) if p.qself.is_none() => Some(p.path.clone()),
        _ => {
            cx.error(
                expr.span(),
                format!("`{key}` takes the path of a function: `{key} = my_function`"),
            );
            None
        }
    }
}

pub(super) fn attempts_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<u64> {
    let n = lit_count(cx, expr, key)?;
    if n == 0 || n > u64::from(u32::MAX) {
        cx.error(
            expr.span(),
            format!("`{key}` counts how many answers a step may get: at least 1"),
        );
        return None;
    }
    Some(n)
}
