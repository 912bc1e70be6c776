//! Flink's deserializer over [`Lexer`]: the message's root (`deserialize(message, collector)`,
//! `processArray`), the row walk (`JsonParserToRowDataConverters.createRowConverter`, `skipToNextField`), the
//! nullable wrapper around every converter, and the converters of each type, nested ones included; finished rows
//! go to the columns' [`Builder`]s.

use std::sync::Arc;

use arrow_schema::TimeUnit;

use super::column::{Column, RowShape, Value};
use super::fast::Fast;
use super::jackson::{echo_tree, jackson_base64};
use super::java::{
    jackson_integer, java_trim, parse_big_decimal, parse_java_double, parse_java_float,
    parse_java_integer, Conv,
};
use super::java_hash::{string_data_hash, JavaHashMap, Treeified};
use super::lexer::{Lexer, SyntaxError, Token};
use super::temporal::{
    parse_date, parse_time_millis, parse_timestamp, time_in_unit, timestamp_layout,
};
use super::DecoderOptions;

/// What became of one message.
pub(crate) enum Outcome {
    /// Its rows (none, one, or one per element of an array root) are appended.
    Done,
    /// Flink throws for it: the reason.
    Failed(String),
    /// Flink's result is not reproduced: why.
    NotExact(String),
}

/// Why a walk outside every converter stopped (the root, an array root's elements).
enum Stop {
    /// Flink throws (the reason).
    Fails(String),
    /// Not reproduced (the reason).
    NotExact(String),
}

impl From<SyntaxError> for Stop {
    fn from(e: SyntaxError) -> Self {
        Stop::Fails(format!("{} at byte {}", e.reason, e.at))
    }
}

/// Why a converter (a row walk included) gave no value.
pub(crate) enum Failure {
    /// The converter throws.
    Conv(Conv),
    /// Jackson throws while the converter reads.
    Syntax(SyntaxError),
    /// Flink's answer is not reproduced.
    NotExact,
}

impl From<Conv> for Failure {
    fn from(c: Conv) -> Self {
        Failure::Conv(c)
    }
}

impl From<SyntaxError> for Failure {
    fn from(e: SyntaxError) -> Self {
        Failure::Syntax(e)
    }
}

impl Failure {
    /// This failure where the row converter's caller sees it: the message fails, or is not reproduced.
    fn into_stop(self) -> Stop {
        match self {
            Failure::Conv(Conv::Fails) => Stop::Fails("Fail to deserialize at field".to_owned()),
            Failure::Syntax(e) => e.into(),
            Failure::Conv(Conv::NotExact) | Failure::NotExact => {
                Stop::NotExact("a value that only Flink converts exactly".to_owned())
            }
        }
    }
}

/// Where decoded rows go: Arrow builders ([`ArrowRows`](super::column::ArrowRows)) or Flink binary rows
/// ([`BinaryRows`](super::binary::BinaryRows)).
pub(crate) trait RowSink {
    /// Appends a row of `shape`: its `fields` (strings and bytes are ranges of `scratch`), or `None` for a null
    /// row (Flink collects a null `RowData`).
    fn push(&mut self, shape: &RowShape, fields: Option<&[Value]>, scratch: &[u8]);
    /// Rows appended since the sink was last emptied.
    fn len(&self) -> usize;
}

/// Decodes messages into rows of one shape, appended to a [`RowSink`].
#[derive(Debug)]
pub(crate) struct RowDecoder {
    shape: Arc<RowShape>,
    options: DecoderOptions,
    /// Strings and bytes of the row being read ([`Value::Bytes`] ranges).
    scratch: Vec<u8>,
    /// Jackson reads floating-point numbers as `BigDecimal` (the row has a DECIMAL somewhere).
    decimal_floats: bool,
    /// Row buffers of top-level rows already appended, reused.
    rows_free: Vec<Vec<Value>>,
}

impl RowDecoder {
    /// A decoder of rows of `shape`.
    pub(crate) fn new(shape: Arc<RowShape>, options: DecoderOptions) -> Self {
        RowDecoder {
            decimal_floats: shape.has_decimal(),
            shape,
            options,
            scratch: Vec::new(),
            rows_free: Vec::new(),
        }
    }

    /// Flink 2.2's `deserialize(message, collector)`: no row for a null or empty message; the root must be an
    /// object (one row) or an array (one row per element), each converted by the row walk. Under
    /// `ignore-parse-errors` a message that fails outside the row converter keeps the rows collected so far, and
    /// a row that fails inside it is a null row (the converter's nullable wrapper returns null, which Flink
    /// collects).
    pub(crate) fn decode_message<S: RowSink>(
        &mut self,
        message: Option<&[u8]>,
        sink: &mut S,
    ) -> Outcome {
        let Some(message) = message.filter(|m| !m.is_empty()) else {
            return Outcome::Done;
        };
        // Jackson's ByteSourceJsonBootstrapper: a UTF-8 byte order mark is skipped; UTF-16 and UTF-32 (a byte
        // order mark, or a zero byte among the first two) are decoded by Jackson, and left to it here.
        let message = message.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(message);
        if message.starts_with(b"\xFE\xFF")
            || message.starts_with(b"\xFF\xFE")
            || message.iter().take(2).any(|&b| b == 0)
        {
            return Outcome::NotExact(
                "a message in UTF-16 or UTF-32 (Jackson detects the encoding)".to_owned(),
            );
        }
        if !self.options.exact_walk_only() {
            self.scratch.clear();
            let mut row = self.rows_free.pop().unwrap_or_default();
            let fast =
                Fast::new(message, &self.options).root(&self.shape, &mut row, &mut self.scratch);
            if fast.is_some() {
                sink.push(&self.shape, Some(&row), &self.scratch);
            }
            self.rows_free.push(row);
            if fast.is_some() {
                return Outcome::Done;
            }
        }
        let ignore = self.options.ignore_parse_errors();
        let mut lx = Lexer::new(message);
        let result = match lx.next_token() {
            Ok(Some(Token::StartObject)) => self.collect_element(&mut lx, false, sink),
            Ok(Some(Token::StartArray)) => self.read_root_array(&mut lx, sink),
            Ok(_) => Err(Stop::Fails(
                "No content to map due to end-of-input".to_owned(),
            )),
            Err(e) => Err(e.into()),
        };
        match result {
            Ok(()) => Outcome::Done,
            // Thrown outside the row converter: the rows collected so far stay, nothing more.
            Err(Stop::Fails(_)) if ignore => Outcome::Done,
            Err(Stop::Fails(reason)) => Outcome::Failed(reason),
            Err(Stop::NotExact(reason)) => Outcome::NotExact(reason),
        }
    }

    /// `processArray` (Flink 2.x): each element up to the array's end through the nullable row converter, its
    /// result collected (a JSON null or, under `ignore-parse-errors`, a failing element: a null row). An element
    /// that is not an object fails the converter without being consumed, so the walk goes on inside it.
    fn read_root_array<S: RowSink>(
        &mut self,
        lx: &mut Lexer<'_>,
        sink: &mut S,
    ) -> Result<(), Stop> {
        loop {
            match lx.next_token()? {
                Some(Token::EndArray) => return Ok(()),
                // The root array's end was taken by a walk that went on inside an element: Jackson returns null
                // for ever and Flink collects null rows until memory runs out.
                None => {
                    return Err(Stop::NotExact(
                        "an array root whose end a failed element's walk consumed (Flink's loop does not end)"
                            .to_owned(),
                    ))
                }
                Some(_) => self.collect_element(lx, true, sink)?,
            }
        }
    }

    /// The nullable row converter at the current token (the root object, or an element of the root array), and
    /// its row collected: a JSON null, or under `ignore-parse-errors` a failure, is a null row. After a parser
    /// error inside an array root's element Flink reads on from inside the broken element: not reproduced.
    fn collect_element<S: RowSink>(
        &mut self,
        lx: &mut Lexer<'_>,
        in_array: bool,
        sink: &mut S,
    ) -> Result<(), Stop> {
        self.scratch.clear();
        let shape = Arc::clone(&self.shape);
        let read = match lx.current() {
            Some(Token::Null) => Err(None),
            Some(Token::StartObject) => self.read_row(&shape, lx).map_err(Some),
            // "Illegal JSON object data..."
            _ => Err(Some(Failure::Conv(Conv::Fails))),
        };
        let fields = match read {
            Ok(fields) => Some(fields),
            Err(None) => None,
            Err(Some(Failure::Syntax(_))) if self.options.ignore_parse_errors() && in_array => {
                return Err(Stop::NotExact(
                    "malformed JSON inside an element of an array root, under ignore-parse-errors"
                        .to_owned(),
                ))
            }
            Err(Some(Failure::Conv(Conv::Fails) | Failure::Syntax(_)))
                if self.options.ignore_parse_errors() =>
            {
                None
            }
            Err(Some(failure)) => return Err(failure.into_stop()),
        };
        sink.push(&shape, fields.as_deref(), &self.scratch);
        if let Some(fields) = fields {
            self.rows_free.push(fields);
        }
        Ok(())
    }

    /// `createRowConverter`'s walk, from the object's `START_OBJECT` to its `END_OBJECT` (or wherever a
    /// failed field conversion under `ignore-parse-errors` leaves the walk: Flink's walk goes on from there).
    fn read_row(&mut self, shape: &RowShape, lx: &mut Lexer<'_>) -> Result<Vec<Value>, Failure> {
        let arity = shape.columns.len();
        let mut row = self.rows_free.pop().unwrap_or_default();
        row.clear();
        row.resize(arity, Value::Null);
        let mut matched = 0usize;
        // Where the next key most likely is: after the last one matched (messages tend to follow the schema).
        let mut hint = 0usize;
        lx.next_token()?;
        while lx.current() != Some(Token::EndObject) {
            if matched >= arity {
                skip_to_next_field(lx)?;
                continue;
            }
            let field = match lx.current() {
                Some(Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat) => {
                    lx.text()?
                        .as_utf8()
                        .and_then(|name| shape.find(&name, hint))
                }
                Some(token) => shape.find(token.structural_text().as_bytes(), hint),
                // Flink's skipToNextField switches on a null token: a NullPointerException.
                None => return Err(Conv::Fails.into()),
            };
            lx.next_token()?;
            match field {
                Some(idx) => {
                    hint = idx + 1;
                    row[idx] = self.convert_nullable(&shape.columns[idx], lx)?;
                    lx.next_token()?;
                    matched += 1;
                }
                None => skip_to_next_field(lx)?,
            }
        }
        if matched < arity && self.options.fail_on_missing_field() {
            // "Some field is missing in the JSON data."
            return Err(Conv::Fails.into());
        }
        Ok(row)
    }

    /// The nullable wrapper around a converter: null for a missing token or JSON null; a failure is null under
    /// `ignore-parse-errors` (the walk goes on from where the converter stopped), else it propagates. A parser
    /// error inside a converter under `ignore-parse-errors` is not reproduced: Flink's walk would go on from a
    /// position inside the broken value.
    fn convert_nullable(&mut self, column: &Column, lx: &mut Lexer<'_>) -> Result<Value, Failure> {
        let token = match lx.current() {
            None | Some(Token::Null) => return Ok(Value::Null),
            Some(token) => token,
        };
        let mark = self.scratch.len();
        match self.convert(column, token, lx) {
            Err(Failure::Conv(Conv::Fails)) if self.options.ignore_parse_errors() => {
                self.scratch.truncate(mark);
                Ok(Value::Null)
            }
            Err(Failure::Syntax(_)) if self.options.ignore_parse_errors() => Err(Failure::NotExact),
            other => other,
        }
    }

    fn convert(
        &mut self,
        column: &Column,
        token: Token,
        lx: &mut Lexer<'_>,
    ) -> Result<Value, Failure> {
        let number = matches!(token, Token::NumberInt | Token::NumberFloat);
        let float = token == Token::NumberFloat;
        Ok(match column {
            Column::Boolean => Value::Bool(match token {
                Token::True => true,
                Token::False => false,
                _ => java_trim(&token_text(lx, token)?).eq_ignore_ascii_case(b"true"),
            }),
            Column::Int8 | Column::Int16 => {
                let (min, max) = if *column == Column::Int8 {
                    (i64::from(i8::MIN), i64::from(i8::MAX))
                } else {
                    (i64::from(i16::MIN), i64::from(i16::MAX))
                };
                Value::Int(if token == Token::NumberInt {
                    // Jackson's getIntValue, then the narrower range (Flink's own check, or getShortValue's).
                    let v = jackson_integer(
                        lx.raw()?,
                        false,
                        i64::from(i32::MIN),
                        i64::from(i32::MAX),
                    )?;
                    if !(min..=max).contains(&v) {
                        return Err(Conv::Fails.into());
                    }
                    v
                } else {
                    parse_java_integer(java_trim(&token_text(lx, token)?), min, max)?
                })
            }
            Column::Int32 => Value::Int(if number {
                jackson_integer(lx.raw()?, float, i64::from(i32::MIN), i64::from(i32::MAX))?
            } else {
                parse_java_integer(
                    java_trim(&token_text(lx, token)?),
                    i64::from(i32::MIN),
                    i64::from(i32::MAX),
                )?
            }),
            Column::Int64 => Value::Int(if number {
                jackson_integer(lx.raw()?, float, i64::MIN, i64::MAX)?
            } else {
                parse_java_integer(java_trim(&token_text(lx, token)?), i64::MIN, i64::MAX)?
            }),
            // Jackson's getFloatValue/getDoubleValue parse the number's text as Float/Double.parseFloat do.
            Column::Float32 => Value::F32(parse_java_float(&token_text(lx, token)?)?),
            Column::Float64 => Value::F64(parse_java_double(&token_text(lx, token)?)?),
            Column::Decimal { precision, scale } => {
                let decimal = match token {
                    Token::String => parse_big_decimal(java_trim(&token_text(lx, token)?))?,
                    Token::NumberInt | Token::NumberFloat => parse_big_decimal(lx.raw()?)?,
                    // Jackson: "Current token (...) not numeric, can not use numeric value accessors".
                    _ => return Err(Conv::Fails.into()),
                };
                match decimal.to_flink(*precision, *scale) {
                    Some(unscaled) => Value::Decimal(unscaled),
                    None => Value::Null,
                }
            }
            Column::Utf8 | Column::LargeUtf8 => {
                let start = self.scratch.len();
                match token {
                    Token::StartObject | Token::StartArray => {
                        echo_tree(lx, self.decimal_floats, &mut self.scratch)?
                    }
                    Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat => {
                        lx.text()?.write_flink_utf8(&mut self.scratch)
                    }
                    other => self
                        .scratch
                        .extend_from_slice(other.structural_text().as_bytes()),
                }
                Value::Bytes(start, self.scratch.len())
            }
            Column::Binary | Column::LargeBinary => {
                if token != Token::String {
                    // Jackson: "Current token (...) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access
                    // as binary".
                    return Err(Conv::Fails.into());
                }
                let raw = lx.raw()?;
                let start = self.scratch.len();
                jackson_base64(raw, lx.position(), &mut self.scratch)?;
                Value::Bytes(start, self.scratch.len())
            }
            // Flink casts the epoch day to int.
            Column::Date32 => Value::Int(i64::from(parse_date(&token_text(lx, token)?)? as i32)),
            Column::Time(unit) => {
                let millis = parse_time_millis(&token_text(lx, token)?)?;
                Value::Int(time_in_unit(millis, *unit))
            }
            Column::Timestamp { unit, ltz } => {
                let layout = timestamp_layout(self.options.timestamp_standard(), *ltz);
                let (millis, nanos) =
                    parse_timestamp(&token_text(lx, token)?, layout)?.flink_millis();
                Value::Int(in_unit(millis, nanos, *unit).ok_or(Failure::NotExact)?)
            }
            Column::List(element) => {
                // createArrayConverter: elements to the array's END_ARRAY, each through its nullable converter.
                if token != Token::StartArray {
                    return Err(Conv::Fails.into()); // "Illegal JSON array data..."
                }
                let mut items = Vec::new();
                while next_in_container(lx)? != Token::EndArray {
                    items.push(self.convert_nullable(element, lx)?);
                }
                Value::List(items)
            }
            Column::Map { key, value } => {
                // createMapConverter: to the object's END_OBJECT, a key through the key converter, one token
                // on, the value through the value converter; a repeated key replaces the value (a HashMap).
                if token != Token::StartObject {
                    return Err(Conv::Fails.into()); // "Illegal JSON map data..."
                }
                let mut entries: Vec<(Value, Value)> = Vec::new();
                let mut map = JavaHashMap::default();
                let mut lone_surrogates = false;
                while next_in_container(lx)? != Token::EndObject {
                    let k = self.convert_nullable(key, lx)?;
                    // A key with a lone surrogate: Flink stores it as `?`, but its HashMap tells keys apart by
                    // their Java strings (`BinaryStringData.equals`), so `"\ud800"` and `"?"` are two entries.
                    lone_surrogates |= lx.text().ok().is_some_and(|t| t.as_utf8().is_none());
                    lx.next_token()?;
                    let v = self.convert_nullable(value, lx)?;
                    let Value::Bytes(ks, ke) = k else {
                        // A null key (reachable only once a failed value has moved the walk): Arrow has none.
                        return Err(Failure::NotExact);
                    };
                    let scratch = &self.scratch;
                    let hash = string_data_hash(&scratch[ks..ke]);
                    let same = |i: usize| matches!(entries[i].0, Value::Bytes(s, e) if scratch[s..e] == scratch[ks..ke]);
                    match map.put(hash, same).map_err(|Treeified| Failure::NotExact)? {
                        // Equal bytes may be different Java strings where a lone surrogate is written as `?`.
                        Some(_) if lone_surrogates => return Err(Failure::NotExact),
                        Some(i) => entries[i].1 = v,
                        None => entries.push((Value::Bytes(ks, ke), v)),
                    }
                }
                // The order Flink's HashMap iterates, which toBinaryMap writes.
                let mut slots: Vec<Option<(Value, Value)>> =
                    entries.into_iter().map(Some).collect();
                let entries = map.order().filter_map(|i| slots[i].take()).collect();
                Value::Map(entries)
            }
            Column::Row(shape) => {
                if token != Token::StartObject {
                    return Err(Conv::Fails.into()); // "Illegal JSON object data..."
                }
                let shape = Arc::clone(shape);
                Value::Row(self.read_row(&shape, lx)?)
            }
        })
    }
}

/// Flink's timestamp (milliseconds, nanoseconds of the millisecond) in `unit`; `None` when the unit cannot hold
/// it exactly (a finer part than the unit, or beyond its 64-bit range).
pub(super) fn in_unit(millis: i64, nanos: i64, unit: TimeUnit) -> Option<i64> {
    match unit {
        TimeUnit::Nanosecond => millis.checked_mul(1_000_000)?.checked_add(nanos),
        TimeUnit::Microsecond if nanos % 1000 == 0 => {
            millis.checked_mul(1000)?.checked_add(nanos / 1000)
        }
        TimeUnit::Millisecond if nanos == 0 => Some(millis),
        TimeUnit::Second if nanos == 0 && millis.rem_euclid(1000) == 0 => {
            Some(millis.div_euclid(1000))
        }
        _ => None,
    }
}

/// `getText()` of any token, as the bytes Java's string would encode to.
fn token_text(lx: &mut Lexer<'_>, token: Token) -> Result<Vec<u8>, SyntaxError> {
    Ok(match token {
        Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat => {
            let mut out = Vec::new();
            lx.text()?.write_flink_utf8(&mut out);
            out
        }
        other => other.structural_text().as_bytes().to_vec(),
    })
}

/// Flink's `skipToNextField`: past a container when at one, then one token on. At the end of the input (the walk
/// has gone past the root's end) Flink switches on a null token: a `NullPointerException`.
fn skip_to_next_field(lx: &mut Lexer<'_>) -> Result<(), Failure> {
    match lx.current() {
        None => return Err(Conv::Fails.into()),
        Some(token) if token.is_start() => lx.skip_children()?,
        Some(_) => {}
    }
    lx.next_token()?;
    Ok(())
}

/// The next token inside a nested converter's loop (an array's elements, a map's entries, a tree being
/// echoed). At the end of the input Jackson returns null for ever and Flink's loop never ends (an array converter
/// adds null elements until memory runs out): not reproduced.
pub(super) fn next_in_container(lx: &mut Lexer<'_>) -> Result<Token, Failure> {
    lx.next_token()?.ok_or(Failure::NotExact)
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int32Type;
    use arrow_array::Array;
    use arrow_schema::{DataType, Field, Fields};

    use super::super::column::ArrowRows;
    use super::*;

    fn decoder(fields: Vec<Field>, options: DecoderOptions) -> (RowDecoder, ArrowRows) {
        let fields = Fields::from(fields);
        let shape = Arc::new(RowShape::of(&fields).unwrap());
        (RowDecoder::new(shape, options), ArrowRows::new(&fields))
    }

    #[test]
    fn the_walk_counts_repeated_keys() {
        let (mut d, mut sink) = decoder(
            vec![
                Field::new("a", DataType::Int32, true),
                Field::new("b", DataType::Int32, true),
            ],
            DecoderOptions::default(),
        );
        assert!(matches!(
            d.decode_message(Some(br#"{"a":1,"a":2,"b":3}"#), &mut sink),
            Outcome::Done
        ));
        let columns = sink.finish();
        assert_eq!(columns[0].as_primitive::<Int32Type>().value(0), 2);
        assert!(columns[1].is_null(0));
    }

    #[test]
    fn echo_of_containers() {
        let (mut d, mut sink) = decoder(
            vec![Field::new("s", DataType::Utf8, true)],
            DecoderOptions::default(),
        );
        assert!(matches!(
            d.decode_message(
                Some(br#"{"s": {"x": [1, -0, "a\"\u0001", 2.50], "y": {}, "z": null}}"#),
                &mut sink
            ),
            Outcome::Done
        ));
        let columns = sink.finish();
        assert_eq!(
            columns[0].as_string::<i32>().value(0),
            r#"{"x":[1,0,"a\"\u0001",2.5],"y":{},"z":null}"#
        );
    }
}
