//! The rules run on the `ast` once everything is parsed, those that involve more than
//! one value or the syntax of a field's type: a form must be something the MCP subset
//! can express and a client may ask in the open (a field type that can be flat, bounds
//! in order and a default within them, no secret-looking name unless the field is marked
//! a secret or not one, a secret without a default, distinct wire names), an
//! enum must offer at least one option under distinct names, and a wizard's steps must
//! be distinct. Whether a key fits the field's type is left to the type checker, through
//! the assertions the expander emits.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::Type;
use syn::spanned::Spanned;

use crate::ast::{Field, Form, Options, Wizard};
use crate::attr::{self, DefaultValue, Number, Setting};
use crate::case::words;
use crate::ctxt::Ctxt;
use crate::kind::{Kind, inner, type_name};

pub fn form(cx: &mut Ctxt, form: &Form) {
    if form.fields.is_empty() && !cx.has_errors() {
        // An empty form has hung at least one real client.
        cx.error(
            form.ident.span(),
            format!(
                "form `{}` has no fields: an empty form hangs some clients; for a yes/no question use the ready-made `elicit_core::Confirm` form",
                form.ident
            ),
        );
    }
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for field in &form.fields {
        field_type(cx, field.ty);
        secret_name(cx, field);
        secret_keys(cx, field);
        bounds(cx, field);
        known_type(cx, field);
        // Two fields under one wire name would make the answer ambiguous.
        if let Some(first) = seen.get(field.wire.as_str()) {
            cx.error(
                field.wire_span,
                format!(
                    "two fields are sent as `{}`: field `{}` has the same wire name as field `{}` after serde renaming; rename one of them",
                    field.wire, field.rust_name, first.rust_name
                ),
            );
        } else {
            seen.insert(&field.wire, field);
        }
    }
}

pub fn options(cx: &mut Ctxt, options: &Options) {
    if options.variants.is_empty() && options.declared > 0 && !cx.has_errors() {
        cx.error(
            options.ident.span(),
            "every variant is skipped: a select needs at least one option",
        );
    }
    let mut seen: HashMap<&str, &syn::Ident> = HashMap::new();
    for variant in &options.variants {
        if let Some(first) = seen.get(variant.wire.as_str()) {
            cx.error(
                variant.ident.span(),
                format!(
                    "two variants are sent as {:?}: variant `{}` has the same wire value as variant `{}` after serde renaming; rename one of them",
                    variant.wire, variant.ident, first
                ),
            );
        } else {
            seen.insert(&variant.wire, variant.ident);
        }
    }
}

/// Whether the wizard's steps can be expanded: two steps under one name are a field
/// declared twice, which rustc reports itself (so nothing is added here); expanding
/// would only repeat that error.
pub fn wizard(wizard: &Wizard) -> bool {
    let steps = &wizard.steps;
    !steps
        .iter()
        .enumerate()
        .any(|(i, s)| steps[..i].iter().any(|t| t.ident == s.ident))
}

/// Shapes that can never be a form field, told apart by their syntax alone; every
/// other type is left to the type checker (`FormField`).
pub fn rejected_shape(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Array(_) => "an array",
        Type::Slice(_) => "a slice",
        Type::Tuple(t) if t.elems.is_empty() => "the unit type `()`",
        Type::Tuple(_) => "a tuple",
        Type::Reference(_) => "a reference",
        Type::Ptr(_) => "a raw pointer",
        Type::BareFn(_) => "a function pointer",
        Type::TraitObject(_) | Type::ImplTrait(_) => "a trait object",
        Type::Paren(p) => return rejected_shape(&p.elem),
        Type::Group(g) => return rejected_shape(&g.elem),
        _ => return None,
    })
}

/// `Vec<String>` (or a set, or an `Option` of one), written as such: the list name and
/// whether the item is text.
pub fn list_of_text(ty: &Type) -> Option<&syn::Ident> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let Some(syn::GenericArgument::Type(item)) = args.args.first() else {
        return None;
    };
    if last.ident == "Option" {
        return list_of_text(item);
    }
    let is_list = ["Vec", "BTreeSet", "HashSet", "VecDeque"]
        .iter()
        .any(|l| last.ident == l);
    let is_text = matches!(item, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "String" || s.ident == "str"));
    (is_list && is_text).then_some(&last.ident)
}

fn field_type(cx: &mut Ctxt, ty: &Type) {
    if let Some(list) = list_of_text(ty) {
        cx.push(syn::Error::new_spanned(
            ty,
            format!(
                "a list of text cannot be a form field: MCP forms hold no lists except a multi-select of known values. To let the user pick several of a known set, make the values a unit enum deriving `Elicit` and ask `{list}<ThatEnum>`; for a few free-text answers, ask several `String` fields (`tag1`, `tag2`, ...), or one `String` to split yourself (say \"separated by commas\" in its description)"
            ),
        ));
        return;
    }
    if let Some(what) = rejected_shape(ty) {
        cx.push(syn::Error::new_spanned(
            ty,
            format!(
                "{what} cannot be a form field: MCP forms are flat; a field is one text, number, boolean or enum value, and the only list is a multi-select of an enum (`Vec<MyEnum>`)"
            ),
        ));
    }
}

const SECRET_WORDS: [&str; 9] = [
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "cvv",
    "cvc",
    "ssn",
];
const SECRET_PAIRS: [(&str, &str); 3] = [("api", "key"), ("credit", "card"), ("card", "number")];

fn looks_secret(name: &str) -> bool {
    let words = words(name);
    words.iter().any(|w| SECRET_WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| SECRET_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// MCP forbids asking for sensitive data in form mode; such data goes through URL mode.
/// A field marked `secret` is asked on a web page only, so its name may say what it is.
fn secret_name(cx: &mut Ctxt, field: &Field) {
    if field.attrs.not_secret.is_some() || field.attrs.secret.is_some() {
        return;
    }
    let name = if looks_secret(&field.rust_name) {
        &field.rust_name
    } else if looks_secret(&field.wire) {
        &field.wire
    } else {
        return;
    };
    cx.error(
        field.ident.span(),
        format!(
            "field `{name}` looks like a secret: MCP forbids asking for sensitive data (passwords, tokens, API keys, card numbers) in a form; make it an `elicit_core::SecretString` marked `#[elicit(secret)]` and ask the form on a web page (URL mode), or add `#[elicit(not_secret)]` if the name is a false alarm"
        ),
    );
}

/// A secret is either marked or not, and has no default: a default would sit in the
/// source and be written into the page.
fn secret_keys(cx: &mut Ctxt, field: &Field) {
    let a = &field.attrs;
    if a.secret.is_none() {
        return;
    }
    if let Some(not_secret) = a.not_secret {
        cx.error(
            not_secret,
            "`not_secret` contradicts `secret` on the same field: keep `secret` for a field that holds one",
        );
    }
    if let Some(default) = &a.default {
        cx.error(
            default.key,
            "a field marked `secret` takes no default: it would sit in the source code and be written into the page; remove the default",
        );
    }
}

fn ordered<T: PartialOrd + std::fmt::Display>(
    cx: &mut Ctxt,
    lo: &Option<Setting<T>>,
    hi: &Option<Setting<T>>,
    (lo_name, hi_name): (&str, &str),
) {
    if let (Some(lo), Some(hi)) = (lo, hi)
        && lo.value > hi.value
    {
        cx.error(
            lo.span,
            format!(
                "`{lo_name} = {}` is greater than `{hi_name} = {}`: no answer could satisfy both",
                lo.value, hi.value
            ),
        );
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => a.partial_cmp(b),
            _ => self.as_f64().partial_cmp(&other.as_f64()),
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(std::cmp::Ordering::Equal)
    }
}

fn outside(
    cx: &mut Ctxt,
    span: Span,
    what: String,
    bound: &Setting<impl std::fmt::Display>,
    name: &str,
) {
    cx.error(span, format!("{what} `{name} = {}`", bound.value));
}

/// Bounds in order, and a default that satisfies them.
fn bounds(cx: &mut Ctxt, field: &Field) {
    let a = &field.attrs;
    ordered(
        cx,
        &a.min_length,
        &a.max_length,
        ("min_length", "max_length"),
    );
    ordered(cx, &a.minimum, &a.maximum, ("minimum", "maximum"));
    ordered(cx, &a.min_items, &a.max_items, ("min_items", "max_items"));
    let Some(default) = &a.default else {
        return;
    };
    match &default.value {
        DefaultValue::Str(s) => text_default(cx, a, default.span, s),
        DefaultValue::Number(n) => number_default(cx, a, default.span, n),
        DefaultValue::List(items) => list_default(cx, a, default.span, items),
        DefaultValue::Bool(_) => {}
    }
}

/// A text default (at `span`) as long as `min_length` and `max_length` allow.
fn text_default(cx: &mut Ctxt, a: &attr::Field, span: Span, s: &str) {
    let len = s.chars().count() as u64;
    if let Some(min) = a.min_length.as_ref().filter(|m| len < m.value) {
        outside(
            cx,
            span,
            format!("the default is {len} characters long, shorter than"),
            min,
            "min_length",
        );
    }
    if let Some(max) = a.max_length.as_ref().filter(|m| len > m.value) {
        outside(
            cx,
            span,
            format!("the default is {len} characters long, longer than"),
            max,
            "max_length",
        );
    }
}

/// A number default (at `span`) within `minimum` and `maximum`.
fn number_default(cx: &mut Ctxt, a: &attr::Field, span: Span, n: &Number) {
    if let Some(min) = a.minimum.as_ref().filter(|m| *n < m.value) {
        outside(
            cx,
            span,
            format!("the default {n} is below"),
            min,
            "minimum",
        );
    }
    if let Some(max) = a.maximum.as_ref().filter(|m| *n > m.value) {
        outside(
            cx,
            span,
            format!("the default {n} is above"),
            max,
            "maximum",
        );
    }
}

/// A multi-select default (at `span`) that lists each option once, as many as
/// `min_items` and `max_items` allow.
fn list_default(cx: &mut Ctxt, a: &attr::Field, span: Span, items: &[(String, Span)]) {
    for (i, (item, item_span)) in items.iter().enumerate() {
        if items[..i].iter().any(|(other, _)| other == item) {
            cx.error(
                *item_span,
                format!("{item:?} is listed twice in the default"),
            );
        }
    }
    let n = items.len() as u64;
    if let Some(min) = a.min_items.as_ref().filter(|m| n < m.value) {
        outside(
            cx,
            span,
            format!("the default picks {n} options, fewer than"),
            min,
            "min_items",
        );
    }
    if let Some(max) = a.max_items.as_ref().filter(|m| n > m.value) {
        outside(
            cx,
            span,
            format!("the default picks {n} options, more than"),
            max,
            "max_items",
        );
    }
}

/// The keys, defaults and values of a field whose type the derive knows by its syntax
/// (`kind`), judged here: one error per mistake, at the key or value, in the user's words.
/// A field of another type is judged by the type checker and const evaluation instead.
fn known_type(cx: &mut Ctxt, field: &Field) {
    let kind = Kind::of(field.ty);
    if !kind.known() || list_of_text(field.ty).is_some() {
        return;
    }
    let a = &field.attrs;
    let ty = type_name(field.ty);
    let name = &field.rust_name;
    if a.secret.is_some() && kind != Kind::Secret {
        cx.error(
            field.ty.span(),
            format!(
                "`{ty}` cannot hold a secret: a field marked `#[elicit(secret)]` must be an `elicit_core::SecretString` (or an `Option` of one); its `Debug` output shows no value, its memory is wiped when it is dropped, and `elicit_core::ExposeSecret::expose_secret` reads it"
            ),
        );
    }
    if a.secret.is_none() && kind == Kind::Secret {
        cx.error(
            field.ty.span(),
            "a `SecretString` field must be marked `#[elicit(secret)]`: MCP forbids asking for secrets in form mode, and the mark makes its form one asked on a web page (URL mode)",
        );
    }
    let used = |keys: &[(&'static str, Option<Span>)]| -> Option<(Span, String)> {
        let set: Vec<_> = keys.iter().filter_map(|(k, s)| Some((*k, (*s)?))).collect();
        let (_, first) = *set.first()?;
        let names: Vec<String> = set.iter().map(|(k, _)| format!("`{k}`")).collect();
        let list = match names.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => unreachable!(),
        };
        Some((first, list))
    };
    fn key<T>(setting: &Option<Setting<T>>) -> Option<Span> {
        setting.as_ref().map(|s| s.key)
    }
    let text_keys = [
        ("format", key(&a.format)),
        ("min_length", key(&a.min_length)),
        ("max_length", key(&a.max_length)),
    ];
    if !matches!(kind, Kind::Text | Kind::Secret)
        && let Some((span, keys)) = used(&text_keys)
    {
        cx.error(
            span,
            format!(
                "{keys} describe{} text, but field `{name}` has type `{ty}`: `format`, `min_length` and `max_length` apply only to a `String` (or `Option<String>`) field",
                if keys.contains(" and ") { "" } else { "s" }
            ),
        );
    }
    let number_keys = [("minimum", key(&a.minimum)), ("maximum", key(&a.maximum))];
    if !matches!(kind, Kind::Int(_) | Kind::Float { .. })
        && let Some((span, keys)) = used(&number_keys)
    {
        cx.error(
            span,
            format!(
                "{keys} bound{} a number, but field `{name}` has type `{ty}`: `minimum` and `maximum` apply only to an integer, `f32` or `f64` field; text has `min_length`/`max_length`, a multi-select `min_items`/`max_items`",
                if keys.contains(" and ") { "" } else { "s" }
            ),
        );
    }
    let items_keys = [
        ("min_items", key(&a.min_items)),
        ("max_items", key(&a.max_items)),
    ];
    if kind != Kind::MultiSelect
        && let Some((span, keys)) = used(&items_keys)
    {
        cx.error(
            span,
            format!(
                "{keys} count{} the options picked in a multi-select, but field `{name}` has type `{ty}`: a multi-select is a `Vec`, `BTreeSet` or `HashSet` of a unit enum deriving `Elicit`",
                if keys.contains(" and ") { "" } else { "s" }
            ),
        );
    }
    if let Some(span) = a.enum_names {
        cx.error(
            span,
            format!(
                "`enum_names` asks for the legacy `enum` + `enumNames` shape of a single select, but field `{name}` has type `{ty}`: it applies only to a unit enum deriving `Elicit`"
            ),
        );
    }
    if let Some(d) = a.default.as_ref().filter(|_| a.secret.is_none()) {
        let wrong = match (&d.value, kind) {
            (DefaultValue::Str(_), Kind::Text) => None,
            (DefaultValue::Str(_), _) => Some(
                "a text default (\"...\") fits a `String` field or an enum field (the wire value of a variant)",
            ),
            (DefaultValue::Bool(_), Kind::Bool) => None,
            (DefaultValue::Bool(_), _) => Some("`true`/`false` defaults fit `bool` fields only"),
            (DefaultValue::Number(Number::Int(_)), Kind::Int(_) | Kind::Float { .. }) => None,
            (DefaultValue::Number(Number::Int(_)), _) => {
                Some("a number default fits an integer, `f32` or `f64` field only")
            }
            (DefaultValue::Number(Number::Float(_)), Kind::Float { .. }) => None,
            (DefaultValue::Number(Number::Float(_)), Kind::Int(_)) => Some(
                "a fractional default fits an `f32` or `f64` field only; an integer field needs a whole number",
            ),
            (DefaultValue::Number(Number::Float(_)), _) => {
                Some("a fractional default fits an `f32` or `f64` field only")
            }
            (DefaultValue::List(_), Kind::MultiSelect) => None,
            (DefaultValue::List(_), _) => Some(
                "a list default ([\"a\", \"b\"]) fits a multi-select only: a `Vec`, `BTreeSet` or `HashSet` of a unit enum deriving `Elicit`",
            ),
        };
        if let Some(why) = wrong {
            cx.error(
                d.span,
                format!("this default does not fit field `{name}` of type `{ty}`: {why}"),
            );
        }
    }
    // Bounds and a number default against the type's range (a fractional default on an
    // integer field is told above).
    let values = [
        a.minimum.as_ref().map(|m| (&m.value, m.span, false)),
        a.maximum.as_ref().map(|m| (&m.value, m.span, false)),
        a.default.as_ref().and_then(|d| match &d.value {
            DefaultValue::Number(n) => Some((n, d.span, true)),
            _ => None,
        }),
    ];
    let inner = type_name(inner(field.ty));
    for (n, span, is_default) in values.into_iter().flatten() {
        match (kind, n) {
            (Kind::Int(_), Number::Float(v)) if !is_default => cx.error(
                span,
                format!(
                    "`{v:?}` is not a whole number, but field `{name}` has type `{ty}`: its bounds are whole numbers"
                ),
            ),
            (Kind::Int(Some((min, max))), Number::Int(v)) if *v < min || *v > max => {
                let (side, limit) = if *v < min {
                    ("below the smallest", min)
                } else {
                    ("above the largest", max)
                };
                cx.error(
                    span,
                    format!(
                        "`{v}` is {side} value a `{inner}` holds ({limit}), the type of field `{name}`: use a wider integer type, or a value within its range"
                    ),
                );
            }
            (Kind::Float { single: true }, Number::Float(v))
                if *v > f32::MAX as f64 || *v < f32::MIN as f64 =>
            {
                cx.error(
                    span,
                    format!("`{v:?}` does not fit an `f32`, the type of field `{name}`: make it an `f64`"),
                );
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::looks_secret;

    #[test]
    fn secrets_match_whole_segments() {
        for name in [
            "password",
            "db_password",
            "apiKey",
            "api_key",
            "credit_card_number",
            "cvv",
            "user_ssn",
            "access_token",
            "clientSecret",
        ] {
            assert!(looks_secret(name), "{name}");
        }
        for name in [
            "tokens_used",
            "passport",
            "secretary",
            "keyboard",
            "assn",
            "card",
            "email",
        ] {
            assert!(!looks_secret(name), "{name}");
        }
    }
}
