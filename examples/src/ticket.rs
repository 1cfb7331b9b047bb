//! The cinema ticket wizard: a date among the days with free seats, a seat among the
//! free ones for that date, snacks, and a popcorn size only if popcorn was wanted.

use std::collections::BTreeMap;
use std::sync::Arc;

use elicit_core::wizard::{Outcome, Prepared, PreparedForm};
use elicit_core::{Choice, Elicit, Wizard};
use serde::Deserialize;
use time::Date;

use crate::clock;
use crate::forms::Size;

/// The server side: which seats are free on which date.
///
/// Each date's free seats are kept as the choices the seat step offers, built once into
/// the seat step's form (a [`PreparedForm`]): every flow asking for that date shares
/// the one form, and a sale builds a new one. The date step's form, offering the days
/// with free seats, is built the same way whenever they change.
///
/// A clone (the snapshot each call's wizard reads) shares the shows until one of them
/// changes.
#[derive(Clone, Debug, Default)]
pub struct Cinema {
    shows: Arc<BTreeMap<String, Show>>,
    /// The date step's form: the days with free seats as its choices (none when every
    /// show is sold out, and the date is then asked as text).
    dates: Option<PreparedForm>,
    /// Whether a sold seat is put back at once ([`Cinema::restocking`]).
    restock: bool,
}

/// One show's free seats, and the seat step's form offering them (none when sold out).
#[derive(Clone, Debug)]
struct Show {
    seats: Arc<[Choice]>,
    form: Option<PreparedForm>,
}

impl Show {
    fn new(date: &str, seats: Arc<[Choice]>) -> Show {
        let form = seat_step(date, Arc::clone(&seats))
            .build(SeatChoice::form())
            .ok();
        Show { seats, form }
    }
}

/// The date step's form offering the days of `shows` with free seats (none when there
/// is no such day).
fn date_step(shows: &BTreeMap<String, Show>) -> Option<PreparedForm> {
    let open: Arc<[Choice]> = shows
        .iter()
        .filter(|(_, show)| !show.seats.is_empty())
        .map(|(date, _)| Choice::owned(date.as_str(), None))
        .collect();
    if open.is_empty() {
        return None;
    }
    Prepared::new()
        .options("date", open)
        .build(ShowDate::form())
        .ok()
}

/// The seat step's changes for `date`: its message, and `seats` as the choices.
fn seat_step(date: &str, seats: Arc<[Choice]>) -> Prepared {
    Prepared::new()
        .message(["Pick a seat for ", date].concat())
        .options("seat", seats)
}

impl Cinema {
    /// What a booking tool answers for the wizard's outcome, in words: the seat it
    /// chose sold, or why nothing was booked.
    pub fn book(&mut self, outcome: Outcome<TicketOrder>) -> String {
        let Outcome::Completed(order) = outcome else {
            return "Nothing booked.".to_owned();
        };
        let (date, seat) = (&order.date.date, &order.seat.seat);
        if self.take(date, seat) {
            format!("Booked seat {seat} on {date}.")
        } else {
            format!("Seat {seat} on {date} was just sold; nothing booked.")
        }
    }

    /// The demo inventory counted from `today`: tomorrow's show is sold out, the shows in
    /// three days (seats A1, A2, B4) and in four days (seat C1) have seats.
    pub fn demo_from(today: Date) -> Cinema {
        let mut cinema = Cinema::default();
        cinema.add_show(&clock::day(today, 1), &[]);
        cinema.add_show(&clock::day(today, 3), &["A1", "A2", "B4"]);
        cinema.add_show(&clock::day(today, 4), &["C1"]);
        cinema
    }

    /// The demo inventory on fixed dates, counted from [`clock::PINNED`]: 2025-02-01 is
    /// sold out, 2025-02-03 and 2025-02-04 have seats.
    pub fn demo() -> Cinema {
        Cinema::demo_from(clock::PINNED)
    }

    /// Adds a show with its free seats.
    pub fn add_show(&mut self, date: &str, seats: &[&str]) {
        let seats = seats.iter().map(|s| Choice::owned(*s, None)).collect();
        Arc::make_mut(&mut self.shows).insert(date.to_owned(), Show::new(date, seats));
        self.dates = date_step(&self.shows);
    }

    /// This cinema, where a sold seat is put back at once: sales never sell a show out
    /// nor change the seats offered, so a load test can book for as long as it likes
    /// and every booking takes the same rounds (`ticket-booking --restock`). Shows
    /// added without seats stay sold out.
    pub fn restocking(mut self) -> Cinema {
        self.restock = true;
        self
    }

    /// The free seats on `date` (`None` when there is no show).
    pub fn free_seats(&self, date: &str) -> Option<&[Choice]> {
        self.shows.get(date).map(|show| &*show.seats)
    }

    /// Sells `seat` on `date`; false when it is not free.
    pub fn take(&mut self, date: &str, seat: &str) -> bool {
        let Some(show) = self.shows.get(date) else {
            return false;
        };
        if !show.seats.iter().any(|s| s.value == seat) {
            return false;
        }
        if self.restock {
            return true;
        }
        let left: Arc<[Choice]> = show
            .seats
            .iter()
            .filter(|s| s.value != seat)
            .cloned()
            .collect();
        let sold_out = left.is_empty();
        Arc::make_mut(&mut self.shows).insert(date.to_owned(), Show::new(date, left));
        if sold_out {
            self.dates = date_step(&self.shows);
        }
        true
    }

    /// Every show's date, sold out or not.
    pub fn dates(&self) -> impl Iterator<Item = &str> {
        self.shows.keys().map(String::as_str)
    }

    /// The dates with at least one free seat.
    pub fn open_dates(&self) -> impl Iterator<Item = &str> {
        self.shows
            .iter()
            .filter(|(_, show)| !show.seats.is_empty())
            .map(|(date, _)| date.as_str())
    }
}

/// Step 1: the date.
#[derive(Debug, Clone, Elicit, Deserialize, PartialEq)]
pub struct ShowDate {
    /// The day of the show.
    #[elicit(title = "Date", format = "date")]
    pub date: String,
}

/// Step 2: the seat, offered among the free seats of the chosen date.
#[derive(Debug, Clone, Elicit, Deserialize, PartialEq)]
pub struct SeatChoice {
    /// Row letter and seat number.
    #[elicit(title = "Seat")]
    pub seat: String,
}

/// Drinks on offer.
#[derive(Debug, Clone, Copy, Elicit, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Drink {
    /// Water.
    Water,
    /// Cola.
    Cola,
}

/// Step 3: snacks.
#[derive(Debug, Clone, Elicit, Deserialize, PartialEq)]
pub struct Snacks {
    /// Whether to add popcorn.
    #[elicit(title = "Popcorn?", default = false)]
    pub popcorn: bool,
    /// Something to drink.
    #[elicit(title = "Drink")]
    pub drink: Option<Drink>,
}

/// Step 4: the popcorn size, asked only when popcorn was wanted.
#[derive(Debug, Clone, Elicit, Deserialize, PartialEq)]
pub struct PopcornSize {
    /// Bucket size.
    #[elicit(title = "Size")]
    pub size: Size,
}

/// The whole order, asked step by step.
#[derive(Debug, Wizard)]
#[wizard(context = Cinema)]
pub struct TicketOrder {
    /// When: one of the days with free seats.
    #[step(
        message = "Which day would you like to go?",
        check = date_has_seats,
        prepare = show_dates
    )]
    pub date: ShowDate,
    /// Where to sit.
    #[step(message = "Pick a seat", prepare = free_seats)]
    pub seat: SeatChoice,
    /// What to eat.
    #[step(message = "Anything to eat?")]
    pub snacks: Snacks,
    /// Popcorn size; `None` when no popcorn or the user declined.
    #[step(message = "Which size?", skip_if = no_popcorn)]
    pub size: Option<PopcornSize>,
}

/// The day chosen still has seats (it was offered, but may have sold out since; or the
/// date was typed, when every show was sold out).
fn date_has_seats(
    cinema: &Cinema,
    _: &TicketOrderProgress,
    answer: &ShowDate,
) -> Result<(), String> {
    match cinema.free_seats(&answer.date) {
        None => Err(format!("There is no show on {}.", answer.date)),
        Some([]) => Err(format!(
            "No seats left on {} — pick another day.",
            answer.date
        )),
        Some(_) => Ok(()),
    }
}

/// The date step offers the days that have seats, so no date has to be guessed or typed:
/// the form built when they last changed, shared by every flow.
fn show_dates(cinema: &Cinema, _: &TicketOrderProgress) -> Prepared {
    match &cinema.dates {
        Some(form) => Prepared::from(form),
        None => Prepared::new().message("Every show is sold out. Which day would you like to go?"),
    }
}

fn free_seats(cinema: &Cinema, progress: &TicketOrderProgress) -> Prepared {
    let date = progress
        .date
        .as_ref()
        .map(|d| d.date.as_str())
        .unwrap_or_default();
    match cinema.shows.get(date) {
        // The date's seat form, built when its seats last changed: shared, not built.
        Some(Show {
            form: Some(form), ..
        }) => Prepared::from(form),
        // No form: no seat left (sold since the date was checked), no show, or seats
        // the step refuses. Offered as they are, they end the wizard with an error
        // naming the step and saying why.
        show => seat_step(
            date,
            show.map_or_else(|| Arc::from([]), |show| Arc::clone(&show.seats)),
        ),
    }
}

fn no_popcorn(_: &Cinema, progress: &TicketOrderProgress) -> bool {
    !progress.snacks.as_ref().is_some_and(|s| s.popcorn)
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn free(cinema: &Cinema, date: &str) -> Vec<String> {
        let seats = cinema.free_seats(date).unwrap_or_default();
        seats.iter().map(|s| s.value.to_string()).collect()
    }

    #[test]
    fn the_demo_counts_from_today() {
        let cinema = Cinema::demo_from(date!(2031 - 06 - 29));
        assert_eq!(cinema.free_seats("2031-06-30"), Some(&[][..]));
        assert_eq!(cinema.free_seats("2031-07-02").map(<[_]>::len), Some(3));
        assert_eq!(
            cinema.open_dates().collect::<Vec<_>>(),
            ["2031-07-02", "2031-07-03"]
        );
        // The fixed demo is the same inventory from the pinned day.
        let fixed = Cinema::demo();
        assert_eq!(
            fixed.open_dates().collect::<Vec<_>>(),
            ["2025-02-03", "2025-02-04"]
        );
    }

    /// The days the date step offers (none: the date is asked as text).
    fn offered(cinema: &Cinema) -> Option<Vec<String>> {
        let form = cinema.dates.as_ref()?;
        let options = form.form().field("date")?.kind.options()?;
        Some(options.iter().map(|c| c.value.to_string()).collect())
    }

    #[test]
    fn the_date_step_offers_the_days_with_seats() {
        let mut cinema = Cinema::default();
        assert_eq!(offered(&cinema), None, "no show: a typed date");
        cinema.add_show("2030-01-01", &["A1"]);
        cinema.add_show("2030-01-02", &[]);
        cinema.add_show("2030-01-03", &["B1", "B2"]);
        assert_eq!(
            offered(&Cinema::demo()).unwrap(),
            ["2025-02-03", "2025-02-04"]
        );
        assert_eq!(offered(&cinema).unwrap(), ["2030-01-01", "2030-01-03"]);
        // A sale that leaves seats changes no day; the last seat of a day takes it off.
        assert!(cinema.take("2030-01-03", "B1"));
        assert_eq!(offered(&cinema).unwrap(), ["2030-01-01", "2030-01-03"]);
        assert!(cinema.take("2030-01-01", "A1"));
        assert_eq!(offered(&cinema).unwrap(), ["2030-01-03"]);
        assert!(cinema.take("2030-01-03", "B2"));
        assert_eq!(offered(&cinema), None, "every show sold out: a typed date");
    }

    #[test]
    fn a_restocking_cinema_puts_a_sold_seat_back_at_once() {
        let mut plain = Cinema::default();
        plain.add_show("2030-01-01", &["A1", "A2"]);
        let mut restocking = plain.clone().restocking();
        restocking.add_show("2030-01-02", &[]);
        for cinema in [&mut plain, &mut restocking] {
            assert!(cinema.take("2030-01-01", "A1"));
            assert!(!cinema.take("2030-01-01", "B9"), "no such seat");
            assert!(!cinema.take("2030-01-02", "A1"), "no seats at all");
        }
        assert_eq!(free(&plain, "2030-01-01"), ["A2"]);
        assert!(!plain.take("2030-01-01", "A1"), "sold already");
        assert_eq!(free(&restocking, "2030-01-01"), ["A1", "A2"]);
        assert!(restocking.take("2030-01-01", "A1"), "put back");
        // A show added without seats stays sold out.
        assert_eq!(restocking.open_dates().collect::<Vec<_>>(), ["2030-01-01"]);
    }
}
