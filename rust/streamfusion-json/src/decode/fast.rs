//! The fast path: one pass over a message in the shape Flink's own `json` serializer and most producers write,
//! straight to the row's values, without the token-by-token walk of [`RowDecoder`](super::row::RowDecoder).
//!
//! It takes a message only where the exact walk provably gives the same row, and gives it up (returns `None`,
//! the caller then decodes the message with the exact walk from its start) at the first thing outside that
//! shape. The shape: the root is an object (whitespace before it, and anything after its end, as Jackson
//! leaves it unread); each key is a string without escapes or non-ASCII bytes naming a field of the row, no field
//! named twice, and no more keys once every field is named (where Flink's walk would only skip tokens); each
//! value is `null`, or a token the column's converter takes as it is:
//!
//! | column | value |
//! |---|---|
//! | BOOLEAN | `true`, `false` |
//! | TINYINT, SMALLINT | an integer |
//! | INT, BIGINT | a number |
//! | FLOAT, DOUBLE, DECIMAL | a number |
//! | CHAR, VARCHAR | a string, valid UTF-8, its escapes decoded (not a lone surrogate) |
//! | DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ | a string without escapes, valid UTF-8 |
//! | ROW | an object of the same shape |
//!
//! Values are converted by the exact walk's own converters (`java`, `temporal`), and a value one of them refuses
//! gives the message up too, so every failure, and everything `ignore-parse-errors` and
//! `fail-on-missing-field` change, is the exact walk's. The rest (BINARY, ARRAY, MAP, MULTISET, numbers written
//! as strings, escapes outside string values, repeated or unknown keys, array roots...) always takes the exact
//! walk.

use super::column::{Column, RowShape, Value};
use super::java::{jackson_integer, parse_big_decimal, parse_java_double, parse_java_float};
use super::lexer::is_identifier_part;
use super::row::in_unit;
use super::temporal::{
    parse_date, parse_time_millis, parse_timestamp, time_in_unit, timestamp_layout,
};
use super::DecoderOptions;

/// The deepest nesting of rows the fast path takes (Jackson allows 1000; rows that deep take the exact walk).
const MAX_DEPTH: usize = 64;

/// One message on the fast path.
pub(crate) struct Fast<'a> {
    src: &'a [u8],
    pos: usize,
    options: &'a DecoderOptions,
}

impl<'a> Fast<'a> {
    /// The fast path over `message` (not empty, not null).
    pub(crate) fn new(src: &'a [u8], options: &'a DecoderOptions) -> Self {
        Fast {
            src,
            pos: 0,
            options,
        }
    }

    /// The row of the message's root object into `row` (cleared and sized to `shape`), strings and bytes
    /// appended to `scratch`; `None` when the message is not in the fast path's shape (`row` and `scratch` then
    /// hold partial values the caller discards).
    pub(crate) fn root(
        &mut self,
        shape: &RowShape,
        row: &mut Vec<Value>,
        scratch: &mut Vec<u8>,
    ) -> Option<()> {
        if self.skip_ws()? != b'{' {
            return None;
        }
        self.pos += 1;
        self.row(shape, row, scratch, 0)
    }

    /// After an object's `{`: its entries and its `}`.
    fn row(
        &mut self,
        shape: &RowShape,
        row: &mut Vec<Value>,
        scratch: &mut Vec<u8>,
        depth: usize,
    ) -> Option<()> {
        let arity = shape.columns.len();
        row.clear();
        row.extend((0..arity).map(|_| Value::Null));
        // Fields named so far (a field named twice is Flink's repeated-key count: the exact walk); a bit mask, or
        // for rows of more than 64 fields a vector.
        let mut named_mask = 0u64;
        let mut named_wide = if arity > 64 {
            vec![false; arity]
        } else {
            Vec::new()
        };
        let mut matched = 0usize;
        let mut hint = 0usize;
        if self.skip_ws()? == b'}' {
            self.pos += 1;
            return self.finish_row(matched, arity);
        }
        loop {
            if self.skip_ws()? != b'"' || matched == arity {
                return None;
            }
            self.pos += 1;
            // The key of the field after the last one, as serializers write them: its bytes and the closing quote.
            let field = match shape.plain_name(hint) {
                Some(name)
                    if self.src.get(self.pos..self.pos + name.len()) == Some(name)
                        && self.src.get(self.pos + name.len()) == Some(&b'"') =>
                {
                    self.pos += name.len() + 1;
                    hint
                }
                _ => {
                    let name = self.plain_ascii_string()?;
                    shape.find(name, hint)?
                }
            };
            let repeated = if arity > 64 {
                std::mem::replace(&mut named_wide[field], true)
            } else {
                let bit = 1u64 << field;
                let seen = named_mask & bit != 0;
                named_mask |= bit;
                seen
            };
            if repeated {
                return None;
            }
            hint = field + 1;
            matched += 1;
            if self.skip_ws()? != b':' {
                return None;
            }
            self.pos += 1;
            let value = self.value(&shape.columns[field], scratch, depth)?;
            // The field was null (a field named twice has taken the exact walk): nothing to drop.
            let null = std::mem::replace(&mut row[field], value);
            debug_assert!(matches!(null, Value::Null));
            std::mem::forget(null);
            match self.skip_ws()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return self.finish_row(matched, arity);
                }
                _ => return None,
            }
        }
    }

    /// A row whose object ended after `matched` of its `arity` fields: complete unless a missing field fails it.
    fn finish_row(&self, matched: usize, arity: usize) -> Option<()> {
        (matched == arity || !self.options.fail_on_missing_field()).then_some(())
    }

    /// The value of a field of `column`, at its first byte (whitespace skipped).
    fn value(&mut self, column: &Column, scratch: &mut Vec<u8>, depth: usize) -> Option<Value> {
        let b = self.skip_ws()?;
        if b == b'n' {
            return self.literal(b"null").then_some(Value::Null);
        }
        Some(match column {
            Column::Boolean => match b {
                b't' if self.literal(b"true") => Value::Bool(true),
                b'f' if self.literal(b"false") => Value::Bool(false),
                _ => return None,
            },
            Column::Int8 | Column::Int16 => {
                let (raw, float) = self.number()?;
                let (min, max) = if *column == Column::Int8 {
                    (i64::from(i8::MIN), i64::from(i8::MAX))
                } else {
                    (i64::from(i16::MIN), i64::from(i16::MAX))
                };
                // An integer token: Jackson's getIntValue, then the narrower range (as the exact walk does).
                if float {
                    return None;
                }
                let v =
                    jackson_integer(raw, false, i64::from(i32::MIN), i64::from(i32::MAX)).ok()?;
                if !(min..=max).contains(&v) {
                    return None;
                }
                Value::Int(v)
            }
            Column::Int32 => match self.plain_integer() {
                Some(v) => Value::Int(i64::from(i32::try_from(v).ok()?)),
                None => {
                    let (raw, float) = self.number()?;
                    Value::Int(
                        jackson_integer(raw, float, i64::from(i32::MIN), i64::from(i32::MAX))
                            .ok()?,
                    )
                }
            },
            Column::Int64 => match self.plain_integer() {
                Some(v) => Value::Int(v),
                None => {
                    let (raw, float) = self.number()?;
                    Value::Int(jackson_integer(raw, float, i64::MIN, i64::MAX).ok()?)
                }
            },
            Column::Float32 => Value::F32(parse_java_float(self.number()?.0).ok()?),
            Column::Float64 => Value::F64(parse_java_double(self.number()?.0).ok()?),
            Column::Decimal { precision, scale } => {
                let decimal = parse_big_decimal(self.number()?.0).ok()?;
                match decimal.to_flink(*precision, *scale) {
                    Some(unscaled) => Value::Decimal(unscaled),
                    None => Value::Null,
                }
            }
            Column::Utf8 | Column::LargeUtf8 => {
                let start = scratch.len();
                self.string_into(b, scratch)?;
                Value::Bytes(start, scratch.len())
            }
            Column::Date32 => Value::Int(i64::from(parse_date(self.string(b)?).ok()? as i32)),
            Column::Time(unit) => {
                let millis = parse_time_millis(self.string(b)?).ok()?;
                Value::Int(time_in_unit(millis, *unit))
            }
            Column::Timestamp { unit, ltz } => {
                let layout = timestamp_layout(self.options.timestamp_standard(), *ltz);
                let (millis, nanos) = parse_timestamp(self.string(b)?, layout)
                    .ok()?
                    .flink_millis();
                Value::Int(in_unit(millis, nanos, *unit)?)
            }
            Column::Row(shape) => {
                if b != b'{' || depth + 1 >= MAX_DEPTH {
                    return None;
                }
                self.pos += 1;
                let mut fields = Vec::with_capacity(shape.columns.len());
                self.row(shape, &mut fields, scratch, depth + 1)?;
                Value::Row(fields)
            }
            Column::Binary | Column::LargeBinary | Column::List(_) | Column::Map { .. } => {
                return None
            }
        })
    }

    /// Skips Jackson's whitespace (space, tab, CR, LF); the next byte, `None` at the end.
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        loop {
            let b = *self.src.get(self.pos)?;
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
    }

    /// `word` (a literal) at the current byte, not followed by an identifier character (Jackson's check).
    fn literal(&mut self, word: &[u8]) -> bool {
        let rest = &self.src[self.pos..];
        if !rest.starts_with(word) {
            return false;
        }
        if rest.get(word.len()).is_some_and(|&b| is_identifier_part(b)) {
            return false;
        }
        self.pos += word.len();
        true
    }

    /// An integer token of at most 18 digits (which an `i64` holds) at the current byte, and its value; `None`,
    /// reading nothing, for any other token (a fraction or an exponent, a leading zero, more digits...), which
    /// [`number`](Self::number) reads.
    #[inline]
    fn plain_integer(&mut self) -> Option<i64> {
        let src = self.src;
        let negative = src.get(self.pos) == Some(&b'-');
        let start = self.pos + usize::from(negative);
        let mut p = start;
        let mut value = 0i64;
        while let Some(d) = src.get(p).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
            if p - start == 18 {
                return None;
            }
            value = value * 10 + i64::from(d);
            p += 1;
        }
        let digits = p - start;
        if digits == 0 || (digits > 1 && src[start] == b'0') {
            return None;
        }
        if matches!(src.get(p), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = p;
        Some(if negative { -value } else { value })
    }

    /// A number token at the current byte, as Jackson's grammar has it: its text and whether it has a fraction
    /// or an exponent. At most 64 bytes (longer numbers take the exact walk, which knows Jackson's limits).
    fn number(&mut self) -> Option<(&'a [u8], bool)> {
        let src = self.src;
        let start = self.pos;
        let mut p = start;
        if src.get(p) == Some(&b'-') {
            p += 1;
        }
        let int_start = p;
        while src.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        if p == int_start || (src[int_start] == b'0' && p - int_start > 1) {
            return None;
        }
        let mut float = false;
        if src.get(p) == Some(&b'.') {
            float = true;
            p += 1;
            let frac = p;
            while src.get(p).is_some_and(u8::is_ascii_digit) {
                p += 1;
            }
            if p == frac {
                return None;
            }
        }
        if matches!(src.get(p), Some(b'e' | b'E')) {
            float = true;
            p += 1;
            if matches!(src.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            let exp = p;
            while src.get(p).is_some_and(u8::is_ascii_digit) {
                p += 1;
            }
            if p == exp {
                return None;
            }
        }
        if p - start > 64 {
            return None;
        }
        self.pos = p;
        Some((&src[start..p], float))
    }

    /// A string value at its opening quote `b`: its bytes, when it has no escape and is valid UTF-8 (whose
    /// Java re-encoding is itself); else `None`.
    fn string(&mut self, b: u8) -> Option<&'a [u8]> {
        if b != b'"' {
            return None;
        }
        self.pos += 1;
        let start = self.pos;
        let (end, ascii) = scan_to_special(self.src, start)?;
        if self.src[end] != b'"' {
            return None;
        }
        let text = &self.src[start..end];
        if !ascii && std::str::from_utf8(text).is_err() {
            return None;
        }
        self.pos = end + 1;
        Some(text)
    }

    /// A string value at its opening quote `b`, its text appended to `out` as the UTF-8 Flink stores: escapes
    /// decoded (a `\u` surrogate pair as one character); `None` for a lone surrogate escape (Java keeps it, UTF-8
    /// cannot), an escape Jackson refuses, bytes that are not UTF-8, or no closing quote.
    fn string_into(&mut self, b: u8, out: &mut Vec<u8>) -> Option<()> {
        if b != b'"' {
            return None;
        }
        let src = self.src;
        let start = out.len();
        let mut p = self.pos + 1;
        let mut ascii = true;
        loop {
            let (at, run_ascii) = scan_to_special(src, p)?;
            ascii &= run_ascii;
            out.extend_from_slice(&src[p..at]);
            if src[at] == b'"' {
                self.pos = at + 1;
                break;
            }
            let e = *src.get(at + 1)?;
            p = at + 2;
            let decoded = match e {
                b'"' | b'\\' | b'/' => e,
                b'b' => 0x08,
                b'f' => 0x0C,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'u' => {
                    let unit = hex4(src.get(p..p + 4)?)?;
                    p += 4;
                    let c = match unit {
                        0xD800..=0xDBFF => {
                            if src.get(p..p + 2)? != b"\\u" {
                                return None;
                            }
                            let low = hex4(src.get(p + 2..p + 6)?)?;
                            if !(0xDC00..=0xDFFF).contains(&low) {
                                return None;
                            }
                            p += 6;
                            0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        0xDC00..=0xDFFF => return None,
                        _ => unit,
                    };
                    let c = char::from_u32(c)?;
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    continue;
                }
                _ => return None,
            };
            out.push(decoded);
        }
        if !ascii && std::str::from_utf8(&out[start..]).is_err() {
            return None;
        }
        Some(())
    }

    /// A field name after its opening quote: its bytes, when plain ASCII without escapes.
    fn plain_ascii_string(&mut self) -> Option<&'a [u8]> {
        let start = self.pos;
        let (end, ascii) = scan_to_special(self.src, start)?;
        if !ascii || self.src[end] != b'"' {
            return None;
        }
        self.pos = end + 1;
        Some(&self.src[start..end])
    }
}

/// The value of four hex digits (`\uXXXX`), either case.
fn hex4(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0u32, |v, &d| Some(v * 16 + char::from(d).to_digit(16)?))
}

/// From `start` to the first quote or backslash of a string: its position and whether every byte before it is
/// ASCII; `None` at the end of the input.
#[inline]
fn scan_to_special(src: &[u8], start: usize) -> Option<(usize, bool)> {
    let run = src.get(start..)?;
    let at = memchr::memchr2(b'"', b'\\', run)?;
    Some((start + at, run[..at].is_ascii()))
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    use super::*;

    #[test]
    fn scan_to_special_finds_the_first_quote_or_backslash() {
        // The bytes, and where the scan stops with whether the bytes before are ASCII.
        type Case<'a> = (&'a [u8], Option<(usize, bool)>);
        let cases: [Case<'_>; 8] = [
            (b"abc\"", Some((3, true))),
            (b"\"", Some((0, true))),
            (b"0123456789abcdef\"x\"", Some((16, true))),
            (b"01234567\\\"", Some((8, true))),
            (b"abc", None),
            ("caf\u{e9}\"".as_bytes(), Some((5, false))),
            ("0123456\u{e9}xx\"".as_bytes(), Some((11, false))),
            // A quote right after a high byte in the same word: the lowest mark is exact.
            (b"\xc3\xa9\"\"\"\"\"\"\"", Some((2, false))),
        ];
        for (src, expected) in cases {
            assert_eq!(
                scan_to_special(src, 0),
                expected,
                "{:?}",
                String::from_utf8_lossy(src)
            );
        }
        // From any start.
        assert_eq!(scan_to_special(b"\"ab\"", 1), Some((3, true)));
    }

    #[test]
    fn rows_wider_than_a_mask_and_repeated_keys_match_the_exact_walk() {
        use std::sync::Arc;

        use arrow_schema::{DataType, Field, Schema};

        use crate::JsonDecoder;

        let schema = Arc::new(Schema::new(
            (0..70)
                .map(|i| Field::new(format!("f{i}"), DataType::Int64, true))
                .collect::<Vec<_>>(),
        ));
        let all: Vec<String> = (0..70).map(|i| format!("\"f{i}\":{i}")).collect();
        let messages = [
            format!("{{{}}}", all.join(",")),
            format!("{{{},\"f69\":-1}}", all[..69].join(",")),
            // Repeated keys count towards the arity in Flink's walk: once 70 keys are matched (f3 twice, then
            // f0..f67), f68 is not read.
            format!("{{\"f3\":1,\"f3\":2,{}}}", all[..69].join(",")),
        ];
        for exact in [false, true] {
            let options = DecoderOptions::default().with_exact_walk_only(exact);
            let mut decoder = JsonDecoder::new(Arc::clone(&schema), options).unwrap();
            let decoded = decoder
                .decode(messages.iter().map(|m| Some(m.as_bytes())))
                .unwrap();
            let column = |i: usize| {
                decoded
                    .batch()
                    .column(i)
                    .as_primitive::<arrow_array::types::Int64Type>()
                    .clone()
            };
            assert_eq!(column(69).value(0), 69, "exact {exact}");
            assert_eq!(column(69).value(1), -1, "exact {exact}");
            assert!(
                column(68).is_null(2) && column(69).is_null(2),
                "exact {exact}"
            );
            assert_eq!(
                (column(3).value(2), column(67).value(2)),
                (3, 67),
                "exact {exact}"
            );
        }
    }

    #[test]
    fn strings_are_unescaped_as_java_reads_them_or_given_up() {
        let options = DecoderOptions::default();
        let read = |json: &str| {
            let mut fast = Fast::new(json.as_bytes(), &options);
            let mut out = Vec::new();
            fast.string_into(b'"', &mut out)
                .map(|()| String::from_utf8(out).unwrap())
        };
        assert_eq!(
            read(r#""a\"b\\c\/d\b\f\n\r\t""#).as_deref(),
            Some("a\"b\\c/d\u{8}\u{c}\n\r\t")
        );
        assert_eq!(
            read(r#""\u00e9\u20AC\ud83d\ude00x""#).as_deref(),
            Some("\u{e9}\u{20ac}\u{1f600}x")
        );
        assert_eq!(read(r#""\u0000""#).as_deref(), Some("\u{0}"));
        // Java keeps lone surrogates, Jackson refuses bad escapes: the exact walk's business.
        for given_up in [
            r#""\ud83d""#,
            r#""\ude00x""#,
            r#""\ud83dx""#,
            r#""\x""#,
            r#""\u12""#,
            r#""abc"#,
        ] {
            assert_eq!(read(given_up), None, "{given_up}");
        }
    }
}
