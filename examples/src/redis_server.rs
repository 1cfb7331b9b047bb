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

    /// For a test: a started server. Panics when `redis-server` is not installed or does
    /// not start. A test that calls it carries `#[cfg_attr(no_redis, ignore = "...")]`:
    /// without `redis-server`, and unless `CI` or `ELICIT_REQUIRE_REDIS` requires it, its
    /// package's build script (`tests/programs.rs`) sets `no_redis`.
    pub fn for_test() -> RedisServer {
        match RedisServer::start() {
            Ok(Some(server)) => server,
            Ok(None) => {
                panic!("redis-server is not installed (Debian: apt-get install redis-server)")
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
