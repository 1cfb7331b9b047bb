//! `#[derive(Elicit)]`, a thin expander: the input becomes an `ast::Input` (its
//! `#[elicit(..)]` and serde attributes parsed by `attr`), goes through `check`, and is
//! turned into tokens here: the `Elicit` impl of a form struct (the form in a `static`,
//! built by `const fn`s) or the `Options` impl of a unit enum, `NoSecrets` for either
//! when no field is marked `secret`, plus the const
//! assertions through which the type checker judges what only it can (does a key fit
//! the field's type, does a value fit its range or its enum); or, when the input has
//! errors, the errors and a stub impl that keeps uses of the type quiet.

use proc_macro2::{Group, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::ast::{Field, Form, Input, Options};
use crate::attr::{self, DefaultValue, Format, Number, Setting};
use crate::check;
use crate::ctxt::Ctxt;
use crate::kind::Kind;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let parsed = Input::from_syn(&mut cx, input);
    let out = match &parsed {
        Input::Form(form) => {
            check::form(&mut cx, form);
            let checks = field_checks(form);
            let body = if cx.has_errors() {
                form_stub(form)
            } else {
                form_impl(form)
            };
            quote!(#body #checks)
        }
        Input::Options(options) => {
            check::options(&mut cx, options);
            options_impl(options, cx.has_errors())
        }
        Input::Invalid => TokenStream::new(),
    };
    let errors = cx.into_compile_errors();
    quote!(#errors #out)
}

/// Re-spans every token, so a type error lands on the attribute that caused it.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

fn int_tokens(v: i128, span: Span) -> TokenStream {
    let mut lit = Literal::i128_unsuffixed(v.unsigned_abs() as i128);
    if v == i128::MIN {
        return quote_spanned!(span=> ::core::primitive::i128::MIN);
    }
    lit.set_span(span);
    if v < 0 {
        quote_spanned!(span=> -#lit)
    } else {
        lit.into_token_stream()
    }
}

fn float_tokens(v: f64, span: Span) -> TokenStream {
    let mut lit = Literal::f64_unsuffixed(v.abs());
    lit.set_span(span);
    if v < 0.0 {
        quote_spanned!(span=> -#lit)
    } else {
        lit.into_token_stream()
    }
}

fn lit_tokens(krate: &syn::Path, value: &DefaultValue) -> TokenStream {
    let p = quote!(#krate::__private);
    match value {
        DefaultValue::Str(s) => quote!(#p::Lit::Str(#s)),
        DefaultValue::Bool(b) => quote!(#p::Lit::Bool(#b)),
        DefaultValue::Number(n) => number_lit(krate, n),
        DefaultValue::List(items) => {
            let items = items.iter().map(|(s, _)| s);
            quote!(#p::Lit::List(&[#(#p::Borrowed(#items)),*]))
        }
    }
}

fn number_lit(krate: &syn::Path, n: &Number) -> TokenStream {
    let span = Span::call_site();
    match *n {
        Number::Int(v) => {
            let v = int_tokens(v, span);
            quote!(#krate::__private::Lit::Int(#v))
        }
        Number::Float(v) => {
            let v = float_tokens(v, span);
            quote!(#krate::__private::Lit::Float(#v))
        }
    }
}

/// `Some(value)` or `None`, through the crate's re-exports (the user's prelude may be
/// shadowed).
fn opt(krate: &syn::Path, value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(v) => quote!(#krate::__private::Some(#v)),
        None => quote!(#krate::__private::None),
    }
}

fn opt_str(krate: &syn::Path, v: Option<&str>) -> TokenStream {
    opt(krate, v.map(|s| quote!(#s)))
}

fn opt_u64(krate: &syn::Path, v: Option<u64>) -> TokenStream {
    opt(krate, v.map(|n| quote!(#n)))
}

/// The trait that gives the field's shape: `FormField`, or for a field marked `secret`
/// `SecretField`, which only a type that redacts itself implements.
fn form_field(krate: &syn::Path, field: &Field) -> TokenStream {
    let ty = field.ty;
    if field.attrs.secret.is_some() {
        quote_spanned!(ty.span()=> <#ty as #krate::__private::SecretField>)
    } else {
        quote_spanned!(ty.span()=> <#ty as #krate::__private::FormField>)
    }
}

fn field_spec(krate: &syn::Path, field: &Field) -> TokenStream {
    let p = quote!(#krate::__private);
    let a = &field.attrs;
    let wire = &field.wire;
    let ff = form_field(krate, field);
    let required = if field.serde_default {
        quote!(false)
    } else {
        quote!(#ff::REQUIRED)
    };
    let title = opt_str(krate, a.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_str(
        krate,
        a.description
            .as_ref()
            .map(|d| d.value.as_str())
            .or(field.doc.as_deref()),
    );
    let format = opt(
        krate,
        a.format.as_ref().map(|f| {
            let variant = match f.value {
                Format::Email => quote!(Email),
                Format::Uri => quote!(Uri),
                Format::Date => quote!(Date),
                Format::DateTime => quote!(DateTime),
            };
            quote!(#p::Format::#variant)
        }),
    );
    let number =
        |n: &Option<Setting<Number>>| opt(krate, n.as_ref().map(|n| number_lit(krate, &n.value)));
    let minimum = number(&a.minimum);
    let maximum = number(&a.maximum);
    let default = opt(
        krate,
        a.default.as_ref().map(|d| lit_tokens(krate, &d.value)),
    );
    let min_length = opt_u64(krate, a.min_length.as_ref().map(|v| v.value));
    let max_length = opt_u64(krate, a.max_length.as_ref().map(|v| v.value));
    let min_items = opt_u64(krate, a.min_items.as_ref().map(|v| v.value));
    let max_items = opt_u64(krate, a.max_items.as_ref().map(|v| v.value));
    let legacy = a.enum_names.is_some();
    let secret = a.secret.is_some();
    quote! {
        #p::FieldSpec {
            title: #title,
            description: #description,
            format: #format,
            min_length: #min_length,
            max_length: #max_length,
            minimum: #minimum,
            maximum: #maximum,
            default: #default,
            min_items: #min_items,
            max_items: #max_items,
            legacy_enum_names: #legacy,
            secret: #secret,
            ..#p::FieldSpec::new(#wire, #ff::SHAPE, #required)
        }
        .build()
    }
}

fn form_impl(form: &Form) -> TokenStream {
    let ident = form.ident;
    let krate = &form.krate;
    let specs = form.fields.iter().map(|f| field_spec(krate, f));
    let no_secrets = no_secrets(form);
    let build = if form.consent {
        quote!(consent_form)
    } else {
        quote!(static_form)
    };
    quote! {
        #[automatically_derived]
        impl #krate::Elicit for #ident {
            fn form() -> &'static #krate::Form {
                const __FIELDS: &[#krate::Field] = &[#(#specs),*];
                static __FORM: #krate::Form = #krate::__private::#build(__FIELDS);
                &__FORM
            }
        }
        #no_secrets
    }
}

/// `NoSecrets` for a form with no field marked `secret`: it may be asked in form mode.
fn no_secrets(form: &Form) -> TokenStream {
    if form.fields.iter().any(|f| f.attrs.secret.is_some()) {
        return TokenStream::new();
    }
    let ident = form.ident;
    let krate = &form.krate;
    quote! {
        #[automatically_derived]
        impl #krate::NoSecrets for #ident {}
    }
}

/// Stands in for the impl when the input has errors, so uses of the type elsewhere
/// do not add errors of their own.
fn form_stub(form: &Form) -> TokenStream {
    let ident = form.ident;
    let krate = &form.krate;
    let no_secrets = no_secrets(form);
    quote! {
        #[automatically_derived]
        impl #krate::Elicit for #ident {
            fn form() -> &'static #krate::Form {
                ::core::unreachable!("the form has compile errors")
            }
        }
        #no_secrets
    }
}

/// The checks only the type checker and const evaluation can make, for the fields whose
/// type the derive does not know by its syntax (`check::known_type` judged the others):
/// whether each keyword applies to the field's type, whether a default has the field's
/// type, and whether values fit the type's range and the enum's variants. A multi-select's
/// list default is checked against its enum here whatever the field's type.
fn field_checks(form: &Form) -> TokenStream {
    let krate = &form.krate;
    // A type refused by its syntax already has its error; judging it again would
    // only repeat it.
    let judged: Vec<&Field> = form
        .fields
        .iter()
        .filter(|f| check::rejected_shape(f.ty).is_none() && check::list_of_text(f.ty).is_none())
        .collect();
    let mut checks: TokenStream = judged.iter().map(|f| field_check(krate, f)).collect();
    checks.extend(mark_checks(krate, &judged));
    checks
}

/// One field's checks, in a `const _: () = { .. };` of their own: its keys' assertions,
/// then its values' checks; nothing for a field of a known type with no enum to check.
fn field_check(krate: &syn::Path, field: &Field) -> TokenStream {
    let p = quote!(#krate::__private);
    let kind = Kind::of(field.ty);
    let list_default = matches!(
        field.attrs.default.as_ref().map(|d| &d.value),
        Some(DefaultValue::List(_))
    );
    if kind.known() && !(kind == Kind::MultiSelect && list_default) {
        return TokenStream::new();
    }
    // A known type is a `FormField` (and its secret mark was judged by the derive).
    let ff = if kind.known() {
        let ty = field.ty;
        quote_spanned!(ty.span()=> <#ty as #krate::__private::FormField>)
    } else {
        form_field(krate, field)
    };
    // One name for the definition and the uses, whatever span the uses carry (the
    // attribute's, which may come from a `macro_rules!` with its own hygiene).
    let shape = syn::Ident::new("__shape", Span::call_site());
    let mut body = quote!(let #shape: #p::Shape = #ff::SHAPE;);
    if !kind.known() {
        let ty = field.ty.to_token_stream();
        for (key, check) in key_assertions(&field.attrs) {
            let check = syn::Ident::new(check, key);
            let ty = respan(ty.clone(), key);
            let p = respan(p.clone(), key);
            body.extend(quote_spanned!(key=> let () = <#ty as #p::#check>::FITS;));
        }
    }
    body.extend(value_checks(&p, &shape, field, kind));
    quote! {
        const _: () = { #body };
    }
}

/// The probes (see `__private::MarkProbe`) that refuse a type holding a secret in a field
/// not marked `#[elicit(secret)]`, one per such field of a type the derive does not know
/// (it judges `SecretString` itself), each spanned at its type; all in one function that
/// is never called.
fn mark_checks(krate: &syn::Path, fields: &[&Field]) -> TokenStream {
    let p = quote!(#krate::__private);
    let probes: Vec<TokenStream> = fields
        .iter()
        .filter(|f| f.attrs.secret.is_none() && !Kind::of(f.ty).known())
        .map(|f| {
            let ty = f.ty;
            quote_spanned!(ty.span()=> (&&#p::Probe::<#ty>::NEW).marked::<#ty>();)
        })
        .collect();
    if probes.is_empty() {
        return TokenStream::new();
    }
    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #p::{MarkProbe as _, NoMarkProbe as _};
            #[allow(dead_code)]
            fn __marked() {
                #(#probes)*
            }
        };
    }
}

/// Each key whose use the field's type must allow, by its span, with the trait (of
/// `__private`, re-exported at the crate root) that judges it: text keys, numeric keys,
/// multi-select keys, `enum_names`, then the default by its kind. One per kind of key:
/// `min_length` and `max_length` on a field that is no text are one mistake.
fn key_assertions(a: &attr::Field) -> Vec<(Span, &'static str)> {
    fn key<T>(setting: &Option<Setting<T>>) -> Option<Span> {
        setting.as_ref().map(|s| s.key)
    }
    let mut out = Vec::new();
    let text = [key(&a.format), key(&a.min_length), key(&a.max_length)];
    out.extend(text.into_iter().flatten().next().map(|k| (k, "TextField")));
    let numeric = [key(&a.minimum), key(&a.maximum)];
    out.extend(
        numeric
            .into_iter()
            .flatten()
            .next()
            .map(|k| (k, "NumericField")),
    );
    let items = [key(&a.min_items), key(&a.max_items)];
    out.extend(
        items
            .into_iter()
            .flatten()
            .next()
            .map(|k| (k, "MultiSelectField")),
    );
    out.extend(a.enum_names.map(|k| (k, "SelectField")));
    // A secret's default is refused by `check` whatever its type.
    if let Some(d) = a.default.as_ref().filter(|_| a.secret.is_none()) {
        let check = match &d.value {
            DefaultValue::Str(_) => "StrDefault",
            DefaultValue::Bool(_) => "BoolDefault",
            DefaultValue::Number(Number::Int(_)) => "IntDefault",
            DefaultValue::Number(Number::Float(_)) => "FloatDefault",
            DefaultValue::List(_) => "ListDefault",
        };
        out.push((d.span, check));
    }
    out
}

/// The checks of the values, each carrying the span of its value so a failed const
/// evaluation points at it: the bounds and a number default fit the type's range (for a
/// type the derive does not know), a text default (or each item of a list default) is one
/// of the enum's variants. Each check is a `panic!` written here, at the value, on the
/// verdict of a `const fn`: the error quotes the user's attribute and nothing else.
fn value_checks(p: &TokenStream, shape: &syn::Ident, field: &Field, kind: Kind) -> TokenStream {
    let a = &field.attrs;
    let mut checks = TokenStream::new();
    if !kind.known() || kind == Kind::Int(None) {
        for n in [&a.minimum, &a.maximum].into_iter().flatten() {
            checks.extend(fits_check(p, shape, &n.value, n.span));
        }
    }
    if let Some(d) = &a.default {
        match &d.value {
            DefaultValue::Number(n) if !kind.known() || kind == Kind::Int(None) => {
                checks.extend(fits_check(p, shape, n, d.span))
            }
            DefaultValue::Str(s) if !kind.known() => {
                checks.extend(choice_check(p, shape, field, s, d.span))
            }
            DefaultValue::List(items) => {
                for (s, span) in items {
                    checks.extend(choice_check(p, shape, field, s, *span));
                }
            }
            _ => {}
        }
    }
    checks
}

/// Whether the number `n`, written at `span`, fits the range of the field's type.
fn fits_check(p: &TokenStream, shape: &syn::Ident, n: &Number, span: Span) -> TokenStream {
    let p = respan(p.clone(), span);
    match *n {
        Number::Int(v) => {
            let v = int_tokens(v, span);
            quote_spanned! {span=>
                match #p::int_fit(#shape, #v) {
                    -1 => ::core::panic!("this value is below the smallest value the field's integer type holds: use a wider type, or a value within its range"),
                    1 => ::core::panic!("this value is above the largest value the field's integer type holds: use a wider type, or a value within its range"),
                    _ => {}
                }
            }
        }
        Number::Float(v) => {
            let v = float_tokens(v, span);
            quote_spanned! {span=>
                match #p::float_fit(#shape, #v) {
                    1 => ::core::panic!("this value does not fit the field's `f32` type: make it an `f64`"),
                    2 => ::core::panic!("this value is not a whole number, but the field is an integer: its bounds and default are whole numbers"),
                    _ => {}
                }
            }
        }
    }
}

/// Whether the text `s`, written at `span`, is the wire value of one of the variants of
/// the field's enum.
fn choice_check(
    p: &TokenStream,
    shape: &syn::Ident,
    field: &Field,
    s: &str,
    span: Span,
) -> TokenStream {
    let p = respan(p.clone(), span);
    let ty = crate::kind::type_name(field.ty);
    let message = format!(
        "{s:?} is not one of the values of field `{}` (of type `{ty}`): write the wire value of one of the enum's variants (its name after serde's `rename`/`rename_all`)",
        field.rust_name
    )
    .replace('{', "{{")
    .replace('}', "}}");
    quote_spanned! {span=>
        if !#p::is_choice(#shape, #s) {
            ::core::panic!(#message);
        }
    }
}

fn options_impl(options: &Options, stub: bool) -> TokenStream {
    let ident = options.ident;
    let krate = &options.krate;
    let p = quote!(#krate::__private);
    let choices = if stub {
        Vec::new()
    } else {
        options
            .variants
            .iter()
            .map(|v| {
                let wire = &v.wire;
                let title = opt_str(krate, v.title.as_deref());
                quote!(#p::Choice::new(#wire, #title))
            })
            .collect()
    };
    quote! {
        #[automatically_derived]
        impl #krate::Options for #ident {
            const CHOICES: &'static [#krate::Choice] = &[#(#choices),*];
        }
        #[automatically_derived]
        impl #p::FormField for #ident {
            const SHAPE: #p::Shape = #p::Shape::Select(<Self as #krate::Options>::CHOICES);
        }
        #[automatically_derived]
        impl #p::SelectField for #ident {}
        #[automatically_derived]
        impl #p::StrDefault for #ident {}
        #[automatically_derived]
        impl #krate::NoSecrets for #ident {}
    }
}
