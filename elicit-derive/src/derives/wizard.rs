//! `#[derive(Wizard)]`, a thin expander: the input becomes an `ast::Wizard` (its
//! `#[wizard(..)]` and `#[step(..)]` parsed by `attr`), goes through `check`, and is
//! turned into tokens here: the `Wizard` impl whose `Flow` asks the steps in order, and
//! the `{Name}Progress` struct of the answers so far that the hooks see; or, when the
//! input has errors, the errors and a stub impl that keeps uses of the type quiet.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use crate::ast::{Step, Wizard};
use crate::check;
use crate::ctxt::Ctxt;

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

fn expand(wizard: &Wizard) -> TokenStream {
    let ident = wizard.ident;
    let vis = wizard.vis;
    let krate = &wizard.attrs.krate;
    let steps = &wizard.steps;
    let progress = format_ident!("{}Progress", ident);
    let ctx = match &wizard.attrs.context {
        Some(t) => quote!(#t),
        None => quote!(()),
    };
    let w = quote!(#krate::wizard);
    let p = quote!(#krate::__private);
    let opt = quote!(::core::option::Option);
    let step_of = |s: &Step| {
        let ty = s.ty;
        quote_spanned!(ty.span()=> <#ty as #p::WizardStep>)
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
        let name = &s.name;
        let message = s.attrs.message.as_deref().unwrap_or_default();
        let st = step_of(s);
        let attempts = match s.attrs.attempts.or(wizard.attrs.attempts) {
            Some(n) => {
                let n = n as u32;
                quote!(#n)
            }
            None => quote!(#p::DEFAULT_ATTEMPTS),
        };
        quote!(#p::StepInfo { name: #name, message: #message, optional: #st::OPTIONAL, attempts: #attempts })
    });
    let forms = steps.iter().enumerate().map(|(i, s)| {
        let st = step_of(s);
        quote!(#i => <#st::Form as #krate::Elicit>::form())
    });
    let Some(last) = steps.last().map(step_of) else {
        return TokenStream::new();
    };
    let skips = steps.iter().enumerate().filter_map(|(i, s)| {
        let path = s.attrs.skip_if.as_ref()?;
        Some(quote_spanned! {path.span()=>
            #i => {
                let __hook: fn(&#ctx, &#progress) -> bool = #path;
                __hook(__ctx, __progress)
            }
        })
    });
    let prepares = steps.iter().enumerate().filter_map(|(i, s)| {
        let path = s.attrs.prepare.as_ref()?;
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
        let check = s.attrs.check.as_ref().map(|path| {
            quote_spanned! {path.span()=>
                if let #opt::Some(__ctx) = __ctx {
                    let __hook: fn(&#ctx, &#progress, &#st::Form) -> ::core::result::Result<(), ::std::string::String> = #path;
                    __hook(__ctx, __progress, &__value).map_err(#p::Rejection::Check)?;
                }
            }
        });
        quote! {
            #i => {
                let __value: #st::Form = #p::parse_answer(__content)?;
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
            const STEPS: &'static [#p::StepInfo] = &[#(#infos),*];

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
                __content: &#p::Value,
            ) -> ::core::result::Result<(), #p::Rejection> {
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
