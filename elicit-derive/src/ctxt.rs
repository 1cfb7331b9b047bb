//! The error collector (serde_derive's `Ctxt`): `attr`, `ast` and `check` push every
//! error here and carry on, so one build reports every mistake of the input, each at its
//! own span; the expander turns them into `compile_error!`s next to its output.

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};

#[derive(Default)]
pub struct Ctxt {
    errors: Option<syn::Error>,
}

impl Ctxt {
    pub fn error(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(all) => all.combine(error),
            None => self.errors = Some(error),
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors.is_some()
    }

    /// All errors as `compile_error!` invocations (empty when there are none).
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors
            .map(|e| e.to_compile_error())
            .unwrap_or_default()
    }
}
