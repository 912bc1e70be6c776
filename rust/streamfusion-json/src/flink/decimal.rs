//! `java.math.BigDecimal` text for Flink DECIMAL values, with the Flink-version-dependent trailing-zero rules.
//!
//! A `BigDecimal` is an unscaled integer `u` and a scale `s` (value `u * 10^-s`). Its two text forms
//! (JDK `BigDecimal.layoutChars`), with `a = digits(u) - 1 - s` the adjusted exponent:
//!
//! * `toString()`: plain when `s >= 0` and `a >= -6`, otherwise `d[.ddd]E±n` with an explicit sign:
//!   `1E+2`, `1.2E+3`, `2.7E-8`, `1E-7`;
//! * `toPlainString()`: never an exponent; a negative scale appends zeros (`1E+2` → `100`).
//!
//! `stripTrailingZeros()` removes zeros from `u` and lowers `s` for each (so `100` becomes
//! `u = 1, s = -2`), and turns any zero into `0` with scale 0 (JDK 8+).
//!
//! | value (declared scale) | [`Scientific`](DecimalStyle::Scientific) | [`PlainStripped`](DecimalStyle::PlainStripped) | [`PlainKeepScale`](DecimalStyle::PlainKeepScale) |
//! |---|---|---|---|
//! | 1.50 (2) | `1.5` | `1.5` | `1.50` |
//! | 0.00 (2) | `0` | `0` | `0.00` |
//! | 100 (0) | `1E+2` | `100` | `100` |
//! | 0.0000000270 (10) | `2.7E-8` | `0.000000027` | `0.0000000270` |

use crate::out::DIGITS2;

/// How a DECIMAL is printed (docs/json-format.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalStyle {
    /// Default (`encode.decimal-as-plain-number=false`), every version: `stripTrailingZeros()` then `toString()`.
    Scientific,
    /// Plain on Flink <= 1.20: `stripTrailingZeros()` then `toPlainString()`.
    PlainStripped,
    /// Plain on Flink >= 2.0: declared scale kept, `toPlainString()`.
    PlainKeepScale,
}

/// Appends the decimal `unscaled * 10^-scale` (scale >= 0) in `style`.
///
/// Source of truth: `java.math.BigDecimal.toString()` / `toPlainString()` / `stripTrailingZeros()`
/// (verified against JDK 25, see `tests/data/java_big_decimal.txt`), as Jackson's
/// `JsonGenerator.writeNumber(BigDecimal)` writes it for Flink's `RowDataToJsonConverters`.
/// Any `i128` (also `i128::MIN`, 39 digits) and any `i8` scale are accepted; a negative declared
/// scale is handled like `BigDecimal` would, though Flink DECIMAL never has one.
pub(crate) fn write_decimal(out: &mut Vec<u8>, unscaled: i128, scale: i8, style: DecimalStyle) {
    let mut digit_buf = [0u8; 40];
    let start = write_u128_digits(&mut digit_buf, unscaled.unsigned_abs());
    let mut digits = &digit_buf[start..];
    let mut scale = i32::from(scale);
    if style != DecimalStyle::PlainKeepScale {
        if unscaled == 0 {
            out.push(b'0');
            return;
        }
        let kept = digits.iter().rposition(|&b| b != b'0').map_or(1, |p| p + 1);
        scale -= (digits.len() - kept) as i32;
        digits = &digits[..kept];
    }
    // Longest text: sign, "0.", 127 zeros (i8 scale), 39 digits; or sign, 39 digits, 128 zeros.
    let mut text = Text {
        buf: [0u8; 176],
        len: 0,
    };
    if unscaled < 0 {
        text.push(b'-');
    }
    match style {
        DecimalStyle::Scientific => write_to_string(&mut text, digits, scale),
        DecimalStyle::PlainStripped | DecimalStyle::PlainKeepScale => {
            write_plain(&mut text, digits, scale)
        }
    }
    out.extend_from_slice(&text.buf[..text.len]);
}

/// A stack buffer, so that a value costs one `extend_from_slice` on the output.
struct Text {
    buf: [u8; 176],
    len: usize,
}

impl Text {
    #[inline]
    fn push(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    #[inline]
    fn extend(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    #[inline]
    fn zeros(&mut self, n: usize) {
        self.buf[self.len..self.len + n].fill(b'0');
        self.len += n;
    }
}

/// `BigDecimal.toString()` of the (sign already written) magnitude `digits * 10^-scale`.
fn write_to_string(out: &mut Text, digits: &[u8], scale: i32) {
    let adjusted = digits.len() as i32 - 1 - scale;
    if scale >= 0 && adjusted >= -6 {
        write_plain(out, digits, scale);
        return;
    }
    out.push(digits[0]);
    if digits.len() > 1 {
        out.push(b'.');
        out.extend(&digits[1..]);
    }
    if adjusted != 0 {
        out.push(b'E');
        out.push(if adjusted > 0 { b'+' } else { b'-' });
        let mut buf = [0u8; 40];
        let start = write_u128_digits(&mut buf, u128::from(adjusted.unsigned_abs()));
        out.extend(&buf[start..]);
    }
}

/// `BigDecimal.toPlainString()` of the (sign already written) magnitude `digits * 10^-scale`.
fn write_plain(out: &mut Text, digits: &[u8], scale: i32) {
    if scale <= 0 {
        out.extend(digits);
        // `toPlainString()` of a zero with a negative scale is `0` on JDK 8+; unreachable here
        // (stripping makes zero scale 0, the declared scale is >= 0), kept for completeness.
        if digits != b"0" {
            out.zeros(scale.unsigned_abs() as usize);
        }
        return;
    }
    let scale = scale as usize;
    if digits.len() > scale {
        let int = digits.len() - scale;
        out.extend(&digits[..int]);
        out.push(b'.');
        out.extend(&digits[int..]);
    } else {
        out.extend(b"0.");
        out.zeros(scale - digits.len());
        out.extend(digits);
    }
}

/// Writes the decimal digits of `n` right-aligned into `buf`, returns the index of the first digit
/// (`"0"` for zero). 40 bytes hold `u128::MAX` (39 digits).
#[inline]
fn write_u128_digits(buf: &mut [u8; 40], mut n: u128) -> usize {
    const TEN19: u128 = 10_000_000_000_000_000_000;
    let mut end = buf.len();
    // At most two rounds: u128::MAX / 10^19 / 10^19 < 10.
    while n > u128::from(u64::MAX) {
        let mut chunk = (n % TEN19) as u64;
        n /= TEN19;
        for _ in 0..19 {
            end -= 1;
            buf[end] = b'0' + (chunk % 10) as u8;
            chunk /= 10;
        }
    }
    let mut n = n as u64;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        end -= 2;
        buf[end..end + 2].copy_from_slice(&DIGITS2[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        end -= 2;
        buf[end..end + 2].copy_from_slice(&DIGITS2[pair..pair + 2]);
    } else {
        end -= 1;
        buf[end] = b'0' + n as u8;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use DecimalStyle::{PlainKeepScale, PlainStripped, Scientific};

    fn text(unscaled: i128, scale: i8, style: DecimalStyle) -> String {
        let mut out = Vec::new();
        write_decimal(&mut out, unscaled, scale, style);
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn json_parity_2_5_table() {
        // (unscaled, scale, default, plain Flink <= 1.20, plain Flink >= 2.0)
        let rows: &[(i128, i8, &str, &str, &str)] = &[
            (150, 2, "1.5", "1.5", "1.50"),
            (0, 2, "0", "0", "0.00"),
            (100, 0, "1E+2", "100", "100"),
            (10000, 2, "1E+2", "100", "100.00"),
            (1200, 0, "1.2E+3", "1200", "1200"),
            (1230, 0, "1.23E+3", "1230", "1230"),
            (123, 0, "123", "123", "123"),
            (10, 0, "1E+1", "10", "10"),
            (27, 9, "2.7E-8", "0.000000027", "0.000000027"),
            (270, 10, "2.7E-8", "0.000000027", "0.0000000270"),
            (1, 6, "0.000001", "0.000001", "0.000001"),
            (1, 7, "1E-7", "0.0000001", "0.0000001"),
            (-1234500, 4, "-123.45", "-123.45", "-123.4500"),
            (-50, 2, "-0.5", "-0.5", "-0.50"),
            (
                10i128.pow(37),
                0,
                "1E+37",
                "10000000000000000000000000000000000000",
                "10000000000000000000000000000000000000",
            ),
        ];
        for &(u, s, sci, stripped, keep) in rows {
            assert_eq!(text(u, s, Scientific), sci, "Scientific {u} scale {s}");
            assert_eq!(
                text(u, s, PlainStripped),
                stripped,
                "PlainStripped {u} scale {s}"
            );
            assert_eq!(
                text(u, s, PlainKeepScale),
                keep,
                "PlainKeepScale {u} scale {s}"
            );
        }
        let big: i128 = 12345678901234567890123456789012345678;
        for style in [Scientific, PlainStripped, PlainKeepScale] {
            assert_eq!(
                text(big, 18, style),
                "12345678901234567890.123456789012345678",
                "{style:?}"
            );
        }
    }

    #[test]
    fn extremes_do_not_panic() {
        assert_eq!(
            text(i128::MIN, 0, PlainKeepScale),
            "-170141183460469231731687303715884105728"
        );
        assert_eq!(
            text(i128::MIN, 0, Scientific),
            "-170141183460469231731687303715884105728"
        );
        assert_eq!(
            text(i128::MIN / 1000 * 1000, 0, Scientific),
            "-1.70141183460469231731687303715884105E+38"
        );
        assert_eq!(
            text(i128::MAX, 38, PlainKeepScale),
            "1.70141183460469231731687303715884105727"
        );
        assert_eq!(
            text(i128::MIN, 38, Scientific),
            "-1.70141183460469231731687303715884105728"
        );
        assert_eq!(text(1, 38, Scientific), "1E-38");
        assert_eq!(
            text(1, 38, PlainKeepScale),
            "0.00000000000000000000000000000000000001"
        );
        assert_eq!(
            text(0, 38, PlainKeepScale),
            "0.00000000000000000000000000000000000000"
        );
        assert_eq!(text(0, 0, PlainKeepScale), "0");
        assert_eq!(
            text(-(10i128.pow(38) - 1), 0, Scientific),
            "-99999999999999999999999999999999999999"
        );
        assert_eq!(
            text(i128::from(u64::MAX) + 1, 0, PlainKeepScale),
            "18446744073709551616"
        );
        assert_eq!(
            text(i128::from(u64::MAX), 0, PlainKeepScale),
            "18446744073709551615"
        );
        // Scales outside Flink's range still give BigDecimal's text and fit the stack buffer.
        for u in [i128::MIN, i128::MAX, 1, -10i128.pow(38), 0] {
            for s in [i8::MIN, -1, i8::MAX] {
                for style in [Scientific, PlainStripped, PlainKeepScale] {
                    assert_eq!(
                        text(u, s, style),
                        model(u, s, style),
                        "{u} scale {s} {style:?}"
                    );
                }
            }
        }
        assert_eq!(text(12, -2, PlainKeepScale), "1200");
        assert_eq!(text(12, -2, Scientific), "1.2E+3");
    }

    /// Lines `<unscaled> <scale> <toString of stripped> <toPlainString of stripped> <toPlainString>`
    /// printed by JDK 25's real `java.math.BigDecimal` (generator: `tests/data/JavaBigDecimal.java`).
    #[test]
    fn matches_jdk25_table() {
        let table = include_str!("../../tests/data/java_big_decimal.txt");
        let mut checked = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 5, "bad table line {line:?}");
            let u: i128 = f[0].parse().expect("unscaled");
            let s: i8 = f[1].parse().expect("scale");
            assert_eq!(text(u, s, Scientific), f[2], "Scientific, line {line:?}");
            assert_eq!(
                text(u, s, PlainStripped),
                f[3],
                "PlainStripped, line {line:?}"
            );
            assert_eq!(
                text(u, s, PlainKeepScale),
                f[4],
                "PlainKeepScale, line {line:?}"
            );
            checked += 1;
        }
        assert!(checked > 2000, "table too small: {checked}");
    }

    /// An independent slow model by string manipulation, over random values of every magnitude.
    #[test]
    fn random_against_string_model() {
        let mut state = 0x0dec_1ba1_5eed_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state
        };
        for _ in 0..100_000 {
            let raw = (u128::from(next()) << 64 | u128::from(next())) as i128;
            let digits = (next() % 40) as u32; // 0..=39 digits, trailing zeros common
            let u = if digits >= 39 {
                raw
            } else {
                raw % 10i128.pow(digits).max(1)
            };
            let u = if next() % 3 == 0 {
                (u / 10i128.pow((next() % 6) as u32))
                    .checked_mul(10i128.pow((next() % 6) as u32))
                    .unwrap_or(u)
            } else {
                u
            };
            let s = (next() % 39) as i8;
            assert_eq!(
                text(u, s, Scientific),
                model(u, s, Scientific),
                "Scientific {u} {s}"
            );
            assert_eq!(
                text(u, s, PlainStripped),
                model(u, s, PlainStripped),
                "PlainStripped {u} {s}"
            );
            assert_eq!(
                text(u, s, PlainKeepScale),
                model(u, s, PlainKeepScale),
                "PlainKeepScale {u} {s}"
            );
        }
    }

    fn model(u: i128, s: i8, style: DecimalStyle) -> String {
        let neg = u < 0;
        let mut digits = u.unsigned_abs().to_string();
        let mut scale = i64::from(s);
        if style != PlainKeepScale {
            if u == 0 {
                return "0".to_owned();
            }
            while digits.ends_with('0') {
                digits.pop();
                scale -= 1;
            }
        }
        let adjusted = digits.len() as i64 - 1 - scale;
        let body = if style == Scientific && !(scale >= 0 && adjusted >= -6) {
            let (first, rest) = digits.split_at(1);
            let point = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            format!(
                "{first}{point}E{}{}",
                if adjusted > 0 { "+" } else { "" },
                adjusted
            )
        } else if u == 0 && scale <= 0 {
            // JDK 8+: `new BigDecimal(0, -2).toPlainString()` is `0` (checked on JDK 25).
            "0".to_owned()
        } else if scale <= 0 {
            format!("{digits}{}", "0".repeat(scale.unsigned_abs() as usize))
        } else {
            let padded = format!(
                "{}{digits}",
                "0".repeat((scale as usize + 1).saturating_sub(digits.len()))
            );
            let (int, frac) = padded.split_at(padded.len() - scale as usize);
            format!("{int}.{frac}")
        };
        if neg {
            format!("-{body}")
        } else {
            body
        }
    }
}
