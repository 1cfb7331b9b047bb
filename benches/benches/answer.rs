//! Answer validation + parse: elicit `from_content` vs serde_json alone vs the
//! `jsonschema` crate (validator compiled once, outside the loop, from the very schema
//! elicit emits) followed by serde_json.

use std::borrow::Cow;
use std::hint::black_box;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use elicit_benches::{Form5, Form20, FormEnums, form_enums_answer, form5_answer, form20_answer};
use elicit_core::{Elicit, Revision, Strictness};
use serde_json::Value;

/// The routes on one form.
fn group<T: Elicit>(g: &mut BenchmarkGroup<'_, WallTime>, answer: Value) {
    let schema = serde_json::to_value(T::requested_schema(Revision::V2025_11_25).unwrap()).unwrap();
    // elicit checks `format` (email, uri, date, date-time); so does this validator.
    let with_formats = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let without_formats = jsonschema::options()
        .should_validate_formats(false)
        .build(&schema)
        .unwrap();
    assert!(with_formats.is_valid(&answer));
    T::from_content(Some(&answer)).unwrap();

    // elicit borrows the content, as a server holding the client's result does.
    g.bench_function("elicit_from_content", |b| {
        b.iter(|| T::from_content(Some(black_box(&answer))).unwrap())
    });
    // `from_value` consumes its input: the clone is part of its cost from a borrowed result.
    g.bench_function("serde_from_value_clone", |b| {
        b.iter(|| serde_json::from_value::<T>(black_box(&answer).clone()).unwrap())
    });
    // The same parse without the clone: serde_json deserializing from `&Value`.
    g.bench_function("serde_deserialize_ref", |b| {
        b.iter(|| T::deserialize(black_box(&answer)).unwrap())
    });
    g.bench_function("jsonschema_formats_then_from_value_clone", |b| {
        b.iter(|| {
            let v = black_box(&answer);
            with_formats.validate(v).unwrap();
            serde_json::from_value::<T>(v.clone()).unwrap()
        })
    });
    g.bench_function("jsonschema_no_formats_then_from_value_clone", |b| {
        b.iter(|| {
            let v = black_box(&answer);
            without_formats.validate(v).unwrap();
            serde_json::from_value::<T>(v.clone()).unwrap()
        })
    });
    g.bench_function("clone_only", |b| b.iter(|| black_box(&answer).clone()));
    // elicit's two halves: the validation alone (borrowed result when nothing changes).
    g.bench_function("elicit_validate_only", |b| {
        b.iter(|| {
            let valid = T::form()
                .validate(Some(black_box(&answer)), Strictness::Strict)
                .unwrap();
            matches!(valid, Cow::Borrowed(_))
        })
    });
}

fn answer(c: &mut Criterion) {
    let mut g = c.benchmark_group("answer/form5");
    group::<Form5>(&mut g, form5_answer());
    g.finish();
    let mut g = c.benchmark_group("answer/form20");
    group::<Form20>(&mut g, form20_answer());
    g.finish();
    let mut g = c.benchmark_group("answer/enums");
    group::<FormEnums>(&mut g, form_enums_answer());
    g.finish();
}

criterion_group!(benches, answer);
criterion_main!(benches);
