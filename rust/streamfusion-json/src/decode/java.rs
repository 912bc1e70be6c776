//! The Java and Jackson number conversions Flink's converters call, on the token's text.
//!
//! Each returns `Err(Conv::Fails)` where Java throws (Flink then fails the message, or nulls the field under
//! `ignore-parse-errors`), and `Err(Conv::NotExact)` for input whose Java result this port does not reproduce
//! (non-ASCII digits, which `Character.digit` accepts; hexadecimal floating-point literals): the caller must
//! not guess a value for those.

/// Why a conversion gave no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    /// Java throws.
    Fails,
    /// Java's answer is not reproduced here.
    NotExact,
}

pub(crate) type ConvResult<T> = Result<T, Conv>;

/// `String.trim()`: strips the characters `<= U+0020` at both ends (one byte each in UTF-8).
pub(crate) fn java_trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| b > b' ').unwrap_or(s.len());
    let end = s.iter().rposition(|&b| b > b' ').map_or(start, |p| p + 1);
    &s[start..end]
}

/// `Long.parseLong` / `Integer.parseInt` / `Short.parseShort` / `Byte.parseByte` of `s` (already trimmed by
/// the caller where Flink trims) with the type's range `[min, max]`.
pub(crate) fn parse_java_integer(s: &[u8], min: i64, max: i64) -> ConvResult<i64> {
    if !s.is_ascii() {
        return Err(Conv::NotExact);
    }
    let (negative, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Conv::Fails);
    }
    let mut value: i128 = 0;
    for &d in digits {
        value = value * 10 + i128::from(d - b'0');
        if value > i128::from(i64::MAX) + 1 {
            return Err(Conv::Fails);
        }
    }
    let value = if negative { -value } else { value };
    if value < i128::from(min) || value > i128::from(max) {
        return Err(Conv::Fails);
    }
    Ok(value as i64)
}

/// Jackson's `getIntValue()` / `getLongValue()` of a number token with the type's range: an integer token is
/// parsed exactly and must fit; a floating-point token is parsed as a double, which must lie within
/// `[min, max]` as doubles (Jackson's `MIN_INT_D`..`MAX_INT_D`, `MIN_LONG_D`..`MAX_LONG_D`), and is truncated
/// toward zero (Java's saturating cast).
pub(crate) fn jackson_integer(text: &[u8], float: bool, min: i64, max: i64) -> ConvResult<i64> {
    if !float {
        // A JSON integer token: `-`? and digits. Up to 18 digits fit an i64 without a check.
        let (negative, digits) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        if digits.len() <= 18 {
            let magnitude = digits
                .iter()
                .fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
            let value = if negative { -magnitude } else { magnitude };
            return if (min..=max).contains(&value) {
                Ok(value)
            } else {
                Err(Conv::Fails)
            };
        }
        return parse_java_integer(text, min, max);
    }
    let d: f64 = std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or(Conv::Fails)?;
    if d < min as f64 || d > max as f64 {
        return Err(Conv::Fails);
    }
    Ok(d as i64)
}

/// `Double.parseDouble` / `Float.parseFloat` grammar: an optional sign, then `NaN`, `Infinity` or a decimal
/// number (digits with an optional point, at least one digit, an optional exponent) with an optional
/// `f`/`F`/`d`/`D` suffix. Returns the decimal text Rust's parser reads, or the special value.
enum JavaFloat {
    NaN,
    Infinity(bool),
    Decimal(String),
}

fn java_float_grammar(s: &[u8]) -> ConvResult<JavaFloat> {
    let s = java_trim(s);
    if !s.is_ascii() {
        return Err(Conv::Fails);
    }
    let (negative, rest) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == b"NaN" {
        return Ok(JavaFloat::NaN);
    }
    if rest == b"Infinity" {
        return Ok(JavaFloat::Infinity(negative));
    }
    if rest.len() > 1 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X') {
        return Err(Conv::NotExact);
    }
    let body = match rest.last() {
        Some(b'f' | b'F' | b'd' | b'D') => &rest[..rest.len() - 1],
        _ => rest,
    };
    let mut p = 0;
    let mut digits = 0;
    while p < body.len() && body[p].is_ascii_digit() {
        p += 1;
        digits += 1;
    }
    if p < body.len() && body[p] == b'.' {
        p += 1;
        while p < body.len() && body[p].is_ascii_digit() {
            p += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return Err(Conv::Fails);
    }
    if p < body.len() && (body[p] == b'e' || body[p] == b'E') {
        p += 1;
        if p < body.len() && (body[p] == b'+' || body[p] == b'-') {
            p += 1;
        }
        let exp = p;
        while p < body.len() && body[p].is_ascii_digit() {
            p += 1;
        }
        if p == exp {
            return Err(Conv::Fails);
        }
    }
    if p != body.len() {
        return Err(Conv::Fails);
    }
    let mut text = String::with_capacity(body.len() + 1);
    if negative {
        text.push('-');
    }
    text.push_str(std::str::from_utf8(body).expect("ASCII"));
    Ok(JavaFloat::Decimal(text))
}

/// `Double.parseDouble(s.trim())`.
pub(crate) fn parse_java_double(s: &[u8]) -> ConvResult<f64> {
    Ok(match java_float_grammar(s)? {
        JavaFloat::NaN => f64::NAN,
        JavaFloat::Infinity(negative) => {
            if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        JavaFloat::Decimal(text) => text.parse().map_err(|_| Conv::Fails)?,
    })
}

/// `Float.parseFloat(s.trim())`, rounded once from the decimal (as `FloatingDecimal` does).
pub(crate) fn parse_java_float(s: &[u8]) -> ConvResult<f32> {
    Ok(match java_float_grammar(s)? {
        JavaFloat::NaN => f32::NAN,
        JavaFloat::Infinity(negative) => {
            if negative {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            }
        }
        JavaFloat::Decimal(text) => text.parse().map_err(|_| Conv::Fails)?,
    })
}

/// A decimal as `new BigDecimal(String)` reads it: its digits (no leading zeros, empty for zero) and the power
/// of ten they are scaled by.
pub(crate) struct JavaDecimal {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

/// `new BigDecimal(s)` (Flink trims string tokens first; number tokens are JSON numbers, which BigDecimal's
/// grammar includes): an optional sign, digits with an optional point (at least one digit), an optional
/// exponent that fits an `int`.
pub(crate) fn parse_big_decimal(s: &[u8]) -> ConvResult<JavaDecimal> {
    if !s.is_ascii() {
        return Err(Conv::NotExact);
    }
    let (negative, rest) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut digits = Vec::with_capacity(rest.len());
    let mut p = 0;
    let mut seen = 0usize;
    let mut fraction = 0i64;
    let mut point = false;
    while p < rest.len() {
        match rest[p] {
            d @ b'0'..=b'9' => {
                seen += 1;
                if point {
                    fraction += 1;
                }
                if !(digits.is_empty() && d == b'0') {
                    digits.push(d - b'0');
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        p += 1;
    }
    if seen == 0 {
        return Err(Conv::Fails);
    }
    let mut exponent: i64 = 0;
    if p < rest.len() {
        if rest[p] != b'e' && rest[p] != b'E' {
            return Err(Conv::Fails);
        }
        p += 1;
        let (exp_negative, exp_start) = match rest.get(p) {
            Some(b'-') => (true, p + 1),
            Some(b'+') => (false, p + 1),
            _ => (false, p),
        };
        let exp_digits = &rest[exp_start..];
        if exp_digits.is_empty() || !exp_digits.iter().all(u8::is_ascii_digit) {
            return Err(Conv::Fails);
        }
        for &d in exp_digits {
            exponent = exponent * 10 + i64::from(d - b'0');
            if exponent > i64::from(i32::MAX) + 1 {
                return Err(Conv::Fails);
            }
        }
        if exp_negative {
            exponent = -exponent;
        }
        if exponent > i64::from(i32::MAX) || exponent < i64::from(i32::MIN) {
            return Err(Conv::Fails);
        }
    }
    // BigDecimal's scale (fraction digits minus the exponent) must fit an int.
    let scale = fraction - exponent;
    if scale > i64::from(i32::MAX) || scale < i64::from(i32::MIN) {
        return Err(Conv::Fails);
    }
    Ok(JavaDecimal {
        negative,
        digits,
        exponent: -scale,
    })
}

impl JavaDecimal {
    /// `toString()` of this decimal after `stripTrailingZeros()` (zero is `0`): plain when the exponent is
    /// zero, or negative with an adjusted exponent of at least -6; else one digit, the others after a point, and
    /// `E` with the adjusted exponent (`+` when positive).
    pub(crate) fn write_java_string_stripped(&self, out: &mut Vec<u8>) {
        let end = self
            .digits
            .iter()
            .rposition(|&d| d != 0)
            .map_or(0, |p| p + 1);
        let digits = &self.digits[..end];
        if digits.is_empty() {
            out.push(b'0');
            return;
        }
        let exponent = self.exponent + (self.digits.len() - end) as i64;
        if self.negative {
            out.push(b'-');
        }
        let n = digits.len() as i64;
        let adjusted = exponent + n - 1;
        let ascii = |d: &u8| b'0' + d;
        if exponent == 0 {
            out.extend(digits.iter().map(ascii));
        } else if exponent < 0 && adjusted >= -6 {
            let point = n + exponent;
            if point > 0 {
                out.extend(digits[..point as usize].iter().map(ascii));
                out.push(b'.');
                out.extend(digits[point as usize..].iter().map(ascii));
            } else {
                out.extend_from_slice(b"0.");
                out.extend(std::iter::repeat_n(b'0', (-point) as usize));
                out.extend(digits.iter().map(ascii));
            }
        } else {
            out.push(ascii(&digits[0]));
            if n > 1 {
                out.push(b'.');
                out.extend(digits[1..].iter().map(ascii));
            }
            out.push(b'E');
            if adjusted > 0 {
                out.push(b'+');
            }
            out.extend_from_slice(adjusted.to_string().as_bytes());
        }
    }

    /// Flink's `DecimalData.fromBigDecimal(bd, precision, scale)`: `bd.setScale(scale, HALF_UP)`, then `None`
    /// (a null field) when it has more than `precision` digits; else the unscaled value.
    pub(crate) fn to_flink(&self, precision: u8, scale: i8) -> Option<i128> {
        // value = digits * 10^exponent; unscaled = round_half_up(value * 10^scale).
        let shift = self.exponent + i64::from(scale);
        let n = self.digits.len() as i64;
        let (kept, round_up): (&[u8], bool) = if shift >= 0 {
            (&self.digits[..], false)
        } else {
            let drop = -shift;
            if drop > n {
                (&[], false)
            } else {
                let keep = (n - drop) as usize;
                (&self.digits[..keep], self.digits[keep] >= 5)
            }
        };
        let zeros = shift.max(0);
        let total = kept.len() as i64 + if kept.is_empty() { 0 } else { zeros };
        // More digits than the precision before rounding: too large (rounding only adds).
        if total > i64::from(precision) {
            return None;
        }
        let mut unscaled: i128 = 0;
        for &d in kept {
            unscaled = unscaled * 10 + i128::from(d);
        }
        if !kept.is_empty() {
            for _ in 0..zeros {
                unscaled *= 10;
            }
        }
        if round_up {
            unscaled += 1;
        }
        if unscaled >= 10i128.pow(u32::from(precision)) {
            return None;
        }
        Some(if self.negative { -unscaled } else { unscaled })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_integers() {
        assert_eq!(parse_java_integer(b"+12", -128, 127), Ok(12));
        assert_eq!(parse_java_integer(b"-128", -128, 127), Ok(-128));
        assert_eq!(parse_java_integer(b"128", -128, 127), Err(Conv::Fails));
        assert_eq!(
            parse_java_integer(b"1.0", i64::MIN, i64::MAX),
            Err(Conv::Fails)
        );
        assert_eq!(
            parse_java_integer(b"", i64::MIN, i64::MAX),
            Err(Conv::Fails)
        );
        assert_eq!(
            parse_java_integer(b"-", i64::MIN, i64::MAX),
            Err(Conv::Fails)
        );
        assert_eq!(
            parse_java_integer(b"-9223372036854775808", i64::MIN, i64::MAX),
            Ok(i64::MIN)
        );
        assert_eq!(
            parse_java_integer(b"9223372036854775808", i64::MIN, i64::MAX),
            Err(Conv::Fails)
        );
        assert_eq!(
            parse_java_integer("١".as_bytes(), i64::MIN, i64::MAX),
            Err(Conv::NotExact)
        );
        assert_eq!(
            jackson_integer(b"-1.9", true, -2147483648, 2147483647),
            Ok(-1)
        );
        assert_eq!(
            jackson_integer(b"2147483647.5", true, -2147483648, 2147483647),
            Err(Conv::Fails)
        );
        assert_eq!(
            jackson_integer(b"1e2", true, -2147483648, 2147483647),
            Ok(100)
        );
    }

    #[test]
    fn java_doubles() {
        assert_eq!(parse_java_double(b" 1.5d "), Ok(1.5));
        assert_eq!(parse_java_double(b"-Infinity"), Ok(f64::NEG_INFINITY));
        assert!(parse_java_double(b"NaN").unwrap().is_nan());
        assert_eq!(parse_java_double(b".5"), Ok(0.5));
        assert_eq!(parse_java_double(b"5."), Ok(5.0));
        assert_eq!(parse_java_double(b"1e400"), Ok(f64::INFINITY));
        assert_eq!(parse_java_double(b"inf"), Err(Conv::Fails));
        assert_eq!(parse_java_double(b"nan"), Err(Conv::Fails));
        assert_eq!(parse_java_double(b"."), Err(Conv::Fails));
        assert_eq!(parse_java_double(b"0x1p3"), Err(Conv::NotExact));
        assert_eq!(parse_java_float(b"3.4028236e38"), Ok(f32::INFINITY));
    }

    #[test]
    fn flink_decimals() {
        let d = |s: &str, p, sc| parse_big_decimal(s.as_bytes()).unwrap().to_flink(p, sc);
        assert_eq!(d("1.005", 10, 2), Some(101));
        assert_eq!(d("-1.005", 10, 2), Some(-101));
        assert_eq!(d("1.004", 10, 2), Some(100));
        assert_eq!(d("99.995", 4, 2), None);
        assert_eq!(d("99.994", 4, 2), Some(9999));
        assert_eq!(d("1e2", 5, 2), Some(10000));
        assert_eq!(d("1e3", 5, 2), None);
        assert_eq!(d("0.0000001", 5, 2), Some(0));
        assert_eq!(d("0.005", 5, 2), Some(1));
        assert_eq!(d("0", 1, 0), Some(0));
        assert_eq!(
            d("12345678901234567890123456789012345678", 38, 0),
            Some(12345678901234567890123456789012345678)
        );
        assert!(parse_big_decimal(b"1e").is_err());
        assert!(parse_big_decimal(b"abc").is_err());
        assert!(parse_big_decimal(b".").is_err());
    }
}
