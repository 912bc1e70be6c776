//! Decoded rows written as Flink's binary rows (`BinaryRowData`), the form the JVM front end hands to Flink
//! without building a Java object per field: the bytes that Flink's `RowDataSerializer.toBinaryRow` makes of
//! the `GenericRowData` its `json` deserializer returns, written as `BinaryRowWriter`, `BinaryArrayWriter`
//! and `MapDataSerializer.toBinaryMap` (Flink 2.2) write them.
//!
//! All numbers are little-endian (the JVM front end runs on little-endian machines only). Every byte that no
//! value is written to is zero, as in a writer's fresh segment.
//!
//! **Row** of `n` fields: the header byte (the row kind, 0 for `+I`) and the null bits (field `f` is bit
//! `f + 8`), `null_bits_bytes(n)` bytes in all; one 8-byte slot per field; then the variable-length part, each
//! value starting on an 8-byte boundary of the row and padded with zeros to the next one. A null field is its
//! bit and a zero slot. A slot holds BOOLEAN (1 byte), TINYINT (1), SMALLINT (2), INT, DATE (days), TIME
//! (milliseconds of the day) and FLOAT (4), BIGINT and DOUBLE (8) in its low bytes; a compact DECIMAL
//! (precision ≤ 18: the unscaled `long`); a compact TIMESTAMP / TIMESTAMP_LTZ (Arrow unit second or
//! millisecond, Flink precision ≤ 3: epoch milliseconds). Otherwise it holds `offset << 32 | size`, the offset
//! counted from the row's first byte:
//! - CHAR/VARCHAR (UTF-8) and BINARY/VARBINARY: a value of at most 7 bytes sits in the slot itself (its bytes
//!   first, its length with the top bit set in the slot's last byte), a longer one in the variable part;
//! - DECIMAL with precision > 18: 16 bytes of the variable part, the first `size` of them the unscaled value's
//!   big-endian two's complement (`BigInteger.toByteArray()`), the rest zero;
//! - TIMESTAMP with precision > 3: 8 bytes of the variable part holding the epoch milliseconds, and the slot's
//!   low word holds the nanosecond of the millisecond instead of a size;
//! - ARRAY, MAP / MULTISET and ROW: the nested binary array, map or row.
//!
//! **Array** of `n` elements: `n` as a 4-byte int, the null bits (element `i` is bit `i` of the bytes after the
//! count), `4 + (n + 31) / 32 * 4` bytes in all; the elements, each as wide as its type's fixed part (BOOLEAN
//! and TINYINT 1, SMALLINT 2, INT, DATE, TIME and FLOAT 4, every other type 8, holding what a row's slot
//! holds, offsets counted from the array's first byte), the whole rounded up to 8 bytes; then the variable
//! part. A null element is its bit and zeros. NaN floats are written as Java's canonical NaN, as
//! `BinaryArrayWriter` does.
//!
//! **Map** (and MULTISET, a map to INT counts): the size in bytes of the key array as a 4-byte int, the key
//! array, then the value array; in a row or array it is padded to 8 bytes like any variable-length value.
//! Entries are in the order Flink's `HashMap` iterates them (hash order, `java_hash`), so the bytes are Flink's
//! (a message whose map Java would turn into a tree bucket is left to Flink).

use super::column::{Column, RowShape, Value};
use super::row::RowSink;
use crate::binary_format::{
    null_bits_bytes, HEADER_BITS, INLINE_MARK, MAX_COMPACT_PRECISION, MAX_INLINE,
};
use arrow_schema::TimeUnit;

/// The binary rows of one decoded chunk: one buffer of rows with their offsets, how many rows each message
/// gave, and which rows stand for a null row. Filled by [`JsonDecoder::decode_binary`](super::JsonDecoder::decode_binary),
/// reused from chunk to chunk.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BinaryRows {
    data: Vec<u8>,
    offsets: Vec<i32>,
    rows_per_message: Vec<u32>,
    null_rows: Vec<u32>,
}

impl BinaryRows {
    /// An empty set of rows.
    pub fn new() -> Self {
        BinaryRows {
            offsets: vec![0],
            ..BinaryRows::default()
        }
    }

    /// The rows, back to back; row `i` spans `offsets()[i]..offsets()[i + 1]`. Each row's size is a multiple
    /// of 8 bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// `rows() + 1` offsets into [`data`](Self::data), from 0 to its length.
    pub fn offsets(&self) -> &[i32] {
        &self.offsets
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Row `i`'s bytes.
    ///
    /// # Panics
    /// If `i >= rows()`.
    pub fn row(&self, i: usize) -> &[u8] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Rows per message, one entry per message decoded (0 for a null, empty or skipped message).
    pub fn rows_per_message(&self) -> &[u32] {
        &self.rows_per_message
    }

    /// The rows (ascending) that stand for a null `RowData`: under `ignore-parse-errors`, Flink's deserializer
    /// collects null for a message that fails inside its object. Each is written as a row whose fields are all
    /// null.
    pub fn null_rows(&self) -> &[u32] {
        &self.null_rows
    }

    pub(super) fn clear(&mut self) {
        self.data.clear();
        self.offsets.clear();
        self.offsets.push(0);
        self.rows_per_message.clear();
        self.null_rows.clear();
    }

    /// Where the rows end now, to [`roll_back`](Self::roll_back) to.
    pub(super) fn mark(&self) -> usize {
        self.rows()
    }

    /// Drops the rows after the first `rows`.
    pub(super) fn roll_back(&mut self, rows: usize) {
        self.offsets.truncate(rows + 1);
        self.data.truncate(self.offsets[rows] as usize);
        while self.null_rows.last().is_some_and(|&r| r as usize >= rows) {
            self.null_rows.pop();
        }
    }

    pub(super) fn push_message(&mut self, rows: u32) {
        self.rows_per_message.push(rows);
    }

    /// Appends a row of `shape` holding `fields` (strings and bytes in `scratch`), or a null row.
    pub(super) fn push_row(&mut self, shape: &RowShape, fields: Option<&[Value]>, scratch: &[u8]) {
        match fields {
            Some(fields) => write_row(&mut self.data, &shape.columns, fields, scratch),
            None => {
                self.null_rows.push(self.rows() as u32);
                write_null_row(&mut self.data, shape.columns.len());
            }
        }
        // Rows past 2^31 - 1 bytes are refused by the caller before their offsets are read.
        self.offsets
            .push(self.data.len().min(i32::MAX as usize) as i32);
    }

    /// The bytes written so far.
    pub(super) fn len_bytes(&self) -> usize {
        self.data.len()
    }
}

impl RowSink for BinaryRows {
    fn push(&mut self, shape: &RowShape, fields: Option<&[Value]>, scratch: &[u8]) {
        self.push_row(shape, fields, scratch);
    }

    fn len(&self) -> usize {
        self.rows()
    }
}

/// Appends a row of `columns` holding `fields`.
fn write_row(out: &mut Vec<u8>, columns: &[Column], fields: &[Value], scratch: &[u8]) {
    let start = out.len();
    let null_bits = null_bits_bytes(columns.len());
    out.resize(start + null_bits + 8 * columns.len(), 0);
    for (f, (column, value)) in columns.iter().zip(fields).enumerate() {
        let slot = start + null_bits + 8 * f;
        if matches!(value, Value::Null) {
            set_bit(out, start, f + HEADER_BITS);
        } else {
            write_value(out, start, slot, column, value, scratch, false);
        }
    }
}

/// Appends a row of `arity` null fields.
fn write_null_row(out: &mut Vec<u8>, arity: usize) {
    let start = out.len();
    out.resize(start + null_bits_bytes(arity) + 8 * arity, 0);
    for f in 0..arity {
        set_bit(out, start, f + HEADER_BITS);
    }
}

/// Appends an array of `element`s holding `items`.
fn write_array<'v>(
    out: &mut Vec<u8>,
    element: &Column,
    items: impl ExactSizeIterator<Item = &'v Value>,
    scratch: &[u8],
) {
    let start = out.len();
    let n = items.len();
    let header = 4 + n.div_ceil(32) * 4;
    let width = element_width(element);
    out.resize(start + round_to_word(header + width * n), 0);
    out[start..start + 4].copy_from_slice(&(n as i32).to_le_bytes());
    for (i, item) in items.enumerate() {
        if matches!(item, Value::Null) {
            set_bit(out, start + 4, i);
        } else {
            write_value(
                out,
                start,
                start + header + width * i,
                element,
                item,
                scratch,
                true,
            );
        }
    }
}

/// The bytes of an element of `column` in an array's fixed part (`BinaryArrayData.calculateFixLengthPartSize`).
fn element_width(column: &Column) -> usize {
    match column {
        Column::Boolean | Column::Int8 => 1,
        Column::Int16 => 2,
        Column::Int32 | Column::Float32 | Column::Date32 | Column::Time(_) => 4,
        _ => 8,
    }
}

/// Writes the non-null `value` of `column` at `slot` (a row's slot or an array's element) of the row or array
/// starting at `base`, its variable-length part, if any, appended to `out`. `in_array`: NaN floats are made
/// canonical, as `BinaryArrayWriter` does and `BinaryRowWriter` does not.
fn write_value(
    out: &mut Vec<u8>,
    base: usize,
    slot: usize,
    column: &Column,
    value: &Value,
    scratch: &[u8],
    in_array: bool,
) {
    match (column, value) {
        (Column::Boolean, Value::Bool(v)) => out[slot] = u8::from(*v),
        (Column::Int8, Value::Int(v)) => out[slot] = *v as i8 as u8,
        (Column::Int16, Value::Int(v)) => put(out, slot, &(*v as i16).to_le_bytes()),
        (Column::Int32 | Column::Date32, Value::Int(v)) => {
            put(out, slot, &(*v as i32).to_le_bytes())
        }
        (Column::Time(unit), Value::Int(v)) => {
            let millis = match unit {
                TimeUnit::Second => v * 1000,
                TimeUnit::Millisecond => *v,
                TimeUnit::Microsecond => v / 1000,
                TimeUnit::Nanosecond => v / 1_000_000,
            };
            put(out, slot, &(millis as i32).to_le_bytes());
        }
        (Column::Int64, Value::Int(v)) => put(out, slot, &v.to_le_bytes()),
        (Column::Float32, Value::F32(v)) => {
            let v = if in_array && v.is_nan() { f32::NAN } else { *v };
            put(out, slot, &v.to_bits().to_le_bytes());
        }
        (Column::Float64, Value::F64(v)) => {
            let v = if in_array && v.is_nan() { f64::NAN } else { *v };
            put(out, slot, &v.to_bits().to_le_bytes());
        }
        (Column::Decimal { precision, .. }, Value::Decimal(unscaled)) => {
            if *precision <= MAX_COMPACT_PRECISION {
                put(out, slot, &(*unscaled as i64).to_le_bytes());
            } else {
                let bytes = big_integer_bytes(*unscaled);
                let at = out.len();
                out.resize(at + 16, 0);
                out[at..at + bytes.len()].copy_from_slice(bytes.as_slice());
                put_word(out, slot, offset_and_size(at - base, bytes.len() as u64));
            }
        }
        (
            Column::Utf8 | Column::LargeUtf8 | Column::Binary | Column::LargeBinary,
            Value::Bytes(s, e),
        ) => {
            let bytes = &scratch[*s..*e];
            if bytes.len() <= MAX_INLINE {
                out[slot..slot + bytes.len()].copy_from_slice(bytes);
                out[slot + 7] = bytes.len() as u8 | (INLINE_MARK >> 56) as u8;
            } else {
                let at = out.len();
                out.extend_from_slice(bytes);
                pad_to_word(out, base);
                put_word(out, slot, offset_and_size(at - base, bytes.len() as u64));
            }
        }
        (Column::Timestamp { unit, .. }, Value::Int(v)) => match unit {
            TimeUnit::Second => put(out, slot, &(v * 1000).to_le_bytes()),
            TimeUnit::Millisecond => put(out, slot, &v.to_le_bytes()),
            TimeUnit::Microsecond | TimeUnit::Nanosecond => {
                let per_milli = if *unit == TimeUnit::Microsecond {
                    1000
                } else {
                    1_000_000
                };
                let nanos_per_unit = 1_000_000 / per_milli;
                let millis = v.div_euclid(per_milli);
                let nano_of_milli = v.rem_euclid(per_milli) * nanos_per_unit;
                let at = out.len();
                out.extend_from_slice(&millis.to_le_bytes());
                put_word(out, slot, offset_and_size(at - base, nano_of_milli as u64));
            }
        },
        (Column::List(element), Value::List(items)) => {
            let at = out.len();
            write_array(out, element, items.iter(), scratch);
            let size = out.len() - at;
            put_word(out, slot, offset_and_size(at - base, size as u64));
        }
        (Column::Map { key, value }, Value::Map(entries)) => {
            let at = out.len();
            out.extend_from_slice(&[0; 4]);
            write_array(out, key, entries.iter().map(|(k, _)| k), scratch);
            let key_bytes = out.len() - at - 4;
            out[at..at + 4].copy_from_slice(&(key_bytes as i32).to_le_bytes());
            write_array(out, value, entries.iter().map(|(_, v)| v), scratch);
            let size = out.len() - at;
            pad_to_word(out, base);
            put_word(out, slot, offset_and_size(at - base, size as u64));
        }
        (Column::Row(shape), Value::Row(fields)) => {
            let at = out.len();
            write_row(out, &shape.columns, fields, scratch);
            let size = out.len() - at;
            put_word(out, slot, offset_and_size(at - base, size as u64));
        }
        (column, value) => unreachable!("a {value:?} is never made for a {column:?} column"),
    }
}

/// `BigInteger.valueOf(unscaled).toByteArray()`: the shortest big-endian two's complement.
fn big_integer_bytes(unscaled: i128) -> Vec<u8> {
    let bytes = unscaled.to_be_bytes();
    let sign = if unscaled < 0 { 0xFF } else { 0x00 };
    let mut first = 0;
    // Drop a leading sign byte while the next byte's top bit still carries the sign.
    while first < 15 && bytes[first] == sign && (bytes[first + 1] & 0x80 == sign & 0x80) {
        first += 1;
    }
    bytes[first..].to_vec()
}

fn offset_and_size(offset: usize, size: u64) -> u64 {
    (offset as u64) << 32 | size
}

fn put(out: &mut [u8], at: usize, bytes: &[u8]) {
    out[at..at + bytes.len()].copy_from_slice(bytes);
}

fn put_word(out: &mut [u8], at: usize, word: u64) {
    put(out, at, &word.to_le_bytes());
}

/// Sets bit `bit` of the bit set at `at` (bit `i` is bit `i % 8` of byte `i / 8`).
fn set_bit(out: &mut [u8], at: usize, bit: usize) {
    out[at + bit / 8] |= 1 << (bit % 8);
}

/// Zeros up to the next multiple of 8 bytes from `base`.
fn pad_to_word(out: &mut Vec<u8>, base: usize) {
    let len = out.len() - base;
    out.resize(base + round_to_word(len), 0);
}

fn round_to_word(n: usize) -> usize {
    n.next_multiple_of(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integer_bytes_are_javas_shortest_twos_complement() {
        // BigInteger.valueOf(v).toByteArray() for each v.
        let cases: [(i128, &[u8]); 9] = [
            (0, &[0x00]),
            (1, &[0x01]),
            (-1, &[0xFF]),
            (127, &[0x7F]),
            (128, &[0x00, 0x80]),
            (-128, &[0x80]),
            (-129, &[0xFF, 0x7F]),
            (255, &[0x00, 0xFF]),
            (i128::from(i64::MAX) + 1, &[0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ];
        for (v, expected) in cases {
            assert_eq!(big_integer_bytes(v), expected, "{v}");
        }
        assert_eq!(big_integer_bytes(i128::MIN).len(), 16);
        assert_eq!(big_integer_bytes(i128::MAX)[0], 0x7F);
    }

    #[test]
    fn element_widths_follow_calculate_fix_length_part_size() {
        assert_eq!(element_width(&Column::Boolean), 1);
        assert_eq!(element_width(&Column::Int16), 2);
        assert_eq!(element_width(&Column::Time(TimeUnit::Millisecond)), 4);
        assert_eq!(element_width(&Column::Utf8), 8);
        assert_eq!(
            element_width(&Column::Timestamp {
                unit: TimeUnit::Millisecond,
                ltz: false
            }),
            8
        );
    }
}
