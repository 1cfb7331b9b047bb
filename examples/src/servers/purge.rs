//! `purge-approval`: the tutorial's log purge. `purge_old_logs(repo, days, dry_run)`
//! works on a real directory of `.log` files; a dry run only reports, a real purge first
//! asks for approval (a box that must be ticked, the approver's e-mail, the retention
//! days) and deletes only after an accept with the box ticked.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use elicit_core::Elicitation;
use elicit_core::mcp::{Elicitor, Halt, Session};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde::Deserialize;
use serde_json::json;

use super::{text, tool, tool_error};
use crate::forms::PurgeApproval;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

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
#[derive(Debug, Deserialize)]
struct Args {
    repo: String,
    days: u32,
    dry_run: bool,
}

/// The `purge-approval` server.
#[derive(Clone, Debug)]
pub struct PurgeServer {
    elicitor: Elicitor,
    root: PathBuf,
}

impl PurgeServer {
    /// A server over the repositories under `root` (one directory of `.log` files each).
    pub fn new(elicitor: Elicitor, root: PathBuf) -> PurgeServer {
        PurgeServer { elicitor, root }
    }

    /// The `.log` files of `repo` last modified more than `days` days ago, sorted.
    fn old_logs(&self, repo: &Path, days: u32) -> std::io::Result<Vec<PathBuf>> {
        let cutoff = SystemTime::now()
            .checked_sub(DAY * days)
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let mut out = Vec::new();
        for entry in std::fs::read_dir(repo)? {
            let entry = entry?;
            let path = entry.path();
            let meta = entry.metadata()?;
            if meta.is_file()
                && path.extension().is_some_and(|e| e == "log")
                && meta.modified()? < cutoff
            {
                out.push(path);
            }
        }
        out.sort();
        Ok(out)
    }

    async fn purge(&self, s: &mut Session, args: Args) -> Result<CallToolResult, Halt> {
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
        let repo = self.root.join(&args.repo);
        if !repo.is_dir() {
            return Ok(tool_error(format!("no repository {:?}", args.repo)));
        }
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
            "About to permanently delete {target}: {} objects. This cannot be undone. Please review.",
            old.len()
        );
        Ok(match s.ask::<PurgeApproval>(&message).await? {
            Elicitation::Decline => text("[BLOCKED] user declined; nothing deleted"),
            Elicitation::Cancel => text("[CANCELLED] user dismissed the dialog"),
            Elicitation::Accept(a) if !a.confirm => {
                text("[BLOCKED] confirmation checkbox not ticked; aborted")
            }
            Elicitation::Accept(a) => {
                // The approver sets the retention actually kept.
                let doomed = self
                    .old_logs(&repo, u32::from(a.retention_days))
                    .map_err(|e| {
                        ErrorData::internal_error(format!("cannot list logs: {e}"), None)
                    })?;
                let mut deleted = 0;
                for path in &doomed {
                    if std::fs::remove_file(path).is_ok() {
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

impl ServerHandler for PurgeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "purge-approval",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Deletes old log files. Call purge_old_logs with dry_run=true first; a real purge asks a human for approval.",
            )
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![tool(
            "purge_old_logs",
            "Delete log objects older than N days. dry_run=false performs real deletion after a human approves.",
            json!({
                "type": "object",
                "properties": {
                    "repo": {"type": "string", "description": "Repository name"},
                    "days": {"type": "integer", "minimum": 1, "maximum": 3650, "description": "Delete logs older than this many days"},
                    "dry_run": {"type": "boolean", "description": "Only report what would be deleted"}
                },
                "required": ["repo", "days", "dry_run"]
            }),
        )]))
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if params.name != "purge_old_logs" {
            return Err(ErrorData::invalid_params(
                format!("unknown tool {:?}", params.name),
                None,
            ));
        }
        let args: Args = serde_json::from_value(serde_json::Value::Object(
            params.arguments.clone().unwrap_or_default(),
        ))
        .map_err(|e| {
            ErrorData::invalid_params(
                format!(
                    "purge_old_logs takes repo (string), days (integer), dry_run (boolean): {e}"
                ),
                None,
            )
        })?;
        let mut s = self.elicitor.tool(&ctx, &params)?;
        let result = self.purge(&mut s, args).await;
        s.finish(result)
    }
}
