//! [`pgn_date`]: a moment as PGN's `Date` tag writes it (`YYYY.MM.DD`, UTC).

/// The day of `unix_seconds` (seconds since 1970-01-01 00:00 UTC) as PGN's `Date` tag value,
/// `YYYY.MM.DD`, in UTC.
pub fn pgn_date(unix_seconds: u64) -> String {
    let days = i64::try_from(unix_seconds / 86_400).unwrap_or(i64::MAX / 2);
    // Days to a civil date in the proleptic Gregorian calendar (eras of 400 years).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::pgn_date;

    #[test]
    fn dates_match_known_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(86_399), "1970.01.01");
        // 2000-02-29 (a leap day of a century divisible by 400) at noon.
        assert_eq!(pgn_date(951_825_600), "2000.02.29");
        // 2026-11-27 00:00:00 UTC and the second before it.
        assert_eq!(pgn_date(1_795_737_600), "2026.11.27");
        assert_eq!(pgn_date(1_795_737_599), "2026.11.26");
        // 2024-12-31 23:59:59 UTC.
        assert_eq!(pgn_date(1_735_689_599), "2024.12.31");
    }
}
