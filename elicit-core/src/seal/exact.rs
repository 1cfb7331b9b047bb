//! Reading a sealed payload with its numbers exactly as they were written.
//!
//! serde_json writes a float with the fewest digits that read back as the same number,
//! but its default reader (without its `float_roundtrip` feature, a build-wide switch
//! this crate does not turn on for its users) can read such a number one unit off in the
//! last place. A payload with a fraction or an exponent in it is therefore read here:
//! each number's text goes to the standard library's parser, which is exact, and the
//! rest is plain JSON. A payload without one (most states) is read by serde_json as is.

use serde::de::{DeserializeOwned, Error as _};
use serde_json::{Map, Number, Value};

/// How deep a payload may nest (serde_json's own limit).
const MAX_DEPTH: usize = 128;

/// `bytes` read as `T`, every number exactly as written.
pub(crate) fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, serde_json::Error> {
    if !has_fraction(bytes) {
        return serde_json::from_slice(bytes);
    }
    let mut reader = Reader { bytes, at: 0 };
    let value = reader.value(0).map_err(serde_json::Error::custom)?;
    reader.skip_space();
    if reader.at != bytes.len() {
        return Err(serde_json::Error::custom("trailing characters"));
    }
    T::deserialize(value)
}

/// Whether a number outside any string has a fraction or an exponent. Strings (most of a
/// payload: answers, digests) are skipped a vector at a time, to their closing quote.
fn has_fraction(bytes: &[u8]) -> bool {
    let mut at = 0;
    let mut in_number = false;
    while let Some(&b) = bytes.get(at) {
        at += 1;
        match b {
            b'"' => {
                in_number = false;
                loop {
                    let Some(i) = bytes
                        .get(at..)
                        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                    else {
                        return false;
                    };
                    // Past the quote, or past a backslash and the byte it escapes.
                    let quote = bytes[at + i] == b'"';
                    at += i + if quote { 1 } else { 2 };
                    if quote {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => in_number = true,
            b'.' | b'e' | b'E' if in_number => return true,
            _ => in_number = false,
        }
    }
    false
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, b: u8) -> Result<(), &'static str> {
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err("malformed JSON")
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value, &'static str> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err("malformed JSON")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, &'static str> {
        if depth > MAX_DEPTH {
            return Err("nested too deeply");
        }
        match self.peek().ok_or("unexpected end of JSON")? {
            b'n' => self.literal(b"null", Value::Null),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'"' => self.string().map(Value::String),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err("malformed JSON array"),
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut map = Map::new();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                loop {
                    if self.peek() != Some(b'"') {
                        return Err("malformed JSON object");
                    }
                    let key = self.string()?;
                    self.expect(b':')?;
                    map.insert(key, self.value(depth + 1)?);
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Value::Object(map));
                        }
                        _ => return Err("malformed JSON object"),
                    }
                }
            }
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Result<Value, &'static str> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
        // Only ASCII was taken, so the text is UTF-8.
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| "bad number")?;
        if !text.contains(['.', 'e', 'E']) {
            if let Ok(n) = text.parse::<i64>() {
                return Ok(Value::from(n));
            }
            if let Ok(n) = text.parse::<u64>() {
                return Ok(Value::from(n));
            }
        }
        let valid_start = text.starts_with(|c: char| c == '-' || c.is_ascii_digit());
        let f: f64 = text
            .parse()
            .ok()
            .filter(|_| valid_start)
            .ok_or("not a JSON number")?;
        Number::from_f64(f)
            .map(Value::Number)
            .ok_or("number out of range")
    }

    fn string(&mut self) -> Result<String, &'static str> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            let run = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| "not UTF-8")?;
            out.push_str(run);
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escape = *self.bytes.get(self.at).ok_or("unexpected end of JSON")?;
                    self.at += 1;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err("bad escape in a JSON string"),
                    });
                }
                _ => return Err("unterminated JSON string"),
            }
        }
    }

    /// The character of a `\u` escape (the `\u` read), a surrogate pair taken whole.
    fn unicode_escape(&mut self) -> Result<char, &'static str> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.bytes[self.at..].starts_with(b"\\u") {
                return Err("lone surrogate in a JSON string");
            }
            self.at += 2;
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err("lone surrogate in a JSON string");
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or("lone surrogate in a JSON string")
    }

    fn hex4(&mut self) -> Result<u32, &'static str> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .ok_or("short \\u escape")?;
        let text = std::str::from_utf8(digits).map_err(|_| "bad \\u escape")?;
        let code = u32::from_str_radix(text, 16).map_err(|_| "bad \\u escape")?;
        self.at += 4;
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{from_slice, has_fraction};

    #[test]
    fn numbers_come_back_exactly_and_the_rest_as_serde_json_reads_it() {
        let value = json!({
            "n": [2.2222220222222225e27, 0.1, 1e-300, f64::MAX, 5e-324, -0.5, 1.5e300],
            "i": [0, -1, i64::MIN, u64::MAX, 12345678901234567u64],
            "s": "a \"quoted\" \\ line\nbreak, tab\t, é, 😀, \u{1}, 3.5e7",
            "b": [true, false, null],
            "o": {"deep": [[{}], []], "": 1.25}
        });
        let text = serde_json::to_vec(&value).unwrap();
        let back: Value = from_slice(&text).unwrap();
        assert_eq!(back, value);
        for (a, b) in back["n"]
            .as_array()
            .unwrap()
            .iter()
            .zip(value["n"].as_array().unwrap())
        {
            assert_eq!(a.as_f64().unwrap().to_bits(), b.as_f64().unwrap().to_bits());
        }
        // Typed payloads too.
        let (x, s): (f64, String) = from_slice(b"[2.2222220222222225e27, \"1.5\"]").unwrap();
        assert_eq!((x, s.as_str()), (2.2222220222222225e27, "1.5"));
    }

    #[test]
    fn only_numbers_outside_strings_count() {
        assert!(!has_fraction(br#"{"a": "1.5", "b\"2.5": 3, "e": -7}"#));
        assert!(has_fraction(br#"{"a": "x", "b": -7e3}"#));
        assert!(has_fraction(br#"[1, 0.5]"#));
        // Escapes, an escaped backslash before a closing quote, strings left open.
        assert!(has_fraction(br#"["a\\", 2.5]"#));
        assert!(!has_fraction(br#"["a\", 2.5]"#));
        assert!(!has_fraction(br#"["a\"#));
        assert!(!has_fraction(b"[\"1.5"));
        assert!(!has_fraction(b""));
    }

    #[test]
    fn malformed_text_is_an_error_not_a_panic() {
        for bad in [
            &b"[1.5"[..],
            b"[1.5,]",
            b"{\"a\" 1.5}",
            b"[1.5] x",
            b"[\"\\ud800\", 1.5]",
            b"[\"\\u12\", 1.5]",
            b"[1.5.5]",
            b"[.5]",
            b"[1e999]",
            b"[\"\xff\", 1.5]",
            b"[tru, 1.5]",
        ] {
            assert!(
                from_slice::<Value>(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        let deep = format!("{}1.5{}", "[".repeat(200), "]".repeat(200));
        assert!(from_slice::<Value>(deep.as_bytes()).is_err());
    }
}
