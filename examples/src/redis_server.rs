//! A `redis-server` of a test's or benchmark's own (Debian package `redis-server`): on a
//! free loopback port, without persistence, stopped by its process id when dropped.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long it may take to accept connections.
const START_LIMIT: Duration = Duration::from_secs(10);

/// A running `redis-server`, killed on drop.
#[derive(Debug)]
pub struct RedisServer {
    child: Child,
    url: String,
}

impl RedisServer {
    /// Starts one: `Ok(None)` when `redis-server` is not installed, an error when it
    /// does not start or listen within 10 s.
    pub fn start() -> std::io::Result<Option<RedisServer>> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let spawned = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        // Built before waiting, so that a server that never listens is still killed.
        let server = RedisServer {
            child,
            url: format!("redis://127.0.0.1:{port}/"),
        };
        let deadline = Instant::now() + START_LIMIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "redis-server did not listen within 10 s",
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Some(server))
    }

    /// For a test: a started server, or `None` after saying that `redis-server` is not
    /// installed. Under CI (`CI` or `ELICIT_REQUIRE_REDIS` set) a missing or failing
    /// server panics instead: the Redis tests are never skipped there.
    pub fn for_test() -> Option<RedisServer> {
        let required = ["CI", "ELICIT_REQUIRE_REDIS"]
            .iter()
            .any(|v| std::env::var_os(v).is_some());
        match RedisServer::start() {
            Ok(Some(server)) => Some(server),
            Ok(None) => {
                let why = "redis-server is not installed (Debian: apt-get install redis-server)";
                assert!(!required, "{why}");
                eprintln!("skipped: {why}");
                None
            }
            Err(e) => panic!("redis-server does not start: {e}"),
        }
    }

    /// Its URL, `redis://127.0.0.1:PORT/`.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
