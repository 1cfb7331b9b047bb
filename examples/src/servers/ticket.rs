//! `ticket-booking`: the cinema wizard (date, then a seat for that date, then snacks,
//! then a popcorn size only with popcorn) as the tool `book_tickets`.

use std::sync::{Arc, Mutex};

use elicit_core::wizard::Outcome;
use elicit_rmcp::{Asked, Elicitor, Session, TaskSupport, Tools};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};

use super::inventory::Inventory;
use super::text;
use crate::ticket::{Cinema, TicketOrder};

/// The `ticket-booking` server.
#[derive(Clone, Debug)]
pub struct TicketServer {
    tools: Tools<TicketServer>,
    inventory: Inventory,
    /// The elicitor asks on web pages: a client without forms still books.
    pages: bool,
}

/// The arguments of `pay_tickets`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct PayArgs {
    /// The order id
    pub order: String,
    /// Ask with a -32042 error (2025-11-25) instead of a request
    #[serde(default)]
    pub via_error: bool,
}

#[tool_router]
impl TicketServer {
    /// A server selling the seats of `cinema`, in this process.
    pub fn new(elicitor: Elicitor, cinema: Arc<Mutex<Cinema>>) -> TicketServer {
        TicketServer::with_inventory(elicitor, Inventory::Local(cinema))
    }

    /// A server selling the seats of `inventory` (this process's, or a shared Redis).
    /// `book_tickets` runs as a task for a client that declared the Tasks extension,
    /// when `elicitor` keeps tasks (`Elicitor::with_tasks`).
    pub fn with_inventory(elicitor: Elicitor, inventory: Inventory) -> TicketServer {
        TicketServer {
            pages: elicitor.pages().is_some(),
            tools: Tools::new(elicitor, Self::tool_router())
                .with_task_support("book_tickets", TaskSupport::Optional),
            inventory,
        }
    }

    #[tool(
        description = "Book a cinema ticket: asks the user for a date, a free seat, snacks and a popcorn size."
    )]
    async fn book_tickets(&self, mut s: Session) -> Asked<CallToolResult> {
        if !s.peer().supports("form") && !self.pages {
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
                // Seen in `tasks/get` when the booking runs as a task.
                s.set_status(format!(
                    "Booking seat {} on {}",
                    order.seat.seat, order.date.date
                ));
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
            Outcome::Failed { step, reason, .. } => text(format!(
                "Nothing booked: too many unusable answers at the {} step ({reason}).",
                step.name
            )),
            _ => text("Nothing booked."),
        })
    }

    /// `pay_tickets`: the payment cannot be a form (card numbers are secrets), so the
    /// user is sent to a payment page: a URL-mode elicitation. With `via_error` on
    /// 2025-11-25 the call fails with `-32042` instead, naming the page, so the client
    /// opens it and retries.
    #[tool(
        description = "Pay for an order on the payment page (opened through the client, never a form)."
    )]
    async fn pay_tickets(
        &self,
        Parameters(PayArgs { order, via_error }): Parameters<PayArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        if order.is_empty() || !order.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(ErrorData::invalid_params(
                "`order` (letters, digits and '-') is required",
                None,
            )
            .into());
        }
        let url = format!("https://pay.example.com/checkout/{order}");
        let message = format!("Pay for order {order} on the payment page");
        if via_error && let Some((error, _id)) = s.url_required_error(&message, &url) {
            return Err(error.into());
        }
        if !s.peer().supports("url") {
            return Ok(text(format!(
                "This client cannot open payment pages; pay for order {order} at {url}"
            )));
        }
        Ok(match s.ask_url(&message, &url).await? {
            elicit_core::Elicitation::Accept(id) => {
                // A real server would wait for the payment provider's callback; the demo
                // treats the payment as done at once.
                if let Some(id) = &id {
                    s.notify_url_complete(id).await?;
                }
                text(format!("Payment page opened for order {order}."))
            }
            elicit_core::Elicitation::Decline => {
                text(format!("Payment for order {order} declined."))
            }
            elicit_core::Elicitation::Cancel => {
                text(format!("Payment for order {order} cancelled."))
            }
        })
    }
}

#[tool_handler(router = self.tools)]
impl ServerHandler for TicketServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new(
            "ticket-booking",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions("Books cinema tickets step by step. Call book_tickets.")
    }

    elicit_rmcp::task_handlers!(tools);
}
