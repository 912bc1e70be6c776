//! What Jackson does with a value beyond handing out its tokens, as Flink's converters use it: the compact JSON
//! of a tree read from the parser (`readValueAsTree().toString()`, for a STRING column given an object or an
//! array), and base64 (`getBinaryValue()`, for BINARY and BYTES).

use super::java::{parse_big_decimal, Conv};
use super::lexer::{write_java_utf16, Lexer, SyntaxError, Text, Token};
use super::row::{next_in_container, Failure};

/// `jp.readValueAsTree().toString()` for a STRING column given an object or array: Jackson's compact JSON of
/// the tree, read from the container's first token to its last.
///
/// Reproduced: nesting, strings and names (Jackson's escapes: `\"`, `\\`, `\b \t \n \f \r`, `\u00XX` for the
/// other control characters, the rest as is), integers (the tree keeps their value: `-0` is `0`), floating-point
/// numbers ([`write_scalar`]), `true`, `false`, `null`. Left to Flink: an object with a repeated key (the tree
/// keeps the first position with the last value).
pub(super) fn echo_tree(
    lx: &mut Lexer<'_>,
    decimal_floats: bool,
    out: &mut Vec<u8>,
) -> Result<(), Failure> {
    /// An open container: how many entries it has so far, and for an object the names seen.
    struct Frame {
        entries: usize,
        names: Vec<Vec<u8>>,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut token = lx.current().expect("at a container");
    loop {
        match token {
            Token::FieldName => {
                let frame = stack.last_mut().expect("names are in objects");
                if frame.entries > 0 {
                    out.push(b',');
                }
                frame.entries += 1;
                let text = lx.text()?;
                let mut name = Vec::new();
                text.write_flink_utf8(&mut name);
                if frame.names.contains(&name) {
                    return Err(Failure::NotExact);
                }
                frame.names.push(name);
                write_jackson_string(&text, out);
                out.push(b':');
                token = next_in_container(lx)?;
                echo_value(lx, token, decimal_floats, &mut stack, out)?;
            }
            Token::EndObject | Token::EndArray => {
                out.push(if token == Token::EndObject {
                    b'}'
                } else {
                    b']'
                });
                stack.pop();
                if stack.is_empty() {
                    return Ok(());
                }
            }
            _ => {
                if let Some(frame) = stack.last_mut() {
                    if frame.entries > 0 {
                        out.push(b',');
                    }
                    frame.entries += 1;
                }
                echo_value(lx, token, decimal_floats, &mut stack, out)?;
            }
        }
        token = next_in_container(lx)?;
    }

    fn echo_value(
        lx: &mut Lexer<'_>,
        token: Token,
        decimal_floats: bool,
        stack: &mut Vec<Frame>,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        if token.is_start() {
            out.push(if token == Token::StartObject {
                b'{'
            } else {
                b'['
            });
            stack.push(Frame {
                entries: 0,
                names: Vec::new(),
            });
            Ok(())
        } else {
            write_scalar(lx, token, decimal_floats, out)
        }
    }
}

/// One scalar of an echoed tree. `decimal_floats`: Flink's mapper reads floating-point numbers as `BigDecimal`
/// (`USE_BIG_DECIMAL_FOR_FLOATS`, on when the row type has a DECIMAL anywhere), and the tree's node factory
/// strips their trailing zeros; else they are doubles, written as Java's `Double.toString` (JDK 19+ digits),
/// non-finite values quoted.
fn write_scalar(
    lx: &mut Lexer<'_>,
    token: Token,
    decimal_floats: bool,
    out: &mut Vec<u8>,
) -> Result<(), Failure> {
    match token {
        Token::String => write_jackson_string(&lx.text()?, out),
        Token::NumberInt => {
            let raw = lx.raw()?;
            if raw == b"-0" {
                out.push(b'0');
            } else {
                out.extend_from_slice(raw);
            }
        }
        Token::NumberFloat if decimal_floats => {
            let decimal = parse_big_decimal(lx.raw()?).map_err(Failure::Conv)?;
            decimal.write_java_string_stripped(out);
        }
        Token::NumberFloat => {
            let text = std::str::from_utf8(lx.raw()?).expect("a number token is ASCII");
            crate::flink::float::write_f64(out, text.parse().expect("a JSON number parses as f64"));
        }
        other => out.extend_from_slice(other.structural_text().as_bytes()),
    }
    Ok(())
}

/// A string as Jackson's generator quotes it, then stored as Flink stores the resulting Java string.
fn write_jackson_string(text: &Text<'_>, out: &mut Vec<u8>) {
    let units: Vec<u16> = match text {
        Text::Utf8(s) => std::str::from_utf8(s)
            .expect("checked UTF-8")
            .encode_utf16()
            .collect(),
        Text::Utf16(units) => units.clone(),
    };
    let mut escaped: Vec<u16> = Vec::with_capacity(units.len() + 2);
    escaped.push(u16::from(b'"'));
    for &u in &units {
        let short = match u {
            0x22 => Some(b'"'),
            0x5C => Some(b'\\'),
            0x08 => Some(b'b'),
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            _ => None,
        };
        if let Some(c) = short {
            escaped.push(u16::from(b'\\'));
            escaped.push(u16::from(c));
        } else if u < 0x20 {
            for b in format!("\\u{u:04X}").bytes() {
                escaped.push(u16::from(b));
            }
        } else {
            escaped.push(u);
        }
    }
    escaped.push(u16::from(b'"'));
    write_java_utf16(&escaped, out);
}

/// Jackson's `getBinaryValue()` of a string token (`UTF8StreamJsonParser._decodeBase64` with the default
/// variant, `MIME_NO_LINEFEEDS`: the standard alphabet, padding required): quads of characters, any character
/// `<= U+0020` skipped before a quad, a quad ended early by `=` padding, JSON escapes decoded where the alphabet
/// does not match (an escaped space may stand before a quad). Anything else fails: a bad character as a
/// conversion failure (Jackson stops before the rest of the string, which its next token skips); the closing
/// quote inside a quad as a [`Failure::Syntax`] at `end` (the string's end in the message), because Jackson has
/// then read the quote as base64 input, and the next token starts inside whatever follows (under
/// `ignore-parse-errors` Flink's walk goes on from there: not reproduced).
pub(super) fn jackson_base64(raw: &[u8], end: usize, out: &mut Vec<u8>) -> Result<(), Failure> {
    let ended = || {
        Failure::Syntax(SyntaxError {
            at: end,
            reason: "unexpected end of base64-encoded String: padding required",
        })
    };
    const PADDING: i32 = -2;
    fn value(c: u32) -> i32 {
        match c {
            0x41..=0x5A => (c - 0x41) as i32,
            0x61..=0x7A => (c - 0x61 + 26) as i32,
            0x30..=0x39 => (c - 0x30 + 52) as i32,
            0x2B => 62,
            0x2F => 63,
            0x3D => PADDING,
            _ => -1,
        }
    }
    let mut p = 0usize;
    // The next character: `None` at the closing quote; a backslash escape is returned undecoded as `\\`.
    let next = |p: &mut usize| -> Option<u32> {
        let c = *raw.get(*p)?;
        *p += 1;
        Some(u32::from(c))
    };
    // `_decodeBase64Escape`: a backslash is unescaped and decoded; anything else fails. `Ok(None)`: an escaped
    // character <= space before a quad, skipped.
    let escape = |p: &mut usize, c: u32, index: u32| -> Result<Option<i32>, Failure> {
        if c != u32::from(b'\\') {
            return Err(Conv::Fails.into());
        }
        let e = *raw.get(*p).ok_or(Conv::Fails)?;
        *p += 1;
        let unescaped = match e {
            b'b' => 0x08,
            b't' => 0x09,
            b'n' => 0x0A,
            b'f' => 0x0C,
            b'r' => 0x0D,
            b'u' => {
                let hex = raw.get(*p..*p + 4).ok_or(Conv::Fails)?;
                *p += 4;
                u32::from_str_radix(std::str::from_utf8(hex).map_err(|_| Conv::Fails)?, 16)
                    .map_err(|_| Conv::Fails)?
            }
            other => u32::from(other),
        };
        if unescaped <= 0x20 && index == 0 {
            return Ok(None);
        }
        let bits = value(unescaped);
        if bits < 0 && (bits != PADDING || index < 2) {
            return Err(Conv::Fails.into());
        }
        Ok(Some(bits))
    };
    loop {
        // The first character of a quad: whitespace skipped, the closing quote ends the value.
        let mut c;
        loop {
            c = match next(&mut p) {
                None => return Ok(()),
                Some(c) => c,
            };
            if c > 0x20 {
                break;
            }
        }
        let mut bits = value(c);
        if bits < 0 {
            match escape(&mut p, c, 0)? {
                None => continue,
                Some(b) => bits = b,
            }
        }
        let mut data = bits;
        // Second.
        let c = next(&mut p).ok_or_else(ended)?;
        let mut bits = value(c);
        if bits < 0 {
            bits = escape(&mut p, c, 1)?.ok_or(Conv::Fails)?;
        }
        data = (data << 6) | bits;
        // Third: padding here ends the quad with one byte (and needs a second '=').
        let c = next(&mut p);
        let mut bits = c.map_or(-1, value);
        if bits < 0 {
            if bits != PADDING {
                // A missing third character: padding is required.
                let c = c.ok_or_else(ended)?;
                bits = escape(&mut p, c, 2)?.ok_or(Conv::Fails)?;
            }
            if bits == PADDING {
                let c = next(&mut p).ok_or_else(ended)?;
                if value(c) != PADDING && escape(&mut p, c, 3)? != Some(PADDING) {
                    return Err(Conv::Fails.into());
                }
                out.push((data >> 4) as u8);
                continue;
            }
        }
        data = (data << 6) | bits;
        // Fourth: padding here ends the quad with two bytes.
        let c = next(&mut p);
        let mut bits = c.map_or(-1, value);
        if bits < 0 {
            if bits != PADDING {
                let c = c.ok_or_else(ended)?;
                bits = escape(&mut p, c, 3)?.ok_or(Conv::Fails)?;
            }
            if bits == PADDING {
                let two = data >> 2;
                out.push((two >> 8) as u8);
                out.push(two as u8);
                continue;
            }
        }
        data = (data << 6) | bits;
        out.push((data >> 16) as u8);
        out.push((data >> 8) as u8);
        out.push(data as u8);
    }
}
