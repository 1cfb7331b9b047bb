//! The tutorial's log purge as an MCP server: tool `purge_old_logs(repo, days, dry_run)`
//! over a directory of log files, with a human approval before any deletion.
//!
//! ```sh
//! cargo run -p elicit-examples --bin purge-approval -- --root /tmp/logs --create-samples
//! ```

#[cfg(not(unix))]
fn main() {
    eprintln!("purge-approval deletes through openat/unlinkat, so it runs on Unix only");
    std::process::exit(1);
}

#[cfg(unix)]
use std::path::PathBuf;

#[cfg(unix)]
use clap::Parser;
#[cfg(unix)]
use elicit_examples::servers::purge::{PurgeServer, create_samples};
#[cfg(unix)]
use elicit_examples::servers::{ServerArgs, serve};

/// MCP server with the tool `purge_old_logs`: a real purge asks for approval first.
#[cfg(unix)]
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
    /// The directory of repositories (one directory of .log files each).
    #[arg(long, value_name = "DIR", default_value = "purge-logs")]
    root: PathBuf,
    /// Write sample logs (3 to 400 days old) into DIR/demo-repo and DIR/other-repo first.
    #[arg(long)]
    create_samples: bool,
}

#[cfg(unix)]
#[tokio::main]
async fn main() -> Result<(), elicit_examples::servers::serve::Failure> {
    let cli = Cli::parse();
    if cli.create_samples {
        let repo = create_samples(&cli.root)?;
        eprintln!("sample logs written to {}", repo.display());
    }
    if !cli.root.is_dir() {
        return Err(format!(
            "{} is not a directory (pass --create-samples to make one)",
            cli.root.display()
        )
        .into());
    }
    let (elicitor, listen) = cli.server.open().await?;
    // Built once and cloned for each session or stateless request.
    let server = PurgeServer::new(elicitor, cli.root.clone());
    Ok(serve::serve(listen, move || server.clone()).await?)
}
