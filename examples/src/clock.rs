//! The day the demo inventories count from: today (UTC), or the day given with
//! `--today`, so that a demo run at any time offers the next days and a test can pin
//! the dates it expects.

use time::{Date, Duration, OffsetDateTime, macros::date, macros::format_description};

/// The day the fixed demo inventories (`Cinema::demo`, `Inventory::demo`) count from,
/// which tests and docs quote: tomorrow is 2025-02-01.
pub const PINNED: Date = date!(2025 - 01 - 31);

/// Today, in UTC.
pub fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// `today` plus `days`, written `YYYY-MM-DD`.
pub fn day(today: Date, days: i64) -> String {
    match today.checked_add(Duration::days(days)) {
        Some(d) => d.to_string(),
        // Past the year 9999: stay on the last day rather than fail.
        None => Date::MAX.to_string(),
    }
}

/// A `YYYY-MM-DD` date (the `--today` option).
pub fn parse_date(text: &str) -> Result<Date, String> {
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map_err(|_| format!("{text:?} is not a date: use YYYY-MM-DD, e.g. 2025-01-31"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_count_from_the_given_day() {
        assert_eq!(day(PINNED, 1), "2025-02-01");
        assert_eq!(day(date!(2024 - 12 - 31), 1), "2025-01-01");
        assert_eq!(day(date!(2028 - 02 - 28), 1), "2028-02-29");
    }

    #[test]
    fn dates_are_parsed_or_explained() {
        assert_eq!(parse_date("2025-01-31"), Ok(PINNED));
        assert!(parse_date("31/01/2025").unwrap_err().contains("YYYY-MM-DD"));
        assert!(parse_date("2025-02-30").is_err());
    }
}
