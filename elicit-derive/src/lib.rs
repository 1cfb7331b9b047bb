//! Derive macros for [`elicit-core`](https://docs.rs/elicit-core). Use them through
//! `elicit_core::Elicit`; the attributes are documented there.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod kind;
/// The expanders, one per derive, each thin: input → `ast` (attributes parsed by `attr`)
/// → `check` → tokens, errors collected in `ctxt` along the way.
mod derives {
    pub mod elicit;
    pub mod wizard;
}

use proc_macro::TokenStream;

/// Derives `elicit_core::Elicit` for a struct of form fields, or `elicit_core::Options`
/// for a unit enum.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derives::elicit::derive(&input).into()
}

/// Derives `elicit_core::wizard::Wizard` for a struct of steps, each a form.
#[proc_macro_derive(Wizard, attributes(wizard, step))]
pub fn derive_wizard(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derives::wizard::derive(&input).into()
}
