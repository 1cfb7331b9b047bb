//! What a field's type is, told by its syntax alone: `String`, `u8`, `Option<bool>`,
//! `Vec<Size>` are known; an enum, an alias or any other path is not. For a known type
//! the derive judges the keys, defaults and values itself and reports a mistake in its
//! own words at the user's attribute; an unknown one is left to the type checker (the
//! traits of `elicit_core::__private`) and to const evaluation.

use syn::{GenericArgument, PathArguments, Type};

/// A field type's kind, as far as its syntax tells (an `Option` around it is looked
/// through).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `String`.
    Text,
    /// `SecretString`.
    Secret,
    /// A primitive integer, with its range when it is the same on every target.
    Int(Option<(i128, i128)>),
    /// `f32` (`single`) or `f64`.
    Float { single: bool },
    /// `bool`.
    Bool,
    /// A `Vec`, `BTreeSet` or `HashSet` (of an enum, or refused by `check::list_of_text`).
    MultiSelect,
    /// Any other type: an enum deriving `Elicit`, an alias, a type that is no field.
    Unknown,
}

impl Kind {
    pub fn of(ty: &Type) -> Kind {
        let ty = inner(ty);
        let Type::Path(p) = ty else {
            return Kind::Unknown;
        };
        if p.qself.is_some() {
            return Kind::Unknown;
        }
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let Some(last) = p.path.segments.last() else {
            return Kind::Unknown;
        };
        let name = last.ident.to_string();
        let prefix: Vec<&str> = segments[..segments.len() - 1]
            .iter()
            .map(String::as_str)
            .collect();
        let bare = matches!(last.arguments, PathArguments::None);
        if !bare {
            if matches!(name.as_str(), "Vec" | "BTreeSet" | "HashSet") {
                return Kind::MultiSelect;
            }
            return Kind::Unknown;
        }
        // A primitive written as `u8`, or `core::primitive::u8` / `std::primitive::u8`.
        let primitive =
            prefix.is_empty() || matches!(prefix.as_slice(), ["core" | "std", "primitive"]);
        if primitive
            && p.path.leading_colon.is_none()
            && let Some(kind) = primitive_kind(&name)
        {
            return kind;
        }
        match (prefix.as_slice(), name.as_str()) {
            ([] | ["std" | "alloc", "string"], "String") => Kind::Text,
            (_, "SecretString") => Kind::Secret,
            _ => Kind::Unknown,
        }
    }

    /// Whether the type is known by its syntax.
    pub fn known(self) -> bool {
        self != Kind::Unknown
    }
}

fn primitive_kind(name: &str) -> Option<Kind> {
    let range = |min: i128, max: i128| Some(Kind::Int(Some((min, max))));
    match name {
        "i8" => range(i8::MIN.into(), i8::MAX.into()),
        "i16" => range(i16::MIN.into(), i16::MAX.into()),
        "i32" => range(i32::MIN.into(), i32::MAX.into()),
        "i64" => range(i64::MIN.into(), i64::MAX.into()),
        "i128" => range(i128::MIN, i128::MAX),
        "u8" => range(0, u8::MAX.into()),
        "u16" => range(0, u16::MAX.into()),
        "u32" => range(0, u32::MAX.into()),
        "u64" => range(0, u64::MAX.into()),
        // `u128`'s range is held in `i128`, as `FormField` holds it.
        "u128" => range(0, i128::MAX),
        // Their range depends on the target: const evaluation judges them.
        "usize" | "isize" => Some(Kind::Int(None)),
        "f32" => Some(Kind::Float { single: true }),
        "f64" => Some(Kind::Float { single: false }),
        "bool" => Some(Kind::Bool),
        _ => None,
    }
}

/// The type inside an `Option` (any number of them), parentheses and groups.
pub fn inner(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => inner(&p.elem),
        Type::Group(g) => inner(&g.elem),
        Type::Path(p) if p.qself.is_none() => {
            let path = &p.path;
            let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let is_option = matches!(
                names
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice(),
                ["Option"] | ["std" | "core", "option", "Option"]
            );
            let last = path.segments.last();
            match last.map(|s| &s.arguments) {
                Some(PathArguments::AngleBracketed(args)) if is_option && args.args.len() == 1 => {
                    match args.args.first() {
                        Some(GenericArgument::Type(inner)) => self::inner(inner),
                        _ => ty,
                    }
                }
                _ => ty,
            }
        }
        _ => ty,
    }
}

/// The type as the user wrote it, for a message: `Option<bool>`, not `Option < bool >`.
pub fn type_name(ty: &Type) -> String {
    let text = quote::quote!(#ty).to_string();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.peek().copied();
            let glue = |c: Option<char>| matches!(c, Some('<' | '>' | ':' | ',' | '&'));
            if glue(prev) && prev != Some(',') || glue(next) && next != Some('&') {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Kind, type_name};

    fn kind(ty: &str) -> Kind {
        Kind::of(&syn::parse_str(ty).unwrap())
    }

    #[test]
    fn kinds_by_syntax() {
        assert_eq!(kind("String"), Kind::Text);
        assert_eq!(kind("std::string::String"), Kind::Text);
        assert_eq!(kind("Option<String>"), Kind::Text);
        assert_eq!(kind("elicit_core::SecretString"), Kind::Secret);
        assert_eq!(kind("Option<SecretString>"), Kind::Secret);
        assert_eq!(kind("u8"), Kind::Int(Some((0, 255))));
        assert_eq!(kind("core::primitive::i8"), Kind::Int(Some((-128, 127))));
        assert_eq!(kind("usize"), Kind::Int(None));
        assert_eq!(
            kind("std::option::Option<f32>"),
            Kind::Float { single: true }
        );
        assert_eq!(kind("Option<bool>"), Kind::Bool);
        assert_eq!(kind("Vec<Size>"), Kind::MultiSelect);
        assert_eq!(kind("std::collections::BTreeSet<Size>"), Kind::MultiSelect);
        for unknown in [
            "Size",
            "my::u8",
            "::u8",
            "Days",
            "HashMap<String, String>",
            "(u8, u8)",
        ] {
            assert_eq!(kind(unknown), Kind::Unknown, "{unknown}");
        }
    }

    #[test]
    fn type_names_read_as_written() {
        let name = |ty: &str| type_name(&syn::parse_str(ty).unwrap());
        assert_eq!(name("Option<bool>"), "Option<bool>");
        assert_eq!(name("std::string::String"), "std::string::String");
        assert_eq!(name("HashMap<String, u8>"), "HashMap<String, u8>");
    }
}
