//! The example MCP servers (binaries `book-trip`, `purge-approval`, `ticket-booking`),
//! as library types so tests can run them in-process.

pub mod conformance;
pub mod connect;
pub mod inventory;
#[cfg(unix)]
pub mod purge;
pub mod serve;
pub mod ticket;
pub mod trip;

/// Command-line options every example server takes.
#[derive(Clone, Debug, clap::Args)]
pub struct ServerArgs {
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio (e.g. 127.0.0.1:8080,
    /// localhost:8080, or a bare port for loopback).
    #[arg(long, value_name = "ADDR", value_parser = serve::parse_listen_addr)]
    pub http: Option<std::net::SocketAddr>,
    /// A file holding the keys that seal the state of calls in rounds (else $ELICIT_KEYS, else a random key).
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<std::path::PathBuf>,
    /// With --http: also accept this name in the Host header, e.g. the name a reverse
    /// proxy forwards (repeatable; loopback names are always accepted).
    #[arg(long, value_name = "NAME")]
    pub allowed_host: Vec<String>,
    /// With --http: also accept requests from web pages of this origin
    /// (scheme://host or scheme://host:port, `:*` for any port; repeatable; loopback
    /// pages are always accepted).
    #[arg(long, value_name = "ORIGIN")]
    pub allowed_origin: Vec<String>,
    /// With --http: serve on an address other machines can reach (e.g. 0.0.0.0:8080).
    /// Refused without this flag; give --auth-token-file too.
    #[arg(long)]
    pub allow_remote: bool,
    /// With --http: require `Authorization: Bearer TOKEN` on every request, with the
    /// tokens of this file, one `PRINCIPAL TOKEN` pair per line (`#` starts a comment);
    /// sealed state is bound to the token's principal.
    #[arg(long, value_name = "PATH")]
    pub auth_token_file: Option<std::path::PathBuf>,
    /// With --http: how many push-era (2025-06-18, 2025-11-25) sessions may be live at
    /// once; a new one past the cap closes the oldest of the principal holding the most
    /// (default 512).
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// With --http: how many push-era sessions one principal (one bearer token of
    /// --auth-token-file) may hold; its new one past the quota closes its own oldest
    /// (default 64).
    #[arg(long, value_name = "N")]
    pub max_sessions_per_principal: Option<usize>,
    /// With --http: answer a request whose reply is one message (every 2026-07-28
    /// round) with a JSON body instead of an SSE stream.
    #[arg(long)]
    pub json_response: bool,
    /// Record redeemed states in this Redis (redis://HOST:PORT/), shared by replicas:
    /// a state used on one is refused on every other (else in this process's memory).
    /// Tasks live there too: any replica answers for a task, and one that stops loses none.
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,
    /// How many tasks (2026-07-28, Tasks extension) not ended yet one principal may
    /// hold, and the server in all (across replicas with --redis): PER,TOTAL
    /// (default 32,1024).
    #[arg(long, value_name = "PER,TOTAL", value_parser = parse_task_limits)]
    pub task_limits: Option<(usize, usize)>,
    /// Ask on web pages served by this server where the client shows no forms (by URL
    /// mode, or by a link in the tool result for a client with no elicitation): with
    /// --http at http://ADDR/elicit/p/, on stdio at a loopback listener of its own.
    #[arg(long)]
    pub pages: bool,
    /// With --pages: where browsers reach the pages, when not at the server's own address
    /// (behind a reverse proxy), e.g. `https://mcp.example.com/elicit/p/`.
    #[arg(long, value_name = "URL", requires = "pages")]
    pub pages_url: Option<String>,
    /// With --pages on stdio: the loopback port of the pages (default: one the system
    /// chooses, printed on stderr).
    #[arg(long, value_name = "PORT", requires = "pages")]
    pub pages_port: Option<u16>,
    /// With --pages: also ask a consent (an approval) by a link in the tool result, for
    /// a client with no elicitation. RISK: the model reads that link as well as the
    /// person, and a model that can open web pages could approve on the person's behalf.
    /// Use it only where the model has no tool that opens web pages.
    #[arg(long, requires = "pages")]
    pub consent_by_link: bool,
}

/// `--task-limits PER,TOTAL`.
fn parse_task_limits(text: &str) -> Result<(usize, usize), String> {
    let numbers = text
        .split_once(',')
        .and_then(|(per, total)| Some((per.trim().parse().ok()?, total.trim().parse().ok()?)));
    match numbers {
        Some((per, total)) if per > 0 && total > 0 => Ok((per, total)),
        _ => Err("expected two whole numbers above 0, PER,TOTAL (e.g. 32,1024)".to_owned()),
    }
}

impl ServerArgs {
    /// The server's `Elicitor` and where it listens: with `--http`, the address checked
    /// (`--allow-remote`) and bound first, so that the pages (`--pages`) know it.
    pub async fn open(&self) -> Result<(elicit_rmcp::Elicitor, serve::Listen), String> {
        let Some(addr) = self.http else {
            return Ok((self.elicitor(None).await?, serve::Listen::Stdio));
        };
        let mut options = self.http_options()?;
        options.check_bind(addr).map_err(|e| e.to_string())?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let elicitor = self.elicitor(Some(bound)).await?;
        if let Some(pages) = elicitor.pages() {
            options = options.pages(pages.clone());
        }
        Ok((elicitor, serve::Listen::Http(listener, Box::new(options))))
    }

    /// The server's `Elicitor`: the sealing keys of `--key-file` (or `$ELICIT_KEYS`, or
    /// a random key), single use, tasks and pages recorded in `--redis` (or in memory);
    /// with `--pages`, its pages at `--pages-url`, or at the HTTP server's `bound`
    /// address, or on a loopback listener of their own (stdio).
    async fn elicitor(
        &self,
        bound: Option<std::net::SocketAddr>,
    ) -> Result<elicit_rmcp::Elicitor, String> {
        // One store of tasks for every handler of the server (a stateless server makes
        // one per request; the elicitor's clones share it).
        let elicitor = elicit_rmcp::Elicitor::new(serve::keyring(self.key_file.as_deref())?);
        let mut tasks = elicit_rmcp::Tasks::new();
        if let Some((per_principal, total)) = self.task_limits {
            tasks = tasks.with_limits(per_principal, total);
        }
        let base = match (&self.pages_url, bound) {
            (Some(url), _) => url.clone(),
            (None, Some(addr)) => format!("http://{addr}/elicit/p/"),
            (None, None) => "http://127.0.0.1/elicit/p/".to_owned(),
        };
        let mut pages = elicit_core::engine::Pages::new(base).consent_by_link(self.consent_by_link);
        let elicitor = match &self.redis {
            Some(url) => {
                let store = elicit_core::store::RedisStore::connect(url)
                    .await
                    .map_err(|e| format!("--redis {}: {e}", serve::redacted(url)))?;
                // Pages too: a page asked on one replica is answered on any.
                pages = pages.with_store(store.clone());
                // Tasks too live in Redis: any replica answers for them.
                elicitor
                    .with_tasks(tasks.with_task_store(store.clone()))
                    .with_redeem_store(store)
            }
            None => elicitor.with_tasks(tasks),
        };
        if !self.pages {
            return Ok(elicitor);
        }
        if bound.is_some() || self.pages_url.is_some() {
            return Ok(elicitor.with_pages(pages));
        }
        let elicitor = elicitor
            .with_local_pages(pages, self.pages_port.unwrap_or(0))
            .await
            .map_err(|e| format!("--pages: cannot listen on loopback: {e}"))?;
        if let Some(pages) = elicitor.pages() {
            eprintln!("pages served at {}", pages.base());
        }
        Ok(elicitor)
    }

    /// The HTTP options of the flags: the library's defaults, plus the hosts and
    /// origins allowed, `--allow-remote`, `--json-response` and the bearer tokens of
    /// `--auth-token-file`.
    pub fn http_options(&self) -> Result<elicit_rmcp::http::HttpOptions, String> {
        let mut options = elicit_rmcp::http::HttpOptions::default()
            .allow_remote(self.allow_remote)
            .json_responses(self.json_response);
        for host in &self.allowed_host {
            options = options.allowed_host(host.clone());
        }
        for origin in &self.allowed_origin {
            options = options.allowed_origin(origin.clone());
        }
        if let Some(max) = self.max_sessions {
            options = options.max_sessions(max);
        }
        if let Some(max) = self.max_sessions_per_principal {
            options = options.max_sessions_per_principal(max);
        }
        if let Some(path) = &self.auth_token_file {
            let text = serve::read_secret(path, "token file")?;
            for (principal, token) in serve::parse_tokens(&text)
                .map_err(|e| format!("bad token file {}: {e}", path.display()))?
            {
                options = options.bearer_token(token, principal);
            }
        }
        Ok(options)
    }
}

/// The text of a tool result.
pub(crate) fn text(s: impl Into<String>) -> rmcp::model::CallToolResult {
    rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text(s.into())])
}

/// A tool error the model can read (`isError: true`).
pub(crate) fn tool_error(s: impl Into<String>) -> rmcp::model::CallToolResult {
    rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(s.into())])
}
