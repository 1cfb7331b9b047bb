//! `book-trip`: the book's travel example. On a sold-out date it asks "check
//! alternative dates?" with a new date, checks again, and books or explains.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use elicit_core::Elicitation;
use elicit_core::mcp::{Elicitor, Halt, Session};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::json;

use super::{text, tool, tool_error};
use crate::forms::Alternatives;

/// Which dates still have trips, and which were booked.
#[derive(Debug)]
pub struct Inventory {
    free: BTreeSet<String>,
    booked: Vec<String>,
}

impl Inventory {
    /// The book's inventory counted from `today`: the next two days are sold out; there
    /// are trips in three and in five days.
    pub fn demo_from(today: time::Date) -> Inventory {
        Inventory {
            free: [3, 5].map(|days| crate::clock::day(today, days)).into(),
            booked: Vec::new(),
        }
    }

    /// The book's inventory on fixed dates, counted from
    /// [`clock::PINNED`](crate::clock::PINNED): 2025-02-01 and 2025-02-02 are sold out;
    /// 2025-02-03 and 2025-02-05 have trips.
    pub fn demo() -> Inventory {
        Inventory::demo_from(crate::clock::PINNED)
    }

    /// Whether a trip is free on `date`.
    pub fn available(&self, date: &str) -> bool {
        self.free.contains(date)
    }

    /// Books the trip on `date`; false when there is none.
    pub fn book(&mut self, date: &str) -> bool {
        if self.free.remove(date) {
            self.booked.push(date.to_owned());
            true
        } else {
            false
        }
    }

    /// Dates booked so far.
    pub fn booked(&self) -> &[String] {
        &self.booked
    }
}

/// The `book-trip` server.
#[derive(Clone, Debug)]
pub struct TripServer {
    elicitor: Elicitor,
    inventory: Arc<Mutex<Inventory>>,
}

impl TripServer {
    /// A server over `inventory`.
    pub fn new(elicitor: Elicitor, inventory: Arc<Mutex<Inventory>>) -> TripServer {
        TripServer {
            elicitor,
            inventory,
        }
    }

    fn available(&self, date: &str) -> bool {
        self.inventory.lock().is_ok_and(|i| i.available(date))
    }

    fn book(&self, date: &str) -> bool {
        self.inventory.lock().is_ok_and(|mut i| i.book(date))
    }

    async fn book_trip(&self, s: &mut Session, date: &str) -> Result<CallToolResult, Halt> {
        if !elicit_core::Format::Date.accepts(date) {
            return Ok(tool_error(format!(
                "{date:?} is not a date: use YYYY-MM-DD, e.g. 2025-02-03"
            )));
        }
        if self.available(date) {
            // Only the last step has side effects: on 2026-07-28 the body is replayed.
            return Ok(if self.book(date) {
                text(format!("Trip booked on {date}"))
            } else {
                tool_error(format!("The trip on {date} was just taken"))
            });
        }
        if !s.supports_form() {
            return Ok(text(format!(
                "No trip available on {date}, and this client cannot show forms to offer another date."
            )));
        }
        let message =
            format!("No trip available on {date}. Would you like to check alternative dates?");
        Ok(match s.ask::<Alternatives>(&message).await? {
            Elicitation::Accept(a) if a.check_alternatives => match a.new_date {
                Some(new) if self.available(&new) && self.book(&new) => {
                    text(format!("Trip booked on alternate date: {new}"))
                }
                Some(new) => text(format!(
                    "No trip available on {new} either. Nothing booked."
                )),
                None => text("No alternative date was given. Nothing booked."),
            },
            Elicitation::Accept(_) => {
                text("You chose not to look for another date. Nothing booked.")
            }
            Elicitation::Decline => text("You declined to pick another date. Nothing booked."),
            Elicitation::Cancel => text("Booking cancelled."),
        })
    }
}

impl ServerHandler for TripServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("book-trip", env!("CARGO_PKG_VERSION")))
            .with_instructions("Books trips. Call book-trip with a date (YYYY-MM-DD).")
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![tool(
            "book-trip",
            "Book a trip on a date; on a sold-out date, offers to pick another.",
            json!({
                "type": "object",
                "properties": {
                    "date": {"type": "string", "format": "date", "description": "The travel date, YYYY-MM-DD"}
                },
                "required": ["date"]
            }),
        )]))
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if params.name != "book-trip" {
            return Err(ErrorData::invalid_params(
                format!("unknown tool {:?}", params.name),
                None,
            ));
        }
        let date = params
            .arguments
            .as_ref()
            .and_then(|a| a.get("date"))
            .and_then(|d| d.as_str())
            .ok_or_else(|| ErrorData::invalid_params("`date` (a string) is required", None))?
            .to_owned();
        let mut s = self.elicitor.tool(&ctx, &params)?;
        let result = self.book_trip(&mut s, &date).await;
        s.finish(result)
    }
}
