//! `elicit-core`'s modules depend on each other one way only:
//! `form` ← `answer` ← `wizard` ← `engine` (which also uses `seal`, `store` and `web`),
//! `client` and `web` on `form` and `answer`, `store` on `seal`, `seal` on nothing, and
//! `__private` (the derives' glue and the tests' back doors) on any but the engine, none on
//! it. A module that names another outside its allowed list (`crate::x` in its code, docs
//! included, or an item the crate root re-exports from it, such as `crate::Elicit` for
//! `answer`) fails here, so an import cycle cannot come back unseen.
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
    ("store", &["seal"]),
    ("client", &["form", "answer"]),
    ("web", &["form", "answer"]),
    // The engine reads a page's form back from its schema as a client would (`client`).
    (
        "engine",
        &["form", "answer", "wizard", "seal", "store", "web", "client"],
    ),
    ("__private", &["form", "answer", "wizard", "seal"]),
];

/// Files the module check leaves out: the old paths of items that moved to another
/// module, kept for one release, which name the new home by what they are.
const OLD_PATHS: &[&str] = &["seal/moved.rs"];

/// The files of module `name`: `src/name.rs` and everything under `src/name/`.
fn module_files(src: &Path, name: &str) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let file = src.join(format!("{name}.rs"));
    if file.is_file() {
        paths.push(file);
    }
    if src.join(name).is_dir() {
        files(&src.join(name), &mut paths);
    }
    paths
}

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

/// The items the crate root re-exports from its own `modules` (`pub use answer::{Elicit,
/// ..}`), each with the module it comes from.
fn root_items(lib: &str, modules: &BTreeSet<&str>) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let code = code_of(lib);
    for (i, _) in code.match_indices("pub use ") {
        let rest = &code[i + "pub use ".len()..];
        let statement = &rest[..rest.find(';').unwrap_or(rest.len())];
        let Some((module, items)) = statement.split_once("::") else {
            continue;
        };
        if !modules.contains(module.trim()) {
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let item = item.trim();
            if !item.is_empty() && !item.contains("::") && !item.contains(' ') {
                out.insert(item.to_owned(), module.trim().to_owned());
            }
        }
    }
    out
}

#[test]
fn root_items_reads_groups_and_single_items() {
    let items = root_items(
        "mod answer;\npub use answer::{\n    Action, Elicit,\n};\npub use wizard::Wizard;\n\
         // pub use gone::Old;\npub use elicit_derive::Elicit;",
        &["answer", "wizard", "gone"].into(),
    );
    assert_eq!(items["Action"], "answer");
    assert_eq!(items["Elicit"], "answer");
    assert_eq!(items["Wizard"], "wizard");
    assert!(!items.contains_key("Old"));
}

#[test]
fn modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../elicit-core/src");
    let modules: BTreeSet<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let items = root_items(
        &std::fs::read_to_string(src.join("lib.rs")).unwrap(),
        &modules,
    );
    assert!(
        items.get("Elicit").is_some_and(|m| m == "answer"),
        "the crate root's re-exports were not read: {items:?}"
    );
    let mut problems = Vec::new();
    for (module, allowed) in ALLOWED {
        let paths = module_files(&src, module);
        assert!(!paths.is_empty(), "no files for module `{module}`");
        for path in paths {
            let relative = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if OLD_PATHS.contains(&relative.replace('\\', "/").as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for named in named_modules(&text) {
                // An item of the root names the module it is re-exported from.
                let named = items.get(&named).cloned().unwrap_or(named);
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

/// Inside `wizard/` the files depend one way too, item by item: no two files name each
/// other, directly or around a loop. A file names another with `super::x` or
/// `crate::wizard::x`, `x` being the other file or an item defined at its top level;
/// `mod.rs` names a file with `x::`. Doc comments do not count: a link builds no
/// dependency.
#[test]
fn wizard_files_depend_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../elicit-core/src/wizard");
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            texts.push((stem, code_of(&std::fs::read_to_string(&path).unwrap())));
        }
    }
    assert!(texts.len() > 2, "no files in {}", dir.display());
    let edges = file_edges(&texts);
    if let Some(cycle) = find_cycle(&edges) {
        panic!("files of wizard/ name each other: {}", cycle.join(" -> "));
    }
}

/// The code of a file: every line with its `//` comment (docs included) cut off.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names a file defines at its top level (`pub`, `pub(crate)` or private: a struct,
/// enum, trait, fn, const, static, type or union).
fn top_level_items(code: &str) -> BTreeSet<String> {
    let kinds = [
        "struct", "enum", "trait", "fn", "const", "static", "type", "union",
    ];
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.starts_with(char::is_whitespace)) {
        let mut words = line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .skip_while(|w| ["pub", "crate", "super", "async", "unsafe"].contains(w))
            .peekable();
        if words.peek() == Some(&"const") && line.contains("const fn ") {
            words.next();
        }
        if let (Some(kind), Some(name)) = (words.next(), words.next())
            && kinds.contains(&kind)
        {
            out.insert(name.to_owned());
        }
    }
    out
}

/// Which files each file names: `file -> {files}`, self-references left out.
fn file_edges(texts: &[(String, String)]) -> Vec<(String, BTreeSet<String>)> {
    let stems: BTreeSet<&str> = texts.iter().map(|(s, _)| s.as_str()).collect();
    let mut defined_in = std::collections::BTreeMap::new();
    for (stem, code) in texts {
        for item in top_level_items(code) {
            defined_in.insert(item, stem.clone());
        }
    }
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (stem, code) in texts {
        let mut named = BTreeSet::new();
        let mut first_segments = Vec::new();
        for prefix in ["super::", "crate::wizard::"] {
            for (i, _) in code.match_indices(prefix) {
                let rest = &code[i + prefix.len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    // The names at depth 0 of `{a::B, c, d::{E, F}}`.
                    let (mut depth, mut start) = (0, 0);
                    for (j, c) in group.char_indices() {
                        match c {
                            '{' => depth += 1,
                            '}' if depth == 0 => {
                                first_segments.push(ident(&group[start..j]));
                                break;
                            }
                            '}' => depth -= 1,
                            ',' if depth == 0 => {
                                first_segments.push(ident(&group[start..j]));
                                start = j + 1;
                            }
                            _ => {}
                        }
                    }
                } else {
                    first_segments.push(ident(rest));
                }
            }
        }
        if stem == "mod" {
            // The facade names its files as `x::` (`mod x;` declares, `pub use x::..` re-exports).
            for other in &stems {
                for (i, _) in code.match_indices(&format!("{other}::")) {
                    let before = code[..i].chars().next_back();
                    if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                        first_segments.push((*other).to_owned());
                    }
                }
            }
        }
        for name in first_segments {
            let target = if stems.contains(name.as_str()) {
                Some(name)
            } else {
                defined_in.get(&name).cloned()
            };
            if let Some(target) = target
                && target != *stem
            {
                named.insert(target);
            }
        }
        out.push((stem.clone(), named));
    }
    out
}

/// A loop of files naming each other, if there is one: `[a, b, a]`.
fn find_cycle(edges: &[(String, BTreeSet<String>)]) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &[(String, BTreeSet<String>)],
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        let next = edges
            .iter()
            .find(|(n, _)| n == node)
            .map(|(_, e)| e.clone());
        for other in next.unwrap_or_default() {
            if let Some(cycle) = visit(&other, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .iter()
        .find_map(|(node, _)| visit(node, edges, &mut Vec::new(), &mut done))
}

/// The file check sees paths, groups, items and the facade, and finds a loop.
#[test]
fn file_edges_read_paths_groups_and_items() {
    let texts = [
        (
            "flow".to_owned(),
            code_of(
                "use super::state::{End, Pending};\nuse super::{derived::Wizard, Rejection};\npub struct Flow;",
            ),
        ),
        (
            "state".to_owned(),
            code_of(
                "/// [`Flow`](super::Flow)\npub(super) enum End {}\nfn f() -> crate::wizard::Flow { todo!() }",
            ),
        ),
        (
            "derived".to_owned(),
            code_of("pub trait Wizard {}\npub enum Rejection {}"),
        ),
        (
            "mod".to_owned(),
            code_of("mod flow;\npub use flow::Flow;\npub use derived::Wizard;"),
        ),
    ];
    let edges = file_edges(&texts);
    let of = |n: &str| {
        edges
            .iter()
            .find(|(s, _)| s == n)
            .unwrap()
            .1
            .iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(of("flow"), ["derived", "state"]);
    // The doc link does not count; the path in code does.
    assert_eq!(of("state"), ["flow"]);
    assert_eq!(of("mod"), ["derived", "flow"]);
    assert_eq!(find_cycle(&edges).unwrap(), ["flow", "state", "flow"]);
    let one_way: Vec<_> = edges.into_iter().filter(|(s, _)| s != "state").collect();
    assert_eq!(find_cycle(&one_way), None);
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

/// `elicit-rmcp`'s modules name each other one way only, item by item: `lib.rs` re-exports,
/// and no module names one that names it back, directly or around a loop. A module is a
/// top-level file with the files under its folder; it names another with `crate::x`,
/// `crate::Item` or `super::x` (`x` the other module or an item defined at its top level,
/// so a re-export at the root counts for the module that defines the item). Doc comments do
/// not count.
#[test]
fn rmcp_modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../elicit-rmcp/src");
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut code = code_of(&std::fs::read_to_string(&path).unwrap());
        let mut nested = Vec::new();
        if src.join(&stem).is_dir() {
            files(&src.join(&stem), &mut nested);
        }
        nested.sort();
        for file in nested {
            code.push('\n');
            code.push_str(&code_of(&std::fs::read_to_string(file).unwrap()));
        }
        // In a top-level module `crate::x` and `super::x` are one path; `lib.rs` is the
        // facade (`mod`), which names its modules as `x::`.
        let stem = if stem == "lib" {
            "mod".to_owned()
        } else {
            stem
        };
        texts.push((stem, code.replace("crate::", "super::")));
    }
    let edges = file_edges(&texts);
    let names = |from: &str, to: &str| {
        edges
            .iter()
            .any(|(s, named)| s == from && named.contains(to))
    };
    // The check sees the paths it is about.
    assert!(names("tools", "elicitor"), "{edges:?}");
    assert!(names("session", "wire"), "{edges:?}");
    assert!(names("mod", "session"), "{edges:?}");
    if let Some(cycle) = find_cycle(&edges) {
        panic!(
            "modules of elicit-rmcp name each other: {}",
            cycle.join(" -> ")
        );
    }
}
