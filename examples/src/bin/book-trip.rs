//! The book's travel example as an MCP server: tool `book-trip(date)`.
//!
//! ```sh
//! cargo run -p elicit-examples --bin book-trip                        # stdio
//! cargo run -p elicit-examples --bin book-trip -- --http 127.0.0.1:8080 # http://127.0.0.1:8080/mcp
//! ```

use std::sync::{Arc, Mutex};

use clap::Parser;
use elicit_examples::servers::trip::{Inventory, TripServer};
use elicit_examples::servers::{ServerArgs, serve};

/// MCP server with the tool `book-trip`: on a sold-out date it asks the user for another.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cli = Cli::parse();
    let elicitor = cli.server.elicitor().await?;
    let inventory = Arc::new(Mutex::new(Inventory::demo()));
    serve::serve(cli.server.listen()?, move || {
        TripServer::new(elicitor.clone(), inventory.clone())
    })
    .await
}
