//! Attribute parsing, and nothing else: `#[elicit(..)]` on a type ([`Container`]), a
//! field ([`Field`]) or an enum variant ([`Variant`]), `#[wizard(..)]` ([`Wizard`]) and
//! `#[step(..)]` ([`Step`]), the serde attributes that decide wire names
//! ([`SerdeContainer`], [`SerdeMember`]), and doc comments, each turned into plain
//! data. The keys of each attribute are an enum ([`Key`], [`WizardKey`], [`StepKey`])
//! that knows where each key may be written, so an unknown or misplaced key is
//! reported with the list of keys that place takes; each key's value is kept in one
//! [`Attr`] slot, which reports a key set twice the same way for every attribute.
//! Whether a value makes sense next to other values or the field's type is left to
//! `check` and to the type checker. Errors are recorded in the [`Ctxt`]; parsing never
//! stops early.

use proc_macro2::Span;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, Meta, Path, Token, Type, UnOp};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// Where an attribute is written, and so which of its keys it takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
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
trait Keys: Copy + 'static {
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
        enum $Key {
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

/// A key's value as written, with the spans errors point at.
#[derive(Clone, Debug)]
pub struct Setting<T> {
    pub value: T,
    /// The key (`title` in `title = "..."`).
    pub key: Span,
    /// The value (`"..."` in `title = "..."`).
    pub span: Span,
}

/// One key's slot while an attribute is parsed (serde_derive's `attr::Attr`): empty
/// until the key is set, then its [`Setting`]. Setting it again is an error that points
/// at both places, worded the same for every key of every attribute.
struct Attr<T> {
    attr: &'static str,
    name: &'static str,
    setting: Option<Setting<T>>,
}

impl<T> Attr<T> {
    fn none<K: Keys>(key: K) -> Attr<T> {
        Attr {
            attr: K::ATTR,
            name: key.name(),
            setting: None,
        }
    }

    /// Sets the value; `key` and `span` are the spans of the key and of the value.
    fn set(&mut self, cx: &mut Ctxt, key: Span, span: Span, value: T) {
        let (attr, name) = (self.attr, self.name);
        if let Some(first) = &self.setting {
            let mut e = syn::Error::new(key, format!("duplicate `{name}` in #[{attr}(..)]"));
            e.combine(syn::Error::new(
                first.key,
                format!("`{name}` is first set here"),
            ));
            cx.push(e);
        } else {
            self.setting = Some(Setting { value, key, span });
        }
    }

    fn get(self) -> Option<Setting<T>> {
        self.setting
    }

    fn value(self) -> Option<T> {
        self.setting.map(|s| s.value)
    }
}

/// A flag's slot: a key written without a value.
struct BoolAttr(Attr<()>);

impl BoolAttr {
    fn none<K: Keys>(key: K) -> BoolAttr {
        BoolAttr(Attr::none(key))
    }

    fn set_true(&mut self, cx: &mut Ctxt, key: Span) {
        self.0.set(cx, key, key, ());
    }

    /// The span of the key, when the flag is set.
    fn get(self) -> Option<Span> {
        self.0.get().map(|s| s.key)
    }
}

/// One `key [= value]` of an attribute, its key known and allowed where it is written.
struct Item<K> {
    key: K,
    /// The span of the key.
    span: Span,
    value: Option<Expr>,
}

impl<K: Keys> Item<K> {
    /// Parses the value with `parse` (given the key's name for its messages) and sets
    /// `slot`; a missing value is reported.
    fn set<T>(
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
    fn set_flag(&self, cx: &mut Ctxt, slot: &mut BoolAttr) {
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
fn each_key<K: Keys>(
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

/// A number in `minimum`, `maximum` or `default`, as written.
#[derive(Clone, Debug)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub fn as_f64(&self) -> f64 {
        match *self {
            Number::Int(v) => v as f64,
            Number::Float(v) => v,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// The value of `default`.
#[derive(Clone, Debug)]
pub enum DefaultValue {
    Str(String),
    Bool(bool),
    Number(Number),
    List(Vec<(String, Span)>),
}

/// The string formats MCP forms allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Email,
    Uri,
    Date,
    DateTime,
}

impl Format {
    fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "email" => Format::Email,
            "uri" => Format::Uri,
            "date" => Format::Date,
            "date-time" => Format::DateTime,
            _ => return None,
        })
    }
}

/// `#[elicit(..)]` on the type.
pub struct Container {
    /// `crate = "path"`: where the generated code finds `elicit_core` (for a crate that
    /// re-exports it); `::elicit_core` unless told otherwise.
    pub krate: Path,
}

impl Container {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Container {
        let mut krate = Attr::none(Key::Crate);
        each_key(cx, attrs, Place::Type, |cx, item| match item.key {
            Key::Crate => item.set(cx, &mut krate, crate_path),
            _ => unreachable!("each_key passes only the keys a type takes"),
        });
        Container {
            krate: krate.value().unwrap_or_else(default_crate),
        }
    }
}

/// `#[elicit(..)]` on a form field.
pub struct Field {
    pub title: Option<Setting<String>>,
    pub description: Option<Setting<String>>,
    pub format: Option<Setting<Format>>,
    pub min_length: Option<Setting<u64>>,
    pub max_length: Option<Setting<u64>>,
    pub minimum: Option<Setting<Number>>,
    pub maximum: Option<Setting<Number>>,
    pub default: Option<Setting<DefaultValue>>,
    pub min_items: Option<Setting<u64>>,
    pub max_items: Option<Setting<u64>>,
    /// The span of the `enum_names` flag, when set.
    pub enum_names: Option<Span>,
    pub not_secret: bool,
}

impl Field {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Field {
        let mut title = Attr::none(Key::Title);
        let mut description = Attr::none(Key::Description);
        let mut format = Attr::none(Key::Format);
        let mut min_length = Attr::none(Key::MinLength);
        let mut max_length = Attr::none(Key::MaxLength);
        let mut minimum = Attr::none(Key::Minimum);
        let mut maximum = Attr::none(Key::Maximum);
        let mut default = Attr::none(Key::Default);
        let mut min_items = Attr::none(Key::MinItems);
        let mut max_items = Attr::none(Key::MaxItems);
        let mut enum_names = BoolAttr::none(Key::EnumNames);
        let mut not_secret = BoolAttr::none(Key::NotSecret);
        each_key(cx, attrs, Place::Field, |cx, item| match item.key {
            Key::Title => item.set(cx, &mut title, lit_str),
            Key::Description => item.set(cx, &mut description, lit_str),
            Key::Format => item.set(cx, &mut format, format_value),
            Key::MinLength => item.set(cx, &mut min_length, lit_count),
            Key::MaxLength => item.set(cx, &mut max_length, lit_count),
            Key::Minimum => item.set(cx, &mut minimum, number_value),
            Key::Maximum => item.set(cx, &mut maximum, number_value),
            Key::Default => item.set(cx, &mut default, default_value),
            Key::MinItems => item.set(cx, &mut min_items, lit_count),
            Key::MaxItems => item.set(cx, &mut max_items, lit_count),
            Key::EnumNames => item.set_flag(cx, &mut enum_names),
            Key::NotSecret => item.set_flag(cx, &mut not_secret),
            Key::Crate => unreachable!("each_key passes only the keys a field takes"),
        });
        Field {
            title: title.get(),
            description: description.get(),
            format: format.get(),
            min_length: min_length.get(),
            max_length: max_length.get(),
            minimum: minimum.get(),
            maximum: maximum.get(),
            default: default.get(),
            min_items: min_items.get(),
            max_items: max_items.get(),
            enum_names: enum_names.get(),
            not_secret: not_secret.get().is_some(),
        }
    }
}

/// `#[elicit(..)]` on an enum variant.
pub struct Variant {
    pub title: Option<String>,
}

impl Variant {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Variant {
        let mut title = Attr::none(Key::Title);
        each_key(cx, attrs, Place::Variant, |cx, item| match item.key {
            Key::Title => item.set(cx, &mut title, lit_str),
            _ => unreachable!("each_key passes only the keys a variant takes"),
        });
        Variant {
            title: title.value(),
        }
    }
}

/// `#[wizard(..)]` on the type.
pub struct Wizard {
    /// `crate = "path"`, as in [`Container::krate`].
    pub krate: Path,
    /// `context = Type`: what the hooks are given; `()` when not set.
    pub context: Option<Type>,
    /// `attempts = n`: how many answers each step may get, unless the step says.
    pub attempts: Option<u64>,
}

impl Wizard {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> Wizard {
        let mut krate = Attr::none(WizardKey::Crate);
        let mut context = Attr::none(WizardKey::Context);
        let mut attempts = Attr::none(WizardKey::Attempts);
        each_key(cx, attrs, Place::Wizard, |cx, item| match item.key {
            WizardKey::Crate => item.set(cx, &mut krate, crate_path),
            WizardKey::Context => item.set(cx, &mut context, type_value),
            WizardKey::Attempts => item.set(cx, &mut attempts, attempts_value),
        });
        Wizard {
            krate: krate.value().unwrap_or_else(default_crate),
            context: context.value(),
            attempts: attempts.value(),
        }
    }
}

/// `#[step(..)]` on a wizard's step.
pub struct Step {
    /// The question shown above the step's form; every step has one.
    pub message: Option<String>,
    /// `check = f`: judges an answer against the context.
    pub check: Option<Path>,
    /// `prepare = f`: fills the step's choices from the context.
    pub prepare: Option<Path>,
    /// `skip_if = f`: whether the step is left out.
    pub skip_if: Option<Path>,
    /// `attempts = n`, over the wizard's.
    pub attempts: Option<u64>,
}

impl Step {
    /// The attributes of the step `ident`; a step without `message` is reported there.
    pub fn from_ast(cx: &mut Ctxt, ident: &Ident, attrs: &[Attribute]) -> Step {
        let mut message = Attr::none(StepKey::Message);
        let mut check = Attr::none(StepKey::Check);
        let mut prepare = Attr::none(StepKey::Prepare);
        let mut skip_if = Attr::none(StepKey::SkipIf);
        let mut attempts = Attr::none(StepKey::Attempts);
        // Written at all, even with a wrong value (which has its own error).
        let mut message_written = false;
        each_key(cx, attrs, Place::Step, |cx, item| match item.key {
            StepKey::Message => {
                message_written = true;
                item.set(cx, &mut message, lit_str);
            }
            StepKey::Check => item.set(cx, &mut check, hook_path),
            StepKey::Prepare => item.set(cx, &mut prepare, hook_path),
            StepKey::SkipIf => item.set(cx, &mut skip_if, hook_path),
            StepKey::Attempts => item.set(cx, &mut attempts, attempts_value),
        });
        if !message_written {
            cx.error(
                ident.span(),
                format!("step `{ident}` needs a message: add `#[step(message = \"...\")]`, the question shown above its form"),
            );
        }
        Step {
            message: message.value(),
            check: check.value(),
            prepare: prepare.value(),
            skip_if: skip_if.value(),
            attempts: attempts.value(),
        }
    }
}

// The value parsers: each takes the value and the key's name, and reports a value of
// the wrong kind at the value.

fn lit_str(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a string literal: `{key} = \"...\"`"),
            );
            None
        }
    }
}

fn lit_count(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<u64> {
    if let Expr::Lit(ExprLit {
        lit: Lit::Int(i), ..
    }) = expr
        && let Ok(v) = i.base10_parse::<u64>()
    {
        return Some(v);
    }
    cx.error(
        expr.span(),
        format!("`{key}` takes a non-negative whole number: `{key} = 3`"),
    );
    None
}

fn format_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Format> {
    let name = lit_str(cx, expr, key)?;
    let format = Format::from_name(&name);
    if format.is_none() {
        cx.error(
            expr.span(),
            format!(
                "unknown format {name:?}: MCP forms allow \"email\", \"uri\", \"date\" or \"date-time\""
            ),
        );
    }
    format
}

fn number_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Number> {
    let number = lit_number(expr);
    if number.is_none() {
        cx.error(
            expr.span(),
            format!("`{key}` takes a number literal: `{key} = 1` or `{key} = 0.5`"),
        );
    }
    number
}

fn lit_number(expr: &Expr) -> Option<Number> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(Number::Int),
        Expr::Lit(ExprLit {
            lit: Lit::Float(f), ..
        }) => f
            .base10_parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Number::Float),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match lit_number(&u.expr)? {
            Number::Int(v) => Some(Number::Int(-v)),
            Number::Float(v) => Some(Number::Float(-v)),
        },
        Expr::Group(g) => lit_number(&g.expr),
        _ => None,
    }
}

fn default_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<DefaultValue> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => return Some(DefaultValue::Str(s.value())),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => return Some(DefaultValue::Bool(b.value)),
        Expr::Array(array) => {
            let mut items = Vec::new();
            for item in &array.elems {
                match item {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) => items.push((s.value(), s.span())),
                    other => {
                        cx.error(
                            other.span(),
                            format!("a multi-select default lists the wire values of variants: `{key} = [\"a\", \"b\"]`"),
                        );
                        return None;
                    }
                }
            }
            return Some(DefaultValue::List(items));
        }
        _ => {}
    }
    if let Some(n) = lit_number(expr) {
        return Some(DefaultValue::Number(n));
    }
    cx.error(
        expr.span(),
        format!("`{key}` takes a literal: text (\"...\", also the wire value of an enum variant), `true`/`false`, a number, or a list of variant values"),
    );
    None
}

/// `crate = "path"`: the path to `elicit_core` as the user's crate sees it.
fn crate_path(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Path> {
    let text = lit_str(cx, expr, key)?;
    match syn::parse_str::<Path>(&text) {
        Ok(path) => Some(path),
        Err(_) => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a path: `{key} = \"my_crate::elicit_core\"`, not {text:?}"),
            );
            None
        }
    }
}

/// `::elicit_core`, the path the generated code uses unless told otherwise.
fn default_crate() -> Path {
    syn::parse_quote!(::elicit_core)
}

fn type_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<Type> {
    match syn::parse2::<Type>(quote!(#expr)) {
        Ok(ty) => Some(ty),
        Err(_) => {
            cx.error(
                expr.span(),
                format!("`{key}` takes a type: `{key} = MyServerState`"),
            );
            None
        }
    }
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

fn attempts_value(cx: &mut Ctxt, expr: &Expr, key: &str) -> Option<u64> {
    let n = lit_count(cx, expr, key)?;
    if n == 0 || n > u64::from(u32::MAX) {
        cx.error(
            expr.span(),
            format!("`{key}` counts how many answers a step may get: at least 1"),
        );
        return None;
    }
    Some(n)
}

/// The doc comment as plain text: lines trimmed, paragraphs kept apart.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            lines.push(s.value());
        }
    }
    let mut out = String::new();
    let mut blank = false;
    for line in lines.iter().flat_map(|l| l.lines()) {
        let line = line.trim();
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { " " });
        }
        blank = false;
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}

/// The serde attributes of a container that change what `Deserialize` reads.
#[derive(Default)]
pub struct SerdeContainer {
    pub rename_all: Option<RenameRule>,
    /// `#[serde(default)]`: every field may be left out.
    pub default: bool,
}

/// The serde attributes of a field or variant that change what `Deserialize` reads.
#[derive(Default)]
pub struct SerdeMember {
    /// The name `Deserialize` reads, with the span of the attribute that sets it.
    pub rename: Option<(String, Span)>,
    pub skip: bool,
    /// `#[serde(default)]` or `default = "path"`: the field may be left out.
    pub default: bool,
    pub flatten: Option<Span>,
}

fn serde_metas(attrs: &[Attribute]) -> Vec<Meta> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .collect()
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name `Deserialize` reads.
fn deserialize_name(meta: &Meta) -> Option<String> {
    match meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        Meta::List(list) => {
            let inner = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .ok()?;
            inner
                .iter()
                .find(|m| m.path().is_ident("deserialize"))
                .and_then(deserialize_name)
        }
        Meta::Path(_) => None,
    }
}

impl SerdeContainer {
    pub fn from_ast(cx: &mut Ctxt, attrs: &[Attribute]) -> SerdeContainer {
        let mut out = SerdeContainer::default();
        for meta in serde_metas(attrs) {
            let path = meta.path();
            if path.is_ident("rename_all") {
                if let Some(rule) = deserialize_name(&meta) {
                    match RenameRule::from_str(&rule) {
                        Some(r) => out.rename_all = Some(r),
                        // serde reports the unknown rule itself.
                        None => {
                            cx.error(meta.span(), format!("unknown serde rename rule {rule:?}"))
                        }
                    }
                }
            } else if path.is_ident("default") {
                out.default = true;
            }
        }
        out
    }
}

impl SerdeMember {
    pub fn from_ast(attrs: &[Attribute]) -> SerdeMember {
        let mut out = SerdeMember::default();
        for meta in serde_metas(attrs) {
            let path = meta.path();
            if path.is_ident("rename") {
                if let Some(name) = deserialize_name(&meta) {
                    let span = match &meta {
                        Meta::NameValue(nv) => nv.value.span(),
                        other => other.span(),
                    };
                    out.rename = Some((name, span));
                }
            } else if path.is_ident("skip") || path.is_ident("skip_deserializing") {
                out.skip = true;
            } else if path.is_ident("default") {
                out.default = true;
            } else if path.is_ident("flatten") {
                out.flatten = Some(path.span());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_listed_per_place() {
        assert_eq!(
            key_list(Key::allowed_on(Place::Field)),
            "`title`, `description`, `format`, `min_length`, `max_length`, `minimum`, `maximum`, `default`, `min_items`, `max_items`, `enum_names` and `not_secret`"
        );
        assert_eq!(key_list(Key::allowed_on(Place::Variant)), "`title`");
        assert_eq!(key_list(Key::allowed_on(Place::Type)), "`crate`");
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
