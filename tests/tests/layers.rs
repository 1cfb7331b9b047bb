//! `elicit-core`'s modules depend on each other one way only:
//! `form` ← `answer` ← `wizard` ← `engine` (which also uses `seal`), `client` on `form`
//! and `answer`, and `seal` on nothing. A module that names another outside its allowed list (`crate::x` in
//! its code, docs included) fails here, so an import cycle cannot come back unseen.
//!
//! The crates depend one way too: `elicit-rmcp` on `elicit-core`, never back, and the
//! core on no MCP SDK or HTTP stack.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each top-level module of `elicit-core` and the modules it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("form", &[]),
    ("answer", &["form"]),
    ("wizard", &["form", "answer"]),
    ("seal", &[]),
    ("client", &["form", "answer"]),
    ("engine", &["form", "answer", "wizard", "seal"]),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate modules a file names: every `crate::<name>` and every name inside
/// `crate::{..}`.
fn named_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

#[test]
fn modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../elicit-core/src");
    let modules: BTreeSet<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let mut problems = Vec::new();
    for (module, allowed) in ALLOWED {
        let mut paths = Vec::new();
        files(&src.join(module), &mut paths);
        assert!(!paths.is_empty(), "no files for module `{module}`");
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            for named in named_modules(&text) {
                if named != *module
                    && modules.contains(named.as_str())
                    && !allowed.contains(&named.as_str())
                {
                    problems.push(format!(
                        "{} (module `{module}`) uses `crate::{named}`",
                        path.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check itself sees both spellings.
/// Only the engine's exchange knows the channels: no other code of `engine/` branches on
/// the call's channel (`if`/`match` on it, or a comparison), so a new way of asking is
/// added in one place. Building a call on a channel (`Channel::Task` in `into_task`) and
/// reading it (`Call::channel`) are not branches.
#[test]
fn only_the_exchange_branches_on_the_channel() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../elicit-core/src/engine");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut problems = Vec::new();
    for path in paths {
        if path.ends_with("exchange.rs") || path.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let branches = [
                "match self.channel",
                "channel ==",
                "channel !=",
                "== Channel::",
                "!= Channel::",
                "Channel::Push =>",
                "Channel::Rounds =>",
                "Channel::Task =>",
            ];
            if branches.iter().any(|b| code.contains(b)) {
                problems.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "branches on the channel outside the exchange:\n{}",
        problems.join("\n")
    );
}

#[test]
fn named_modules_reads_paths_and_groups() {
    let names = named_modules("use crate::form::Form;\nuse crate::{answer::X, seal};");
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["answer", "form", "seal"]
    );
}

/// The `[dependencies]` table of a manifest: the dependency names, one per line.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && !name.starts_with('#') {
                out.push(name.split('.').next().unwrap_or(name).to_owned());
            }
        }
    }
    out
}

#[test]
fn the_core_speaks_no_sdk() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let core = std::fs::read_to_string(root.join("elicit-core/Cargo.toml")).unwrap();
    let deps = dependencies(&core);
    assert!(deps.iter().any(|d| d == "serde_json"), "{deps:?}");
    for sdk in [
        "rmcp",
        "elicit-rmcp",
        "axum",
        "hyper",
        "hyper-util",
        "tokio-util",
    ] {
        assert!(
            !deps.iter().any(|d| d == sdk),
            "elicit-core depends on `{sdk}`"
        );
    }
    // The adapter depends on the core, and the core's code names no adapter.
    let adapter = std::fs::read_to_string(root.join("elicit-rmcp/Cargo.toml")).unwrap();
    assert!(dependencies(&adapter).iter().any(|d| d == "elicit-core"));
    let mut paths = Vec::new();
    files(&root.join("elicit-core/src"), &mut paths);
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            assert!(
                !line.contains("elicit_rmcp") && !line.contains("rmcp::"),
                "{} names an adapter or SDK in code: {line}",
                path.display()
            );
        }
    }
}

/// A file a reader can hold in mind: none of the library crates' source files is over
/// 800 lines (tests included); past that, it is split by what its parts do.
#[test]
fn no_library_file_is_over_800_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut long = Vec::new();
    for krate in ["elicit-core/src", "elicit-rmcp/src"] {
        let mut paths = Vec::new();
        files(&root.join(krate), &mut paths);
        for path in paths {
            let lines = std::fs::read_to_string(&path).unwrap().lines().count();
            if lines > 800 {
                long.push(format!("{}: {lines} lines", path.display()));
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The library crates turn on no feature of serde_json that changes how the user's whole
/// build reads or writes JSON (features unify): fields keep declaration order and numbers
/// read back exactly without `preserve_order` or `float_roundtrip` (`.ci/run` runs
/// elicit-core's own tests in a build without them).
#[test]
fn no_library_flips_a_serde_json_feature() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["elicit-core", "elicit-rmcp", "elicit-derive"] {
        let manifest = std::fs::read_to_string(root.join(krate).join("Cargo.toml")).unwrap();
        for line in manifest
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
        {
            for feature in ["preserve_order", "float_roundtrip", "arbitrary_precision"] {
                assert!(
                    !line.contains(feature),
                    "{krate} turns on serde_json's `{feature}`: {line}"
                );
            }
            if line.starts_with("serde_json") {
                assert!(!line.contains("features"), "{krate}: {line}");
            }
        }
    }
}
