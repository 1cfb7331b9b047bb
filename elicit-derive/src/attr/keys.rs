//! The keys of each attribute, as enums that know where each key may be written, and
//! the walk over an attribute's `key [= value]` items that reports a key unknown or
//! misplaced with the list of keys the place takes.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Meta, Token};

use super::slot::{Attr, BoolAttr};
use crate::ctxt::Ctxt;

/// Where an attribute is written, and so which of its keys it takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Place {
    /// `#[elicit(..)]` on the type deriving `Elicit`.
    Type,
    /// `#[elicit(..)]` on a form field.
    Field,
    /// `#[elicit(..)]` on a variant of an enum of options.
    Variant,
    /// `#[wizard(..)]` on the type deriving `Wizard`.
    Wizard,
    /// `#[step(..)]` on a wizard's step.
    Step,
}

impl Place {
    fn noun(self) -> &'static str {
        match self {
            Place::Type => "a type",
            Place::Field => "a field",
            Place::Variant => "an enum variant",
            Place::Wizard => "a wizard",
            Place::Step => "a step",
        }
    }
}

/// The keys of one attribute, as an enum.
pub(super) trait Keys: Copy + 'static {
    /// The attribute's name: `elicit` in `#[elicit(..)]`.
    const ATTR: &'static str;
    /// Every key, in the order the error messages list them.
    const ALL: &'static [Self];
    /// The key as written.
    fn name(self) -> &'static str;
    /// Where the key may be written.
    fn places(self) -> &'static [Place];

    /// The key an identifier names, if any.
    fn from_ident(ident: &Ident) -> Option<Self> {
        Self::ALL.iter().copied().find(|key| ident == key.name())
    }

    /// The keys `place` takes.
    fn allowed_on(place: Place) -> impl Iterator<Item = Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(move |key| key.places().contains(&place))
    }
}

/// Declares the key enum of an attribute: each key with its name as written and the
/// places that take it.
macro_rules! keys {
    (
        $(#[$doc:meta])*
        enum $Key:ident in $attr:literal {
            $($(#[$key_doc:meta])* $Variant:ident = $name:literal on $($place:ident)|+,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(super) enum $Key {
            $($(#[$key_doc])* $Variant,)*
        }

        impl Keys for $Key {
            const ATTR: &'static str = $attr;
            const ALL: &'static [Self] = &[$($Key::$Variant,)*];

            fn name(self) -> &'static str {
                match self {
                    $($Key::$Variant => $name,)*
                }
            }

            fn places(self) -> &'static [Place] {
                match self {
                    $($Key::$Variant => &[$(Place::$place),+],)*
                }
            }
        }
    };
}

keys! {
    /// The keys of `#[elicit(..)]`.
    enum Key in "elicit" {
        /// `#[elicit(crate = "my_reexport::elicit_core")]`
        Crate = "crate" on Type,
        /// `#[elicit(consent)]`, a flag: the form is a consent
        Consent = "consent" on Type,
        /// `#[elicit(title = "New Date")]`
        Title = "title" on Field | Variant,
        /// `#[elicit(description = "The date to try instead")]`
        Description = "description" on Field,
        /// `#[elicit(format = "date")]`
        Format = "format" on Field,
        /// `#[elicit(min_length = 1)]`
        MinLength = "min_length" on Field,
        /// `#[elicit(max_length = 80)]`
        MaxLength = "max_length" on Field,
        /// `#[elicit(minimum = 1)]`
        Minimum = "minimum" on Field,
        /// `#[elicit(maximum = 99.5)]`
        Maximum = "maximum" on Field,
        /// `#[elicit(default = false)]`, `= "medium"`, `= 3`, `= ["a", "b"]`
        Default = "default" on Field,
        /// `#[elicit(min_items = 1)]`
        MinItems = "min_items" on Field,
        /// `#[elicit(max_items = 3)]`
        MaxItems = "max_items" on Field,
        /// `#[elicit(enum_names)]`, a flag
        EnumNames = "enum_names" on Field,
        /// `#[elicit(secret)]`, a flag
        Secret = "secret" on Field,
        /// `#[elicit(not_secret)]`, a flag
        NotSecret = "not_secret" on Field,
    }
}

keys! {
    /// The keys of `#[wizard(..)]`.
    enum WizardKey in "wizard" {
        /// `#[wizard(context = Cinema)]`
        Context = "context" on Wizard,
        /// `#[wizard(attempts = 5)]`
        Attempts = "attempts" on Wizard,
        /// `#[wizard(crate = "my_reexport::elicit_core")]`
        Crate = "crate" on Wizard,
    }
}

keys! {
    /// The keys of `#[step(..)]`.
    enum StepKey in "step" {
        /// `#[step(message = "Which day would you like to go?")]`
        Message = "message" on Step,
        /// `#[step(check = date_has_seats)]`
        Check = "check" on Step,
        /// `#[step(prepare = offer_seats)]`
        Prepare = "prepare" on Step,
        /// `#[step(skip_if = no_snacks_wanted)]`
        SkipIf = "skip_if" on Step,
        /// `#[step(attempts = 5)]`
        Attempts = "attempts" on Step,
    }
}

/// One `key [= value]` of an attribute, its key known and allowed where it is written.
pub(super) struct Item<K> {
    pub(super) key: K,
    /// The span of the key.
    span: Span,
    value: Option<Expr>,
}

impl<K: Keys> Item<K> {
    /// Parses the value with `parse` (given the key's name for its messages) and sets
    /// `slot`; a missing value is reported.
    pub(super) fn set<T>(
        &self,
        cx: &mut Ctxt,
        slot: &mut Attr<T>,
        parse: impl FnOnce(&mut Ctxt, &Expr, &str) -> Option<T>,
    ) {
        let name = self.key.name();
        let Some(expr) = &self.value else {
            cx.error(self.span, format!("`{name}` needs a value: `{name} = ...`"));
            return;
        };
        if let Some(value) = parse(cx, expr, name) {
            slot.set(cx, self.span, expr.span(), value);
        }
    }

    /// Sets a flag; a value given to it is reported.
    pub(super) fn set_flag(&self, cx: &mut Ctxt, slot: &mut BoolAttr) {
        if let Some(v) = &self.value {
            let name = self.key.name();
            cx.error(
                v.span(),
                format!("`{name}` is a flag and takes no value: write `{name}`"),
            );
        }
        slot.set_true(cx, self.span);
    }
}

/// `a`, `b` and `c`, each in backticks.
fn key_list<K: Keys>(keys: impl Iterator<Item = K>) -> String {
    let names: Vec<String> = keys.map(|k| format!("`{}`", k.name())).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// `a`, `b` or `c`.
fn either(places: &[Place]) -> String {
    let nouns: Vec<&str> = places.iter().map(|p| p.noun()).collect();
    match nouns.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => nouns.concat(),
    }
}

/// Runs `f` on each `key [= value]` of every `#[K::ATTR(..)]` in `attrs`, with its key
/// parsed; a key that is unknown, or not taken at `place`, is reported instead.
pub(super) fn each_key<K: Keys>(
    cx: &mut Ctxt,
    attrs: &[Attribute],
    place: Place,
    mut f: impl FnMut(&mut Ctxt, Item<K>),
) {
    let attr_name = K::ATTR;
    for attr in attrs {
        if !attr.path().is_ident(attr_name) {
            continue;
        }
        let list = match &attr.meta {
            Meta::List(list) => list,
            other => {
                cx.error(
                    other.span(),
                    format!("expected `#[{attr_name}(key = value, ..)]`"),
                );
                continue;
            }
        };
        let parsed = list.parse_args_with(Punctuated::<KeyValue, Token![,]>::parse_terminated);
        let items = match parsed {
            Ok(items) => items,
            Err(e) => {
                cx.push(e);
                continue;
            }
        };
        for KeyValue { ident, value } in items {
            let span = ident.span();
            match K::from_ident(&ident) {
                Some(key) if key.places().contains(&place) => f(cx, Item { key, span, value }),
                Some(key) => cx.error(
                    span,
                    format!(
                        "`{ident}` goes on {}, not on {}: in #[{attr_name}(..)], {} takes {}",
                        either(key.places()),
                        place.noun(),
                        place.noun(),
                        key_list(K::allowed_on(place)),
                    ),
                ),
                // `#[elicit(deserialize)]` is taken and changes nothing: every answer is
                // read by the type's own `Deserialize`.
                None if place == Place::Type && ident == "deserialize" && value.is_none() => {}
                None => cx.error(
                    span,
                    format!(
                        "unknown key `{ident}` in #[{attr_name}(..)]: {} takes {}",
                        place.noun(),
                        key_list(K::allowed_on(place)),
                    ),
                ),
            }
        }
    }
}

/// `key` or `key = value`, as written.
struct KeyValue {
    ident: Ident,
    value: Option<Expr>,
}

impl syn::parse::Parse for KeyValue {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        // Any identifier, keywords too: `crate` is a key.
        let ident: Ident = syn::ext::IdentExt::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse::<Expr>()?)
        } else {
            None
        };
        Ok(KeyValue { ident, value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_listed_per_place() {
        assert_eq!(
            key_list(Key::allowed_on(Place::Field)),
            "`title`, `description`, `format`, `min_length`, `max_length`, `minimum`, `maximum`, `default`, `min_items`, `max_items`, `enum_names`, `secret` and `not_secret`"
        );
        assert_eq!(key_list(Key::allowed_on(Place::Variant)), "`title`");
        assert_eq!(
            key_list(Key::allowed_on(Place::Type)),
            "`crate` and `consent`"
        );
        assert_eq!(
            key_list(WizardKey::allowed_on(Place::Wizard)),
            "`context`, `attempts` and `crate`"
        );
        assert_eq!(
            key_list(StepKey::allowed_on(Place::Step)),
            "`message`, `check`, `prepare`, `skip_if` and `attempts`"
        );
        assert_eq!(either(Key::Title.places()), "a field or an enum variant");
    }

    #[test]
    fn every_key_has_a_place_and_a_distinct_name() {
        fn distinct<K: Keys>() {
            for (i, key) in K::ALL.iter().enumerate() {
                assert!(!key.places().is_empty());
                assert!(K::ALL[..i].iter().all(|k| k.name() != key.name()));
            }
        }
        distinct::<Key>();
        distinct::<WizardKey>();
        distinct::<StepKey>();
    }
}
