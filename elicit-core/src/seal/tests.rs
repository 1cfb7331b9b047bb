//! The seal module's tests: the cipher against RFC 8452, the token format, keys and
//! bindings.

use aes_gcm_siv::Nonce;
use aes_gcm_siv::aead::AeadInOut;

use super::sealer::{NONCE_LEN, TAG_LEN, TIMES_LEN, aad, sealed_len};
use super::*;
use serde_json::json;

fn sealer() -> Sealer {
    Sealer::new(Keyring::new("k1", Key::generate()).unwrap())
}

fn binding() -> Binding {
    Binding::new("alice", "tools/call", "book", &json!({"a": 1, "b": [2]}))
}

/// The token with the character at `i` replaced by another base64url character.
fn flip(token: &str, i: usize) -> String {
    let mut bytes = token.as_bytes().to_vec();
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The cipher is AES-256-GCM-SIV: it gives the output of RFC 8452's test vectors
/// (appendix C.2, with and without associated data).
#[test]
fn the_cipher_is_aes_256_gcm_siv() {
    let key = Key::from_bytes(std::array::from_fn(|i| u8::from(i == 0)));
    let nonce: [u8; NONCE_LEN] = std::array::from_fn(|i| if i == 0 { 3 } else { 0 });
    for (aad, plain, sealed) in [
        ("", "", "07f5f4169bbf55a8400cd47ea6fd400f"),
        (
            "",
            "0100000000000000",
            "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28",
        ),
        (
            "",
            "0100000000000000000000000000000002000000000000000000000000000000",
            "4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027f\
             e819e63abcd020b006a976397632eb5d",
        ),
        (
            "01",
            "0200000000000000",
            "1de22967237a813291213f267e3b452f02d01ae33e4ec854",
        ),
    ] {
        let mut buf = hex(plain);
        let tag = key
            .cipher()
            .encrypt_inout_detached(&Nonce::from(nonce), &hex(aad), (&mut buf[..]).into())
            .unwrap();
        buf.extend_from_slice(&tag);
        assert_eq!(buf, hex(&sealed.replace(' ', "")), "{plain}");
    }
}

/// The token format does not change: a token sealed with a fixed key, nonce, time
/// and payload is byte for byte the one OpenSSL's AES-256-GCM-SIV makes from the
/// same parts as the module's documentation lays them out, and it opens; so are the
/// tags at payload lengths around the cipher's 16-byte blocks.
#[test]
fn tokens_keep_their_format() {
    let key = Key::from_bytes(std::array::from_fn(|i| i as u8));
    let s = Sealer::new(Keyring::new("k1", key).unwrap());
    let fixed = |n: &mut [u8]| {
        for (i, b) in n.iter_mut().enumerate() {
            *b = 0xa0 + i as u8;
        }
        Ok(())
    };
    let now = 1_700_000_000;
    let known =
        "v4.k1.oKGio6SlpqeoqaqrkTbOyG_b0-aBKJ2ufNHfRUxMaFFZmD_G-jKvjQlxi0UR36oL1fkXWrdeQzxfxLmW";
    let payload = json!({"s": "é", "x": 1});
    assert_eq!(
        s.seal_with(&binding(), &payload, now, fixed).unwrap(),
        known
    );
    assert_eq!(s.open_at::<Value>(&binding(), known, now).unwrap(), payload);
    // A token of the XChaCha20-Poly1305 format (`v3`) is refused, not misread.
    let v3 = "v3.k1.oKGio6SlpqeoqaqrrK2ur7CxsrO0tba3RewKHdIOVaxhby2JFGNXRECI5w6QN-b7bmKxxSQK3EvTKGJBJEvH_SfRXvBRhzeM";
    assert!(matches!(
        s.open_at::<Value>(&binding(), v3, now),
        Err(SealError::Malformed("unknown version"))
    ));
    for (len, tag) in [
        (0, "dj-1itSlOocveBvAxr74cQ"),
        (1, "_-354zxdZj-xCbtwlaS0Eg"),
        (15, "crFuA1GMfRCSRwQHe7FhQg"),
        (16, "Dr8IhmSBzdssWjCgE60w-w"),
        (17, "fd5hn8G5VwjeUXET7RysOQ"),
        (63, "0GJKKlPolC1CoBywE-3V_g"),
        (64, "4lzZeXv1Tp1nEN3Nh9EgSg"),
        (65, "MRuIFJLnOa2hScRfQf63GA"),
        (300, "8q1rvnRBStJgFpoSSxUT-w"),
        (4096, "b33-WRId1PwkgFYIygm7rw"),
    ] {
        let payload = json!({"s": "y".repeat(len)});
        let token = s.seal_with(&binding(), &payload, now, fixed).unwrap();
        let json = serde_json::to_vec(&payload).unwrap();
        assert_eq!(token.len(), sealed_len(2, TIMES_LEN + json.len()), "{len}");
        let body = URL_SAFE_NO_PAD.decode(&token["v4.k1.".len()..]).unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(&body[body.len() - TAG_LEN..]),
            tag,
            "{len}"
        );
        assert_eq!(
            s.open_at::<Value>(&binding(), &token, now).unwrap(),
            payload
        );
    }
}

/// Sealed by a replica whose clock runs ahead: opens within the skew, is refused
/// beyond it, and expires by the time it names.
#[test]
fn times_of_sealing_from_the_future() {
    let s = sealer().with_ttl(Duration::from_secs(600));
    let now = 1_700_000_000;
    let skew = CLOCK_SKEW.as_secs();
    let ahead = s.seal_at(&binding(), &1, now + skew).unwrap();
    assert_eq!(s.open_at::<u32>(&binding(), &ahead, now).unwrap(), 1);
    let too_far = s.seal_at(&binding(), &1, now + skew + 1).unwrap();
    let err = s.open_at::<u32>(&binding(), &too_far, now).unwrap_err();
    assert!(
        matches!(err, SealError::FromTheFuture { issued_at } if issued_at == now + skew + 1),
        "{err:?}"
    );
    assert!(err.to_string().contains("issued in the future"), "{err}");
    // A wider allowance takes it; the expiry is the sealer's time plus the TTL.
    let lenient = s.clone().with_clock_skew(Duration::from_secs(skew + 1));
    assert_eq!(
        lenient.open_at::<u32>(&binding(), &too_far, now).unwrap(),
        1
    );
    assert!(matches!(
        lenient.open_at::<u32>(&binding(), &too_far, now + skew + 1 + 600),
        Err(SealError::Expired { .. })
    ));
}

/// The associated data is the version, the key id and the binding's parts, each
/// length-prefixed, exactly as the module's documentation says.
#[test]
fn associated_data_layout() {
    let b = Binding::new("al", "tools/call", "book", &json!({"b": [2], "a": 1}));
    let mut want = b"v4.k1.".to_vec();
    for part in ["al", "tools/call", "book", r#"{"a":1,"b":[2]}"#] {
        want.extend_from_slice(&(part.len() as u64).to_be_bytes());
        want.extend_from_slice(part.as_bytes());
    }
    assert_eq!(aad("k1", &b), want);
    // Long arguments: the same layout.
    let text = "x".repeat(600);
    let long = Binding::new("al", "tools/call", "book", &json!({ "t": text }));
    let mut want = b"v4.k1.".to_vec();
    for part in ["al", "tools/call", "book", &format!(r#"{{"t":"{text}"}}"#)] {
        want.extend_from_slice(&(part.len() as u64).to_be_bytes());
        want.extend_from_slice(part.as_bytes());
    }
    assert_eq!(aad("k1", &long), want);
    assert_eq!(
        (b.principal(), b.method(), b.name(), b.arguments()),
        ("al", "tools/call", "book", r#"{"a":1,"b":[2]}"#)
    );
    // No two bindings meet by concatenation.
    assert_ne!(
        Binding::new("ab", "c", "d", &json!({})),
        Binding::new("a", "bc", "d", &json!({}))
    );
    let debug = format!("{b:?}");
    assert!(
        debug.contains("arguments_len: 15") && !debug.contains("\"a\""),
        "{debug}"
    );
}

#[test]
fn roundtrip() {
    let s = sealer();
    let t = s
        .seal(&binding(), &json!({"x": "é", "email": "alice@example.com"}))
        .unwrap();
    assert!(t.starts_with("v4.k1."));
    assert!(t.len() <= MAX_TOKEN_LEN);
    let v: Value = s.open(&binding(), &t).unwrap();
    assert_eq!(v, json!({"x": "é", "email": "alice@example.com"}));
    // Encrypted, not just signed: nothing of the payload shows.
    let body = URL_SAFE_NO_PAD
        .decode(t.rsplit('.').next().unwrap())
        .unwrap();
    assert!(!body.windows(5).any(|w| w == b"alice"));
    // Typed payloads too, and two seals of the same payload differ (random nonce).
    let u = s.seal(&binding(), &(3u32, "x")).unwrap();
    assert_eq!(
        s.open::<(u32, String)>(&binding(), &u).unwrap(),
        (3, "x".to_owned())
    );
    assert_ne!(
        s.seal(&binding(), &1).unwrap(),
        s.seal(&binding(), &1).unwrap()
    );
}

#[test]
fn numbers_come_back_exactly() {
    // Found by the `wizard_state` fuzz target: without serde_json's
    // `float_roundtrip`, this one read back one unit off in the last place.
    let s = sealer();
    for x in [2.2222220222222225e27, 0.1, 1e-300, f64::MAX, 5e-324] {
        let t = s.seal(&binding(), &json!({ "n": x })).unwrap();
        let v: Value = s.open(&binding(), &t).unwrap();
        assert_eq!(v["n"].as_f64(), Some(x), "{x:e}");
    }
}

#[test]
fn argument_order_does_not_matter() {
    let a: Value = serde_json::from_str(r#"{"b":[2],"a":1}"#).unwrap();
    assert_eq!(Binding::new("alice", "tools/call", "book", &a), binding());
    let x: Value = serde_json::from_str(r#"{"z":{"q":1,"p":[{"d":4,"c":3}]},"y":null}"#).unwrap();
    let y: Value = serde_json::from_str(r#"{"y":null,"z":{"p":[{"c":3,"d":4}],"q":1}}"#).unwrap();
    let bind = |args: &Value| Binding::new("", "tools/call", "t", args);
    assert_eq!(bind(&x), bind(&y));
    // Array order does matter.
    assert_ne!(bind(&json!([1, 2])), bind(&json!([2, 1])));
}

/// With serde_json's sorted maps (no `preserve_order`), the canonical form is what
/// serde_json writes.
#[test]
fn canonical_form_is_serde_json_output() {
    let v = json!({"é": "\"q\"\n", "b": [1, 2.5, -3, true, null, {"y": {}, "x": []}], "a": 1e300});
    let mut out = Vec::new();
    canonical_json(&v, &mut out);
    let mut probe = serde_json::Map::new();
    probe.insert("b".into(), Value::Null);
    probe.insert("a".into(), Value::Null);
    let sorted = probe.keys().next().map(String::as_str) == Some("a");
    if sorted {
        assert_eq!(out, serde_json::to_vec(&v).unwrap());
    }
    let back: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(back, v);
}

#[test]
fn any_changed_character_is_refused() {
    let s = sealer();
    let t = s.seal(&binding(), &json!({"x": 1})).unwrap();
    for i in 0..t.len() {
        let changed = flip(&t, i);
        if changed == t {
            continue;
        }
        assert!(
            s.open::<Value>(&binding(), &changed).is_err(),
            "position {i}"
        );
    }
}

#[test]
fn tampering_each_part() {
    let old = Key::generate();
    let ring = Keyring::new("k2", Key::generate())
        .unwrap()
        .with_previous("k1", old.clone())
        .unwrap();
    let s = Sealer::new(ring);
    let t = s.seal(&binding(), &json!({"x": 1})).unwrap();
    let body = t.strip_prefix("v4.k2.").unwrap();

    // The version.
    for v in ["v1", "v2", "v3", "V4", "v5", ""] {
        assert!(matches!(
            s.open::<Value>(&binding(), &format!("{v}.k2.{body}")),
            Err(SealError::Malformed(_))
        ));
    }
    // The key id: unknown, or another key of the ring.
    assert!(matches!(
        s.open::<Value>(&binding(), &format!("v4.k3.{body}")),
        Err(SealError::UnknownKey(id)) if id == "k3"
    ));
    assert!(matches!(
        s.open::<Value>(&binding(), &format!("v4.k1.{body}")),
        Err(SealError::Tampered)
    ));
    assert!(matches!(
        s.open::<Value>(&binding(), &format!("v4.k2!.{body}")),
        Err(SealError::Malformed(_))
    ));
    // The nonce, the ciphertext and the tag (the last character can carry unused
    // bits, so stay before it).
    let start = "v4.k2.".len();
    for i in [start, start + 20, start + 40, start + 60, t.len() - 2] {
        assert!(
            matches!(
                s.open::<Value>(&binding(), &flip(&t, i)),
                Err(SealError::Tampered)
            ),
            "position {i}"
        );
    }
    // Cut short, or extended.
    assert!(s.open::<Value>(&binding(), &t[..t.len() - 4]).is_err());
    assert!(s.open::<Value>(&binding(), &format!("{t}AAAA")).is_err());
    assert!(s.open::<Value>(&binding(), &format!("{t}.x")).is_err());
    // Untouched, it opens.
    assert_eq!(s.open::<Value>(&binding(), &t).unwrap(), json!({"x": 1}));
}

#[test]
fn other_bindings_are_refused() {
    let s = sealer();
    let t = s.seal(&binding(), &json!(1)).unwrap();
    for other in [
        Binding::new("bob", "tools/call", "book", &json!({"a": 1, "b": [2]})),
        Binding::new("", "tools/call", "book", &json!({"a": 1, "b": [2]})),
        Binding::new("alice", "prompts/get", "book", &json!({"a": 1, "b": [2]})),
        Binding::new("alice", "tools/call", "pay", &json!({"a": 1, "b": [2]})),
        Binding::new("alice", "tools/call", "book", &json!({"a": 2, "b": [2]})),
        Binding::new(
            "alice",
            "tools/call",
            "book",
            &json!({"a": 1, "b": [2], "c": 0}),
        ),
        Binding::new("alice", "tools/call", "book", &json!({"a": 1})),
        Binding::new("alice", "tools/call", "book", &json!({"a": 1.0, "b": [2]})),
        // Concatenation cannot forge a binding.
        Binding::new("alicetools/call", "", "book", &json!({"a": 1, "b": [2]})),
        Binding::new("alic", "etools/call", "book", &json!({"a": 1, "b": [2]})),
    ] {
        assert!(
            matches!(s.open::<Value>(&other, &t), Err(SealError::Tampered)),
            "{other:?}"
        );
    }
}

#[test]
fn expiry() {
    let s = sealer().with_ttl(Duration::from_secs(60));
    let t = s.seal_at(&binding(), &json!(1), 1000).unwrap();
    assert!(s.open_at::<Value>(&binding(), &t, 1000).is_ok());
    assert!(s.open_at::<Value>(&binding(), &t, 1059).is_ok());
    for late in [1060, 5000, u64::MAX] {
        assert!(matches!(
            s.open_at::<Value>(&binding(), &t, late),
            Err(SealError::Expired { expired_at: 1060 })
        ));
    }
    // The real clock: a token sealed in 1970 is long expired; a fresh one is not.
    assert!(matches!(
        s.open::<Value>(&binding(), &t),
        Err(SealError::Expired { .. })
    ));
    assert!(
        s.open::<Value>(&binding(), &s.seal(&binding(), &1).unwrap())
            .is_ok()
    );
    // The expiry is authenticated: another sealer's TTL does not matter.
    let long = Sealer::new((*s.keyring).clone()).with_ttl(Duration::from_secs(3600));
    assert!(long.open_at::<Value>(&binding(), &t, 1060).is_err());
    assert_eq!(sealer().ttl, STATE_TTL);
}

#[test]
fn foreign_keys_are_refused() {
    let t = sealer().seal(&binding(), &json!(1)).unwrap();
    // Same id, other key.
    assert!(matches!(
        sealer().open::<Value>(&binding(), &t),
        Err(SealError::Tampered)
    ));
    // Unknown id.
    let other = Sealer::new(Keyring::new("k9", Key::generate()).unwrap());
    let err = other.open::<Value>(&binding(), &t).unwrap_err();
    assert!(matches!(&err, SealError::UnknownKey(id) if id == "k1"));
    assert_eq!(
        err.to_string(),
        "sealed with key \"k1\", which this server does not have (foreign or retired key)"
    );
}

#[test]
fn rotation() {
    let old = Key::generate();
    let before = Sealer::new(Keyring::new("k1", old.clone()).unwrap());
    let t = before.seal(&binding(), &json!(1)).unwrap();
    let ring = Keyring::new("k2", Key::generate())
        .unwrap()
        .with_previous("k1", old)
        .unwrap();
    let after = Sealer::new(ring.clone());
    assert_eq!(after.open::<Value>(&binding(), &t).unwrap(), json!(1));
    let fresh = after.seal(&binding(), &json!(2)).unwrap();
    assert!(fresh.starts_with("v4.k2."));
    assert_eq!(after.open::<Value>(&binding(), &fresh).unwrap(), json!(2));
    // The old keyring cannot open new tokens; after retiring k1 old tokens fail.
    assert!(matches!(
        before.open::<Value>(&binding(), &fresh),
        Err(SealError::UnknownKey(_))
    ));
    let (id, key) = ring.current();
    let retired = Sealer::new(Keyring::new(id, key.clone()).unwrap());
    assert!(matches!(
        retired.open::<Value>(&binding(), &t),
        Err(SealError::UnknownKey(id)) if id == "k1"
    ));
    let ids: Vec<&str> = ring.keys.iter().map(|(id, _)| id.as_ref()).collect();
    assert_eq!(ids, ["k2", "k1"]);
}

#[test]
fn keys_and_ids() {
    let hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789ABCDEF";
    let k: Key = hex.parse().unwrap();
    assert_eq!(k.0[1], 0x23);
    assert_eq!(k.0[31], 0xef);
    let bytes: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(250));
    let key = Key::from_bytes(bytes);
    let std_b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    assert!(std_b64.contains('+') || std_b64.contains('/'));
    for text in [
        key.encoded(),
        std_b64.clone(),
        std_b64.trim_end_matches('=').to_owned(),
        format!("{}=", key.encoded()),
    ] {
        assert_eq!(text.parse::<Key>().unwrap(), key, "{text}");
    }
    for bad in [
        "",
        "AAAA",
        &hex[..62],
        &format!("{hex}00"),
        "zz23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    ] {
        assert_eq!(
            bad.parse::<Key>().unwrap_err().to_string(),
            BAD_KEY,
            "{bad}"
        );
    }
    assert_eq!(format!("{key:?}"), "Key(..)");
    assert!(!format!("{:?}", Keyring::new("k1", key.clone()).unwrap()).contains(&key.encoded()));
    assert_ne!(Key::generate(), Key::generate());

    for good in ["a", "k-1_B", "0123456789abcdef"] {
        assert_eq!(good.parse::<KeyId>().unwrap(), good);
        assert_eq!(good.parse::<KeyId>().unwrap().to_string(), good);
    }
    for bad in ["", "0123456789abcdefg", "a.b", "a b", "é", "a:b"] {
        assert!(bad.parse::<KeyId>().is_err(), "{bad}");
        assert!(Keyring::new(bad, Key::generate()).is_err());
    }
}

const BAD_KEY: &str = "expected `id:key` with a key of 32 bytes in base64, or 64 hex digits";
const NO_KEY: &str = "no key given: expected `id:key[,id:key..]`";

/// A key of all zero bytes (a placeholder left in a config) is refused wherever a key
/// comes in: text, a keyring, a previous key.
#[test]
fn an_all_zero_key_is_refused() {
    let zero = "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let e = zero.parse::<Keyring>().unwrap_err();
    assert!(e.to_string().contains("all zero bytes"), "{e}");
    assert!("0".repeat(64).parse::<Key>().is_err());
    assert!(Keyring::new("k1", Key::from_bytes([0; 32])).is_err());
    let ring = Keyring::new("k2", Key::generate()).unwrap();
    assert!(ring.with_previous("k1", Key::from_bytes([0; 32])).is_err());
    assert!(Keyring::new("k1", Key::from_bytes([1; 32])).is_ok());
}

#[test]
fn keyring_text_form() {
    let ring = Keyring::new("k2", Key::generate())
        .unwrap()
        .with_previous("k1", Key::generate())
        .unwrap();
    let back: Keyring = ring.to_text().parse().unwrap();
    assert_eq!(back.current().0, "k2");
    assert_eq!(back.keys[1].1, ring.keys[1].1);
    let file = format!(
        "# sealing keys, current first\n{}\n\n  k0 : {}  \n  # old: k9, retired\n",
        ring.to_text(),
        Key::generate().encoded()
    );
    let from_file: Keyring = file.parse().unwrap();
    assert_eq!(from_file.keys.len(), 3);
    let hex: Keyring = "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        .parse()
        .unwrap();
    assert_eq!(hex.keys[0].1.0[1], 0x23);
    for (bad, err) in [
        ("", NO_KEY),
        (" , \n# only a comment", NO_KEY),
        ("k1", BAD_KEY),
        ("k1:short", BAD_KEY),
        ("bad id!:AAAA", BAD_KEY),
        (
            "bad id!:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "key id \"bad id!\" must be 1 to 16 letters, digits, '_' or '-'",
        ),
        (
            "a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef,a:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "key id \"a\" is used twice",
        ),
    ] {
        let e = bad.parse::<Keyring>().unwrap_err();
        assert!(matches!(e, SealError::Key(_)), "{bad}");
        assert_eq!(e.to_string(), err, "{bad}");
    }
}

#[test]
fn payload_errors_do_not_quote_the_payload() {
    let s = sealer();
    let t = s
        .seal(&binding(), &json!({"secret": "alice@example.com"}))
        .unwrap();
    let err = s.open::<u32>(&binding(), &t).unwrap_err();
    assert!(matches!(err, SealError::Payload(_)));
    assert!(!err.to_string().contains("alice"));
    assert!(std::error::Error::source(&err).is_some());
}

#[test]
fn size_limit() {
    let s = sealer();
    // The computed length is the real one.
    for n in 0..40 {
        let t = s.seal(&binding(), &"x".repeat(n)).unwrap();
        assert_eq!(t.len(), sealed_len(2, TIMES_LEN + n + 2), "{n}");
    }
    // The largest payload that fits seals and opens; one byte more does not seal.
    let overhead = sealed_len(2, TIMES_LEN + 2);
    let mut n = (MAX_TOKEN_LEN - overhead) * 3 / 4 - 10;
    assert!(sealed_len(2, TIMES_LEN + n + 2) <= MAX_TOKEN_LEN);
    while sealed_len(2, TIMES_LEN + n + 3) <= MAX_TOKEN_LEN {
        n += 1;
    }
    let t = s.seal(&binding(), &"x".repeat(n)).unwrap();
    assert!(t.len() <= MAX_TOKEN_LEN);
    assert_eq!(s.open::<String>(&binding(), &t).unwrap().len(), n);
    assert!(matches!(
        s.seal(&binding(), &"x".repeat(n + 1)),
        Err(SealError::TooLarge { .. })
    ));
    // Over the limit is refused before anything else is looked at.
    let long = "v4.k1.".to_owned() + &"A".repeat(MAX_TOKEN_LEN);
    assert!(matches!(
        s.open::<Value>(&binding(), &long),
        Err(SealError::Malformed("too long"))
    ));
    assert!(matches!(
        s.open::<Value>(&binding(), &"é".repeat(MAX_TOKEN_LEN)),
        Err(SealError::Malformed("too long"))
    ));
}

#[test]
fn garbage_never_panics() {
    let s = sealer();
    for t in [
        "",
        ".",
        "..",
        "...",
        "v4",
        "v4.",
        "v4.k1",
        "v4.k1.",
        "v4.k1.AAAA",
        "v4.k1.!!!!",
        "v4..AAAA",
        "v4.k1.AAAA",
        "v4.k1.A",
        "v4.k1.====",
        "v4.é.AAAA",
        "v4.k1.é",
        "\0",
        "v4.k1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        assert!(s.open::<Value>(&binding(), t).is_err(), "{t:?}");
    }
    let mut buf = [0u8; 256];
    for n in 0..3000 {
        getrandom::fill(&mut buf).unwrap();
        let len = usize::from(buf[0]);
        let junk = String::from_utf8_lossy(&buf[1..1 + len.min(255)]).into_owned();
        assert!(s.open::<Value>(&binding(), &junk).is_err());
        // Well-formed heads with random bodies reach the cipher.
        let body = URL_SAFE_NO_PAD.encode(&buf[..len.max(NONCE_LEN + TAG_LEN + TIMES_LEN)]);
        let kid = if n % 2 == 0 { "k1" } else { "kx" };
        assert!(
            s.open::<Value>(&binding(), &format!("v4.{kid}.{body}"))
                .is_err()
        );
    }
}

#[test]
fn messages() {
    for (e, text) in [
        (
            SealError::Malformed("too long"),
            "not a sealed state (too long)",
        ),
        (
            SealError::Tampered,
            "the state was altered, or was issued for another user, tool or arguments",
        ),
        (
            SealError::Expired { expired_at: 5 },
            "the state expired (at 5 s since the Unix epoch)",
        ),
    ] {
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn random_ids_differ() {
    assert_ne!(random_id(), random_id());
    assert_eq!(random_id().len(), 22);
}
