//! `purge-approval`: the tutorial's log purge. `purge_old_logs(repo, days, dry_run)`
//! works on a real directory of `.log` files; a dry run only reports, a real purge first
//! asks for approval (a box that must be ticked, the approver's e-mail, the retention
//! days) and deletes only after an accept with the box ticked.
//!
//! Consent is exact: the approval lists the files (and, for a long list, a digest of
//! all of them), so on 2026-07-28 a list that changed between rounds changes the
//! question, which is then asked again; what is deleted is that list, re-checked file
//! by file, narrowed by a longer retention and never widened (a retention shorter than
//! `days` is refused). A repository is resolved inside the root: a symlink out of it
//! is refused, and only regular files (no symlinks) are deleted.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use elicit_core::Elicitation;
use elicit_rmcp::{Asked, Elicitor, Session, Tools};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};

use super::{text, tool_error};
use crate::forms::PurgeApproval;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// How many file names the approval lists; a longer list shows a digest of all.
const LISTED: usize = 20;

/// The ages, in days, of the sample logs [`create_samples`] writes.
pub const SAMPLE_AGES: [u64; 6] = [3, 20, 45, 100, 200, 400];

/// Writes sample logs into `root/demo-repo` (and `root/other-repo`), each dated
/// [`SAMPLE_AGES`] days back. Returns the repository directory.
pub fn create_samples(root: &Path) -> std::io::Result<PathBuf> {
    for repo in ["demo-repo", "other-repo"] {
        let dir = root.join(repo);
        std::fs::create_dir_all(&dir)?;
        for age in SAMPLE_AGES {
            let path = dir.join(format!("app-{age:03}d.log"));
            std::fs::write(&path, format!("log line from {age} days ago\n"))?;
            let when = SystemTime::now() - DAY * age as u32;
            std::fs::File::options()
                .write(true)
                .open(&path)?
                .set_modified(when)?;
        }
    }
    Ok(root.join("demo-repo"))
}

/// The arguments of `purge_old_logs`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct PurgeArgs {
    /// Repository name
    pub repo: String,
    /// Delete logs older than this many days
    #[schemars(range(min = 1, max = 3650))]
    pub days: u32,
    /// Only report what would be deleted
    pub dry_run: bool,
}

/// The `purge-approval` server.
#[derive(Clone, Debug)]
pub struct PurgeServer {
    tools: Tools<PurgeServer>,
    root: PathBuf,
}

#[tool_router]
impl PurgeServer {
    /// A server over the repositories under `root` (one directory of `.log` files each).
    pub fn new(elicitor: Elicitor, root: PathBuf) -> PurgeServer {
        PurgeServer {
            tools: Tools::new(elicitor, Self::tool_router()),
            root,
        }
    }

    /// The repository `name` under the root, resolved: `None` when it is missing or
    /// (through a symlink) outside the root.
    fn repo(&self, name: &str) -> std::io::Result<Option<PathBuf>> {
        let root = self.root.canonicalize()?;
        let Ok(repo) = root.join(name).canonicalize() else {
            return Ok(None);
        };
        Ok((repo.starts_with(&root) && repo != root && repo.is_dir()).then_some(repo))
    }

    /// The `.log` files of `repo` last modified more than `days` days ago, sorted:
    /// regular files only, never a symlink.
    fn old_logs(&self, repo: &Path, days: u32) -> std::io::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(repo)? {
            let path = entry?.path();
            if is_old_log(&path, days) {
                out.push(path);
            }
        }
        out.sort();
        Ok(out)
    }

    #[tool(
        description = "Delete log objects older than N days. dry_run=false performs real deletion after a human approves."
    )]
    async fn purge_old_logs(
        &self,
        Parameters(args): Parameters<PurgeArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        let name_ok = !args.repo.is_empty()
            && args.repo != "."
            && args.repo != ".."
            && args
                .repo
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !name_ok {
            return Ok(tool_error(format!(
                "{:?} is not a repository name: use letters, digits, '.', '_' and '-'",
                args.repo
            )));
        }
        if !(1..=3650).contains(&args.days) {
            return Ok(tool_error("`days` must be between 1 and 3650"));
        }
        let repo = self
            .repo(&args.repo)
            .map_err(|e| ErrorData::internal_error(format!("cannot open the root: {e}"), None))?;
        let Some(repo) = repo else {
            return Ok(tool_error(format!("no repository {:?}", args.repo)));
        };
        let target = format!("{}/logs (older than {}d)", args.repo, args.days);
        let old = self
            .old_logs(&repo, args.days)
            .map_err(|e| ErrorData::internal_error(format!("cannot list logs: {e}"), None))?;
        if args.dry_run {
            return Ok(text(format!(
                "[DRY-RUN] would delete {target}, {} objects (nothing removed)",
                old.len()
            )));
        }
        if old.is_empty() {
            return Ok(text(format!(
                "[NOTHING] no logs in {target}; nothing deleted"
            )));
        }
        if !s.supports_form() {
            return Ok(text(format!(
                "[BLOCKED] this client cannot show the approval form; nothing deleted from {target}"
            )));
        }
        let message = format!(
            "About to permanently delete {target}: {} objects. This cannot be undone. Please review.\n\n{}",
            old.len(),
            listing(&old)
        );
        Ok(match s.ask::<PurgeApproval>(&message).await? {
            Elicitation::Decline => text("[BLOCKED] user declined; nothing deleted"),
            Elicitation::Cancel => text("[CANCELLED] user dismissed the dialog"),
            Elicitation::Accept(a) if !a.confirm => {
                text("[BLOCKED] confirmation checkbox not ticked; aborted")
            }
            Elicitation::Accept(a) if u32::from(a.retention_days) < args.days => text(format!(
                "[BLOCKED] retention of {}d is shorter than the {}d approved for; nothing deleted",
                a.retention_days, args.days
            )),
            Elicitation::Accept(a) => {
                // Exactly the files the approval listed (the question pinned them),
                // each still an old regular file now; a longer retention keeps more.
                let mut deleted = 0;
                for path in &old {
                    if is_old_log(path, u32::from(a.retention_days))
                        && std::fs::remove_file(path).is_ok()
                    {
                        deleted += 1;
                    }
                }
                text(format!(
                    "[DELETED] {}/logs (older than {}d), {deleted} objects, approved by {}, retention={}d",
                    args.repo, a.retention_days, a.approver, a.retention_days
                ))
            }
        })
    }
}

/// Whether `path` is a regular `.log` file (not a symlink) last modified more than
/// `days` days ago.
fn is_old_log(path: &Path, days: u32) -> bool {
    let cutoff = SystemTime::now()
        .checked_sub(DAY * days)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    meta.file_type().is_file()
        && path.extension().is_some_and(|e| e == "log")
        && meta.modified().is_ok_and(|m| m < cutoff)
}

/// The file names an approval lists: all of them, or the first [`LISTED`] and a
/// digest of the whole list, so that any change to the list changes the question.
fn listing(paths: &[PathBuf]) -> String {
    use sha2::Digest;
    let names: Vec<String> = paths
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    if names.len() <= LISTED {
        return names.join(", ");
    }
    let digest = sha2::Sha256::digest(names.join("\n").as_bytes());
    let short: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}, and {} more (list {short})",
        names[..LISTED].join(", "),
        names.len() - LISTED
    )
}

#[tool_handler(
    router = self.tools,
    name = "purge-approval",
    instructions = "Deletes old log files. Call purge_old_logs with dry_run=true first; a real purge asks a human for approval."
)]
impl ServerHandler for PurgeServer {}
