//! `#[derive(Wizard)]`, a thin expander: the input becomes an `ast::Wizard` (its
//! `#[wizard(..)]` and `#[step(..)]` parsed by `attr`), goes through `check`, and is
//! turned into tokens here: the `Wizard` impl whose `Flow` asks the steps in order, the
//! `{Name}Progress` struct of the answers so far that the hooks see, and the proof that
//! no step has a secret field (steps are asked in form mode); or, when the
//! input has errors, the errors and a stub impl that keeps uses of the type quiet.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::ast::{Step, Wizard};
use crate::check;
use crate::ctxt::Ctxt;
use crate::derives::elicit::respan;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let wizard = Wizard::from_syn(&mut cx, input);
    let distinct = check::wizard(&wizard);
    let errors = cx.into_compile_errors();
    if errors.is_empty() && distinct {
        return expand(&wizard);
    }
    if !input.generics.params.is_empty() {
        // A stub without the parameters would add errors of its own.
        return errors;
    }
    let ident = wizard.ident;
    let krate = &wizard.attrs.krate;
    quote! {
        #errors
        #[automatically_derived]
        impl #krate::wizard::Wizard for #ident {
            type Context = ();
            type Progress = ();
            const NAME: &'static str = "";
            const STEPS: &'static [#krate::__private::StepInfo] = &[];
            fn form(_: usize) -> &'static #krate::Form { ::core::unreachable!("the wizard has compile errors") }
            fn skip(_: &(), _: &(), _: usize) -> bool { false }
            fn prepare(_: &(), _: &(), _: usize) -> ::core::option::Option<#krate::wizard::Prepared> { ::core::option::Option::None }
            fn accept(_: ::core::option::Option<&()>, _: &mut (), _: usize, _: &#krate::__private::Value) -> ::core::result::Result<(), #krate::__private::Rejection> { ::core::result::Result::Ok(()) }
            fn finish(_: ()) -> ::core::option::Option<Self> { ::core::option::Option::None }
        }
    }
}

/// The paths and names every part of the expansion shares.
struct Names<'a> {
    wizard: &'a Wizard<'a>,
    krate: &'a syn::Path,
    /// `{krate}::wizard`
    w: TokenStream,
    /// `::core::option::Option`
    opt: TokenStream,
    /// The hooks' context type: `#[wizard(context = ..)]`, else `()`.
    ctx: TokenStream,
    /// `{Name}Progress`, the struct of the answers so far.
    progress: syn::Ident,
}

impl<'a> Names<'a> {
    fn new(wizard: &'a Wizard<'a>) -> Names<'a> {
        let krate = &wizard.attrs.krate;
        Names {
            wizard,
            krate,
            w: quote!(#krate::wizard),
            opt: quote!(::core::option::Option),
            ctx: match &wizard.attrs.context {
                Some(t) => quote!(#t),
                None => quote!(()),
            },
            progress: format_ident!("{}Progress", wizard.ident),
        }
    }

    /// `<StepType as Step>`, spanned at the step's type.
    fn step(&self, s: &Step) -> TokenStream {
        let ty = s.ty;
        let krate = self.krate;
        quote_spanned!(ty.span()=> <#ty as #krate::__private::WizardStep>)
    }

    /// `tokens`, which name the step's type, every token spanned at that type: for a type
    /// that is no step, each use then has the same error at the same place, which the
    /// compiler reports once.
    fn at(&self, s: &Step, tokens: TokenStream) -> TokenStream {
        respan(tokens, s.ty.span())
    }
}

/// The `{Name}Progress` struct and the `Wizard` impl; nothing for a wizard without steps
/// (already reported).
fn expand(wizard: &Wizard) -> TokenStream {
    let Some(last) = wizard.steps.last() else {
        return TokenStream::new();
    };
    let names = Names::new(wizard);
    let progress = progress_struct(&names);
    let wizard_impl = wizard_impl(&names, last);
    let plain = plain_steps(&names);
    quote! {
        #progress

        #wizard_impl

        #plain
    }
}

/// Each step's form has no secret field: a wizard asks its steps in form mode, where MCP
/// forbids secrets. Each step's probe (see `__private::Probe`) fails at its type for a
/// form with a secret, and says nothing of a type that is no form (which has its own
/// error); all in one function that is never called.
fn plain_steps(names: &Names) -> TokenStream {
    let krate = names.krate;
    let probes = names.wizard.steps.iter().map(|s| {
        let ty = s.ty;
        quote_spanned!(ty.span()=> (&&&#krate::__private::Probe::<#ty>::NEW).plain_step::<#ty>();)
    });
    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #krate::__private::{OtherProbe as _, PlainProbe as _, SecretProbe as _};
            #[allow(dead_code)]
            fn __plain_steps() {
                #(#probes)*
            }
        };
    }
}

/// `{Name}Progress`: an optional field per step, the answer once given, all `None` by
/// default.
fn progress_struct(names: &Names) -> TokenStream {
    let Names {
        wizard,
        opt,
        progress,
        ..
    } = names;
    let (ident, vis, steps) = (wizard.ident, wizard.vis, &wizard.steps);
    let fields = steps.iter().map(|s| {
        let f = s.ident;
        let st = names.step(s);
        let field_ty = names.at(s, quote!(#opt<#st::Form>));
        let doc = format!("The answer to step `{f}`, once given.");
        quote!(#[doc = #doc] pub #f: #field_ty)
    });
    let nones = steps.iter().map(|s| {
        let f = s.ident;
        names.at(s, quote!(#f: #opt::None))
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
    }
}

/// The `Wizard` impl: the steps' infos, and per method a `match` on the step's index
/// (`last` answers an index past the end of `form`).
fn wizard_impl(names: &Names, last: &Step) -> TokenStream {
    let Names {
        wizard,
        krate,
        w,
        opt,
        ctx,
        progress,
    } = names;
    let ident = wizard.ident;
    let last = {
        let st = names.step(last);
        names.at(last, quote!(<#st::Form as #krate::Elicit>::form()))
    };
    let infos = step_infos(names);
    let forms = form_arms(names);
    let skips = skip_arms(names);
    let prepares = prepare_arms(names);
    let accepts = accept_arms(names);
    let finishes = finish_fields(names);
    quote! {
        #[automatically_derived]
        impl #w::Wizard for #ident {
            type Context = #ctx;
            type Progress = #progress;
            const NAME: &'static str = ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#ident));
            const STEPS: &'static [#krate::__private::StepInfo] = &[#(#infos),*];

            fn form(__index: usize) -> &'static #krate::Form {
                match __index {
                    #(#forms,)*
                    _ => #last,
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
            ) -> ::core::result::Result<(), #krate::__private::Rejection> {
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

/// Each step's `StepInfo`: its name, message, whether it may be left out, and its
/// attempts (the step's, else the wizard's, else the default).
fn step_infos(names: &Names) -> Vec<TokenStream> {
    let Names { krate, opt, .. } = names;
    names
        .wizard
        .steps
        .iter()
        .map(|s| {
            let name = &s.name;
            let message = s.attrs.message.as_deref().unwrap_or_default();
            let st = names.step(s);
            // The answer's type named first: for a type that is no step, its error there
            // (as at every other use) is the one reported here.
            let optional = names.at(
                s,
                quote!({
                    let _: #opt<#st::Form> = #opt::None;
                    #st::OPTIONAL
                }),
            );
            let attempts = match s.attrs.attempts.or(names.wizard.attrs.attempts) {
                Some(a) => {
                    let a = a as u32;
                    quote!(#a)
                }
                None => quote!(#krate::__private::DEFAULT_ATTEMPTS),
            };
            quote!(#krate::__private::StepInfo { name: #name, message: #message, optional: #optional, attempts: #attempts })
        })
        .collect()
}

/// `form`'s arms: each step's index to its form.
fn form_arms(names: &Names) -> Vec<TokenStream> {
    let Names { krate, .. } = names;
    names
        .wizard
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let st = names.step(s);
            let form = names.at(s, quote!(<#st::Form as #krate::Elicit>::form()));
            quote!(#i => #form)
        })
        .collect()
}

/// `skip`'s arms: each step with `skip_if` to its hook's verdict.
fn skip_arms(names: &Names) -> Vec<TokenStream> {
    let Names { ctx, progress, .. } = names;
    names
        .wizard
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let path = s.attrs.skip_if.as_ref()?;
            Some(quote_spanned! {path.span()=>
                #i => {
                    let __hook: fn(&#ctx, &#progress) -> bool = #path;
                    __hook(__ctx, __progress)
                }
            })
        })
        .collect()
}

/// `prepare`'s arms: each step with `prepare` to what its hook prepares.
fn prepare_arms(names: &Names) -> Vec<TokenStream> {
    let Names {
        w,
        opt,
        ctx,
        progress,
        ..
    } = names;
    names
        .wizard
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let path = s.attrs.prepare.as_ref()?;
            Some(quote_spanned! {path.span()=>
                #i => {
                    let __hook: fn(&#ctx, &#progress) -> #w::Prepared = #path;
                    #opt::Some(__hook(__ctx, __progress))
                }
            })
        })
        .collect()
}

/// `accept`'s arms: each step's answer parsed, judged by its `check` hook when there is
/// a context, and kept in the progress.
fn accept_arms(names: &Names) -> Vec<TokenStream> {
    let Names {
        krate,
        opt,
        ctx,
        progress,
        ..
    } = names;
    names
        .wizard
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let f = s.ident;
            let st = names.step(s);
            let check = s.attrs.check.as_ref().map(|path| {
                quote_spanned! {path.span()=>
                    if let #opt::Some(__ctx) = __ctx {
                        let __hook: fn(&#ctx, &#progress, &#st::Form) -> ::core::result::Result<(), ::std::string::String> = #path;
                        __hook(__ctx, __progress, &__value).map_err(#krate::__private::Rejection::Check)?;
                    }
                }
            });
            let parse = names.at(
                s,
                quote!(let __value: #st::Form = #krate::__private::parse_answer(__content)?;),
            );
            let keep = names.at(s, quote!(__progress.#f = #opt::Some(__value);));
            quote! {
                #i => {
                    #parse
                    #check
                    #keep
                }
            }
        })
        .collect()
}

/// `finish`'s fields: each step's answer, finished by its `Step` impl.
fn finish_fields(names: &Names) -> Vec<TokenStream> {
    names
        .wizard
        .steps
        .iter()
        .map(|s| {
            let f = s.ident;
            let st = names.step(s);
            let value = names.at(s, quote!(#st::finish(__progress.#f)?));
            quote!(#f: #value)
        })
        .collect()
}
