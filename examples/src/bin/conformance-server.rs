//! The server the official MCP conformance suite runs against (see `.ci/conformance`):
//! the elicitation scenarios of 2025-11-25, and the Multi Round-Trip Request scenarios
//! and the `tasks-*` scenarios (the Tasks extension) of 2026-07-28, over Streamable HTTP.
//!
//! ```sh
//! cargo run -p elicit-examples --bin conformance-server -- --http 127.0.0.1:3001
//! npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server \
//!     --url http://127.0.0.1:3001/mcp --scenario tools-call-elicitation
//! ```

use clap::Parser;
use elicit_examples::servers::conformance::ConformanceServer;
use elicit_examples::servers::{ServerArgs, serve};

/// MCP server with the tools and the prompt of the conformance suite's elicitation,
/// `input-required-result-*` and `tasks-*` scenarios.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
}

#[tokio::main]
async fn main() -> Result<(), elicit_examples::servers::serve::Failure> {
    let cli = Cli::parse();
    // The suite's `input-required-result-ignore-extra-params` scenario answers in its
    // first call, before any question was asked, and expects a complete result: only
    // this harness server reads such answers.
    // Its tasks are kept in the elicitor, shared by every handler.
    let (elicitor, listen) = cli.server.open().await?;
    let elicitor = elicitor.with_first_round_answers(true);
    // Built once and cloned for each session or stateless request.
    let server = ConformanceServer::new(elicitor);
    Ok(serve::serve(listen, move || server.clone()).await?)
}
