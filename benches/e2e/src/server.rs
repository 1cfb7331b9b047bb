//! Starting a server under test on its own core, reading its CPU time and memory from
//! `/proc`, and stopping it (by its process id) however the run ends.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A server process this program started; stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    log: PathBuf,
}

/// A command line, `{port}` standing for the port the server is to listen on.
#[derive(Clone, Debug)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    /// The core to pin the server to with `taskset -c`, if any.
    pub cpu: Option<usize>,
}

impl Server {
    /// Starts `launch` on a free loopback port and waits until it accepts connections.
    pub async fn start(launch: &Launch, label: &str) -> Result<Server, String> {
        let port = free_port()?;
        let args: Vec<String> = launch
            .args
            .iter()
            .map(|a| a.replace("{port}", &port.to_string()))
            .collect();
        let log = std::env::temp_dir().join(format!(
            "elicit-e2e-{}-{}.log",
            std::process::id(),
            label.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        ));
        let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let mut command = match launch.cpu {
            Some(cpu) => {
                let mut c = Command::new("taskset");
                c.arg("-c").arg(cpu.to_string()).arg(&launch.program);
                c
            }
            None => Command::new(&launch.program),
        };
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file);
        // If this program dies without running `Drop` (a signal, a timeout), the server
        // goes with it: the kernel sends it SIGTERM (kept across taskset's exec).
        // SAFETY: the closure runs in the child between fork and exec and only makes
        // one async-signal-safe system call.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", launch.program))?;
        let server = Server {
            child,
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            log,
        };
        server.wait_ready().await?;
        Ok(server)
    }

    async fn wait_ready(&self) -> Result<(), String> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if tokio::net::TcpStream::connect(self.addr).await.is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the server did not listen on {} within {START_TIMEOUT:?}; its log: {}",
                    self.addr,
                    self.log_tail()
                ));
            }
            if self.pid_gone() {
                return Err(format!("the server exited; its log: {}", self.log_tail()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn pid_gone(&self) -> bool {
        !std::path::Path::new(&format!("/proc/{}", self.pid())).exists()
            || status_field(self.pid(), "State:").is_some_and(|s| s.starts_with('Z'))
    }

    /// The last lines of the server's stderr.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(10)..].join("\n")
    }

    /// The process id (`taskset` execs the server, so it is the server's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The CPU time the server has used (user + system, all threads).
    pub fn cpu_time(&self) -> Option<Duration> {
        cpu_time(self.pid())
    }

    /// Resident memory now, in bytes.
    pub fn rss(&self) -> Option<u64> {
        status_kb(self.pid(), "VmRSS:").map(|kb| kb * 1024)
    }

    /// Peak resident memory, in bytes.
    pub fn peak_rss(&self) -> Option<u64> {
        status_kb(self.pid(), "VmHWM:").map(|kb| kb * 1024)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let pid = self.pid() as libc::pid_t;
        // SAFETY: `kill` has no memory effects; the pid is our own child's, which has
        // not been waited for yet, so it cannot have been reused.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                let _ = std::fs::remove_file(&self.log);
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// A loopback port nothing listens on now.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// utime + stime of `pid` from `/proc/PID/stat`.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the file; `rest` starts at field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(ticks(utime + stime))
}

/// Time core `cpu` spent busy (user, nice, system, irq, softirq, steal), from
/// `/proc/stat`.
pub fn core_busy(cpu: usize) -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let name = format!("cpu{cpu}");
    let line = stat
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name.as_str()))?;
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    let at = |i: usize| f.get(i).copied().unwrap_or(0);
    // user nice system idle iowait irq softirq steal
    Some(ticks(at(0) + at(1) + at(2) + at(5) + at(6) + at(7)))
}

/// This process's CPU time (user + system).
pub fn own_cpu_time() -> Option<Duration> {
    cpu_time(std::process::id())
}

fn ticks(n: u64) -> Duration {
    // SAFETY: sysconf only reads a configuration value.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = if per_second > 0 {
        per_second as u64
    } else {
        100
    };
    Duration::from_nanos(n.saturating_mul(1_000_000_000) / per_second)
}

fn status_field(pid: u32, key: &str) -> Option<String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .map(|v| v.trim().to_owned())
}

fn status_kb(pid: u32, key: &str) -> Option<u64> {
    status_field(pid, key)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Pins this process (and the threads it starts later) to `cpu`.
pub fn pin_self(cpu: usize) -> Result<(), String> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET writes inside it, and
    // sched_setaffinity reads `size_of::<cpu_set_t>()` bytes of it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error().to_string());
        }
    }
    Ok(())
}

/// Whether `taskset` can be run.
pub fn have_taskset() -> bool {
    Command::new("taskset")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// How many cores this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
