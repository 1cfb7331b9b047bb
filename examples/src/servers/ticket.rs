//! `ticket-booking`: the cinema wizard (date, then a seat for that date, then snacks,
//! then a popcorn size only with popcorn) as the tool `book_tickets`.

use std::sync::{Arc, Mutex};

use elicit_core::mcp::{Elicitor, Halt, Session};
use elicit_core::wizard::Outcome;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;

use super::inventory::Inventory;
use super::{text, tool};
use crate::ticket::{Cinema, TicketOrder};

/// The `ticket-booking` server.
#[derive(Clone, Debug)]
pub struct TicketServer {
    elicitor: Elicitor,
    inventory: Inventory,
}

impl TicketServer {
    /// A server selling the seats of `cinema`, in this process.
    pub fn new(elicitor: Elicitor, cinema: Arc<Mutex<Cinema>>) -> TicketServer {
        TicketServer::with_inventory(elicitor, Inventory::Local(cinema))
    }

    /// A server selling the seats of `inventory` (this process's, or a shared Redis).
    pub fn with_inventory(elicitor: Elicitor, inventory: Inventory) -> TicketServer {
        TicketServer {
            elicitor,
            inventory,
        }
    }

    async fn book(&self, s: &mut Session) -> Result<CallToolResult, Halt> {
        if !s.supports_form() {
            return Ok(text(
                "This client cannot show forms, so the booking wizard cannot run here.",
            ));
        }
        let snapshot = self
            .inventory
            .snapshot()
            .await
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(match s.wizard::<TicketOrder>(&snapshot).await? {
            Outcome::Completed(order) => {
                let sold = self
                    .inventory
                    .take(&order.date.date, &order.seat.seat)
                    .await
                    .map_err(|e| ErrorData::internal_error(e, None))?;
                if !sold {
                    return Ok(text(format!(
                        "Seat {} on {} was just sold to someone else; nothing booked.",
                        order.seat.seat, order.date.date
                    )));
                }
                let mut extras = Vec::new();
                if order.snacks.popcorn {
                    match &order.size {
                        Some(size) => {
                            extras.push(format!("{:?} popcorn", size.size).to_lowercase())
                        }
                        None => extras.push("popcorn".to_owned()),
                    }
                }
                if let Some(drink) = order.snacks.drink {
                    extras.push(format!("{drink:?}").to_lowercase());
                }
                let extras = if extras.is_empty() {
                    "no snacks".to_owned()
                } else {
                    extras.join(" and ")
                };
                text(format!(
                    "Booked seat {} on {} with {extras}.",
                    order.seat.seat, order.date.date
                ))
            }
            Outcome::Declined(step) => text(format!(
                "Nothing booked: you declined the {} step.",
                step.name
            )),
            Outcome::Cancelled(step) => {
                text(format!("Booking cancelled at the {} step.", step.name))
            }
            Outcome::Failed { step, reason } => text(format!(
                "Nothing booked: too many unusable answers at the {} step ({reason}).",
                step.name
            )),
        })
    }
}

impl TicketServer {
    /// `pay_tickets`: the payment cannot be a form (card numbers are secrets), so the
    /// user is sent to a payment page: a URL-mode elicitation. With `via_error` on
    /// 2025-11-25 the call fails with `-32042` instead, naming the page, so the client
    /// opens it and retries.
    async fn pay(
        &self,
        s: &mut Session,
        order: &str,
        via_error: bool,
    ) -> Result<CallToolResult, Halt> {
        let url = format!("https://pay.example.com/checkout/{order}");
        let message = format!("Pay for order {order} on the payment page");
        if via_error && let Some((error, _id)) = s.url_required_error(&message, &url) {
            return Err(Halt::Error(error));
        }
        if !s.supports_url() {
            return Ok(text(format!(
                "This client cannot open payment pages; pay for order {order} at {url}"
            )));
        }
        let answer = s.ask_url(&message, &url).await?;
        Ok(match answer.action {
            elicit_core::Action::Accept => {
                // A real server would wait for the payment provider's callback; the demo
                // treats the payment as done at once.
                if let Some(id) = &answer.elicitation_id {
                    s.notify_url_complete(id).await?;
                }
                text(format!("Payment page opened for order {order}."))
            }
            elicit_core::Action::Decline => text(format!("Payment for order {order} declined.")),
            elicit_core::Action::Cancel => text(format!("Payment for order {order} cancelled.")),
        })
    }
}

impl ServerHandler for TicketServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "ticket-booking",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Books cinema tickets step by step. Call book_tickets.")
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            tool(
                "book_tickets",
                "Book a cinema ticket: asks the user for a date, a free seat, snacks and a popcorn size.",
                json!({"type": "object", "properties": {}}),
            ),
            tool(
                "pay_tickets",
                "Pay for an order on the payment page (opened through the client, never a form).",
                json!({
                    "type": "object",
                    "properties": {
                        "order": {"type": "string", "description": "The order id"},
                        "via_error": {"type": "boolean", "description": "Ask with a -32042 error (2025-11-25) instead of a request"}
                    },
                    "required": ["order"]
                }),
            ),
        ]))
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut s = self.elicitor.tool(&ctx, &params)?;
        let result = match params.name.as_ref() {
            "book_tickets" => self.book(&mut s).await,
            "pay_tickets" => {
                let args = params.arguments.as_ref();
                let order = args
                    .and_then(|a| a.get("order"))
                    .and_then(|o| o.as_str())
                    .filter(|o| {
                        !o.is_empty() && o.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    })
                    .ok_or_else(|| {
                        ErrorData::invalid_params(
                            "`order` (letters, digits and '-') is required",
                            None,
                        )
                    })?
                    .to_owned();
                let via_error = args
                    .and_then(|a| a.get("via_error"))
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                self.pay(&mut s, &order, via_error).await
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other:?}"),
                    None,
                ));
            }
        };
        s.finish(result)
    }
}
