//! The client side: arbitrary bytes as a server's `requestedSchema` for
//! `elicit_core::client::read_schema`, then answers for `Reply::validated`.
//!
//! The input is a stream of JSON values: the schema, then answers. A schema that is
//! read must be emitted again for every revision it fits, read back to the same
//! fields, and emit the same again; an accepted reply must be an answer the server
//! side's validator takes as it is.
#![no_main]

use elicit_core::FormError;
use elicit_core::client::{Reply, read_schema};
use elicit_core::{Form, Revision, Strictness};
use elicit_fuzz::split_result;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn names(form: &Form) -> Vec<String> {
    form.fields().iter().map(|f| f.name.to_string()).collect()
}

fn check_reply(form: &Form, answer: &Value) {
    // `Reply::validated` validates strictly; what Strict accepts, Lenient takes unchanged.
    let validated = form.validate(Some(answer), Strictness::Strict);
    if let Ok(valid) = &validated {
        let lenient = form
            .validate(Some(answer), Strictness::Lenient)
            .unwrap_or_else(|e| panic!("Lenient refuses what Strict accepts: {e}"));
        assert_eq!(
            &*lenient, &**valid,
            "Lenient reads otherwise what Strict accepts"
        );
    }
    let reply = Reply::validated(form, answer.clone());
    match (&reply, &validated) {
        (Ok(Reply::Accept(map)), Ok(valid)) => {
            let content = Value::Object(map.clone());
            assert_eq!(&content, &**valid, "Reply::validated and validate differ");
            let result =
                serde_json::to_value(reply.as_ref().expect("ok")).expect("a reply serializes");
            let (action, sent) = split_result(&result).expect("our own ElicitResult splits");
            assert_eq!(action, "accept");
            assert_eq!(sent, Some(&content));
            match form.validate(sent, Strictness::Strict) {
                Ok(again) => assert_eq!(&*again, &content, "a reply changes when validated again"),
                Err(e) => panic!("the server refuses the client's own reply {content}: {e}"),
            }
        }
        (Err(e), Err(v)) => {
            assert_eq!(e.to_string(), v.to_string());
            assert!(!e.to_string().is_empty());
            if let elicit_core::AnswerError::Invalid(errors) = e {
                elicit_fuzz::check_errors(form, errors, "client form");
            }
        }
        _ => panic!("Reply::validated gave {reply:?}, validate {validated:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut values = serde_json::Deserializer::from_slice(data)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .take(8);
    let Some(schema) = values.next() else {
        return;
    };
    let form = match read_schema(&schema.to_string()) {
        Ok(form) => form,
        Err(refused) => {
            assert!(!refused.to_string().is_empty());
            assert!(!refused.path.is_empty());
            return;
        }
    };

    for &revision in Revision::ALL {
        match form.requested_schema(revision) {
            Ok(emitted) => {
                let emitted = serde_json::to_string(&emitted).unwrap();
                assert!(emitted.starts_with('{'), "emitted schema is not an object");
                let again = read_schema(&emitted).unwrap_or_else(|e| {
                    panic!("read_schema refuses the schema it read, emitted for {revision}: {e}\n{emitted}")
                });
                assert_eq!(
                    names(&again),
                    names(&form),
                    "other fields after a round trip ({revision})"
                );
                let twice = serde_json::to_string(
                    &again
                        .requested_schema(revision)
                        .expect("the same fields fit the same revision"),
                )
                .unwrap();
                assert_eq!(twice, emitted, "emitting is not stable ({revision})");
            }
            Err(FormError::Unsupported { needs, .. }) => {
                assert!(revision < needs && needs == form.min_revision());
            }
            Err(e) => panic!("a form read from a schema cannot be emitted for {revision}: {e}"),
        }
    }

    let seed = (data.len() as u64).wrapping_mul(0x9e3779b97f4a7c15);
    check_reply(&form, &elicit_fuzz::fill(&form, seed));
    for answer in values {
        check_reply(&form, &answer);
    }
});
