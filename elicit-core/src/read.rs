//! Support for `#[elicit(deserialize)]`: the pieces of the `Deserialize` impls the derive
//! writes, and the direct reading of a clean answer's values.
//!
//! A type with `#[elicit(deserialize)]` gets its `Deserialize` impl from the derive, so
//! the derive knows exactly how it reads an answer; a clean answer (see
//! `parse::clean`) can then be built straight from the `Value`s, with no serde
//! machinery in between, and agree with what `Deserialize` would have made of it.
//! Field types the derive knows nothing of are read by their own `Deserialize`.

#![allow(missing_docs)]

use std::collections::{BTreeSet, HashSet};
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, EnumAccess, VariantAccess, Visitor};
use serde_json::Value;

use crate::Options;

/// A field type read straight from a clean answer's value, exactly as its
/// `Deserialize` reads that value from a `serde_json::Value` (a test holds each impl
/// to it).
pub trait FromClean: Sized {
    /// The value, or `None` where `Deserialize` would fail.
    fn from_clean(value: &Value) -> Option<Self>;

    /// [`from_clean`](Self::from_clean) of an owned value: strings move instead of
    /// being copied.
    #[inline]
    fn from_clean_owned(value: Value) -> Option<Self> {
        Self::from_clean(&value)
    }

    /// The value of a field left out of the answer: `None` (an error) except for
    /// `Option`, which is `None` then.
    #[inline]
    fn missing() -> Option<Self> {
        None
    }
}

impl FromClean for String {
    #[inline]
    fn from_clean(value: &Value) -> Option<Self> {
        match value {
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }

    #[inline]
    fn from_clean_owned(value: Value) -> Option<Self> {
        match value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl FromClean for bool {
    #[inline]
    fn from_clean(value: &Value) -> Option<Self> {
        value.as_bool()
    }
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl FromClean for $t {
            #[inline]
            fn from_clean(value: &Value) -> Option<Self> {
                // serde_json hands a whole number over as `u64` when it is not
                // negative, as `i64` otherwise; a float is the wrong type for them.
                let Value::Number(n) = value else { return None };
                match (n.as_u64(), n.as_i64()) {
                    (Some(u), _) => <$t>::try_from(u).ok(),
                    (None, Some(i)) => <$t>::try_from(i).ok(),
                    (None, None) => None,
                }
            }
        }
    )*};
}

whole_numbers!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl FromClean for $t {
            #[inline]
            fn from_clean(value: &Value) -> Option<Self> {
                // As serde's visitors convert: each kind of number cast on its own (a
                // `u64` straight to `f32`, not through `f64`).
                let Value::Number(n) = value else { return None };
                match (n.as_u64(), n.as_i64(), n.as_f64()) {
                    (Some(u), _, _) => Some(u as $t),
                    (None, Some(i), _) => Some(i as $t),
                    (None, None, Some(f)) => Some(f as $t),
                    (None, None, None) => None,
                }
            }
        }
    )*};
}

floats!(f32, f64);

impl<T: FromClean> FromClean for Option<T> {
    #[inline]
    fn from_clean(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            other => T::from_clean(other).map(Some),
        }
    }

    #[inline]
    fn from_clean_owned(value: Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            other => T::from_clean_owned(other).map(Some),
        }
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(None)
    }
}

/// A multi-select's list: each item read as its enum reads it, collected.
macro_rules! lists {
    ($(impl<$($g:ident),*> for $t:ty where [$($bound:tt)*])*) => {$(
        impl<$($g),*> FromClean for $t where $($bound)* {
            #[inline]
            fn from_clean(value: &Value) -> Option<Self> {
                match value {
                    Value::Array(items) => items.iter().map(T::from_clean).collect(),
                    _ => None,
                }
            }

            #[inline]
            fn from_clean_owned(value: Value) -> Option<Self> {
                match value {
                    Value::Array(items) => items.into_iter().map(T::from_clean_owned).collect(),
                    _ => None,
                }
            }
        }
    )*};
}

lists! {
    impl<T> for Vec<T> where [T: FromClean + Options]
    impl<T> for BTreeSet<T> where [T: FromClean + Options + Ord]
    impl<T, S> for HashSet<T, S> where [T: FromClean + Options + Eq + Hash, S: BuildHasher + Default]
}

/// Picks how the derive reads one field of a clean answer: directly for a
/// [`FromClean`] type, by its own `Deserialize` otherwise (an enum whose `Deserialize`
/// is serde's, a type the derive knows nothing of). The generated code calls
/// `(&Probe::<T>::new()).read(value)`; method lookup takes [`ReadDirect`] where `T`
/// has it and falls back to [`ReadSerde`] one auto-reference further.
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Probe<T> {
    #[inline]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The direct reading (see [`Probe`]).
pub trait ReadDirect<T> {
    fn read(&self, value: &Value) -> Option<T>;
    fn read_owned(&self, value: Value) -> Result<T, serde_json::Error>;
    fn missing(&self) -> Option<T>;
}

impl<T: FromClean> ReadDirect<T> for Probe<T> {
    #[inline]
    fn read(&self, value: &Value) -> Option<T> {
        T::from_clean(value)
    }

    #[inline]
    fn read_owned(&self, value: Value) -> Result<T, serde_json::Error> {
        // A clean value always reads; the error is only what a broken promise would get.
        T::from_clean_owned(value)
            .ok_or_else(|| de::Error::custom("a value checked as clean did not read"))
    }

    #[inline]
    fn missing(&self) -> Option<T> {
        T::missing()
    }
}

/// The reading by the type's own `Deserialize` (see [`Probe`]).
pub trait ReadSerde<T> {
    fn read(&self, value: &Value) -> Option<T>;
    fn read_owned(&self, value: Value) -> Result<T, serde_json::Error>;
    fn missing(&self) -> Option<T>;
}

impl<T: DeserializeOwned> ReadSerde<T> for &Probe<T> {
    #[inline]
    fn read(&self, value: &Value) -> Option<T> {
        T::deserialize(value).ok()
    }

    #[inline]
    fn read_owned(&self, value: Value) -> Result<T, serde_json::Error> {
        T::deserialize(value)
    }

    #[inline]
    fn missing(&self) -> Option<T> {
        missing_field::<T, serde_json::Error>("").ok()
    }
}

/// What a field left out of the input deserializes as: `None` for an `Option`, the
/// error "missing field" for anything else (as serde's derive does it).
pub fn missing_field<'de, T: de::Deserialize<'de>, E: de::Error>(
    name: &'static str,
) -> Result<T, E> {
    T::deserialize(MissingField {
        name,
        error: PhantomData,
    })
}

struct MissingField<E> {
    name: &'static str,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for MissingField<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.name))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The key of a struct's field: its index among `names`, `None` for a key the struct
/// does not have (an error instead with `deny`, as `deny_unknown_fields` has it).
#[derive(Clone, Copy)]
pub struct FieldKey {
    pub names: &'static [&'static str],
    pub deny: bool,
}

impl<'de> DeserializeSeed<'de> for FieldKey {
    type Value = Option<usize>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldKey {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<usize>, E> {
        match usize::try_from(v).ok().filter(|&i| i < self.names.len()) {
            Some(i) => Ok(Some(i)),
            None if self.deny => Err(E::invalid_value(
                de::Unexpected::Unsigned(v),
                &"a field index",
            )),
            None => Ok(None),
        }
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        match self.names.iter().position(|n| *n == v) {
            Some(i) => Ok(Some(i)),
            None if self.deny => Err(E::unknown_field(v, self.names)),
            None => Ok(None),
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<usize>, E> {
        match std::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) if self.deny => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
            Err(_) => Ok(None),
        }
    }
}

/// The visitor of a unit enum: the variant's index among `names`.
#[derive(Clone, Copy)]
pub struct UnitVariant {
    pub name: &'static str,
    pub names: &'static [&'static str],
}

impl<'de> Visitor<'de> for UnitVariant {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }

    #[inline]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(VariantKey(self.names))?;
        variant.unit_variant()?;
        Ok(index)
    }
}

#[derive(Clone, Copy)]
struct VariantKey(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for VariantKey {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for VariantKey {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<usize, E> {
        usize::try_from(v)
            .ok()
            .filter(|&i| i < self.0.len())
            .ok_or_else(|| {
                E::invalid_value(
                    de::Unexpected::Unsigned(v),
                    &format!("variant index 0 <= i < {}", self.0.len()).as_str(),
                )
            })
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|n| *n == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<usize, E> {
        match std::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every value of the list read directly, borrowed and owned, and by `Deserialize`.
    fn agree<T: FromClean + DeserializeOwned + PartialEq + fmt::Debug>(values: &[Value]) {
        for v in values {
            let by_serde = T::deserialize(v).ok();
            assert_eq!(
                T::from_clean(v),
                by_serde,
                "{v} as {}",
                std::any::type_name::<T>()
            );
            assert_eq!(
                T::from_clean_owned(v.clone()),
                by_serde,
                "{v} owned as {}",
                std::any::type_name::<T>()
            );
        }
    }

    #[test]
    fn direct_reading_agrees_with_deserialize() {
        let numbers = [
            json!(0),
            json!(1),
            json!(-1),
            json!(127),
            json!(128),
            json!(255),
            json!(256),
            json!(-129),
            json!(65_535),
            json!(16_777_217),
            json!(2_147_483_648u64),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(9_007_199_254_740_993u64),
            json!(1.5),
            json!(-0.0),
            json!(1e300),
            json!(3.0),
            json!("3"),
            json!(true),
            json!(null),
            json!([1]),
        ];
        agree::<u8>(&numbers);
        agree::<i8>(&numbers);
        agree::<u16>(&numbers);
        agree::<i16>(&numbers);
        agree::<u32>(&numbers);
        agree::<i32>(&numbers);
        agree::<u64>(&numbers);
        agree::<i64>(&numbers);
        agree::<u128>(&numbers);
        agree::<i128>(&numbers);
        agree::<usize>(&numbers);
        agree::<isize>(&numbers);
        agree::<f32>(&numbers);
        agree::<f64>(&numbers);
        agree::<bool>(&numbers);
        agree::<String>(&numbers);
        agree::<Option<u8>>(&numbers);
        agree::<Option<String>>(&[json!(null), json!("x"), json!(1)]);
        agree::<String>(&[json!(""), json!("ada"), json!("é\u{0}")]);
    }

    #[test]
    fn a_missing_field_is_none_only_for_options() {
        assert_eq!(<Option<u8>>::missing(), Some(None));
        assert_eq!(<u8>::missing(), None);
        assert_eq!(
            missing_field::<Option<u8>, serde_json::Error>("n").ok(),
            Some(None)
        );
        let err = missing_field::<u8, serde_json::Error>("n").unwrap_err();
        assert_eq!(err.to_string(), "missing field `n`");
    }
}
