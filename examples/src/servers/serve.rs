//! Running an example server: MCP over stdio (the default), or Streamable HTTP at
//! `http://ADDR/mcp` with `--http ADDR`; and the sealing key shared by replicas.

use std::net::SocketAddr;
use std::sync::Arc;

use elicit_core::seal::Keyring;
use elicit_rmcp::http::{self, HttpOptions};
use rmcp::ServerHandler;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The environment variable holding the keys that seal the state of calls in rounds (see
/// the `elicit_core::seal` docs for the format). Replicas that share it can take each other's
/// rounds.
pub const KEYS_ENV: &str = "ELICIT_KEYS";

/// Where the server listens.
#[derive(Debug)]
pub enum Listen {
    /// MCP over stdin/stdout.
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp` on this bound listener, served as the
    /// options say.
    Http(tokio::net::TcpListener, Box<HttpOptions>),
}

/// A failure of an example program, shown as its message when `main` returns it
/// (`Error: refusing to serve on 0.0.0.0:8080: …`), not in Rust's debug form.
pub struct Failure(Box<dyn std::error::Error>);

impl<E: Into<Box<dyn std::error::Error>>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure(error.into())
    }
}

impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

/// Reads `--http ADDR`: `127.0.0.1:8080`, `[::1]:8080`, or a host name with a port such
/// as `localhost:8080` (its first address, IPv4 first); a bare port (`8080` or `:8080`)
/// is loopback.
pub fn parse_listen_addr(text: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let port_only = text.strip_prefix(':').unwrap_or(text);
    if let Ok(port) = port_only.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    let hint = "expected HOST:PORT, such as 127.0.0.1:8080, localhost:8080 or [::1]:8080";
    if text
        .rsplit_once(':')
        .is_none_or(|(host, port)| host.is_empty() || port.parse::<u16>().is_err())
    {
        return Err(format!("{text:?} is not an address: {hint}"));
    }
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {text:?}: {e} ({hint})"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("{text:?} resolves to no address ({hint})"))
}

/// The keys of a server: those of the file given with `--key-file`, else of
/// `ELICIT_KEYS` when set, else a fresh random key (fine for one process; replicas
/// need a shared key).
pub fn keyring(key_file: Option<&std::path::Path>) -> Result<Keyring, String> {
    let keyring = if let Some(path) = key_file {
        let text = read_secret(path, "key file")?;
        text.trim()
            .parse::<Keyring>()
            .map_err(|e| format!("bad key file {}: {e}", path.display()))?
    } else if std::env::var_os(KEYS_ENV).is_some() {
        std::env::var(KEYS_ENV)
            .map_err(|_| format!("{KEYS_ENV} is not Unicode"))?
            .parse::<Keyring>()
            .map_err(|e| format!("bad {KEYS_ENV}: {e}"))?
    } else {
        Keyring::generate()
    };
    Ok(keyring)
}

/// The text of a file of secrets (`--key-file`, `--auth-token-file`), refused when other
/// users may read it: on Unix its mode must give the group and others nothing
/// (`chmod 600`), as ssh asks of a private key.
pub fn read_secret(path: &std::path::Path, what: &str) -> Result<String, String> {
    let shown = path.display();
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read the {what} {shown}: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file
            .metadata()
            .map_err(|e| format!("cannot read the {what} {shown}: {e}"))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(format!(
                "the {what} {shown} can be read by other users (mode {:o}): run `chmod 600 {shown}`",
                mode & 0o777
            ));
        }
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut &file, &mut text)
        .map_err(|e| format!("cannot read the {what} {shown}: {e}"))?;
    Ok(text)
}

/// A Redis URL fit to print: its password (and user name) replaced by `***`.
pub fn redacted(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.rsplit_once('@') {
            Some((_, host)) => format!("{scheme}://***@{host}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

/// The shortest token `--auth-token-file` takes: a guessable token is no check.
pub const MIN_TOKEN_LEN: usize = 16;

/// The `(principal, token)` pairs of a token file: one `PRINCIPAL TOKEN` pair per line,
/// blank lines and `#` comments skipped. Errors name the line.
pub fn parse_tokens(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line
            .split_once('#')
            .map_or(line, |(before, _)| before)
            .trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(principal), Some(token), None) = (words.next(), words.next(), words.next())
        else {
            return Err(format!("line {}: expected `PRINCIPAL TOKEN`", n + 1));
        };
        if token.len() < MIN_TOKEN_LEN {
            return Err(format!(
                "line {}: the token of {principal} is shorter than {MIN_TOKEN_LEN} characters",
                n + 1
            ));
        }
        if pairs.iter().any(|(_, t): &(String, String)| t == token) {
            return Err(format!(
                "line {}: the token of {principal} is listed twice",
                n + 1
            ));
        }
        pairs.push((principal.to_owned(), token.to_owned()));
    }
    if pairs.is_empty() {
        return Err("no tokens (expected `PRINCIPAL TOKEN` lines)".to_owned());
    }
    Ok(pairs)
}

/// Serves `make()`'s handler until the client goes away (stdio) or forever (HTTP).
pub async fn serve<S, F>(listen: Listen, make: F) -> Result<(), Box<dyn std::error::Error>>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    match listen {
        Listen::Stdio => {
            let running = make().serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
        }
        Listen::Http(listener, options) => {
            if let Err(e) = http::serve_listener(listener, make, *options).await {
                return Err(e.to_string().into());
            }
        }
    }
    Ok(())
}

/// The axum router serving MCP at `/mcp` with the default options: for tests that
/// bind their own listener.
pub fn http_router<S, F>(make: F) -> axum::Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    http::router(make, &HttpOptions::default())
}

/// [`http_router`] with the caller's session manager, so a test can see the live
/// sessions (`sessions.sessions`, one per initialized client until it sends `DELETE`
/// or stays idle for `session_config.keep_alive`) or shorten that idle timeout before
/// serving.
pub fn http_router_with_sessions<S, F>(make: F, sessions: Arc<LocalSessionManager>) -> axum::Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    http::router_with_sessions(make, sessions, &HttpOptions::default())
}

/// Serves `router` (e.g. [`http_router`]) on a listener the caller bound, such as a
/// test's `127.0.0.1:0`, with the default options, until the future is dropped or the
/// listener fails.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: axum::Router,
) -> std::io::Result<()> {
    http::serve_on(listener, router, HttpOptions::default()).await
}

#[cfg(test)]
mod tests {
    use super::parse_tokens;

    #[test]
    fn a_token_file_reads_pairs_and_skips_comments() {
        let pairs = parse_tokens(
            "# principal token\n\nalice 4f0c7d1e9a2b6c3d8e5f  # laptop\n  ci b7a1e0c9d2f34e5a6b7c\n",
        )
        .unwrap();
        assert_eq!(
            pairs,
            [
                ("alice".to_owned(), "4f0c7d1e9a2b6c3d8e5f".to_owned()),
                ("ci".to_owned(), "b7a1e0c9d2f34e5a6b7c".to_owned()),
            ]
        );
    }

    #[test]
    fn a_bad_token_file_names_the_line() {
        let cases = [
            ("alice\n", "line 1: expected `PRINCIPAL TOKEN`"),
            ("alice a b c\n", "line 1: expected `PRINCIPAL TOKEN`"),
            (
                "# x\nalice short\n",
                "line 2: the token of alice is shorter than 16",
            ),
            (
                "a 4f0c7d1e9a2b6c3d8e5f\nb 4f0c7d1e9a2b6c3d8e5f\n",
                "line 2: the token of b is listed twice",
            ),
            ("# only a comment\n", "no tokens"),
        ];
        for (text, want) in cases {
            let err = parse_tokens(text).unwrap_err();
            assert!(err.starts_with(want), "{text:?}: {err}");
        }
    }
}
