//! Code generation for `#[derive(Elicit)]`: the `Elicit` impl of a form struct (the
//! form in a `static`, built by `const fn`s) or the `Options` impl of a unit enum, and
//! the compile-time checks that judge field types and values.

use proc_macro2::{Group, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput};

use crate::ast::{Field, Form, Input, Options};
use crate::attr::{DefaultValue, Number};
use crate::check;
use crate::ctxt::Ctxt;

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
            let had_variants = matches!(&input.data, Data::Enum(e) if !e.variants.is_empty());
            check::options(&mut cx, options, had_variants);
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

fn lit_tokens(value: &DefaultValue, span: Span) -> TokenStream {
    let p = quote_spanned!(span=> ::elicit_core::__private);
    match value {
        DefaultValue::Str(s) => quote_spanned!(span=> #p::Lit::Str(#s)),
        DefaultValue::Bool(b) => quote_spanned!(span=> #p::Lit::Bool(#b)),
        DefaultValue::Number(n) => number_lit(n, span),
        DefaultValue::List(items) => {
            let items = items.iter().map(|(s, _)| s);
            quote_spanned!(span=> #p::Lit::List(&[#(#p::Borrowed(#items)),*]))
        }
    }
}

fn number_lit(n: &Number, span: Span) -> TokenStream {
    match *n {
        Number::Int(v) => {
            let v = int_tokens(v, span);
            quote_spanned!(span=> ::elicit_core::__private::Lit::Int(#v))
        }
        Number::Float(v) => {
            let v = float_tokens(v, span);
            quote_spanned!(span=> ::elicit_core::__private::Lit::Float(#v))
        }
    }
}

fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::elicit_core::__private::Some(#s)),
        None => quote!(::elicit_core::__private::None),
    }
}

fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(n) => quote!(::elicit_core::__private::Some(#n)),
        None => quote!(::elicit_core::__private::None),
    }
}

fn form_field(field: &Field) -> TokenStream {
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as ::elicit_core::__private::FormField>)
}

fn field_spec(field: &Field) -> TokenStream {
    let a = &field.attrs;
    let wire = &field.wire;
    let ff = form_field(field);
    let required = if field.serde_default {
        quote!(false)
    } else {
        quote!(#ff::REQUIRED)
    };
    let title = opt_str(a.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_str(
        a.description
            .as_ref()
            .map(|d| d.value.as_str())
            .or(field.doc.as_deref()),
    );
    let format = match a.format.as_ref().map(|f| f.value.as_str()) {
        Some("email") => quote!(::elicit_core::__private::Some(
            ::elicit_core::__private::Format::Email
        )),
        Some("uri") => quote!(::elicit_core::__private::Some(
            ::elicit_core::__private::Format::Uri
        )),
        Some("date") => quote!(::elicit_core::__private::Some(
            ::elicit_core::__private::Format::Date
        )),
        Some(_) => quote!(::elicit_core::__private::Some(
            ::elicit_core::__private::Format::DateTime
        )),
        None => quote!(::elicit_core::__private::None),
    };
    let number = |n: &Option<crate::attr::Attr<Number>>| match n {
        Some(n) => {
            let lit = number_lit(&n.value, Span::call_site());
            quote!(::elicit_core::__private::Some(#lit))
        }
        None => quote!(::elicit_core::__private::None),
    };
    let minimum = number(&a.minimum);
    let maximum = number(&a.maximum);
    let default = match &a.default {
        Some(d) => {
            let lit = lit_tokens(&d.value, Span::call_site());
            quote!(::elicit_core::__private::Some(#lit))
        }
        None => quote!(::elicit_core::__private::None),
    };
    let min_length = opt_u64(a.min_length.as_ref().map(|v| v.value));
    let max_length = opt_u64(a.max_length.as_ref().map(|v| v.value));
    let min_items = opt_u64(a.min_items.as_ref().map(|v| v.value));
    let max_items = opt_u64(a.max_items.as_ref().map(|v| v.value));
    let legacy = a.enum_names.is_some();
    quote! {
        ::elicit_core::__private::FieldSpec {
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
            ..::elicit_core::__private::FieldSpec::new(#wire, #ff::SHAPE, #required)
        }
        .build()
    }
}

fn form_impl(form: &Form) -> TokenStream {
    let ident = form.ident;
    let specs = form.fields.iter().map(field_spec);
    let revisions = form.fields.iter().map(|f| {
        let ff = form_field(f);
        quote!(#ff::MIN_REVISION)
    });
    let strip = form.deny_unknown_fields;
    let clean = clean_fn(form);
    let (read_clean, deserialize) = if form.deserialize {
        (read_clean_fn(form), deserialize_form(form))
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    // The fields are a constant beside the impl, so the per-form check reads them as
    // constants; the anonymous block keeps the name out of the user's scope.
    quote! {
        const _: () = {
            const FIELDS: &[::elicit_core::Field] = &[#(#specs),*];

            #[automatically_derived]
            impl ::elicit_core::Elicit for #ident {
                const MIN_REVISION: ::elicit_core::Revision =
                    ::elicit_core::__private::max_revision(&[#(#revisions),*]);

                fn form() -> &'static ::elicit_core::Form {
                    static FORM: ::elicit_core::Form =
                        ::elicit_core::Form::from_static(FIELDS, #strip);
                    &FORM
                }

                #clean
                #read_clean
            }

            #deserialize
        };
    }
}

/// Under `#[elicit(deserialize)]`: a clean answer read straight into the struct, in the
/// same pass as the check, each value by its type's [`FromClean`] (or its own
/// `Deserialize` where it has none), exactly as the derived `Deserialize` would read it.
/// A field left out is judged as that `Deserialize` judges it; a field with a form
/// default left out makes the answer not clean (the default is filled elsewhere).
fn read_clean_fn(form: &Form) -> TokenStream {
    let count = form.fields.len();
    if count == 0 || count > 64 {
        return TokenStream::new();
    }
    let ident = form.ident;
    let p = quote!(::elicit_core::__private);
    let (slots, decls) = field_slots(form);
    let decls_owned = &decls;
    let arms = form
        .fields
        .iter()
        .zip(&slots)
        .enumerate()
        .map(|(i, (f, slot))| {
            let wire = &f.wire;
            let ty = f.ty;
            quote! {
                #wire => {
                    if !#p::clean_value(&fields[#i], value, strictness) {
                        return #p::None;
                    }
                    #slot = #p::Some((&#p::Probe::<#ty>::new()).read(value)?);
                }
            }
        });
    let inits = form.fields.iter().zip(&slots).map(|(f, slot)| {
        let name = f.ident;
        let ty = f.ty;
        let missing = if f.attrs.default.is_some() {
            quote!(return #p::None)
        } else {
            missing_value(f, quote!((&#p::Probe::<#ty>::new()).missing()?))
        };
        quote!(#name: match #slot { #p::Some(v) => v, #p::None => #missing })
    });
    let skipped = skipped_inits(form);
    let owned_arms = form.fields.iter().zip(&slots).map(|(f, slot)| {
        let wire = &f.wire;
        let ty = f.ty;
        quote! {
            #wire => {
                #slot = #p::Some(
                    match (&#p::Probe::<#ty>::new()).read_owned(value) {
                        ::core::result::Result::Ok(v) => v,
                        ::core::result::Result::Err(e) => {
                            return ::core::result::Result::Ok(::core::result::Result::Err(e));
                        }
                    },
                );
            }
        }
    });
    let owned_inits = form.fields.iter().zip(&slots).map(|(f, slot)| {
        let name = f.ident;
        let ty = f.ty;
        let wire = &f.wire;
        // The check has seen every needed field; what is left out reads as the derived
        // `Deserialize` reads it.
        let missing = missing_value(
            f,
            quote!(match #p::missing_field::<#ty, #p::JsonError>(#wire) {
                ::core::result::Result::Ok(v) => v,
                ::core::result::Result::Err(e) => {
                    return ::core::result::Result::Ok(::core::result::Result::Err(e));
                }
            }),
        );
        quote!(#name: match #slot { #p::Some(v) => v, #p::None => #missing })
    });
    let owned_skipped = skipped_inits(form);
    // Optimized builds only: in a debug build the trait's default (the form's check,
    // then the derived `Deserialize`) reads the same answers alike, and these per-form
    // functions would make the derive's share of the build twice as dear (measured on
    // 200 forms: 8.2 s against 6.7 s). Tests run the twins in both profiles.
    quote! {
        #[cfg(not(debug_assertions))]
        #[doc(hidden)]
        #[inline]
        fn __read_clean_owned(
            map: #p::Map<::std::string::String, #p::Value>,
            strictness: #p::Strictness,
        ) -> ::core::result::Result<
            ::core::result::Result<Self, #p::JsonError>,
            #p::Map<::std::string::String, #p::Value>,
        > {
            #[allow(unused_imports)]
            use #p::{ReadDirect as _, ReadSerde as _};
            // Checked first, so the map can go back untouched when it is not clean;
            // then each value moves into its field.
            if !<Self as ::elicit_core::Elicit>::__clean(&map, strictness) {
                return ::core::result::Result::Err(map);
            }
            #(#decls_owned)*
            for (key, value) in map {
                match key.as_str() {
                    #(#owned_arms)*
                    _ => {}
                }
            }
            ::core::result::Result::Ok(::core::result::Result::Ok(#ident {
                #(#owned_inits,)*
                #(#owned_skipped,)*
            }))
        }

        #[cfg(not(debug_assertions))]
        #[doc(hidden)]
        #[inline]
        fn __read_clean(
            map: &#p::Map<::std::string::String, #p::Value>,
            strictness: #p::Strictness,
        ) -> #p::Option<::core::result::Result<Self, #p::JsonError>> {
            #[allow(unused_imports)]
            use #p::{ReadDirect as _, ReadSerde as _};
            let fields = FIELDS;
            #(#decls)*
            for (key, value) in map {
                match key.as_str() {
                    #(#arms)*
                    _ => return #p::None,
                }
            }
            #p::Some(::core::result::Result::Ok(#ident {
                #(#inits,)*
                #(#skipped,)*
            }))
        }
    }
}

/// One slot per field for the value read (`__field0`, …), and their declarations
/// (`let mut __field0: Option<T> = None;`).
fn field_slots(form: &Form) -> (Vec<syn::Ident>, Vec<TokenStream>) {
    let p = quote!(::elicit_core::__private);
    form.fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let slot = quote::format_ident!("__field{}", i);
            let ty = f.ty;
            let decl = quote!(let mut #slot: #p::Option<#ty> = #p::None;);
            (slot, decl)
        })
        .unzip()
}

/// The value of a field left out of the input: serde's `default` (a function or
/// `Default::default()`), else `otherwise`.
fn missing_value(field: &Field, otherwise: TokenStream) -> TokenStream {
    match (&field.default_path, field.serde_default) {
        (Some(path), _) => quote!(#path()),
        (None, true) => quote!(::core::default::Default::default()),
        (None, false) => otherwise,
    }
}

/// `ident: default` for each field serde skips.
fn skipped_inits<'a>(form: &'a Form) -> impl Iterator<Item = TokenStream> + 'a {
    form.skipped.iter().map(|s| {
        let name = s.ident;
        match &s.default_path {
            Some(path) => quote!(#name: #path()),
            None => quote!(#name: ::core::default::Default::default()),
        }
    })
}

/// Under `#[elicit(deserialize)]`: the struct's `Deserialize`, reading what serde's
/// derive reads from a map with the same attributes (`rename`, `rename_all`, `default`,
/// `skip`, `deny_unknown_fields`).
fn deserialize_form(form: &Form) -> TokenStream {
    let ident = form.ident;
    let name = &form.serde_name;
    let expecting = format!("struct {name}");
    let p = quote!(::elicit_core::__private);
    let de = quote!(#p::serde::de);
    let deny = form.deny_unknown_fields;
    let wires = form.fields.iter().map(|f| &f.wire);
    let (slots, decls) = field_slots(form);
    let arms = form
        .fields
        .iter()
        .zip(&slots)
        .enumerate()
        .map(|(i, (f, slot))| {
            let wire = &f.wire;
            let ty = f.ty;
            let i = Literal::usize_unsuffixed(i);
            quote! {
                #p::Some(#i) => {
                    if #slot.is_some() {
                        return ::core::result::Result::Err(
                            <__A::Error as #de::Error>::duplicate_field(#wire),
                        );
                    }
                    #slot = #p::Some(#de::MapAccess::next_value::<#ty>(&mut __map)?);
                }
            }
        });
    let inits = form.fields.iter().zip(&slots).map(|(f, slot)| {
        let field = f.ident;
        let ty = f.ty;
        let wire = &f.wire;
        let missing = missing_value(f, quote!(#p::missing_field::<#ty, __A::Error>(#wire)?));
        quote!(#field: match #slot { #p::Some(v) => v, #p::None => #missing })
    });
    let skipped = skipped_inits(form);
    let count = form.fields.len();
    let with_count = format!(
        "struct {name} with {count} element{}",
        if count == 1 { "" } else { "s" }
    );
    let from_seq = form.fields.iter().enumerate().map(|(i, f)| {
        let field = f.ident;
        let ty = f.ty;
        let missing = missing_value(
            f,
            quote!(return ::core::result::Result::Err(
                <__S::Error as #de::Error>::invalid_length(#i, &#with_count),
            )),
        );
        quote! {
            #field: match #de::SeqAccess::next_element::<#ty>(&mut __seq)? {
                #p::Some(v) => v,
                #p::None => #missing,
            }
        }
    });
    let skipped_seq = skipped_inits(form);
    quote! {
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #ident {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(
                __deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                const WIRE: &[&str] = &[#(#wires),*];
                struct __Visitor;
                impl<'de> #de::Visitor<'de> for __Visitor {
                    type Value = #ident;

                    fn expecting(
                        &self,
                        __f: &mut ::core::fmt::Formatter<'_>,
                    ) -> ::core::fmt::Result {
                        __f.write_str(#expecting)
                    }

                    #[inline]
                    fn visit_map<__A: #de::MapAccess<'de>>(
                        self,
                        mut __map: __A,
                    ) -> ::core::result::Result<#ident, __A::Error> {
                        #(#decls)*
                        let __key = #p::FieldKey { names: WIRE, deny: #deny };
                        while let #p::Some(__k) = #de::MapAccess::next_key_seed(&mut __map, __key)? {
                            match __k {
                                #(#arms)*
                                _ => {
                                    #de::MapAccess::next_value::<#de::IgnoredAny>(&mut __map)?;
                                }
                            }
                        }
                        ::core::result::Result::Ok(#ident {
                            #(#inits,)*
                            #(#skipped,)*
                        })
                    }

                    // As serde's derive: the fields in order, from a sequence.
                    #[inline]
                    fn visit_seq<__S: #de::SeqAccess<'de>>(
                        self,
                        mut __seq: __S,
                    ) -> ::core::result::Result<#ident, __S::Error> {
                        ::core::result::Result::Ok(#ident {
                            #(#from_seq,)*
                            #(#skipped_seq,)*
                        })
                    }
                }
                #p::serde::Deserializer::deserialize_struct(__deserializer, #name, WIRE, __Visitor)
            }
        }
    }
}

/// The check of a clean answer (every key a field, every value good as sent, every
/// needed field there), specialized to the form: keys are matched as literals and each
/// value is checked against its field as a constant, so only that field's checks are
/// compiled in (in optimized builds: see `check_value`). Forms of more than 64 fields
/// keep the generic check.
fn clean_fn(form: &Form) -> TokenStream {
    let count = form.fields.len();
    if count == 0 || count > 64 {
        return TokenStream::new();
    }
    let p = quote!(::elicit_core::__private);
    let arms = form.fields.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        quote! {
            #wire => {
                seen |= 1 << #i;
                #p::clean_value(&fields[#i], value, strictness)
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[inline]
        fn __clean(
            map: &#p::Map<::std::string::String, #p::Value>,
            strictness: #p::Strictness,
        ) -> bool {
            const NEEDED: u64 = #p::needed_mask(FIELDS);
            let fields = FIELDS;
            let mut seen: u64 = 0;
            for (key, value) in map {
                let ok = match key.as_str() {
                    #(#arms)*
                    _ => false,
                };
                if !ok {
                    return false;
                }
            }
            seen & NEEDED == NEEDED
        }
    }
}

/// Stands in for the impl when the input has errors, so uses of the type elsewhere
/// do not add errors of their own.
fn form_stub(form: &Form) -> TokenStream {
    let ident = form.ident;
    let deserialize = if form.deserialize {
        deserialize_stub(ident)
    } else {
        TokenStream::new()
    };
    quote! {
        #[automatically_derived]
        impl ::elicit_core::Elicit for #ident {
            const MIN_REVISION: ::elicit_core::Revision = ::elicit_core::Revision::V2025_06_18;
            fn form() -> &'static ::elicit_core::Form {
                ::core::unreachable!("the form has compile errors")
            }
        }
        #deserialize
    }
}

/// The `Deserialize` of a type with `#[elicit(deserialize)]` whose declaration has
/// errors: there, so that uses of the type add no errors of their own.
fn deserialize_stub(ident: &syn::Ident) -> TokenStream {
    let p = quote!(::elicit_core::__private);
    quote! {
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #ident {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(
                _: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                ::core::unreachable!("the type has compile errors")
            }
        }
    }
}

/// The checks only the type checker and const evaluation can make: whether each
/// keyword applies to the field's type, whether a default has the field's type, and
/// whether values fit the type's range and the enum's variants.
fn field_checks(form: &Form) -> TokenStream {
    let mut checks = TokenStream::new();
    let p = quote!(::elicit_core::__private);
    // A type refused by its syntax already has its error; judging it again would
    // only repeat it.
    for field in form
        .fields
        .iter()
        .filter(|f| check::rejected_shape(f.ty).is_none())
    {
        let a = &field.attrs;
        let ty = field.ty.to_token_stream();
        let ff = form_field(field);
        // One name for the definition and the uses, whatever span the uses carry (the
        // attribute's, which may come from a `macro_rules!` with its own hygiene).
        let shape = syn::Ident::new("_shape", Span::call_site());
        let mut body = quote!(let #shape: #p::Shape = #ff::SHAPE;);
        let mut assert = |key: Span, check: &str| {
            let check = syn::Ident::new(check, key);
            let ty = respan(ty.clone(), key);
            body.extend(quote_spanned!(key=> #p::#check::<#ty>();));
        };
        for key in [
            &a.format.as_ref().map(|v| v.key),
            &a.min_length.as_ref().map(|v| v.key),
            &a.max_length.as_ref().map(|v| v.key),
        ]
        .into_iter()
        .flatten()
        {
            assert(*key, "assert_text");
        }
        for key in [
            a.minimum.as_ref().map(|v| v.key),
            a.maximum.as_ref().map(|v| v.key),
        ]
        .into_iter()
        .flatten()
        {
            assert(key, "assert_numeric");
        }
        for key in [
            a.min_items.as_ref().map(|v| v.key),
            a.max_items.as_ref().map(|v| v.key),
        ]
        .into_iter()
        .flatten()
        {
            assert(key, "assert_multi_select");
        }
        if let Some(key) = a.enum_names {
            assert(key, "assert_select");
        }
        if let Some(d) = &a.default {
            let check = match &d.value {
                DefaultValue::Str(_) => "assert_str_default",
                DefaultValue::Bool(_) => "assert_bool_default",
                DefaultValue::Number(Number::Int(_)) => "assert_int_default",
                DefaultValue::Number(Number::Float(_)) => "assert_float_default",
                DefaultValue::List(_) => "assert_list_default",
            };
            assert(d.span, check);
        }
        let mut value_check = |n: &Number, span: Span| match *n {
            Number::Int(v) => {
                let v = int_tokens(v, span);
                body.extend(
                    quote_spanned!(span=> ::elicit_core::__private::check_int_fits(#shape, #v);),
                );
            }
            Number::Float(v) => {
                let v = float_tokens(v, span);
                body.extend(
                    quote_spanned!(span=> ::elicit_core::__private::check_float_fits(#shape, #v);),
                );
            }
        };
        for n in [&a.minimum, &a.maximum].into_iter().flatten() {
            value_check(&n.value, n.span);
        }
        if let Some(d) = &a.default {
            match &d.value {
                DefaultValue::Number(n) => value_check(n, d.span),
                DefaultValue::Str(s) => body.extend(
                    quote_spanned!(d.span=> ::elicit_core::__private::check_choice(#shape, #s);),
                ),
                DefaultValue::List(items) => {
                    for (s, span) in items {
                        body.extend(quote_spanned!(*span=> ::elicit_core::__private::check_choice(#shape, #s);));
                    }
                }
                DefaultValue::Bool(_) => {}
            }
        }
        checks.extend(quote! {
            const _: () = { #body };
        });
    }
    checks
}

fn options_impl(options: &Options, stub: bool) -> TokenStream {
    let ident = options.ident;
    let p = quote!(::elicit_core::__private);
    let choices = if stub {
        Vec::new()
    } else {
        options
            .variants
            .iter()
            .map(|v| {
                let wire = &v.wire;
                let title = opt_str(v.title.as_deref());
                quote!(#p::Choice::new(#wire, #title))
            })
            .collect()
    };
    let deserialize = match (options.deserialize, stub) {
        (true, false) => deserialize_options(options),
        (true, true) => deserialize_stub(ident),
        (false, _) => TokenStream::new(),
    };
    quote! {
        #deserialize
        #[automatically_derived]
        impl ::elicit_core::Options for #ident {
            const CHOICES: &'static [::elicit_core::Choice] = &[#(#choices),*];
        }
        #[automatically_derived]
        impl #p::FormField for #ident {
            const SHAPE: #p::Shape = #p::Shape::Select(<Self as ::elicit_core::Options>::CHOICES);
        }
        #[automatically_derived]
        impl #p::SelectField for #ident {}
        #[automatically_derived]
        impl #p::StrDefault for #ident {}
    }
}

/// Under `#[elicit(deserialize)]`: the unit enum's `Deserialize` (its variants by their
/// wire names, as serde's derive reads them) and its direct reading from a clean
/// answer's value.
fn deserialize_options(options: &Options) -> TokenStream {
    let ident = options.ident;
    let name = &options.serde_name;
    let p = quote!(::elicit_core::__private);
    let de = quote!(#p::serde::de);
    let wires: Vec<_> = options.variants.iter().map(|v| &v.wire).collect();
    let by_index = options.variants.iter().enumerate().map(|(i, v)| {
        let variant = v.ident;
        let i = Literal::usize_unsuffixed(i);
        quote!(#i => ::core::result::Result::Ok(#ident::#variant))
    });
    let by_wire = options.variants.iter().map(|v| {
        let variant = v.ident;
        let wire = &v.wire;
        quote!(#wire => #p::Some(#ident::#variant))
    });
    quote! {
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #ident {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(
                __deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                const VARIANTS: &[&str] = &[#(#wires),*];
                let __visitor = #p::UnitVariant { name: #name, names: VARIANTS };
                match #p::serde::Deserializer::deserialize_enum(__deserializer, #name, VARIANTS, __visitor)? {
                    #(#by_index,)*
                    __other => ::core::result::Result::Err(<__D::Error as #de::Error>::invalid_value(
                        #de::Unexpected::Unsigned(__other as u64),
                        &"a variant index",
                    )),
                }
            }
        }

        #[automatically_derived]
        impl #p::FromClean for #ident {
            #[inline]
            fn from_clean(value: &#p::Value) -> #p::Option<Self> {
                match value.as_str()? {
                    #(#by_wire,)*
                    _ => #p::None,
                }
            }
        }
    }
}
