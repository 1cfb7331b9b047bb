// The outside programs some tests need, looked for at build time. `include!`d by the
// build scripts of the packages whose tests need them (tests/build.rs,
// examples/build.rs, examples/tower-mcp/build.rs), each calling the lookups it needs;
// the others are allowed to be dead code there.
//
// A missing program sets a cfg (`no_redis`, `no_python_sdk`, `no_chromium`, `no_axe`)
// under which its tests carry `ignore = "reason"`, so libtest reports them as ignored,
// saying why. A required program never sets it: `CI` or the program's `ELICIT_REQUIRE_*`
// set (as `.ci/run` does) makes its tests run, and fail on the missing program.
//
// Each lookup tells cargo what to watch: every variable it read, and the program's file
// when it is found, or else the existing directories it would be installed in. Never a
// path that does not exist: cargo would then run the script, and rebuild the package,
// on every build. A change makes cargo rebuild the package (and, for elicit-examples,
// what depends on it).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// `redis-server` on the `PATH` (Debian package `redis-server`), for the tests that
/// start one (`elicit_examples::redis_server::RedisServer::for_test`). Required by `CI`
/// or `ELICIT_REQUIRE_REDIS`; missing, sets `no_redis`.
#[allow(dead_code)]
fn redis() {
    let found = on_path(OsStr::new("redis-server"));
    ignored_unless_required(
        "no_redis",
        found,
        "ELICIT_REQUIRE_REDIS",
        "redis-server is not installed (Debian: apt-get install redis-server)",
    );
}

/// The MCP Python SDK: `ELICIT_PYTHON`, a Python with `mcp==2.3.0` (a path, or a name
/// on the `PATH`), for the tests that drive a server with it
/// (`elicit_examples::python_sdk`). Required by `CI` or `ELICIT_REQUIRE_PYTHON_SDK`;
/// missing, sets `no_python_sdk`. That the interpreter has the SDK is not checked here.
#[allow(dead_code)]
fn python_sdk() {
    println!("cargo::rerun-if-env-changed=ELICIT_PYTHON");
    let found = std::env::var_os("ELICIT_PYTHON").is_some_and(|python| {
        let path = Path::new(&python);
        if path.components().count() > 1 {
            at(path)
        } else {
            on_path(&python)
        }
    });
    ignored_unless_required(
        "no_python_sdk",
        found,
        "ELICIT_REQUIRE_PYTHON_SDK",
        "ELICIT_PYTHON is not set to a python with mcp==2.3.0 (the MCP Python SDK)",
    );
}

/// Chromium, `$ELICIT_CHROMIUM` or `/usr/bin/chromium` (Debian package `chromium`), and
/// axe-core in `tests/browser/node_modules` (`npm ci --prefix tests/browser`; `browser`
/// is that directory), for the browser tests. Both required by `CI` or
/// `ELICIT_REQUIRE_BROWSER`; missing, they set `no_chromium` and `no_axe`.
#[allow(dead_code)]
fn browser(browser: &Path) {
    println!("cargo::rerun-if-env-changed=ELICIT_CHROMIUM");
    let chromium = std::env::var_os("ELICIT_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    ignored_unless_required(
        "no_chromium",
        at(&chromium),
        "ELICIT_REQUIRE_BROWSER",
        "chromium is not installed (Debian: apt-get install chromium; or set ELICIT_CHROMIUM)",
    );
    let axe = browser.join("node_modules/axe-core/axe.min.js");
    let found = axe.is_file();
    println!(
        "cargo::rerun-if-changed={}",
        if found { &axe } else { browser }.display()
    );
    ignored_unless_required(
        "no_axe",
        found,
        "ELICIT_REQUIRE_BROWSER",
        "axe-core is not installed (npm ci --prefix tests/browser)",
    );
}

/// Declares `cfg`, and sets it when the program is missing and not required (`CI` or
/// `require` set). Missing but required, the build warns `why`: its tests will fail.
fn ignored_unless_required(cfg: &str, found: bool, require: &str, why: &str) {
    println!("cargo::rustc-check-cfg=cfg({cfg})");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed={require}");
    // The build script itself: without one rerun-if-changed, cargo would run the
    // script again whenever any file of the package changes.
    println!("cargo::rerun-if-changed=build.rs");
    if found {
        return;
    }
    let required = ["CI", require]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    if required {
        println!("cargo::warning={why}; required (CI or {require} is set), its tests will fail");
    } else {
        println!("cargo::rustc-cfg={cfg}");
    }
}

/// Whether the program `name` is an executable file in a directory of the `PATH`.
/// Watches that file, or else each absolute directory of the `PATH` (where an install
/// lands; cargo reads a directory's contents too, so a relative one, which could be any
/// tree, is left out).
fn on_path(name: &OsStr) -> bool {
    println!("cargo::rerun-if-env-changed=PATH");
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    let found = dirs
        .iter()
        .map(|dir| dir.join(name))
        .find(|p| executable(p));
    if let Some(found) = found {
        println!("cargo::rerun-if-changed={}", found.display());
        return true;
    }
    let mut watched = Vec::new();
    for dir in dirs.iter().filter(|dir| dir.is_absolute()) {
        // Once each, however it is named (`/bin` is `/usr/bin` on a merged /usr).
        if let Ok(dir) = dir.canonicalize()
            && dir.is_dir()
            && !watched.contains(&dir)
        {
            println!("cargo::rerun-if-changed={}", dir.display());
            watched.push(dir);
        }
    }
    false
}

/// Whether `path` is an executable file. Watches it, or else the directory it would be
/// in, when that exists and is not the root (which cargo would read whole).
fn at(path: &Path) -> bool {
    if executable(path) {
        println!("cargo::rerun-if-changed={}", path.display());
        return true;
    }
    if let Some(dir) = path.parent()
        && dir.parent().is_some()
        && dir.is_dir()
    {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    false
}

/// Whether `path` is a file this user may run.
fn executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}
