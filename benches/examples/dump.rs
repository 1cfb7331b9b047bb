//! Prints each contender's `requestedSchema` JSON for the bench forms, with its size.

use elicit_benches::{Form5, Form20, FormEnums, form_enums_builder, form5_builder, form20_builder};
use elicit_core::{Elicit, Revision};
use rmcp::model::ElicitationSchema;
use schemars::JsonSchema;

fn show<T: Elicit + JsonSchema>(name: &str, builder: fn() -> ElicitationSchema) {
    let rows = [
        (
            "elicit",
            serde_json::to_string(&T::requested_schema(Revision::V2025_11_25).unwrap()).unwrap(),
        ),
        (
            "rmcp_from_type",
            serde_json::to_string(&ElicitationSchema::from_type::<T>().unwrap()).unwrap(),
        ),
        ("rmcp_builder", serde_json::to_string(&builder()).unwrap()),
        (
            "schemars_schema_for",
            serde_json::to_string(&schemars::schema_for!(T)).unwrap(),
        ),
    ];
    for (who, json) in rows {
        println!("{name} {who} ({} bytes): {json}", json.len());
    }
}

fn main() {
    show::<Form5>("form5", form5_builder);
    show::<Form20>("form20", form20_builder);
    show::<FormEnums>("enums", form_enums_builder);
}
