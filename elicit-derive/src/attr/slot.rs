//! Each key's slot while an attribute is parsed, and the [`Setting`] it holds once set.

use proc_macro2::Span;

use super::keys::Keys;
use crate::ctxt::Ctxt;

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
pub(super) struct Attr<T> {
    attr: &'static str,
    name: &'static str,
    setting: Option<Setting<T>>,
}

impl<T> Attr<T> {
    pub(super) fn none<K: Keys>(key: K) -> Attr<T> {
        Attr {
            attr: K::ATTR,
            name: key.name(),
            setting: None,
        }
    }

    /// Sets the value; `key` and `span` are the spans of the key and of the value.
    pub(super) fn set(&mut self, cx: &mut Ctxt, key: Span, span: Span, value: T) {
        let (attr, name) = (self.attr, self.name);
        // One error, at the second key: a proc macro cannot add a note at the first.
        if self.setting.is_some() {
            cx.error(
                key,
                format!(
                    "duplicate `{name}` in #[{attr}(..)]: `{name}` is already set earlier on the same item; keep one"
                ),
            );
        } else {
            self.setting = Some(Setting { value, key, span });
        }
    }

    pub(super) fn get(self) -> Option<Setting<T>> {
        self.setting
    }

    pub(super) fn value(self) -> Option<T> {
        self.setting.map(|s| s.value)
    }
}

/// A flag's slot: a key written without a value.
pub(super) struct BoolAttr(Attr<()>);

impl BoolAttr {
    pub(super) fn none<K: Keys>(key: K) -> BoolAttr {
        BoolAttr(Attr::none(key))
    }

    pub(super) fn set_true(&mut self, cx: &mut Ctxt, key: Span) {
        self.0.set(cx, key, key, ());
    }

    /// The span of the key, when the flag is set.
    pub(super) fn get(self) -> Option<Span> {
        self.0.get().map(|s| s.key)
    }
}
