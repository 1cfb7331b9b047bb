//! Names: serde's `rename_all` rules, so the wire names `ast` computes match what
//! `Deserialize` reads, and the splitting of a name into words with which `check` spots
//! a field that looks like a secret.

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub fn from_str(s: &str) -> Option<RenameRule> {
        Some(match s {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// A struct field (written in snake_case in Rust).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            // serde: camelCase is PascalCase with the first character lowered.
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Pascal => {
                let mut out = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// An enum variant (written in PascalCase in Rust).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake => {
                let mut out = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        out.push('_');
                    }
                    out.push(ch.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

/// Splits an identifier into lowercase words on `_`, `-` and lower-to-upper case changes.
pub fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if ch == '_' || ch == '-' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        let f = "check_alternatives";
        assert_eq!(RenameRule::Camel.apply_to_field(f), "checkAlternatives");
        assert_eq!(RenameRule::Pascal.apply_to_field(f), "CheckAlternatives");
        assert_eq!(
            RenameRule::ScreamingSnake.apply_to_field(f),
            "CHECK_ALTERNATIVES"
        );
        assert_eq!(RenameRule::Kebab.apply_to_field(f), "check-alternatives");
        assert_eq!(
            RenameRule::ScreamingKebab.apply_to_field(f),
            "CHECK-ALTERNATIVES"
        );
    }

    #[test]
    fn variants() {
        let v = "ExtraLarge";
        assert_eq!(RenameRule::Lower.apply_to_variant(v), "extralarge");
        assert_eq!(RenameRule::Camel.apply_to_variant(v), "extraLarge");
        assert_eq!(RenameRule::Snake.apply_to_variant(v), "extra_large");
        assert_eq!(
            RenameRule::ScreamingSnake.apply_to_variant(v),
            "EXTRA_LARGE"
        );
        assert_eq!(RenameRule::Kebab.apply_to_variant(v), "extra-large");
    }

    #[test]
    fn splits_words() {
        assert_eq!(words("api_key"), ["api", "key"]);
        assert_eq!(words("apiKey"), ["api", "key"]);
        assert_eq!(words("creditCardNumber"), ["credit", "card", "number"]);
        assert_eq!(words("PASSWORD"), ["password"]);
        assert_eq!(words("tokens_used"), ["tokens", "used"]);
    }
}
