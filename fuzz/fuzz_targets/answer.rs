//! Answer parsing and validation: arbitrary bytes as a client's `content` (or as an
//! `action` string and its content), fed to real forms through every public answer
//! entry point, with the entry points checked against each other (see
//! `elicit_fuzz::check_form`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        // The bytes are a `content`.
        let content = (!value.is_null()).then_some(&value);
        elicit_fuzz::for_each_form!(check_form(Some(&value)));
        if content.is_none() {
            elicit_fuzz::for_each_form!(check_form(None));
        }
        for action in ["accept", "decline", "cancel", "reject"] {
            elicit_fuzz::for_each_form!(check_result(action, Some(&value)));
            elicit_fuzz::check_confirm(action, Some(&value));
        }
        // ... or a whole `ElicitResult`.
        elicit_fuzz::for_each_form!(check_whole_result(&value));
        if let Some((action, content)) = elicit_fuzz::split_result(&value) {
            elicit_fuzz::check_confirm(action, content);
        }
    } else {
        // The bytes are an action, a newline, and the content (when it is JSON).
        let (action, rest) = match data.iter().position(|&b| b == b'\n') {
            Some(i) => (&data[..i], &data[i + 1..]),
            None => (data, &[][..]),
        };
        let action = String::from_utf8_lossy(action);
        let content = serde_json::from_slice::<Value>(rest).ok();
        if let Some(c) = &content {
            elicit_fuzz::for_each_form!(check_form(Some(c)));
        }
        elicit_fuzz::for_each_form!(check_result(&action, content.as_ref()));
        elicit_fuzz::check_confirm(&action, content.as_ref());
    }
});
