//! The book's travel example as an MCP server: tool `book-trip(date)`.
//!
//! ```sh
//! cargo run -p elicit-examples --bin book-trip                        # stdio
//! cargo run -p elicit-examples --bin book-trip -- --http 127.0.0.1:8080 # http://127.0.0.1:8080/mcp
//! ```

use std::sync::{Arc, Mutex};

use clap::Parser;
use elicit_examples::clock;
use elicit_examples::servers::trip::{Inventory, TripServer};
use elicit_examples::servers::{ServerArgs, serve};

/// MCP server with the tool `book-trip`: on a sold-out date it asks the user for another.
///
/// The demo inventory counts from today: the next two days are sold out, and there are
/// trips in three and in five days. Speaks MCP on stdin/stdout unless `--http` is given;
/// try it with `terminal-client -- book-trip`.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
    /// Count the demo inventory from this day (YYYY-MM-DD) instead of today (UTC).
    #[arg(long, value_name = "DATE", value_parser = clock::parse_date)]
    today: Option<time::Date>,
}

#[tokio::main]
async fn main() -> Result<(), elicit_examples::servers::serve::Failure> {
    let cli = Cli::parse();
    let (elicitor, listen) = cli.server.open().await?;
    let inventory = Arc::new(Mutex::new(Inventory::demo_from(
        cli.today.unwrap_or_else(clock::today),
    )));
    // Built once (its tool router too) and cloned for each session or stateless
    // request: the clones share the elicitor and the inventory.
    let server = TripServer::new(elicitor, inventory);
    Ok(serve::serve(listen, move || server.clone()).await?)
}
