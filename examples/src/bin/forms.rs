//! The project's main job for now: print a form's `requestedSchema` for every protocol
//! revision, then validate a good and a bad sample answer.

use elicit_core::{Elicit, Elicitation, Revision};
use elicit_examples::forms::{Alternatives, PurgeApproval};
use serde_json::json;

/// Prints the `requestedSchema` of the log-purge approval form for every protocol
/// revision, then validates a good and a bad sample answer, as a server would.
#[derive(clap::Parser)]
#[command(version)]
struct Cli {}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Cli {} = clap::Parser::parse();
    for revision in Revision::ALL.iter().copied() {
        let schema = PurgeApproval::requested_schema(revision)?;
        println!("requestedSchema of PurgeApproval for {revision}:");
        println!("{}\n", serde_json::to_string_pretty(&schema)?);
    }

    let good = json!({"confirm": true, "approver": "ops@example.com"});
    match PurgeApproval::from_content(Some(&good)).map(Elicitation::Accept)? {
        Elicitation::Accept(answer) => println!("accepted: {answer:?}"),
        other => println!("ended without an answer: {:?}", other.action()),
    }

    let bad = json!({"confirm": "yes", "approver": "not an address", "retention_days": 999});
    match PurgeApproval::from_content(Some(&bad)).map(Elicitation::Accept) {
        Ok(answer) => println!("unexpectedly accepted: {answer:?}"),
        Err(error) => println!("refused, the user would be asked again: {error}"),
    }

    let alternatives = json!({"checkAlternatives": true, "newDate": "2025-02-03"});
    let outcome = Alternatives::from_content(Some(&alternatives)).map(Elicitation::Accept)?;
    println!("alternatives: {outcome:?}");
    Ok(())
}
