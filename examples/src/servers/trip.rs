//! `book-trip`: the book's travel example. On a sold-out date it asks "check
//! alternative dates?" with a new date, checks again, and books or explains.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use elicit_core::Elicitation;
use elicit_rmcp::{Asked, Elicitor, Session, Tools};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

use super::{text, tool_error};
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
    tools: Tools<TripServer>,
    inventory: Arc<Mutex<Inventory>>,
}

/// The arguments of `book-trip`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct TripArgs {
    /// The travel date, YYYY-MM-DD
    #[schemars(extend("format" = "date"))]
    pub date: String,
}

#[tool_router]
impl TripServer {
    /// A server over `inventory`.
    pub fn new(elicitor: Elicitor, inventory: Arc<Mutex<Inventory>>) -> TripServer {
        TripServer {
            tools: Tools::new(elicitor, Self::tool_router()),
            inventory,
        }
    }

    fn available(&self, date: &str) -> bool {
        self.inventory.lock().is_ok_and(|i| i.available(date))
    }

    fn book(&self, date: &str) -> bool {
        self.inventory.lock().is_ok_and(|mut i| i.book(date))
    }

    #[tool(
        name = "book-trip",
        description = "Book a trip on a date; on a sold-out date, offers to pick another."
    )]
    async fn book_trip(
        &self,
        Parameters(TripArgs { date }): Parameters<TripArgs>,
        mut s: Session,
    ) -> Asked<CallToolResult> {
        if !elicit_core::Format::Date.accepts(&date) {
            return Ok(tool_error(format!(
                "{date:?} is not a date: use YYYY-MM-DD, e.g. 2025-02-03"
            )));
        }
        if self.available(&date) {
            // Only the last step has side effects: on 2026-07-28 the body is replayed.
            return Ok(if self.book(&date) {
                text(format!("Trip booked on {date}"))
            } else {
                tool_error(format!("The trip on {date} was just taken"))
            });
        }
        if !s.peer().supports("form") {
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

#[tool_handler(
    router = self.tools,
    name = "book-trip",
    instructions = "Books trips. Call book-trip with a date (YYYY-MM-DD)."
)]
impl ServerHandler for TripServer {}
