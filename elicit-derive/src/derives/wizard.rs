//! `#[derive(Wizard)]`: a struct of steps, each a form, becomes a `Wizard` whose
//! `Flow` asks them in order. Parse `#[wizard(..)]`/`#[step(..)]`, check, then expand.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Expr, Fields, Ident, Path, Type};

use crate::attr::{crate_path, default_crate, each_key, lit_count, lit_str, needs_value};
use crate::ctxt::Ctxt;

struct Step<'a> {
    ident: &'a Ident,
    ty: &'a Type,
    message: Option<String>,
    check: Option<Path>,
    prepare: Option<Path>,
    skip_if: Option<Path>,
    attempts: Option<u64>,
}

fn hook_path(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Path> {
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

fn set<T>(cx: &mut Ctxt, slot: &mut Option<T>, key: &str, span: Span, value: T) {
    if slot.is_some() {
        cx.error(span, format!("duplicate `{key}` in #[step(..)]"));
    } else {
        *slot = Some(value);
    }
}

fn attempts_value(cx: &mut Ctxt, expr: &Expr) -> Option<u64> {
    let n = lit_count(cx, expr, "attempts")?;
    if n == 0 || n > u64::from(u32::MAX) {
        cx.error(
            expr.span(),
            "`attempts` counts how many answers a step may get: at least 1",
        );
        return None;
    }
    Some(n)
}

pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let ident = &input.ident;
    let mut context: Option<Type> = None;
    let mut default_attempts: Option<u64> = None;
    let mut krate: Option<Path> = None;
    each_key(&mut cx, &input.attrs, "wizard", |cx, name, key, value| {
        let Some(expr) = needs_value(cx, name, key, value) else {
            return;
        };
        match name {
            // #[wizard(crate = "my_reexport::elicit_core")]
            "crate" => {
                if let Some(path) = crate_path(cx, &expr) {
                    if krate.is_some() {
                        cx.error(key, "duplicate `crate` in #[wizard(..)]");
                    }
                    krate = Some(path);
                }
            }
            // #[wizard(context = Cinema)]
            "context" => match syn::parse2::<Type>(quote!(#expr)) {
                Ok(ty) if context.is_none() => context = Some(ty),
                Ok(_) => cx.error(key, "duplicate `context` in #[wizard(..)]"),
                Err(_) => cx.error(
                    expr.span(),
                    "`context` takes a type: `context = MyServerState`",
                ),
            },
            // #[wizard(attempts = 5)]
            "attempts" => {
                if let Some(n) = attempts_value(cx, &expr) {
                    if default_attempts.is_some() {
                        cx.error(key, "duplicate `attempts` in #[wizard(..)]");
                    }
                    default_attempts = Some(n);
                }
            }
            _ => cx.error(
                key,
                format!(
                    "unknown key `{name}` in #[wizard(..)]: a wizard takes `context`, `attempts` and `crate`"
                ),
            ),
        }
    });
    if !input.generics.params.is_empty() {
        cx.error(
            input.generics.span(),
            "`Wizard` cannot be derived for a generic type: its steps and saved state have one concrete shape",
        );
    }
    let mut steps = Vec::new();
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => {
                for field in &named.named {
                    let Some(field_ident) = field.ident.as_ref() else {
                        continue;
                    };
                    let mut step = Step {
                        ident: field_ident,
                        ty: &field.ty,
                        message: None,
                        check: None,
                        prepare: None,
                        skip_if: None,
                        attempts: None,
                    };
                    let mut message_given = false;
                    each_key(&mut cx, &field.attrs, "step", |cx, name, key, value| {
                        let Some(expr) = needs_value(cx, name, key, value) else {
                            return;
                        };
                        match name {
                            // #[step(message = "Which day would you like to go?")]
                            "message" => {
                                message_given = true;
                                if let Some(m) = lit_str(cx, &expr, name) {
                                    set(cx, &mut step.message, name, key, m);
                                }
                            }
                            // #[step(check = date_has_seats)], prepare, skip_if
                            "check" | "prepare" | "skip_if" => {
                                if let Some(p) = hook_path(cx, &expr, name) {
                                    let slot = match name {
                                        "check" => &mut step.check,
                                        "prepare" => &mut step.prepare,
                                        _ => &mut step.skip_if,
                                    };
                                    set(cx, slot, name, key, p);
                                }
                            }
                            // #[step(attempts = 5)]
                            "attempts" => {
                                if let Some(n) = attempts_value(cx, &expr) {
                                    set(cx, &mut step.attempts, name, key, n);
                                }
                            }
                            _ => cx.error(
                                key,
                                format!("unknown key `{name}` in #[step(..)]: a step takes message, check, prepare, skip_if, attempts"),
                            ),
                        }
                    });
                    if !message_given {
                        cx.error(
                            field_ident.span(),
                            format!("step `{field_ident}` needs a message: add `#[step(message = \"...\")]`, the question shown above its form"),
                        );
                    }
                    steps.push(step);
                }
                if steps.is_empty() {
                    cx.error(ident.span(), "a wizard needs at least one step: a field whose type is a form deriving `Elicit`");
                }
            }
            _ => cx.error(
                ident.span(),
                "`Wizard` is derived for a struct with named fields, one per step",
            ),
        },
        _ => cx.error(
            ident.span(),
            "`Wizard` is derived for a struct with named fields, one per step",
        ),
    }
    // rustc reports a field declared twice itself; expanding would only repeat it.
    let duplicate = steps
        .iter()
        .enumerate()
        .any(|(i, s)| steps[..i].iter().any(|t| t.ident == s.ident));
    let krate = krate.unwrap_or_else(default_crate);
    let errors = std::mem::take(&mut cx).into_compile_errors();
    if !errors.is_empty() || duplicate {
        if !input.generics.params.is_empty() {
            // A stub without the parameters would add errors of its own.
            return errors;
        }
        return quote! {
            #errors
            #[automatically_derived]
            impl #krate::wizard::Wizard for #ident {
                type Context = ();
                type Progress = ();
                const NAME: &'static str = "";
                const STEPS: &'static [#krate::wizard::StepInfo] = &[];
                fn form(_: usize) -> &'static #krate::Form { ::core::unreachable!("the wizard has compile errors") }
                fn skip(_: &(), _: &(), _: usize) -> bool { false }
                fn prepare(_: &(), _: &(), _: usize) -> ::core::option::Option<#krate::wizard::Prepared> { ::core::option::Option::None }
                fn accept(_: ::core::option::Option<&()>, _: &mut (), _: usize, _: &#krate::__private::Value) -> ::core::result::Result<(), #krate::wizard::Rejection> { ::core::result::Result::Ok(()) }
                fn finish(_: ()) -> ::core::option::Option<Self> { ::core::option::Option::None }
            }
        };
    }
    expand(input, &krate, &steps, context, default_attempts)
}

fn expand(
    input: &DeriveInput,
    krate: &Path,
    steps: &[Step],
    context: Option<Type>,
    default_attempts: Option<u64>,
) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let progress = format_ident!("{}Progress", ident);
    let ctx = context.map(|t| quote!(#t)).unwrap_or_else(|| quote!(()));
    let w = quote!(#krate::wizard);
    let opt = quote!(::core::option::Option);
    let step_of = |s: &Step| {
        let ty = s.ty;
        quote_spanned!(ty.span()=> <#ty as #w::Step>)
    };
    let fields = steps.iter().map(|s| {
        let f = s.ident;
        let st = step_of(s);
        let doc = format!("The answer to step `{f}`, once given.");
        quote!(#[doc = #doc] pub #f: #opt<#st::Form>)
    });
    let nones = steps.iter().map(|s| {
        let f = s.ident;
        quote!(#f: #opt::None)
    });
    let infos = steps.iter().map(|s| {
        let name = s.ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
        let message = s.message.clone().unwrap_or_default();
        let st = step_of(s);
        let attempts = match s.attempts.or(default_attempts) {
            Some(n) => {
                let n = n as u32;
                quote!(#n)
            }
            None => quote!(#w::DEFAULT_ATTEMPTS),
        };
        quote!(#w::StepInfo { name: #name, message: #message, optional: #st::OPTIONAL, attempts: #attempts })
    });
    let forms = steps.iter().enumerate().map(|(i, s)| {
        let st = step_of(s);
        quote!(#i => <#st::Form as #krate::Elicit>::form())
    });
    let Some(last) = steps.last().map(step_of) else {
        return TokenStream::new();
    };
    let skips = steps.iter().enumerate().filter_map(|(i, s)| {
        let path = s.skip_if.as_ref()?;
        Some(quote_spanned! {path.span()=>
            #i => {
                let __hook: fn(&#ctx, &#progress) -> bool = #path;
                __hook(__ctx, __progress)
            }
        })
    });
    let prepares = steps.iter().enumerate().filter_map(|(i, s)| {
        let path = s.prepare.as_ref()?;
        Some(quote_spanned! {path.span()=>
            #i => {
                let __hook: fn(&#ctx, &#progress) -> #w::Prepared = #path;
                #opt::Some(__hook(__ctx, __progress))
            }
        })
    });
    let accepts = steps.iter().enumerate().map(|(i, s)| {
        let f = s.ident;
        let st = step_of(s);
        let check = s.check.as_ref().map(|path| {
            quote_spanned! {path.span()=>
                if let #opt::Some(__ctx) = __ctx {
                    let __hook: fn(&#ctx, &#progress, &#st::Form) -> ::core::result::Result<(), ::std::string::String> = #path;
                    __hook(__ctx, __progress, &__value).map_err(#w::Rejection::Check)?;
                }
            }
        });
        quote! {
            #i => {
                let __value: #st::Form = #krate::__private::parse_answer(__content)?;
                #check
                __progress.#f = #opt::Some(__value);
            }
        }
    });
    let finishes = steps.iter().map(|s| {
        let f = s.ident;
        let st = step_of(s);
        quote!(#f: #st::finish(__progress.#f)?)
    });
    let progress_doc =
        format!("The answers so far of the [`{ident}`] wizard, as its hooks see them.");
    quote! {
        #[doc = #progress_doc]
        #vis struct #progress {
            #(#fields,)*
        }

        #[automatically_derived]
        impl ::core::default::Default for #progress {
            fn default() -> Self {
                Self { #(#nones,)* }
            }
        }

        #[automatically_derived]
        impl #w::Wizard for #ident {
            type Context = #ctx;
            type Progress = #progress;
            const NAME: &'static str = ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#ident));
            const STEPS: &'static [#w::StepInfo] = &[#(#infos),*];

            fn form(__index: usize) -> &'static #krate::Form {
                match __index {
                    #(#forms,)*
                    _ => <#last::Form as #krate::Elicit>::form(),
                }
            }

            fn skip(__ctx: &#ctx, __progress: &#progress, __index: usize) -> bool {
                match __index {
                    #(#skips)*
                    _ => false,
                }
            }

            fn prepare(__ctx: &#ctx, __progress: &#progress, __index: usize) -> #opt<#w::Prepared> {
                match __index {
                    #(#prepares)*
                    _ => #opt::None,
                }
            }

            fn accept(
                __ctx: #opt<&#ctx>,
                __progress: &mut #progress,
                __index: usize,
                __content: &#krate::__private::Value,
            ) -> ::core::result::Result<(), #w::Rejection> {
                match __index {
                    #(#accepts)*
                    _ => {}
                }
                ::core::result::Result::Ok(())
            }

            fn finish(__progress: #progress) -> #opt<Self> {
                #opt::Some(Self { #(#finishes,)* })
            }
        }
    }
}
