//! The client kit's reading is bounded by the size of the form, not by what a server
//! piles into it: the work is counted in bytes allocated on this thread (a measure
//! that does not depend on the machine's speed, unlike a timing).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use elicit_core::client::read_schema as read_text;

/// The most options the client kit reads in one choice (documented in `elicit_core::client`).
const MAX_OPTIONS: usize = 1000;

fn read_schema(schema: &Value) -> Result<elicit_core::Form, elicit_core::client::SchemaRefused> {
    read_text(&schema.to_string())
}
use serde_json::{Value, json};

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to `System`; the counter only adds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + layout.size()));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + new_size));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The bytes `f` allocates on this thread.
fn allocated<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATED.with(Cell::get);
    let out = f();
    (out, ALLOCATED.with(Cell::get) - before)
}

fn multi_select(default: Option<Value>) -> Value {
    let options: Vec<String> = (0..MAX_OPTIONS).map(|i| format!("o{i}")).collect();
    let mut pick = json!({"type": "array", "items": {"type": "string", "enum": options}});
    if let Some(d) = default {
        pick["default"] = d;
    }
    json!({"type": "object", "properties": {"pick": pick}})
}

/// 1,000 options and a default of 1,000,000 valid items (the first option, repeated):
/// refused at the cost of reading the options, as if the default were not there (its
/// 6 MB of text are past the size a client reads, so nothing of it is parsed); a default
/// of 100,000 items (under that size) is refused on its length before any item is
/// compared.
#[test]
fn a_default_bomb_costs_what_its_options_cost() {
    let plain = multi_select(None);
    let bomb = multi_select(Some(Value::Array(vec![Value::from("o0"); 1_000_000])));

    let (plain, bomb) = (plain.to_string(), bomb.to_string());
    let (form, baseline) = allocated(|| read_text(&plain));
    assert!(form.is_ok());
    let (refused, spent) = allocated(|| read_text(&bomb));
    let refused = refused.unwrap_err();
    assert_eq!(refused.path, "requestedSchema");
    assert!(
        refused
            .reason
            .ends_with("bytes, more than the 1048576 a client reads"),
        "{}",
        refused.reason
    );
    let smaller = multi_select(Some(Value::Array(vec![Value::from("o0"); 100_000])));
    let refused = read_schema(&smaller).unwrap_err();
    assert_eq!(refused.path, "properties.pick.default");
    assert!(refused.reason.starts_with("100000 items for 1000 options"));

    // Copying the default's items, or even one pointer per item, would cost megabytes.
    assert!(
        spent <= baseline + 4096,
        "refusing the bomb allocated {spent} bytes, reading the form without it {baseline}"
    );
}

/// The counter does see work proportional to a default: a full default (every option
/// once) costs more than none, so the assertion above could fail.
#[test]
fn a_full_default_is_counted() {
    let all: Vec<Value> = (0..MAX_OPTIONS)
        .map(|i| Value::from(format!("o{i}")))
        .collect();
    let (plain, full) = (multi_select(None), multi_select(Some(Value::Array(all))));
    let (_, without) = allocated(|| read_schema(&plain).unwrap());
    let (_, with) = allocated(|| read_schema(&full).unwrap());
    assert!(with > without + MAX_OPTIONS * 8, "{with} vs {without}");
}
