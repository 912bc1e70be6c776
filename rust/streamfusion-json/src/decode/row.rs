//! Flink's row walk (`JsonParserToRowDataConverters.createRowConverter`, `skipToNextField`, the nullable
//! wrapper) and its scalar converters, over [`Lexer`], into Arrow builders.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Decimal128Builder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, Int8Builder, LargeBinaryBuilder, LargeStringBuilder, StringBuilder,
};
use arrow_array::{make_array, Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit};

use super::java::{
    jackson_integer, java_trim, parse_big_decimal, parse_java_double, parse_java_float,
    parse_java_integer, Conv,
};
use super::lexer::{Lexer, SyntaxError, Text, Token};
use super::temporal::{parse_date, parse_time_millis, parse_timestamp, Layout};
use super::DecoderOptions;
use crate::options::TimestampStandard;

/// A column's Flink type, as read from its Arrow type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Column {
    Boolean,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Decimal {
        precision: u8,
        scale: i8,
    },
    Utf8,
    LargeUtf8,
    Binary,
    LargeBinary,
    /// DATE into Date32 (days).
    Date32,
    /// TIME into Time32 (seconds, milliseconds) or Time64 (microseconds, nanoseconds).
    Time(TimeUnit),
    /// TIMESTAMP (`ltz` false: no time zone) or TIMESTAMP_LTZ (a time zone) into Timestamp.
    Timestamp {
        unit: TimeUnit,
        ltz: bool,
    },
}

impl Column {
    /// The column for an Arrow type; `None` for a type the decoder does not read.
    pub(crate) fn for_type(data_type: &DataType) -> Option<Column> {
        Some(match data_type {
            DataType::Boolean => Column::Boolean,
            DataType::Int8 => Column::Int8,
            DataType::Int16 => Column::Int16,
            DataType::Int32 => Column::Int32,
            DataType::Int64 => Column::Int64,
            DataType::Float32 => Column::Float32,
            DataType::Float64 => Column::Float64,
            DataType::Decimal128(precision, scale)
                if *scale >= 0 && scale.unsigned_abs() <= *precision =>
            {
                Column::Decimal {
                    precision: *precision,
                    scale: *scale,
                }
            }
            DataType::Utf8 => Column::Utf8,
            DataType::LargeUtf8 => Column::LargeUtf8,
            DataType::Binary => Column::Binary,
            DataType::LargeBinary => Column::LargeBinary,
            DataType::Date32 => Column::Date32,
            DataType::Time32(unit @ (TimeUnit::Second | TimeUnit::Millisecond))
            | DataType::Time64(unit @ (TimeUnit::Microsecond | TimeUnit::Nanosecond)) => {
                Column::Time(*unit)
            }
            DataType::Timestamp(unit, tz) => Column::Timestamp {
                unit: *unit,
                ltz: tz.is_some(),
            },
            _ => return None,
        })
    }
}

/// One field's value in the row being read (Flink's `GenericRowData` slot).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    F32(f32),
    F64(f64),
    Decimal(i128),
    /// A range of [`RowDecoder::scratch`].
    Bytes(usize, usize),
}

/// What became of one message.
pub(crate) enum Outcome {
    /// Its rows (none, or one) are appended; under `ignore-parse-errors` a failure gives none.
    Done,
    /// Flink throws for it: the reason.
    Failed(String),
    /// Flink's result is not reproduced: why.
    NotExact(String),
}

/// Why the walk stopped.
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

/// Decodes messages into rows of one set of columns, appended to its builders.
#[derive(Debug)]
pub(crate) struct RowDecoder {
    columns: Vec<Column>,
    index: HashMap<String, usize>,
    options: DecoderOptions,
    builders: Vec<Builder>,
    row: Vec<Cell>,
    scratch: Vec<u8>,
    len: usize,
    null_rows: Vec<usize>,
    /// Jackson reads floating-point numbers as `BigDecimal` (the row has a DECIMAL column).
    decimal_floats: bool,
}

#[derive(Debug)]
enum Builder {
    Boolean(BooleanBuilder),
    Int8(Int8Builder),
    Int16(Int16Builder),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Float32(Float32Builder),
    Float64(Float64Builder),
    Decimal(Decimal128Builder, u8, i8),
    Utf8(StringBuilder),
    LargeUtf8(LargeStringBuilder),
    Binary(BinaryBuilder),
    LargeBinary(LargeBinaryBuilder),
    /// Date32 and Time32 values (i32), given their type when finished.
    Int32As(Int32Builder, DataType),
    /// Time64 and Timestamp values (i64), given their type when finished.
    Int64As(Int64Builder, DataType),
}

impl Builder {
    fn new(column: Column, data_type: &DataType) -> Builder {
        match column {
            Column::Boolean => Builder::Boolean(BooleanBuilder::new()),
            Column::Int8 => Builder::Int8(Int8Builder::new()),
            Column::Int16 => Builder::Int16(Int16Builder::new()),
            Column::Int32 => Builder::Int32(Int32Builder::new()),
            Column::Int64 => Builder::Int64(Int64Builder::new()),
            Column::Float32 => Builder::Float32(Float32Builder::new()),
            Column::Float64 => Builder::Float64(Float64Builder::new()),
            Column::Decimal { precision, scale } => {
                Builder::Decimal(Decimal128Builder::new(), precision, scale)
            }
            Column::Utf8 => Builder::Utf8(StringBuilder::new()),
            Column::LargeUtf8 => Builder::LargeUtf8(LargeStringBuilder::new()),
            Column::Binary => Builder::Binary(BinaryBuilder::new()),
            Column::LargeBinary => Builder::LargeBinary(LargeBinaryBuilder::new()),
            Column::Date32 | Column::Time(TimeUnit::Second | TimeUnit::Millisecond) => {
                Builder::Int32As(Int32Builder::new(), data_type.clone())
            }
            Column::Time(_) | Column::Timestamp { .. } => {
                Builder::Int64As(Int64Builder::new(), data_type.clone())
            }
        }
    }

    fn append(&mut self, cell: Cell, scratch: &[u8]) {
        let text = |s: usize, e: usize| {
            std::str::from_utf8(&scratch[s..e]).expect("Flink's UTF-8 is valid UTF-8")
        };
        match (self, cell) {
            (Builder::Boolean(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::Int8(b), Cell::Int(v)) => b.append_value(v as i8),
            (Builder::Int16(b), Cell::Int(v)) => b.append_value(v as i16),
            (Builder::Int32(b) | Builder::Int32As(b, _), Cell::Int(v)) => b.append_value(v as i32),
            (Builder::Int64(b) | Builder::Int64As(b, _), Cell::Int(v)) => b.append_value(v),
            (Builder::Float32(b), Cell::F32(v)) => b.append_value(v),
            (Builder::Float64(b), Cell::F64(v)) => b.append_value(v),
            (Builder::Decimal(b, ..), Cell::Decimal(v)) => b.append_value(v),
            (Builder::Utf8(b), Cell::Bytes(s, e)) => b.append_value(text(s, e)),
            (Builder::LargeUtf8(b), Cell::Bytes(s, e)) => b.append_value(text(s, e)),
            (Builder::Binary(b), Cell::Bytes(s, e)) => b.append_value(&scratch[s..e]),
            (Builder::LargeBinary(b), Cell::Bytes(s, e)) => b.append_value(&scratch[s..e]),
            (b, Cell::Null) => b.append_null(),
            (_, cell) => unreachable!("a {cell:?} is never made for this column"),
        }
    }

    fn append_null(&mut self) {
        match self {
            Builder::Boolean(b) => b.append_null(),
            Builder::Int8(b) => b.append_null(),
            Builder::Int16(b) => b.append_null(),
            Builder::Int32(b) | Builder::Int32As(b, _) => b.append_null(),
            Builder::Int64(b) | Builder::Int64As(b, _) => b.append_null(),
            Builder::Float32(b) => b.append_null(),
            Builder::Float64(b) => b.append_null(),
            Builder::Decimal(b, ..) => b.append_null(),
            Builder::Utf8(b) => b.append_null(),
            Builder::LargeUtf8(b) => b.append_null(),
            Builder::Binary(b) => b.append_null(),
            Builder::LargeBinary(b) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Boolean(b) => Arc::new(b.finish()),
            Builder::Int8(b) => Arc::new(b.finish()),
            Builder::Int16(b) => Arc::new(b.finish()),
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Float32(b) => Arc::new(b.finish()),
            Builder::Float64(b) => Arc::new(b.finish()),
            Builder::Decimal(b, precision, scale) => Arc::new(
                b.finish()
                    .with_precision_and_scale(*precision, *scale)
                    .expect("checked by Column::for_type"),
            ),
            Builder::Utf8(b) => Arc::new(b.finish()),
            Builder::LargeUtf8(b) => Arc::new(b.finish()),
            Builder::Binary(b) => Arc::new(b.finish()),
            Builder::LargeBinary(b) => Arc::new(b.finish()),
            Builder::Int32As(b, data_type) => retyped(&b.finish(), data_type),
            Builder::Int64As(b, data_type) => retyped(&b.finish(), data_type),
        }
    }
}

/// The same values (i32 or i64) as another type of that width (Date32, Time32, Time64, Timestamp).
fn retyped(array: &dyn Array, data_type: &DataType) -> ArrayRef {
    let data = array
        .to_data()
        .into_builder()
        .data_type(data_type.clone())
        .build()
        .expect("the same layout");
    make_array(data)
}

impl RowDecoder {
    /// `fields`: each column's name, Flink type and Arrow type.
    pub(crate) fn new(fields: Vec<(String, Column, DataType)>, options: DecoderOptions) -> Self {
        let columns: Vec<Column> = fields.iter().map(|(_, c, _)| *c).collect();
        let builders = fields.iter().map(|(_, c, t)| Builder::new(*c, t)).collect();
        let columns_have_decimal = columns.iter().any(|c| matches!(c, Column::Decimal { .. }));
        let index = fields
            .into_iter()
            .enumerate()
            .map(|(i, (name, _, _))| (name, i))
            .collect();
        RowDecoder {
            builders,
            row: vec![Cell::Null; columns.len()],
            columns,
            index,
            options,
            scratch: Vec::new(),
            len: 0,
            null_rows: Vec::new(),
            decimal_floats: columns_have_decimal,
        }
    }

    /// Rows appended since the last [`finish`](Self::finish) or [`clear`](Self::clear).
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Drops the rows appended so far.
    pub(crate) fn clear(&mut self) {
        if self.len > 0 {
            let _ = self.finish();
        }
    }

    /// The appended rows as columns; starts afresh.
    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        self.len = 0;
        self.null_rows.clear();
        self.builders.iter_mut().map(Builder::finish).collect()
    }

    /// Flink 2.2's `deserialize(message, collector)`: no row for a null or empty message; the root must be an
    /// object (one row) or an array (one row per element), each converted by the row walk. Under
    /// `ignore-parse-errors` a message that fails outside the row converter keeps the rows collected so far, and
    /// a row that fails inside it is a null row (the converter's nullable wrapper returns null, which Flink
    /// collects).
    pub(crate) fn decode_message(&mut self, message: Option<&[u8]>) -> Outcome {
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
        let ignore = self.options.ignore_parse_errors();
        let mut lx = Lexer::new(message);
        let result = match lx.next_token() {
            Ok(Some(Token::StartObject)) => self.convert_element(&mut lx),
            Ok(Some(Token::StartArray)) => self.read_root_array(&mut lx),
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
    fn read_root_array(&mut self, lx: &mut Lexer<'_>) -> Result<(), Stop> {
        loop {
            match lx.next_token()? {
                Some(Token::EndArray) => return Ok(()),
                None => {
                    return Err(Stop::Fails(
                        "unexpected end-of-input in an array".to_owned(),
                    ))
                }
                Some(_) => self.convert_element(lx)?,
            }
        }
    }

    /// The nullable wrapper around the row converter, at the current token, and the row collected: a JSON null
    /// gives a null row, a failure a null row under `ignore-parse-errors`.
    fn convert_element(&mut self, lx: &mut Lexer<'_>) -> Result<(), Stop> {
        self.row.fill(Cell::Null);
        self.scratch.clear();
        let read = match lx.current() {
            Some(Token::Null) => {
                self.append_row(true);
                return Ok(());
            }
            Some(Token::StartObject) => self.read_row(lx),
            _ => Err(Stop::Fails("Illegal JSON object data...".to_owned())),
        };
        match read {
            Ok(()) => self.append_row(false),
            Err(Stop::Fails(_)) if self.options.ignore_parse_errors() => {
                self.row.fill(Cell::Null);
                self.append_row(true);
            }
            Err(stop) => return Err(stop),
        }
        Ok(())
    }

    fn append_row(&mut self, null: bool) {
        for (builder, cell) in self.builders.iter_mut().zip(&self.row) {
            builder.append(*cell, &self.scratch);
        }
        if null {
            self.null_rows.push(self.len);
        }
        self.len += 1;
    }

    /// The rows appended since the last [`finish`](Self::finish) that are Flink null rows (all fields null).
    pub(crate) fn null_rows(&self) -> &[usize] {
        &self.null_rows
    }

    /// `createRowConverter`'s walk, from the object's `START_OBJECT`.
    fn read_row(&mut self, lx: &mut Lexer<'_>) -> Result<(), Stop> {
        let arity = self.columns.len();
        let mut matched = 0usize;
        lx.next_token()?;
        while lx.current() != Some(Token::EndObject) {
            if matched >= arity {
                skip_to_next_field(lx)?;
                continue;
            }
            let field = match lx.current() {
                Some(Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat) => {
                    lx.text()?
                        .as_str()
                        .and_then(|name| self.index.get(name.as_ref()).copied())
                }
                Some(token) => self.index.get(structural_text(token)).copied(),
                None => {
                    return Err(Stop::Fails(
                        "unexpected end-of-input in an object".to_owned(),
                    ))
                }
            };
            lx.next_token()?;
            match field {
                Some(idx) => {
                    let cell = self.convert_nullable(idx, lx)?;
                    self.row[idx] = cell;
                    lx.next_token()?;
                    matched += 1;
                }
                None => skip_to_next_field(lx)?,
            }
        }
        if matched < arity && self.options.fail_on_missing_field() {
            return Err(Stop::Fails(
                "Some field is missing in the JSON data.".to_owned(),
            ));
        }
        Ok(())
    }

    /// The nullable wrapper around a field's converter: null for a missing token or JSON null; a failure is
    /// null under `ignore-parse-errors`, else the message fails ("Fail to deserialize at field: ...").
    fn convert_nullable(&mut self, idx: usize, lx: &mut Lexer<'_>) -> Result<Cell, Stop> {
        let token = match lx.current() {
            None | Some(Token::Null) => return Ok(Cell::Null),
            Some(token) => token,
        };
        let mark = self.scratch.len();
        match self.convert(self.columns[idx], token, lx) {
            Ok(cell) => Ok(cell),
            Err(Failure::Conv(Conv::Fails)) if self.options.ignore_parse_errors() => {
                self.scratch.truncate(mark);
                Ok(Cell::Null)
            }
            Err(Failure::Conv(Conv::Fails)) => Err(Stop::Fails("Fail to deserialize at field".to_owned())),
            Err(Failure::Syntax(e)) if self.options.ignore_parse_errors() => Err(Stop::NotExact(format!(
                "malformed JSON inside a value that Flink converts as a whole ({} at byte {}), under \
                 ignore-parse-errors",
                e.reason, e.at
            ))),
            Err(Failure::Syntax(e)) => Err(e.into()),
            Err(Failure::Conv(Conv::NotExact)) | Err(Failure::NotExact) => Err(Stop::NotExact(format!(
                "a value of column {} that only Flink converts exactly",
                idx
            ))),
        }
    }

    fn convert(
        &mut self,
        column: Column,
        token: Token,
        lx: &mut Lexer<'_>,
    ) -> Result<Cell, Failure> {
        let number = matches!(token, Token::NumberInt | Token::NumberFloat);
        let float = token == Token::NumberFloat;
        Ok(match column {
            Column::Boolean => Cell::Bool(match token {
                Token::True => true,
                Token::False => false,
                _ => java_trim(&token_text(lx, token)?).eq_ignore_ascii_case(b"true"),
            }),
            Column::Int8 => Cell::Int(if token == Token::NumberInt {
                // Jackson's getIntValue, then Flink's own range check.
                let v =
                    jackson_integer(lx.raw()?, false, i64::from(i32::MIN), i64::from(i32::MAX))?;
                if !(i64::from(i8::MIN)..=i64::from(i8::MAX)).contains(&v) {
                    return Err(Conv::Fails.into());
                }
                v
            } else {
                parse_java_integer(
                    java_trim(&token_text(lx, token)?),
                    i64::from(i8::MIN),
                    i64::from(i8::MAX),
                )?
            }),
            Column::Int16 => Cell::Int(if token == Token::NumberInt {
                let v =
                    jackson_integer(lx.raw()?, false, i64::from(i32::MIN), i64::from(i32::MAX))?;
                if !(i64::from(i16::MIN)..=i64::from(i16::MAX)).contains(&v) {
                    return Err(Conv::Fails.into());
                }
                v
            } else {
                parse_java_integer(
                    java_trim(&token_text(lx, token)?),
                    i64::from(i16::MIN),
                    i64::from(i16::MAX),
                )?
            }),
            Column::Int32 => Cell::Int(if number {
                jackson_integer(lx.raw()?, float, i64::from(i32::MIN), i64::from(i32::MAX))?
            } else {
                parse_java_integer(
                    java_trim(&token_text(lx, token)?),
                    i64::from(i32::MIN),
                    i64::from(i32::MAX),
                )?
            }),
            Column::Int64 => Cell::Int(if number {
                jackson_integer(lx.raw()?, float, i64::MIN, i64::MAX)?
            } else {
                parse_java_integer(java_trim(&token_text(lx, token)?), i64::MIN, i64::MAX)?
            }),
            // Jackson's getFloatValue/getDoubleValue parse the number's text as Float/Double.parseFloat do.
            Column::Float32 => Cell::F32(parse_java_float(&token_text(lx, token)?)?),
            Column::Float64 => Cell::F64(parse_java_double(&token_text(lx, token)?)?),
            Column::Decimal { precision, scale } => {
                let decimal = match token {
                    Token::String => parse_big_decimal(java_trim(&token_text(lx, token)?))?,
                    Token::NumberInt | Token::NumberFloat => parse_big_decimal(lx.raw()?)?,
                    // Jackson: "Current token (...) not numeric, can not use numeric value accessors".
                    _ => return Err(Conv::Fails.into()),
                };
                match decimal.to_flink(precision, scale) {
                    Some(unscaled) => Cell::Decimal(unscaled),
                    None => Cell::Null,
                }
            }
            Column::Utf8 | Column::LargeUtf8 => {
                let start = self.scratch.len();
                if token.is_start() {
                    echo_tree(lx, self.decimal_floats, &mut self.scratch)?;
                } else {
                    match token {
                        Token::String | Token::NumberInt | Token::NumberFloat => {
                            lx.text()?.write_flink_utf8(&mut self.scratch)
                        }
                        other => self
                            .scratch
                            .extend_from_slice(structural_text(other).as_bytes()),
                    }
                }
                Cell::Bytes(start, self.scratch.len())
            }
            Column::Date32 => {
                // Flink casts the epoch day to int.
                Cell::Int(i64::from(parse_date(&token_text(lx, token)?)? as i32))
            }
            Column::Time(unit) => {
                let millis = parse_time_millis(&token_text(lx, token)?)?;
                Cell::Int(match unit {
                    TimeUnit::Second => millis / 1000,
                    TimeUnit::Millisecond => millis,
                    TimeUnit::Microsecond => millis * 1000,
                    TimeUnit::Nanosecond => millis * 1_000_000,
                })
            }
            Column::Timestamp { unit, ltz } => {
                let layout = match (self.options.timestamp_standard(), ltz) {
                    (TimestampStandard::Sql, false) => Layout::SqlTimestamp,
                    (TimestampStandard::Sql, true) => Layout::SqlTimestampZ,
                    (TimestampStandard::Iso8601, false) => Layout::IsoTimestamp,
                    (TimestampStandard::Iso8601, true) => Layout::IsoTimestampZ,
                };
                let (millis, nanos) =
                    parse_timestamp(&token_text(lx, token)?, layout)?.flink_millis();
                Cell::Int(in_unit(millis, nanos, unit).ok_or(Failure::NotExact)?)
            }
            Column::Binary | Column::LargeBinary => {
                if token != Token::String {
                    // Jackson: "Current token (...) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access
                    // as binary".
                    return Err(Conv::Fails.into());
                }
                let raw = lx.raw()?;
                let start = self.scratch.len();
                jackson_base64(raw, &mut self.scratch)?;
                Cell::Bytes(start, self.scratch.len())
            }
        })
    }
}

/// Flink's timestamp (milliseconds, nanoseconds of the millisecond) in `unit`; `None` when the unit cannot hold
/// it exactly (a finer part than the unit, or beyond its 64-bit range).
fn in_unit(millis: i64, nanos: i64, unit: TimeUnit) -> Option<i64> {
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

/// Why a converter gave no value.
enum Failure {
    Conv(Conv),
    Syntax(SyntaxError),
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

/// Jackson's `getText()` of a structural or literal token.
fn structural_text(token: Token) -> &'static str {
    match token {
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

/// `getText()` of any token, as the bytes Java's string would encode to.
fn token_text(lx: &mut Lexer<'_>, token: Token) -> Result<Vec<u8>, SyntaxError> {
    Ok(match token {
        Token::FieldName | Token::String | Token::NumberInt | Token::NumberFloat => {
            let mut out = Vec::new();
            lx.text()?.write_flink_utf8(&mut out);
            out
        }
        other => structural_text(other).as_bytes().to_vec(),
    })
}

/// Flink's `skipToNextField`: past a container when at one, then one token on.
fn skip_to_next_field(lx: &mut Lexer<'_>) -> Result<(), Stop> {
    if lx.current().is_some_and(Token::is_start) {
        lx.skip_children()?;
    }
    lx.next_token()?;
    Ok(())
}

/// `jp.readValueAsTree().toString()` for a STRING column given an object or array: Jackson's compact JSON of
/// the tree, read from the container's first token to its last.
///
/// Reproduced: nesting, strings and names (Jackson's escapes: `\"`, `\\`, `\b \t \n \f \r`, `\u00XX` for the
/// other control characters, the rest as is), integers (the tree keeps their value: `-0` is `0`), floating-point
/// numbers ([`write_scalar`]), `true`, `false`, `null`. Left to Flink: an object with a repeated key (the tree
/// keeps the first position with the last value).
fn echo_tree(lx: &mut Lexer<'_>, decimal_floats: bool, out: &mut Vec<u8>) -> Result<(), Failure> {
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

/// The next token inside a container, which the lexer never ends without an error.
fn next_in_container(lx: &mut Lexer<'_>) -> Result<Token, Failure> {
    lx.next_token()?.ok_or(Failure::NotExact)
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
        other => out.extend_from_slice(structural_text(other).as_bytes()),
    }
    Ok(())
}

/// A string as Jackson's generator quotes it, then stored as Flink stores the resulting Java string.
fn write_jackson_string(text: &Text<'_>, out: &mut Vec<u8>) {
    let units: Vec<u16> = match text {
        Text::Utf8(s) => s.encode_utf16().collect(),
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
    super::lexer::write_java_utf16(&escaped, out);
}

/// Jackson's `getBinaryValue()` of a string token (`UTF8StreamJsonParser._decodeBase64` with the default
/// variant, `MIME_NO_LINEFEEDS`: the standard alphabet, padding required): quads of characters, any character
/// `<= U+0020` skipped before a quad, a quad ended early by `=` padding, JSON escapes decoded where the alphabet
/// does not match (an escaped space may stand before a quad). Anything else fails.
fn jackson_base64(raw: &[u8], out: &mut Vec<u8>) -> Result<(), Failure> {
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
        let c = next(&mut p).ok_or(Conv::Fails)?;
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
                let c = c.ok_or(Conv::Fails)?;
                bits = escape(&mut p, c, 2)?.ok_or(Conv::Fails)?;
            }
            if bits == PADDING {
                let c = next(&mut p).ok_or(Conv::Fails)?;
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
                let c = c.ok_or(Conv::Fails)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn decoder(columns: &[(&str, Column)], options: DecoderOptions) -> RowDecoder {
        RowDecoder::new(
            columns
                .iter()
                .map(|(n, c)| ((*n).to_owned(), *c, DataType::Null))
                .collect(),
            options,
        )
    }

    #[test]
    fn the_walk_counts_repeated_keys() {
        let mut d = decoder(
            &[("a", Column::Int32), ("b", Column::Int32)],
            DecoderOptions::default(),
        );
        assert!(matches!(
            d.decode_message(Some(br#"{"a":1,"a":2,"b":3}"#)),
            Outcome::Done
        ));
        assert_eq!(d.row, vec![Cell::Int(2), Cell::Null]);
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn echo_of_containers() {
        let mut d = decoder(&[("s", Column::Utf8)], DecoderOptions::default());
        assert!(matches!(
            d.decode_message(Some(
                br#"{"s": {"x": [1, -0, "a\"\u0001"], "y": {}, "z": null}}"#
            )),
            Outcome::Done
        ));
        let Cell::Bytes(s, e) = d.row[0] else {
            panic!()
        };
        assert_eq!(
            &d.scratch[s..e],
            br#"{"x":[1,0,"a\"\u0001"],"y":{},"z":null}"#
        );
    }
}
