//! The `java.time` parsing Flink's DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ converters do, with the formatters
//! of Flink's `TimeFormats` and their resolver styles:
//!
//! | column | standard | formatter | resolver |
//! |---|---|---|---|
//! | DATE | both | `ISO_LOCAL_DATE` | STRICT |
//! | TIME | both | `HH:mm:ss` + optional `.` and 0-9 fraction digits | SMART |
//! | TIMESTAMP | SQL | `ISO_LOCAL_DATE` ` ` TIME's | SMART |
//! | TIMESTAMP | ISO-8601 | `ISO_LOCAL_DATE_TIME` (`T` in any case, seconds optional) | STRICT |
//! | TIMESTAMP_LTZ | SQL | TIMESTAMP's (SQL) + `Z` | SMART |
//! | TIMESTAMP_LTZ | ISO-8601 | `ISO_LOCAL_DATE` `T` `ISO_LOCAL_TIME` `Z` | SMART |
//!
//! `ISO_LOCAL_DATE` reads the year with `SignStyle.EXCEEDS_PAD` (4 digits, or 5 to 10 after a `+`; `-` for
//! negative years, never `-0000`), then exactly two digits of month and of day. The whole text must be read.
//! SMART resolution clamps a day beyond its month to the month's last day (`2024-02-30` is Feb 29) and reads
//! `24:00:00` (nothing after it but zeros) as midnight of the next day; STRICT refuses both. Flink 2.2's TIME
//! keeps whole seconds (`toSecondOfDay() * 1000`).

use arrow_schema::TimeUnit;

use super::java::Conv;
use crate::options::TimestampStandard;

/// A date and a time parsed and resolved: days since 1970-01-01 (proleptic Gregorian), nanoseconds of the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DateTime {
    pub(crate) epoch_day: i64,
    pub(crate) nano_of_day: i64,
}

/// The layout of a TIMESTAMP (`ltz` false) or TIMESTAMP_LTZ (`ltz` true) under `json.timestamp-format.standard`.
pub(crate) fn timestamp_layout(standard: TimestampStandard, ltz: bool) -> Layout {
    match (standard, ltz) {
        (TimestampStandard::Sql, false) => Layout::SqlTimestamp,
        (TimestampStandard::Sql, true) => Layout::SqlTimestampZ,
        (TimestampStandard::Iso8601, false) => Layout::IsoTimestamp,
        (TimestampStandard::Iso8601, true) => Layout::IsoTimestampZ,
    }
}

/// Flink's TIME value (milliseconds of the day) in a column's `unit`.
pub(crate) fn time_in_unit(millis: i64, unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => millis / 1000,
        TimeUnit::Millisecond => millis,
        TimeUnit::Microsecond => millis * 1000,
        TimeUnit::Nanosecond => millis * 1_000_000,
    }
}

/// How a text is laid out between date and time, and resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// TIMESTAMP, SQL standard: `yyyy-MM-dd HH:mm:ss[.f]`, SMART.
    SqlTimestamp,
    /// TIMESTAMP_LTZ, SQL standard: the same and a `Z`, SMART.
    SqlTimestampZ,
    /// TIMESTAMP, ISO-8601: `ISO_LOCAL_DATE_TIME`, STRICT.
    IsoTimestamp,
    /// TIMESTAMP_LTZ, ISO-8601: `yyyy-MM-ddTHH:mm[:ss[.f]]Z`, SMART.
    IsoTimestampZ,
}

struct Cursor<'a> {
    s: &'a [u8],
    p: usize,
}

impl Cursor<'_> {
    fn literal(&mut self, c: u8, case_insensitive: bool) -> Result<(), Conv> {
        match self.s.get(self.p) {
            Some(&b) if b == c || (case_insensitive && b.eq_ignore_ascii_case(&c)) => {
                self.p += 1;
                Ok(())
            }
            _ => Err(Conv::Fails),
        }
    }

    /// `appendValue(field, 2)`: exactly two ASCII digits, no sign.
    fn two_digits(&mut self) -> Result<i64, Conv> {
        let d = self.s.get(self.p..self.p + 2).ok_or(Conv::Fails)?;
        if !d.iter().all(u8::is_ascii_digit) {
            return Err(Conv::Fails);
        }
        self.p += 2;
        Ok(i64::from(d[0] - b'0') * 10 + i64::from(d[1] - b'0'))
    }

    /// `appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD)` in strict parsing.
    fn year(&mut self) -> Result<i64, Conv> {
        let (negative, positive) = match self.s.get(self.p) {
            Some(b'+') => (false, true),
            Some(b'-') => (true, false),
            _ => (false, false),
        };
        if negative || positive {
            self.p += 1;
        }
        let start = self.p;
        while self.p < self.s.len() && self.p - start < 10 && self.s[self.p].is_ascii_digit() {
            self.p += 1;
        }
        let len = self.p - start;
        if len < 4 {
            return Err(Conv::Fails);
        }
        let value: i64 = std::str::from_utf8(&self.s[start..self.p])
            .expect("digits")
            .parse()
            .expect("10 digits");
        if negative {
            if value == 0 {
                return Err(Conv::Fails);
            }
            return Ok(-value);
        }
        if (positive && len <= 4) || (!positive && len > 4) {
            return Err(Conv::Fails);
        }
        Ok(value)
    }

    /// `appendFraction(NANO_OF_SECOND, 0, 9, true)`: an optional `.` and 0 to 9 digits, as nanoseconds.
    fn fraction(&mut self) -> i64 {
        if self.s.get(self.p) != Some(&b'.') {
            return 0;
        }
        self.p += 1;
        let mut nanos = 0i64;
        let mut digits = 0;
        while digits < 9 && self.p < self.s.len() && self.s[self.p].is_ascii_digit() {
            nanos = nanos * 10 + i64::from(self.s[self.p] - b'0');
            self.p += 1;
            digits += 1;
        }
        nanos * 10i64.pow(9 - digits)
    }

    fn date(&mut self) -> Result<(i64, i64, i64), Conv> {
        let year = self.year()?;
        self.literal(b'-', false)?;
        let month = self.two_digits()?;
        self.literal(b'-', false)?;
        let day = self.two_digits()?;
        Ok((year, month, day))
    }

    /// `HH:mm:ss` and the optional fraction (Flink's `SQL_TIME_FORMAT`).
    fn sql_time(&mut self) -> Result<(i64, i64, i64, i64), Conv> {
        let hour = self.two_digits()?;
        self.literal(b':', false)?;
        let minute = self.two_digits()?;
        self.literal(b':', false)?;
        let second = self.two_digits()?;
        Ok((hour, minute, second, self.fraction()))
    }

    /// `ISO_LOCAL_TIME`: `HH:mm`, then optionally `:ss`, then optionally the fraction.
    fn iso_time(&mut self) -> Result<(i64, i64, i64, i64), Conv> {
        let hour = self.two_digits()?;
        self.literal(b':', false)?;
        let minute = self.two_digits()?;
        let mark = self.p;
        if self.literal(b':', false).is_ok() {
            match self.two_digits() {
                Ok(second) => return Ok((hour, minute, second, self.fraction())),
                Err(_) => self.p = mark, // the optional section is dropped
            }
        }
        Ok((hour, minute, 0, 0))
    }

    fn end(&self) -> Result<(), Conv> {
        if self.p == self.s.len() {
            Ok(())
        } else {
            Err(Conv::Fails)
        }
    }
}

/// `IsoChronology.resolveYMD`: month 1-12, day 1-31; SMART clamps the day to the month's length, STRICT
/// refuses a day beyond it. The year must lie within ±999,999,999.
fn resolve_date(year: i64, month: i64, day: i64, smart: bool) -> Result<i64, Conv> {
    if !(-999_999_999..=999_999_999).contains(&year)
        || !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
    {
        return Err(Conv::Fails);
    }
    let length = month_length(year, month);
    let day = if day > length {
        if !smart {
            return Err(Conv::Fails);
        }
        length
    } else {
        day
    };
    Ok(epoch_day(year, month, day))
}

/// The days of `month` (1 to 12) of the proleptic Gregorian `year`.
fn month_length(year: i64, month: i64) -> i64 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `LocalDate.toEpochDay`.
fn epoch_day(year: i64, month: i64, day: i64) -> i64 {
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `Parsed.resolveTime`: minute 0-59, second 0-59, hour 0-23, except that SMART reads `24:00:00.0` as midnight
/// and one day more. Returns the nanoseconds of the day and the extra day.
fn resolve_time(
    hour: i64,
    minute: i64,
    second: i64,
    nano: i64,
    smart: bool,
) -> Result<(i64, i64), Conv> {
    if !(0..=59).contains(&minute) {
        return Err(Conv::Fails);
    }
    if smart && hour == 24 && minute == 0 && second == 0 && nano == 0 {
        return Ok((0, 1));
    }
    if !(0..=23).contains(&hour) || !(0..=59).contains(&second) {
        return Err(Conv::Fails);
    }
    Ok((
        ((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nano,
        0,
    ))
}

/// DATE: `ISO_LOCAL_DATE.parse(text)`, the epoch day (Flink casts it to `int`).
pub(crate) fn parse_date(text: &[u8]) -> Result<i64, Conv> {
    let mut c = Cursor { s: text, p: 0 };
    let (y, m, d) = c.date()?;
    c.end()?;
    resolve_date(y, m, d, false)
}

/// TIME: Flink's `SQL_TIME_FORMAT.parse(text)`, then `toSecondOfDay() * 1000` (Flink 2.2).
pub(crate) fn parse_time_millis(text: &[u8]) -> Result<i64, Conv> {
    let mut c = Cursor { s: text, p: 0 };
    let (h, m, s, n) = c.sql_time()?;
    c.end()?;
    let (nano_of_day, _) = resolve_time(h, m, s, n, true)?;
    Ok(nano_of_day / 1_000_000_000 * 1000)
}

/// TIMESTAMP and TIMESTAMP_LTZ: the text parsed with the layout's formatter and resolved.
pub(crate) fn parse_timestamp(text: &[u8], layout: Layout) -> Result<DateTime, Conv> {
    match common_timestamp(text, layout) {
        Some(date_time) => Ok(date_time),
        None => parse_timestamp_with_formatter(text, layout),
    }
}

/// The shape nearly every timestamp has, read without the formatter's machinery: a four-digit year, every field
/// present with two digits, 1 to 9 fraction digits, the layout's upper-case `T` or space and `Z`, and a valid
/// date and time (which SMART and STRICT resolve alike). `None` for anything else, which the formatter reads.
fn common_timestamp(text: &[u8], layout: Layout) -> Option<DateTime> {
    let (separator, zone) = match layout {
        Layout::SqlTimestamp => (b' ', false),
        Layout::SqlTimestampZ => (b' ', true),
        Layout::IsoTimestamp => (b'T', false),
        Layout::IsoTimestampZ => (b'T', true),
    };
    let t = if zone { text.strip_suffix(b"Z")? } else { text };
    if t.len() < 19 || t.len() == 20 || t.len() > 29 {
        return None;
    }
    if t[4] != b'-' || t[7] != b'-' || t[10] != separator || t[13] != b':' || t[16] != b':' {
        return None;
    }
    let two = |i: usize| two_digits(t[i], t[i + 1]);
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    if !(1..=12).contains(&month) || day < 1 || day > month_length(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut nanos = 0i64;
    if t.len() > 19 {
        if t[19] != b'.' {
            return None;
        }
        for &b in &t[20..] {
            nanos = nanos * 10 + digit(b)?;
        }
        nanos *= 10i64.pow(29 - t.len() as u32);
    }
    Some(DateTime {
        epoch_day: epoch_day(year, month, day),
        nano_of_day: ((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nanos,
    })
}

/// The value of two ASCII digits.
#[inline(always)]
fn two_digits(tens: u8, ones: u8) -> Option<i64> {
    Some(digit(tens)? * 10 + digit(ones)?)
}

/// The value of an ASCII digit.
#[inline(always)]
fn digit(b: u8) -> Option<i64> {
    let d = b.wrapping_sub(b'0');
    (d < 10).then_some(i64::from(d))
}

/// TIMESTAMP and TIMESTAMP_LTZ through the port of the layout's `DateTimeFormatter`, and resolved.
fn parse_timestamp_with_formatter(text: &[u8], layout: Layout) -> Result<DateTime, Conv> {
    let mut c = Cursor { s: text, p: 0 };
    let (y, mo, d) = c.date()?;
    let (h, mi, s, n) = match layout {
        Layout::SqlTimestamp | Layout::SqlTimestampZ => {
            c.literal(b' ', false)?;
            c.sql_time()?
        }
        Layout::IsoTimestamp => {
            c.literal(b'T', true)?;
            c.iso_time()?
        }
        Layout::IsoTimestampZ => {
            c.literal(b'T', false)?;
            c.iso_time()?
        }
    };
    if matches!(layout, Layout::SqlTimestampZ | Layout::IsoTimestampZ) {
        c.literal(b'Z', false)?;
    }
    c.end()?;
    let smart = layout != Layout::IsoTimestamp;
    let (nano_of_day, extra_day) = resolve_time(h, mi, s, n, smart)?;
    let epoch_day = resolve_date(y, mo, d, smart)? + extra_day;
    Ok(DateTime {
        epoch_day,
        nano_of_day,
    })
}

impl DateTime {
    /// `TimestampData.fromLocalDateTime` (and `fromInstant` of the same instant in UTC): milliseconds since the
    /// epoch (Java's `long` arithmetic, which wraps for years far beyond 292,000,000) and nanoseconds of the
    /// millisecond.
    pub(crate) fn flink_millis(self) -> (i64, i64) {
        let millis = self
            .epoch_day
            .wrapping_mul(86_400_000)
            .wrapping_add(self.nano_of_day / 1_000_000);
        (millis, self.nano_of_day % 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The common shape's shortcut agrees with the formatter on every text it takes, and leaves the rest to it.
    #[test]
    fn the_common_timestamp_shape_is_read_as_the_formatter_reads_it() {
        let layouts = [
            Layout::SqlTimestamp,
            Layout::SqlTimestampZ,
            Layout::IsoTimestamp,
            Layout::IsoTimestampZ,
        ];
        let dates = [
            "2026-01-01",
            "2024-02-29",
            "2023-02-29",
            "2024-02-30",
            "0000-01-01",
            "9999-12-31",
            "2026-04-31",
            "2026-13-01",
            "2026-00-10",
            "2026-12-00",
            "1900-02-29",
            "2000-02-29",
            "2026-1a-01",
            "+2026-01-01",
        ];
        let times = [
            "00:00:00",
            "23:59:59",
            "24:00:00",
            "23:60:00",
            "12:34:5x",
            "12:34",
            "07:08:09.1",
            "07:08:09.123456789",
            "07:08:09.1234567890",
            "07:08:09.",
            "07:08:09.12a",
            "07:08:09,5",
        ];
        let mut taken = 0;
        for layout in layouts {
            for date in dates {
                for time in times {
                    for separator in [" ", "T", "t", "  "] {
                        for zone in ["", "Z", "z"] {
                            let text = format!("{date}{separator}{time}{zone}");
                            let formatter = parse_timestamp_with_formatter(text.as_bytes(), layout);
                            if let Some(shortcut) = common_timestamp(text.as_bytes(), layout) {
                                taken += 1;
                                assert_eq!(Ok(shortcut), formatter, "{text:?} {layout:?}");
                            }
                            assert_eq!(
                                parse_timestamp(text.as_bytes(), layout),
                                formatter,
                                "{text:?}"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(
            taken,
            4 * 5 * 4,
            "4 layouts x 5 valid dates x 4 times the shortcut takes"
        );
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date(b"1970-01-01"), Ok(0));
        assert_eq!(parse_date(b"2024-02-29"), Ok(19_782));
        assert_eq!(parse_date(b"2024-02-30"), Err(Conv::Fails), "STRICT");
        assert_eq!(parse_date(b"0000-01-01"), Ok(-719_528));
        assert_eq!(parse_date(b"-0001-12-31"), Ok(-719_529));
        assert_eq!(parse_date(b"+10000-01-01"), Ok(2_932_897));
        assert_eq!(parse_date(b"10000-01-01"), Err(Conv::Fails));
        assert_eq!(parse_date(b"+2024-01-01"), Err(Conv::Fails));
        assert_eq!(parse_date(b"-0000-01-01"), Err(Conv::Fails));
        assert_eq!(parse_date(b"2024-1-01"), Err(Conv::Fails));
        assert_eq!(parse_date(b"2024-01-01T00:00"), Err(Conv::Fails));
    }

    #[test]
    fn times() {
        assert_eq!(parse_time_millis(b"12:34:56.789"), Ok(45_296_000));
        assert_eq!(parse_time_millis(b"24:00:00"), Ok(0));
        assert_eq!(parse_time_millis(b"24:00:01"), Err(Conv::Fails));
        assert_eq!(parse_time_millis(b"12:34:56."), Ok(45_296_000));
        assert_eq!(parse_time_millis(b"12:34:56.1234567891"), Err(Conv::Fails));
        assert_eq!(parse_time_millis(b"12:34"), Err(Conv::Fails));
    }

    #[test]
    fn timestamps() {
        let sql = |t: &str| {
            parse_timestamp(t.as_bytes(), Layout::SqlTimestamp).map(DateTime::flink_millis)
        };
        assert_eq!(sql("1970-01-01 00:00:00.123456789"), Ok((123, 456_789)));
        assert_eq!(
            sql("2024-02-30 00:00:00"),
            Ok((1_709_164_800_000, 0)),
            "SMART: Feb 29"
        );
        assert_eq!(
            sql("2024-01-01 24:00:00"),
            Ok((1_704_153_600_000, 0)),
            "next day"
        );
        let iso = |t: &str| {
            parse_timestamp(t.as_bytes(), Layout::IsoTimestamp).map(DateTime::flink_millis)
        };
        assert_eq!(iso("1970-01-01t00:01"), Ok((60_000, 0)));
        assert_eq!(iso("2024-02-30T00:00:00"), Err(Conv::Fails));
        assert_eq!(iso("2024-01-01T24:00:00"), Err(Conv::Fails));
        let iso_z = |t: &str| {
            parse_timestamp(t.as_bytes(), Layout::IsoTimestampZ).map(DateTime::flink_millis)
        };
        assert_eq!(iso_z("1970-01-01T00:00:01Z"), Ok((1000, 0)));
        assert_eq!(iso_z("1970-01-01t00:00:01Z"), Err(Conv::Fails));
        assert_eq!(iso_z("1970-01-01T00:00:01"), Err(Conv::Fails));
    }
}
