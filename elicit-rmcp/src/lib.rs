//! Forms and wizards of [`elicit_core`] over a real MCP connection with
//! [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK, in both eras of the protocol.
//!
//! One tool body serves every client:
//!
//! - **push** (2025-06-18, 2025-11-25): each question is an `elicitation/create`
//!   request to the client, awaited in place;
//! - **rounds** (2026-07-28, the spec's Multi Round-Trip Requests): the server may not
//!   send requests, so a question ends the call with an `input_required` result; the
//!   client answers and retries the call, and the tool body runs again from the top.
//!   Answers of earlier rounds travel in `requestState`, sealed with [`elicit_core::seal`]
//!   (encrypted, expiring, bound to the principal, tool and arguments), so the server
//!   keeps nothing between rounds and any replica can take the next one;
//! - **Tasks** (2026-07-28 with the `io.modelcontextprotocol/tasks` extension, for tools
//!   that run long): the call is answered with a task, the body runs on, and each
//!   question waits in `tasks/get` until `tasks/update` brings its answer (see
//!   [`tasks`]).
//!
//! [`Session::channel`] tells which one a call got.
//!
//! A tool asks through a [`Session`]. Written the rmcp way, as a `#[tool]` method, it
//! takes the `Session` as an argument and returns [`Asked`] (its error arm a [`Halted`], the
//! engine's [`Halt`] as rmcp takes it); the server routes its tools
//! with [`Tools`] (an example is there). A hand-written `call_tool` opens the session
//! with [`Elicitor::tool`] and hands the result to [`Session::finish`]:
//!
//! ```no_run
//! use elicit_rmcp::{Elicitor, Halt, Session};
//! use elicit_core::{Elicit, Elicitation};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock};
//! use rmcp::service::{RequestContext, RoleServer};
//! use serde::Deserialize;
//!
//! #[derive(Elicit, Deserialize)]
//! struct Approve {
//!     #[elicit(title = "Approve the purge?")]
//!     approve: bool,
//! }
//!
//! async fn purge(s: &mut Session) -> Result<CallToolResult, Halt> {
//!     let text = match s.ask::<Approve>("Really delete 1,284 logs?").await? {
//!         Elicitation::Accept(a) if a.approve => "[DELETED]",
//!         Elicitation::Accept(_) | Elicitation::Decline => "[BLOCKED]",
//!         Elicitation::Cancel => "[CANCELLED]",
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
//! }
//!
//! async fn call_tool(
//!     elicitor: &Elicitor,
//!     params: CallToolRequestParams,
//!     ctx: RequestContext<RoleServer>,
//! ) -> Result<CallToolResponse, rmcp::ErrorData> {
//!     let mut s = elicitor.tool(&ctx, &params)?;
//!     let result = purge(&mut s).await;
//!     s.finish(result)
//! }
//! ```
//!
//! The tool body must be deterministic given its arguments and the answers: on
//! 2026-07-28 it is replayed once per round (the answers are replayed, not asked again).
//! Do side effects after the last question.
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "client")]
pub mod client;
mod elicitor;
#[cfg(feature = "http")]
pub mod http;
mod id;
mod link;
mod principal;
mod session;
pub mod tasks;
mod tools;
mod wire;

pub use elicit_core::engine::{AskError, Channel, Halt, Input, InputAnswer};
pub use elicitor::Elicitor;
pub use principal::Principal;
pub use session::Session;
pub use tasks::{TaskSupport, Tasks};
pub use tools::Tools;
#[allow(deprecated)]
pub use wire::MISSING_CAPABILITY;
pub use wire::{Asked, Halted, URL_ELICITATION_REQUIRED};

#[doc(hidden)]
pub mod __private {
    //! Not part of the API.
    /// rmcp, for the methods [`task_handlers!`](crate::task_handlers) writes.
    pub use ::rmcp;
}

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The example of this crate's own README (its page on crates.io), compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;

/// The examples of `docs/mcp.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/mcp.md")]
pub struct McpDoctests;

/// The examples of `docs/tasks.md`, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/tasks.md")]
pub struct TasksDoctests;

/// The examples of `docs/clients.md`, compiled as doctests (the rmcp one with the `client`
/// feature).
#[cfg(doctest)]
#[doc = include_str!("../../docs/clients.md")]
pub struct ClientsDoctests;
