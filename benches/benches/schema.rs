//! `requestedSchema` per call: elicit vs rmcp `from_type` vs rmcp's builder vs
//! `schemars::schema_for!`. Every contender except `elicit_call` ends in a `String`
//! of compact JSON, so each row is "from nothing to the bytes sent".

use std::hint::black_box;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use elicit_benches::{Form5, Form20, FormEnums, form_enums_builder, form5_builder, form20_builder};
use elicit_core::{Elicit, Revision};
use rmcp::model::ElicitationSchema;
use schemars::JsonSchema;

fn group<T: Elicit + JsonSchema>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    builder: fn() -> ElicitationSchema,
) {
    g.bench_function("elicit_call", |b| {
        b.iter(|| T::requested_schema(black_box(Revision::V2025_11_25)).unwrap())
    });
    g.bench_function("elicit_to_string", |b| {
        b.iter(|| {
            let s = T::requested_schema(black_box(Revision::V2025_11_25)).unwrap();
            serde_json::to_string(&s).unwrap()
        })
    });
    g.bench_function("rmcp_from_type_to_string", |b| {
        b.iter(|| {
            let s = ElicitationSchema::from_type::<T>().unwrap();
            serde_json::to_string(&s).unwrap()
        })
    });
    g.bench_function("rmcp_builder_to_string", |b| {
        b.iter(|| serde_json::to_string(&black_box(builder)()).unwrap())
    });
    g.bench_function("schemars_schema_for_to_string", |b| {
        b.iter(|| serde_json::to_string(&schemars::schema_for!(T)).unwrap())
    });
}

fn schema(c: &mut Criterion) {
    let mut g = c.benchmark_group("schema/form5");
    group::<Form5>(&mut g, form5_builder);
    g.finish();
    let mut g = c.benchmark_group("schema/form20");
    group::<Form20>(&mut g, form20_builder);
    g.finish();
    let mut g = c.benchmark_group("schema/enums");
    group::<FormEnums>(&mut g, form_enums_builder);
    g.finish();
}

criterion_group!(benches, schema);
criterion_main!(benches);
