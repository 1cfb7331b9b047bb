//! What a hostile answer costs: oversized strings, huge lists, deep nesting, a flood of
//! extra keys, oversized wizard state. Each case is timed, and the memory it needs
//! beyond its input (the peak of live heap bytes while it runs, from a counting
//! allocator) is printed once, before the timing.
//!
//! The transports bound what can arrive at all: rmcp's Streamable HTTP server refuses
//! request bodies over 4 MiB (413), its stdio transport drops lines over 16 MiB, and
//! serde_json refuses JSON nested deeper than 128 levels while parsing. The cases below
//! go to those sizes and beyond.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_benches::{Form5, FormEnums, Topping, form5_answer};
use elicit_core::__private::testing::Sealer;
use elicit_core::Elicit;
use elicit_core::seal::{Binding, Keyring};
use serde::Deserialize;
use serde_json::{Value, json};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(live, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f` once and prints the peak heap it used beyond what was live before.
fn report<R>(name: &str, f: impl FnOnce() -> R) -> R {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    let extra = PEAK.load(Relaxed) - before;
    eprintln!("limits/{name}: peak extra heap {} KiB", extra / 1024);
    out
}

/// A multi-select with no item bounds: every item is looked at.
#[derive(Debug, Elicit, Deserialize)]
pub struct Tags {
    /// Any toppings.
    pub tags: Vec<Topping>,
}

/// Form5's answer with one field replaced.
fn form5_with(field: &str, value: Value) -> Value {
    let mut v = form5_answer();
    v[field] = value;
    v
}

fn limits(c: &mut Criterion) {
    const MIB: usize = 1024 * 1024;
    let mut g = c.benchmark_group("limits");
    g.sample_size(10);

    // Strings: 16 MiB where at most 100 characters are allowed (refused; the length is
    // counted once), and 16 MiB as an e-mail address (refused).
    let long = "é".repeat(8 * MIB);
    let name = form5_with("name", Value::String(long.clone()));
    let email = form5_with("email", Value::String(long.clone()));
    for (case, answer) in [
        ("string_16mib_max_length", &name),
        ("string_16mib_email", &email),
    ] {
        let r = report(case, || Form5::from_content(Some(answer)));
        assert!(r.is_err(), "{case}: refused");
        g.bench_function(case, |b| {
            b.iter(|| Form5::from_content(Some(black_box(answer))).is_err())
        });
    }

    // Lists: a million items where at most two are allowed (refused at the count), and
    // a million made-up or repeated values in an unbounded multi-select (refused with at
    // most `MAX_ITEM_PROBLEMS` reports).
    let million = 1_000_000;
    let bounded = json!({
        "size": "Small", "buckets": 1,
        "toppings": vec!["butter"; million],
    });
    let made_up: Vec<String> = (0..million).map(|i| format!("topping {i}")).collect();
    let made_up = json!({ "tags": made_up });
    let repeated = json!({ "tags": vec!["salt"; million] });
    assert!(FormEnums::from_content(Some(&bounded)).is_err());
    g.bench_function("list_1m_items_max_items_2", |b| {
        b.iter(|| FormEnums::from_content(Some(black_box(&bounded))).is_err())
    });
    for (case, answer) in [
        ("list_1m_made_up", &made_up),
        ("list_1m_repeated", &repeated),
    ] {
        let r = report(case, || Tags::from_content(Some(answer)));
        assert!(r.is_err(), "{case}: refused");
        g.bench_function(case, |b| {
            b.iter(|| Tags::from_content(Some(black_box(answer))).is_err())
        });
    }

    // Extra keys: a million keys the form does not have, beside a valid answer
    // (ignored; the answer is accepted).
    let mut flood = form5_answer();
    for i in 0..million {
        flood[format!("extra{i}")] = Value::from(i);
    }
    let r = report("extra_keys_1m", || Form5::from_content(Some(&flood)));
    assert!(r.is_ok(), "extra keys are ignored");
    g.bench_function("extra_keys_1m", |b| {
        b.iter(|| Form5::from_content(Some(black_box(&flood))).is_ok())
    });

    // Nesting: a value nested as deep as serde_json parses (127 arrays) where text is
    // expected (refused at the top); text nested 100,000 deep is refused by the parser.
    let deep_text = format!("{}{}", "[".repeat(127), "]".repeat(127));
    let deep: Value = serde_json::from_str(&deep_text).expect("127 levels parse");
    let deep = form5_with("name", deep);
    assert!(Form5::from_content(Some(&deep)).is_err());
    g.bench_function("nested_127_in_text_field", |b| {
        b.iter(|| Form5::from_content(Some(black_box(&deep))).is_err())
    });
    let too_deep = format!(
        "{{\"name\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(serde_json::from_str::<Value>(&too_deep).is_err());
    g.bench_function("nested_100k_json_text_refused_by_parser", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&too_deep)).is_err())
    });

    // Wizard state: a 16 MiB `requestState` is refused before it is decoded.
    let sealer = Sealer::new(Keyring::generate());
    let binding = Binding::new("", "tools/call", "book_tickets", &json!({}));
    let huge_state = format!("v2.k1.{}", "A".repeat(16 * MIB));
    let r = report("state_16mib", || {
        sealer.open::<Value>(&binding, &huge_state)
    });
    assert!(r.is_err());
    g.bench_function("state_16mib", |b| {
        b.iter(|| {
            sealer
                .open::<Value>(&binding, black_box(&huge_state))
                .is_err()
        })
    });
    g.finish();
}

criterion_group!(benches, limits);
criterion_main!(benches);
