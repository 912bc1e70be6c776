//! DATE, TIME and TIMESTAMP text as Flink's `TimeFormats` (java.time formatters) writes it.
//!
//! Rules (as Flink prints them; docs/json-format.md): `ISO_LOCAL_DATE` years are padded to 4 digits, get a `+` above 9999 and
//! a `-` below 0; the fraction of a second is printed with 1 to 9 digits, trailing zeros removed, and not at
//! all when zero, whatever the declared precision.

use crate::out::{append_fixed, write_u64, DIGITS2};

#[inline]
fn push2(out: &mut Vec<u8>, v: u32) {
    let i = v as usize * 2;
    out.extend_from_slice(&DIGITS2[i..i + 2]);
}

/// Writes two digits of `v` (0..100) at `buf[at..at + 2]`.
#[inline(always)]
fn put2(buf: &mut [u8], at: usize, v: u32) {
    let i = v as usize * 2;
    buf[at..at + 2].copy_from_slice(&DIGITS2[i..i + 2]);
}

/// Proleptic Gregorian `(year, month, day)` of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Appends `yyyy-MM-dd` as `DateTimeFormatter.ISO_LOCAL_DATE` prints the date `days` after the epoch.
pub(crate) fn write_date(out: &mut Vec<u8>, days: i64) {
    let (y, m, d) = civil_from_days(days);
    if (0..=9999).contains(&y) {
        push2(out, (y / 100) as u32);
        push2(out, (y % 100) as u32);
    } else {
        // SignStyle.EXCEEDS_PAD: a sign when the year needs more than 4 digits or is negative.
        out.push(if y < 0 { b'-' } else { b'+' });
        let abs = y.unsigned_abs();
        if abs < 10_000 {
            push2(out, (abs / 100) as u32);
            push2(out, (abs % 100) as u32);
        } else {
            write_u64(out, abs);
        }
    }
    out.push(b'-');
    push2(out, m);
    out.push(b'-');
    push2(out, d);
}

/// Appends `HH:mm:ss` for `second_of_day` (0..86400) followed by the trimmed fraction of `nanos` (0..10^9).
pub(crate) fn write_time(out: &mut Vec<u8>, second_of_day: u32, nanos: u32) {
    let mut buf = [0u8; 24];
    let n = put_time(&mut buf, 0, second_of_day, nanos);
    append_fixed(out, &buf, n);
}

/// Writes `HH:mm:ss[.fffffffff]` at `buf[at..]` (at most 18 bytes) and returns the end index.
#[inline(always)]
fn put_time(buf: &mut [u8], at: usize, second_of_day: u32, nanos: u32) -> usize {
    put2(buf, at, second_of_day / 3600);
    buf[at + 2] = b':';
    put2(buf, at + 3, second_of_day / 60 % 60);
    buf[at + 5] = b':';
    put2(buf, at + 6, second_of_day % 60);
    put_fraction(buf, at + 8, nanos)
}

/// Per millisecond of the second (1..1000): `.` and its digits without trailing zeros (`.5`, `.05`, `.123`),
/// padded to 4 bytes, and the length that counts; 0 has no fraction (length 0).
const MILLI_FRACTIONS: [([u8; 4], u8); 1000] = {
    let mut t = [([0u8; 4], 0u8); 1000];
    let mut ms = 1;
    while ms < 1000 {
        let digits = [(ms / 100) as u8, (ms / 10 % 10) as u8, (ms % 10) as u8];
        let mut len = 3;
        while digits[len - 1] == 0 {
            len -= 1;
        }
        t[ms].0 = [b'.', b'0' + digits[0], b'0' + digits[1], b'0' + digits[2]];
        t[ms].1 = len as u8 + 1;
        ms += 1;
    }
    t
};

/// Writes `.` and the nanosecond fraction without trailing zeros (`appendFraction(NANO_OF_SECOND, 0, 9, true)`)
/// at `buf[at..]`, nothing when `nanos` is 0; returns the end index.
#[inline(always)]
fn put_fraction(buf: &mut [u8], at: usize, nanos: u32) -> usize {
    if nanos == 0 {
        return at;
    }
    if nanos.is_multiple_of(1_000_000) {
        // Whole milliseconds (TIMESTAMP(3), the common case): the trimmed text from the table.
        let (text, len) = MILLI_FRACTIONS[(nanos / 1_000_000) as usize];
        buf[at..at + 4].copy_from_slice(&text);
        return at + usize::from(len);
    }
    buf[at] = b'.';
    let (mut n, mut len) = (nanos, 9);
    while n % 10 == 0 {
        n /= 10;
        len -= 1;
    }
    for i in (0..len).rev() {
        buf[at + 1 + i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    at + 1 + len
}

/// The bytes [`TimestampWriter::put`] may write (its text and the rest of its fixed-size copies).
pub(crate) const TS_WIDTH: usize = 48;

/// Formats TIMESTAMP / TIMESTAMP_LTZ values, remembering the text of the last whole second and of its day (rows
/// of a batch are usually close in time: most rows reuse the second and only print their fraction, and a new
/// second of the same day rewrites only its `HH:mm:ss`).
#[derive(Debug)]
pub(crate) struct TimestampWriter {
    separator: u8,
    zone_suffix: bool,
    cached_second: i64,
    cached_day: i64,
    /// `"yyyy-MM-dd HH:mm:ss` of `cached_second`: quote + date (at most 17 bytes) + separator + 8.
    prefix: [u8; 32],
    prefix_len: usize,
}

impl TimestampWriter {
    /// `separator` is `b' '` (SQL) or `b'T'` (ISO-8601); `zone_suffix` appends `Z` (TIMESTAMP_LTZ).
    pub(crate) fn new(separator: u8, zone_suffix: bool) -> Self {
        Self {
            separator,
            zone_suffix,
            cached_second: i64::MIN,
            cached_day: i64::MIN,
            prefix: [0; 32],
            prefix_len: 0,
        }
    }

    /// Appends the quoted timestamp `seconds` since the epoch plus `nanos` (0..10^9).
    #[inline]
    pub(crate) fn write(&mut self, out: &mut Vec<u8>, seconds: i64, nanos: u32) {
        out.reserve(TS_WIDTH);
        let at = out.len();
        // SAFETY: `reserve` makes `at .. at + TS_WIDTH` writable; `put` initialises the `n` bytes it returns.
        unsafe {
            let n = self.put(out.as_mut_ptr().add(at), seconds, nanos);
            out.set_len(at + n);
        }
    }

    /// Writes the quoted timestamp `seconds` since the epoch plus `nanos` (0..10^9) at `dst` and returns its
    /// length (at most 39 bytes: quote, a date of up to 17, separator, time of day, 10 of fraction, `Z`, quote).
    ///
    /// # Safety
    /// `dst .. dst + TS_WIDTH` must be writable.
    #[inline(always)]
    pub(crate) unsafe fn put(&mut self, dst: *mut u8, seconds: i64, nanos: u32) -> usize {
        if seconds != self.cached_second {
            self.cache(seconds);
        }
        // fraction (<= 10) + `Z` + `"`.
        let mut buf = [0u8; 16];
        let mut end = put_fraction(&mut buf, 0, nanos);
        if self.zone_suffix {
            buf[end] = b'Z';
            end += 1;
        }
        buf[end] = b'"';
        // SAFETY: the prefix copy writes `dst .. dst + 32`, the suffix copy `dst + prefix_len .. + 16` with
        // `prefix_len <= 27`: both inside `TS_WIDTH`; the sources are this writer's own arrays.
        unsafe {
            std::ptr::copy_nonoverlapping(self.prefix.as_ptr(), dst, self.prefix.len());
            std::ptr::copy_nonoverlapping(buf.as_ptr(), dst.add(self.prefix_len), buf.len());
        }
        self.prefix_len + end + 1
    }

    /// Makes `prefix` the text of `seconds`: its `HH:mm:ss`, and its date first when the day changed.
    #[inline(never)]
    fn cache(&mut self, seconds: i64) {
        let day = seconds.div_euclid(86_400);
        if day != self.cached_day {
            self.cache_day(day);
        }
        // The prefix ends with the 8 bytes of `HH:mm:ss`; no fraction is written for 0 nanoseconds.
        put_time(
            &mut self.prefix,
            self.prefix_len - 8,
            seconds.rem_euclid(86_400) as u32,
            0,
        );
        self.cached_second = seconds;
    }

    /// Writes `"`, the date `day` and the separator at the start of `prefix`, leaving room for `HH:mm:ss`.
    #[cold]
    fn cache_day(&mut self, day: i64) {
        let mut text = Vec::with_capacity(24);
        text.push(b'"');
        write_date(&mut text, day);
        text.push(self.separator);
        self.prefix[..text.len()].copy_from_slice(&text);
        self.prefix_len = text.len() + 8;
        self.cached_day = day;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(days: i64) -> String {
        let mut out = Vec::new();
        write_date(&mut out, days);
        String::from_utf8(out).unwrap()
    }

    fn ts(sep: u8, z: bool, seconds: i64, nanos: u32) -> String {
        let mut out = Vec::new();
        TimestampWriter::new(sep, z).write(&mut out, seconds, nanos);
        String::from_utf8(out).unwrap()
    }

    // Expected texts are the outputs of the real Flink 2.3.0 serializer.
    #[test]
    fn dates_follow_iso_local_date() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(-719_528), "0000-01-01");
        assert_eq!(date(-719_529), "-0001-12-31");
        assert_eq!(date(2_932_897), "+10000-01-01");
        assert_eq!(date(19_724), "2024-01-02");
    }

    /// Every whole millisecond takes the table; each must print as the nanosecond path prints the same
    /// fraction (`appendFraction` trims trailing zeros), e.g. 120 ms as `.12` and 5 ms as `.005`.
    #[test]
    fn every_millisecond_fraction_is_trimmed() {
        // Every value natively; a sample under Miri, which runs this module for the unsafe appends.
        for ms in (0..1000u32).step_by(if cfg!(miri) { 37 } else { 1 }) {
            let expected = match format!("{ms:03}").trim_end_matches('0') {
                "" => String::new(),
                digits => format!(".{digits}"),
            };
            assert_eq!(
                ts(b' ', false, 0, ms * 1_000_000),
                format!("\"1970-01-01 00:00:00{expected}\""),
                "{ms}"
            );
            // One nanosecond more leaves the table: nine digits, the same leading ones.
            let nine = format!(".{:09}", ms * 1_000_000 + 1);
            assert_eq!(
                ts(b' ', false, 0, ms * 1_000_000 + 1),
                format!("\"1970-01-01 00:00:00{nine}\"")
            );
        }
    }

    #[test]
    fn timestamps_trim_the_fraction() {
        let s = 1_704_164_645; // 2024-01-02T03:04:05Z
        assert_eq!(
            ts(b' ', false, s, 123_456_000),
            "\"2024-01-02 03:04:05.123456\""
        );
        assert_eq!(
            ts(b' ', true, s, 123_456_000),
            "\"2024-01-02 03:04:05.123456Z\""
        );
        assert_eq!(
            ts(b'T', false, s, 123_456_000),
            "\"2024-01-02T03:04:05.123456\""
        );
        assert_eq!(
            ts(b'T', true, s, 123_456_000),
            "\"2024-01-02T03:04:05.123456Z\""
        );
        assert_eq!(ts(b' ', false, s, 500_000_000), "\"2024-01-02 03:04:05.5\"");
        assert_eq!(ts(b' ', false, s, 0), "\"2024-01-02 03:04:05\"");
        assert_eq!(
            ts(b' ', false, -2, 500_000_000),
            "\"1969-12-31 23:59:58.5\""
        );
        assert_eq!(
            ts(b' ', true, -1, 999_500_000),
            "\"1969-12-31 23:59:59.9995Z\""
        );
        assert_eq!(
            ts(b' ', true, -1, 999_000_500),
            "\"1969-12-31 23:59:59.9990005Z\""
        );
        assert_eq!(
            ts(b' ', false, -62_135_596_800 - 86_400 * 366, 0),
            "\"0000-01-01 00:00:00\""
        );
    }

    #[test]
    fn cached_date_changes_with_the_day() {
        let mut w = TimestampWriter::new(b' ', false);
        let mut out = Vec::new();
        w.write(&mut out, 86_399, 0);
        w.write(&mut out, 86_400, 1);
        assert_eq!(
            out,
            b"\"1970-01-01 23:59:59\"\"1970-01-02 00:00:00.000000001\""
        );
    }

    /// One writer over seconds that move within a day, across days, backwards, and across a change of the
    /// date's width (year 9999 to +10000): each text is the one a fresh writer prints, so the cached date and
    /// time of day never leak from one value into the next.
    #[test]
    fn cached_second_and_day_follow_every_change() {
        let end_of_9999 = 253_402_300_799; // 9999-12-31 23:59:59
        let seconds = [
            1_704_164_645,
            1_704_164_646,
            1_704_164_645,
            1_704_164_645 + 3_600,
            1_704_164_645 + 86_400,
            1_704_164_645,
            end_of_9999,
            end_of_9999 + 1,
            end_of_9999,
            -1,
            0,
        ];
        let mut w = TimestampWriter::new(b'T', true);
        let mut out = Vec::new();
        for &s in &seconds {
            out.clear();
            w.write(&mut out, s, 500_000_000);
            assert_eq!(
                String::from_utf8(out.clone()).unwrap(),
                ts(b'T', true, s, 500_000_000),
                "{s}"
            );
        }
        assert_eq!(out, b"\"1970-01-01T00:00:00.5Z\"");
        w.write(&mut out, end_of_9999 + 1, 0);
        w.write(&mut out, 1_704_164_645 + 86_400 + 3_661, 0);
        assert_eq!(
            out,
            b"\"1970-01-01T00:00:00.5Z\"\"+10000-01-01T00:00:00Z\"\"2024-01-03T04:05:06Z\""
        );
    }
}
