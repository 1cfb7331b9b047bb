//! `purge-approval`: the tutorial's log purge. `purge_old_logs(repo, days, dry_run)`
//! works on a real directory of `.log` files; a dry run only reports, a real purge first
//! asks for approval (a box that must be ticked, the approver's e-mail, the retention
//! days) and deletes only after an accept with the box ticked. Given an elicitor with
//! pages (`Elicitor::with_pages`), it asks a client that shows no forms but takes URL
//! mode on a web page; the approval is a consent (`#[elicit(consent)]`), so never by a
//! link in the tool result, which the model reads too, unless the pages allow it
//! (`--consent-by-link`).
//!
//! Consent is exact: the approval lists the files (and, for a long list, a digest of
//! all of them) and names the directory they are in by its identity (device and inode),
//! so on 2026-07-28 a list or a directory that changed between rounds changes the
//! question, which is then asked again; what is deleted is that list, re-checked file
//! by file, narrowed by a longer retention and never widened (the form offers the call's
//! `days` as the default and the least retention).
//!
//! Files are reached through directory handles, never through paths: the repository is
//! opened inside the root without following a link (a symlinked repository is refused),
//! and after the answer it is opened again and must be the very directory approved
//! (else nothing is deleted), and each file is checked and unlinked relative to that
//! handle (`openat`/`unlinkat`), so swapping the repository for a link while the form
//! is open cannot send the deletion elsewhere. Only regular files are deleted. (Unix
//! only: it needs those calls.)

use std::ffi::{OsStr, OsString};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, Mode, OFlags};

use elicit_core::Elicitation;
use elicit_core::engine::{AskError, Halt};
use elicit_core::wizard::Prepared;
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
    /// The elicitor asks on web pages: a client without forms that takes URL mode still
    /// approves.
    pages: bool,
}

#[tool_router]
impl PurgeServer {
    /// A server over the repositories under `root` (one directory of `.log` files each).
    pub fn new(elicitor: Elicitor, root: PathBuf) -> PurgeServer {
        PurgeServer {
            pages: elicitor.pages().is_some(),
            tools: Tools::new(elicitor, Self::tool_router()),
            root,
        }
    }

    /// The repository `name` under the root, opened without following a link: `None`
    /// when it is missing, not a directory, or a symlink.
    fn repo(&self, name: &str) -> std::io::Result<Option<Repo>> {
        let root = rustix::fs::open(
            &self.root,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC;
        match rustix::fs::openat(&root, name, flags, Mode::empty()) {
            Ok(fd) => {
                let stat = rustix::fs::fstat(&fd)?;
                let id = (stat.st_dev as u64, stat.st_ino as u64);
                Ok(Some(Repo { fd, id }))
            }
            // Missing, a file, or a link (`O_NOFOLLOW` refuses one with ELOOP, or with
            // ENOTDIR next to `O_DIRECTORY`).
            Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR | rustix::io::Errno::LOOP) => {
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
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
        let old = old_logs(&repo.fd, args.days)
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
        let blocked = || {
            text(format!(
                "[BLOCKED] this client cannot show the approval form; nothing deleted from {target}"
            ))
        };
        if !s.peer().supports("form") && !self.pages {
            return Ok(blocked());
        }
        // The directory's identity is part of the question: another directory put in
        // its place between rounds is another question.
        let message = format!(
            "About to permanently delete {target}: {} objects. This cannot be undone. Please review.\n\n{}\n\n(directory {}, id {}:{})",
            old.len(),
            listing(&old),
            args.repo,
            repo.id.0,
            repo.id.1
        );
        let approved = repo.id;
        drop(repo);
        // The form as the call shaped it: the call's days are the default retention
        // and the least one (a longer retention narrows the purge; a shorter one would
        // widen it and is refused by the form).
        let approval = Prepared::new()
            .message(message)
            .range("retention_days", args.days, 3650)
            .default_value("retention_days", args.days);
        // Where the client shows no forms the approval goes on a page: by URL mode, never
        // by a link in the tool result (the model reads it too, and could approve the purge
        // itself) unless the pages allow a consent by link (`--consent-by-link`). Without a
        // way to ask the person, nothing is deleted.
        let asked = match s.ask::<PurgeApproval>(approval).await {
            Err(Halt::Ask(AskError::Unsupported { .. })) => return Ok(blocked()),
            asked => asked?,
        };
        Ok(match asked {
            Elicitation::Decline => text("[BLOCKED] user declined; nothing deleted"),
            Elicitation::Cancel => text("[CANCELLED] user dismissed the dialog"),
            Elicitation::Accept(a) if !a.confirm => {
                text("[BLOCKED] confirmation checkbox not ticked; aborted")
            }
            Elicitation::Accept(a) => {
                // The repository again, after the wait: it must be the very directory
                // approved, not whatever now has its name.
                let now = self.repo(&args.repo).map_err(|e| {
                    ErrorData::internal_error(format!("cannot open the root: {e}"), None)
                })?;
                let Some(repo) = now.filter(|r| r.id == approved) else {
                    return Ok(text(format!(
                        "[BLOCKED] {} is no longer the directory approved; nothing deleted",
                        args.repo
                    )));
                };
                // Exactly the files the approval listed (the question pinned them),
                // each still an old regular file in that directory now; a longer
                // retention keeps more.
                let mut deleted = 0;
                for name in &old {
                    if is_old_log(&repo.fd, name, u32::from(a.retention_days))
                        && rustix::fs::unlinkat(&repo.fd, name.as_os_str(), AtFlags::empty())
                            .is_ok()
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

/// An open repository directory and its identity (device, inode).
struct Repo {
    fd: OwnedFd,
    id: (u64, u64),
}

/// The names of the `.log` files in directory `dir` last modified more than `days` days
/// ago, sorted: regular files only, never a symlink.
fn old_logs(dir: &OwnedFd, days: u32) -> std::io::Result<Vec<OsString>> {
    let mut out = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let name = OsStr::from_bytes(entry?.file_name().to_bytes()).to_owned();
        if is_old_log(dir, &name, days) {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `name` in directory `dir` is a regular `.log` file (not a symlink) last
/// modified more than `days` days ago.
fn is_old_log(dir: &OwnedFd, name: &OsStr, days: u32) -> bool {
    let cutoff = SystemTime::now()
        .checked_sub(DAY * days)
        .unwrap_or(SystemTime::UNIX_EPOCH)
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if Path::new(name).extension().is_none_or(|e| e != "log") {
        return false;
    }
    let Ok(stat) = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) else {
        return false;
    };
    rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file()
        && u64::try_from(stat.st_mtime).is_ok_and(|m| m < cutoff)
}

/// The file names an approval lists: all of them, or the first [`LISTED`] and a
/// digest of the whole list, so that any change to the list changes the question.
fn listing(files: &[OsString]) -> String {
    use sha2::Digest;
    let names: Vec<String> = files
        .iter()
        .map(|n| n.to_string_lossy().into_owned())
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
