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
        // Two fields under one wire name would make the answer ambiguous.
        if let Some(first) = seen.get(field.wire.as_str()) {
            let mut e = syn::Error::new(
                field.wire_span,
                format!(
                    "two fields are sent as `{}`: field `{}` has the same wire name as `{}` after serde renaming",
                    field.wire, field.rust_name, first.rust_name
                ),
            );
            e.combine(syn::Error::new(
                first.wire_span,
                format!("`{}` is first used here", field.wire),
            ));
            cx.push(e);
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
            let mut e = syn::Error::new(
                variant.ident.span(),
                format!(
                    "two variants are sent as {:?} after serde renaming",
                    variant.wire
                ),
            );
            e.combine(syn::Error::new(first.span(), "first used here"));
            cx.push(e);
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
    let Some(secret) = a.secret else {
        return;
    };
    if let Some(not_secret) = a.not_secret {
        let mut e = syn::Error::new(
            not_secret,
            "`not_secret` contradicts `secret`: keep `secret` for a field that holds one",
        );
        e.combine(syn::Error::new(secret, "`secret` is set here"));
        cx.push(e);
    }
    if let Some(default) = &a.default {
        let mut e = syn::Error::new(
            default.key,
            "a secret takes no default: it would sit in the source code and be written into the page",
        );
        e.combine(syn::Error::new(secret, "`secret` is set here"));
        cx.push(e);
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
        let mut e = syn::Error::new(
            lo.span,
            format!(
                "`{lo_name} = {}` is greater than `{hi_name} = {}`: no answer could satisfy both",
                lo.value, hi.value
            ),
        );
        e.combine(syn::Error::new(hi.span, format!("`{hi_name}` is set here")));
        cx.push(e);
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
    let mut e = syn::Error::new(span, what);
    e.combine(syn::Error::new(
        bound.span,
        format!("`{name} = {}` is set here", bound.value),
    ));
    cx.push(e);
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
            format!("the default is {len} characters long, shorter than `min_length`"),
            min,
            "min_length",
        );
    }
    if let Some(max) = a.max_length.as_ref().filter(|m| len > m.value) {
        outside(
            cx,
            span,
            format!("the default is {len} characters long, longer than `max_length`"),
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
            format!("the default {n} is below `minimum`"),
            min,
            "minimum",
        );
    }
    if let Some(max) = a.maximum.as_ref().filter(|m| *n > m.value) {
        outside(
            cx,
            span,
            format!("the default {n} is above `maximum`"),
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
            format!("the default picks {n} options, fewer than `min_items`"),
            min,
            "min_items",
        );
    }
    if let Some(max) = a.max_items.as_ref().filter(|m| n > m.value) {
        outside(
            cx,
            span,
            format!("the default picks {n} options, more than `max_items`"),
            max,
            "max_items",
        );
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
