//! A pull parser over one message with the token model and the acceptance rules of the Jackson `JsonParser`
//! that Flink's `json` format reads with (`JacksonMapperFactory.createObjectMapper()` with
//! `ALLOW_UNESCAPED_CONTROL_CHARS`, every other `JsonReadFeature` off).
//!
//! The decoder ports Flink's `JsonParserToRowDataConverters`, which walks the message token by token
//! (`nextToken`, `currentToken`, `getText`), so this parser reproduces the tokens Jackson returns, and where it
//! refuses input. As in Jackson, a token is checked only when it is read: whatever follows the point where Flink
//! stops reading (content after the root object) is never looked at.
//!
//! Accepted exactly as Jackson accepts it:
//! - whitespace between tokens: space, `\t`, `\n`, `\r` only;
//! - numbers: `-`? (`0` | `[1-9][0-9]*`) (`.` `[0-9]+`)? (`[eE]` `[+-]`? `[0-9]+`)?; no leading zeros, `+`,
//!   leading or trailing `.`, `NaN` or `Infinity`; an integer token has neither fraction nor exponent;
//! - strings and field names in double quotes, escapes `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`, raw
//!   control characters allowed; UTF-8 decoded as Jackson's `UTF8StreamJsonParser` decodes it (the lead byte
//!   says the length, continuation bytes must be `10xxxxxx`, overlong forms and encoded surrogates are not
//!   refused); the text is then Java's UTF-16, kept here as code units when it is not plain UTF-8;
//! - literals `true`, `false`, `null`, not followed by a letter, digit or other identifier character;
//! - no comments, single quotes, unquoted names, trailing commas or missing commas.
//!
//! Jackson's `StreamReadConstraints` defaults (2.15+) are applied too: nesting deeper than 1000 levels and
//! numbers longer than 1000 characters are refused.

use std::borrow::Cow;

/// The nesting depth Jackson's `StreamReadConstraints.DEFAULT_MAX_DEPTH` allows.
const MAX_DEPTH: usize = 1000;
/// The number length (in characters) `StreamReadConstraints.DEFAULT_MAX_NUM_LEN` allows.
const MAX_NUMBER_LEN: usize = 1000;

/// Jackson's `JsonToken`, without the tokens Jackson never returns for JSON text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    StartObject,
    EndObject,
    StartArray,
    EndArray,
    FieldName,
    String,
    NumberInt,
    NumberFloat,
    True,
    False,
    Null,
}

impl Token {
    /// `START_OBJECT` or `START_ARRAY`.
    pub(crate) fn is_start(self) -> bool {
        matches!(self, Token::StartObject | Token::StartArray)
    }

    /// Jackson's `getText()` of a structural or literal token (its one spelling).
    ///
    /// # Panics
    /// For a name, string or number token, whose text is the lexer's ([`Lexer::text`]).
    pub(crate) fn structural_text(self) -> &'static str {
        match self {
            Token::StartObject => "{",
            Token::EndObject => "}",
            Token::StartArray => "[",
            Token::EndArray => "]",
            Token::True => "true",
            Token::False => "false",
            Token::Null => "null",
            Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat => {
                unreachable!("text tokens have their own text")
            }
        }
    }
}

/// Input Jackson refuses, at the byte offset where it noticed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// Byte offset in the message.
    pub(crate) at: usize,
    /// What Jackson found wrong, in its words where they are short.
    pub(crate) reason: &'static str,
}

/// The text of a string token or field name: the message's own bytes when they are valid UTF-8 without escapes
/// (Java's string, re-encoded, gives the same bytes), else the UTF-16 code units Jackson's decoding produces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Text<'a> {
    /// Valid UTF-8 (plain ASCII, or checked), as written in the message.
    Utf8(&'a [u8]),
    Utf16(Vec<u16>),
}

impl Text<'_> {
    /// Appends the bytes Flink stores for this text: `StringData.fromString`, i.e. Flink's
    /// `StringUtf8Utils.encodeUTF8`, which writes a lone surrogate as `?`.
    pub(crate) fn write_flink_utf8(&self, out: &mut Vec<u8>) {
        match self {
            Text::Utf8(s) => out.extend_from_slice(s),
            Text::Utf16(units) => write_java_utf16(units, out),
        }
    }

    /// The text's UTF-8 bytes when it is a Rust string; `None` when it holds a lone surrogate, which no Rust
    /// string (and so no field name of an Arrow schema) can equal.
    pub(crate) fn as_utf8(&self) -> Option<Cow<'_, [u8]>> {
        match self {
            Text::Utf8(s) => Some(Cow::Borrowed(s)),
            Text::Utf16(units) => String::from_utf16(units)
                .ok()
                .map(|s| Cow::Owned(s.into_bytes())),
        }
    }
}

/// Flink's `StringUtf8Utils.encodeUTF8` of a Java string: UTF-8, a surrogate pair as one 4-byte sequence, a
/// lone surrogate as `?`.
pub(crate) fn write_java_utf16(units: &[u16], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < units.len() {
        let c = units[i];
        i += 1;
        let code = match c {
            0xD800..=0xDBFF if i < units.len() && (0xDC00..=0xDFFF).contains(&units[i]) => {
                let low = units[i];
                i += 1;
                0x10000 + (((c as u32) - 0xD800) << 10) + ((low as u32) - 0xDC00)
            }
            0xD800..=0xDFFF => '?' as u32,
            _ => c as u32,
        };
        let ch = char::from_u32(code).expect("no surrogate is left");
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    Root,
    /// In an object; `first`: no entry read yet (a `}` may come without a name).
    Object {
        first: bool,
    },
    /// In an array; `first`: nothing read yet (a `]` may come without a value).
    Array {
        first: bool,
    },
}

/// One message's tokens, read on demand.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    stack: Vec<Ctx>,
    current: Option<Token>,
    /// The current token's bytes (for strings and names: between the quotes; numbers and literals: as written).
    start: usize,
    end: usize,
    /// Whether the current string or name has a backslash or a byte that is not ASCII.
    complex: bool,
    /// After a field name: the value's token, read with the name as Jackson does.
    pending: Option<(Token, usize, usize, bool)>,
    /// The current token is a string value not scanned yet (Jackson's `_tokenIncomplete`).
    incomplete: bool,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a [u8]) -> Self {
        Lexer {
            src,
            pos: 0,
            stack: vec![Ctx::Root],
            current: None,
            start: 0,
            end: 0,
            complex: false,
            pending: None,
            incomplete: false,
        }
    }

    /// Jackson's `currentToken()`: `None` before the first token and at the end of input.
    #[inline]
    pub(crate) fn current(&self) -> Option<Token> {
        self.current
    }

    /// Jackson's `nextToken()`: the next token, `None` at the end of input.
    ///
    /// # Errors
    /// What Jackson refuses at that point; the lexer must not be used after an error.
    pub(crate) fn next_token(&mut self) -> Result<Option<Token>, SyntaxError> {
        if self.incomplete {
            self.finish_string()?;
        }
        if let Some((token, start, end, complex)) = self.pending.take() {
            self.set(token, start, end, complex);
            if token.is_start() {
                self.push(token)?;
            }
            return Ok(Some(token));
        }
        let token = self.read()?;
        self.current = token;
        Ok(token)
    }

    fn set(&mut self, token: Token, start: usize, end: usize, complex: bool) {
        self.incomplete = token == Token::String;
        if self.incomplete {
            // A pending string value starts where its name's value was found; scan from there.
            self.pos = start;
        }
        self.current = Some(token);
        self.start = start;
        self.end = end;
        self.complex = complex;
    }

    fn push(&mut self, token: Token) -> Result<(), SyntaxError> {
        if self.stack.len() > MAX_DEPTH {
            return Err(self.error("nesting depth exceeds the maximum allowed (1000)"));
        }
        self.stack.push(match token {
            Token::StartObject => Ctx::Object { first: true },
            _ => Ctx::Array { first: true },
        });
        Ok(())
    }

    fn error(&self, reason: &'static str) -> SyntaxError {
        SyntaxError {
            at: self.pos,
            reason,
        }
    }

    /// Skips Jackson's whitespace; returns the next byte, if any.
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(&b) = self.src.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                _ => return Some(b),
            }
        }
        None
    }

    fn read(&mut self) -> Result<Option<Token>, SyntaxError> {
        let ctx = *self.stack.last().expect("the root context is never popped");
        let mut b = match self.skip_ws() {
            Some(b) => b,
            None => {
                return match ctx {
                    Ctx::Root => Ok(None),
                    _ => Err(self.error("unexpected end-of-input: expected close marker")),
                }
            }
        };
        match ctx {
            Ctx::Root => {}
            Ctx::Array { first } => {
                if b == b']' {
                    self.pos += 1;
                    self.stack.pop();
                    self.set_simple(Token::EndArray);
                    return Ok(Some(Token::EndArray));
                }
                if !first {
                    if b != b',' {
                        return Err(self.error(
                            "unexpected character: expected comma to separate Array entries",
                        ));
                    }
                    self.pos += 1;
                    b = self
                        .skip_ws()
                        .ok_or_else(|| self.error("unexpected end-of-input within an Array"))?;
                    if b == b']' {
                        return Err(self.error("unexpected character (']'): expected a value"));
                    }
                }
                *self.stack.last_mut().expect("in an array") = Ctx::Array { first: false };
            }
            Ctx::Object { first } => {
                if b == b'}' {
                    self.pos += 1;
                    self.stack.pop();
                    self.set_simple(Token::EndObject);
                    return Ok(Some(Token::EndObject));
                }
                if !first {
                    if b != b',' {
                        return Err(self.error(
                            "unexpected character: expected comma to separate Object entries",
                        ));
                    }
                    self.pos += 1;
                    b = self
                        .skip_ws()
                        .ok_or_else(|| self.error("unexpected end-of-input within an Object"))?;
                }
                if b != b'"' {
                    return Err(self.error(if b == b'}' {
                        "unexpected character ('}'): expected a field name (trailing comma)"
                    } else {
                        "unexpected character: expected double-quote to start field name"
                    }));
                }
                *self.stack.last_mut().expect("in an object") = Ctx::Object { first: false };
                self.pos += 1;
                let (start, end, complex) = self.scan_string()?;
                if self.skip_ws() != Some(b':') {
                    return Err(self.error("unexpected character: was expecting a colon to separate field name and value"));
                }
                self.pos += 1;
                let v = self
                    .skip_ws()
                    .ok_or_else(|| self.error("unexpected end-of-input: expected a value"))?;
                let value = self.read_value_start(v)?;
                self.pending = Some(value);
                self.set(Token::FieldName, start, end, complex);
                return Ok(Some(Token::FieldName));
            }
        }
        let (token, start, end, complex) = self.read_value_start(b)?;
        self.set(token, start, end, complex);
        if token.is_start() {
            self.push(token)?;
        }
        Ok(Some(token))
    }

    fn set_simple(&mut self, token: Token) {
        self.set(token, self.pos - 1, self.pos, false);
    }

    /// Reads the token a value starts with (a container's first token, a scalar whole).
    fn read_value_start(&mut self, b: u8) -> Result<(Token, usize, usize, bool), SyntaxError> {
        let start = self.pos;
        match b {
            b'{' => {
                self.pos += 1;
                Ok((Token::StartObject, start, self.pos, false))
            }
            b'[' => {
                self.pos += 1;
                Ok((Token::StartArray, start, self.pos, false))
            }
            b'"' => {
                // As in Jackson, a string value is only found when it is read (text) or skipped (next token).
                self.pos += 1;
                Ok((Token::String, self.pos, self.pos, false))
            }
            b't' => self.literal(b"true", Token::True),
            b'f' => self.literal(b"false", Token::False),
            b'n' => self.literal(b"null", Token::Null),
            b'-' | b'0'..=b'9' => self.number(),
            b']' | b'}' => Err(self.error("unexpected close marker: expected a value")),
            _ => Err(self.error("unexpected character: expected a valid value")),
        }
    }

    fn literal(
        &mut self,
        word: &'static [u8],
        token: Token,
    ) -> Result<(Token, usize, usize, bool), SyntaxError> {
        let start = self.pos;
        if !self.src[start..].starts_with(word) {
            return Err(self.error("unrecognized token: was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"));
        }
        self.pos += word.len();
        if let Some(&next) = self.src.get(self.pos) {
            if is_identifier_part(next) {
                return Err(self.error("unrecognized token: was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"));
            }
        }
        Ok((token, start, self.pos, false))
    }

    fn number(&mut self) -> Result<(Token, usize, usize, bool), SyntaxError> {
        let src = self.src;
        let start = self.pos;
        let mut p = start;
        if src[p] == b'-' {
            p += 1;
        }
        let int_start = p;
        while p < src.len() && src[p].is_ascii_digit() {
            p += 1;
        }
        if p == int_start {
            self.pos = p;
            return Err(self.error(
                "invalid numeric value: missing integer part (or non-standard NaN/Infinity)",
            ));
        }
        if src[int_start] == b'0' && p - int_start > 1 {
            self.pos = int_start + 1;
            return Err(self.error("invalid numeric value: leading zeroes not allowed"));
        }
        let mut float = false;
        if p < src.len() && src[p] == b'.' {
            float = true;
            p += 1;
            let frac = p;
            while p < src.len() && src[p].is_ascii_digit() {
                p += 1;
            }
            if p == frac {
                self.pos = p;
                return Err(
                    self.error("unexpected character: decimal point not followed by a digit")
                );
            }
        }
        if p < src.len() && (src[p] == b'e' || src[p] == b'E') {
            float = true;
            p += 1;
            if p < src.len() && (src[p] == b'+' || src[p] == b'-') {
                p += 1;
            }
            let exp = p;
            while p < src.len() && src[p].is_ascii_digit() {
                p += 1;
            }
            if p == exp {
                self.pos = p;
                return Err(
                    self.error("unexpected character: exponent indicator not followed by a digit")
                );
            }
        }
        // Jackson counts the digits (of the integer part, the fraction and the exponent), not the sign or marks.
        if src[start..p].iter().filter(|b| b.is_ascii_digit()).count() > MAX_NUMBER_LEN {
            self.pos = p;
            return Err(self.error("number length exceeds the maximum allowed (1000)"));
        }
        self.pos = p;
        if self.stack.len() == 1 {
            // A root-level number must be followed by whitespace or the end (Jackson's _verifyRootSpace).
            if let Some(&next) = src.get(p) {
                if !matches!(next, b' ' | b'\t' | b'\n' | b'\r') {
                    return Err(self.error("expected space separating root-level values"));
                }
            }
        }
        Ok((
            if float {
                Token::NumberFloat
            } else {
                Token::NumberInt
            },
            start,
            p,
            false,
        ))
    }

    /// Scans a string whose opening quote is consumed: returns its content range and whether it has escapes or
    /// non-ASCII bytes; checks escapes and UTF-8 as Jackson does.
    fn scan_string(&mut self) -> Result<(usize, usize, bool), SyntaxError> {
        let src = self.src;
        let start = self.pos;
        let mut p = start;
        let mut complex = false;
        loop {
            // A run up to the next quote or backslash: plain ASCII is taken whole; other bytes are checked as
            // Jackson decodes UTF-8 (raw control characters are allowed).
            let run_end = memchr::memchr2(b'"', b'\\', &src[p..]).map_or(src.len(), |i| p + i);
            if src[p..run_end].is_ascii() {
                p = run_end;
            } else {
                complex = true;
                while p < run_end {
                    p = self.utf8_char(p)?;
                }
            }
            match src.get(p) {
                None => {
                    self.pos = p;
                    return Err(self.error("unexpected end-of-input in a String value"));
                }
                Some(b'"') => {
                    self.pos = p + 1;
                    return Ok((start, p, complex));
                }
                Some(_) => {
                    complex = true;
                    let Some(&e) = src.get(p + 1) else {
                        self.pos = p + 1;
                        return Err(
                            self.error("unexpected end-of-input in character escape sequence")
                        );
                    };
                    match e {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => p += 2,
                        b'u' => {
                            if src.len() < p + 6
                                || !src[p + 2..p + 6].iter().all(u8::is_ascii_hexdigit)
                            {
                                self.pos = p + 2;
                                return Err(self.error(
                                    "unexpected character in a \\u escape: expected a hex-digit",
                                ));
                            }
                            p += 6;
                        }
                        _ => {
                            self.pos = p + 1;
                            return Err(self.error("unrecognized character escape"));
                        }
                    }
                }
            }
        }
    }

    /// One character of a string at `p` (not a quote or backslash): ASCII, or a UTF-8 sequence whose lead byte
    /// gives its length and whose continuation bytes are `10xxxxxx` (Jackson checks nothing more). Returns where
    /// the next character starts.
    fn utf8_char(&mut self, p: usize) -> Result<usize, SyntaxError> {
        let src = self.src;
        let n = match src[p] {
            0x00..=0x7F => return Ok(p + 1),
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => {
                self.pos = p;
                return Err(self.error("invalid UTF-8 start byte"));
            }
        };
        for k in 1..n {
            match src.get(p + k) {
                Some(&c) if c & 0xC0 == 0x80 => {}
                Some(_) => {
                    self.pos = p + k;
                    return Err(self.error("invalid UTF-8 middle byte"));
                }
                None => {
                    self.pos = p + k;
                    return Err(self.error("unexpected end-of-input in a String value"));
                }
            }
        }
        Ok(p + n)
    }

    /// Scans the current string value to its closing quote (Jackson's `_finishString` / `_skipString`).
    fn finish_string(&mut self) -> Result<(), SyntaxError> {
        self.incomplete = false;
        let (start, end, complex) = self.scan_string()?;
        self.start = start;
        self.end = end;
        self.complex = complex;
        Ok(())
    }

    /// The current token's text as Jackson's `getText()` gives it, for a string, name, number or literal token.
    ///
    /// # Errors
    /// For a string value, what Jackson refuses in its content (a bad escape, bad UTF-8, no closing quote),
    /// found now as Jackson finds it when the text is asked for.
    pub(crate) fn text(&mut self) -> Result<Text<'a>, SyntaxError> {
        if self.incomplete {
            self.finish_string()?;
        }
        Ok(self.text_scanned())
    }

    fn text_scanned(&self) -> Text<'a> {
        let raw = &self.src[self.start..self.end];
        match self.current {
            Some(Token::String | Token::FieldName) if self.complex => {
                if !raw.contains(&b'\\') && std::str::from_utf8(raw).is_ok() {
                    // Valid UTF-8 has no surrogates and no overlong forms: Java's re-encoding is the same.
                    return Text::Utf8(raw);
                }
                Text::Utf16(decode_jackson(raw))
            }
            // ASCII only: numbers, literals, simple strings.
            _ => Text::Utf8(raw),
        }
    }

    /// The byte offset where the lexer stands in the message (after the current token once it is read whole).
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The current token's bytes as written (numbers: the literal text; string values: their content).
    ///
    /// # Errors
    /// As [`text`](Self::text), for a string value.
    pub(crate) fn raw(&mut self) -> Result<&'a [u8], SyntaxError> {
        if self.incomplete {
            self.finish_string()?;
        }
        Ok(&self.src[self.start..self.end])
    }

    /// Skips the current container (at its start token) to its end token, as Flink's `skipToNextField` does
    /// for objects and arrays: reads every token in between.
    pub(crate) fn skip_children(&mut self) -> Result<(), SyntaxError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next_token()? {
                Some(Token::StartObject | Token::StartArray) => depth += 1,
                Some(Token::EndObject | Token::EndArray) => depth -= 1,
                Some(_) => {}
                None => return Err(self.error("unexpected end-of-input")),
            }
        }
        Ok(())
    }
}

/// Jackson's identifier characters after a literal (`Character.isJavaIdentifierPart` for ASCII, and any byte
/// that starts a non-ASCII character).
/// Whether `b` continues an identifier, which makes a literal before it (`nullx`) a token Jackson refuses.
pub(super) fn is_identifier_part(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Decodes string content already checked by `scan_string` as Jackson does, into UTF-16 code units.
fn decode_jackson(raw: &[u8]) -> Vec<u16> {
    let mut out = Vec::with_capacity(raw.len());
    let mut p = 0;
    while p < raw.len() {
        let b = raw[p];
        match b {
            b'\\' => {
                let e = raw[p + 1];
                p += 2;
                let unit = match e {
                    b'b' => 0x08,
                    b'f' => 0x0C,
                    b'n' => 0x0A,
                    b'r' => 0x0D,
                    b't' => 0x09,
                    b'u' => {
                        let hex = std::str::from_utf8(&raw[p..p + 4]).expect("checked hex");
                        p += 4;
                        u16::from_str_radix(hex, 16).expect("checked hex")
                    }
                    other => other as u16,
                };
                out.push(unit);
            }
            0x00..=0x7F => {
                out.push(b as u16);
                p += 1;
            }
            0xC0..=0xDF => {
                out.push((((b as u32 & 0x1F) << 6) | (raw[p + 1] as u32 & 0x3F)) as u16);
                p += 2;
            }
            0xE0..=0xEF => {
                let c = ((b as u32 & 0x0F) << 12)
                    | ((raw[p + 1] as u32 & 0x3F) << 6)
                    | (raw[p + 2] as u32 & 0x3F);
                out.push(c as u16);
                p += 3;
            }
            _ => {
                // Jackson's _decodeUtf8_4 then its surrogate split, with its arithmetic (no range check).
                let c = ((b as u32 & 0x07) << 18)
                    | ((raw[p + 1] as u32 & 0x3F) << 12)
                    | ((raw[p + 2] as u32 & 0x3F) << 6)
                    | (raw[p + 3] as u32 & 0x3F);
                let c = c.wrapping_sub(0x10000);
                out.push((0xD800 | (c >> 10)) as u16);
                out.push((0xDC00 | (c & 0x3FF)) as u16);
                p += 4;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &str) -> Result<Vec<Token>, SyntaxError> {
        let mut lexer = Lexer::new(src.as_bytes());
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token()? {
            out.push(t);
        }
        Ok(out)
    }

    #[test]
    fn tokens_of_an_object() {
        use Token::*;
        assert_eq!(
            tokens(r#" {"a": 1, "b": [true, null, 1.5e3], "c": {"d": "x"}} "#).unwrap(),
            vec![
                StartObject,
                FieldName,
                NumberInt,
                FieldName,
                StartArray,
                True,
                Null,
                NumberFloat,
                EndArray,
                FieldName,
                StartObject,
                FieldName,
                String,
                EndObject,
                EndObject
            ]
        );
    }

    #[test]
    fn refuses_what_jackson_refuses() {
        for bad in [
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":+1}"#,
            r#"{"a":1,}"#,
            r#"{a:1}"#,
            r#"{'a':1}"#,
            r#"{"a":NaN}"#,
            r#"{"a":tru}"#,
            r#"{"a":truex}"#,
            r#"{"a":1 "b":2}"#,
            r#"[1,]"#,
            r#"{"a":"\x"}"#,
            r#"{"a":1e}"#,
            "{\"a\":1\u{b}}",
        ] {
            assert!(tokens(bad).is_err(), "{bad}");
        }
        // Raw control characters inside strings are allowed (ALLOW_UNESCAPED_CONTROL_CHARS).
        assert!(tokens("{\"a\":\"x\u{1}\ny\"}").is_ok());
    }

    #[test]
    fn java_text_of_strings() {
        let mut lexer =
            Lexer::new(br#"["caf\u00e9", "\ud83d\ude00", "\ud800x", "plain", "\u00e9t\u00e9"]"#);
        lexer.next_token().unwrap();
        let mut texts = Vec::new();
        while lexer.next_token().unwrap() == Some(Token::String) {
            let mut out = Vec::new();
            lexer.text().unwrap().write_flink_utf8(&mut out);
            texts.push(String::from_utf8(out).unwrap());
        }
        assert_eq!(texts, ["café", "😀", "?x", "plain", "été"]);
    }

    #[test]
    fn nesting_limit() {
        let deep = "[".repeat(1001) + &"]".repeat(1001);
        assert!(tokens(&deep).is_err());
        let ok = "[".repeat(1000) + &"]".repeat(1000);
        assert!(tokens(&ok).is_ok());
    }
}
