//! The cinema wizard as an MCP server: tool `book_tickets` asks for a date, a free seat
//! for that date, snacks, and a popcorn size only with popcorn.
//!
//! ```sh
//! cargo run -p elicit-examples --bin ticket-booking -- --http 127.0.0.1:8080
//! ```
//!
//! Replicas behind a load balancer share the sealing key: set `ELICIT_KEYS` (or pass
//! `--key-file`) to the same value in each.

use std::sync::{Arc, Mutex};

use clap::Parser;
use elicit_examples::clock;
use elicit_examples::servers::inventory::Inventory;
use elicit_examples::servers::ticket::TicketServer;
use elicit_examples::servers::{ServerArgs, serve};
use elicit_examples::ticket::Cinema;

/// MCP server with the tool `book_tickets`, a four-step wizard: a date, a free seat for
/// that date, snacks, and a popcorn size only with popcorn.
///
/// The demo inventory counts from today: tomorrow's show is sold out, the shows in three
/// and four days have seats. Speaks MCP on stdin/stdout unless `--http` is given; the
/// quickest way to try it is `terminal-client`, which starts it for you.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
    /// Count the demo inventory from this day (YYYY-MM-DD) instead of today (UTC).
    #[arg(long, value_name = "DATE", value_parser = clock::parse_date)]
    today: Option<time::Date>,
    /// Put a sold seat back at once, so the demo never sells out and offers the same
    /// seats every time (for load tests such as benches/e2e; not with --redis).
    #[arg(long, conflicts_with = "redis")]
    restock: bool,
}

#[tokio::main]
async fn main() -> Result<(), elicit_examples::servers::serve::Failure> {
    let cli = Cli::parse();
    let (elicitor, listen) = cli.server.open().await?;
    let cinema = Cinema::demo_from(cli.today.unwrap_or_else(clock::today));
    // With --redis, the seats too live in Redis: replicas never sell one seat twice.
    let inventory = match &cli.server.redis {
        Some(url) => Inventory::redis(url, &cinema).await?,
        None => {
            let cinema = if cli.restock {
                cinema.restocking()
            } else {
                cinema
            };
            Inventory::Local(Arc::new(Mutex::new(cinema)))
        }
    };
    // Built once (rmcp checks every tool's name while building the router) and cloned
    // for each session or stateless request: the clones share the elicitor and the
    // inventory.
    let server = TicketServer::with_inventory(elicitor, inventory);
    let make = move || server.clone();
    Ok(serve::serve(listen, make).await?)
}
