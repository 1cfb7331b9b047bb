//! The future of a routed tool call stays small. rmcp spawns a task per request and moves
//! the handler's future into it, so every byte of `Tools::call`'s future is copied on
//! every round. The router's future (the tool's own, with its session and questions) is
//! boxed once inside `Tools::call`; held inline, and twice through an async wrapper, it
//! makes the handler's future about three times as large.

use std::future::Future;

use elicit_examples::servers::purge::PurgeServer;
use elicit_examples::servers::ticket::TicketServer;
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RequestContext, RoleServer};

/// The size of the future `call` returns, found from its type alone (nothing is called).
fn future_size<'a, S: 'a, Fut: Future>(
    _call: impl FnOnce(&'a S, CallToolRequestParams, RequestContext<RoleServer>) -> Fut,
) -> usize {
    std::mem::size_of::<Fut>()
}

/// The most a server's `call_tool` future may take: the request context and params rmcp
/// hands over, with room for a few locals, never the tool's own future.
const MOST: usize = 1536;

#[test]
fn a_routed_tool_call_keeps_its_future_small() {
    let ticket = future_size(|s: &TicketServer, params, ctx| s.call_tool(params, ctx));
    let purge = future_size(|s: &PurgeServer, params, ctx| s.call_tool(params, ctx));
    for (server, size) in [("ticket", ticket), ("purge", purge)] {
        assert!(
            size <= MOST,
            "the {server} server's call_tool future is {size} bytes, more than {MOST}: is \
             the router's future held inline (see Tools::call)?"
        );
    }
}
