//! An MCP server whose tool needs an API key: `connect_weather(city)` asks it on a web
//! page the server serves (URL mode, or a link in the tool result for a client with no
//! elicitation), through a field marked `#[elicit(secret)]`.
//!
//! ```sh
//! cargo run -p elicit-examples --bin connect-service                          # stdio, pages on loopback
//! cargo run -p elicit-examples --bin connect-service -- --http 127.0.0.1:8080 # pages at /elicit/p/
//! ```

use clap::Parser;
use elicit_examples::servers::connect::ConnectServer;
use elicit_examples::servers::{ServerArgs, serve};

/// MCP server with the tool `connect_weather`: the API key is asked on a page of its own,
/// never in a form, so neither the client nor the model sees it. The pages are always on
/// (`--pages`).
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
}

#[tokio::main]
async fn main() -> Result<(), elicit_examples::servers::serve::Failure> {
    let mut cli = Cli::parse();
    cli.server.pages = true;
    let (elicitor, listen) = cli.server.open().await?;
    let server = ConnectServer::new(elicitor);
    Ok(serve::serve(listen, move || server.clone()).await?)
}
