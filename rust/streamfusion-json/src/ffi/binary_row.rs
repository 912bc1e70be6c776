//! Flink's binary rows (`BinaryRowData`), handed over as one buffer of rows and their offsets, decoded into
//! the Arrow columns the JVM front end would otherwise have filled (`RowDataArrowWriter`).
//!
//! The layout, as Flink's `BinaryRowData`, `BinaryRowWriter`/`AbstractBinaryWriter` (writing) and
//! `BinarySegmentUtils` (reading) define it, for a row of `arity` fields, all numbers little-endian (Flink's
//! `MemorySegment` uses the native order, and the JVM front end runs on little-endian machines only):
//!
//! | bytes | holds |
//! |---|---|
//! | `0` | the row kind (`RowKind.toByteValue()`: 0 `+I`, 1 `-U`, 2 `+U`, 3 `-D`) |
//! | `0 .. null_bits` | the null bit set, `null_bits = (arity + 63 + 8) / 64 * 8`: field `f` is null when bit `f + 8` is set (bit `i` is bit `i % 8` of byte `i / 8`; the first 8 bits are the header) |
//! | `null_bits + 8 f ..` 8 bytes | field `f`'s slot |
//! | after the slots | the variable-length part |
//!
//! A slot holds a fixed-length value in its low bytes (BOOLEAN 1 byte, non-zero is true; TINYINT 1,
//! SMALLINT 2, INT, DATE, TIME (ms of the day), FLOAT and INTERVAL YEAR TO MONTH (months) 4; BIGINT, DOUBLE,
//! INTERVAL DAY TO SECOND (ms) 8), a compact DECIMAL (precision ≤ 18: the unscaled `long`) or a compact
//! TIMESTAMP (precision ≤ 3: epoch milliseconds). Otherwise it points into the variable-length part, as
//! `offset << 32 | size` with `offset` relative to the row's first byte:
//! - CHAR/VARCHAR (UTF-8) and BINARY/VARBINARY: `size` bytes at `offset`; or, when the slot's highest bit is
//!   set, up to 7 bytes inline: the length in bits 56..63 (the slot's last byte, without its top bit), the
//!   bytes in the slot's first bytes;
//! - DECIMAL with precision > 18: the unscaled value's big-endian two's complement
//!   (`BigInteger.toByteArray()`, 1 to 16 bytes) at `offset`;
//! - TIMESTAMP / TIMESTAMP_LTZ with precision > 3: the epoch milliseconds (8 bytes) at `offset`, and the
//!   slot's low 32 bits hold the nanosecond of the millisecond (0 to 999,999) instead of a size.
//!
//! Each Arrow type says which reading applies (the front end maps Flink types to Arrow types one to one, as
//! `RowDataArrowWriter` does): Boolean, Int8..Int64, Float32/64, Date32, Time32(ms), Interval(YearMonth),
//! Duration(ms), Utf8, Binary, Decimal128 (compact iff its precision ≤ 18) and Timestamp (compact iff its
//! unit is milliseconds; microsecond and nanosecond columns are filled from the milliseconds and nanoseconds).
//!
//! Every read is checked against the buffer: the row offsets must increase within it, each row must hold its
//! header, null bits and slots, and every variable-length value must lie inside its own row. A layout that
//! disagrees with the schema is an [`Error::InvalidHandoff`] naming the field and row; a value a Flink type
//! cannot hold (a nanosecond of the millisecond outside 0..999,999) or that the column cannot hold exactly
//! (digits below a microsecond column's unit, a timestamp outside 64-bit nanoseconds) an
//! [`Error::InvalidValue`]. The JVM front end checks those values before it hands the rows over, so the
//! second is a safety net.

use std::sync::Arc;

use arrow_array::types::{
    Date32Type, Decimal128Type, DurationMillisecondType, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, IntervalYearMonthType, Time32MillisecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, PrimitiveArray, StringArray,
};
use arrow_buffer::{
    BooleanBufferBuilder, Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{DataType, Field, IntervalUnit, TimeUnit};

use crate::binary_format::{
    null_bits_bytes, HEADER_BITS, INLINE_MARK, MAX_COMPACT_PRECISION, MAX_INLINE,
};
use crate::error::{Error, Result};

/// Checks that there are `rows + 1` offsets for `rows` binary rows.
pub(super) fn check_offset_count(offsets: &[i32], rows: usize) -> Result<()> {
    if offsets.len() == rows + 1 {
        Ok(())
    } else {
        Err(Error::InvalidHandoff(format!(
            "{} row offsets for {rows} binary rows (expected {})",
            offsets.len(),
            rows + 1
        )))
    }
}

/// The rows of one batch (or of a run of its rows), checked to lie inside the buffer and to hold their fixed
/// part.
struct Rows<'a> {
    data: &'a [u8],
    /// Start and end of each row in `data`.
    spans: Vec<(usize, usize)>,
    null_bits: usize,
    /// The batch's index of the first of these rows (errors name rows by their index in the batch).
    first: usize,
}

/// One row of a batch: its bytes and index.
#[derive(Clone, Copy)]
struct Row<'a> {
    bytes: &'a [u8],
    index: usize,
}

impl<'a> Rows<'a> {
    /// Checks `offsets` (`rows + 1` of them, in bytes) against `data` and each row's fixed part; the first
    /// row is row `first` of the batch.
    fn new(
        data: &'a [u8],
        offsets: &[i32],
        rows: usize,
        arity: usize,
        first: usize,
    ) -> Result<Self> {
        check_offset_count(offsets, rows)?;
        let null_bits = null_bits_bytes(arity);
        let fixed = null_bits + 8 * arity;
        let mut spans = Vec::with_capacity(rows);
        for (index, pair) in (first..).zip(offsets.windows(2)) {
            let (start, end) = (pair[0], pair[1]);
            let span = usize::try_from(start)
                .ok()
                .zip(usize::try_from(end).ok())
                .filter(|&(s, e)| s <= e && e <= data.len())
                .ok_or_else(|| {
                    Error::InvalidHandoff(format!(
                        "binary row {index}: offsets {start}..{end} are negative, decreasing or beyond the \
                         {} bytes of rows",
                        data.len()
                    ))
                })?;
            if span.1 - span.0 < fixed {
                return Err(Error::InvalidHandoff(format!(
                    "binary row {index}: {} bytes, shorter than the {fixed} of its header, null bits and \
                     {arity} fixed-length slots",
                    span.1 - span.0
                )));
            }
            spans.push(span);
        }
        Ok(Self {
            data,
            spans,
            null_bits,
            first,
        })
    }

    fn iter(&self) -> impl Iterator<Item = Row<'a>> + '_ {
        let data = self.data;
        (self.first..)
            .zip(&self.spans)
            .map(move |(index, &(s, e))| Row {
                bytes: &data[s..e],
                index,
            })
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    /// The bytes these rows span together.
    fn bytes(&self) -> usize {
        self.spans.iter().map(|&(s, e)| e - s).sum()
    }
}

impl<'a> Row<'a> {
    fn kind(self) -> u8 {
        self.bytes[0]
    }

    fn is_null(self, field: usize) -> bool {
        let bit = field + HEADER_BITS;
        self.bytes[bit / 8] & (1 << (bit % 8)) != 0
    }

    /// The 8 bytes of `field`'s slot (inside the fixed part, which [`Rows::new`] checked).
    fn slot(self, null_bits: usize, field: usize) -> [u8; 8] {
        let at = null_bits + 8 * field;
        let mut slot = [0; 8];
        slot.copy_from_slice(&self.bytes[at..at + 8]);
        slot
    }

    /// The `size` bytes at `offset` of the variable-length part a slot points to, checked to lie in this row.
    fn var(self, name: &str, word: u64, size: i64) -> Result<&'a [u8]> {
        let offset = (word >> 32) as u32 as i32;
        usize::try_from(offset)
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(o, n)| self.bytes.get(o..o.checked_add(n)?))
            .ok_or_else(|| {
                Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: its value at offset {offset}, {size} bytes, lies outside \
                     the row's {} bytes",
                    self.index,
                    self.bytes.len()
                ))
            })
    }

    /// A string or binary value: inline in `slot` or in the variable-length part.
    fn bytes_value(self, name: &str, slot: &'a [u8; 8]) -> Result<&'a [u8]> {
        let word = u64::from_le_bytes(*slot);
        if word & INLINE_MARK != 0 {
            let len = usize::from(slot[7] & 0x7f);
            if len > MAX_INLINE {
                return Err(Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: an inline value of {len} bytes (at most {MAX_INLINE})",
                    self.index
                )));
            }
            Ok(&slot[..len])
        } else {
            self.var(name, word, i64::from(word as u32 as i32))
        }
    }
}

fn invalid_value(name: &str, row: usize, message: String) -> Error {
    Error::InvalidValue {
        field: name.to_owned(),
        row,
        message,
    }
}

/// Decodes `rows` binary rows of `arity` fields from `data` (row `i` is `data[offsets[i]..offsets[i + 1]]`)
/// into one Arrow column per field of `fields`, typed as `fields` says. With one field more than `arity`, the
/// last one (Int8: the row-kind column of `changelog.row-kind-column`) is filled with each row's kind byte.
/// The rows are rows `first..first + rows` of their batch: errors name them so.
///
/// # Errors
/// [`Error::InvalidHandoff`] when `fields` has neither `arity` nor `arity + 1` fields, a field's type has no
/// binary-row reading (see the module doc), the offsets are not `rows + 1` increasing positions inside
/// `data`, a row is shorter than its fixed part, or a value lies outside its row (each naming the field and
/// row); [`Error::InvalidValue`] (naming the field and row) for a string that is not valid UTF-8 or a
/// timestamp the column cannot hold.
pub(super) fn import_columns(
    fields: &[Arc<Field>],
    arity: usize,
    data: &[u8],
    offsets: &[i32],
    rows: usize,
    first: usize,
) -> Result<Vec<ArrayRef>> {
    if fields.len() != arity && fields.len() != arity + 1 {
        return Err(Error::InvalidHandoff(format!(
            "binary rows of {arity} fields for a schema of {} fields (the rows' fields, and at most a \
             row-kind column)",
            fields.len()
        )));
    }
    let rows = Rows::new(data, offsets, rows, arity, first)?;
    let mut columns = Vec::with_capacity(fields.len());
    for (at, field) in fields.iter().enumerate() {
        columns.push(if at == arity {
            row_kinds(field, &rows)?
        } else {
            column(field, at, &rows)?
        });
    }
    Ok(columns)
}

/// The row-kind column: each row's header byte.
fn row_kinds(field: &Field, rows: &Rows<'_>) -> Result<ArrayRef> {
    if field.data_type() != &DataType::Int8 {
        return Err(Error::InvalidHandoff(format!(
            "the row-kind column `{}` of binary rows must be Int8, not {}",
            field.name(),
            field.data_type()
        )));
    }
    let kinds: Vec<i8> = rows.iter().map(|row| row.kind() as i8).collect();
    Ok(Arc::new(PrimitiveArray::<Int8Type>::from(kinds)))
}

/// Field `at` of every row as a column of `field`'s type.
fn column(field: &Field, at: usize, rows: &Rows<'_>) -> Result<ArrayRef> {
    let name = field.name().as_str();
    let int = |s: [u8; 8]| i32::from_le_bytes([s[0], s[1], s[2], s[3]]);
    let long = u64::from_le_bytes;
    match field.data_type() {
        DataType::Boolean => Ok(booleans(rows, at)),
        DataType::Int8 => fixed::<Int8Type>(rows, at, field, |_, s| Ok(s[0] as i8)),
        DataType::Int16 => fixed::<Int16Type>(rows, at, field, |_, s| {
            Ok(i16::from_le_bytes([s[0], s[1]]))
        }),
        DataType::Int32 => fixed::<Int32Type>(rows, at, field, |_, s| Ok(int(s))),
        DataType::Date32 => fixed::<Date32Type>(rows, at, field, |_, s| Ok(int(s))),
        DataType::Time32(TimeUnit::Millisecond) => {
            fixed::<Time32MillisecondType>(rows, at, field, |_, s| Ok(int(s)))
        }
        DataType::Interval(IntervalUnit::YearMonth) => {
            fixed::<IntervalYearMonthType>(rows, at, field, |_, s| Ok(int(s)))
        }
        DataType::Int64 => fixed::<Int64Type>(rows, at, field, |_, s| Ok(long(s) as i64)),
        DataType::Duration(TimeUnit::Millisecond) => {
            fixed::<DurationMillisecondType>(rows, at, field, |_, s| Ok(long(s) as i64))
        }
        DataType::Float32 => fixed::<Float32Type>(rows, at, field, |_, s| {
            Ok(f32::from_bits(int(s) as u32))
        }),
        DataType::Float64 => {
            fixed::<Float64Type>(rows, at, field, |_, s| Ok(f64::from_bits(long(s))))
        }
        DataType::Decimal128(precision, _) if *precision <= MAX_COMPACT_PRECISION => {
            fixed::<Decimal128Type>(rows, at, field, |_, s| Ok(i128::from(long(s) as i64)))
        }
        DataType::Decimal128(..) => fixed::<Decimal128Type>(rows, at, field, |row, s| {
            let word = long(s);
            let bytes = row.var(name, word, i64::from(word as u32 as i32))?;
            unscaled(bytes).ok_or_else(|| {
                Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: a non-compact decimal of {} bytes (1 to 16)",
                    row.index,
                    bytes.len()
                ))
            })
        }),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            fixed::<TimestampMillisecondType>(rows, at, field, |_, s| Ok(long(s) as i64))
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            fixed::<TimestampMicrosecondType>(rows, at, field, |row, s| {
                timestamp(row, name, long(s), 1_000)
            })
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            fixed::<TimestampNanosecondType>(rows, at, field, |row, s| {
                timestamp(row, name, long(s), 1_000_000)
            })
        }
        DataType::Utf8 => {
            let (offsets, values, nulls) = variable(rows, at, name)?;
            let values = Buffer::from_vec(values);
            // One UTF-8 check of the whole column (Arrow's); the value at fault is looked for only after.
            match StringArray::try_new(offsets.clone(), values.clone(), nulls.clone()) {
                Ok(strings) => Ok(Arc::new(strings)),
                Err(_) => Err(first_invalid_utf8(
                    name,
                    &offsets,
                    &values,
                    nulls.as_ref(),
                    rows.first,
                )),
            }
        }
        DataType::Binary => {
            let (offsets, values, nulls) = variable(rows, at, name)?;
            Ok(Arc::new(BinaryArray::new(offsets, values.into(), nulls)))
        }
        other => Err(Error::InvalidHandoff(format!(
            "field `{name}` of type {other} cannot cross as a binary row; export it through the C Data \
             Interface"
        ))),
    }
}

/// The non-compact timestamp a slot points to, in units of `per_milli` per millisecond.
fn timestamp(row: Row<'_>, name: &str, word: u64, per_milli: i64) -> Result<i64> {
    let nanos = i64::from(word as u32 as i32);
    let mut millis = [0; 8];
    millis.copy_from_slice(row.var(name, word, 8)?);
    let millis = i64::from_le_bytes(millis);
    if !(0..1_000_000).contains(&nanos) {
        return Err(invalid_value(
            name,
            row.index,
            format!("nanosecond of the millisecond {nanos} is outside 0..999999 (Flink's TimestampData)"),
        ));
    }
    let nanos_per_unit = 1_000_000 / per_milli;
    if nanos % nanos_per_unit != 0 {
        return Err(invalid_value(
            name,
            row.index,
            format!(
                "{millis} ms + {nanos} ns has digits below the column's unit of {nanos_per_unit} ns"
            ),
        ));
    }
    millis
        .checked_mul(per_milli)
        .and_then(|v| v.checked_add(nanos / nanos_per_unit))
        .ok_or_else(|| {
            invalid_value(
                name,
                row.index,
                format!(
                    "{millis} ms + {nanos} ns is outside the 64-bit range of the column's unit of \
                     {nanos_per_unit} ns"
                ),
            )
        })
}

/// A big-endian two's complement of 1 to 16 bytes as an `i128` (`new BigInteger(bytes)`).
fn unscaled(bytes: &[u8]) -> Option<i128> {
    let first = *bytes.first()?;
    if bytes.len() > 16 {
        return None;
    }
    let mut wide = if first & 0x80 != 0 {
        [0xff; 16]
    } else {
        [0; 16]
    };
    wide[16 - bytes.len()..].copy_from_slice(bytes);
    Some(i128::from_be_bytes(wide))
}

// Each column is read in one pass over the rows, its values and null bits together: a batch of several MiB of
// rows does not stay in cache between passes.

fn booleans(rows: &Rows<'_>, at: usize) -> ArrayRef {
    let mut values = BooleanBufferBuilder::new(rows.len());
    let mut nulls = NullBufferBuilder::new(rows.len());
    for row in rows.iter() {
        let null = row.is_null(at);
        nulls.append(!null);
        values.append(!null && row.slot(rows.null_bits, at)[0] != 0);
    }
    Arc::new(BooleanArray::new(values.finish(), nulls.finish()))
}

/// A primitive column whose non-null values `read` takes from the row and its slot (null slots hold the
/// type's default).
fn fixed<T: ArrowPrimitiveType>(
    rows: &Rows<'_>,
    at: usize,
    field: &Field,
    read: impl Fn(Row<'_>, [u8; 8]) -> Result<T::Native>,
) -> Result<ArrayRef> {
    let mut values = Vec::with_capacity(rows.len());
    let mut nulls = NullBufferBuilder::new(rows.len());
    for row in rows.iter() {
        let null = row.is_null(at);
        nulls.append(!null);
        values.push(if null {
            T::Native::default()
        } else {
            read(row, row.slot(rows.null_bits, at))?
        });
    }
    let array = PrimitiveArray::<T>::new(ScalarBuffer::from(values), nulls.finish())
        .with_data_type(field.data_type().clone());
    Ok(Arc::new(array))
}

/// The offsets, bytes and nulls of a string or binary column.
fn variable(
    rows: &Rows<'_>,
    at: usize,
    name: &str,
) -> Result<(OffsetBuffer<i32>, Vec<u8>, Option<NullBuffer>)> {
    let mut offsets = Vec::with_capacity(rows.len() + 1);
    offsets.push(0i32);
    // The column's bytes as its slots announce them (checked below), at most the rows' own bytes: one
    // allocation instead of a doubling per power of two.
    let announced = rows
        .iter()
        .filter(|row| !row.is_null(at))
        .map(|row| {
            let word = u64::from_le_bytes(row.slot(rows.null_bits, at));
            if word & INLINE_MARK != 0 {
                0
            } else {
                usize::try_from(word as u32 as i32).unwrap_or(0)
            }
        })
        .fold(0, usize::saturating_add);
    let mut values = Vec::with_capacity(announced.min(rows.bytes()) + MAX_INLINE * rows.len());
    let mut nulls = NullBufferBuilder::new(rows.len());
    for row in rows.iter() {
        let null = row.is_null(at);
        nulls.append(!null);
        if !null {
            let slot = row.slot(rows.null_bits, at);
            values.extend_from_slice(row.bytes_value(name, &slot)?);
        }
        let end = i32::try_from(values.len()).map_err(|_| {
            invalid_value(
                name,
                row.index,
                "the column's bytes reach 2^31, beyond Arrow's i32 offsets".to_owned(),
            )
        })?;
        offsets.push(end);
    }
    Ok((
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        values,
        nulls.finish(),
    ))
}

/// The error for the first non-null value of a string column that is not valid UTF-8.
fn first_invalid_utf8(
    name: &str,
    offsets: &OffsetBuffer<i32>,
    values: &[u8],
    nulls: Option<&NullBuffer>,
    first: usize,
) -> Error {
    for (row, pair) in offsets.windows(2).enumerate() {
        if nulls.is_some_and(|n| n.is_null(row)) {
            continue;
        }
        let row = first + row;
        let value = &values[pair[0] as usize..pair[1] as usize];
        if let Err(e) = std::str::from_utf8(value) {
            let at = e.valid_up_to();
            return invalid_value(
                name,
                row,
                format!(
                    "the string is not valid UTF-8 (byte {at} of {}, 0x{:02x}); Flink would write U+FFFD in \
                     its place, Arrow's Utf8 type does not allow it",
                    value.len(),
                    value[at]
                ),
            );
        }
    }
    Error::InvalidHandoff(format!(
        "field `{name}`: Arrow rejected the strings of binary rows that are each valid UTF-8"
    ))
}

#[cfg(test)]
mod tests {
    //! Rows built here per Flink's layout (the module doc) and one row written by Flink's own
    //! `BinaryRowWriter`, decoded; and corrupt rows, each an error naming the field and row. All run under
    //! Miri (`scripts/miri.sh`, filter `ffi::`).

    use arrow_array::cast::AsArray;
    use arrow_array::types::Decimal128Type;
    use arrow_array::Array;
    use arrow_schema::{DataType, Field, IntervalUnit, TimeUnit};

    use super::*;

    /// Writes one row as Flink's `BinaryRowWriter` does: header and null bits, 8-byte slots, then the
    /// variable-length part in 8-byte words.
    struct Writer {
        bytes: Vec<u8>,
        null_bits: usize,
    }

    impl Writer {
        fn new(arity: usize, kind: u8) -> Self {
            let null_bits = null_bits_bytes(arity);
            let mut bytes = vec![0; null_bits + 8 * arity];
            bytes[0] = kind;
            Self { bytes, null_bits }
        }

        fn slot(&mut self, field: usize, word: u64) -> &mut Self {
            let at = self.null_bits + 8 * field;
            self.bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
            self
        }

        fn null(&mut self, field: usize) -> &mut Self {
            let bit = field + HEADER_BITS;
            self.bytes[bit / 8] |= 1 << (bit % 8);
            self
        }

        /// Appends `value` to the variable-length part (padded to 8 bytes) and points `field`'s slot at it,
        /// with `low` as the slot's low 32 bits.
        fn var(&mut self, field: usize, value: &[u8], low: u32) -> &mut Self {
            let offset = self.bytes.len() as u64;
            self.bytes.extend_from_slice(value);
            self.bytes.resize(self.bytes.len().div_ceil(8) * 8, 0);
            self.slot(field, offset << 32 | u64::from(low))
        }

        fn bytes(&mut self, field: usize, value: &[u8]) -> &mut Self {
            if value.len() <= MAX_INLINE {
                let mut slot = [0u8; 8];
                slot[..value.len()].copy_from_slice(value);
                slot[7] = 0x80 | value.len() as u8;
                self.slot(field, u64::from_le_bytes(slot))
            } else {
                self.var(field, value, value.len() as u32)
            }
        }
    }

    fn field(name: &str, data_type: DataType) -> Arc<Field> {
        Arc::new(Field::new(name, data_type, true))
    }

    /// Concatenates rows and their offsets, as the JVM front end sends them.
    fn batch(rows: &[&[u8]]) -> (Vec<u8>, Vec<i32>) {
        let mut data = Vec::new();
        let mut offsets = vec![0];
        for row in rows {
            data.extend_from_slice(row);
            offsets.push(data.len() as i32);
        }
        (data, offsets)
    }

    fn import(fields: &[Arc<Field>], arity: usize, rows: &[&[u8]]) -> Result<Vec<ArrayRef>> {
        let (data, offsets) = batch(rows);
        import_columns(fields, arity, &data, &offsets, rows.len(), 0)
    }

    /// Flink 2.2.1's `BinaryRowWriter` over a row of kind `+U`: BIGINT -42, STRING "héllo" (6 bytes,
    /// inline), STRING "a string longer than 7", DECIMAL(10, 2) -12345.67, DECIMAL(38, 6)
    /// -123456789012345678901234.567890, TIMESTAMP(3) 1700000000123 ms, TIMESTAMP(9) -1 ms + 999999 ns,
    /// BOOLEAN true, INT null (`writeLong`, `writeString`, `writeDecimal`, `writeTimestamp`, `writeBoolean`,
    /// `setNullAt`, `complete`; the bytes of `getSegments()[0]` from `getOffset()`, `getSizeInBytes()` long).
    const FLINK_ROW: &str = "0200010000000000d6ffffffffffffff68c3a96c6c6f008616000000500000007929edffffffffff\
        0d000000680000007b68e5cf8b0100003f420f0078000000010000000000000000000000000000006120737472696e67206c6f\
        6e676572207468616e20370000fe7116f0093c8c1f11b1c0f52e000000ffffffffffffffff";

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
            .collect()
    }

    fn flink_fields() -> Vec<Arc<Field>> {
        vec![
            field("id", DataType::Int64),
            field("short", DataType::Utf8),
            field("long", DataType::Utf8),
            field("dec10", DataType::Decimal128(10, 2)),
            field("dec38", DataType::Decimal128(38, 6)),
            field("ts3", DataType::Timestamp(TimeUnit::Millisecond, None)),
            field("ts9", DataType::Timestamp(TimeUnit::Nanosecond, None)),
            field("flag", DataType::Boolean),
            field("n", DataType::Int32),
        ]
    }

    #[test]
    fn a_row_written_by_flink_decodes_to_its_values() {
        let row = hex(FLINK_ROW);
        let mut fields = flink_fields();
        fields.push(field("kind", DataType::Int8));
        let columns = import(&fields, 9, &[&row, &row]).expect("import");
        assert_eq!(columns[0].as_primitive::<Int64Type>().value(1), -42);
        assert_eq!(columns[1].as_string::<i32>().value(0), "héllo");
        assert_eq!(
            columns[2].as_string::<i32>().value(0),
            "a string longer than 7"
        );
        assert_eq!(
            columns[3].as_primitive::<Decimal128Type>().value(0),
            -1_234_567
        );
        assert_eq!(
            columns[4].as_primitive::<Decimal128Type>().value(0),
            -123_456_789_012_345_678_901_234_567_890_i128
        );
        assert_eq!(
            columns[5]
                .as_primitive::<TimestampMillisecondType>()
                .value(0),
            1_700_000_000_123
        );
        assert_eq!(
            columns[6]
                .as_primitive::<TimestampNanosecondType>()
                .value(0),
            -1_000_000 + 999_999
        );
        assert!(columns[7].as_boolean().value(0));
        assert!(columns[8].is_null(0) && columns[8].is_null(1));
        assert_eq!(columns[8].null_count(), 2);
        assert_eq!(columns[9].as_primitive::<Int8Type>().values(), &[2, 2]);
        assert!(columns[..8].iter().all(|c| c.null_count() == 0));
    }

    #[test]
    fn flinks_row_encodes_through_the_handoff_with_its_row_kind() {
        use arrow_array::ffi::FFI_ArrowSchema;
        use arrow_schema::Schema;

        use crate::ffi::{Encoder, Handoff};
        use crate::EncoderOptions;

        let row = hex(FLINK_ROW);
        let mut delete = row.clone();
        delete[0] = 3;
        let mut fields = flink_fields();
        fields.push(field("kind", DataType::Int8));
        let mut schema = FFI_ArrowSchema::try_from(&Schema::new(fields)).expect("schema");
        let options = [("key.fields", "id"), ("changelog.row-kind-column", "kind")];
        let mut encoder =
            Encoder::new(EncoderOptions::from_pairs(options).expect("options")).expect("encoder");
        let (data, offsets) = batch(&[&row, &delete]);
        // SAFETY: a fresh schema export.
        let handoff =
            unsafe { Handoff::binary_rows(data, offsets, 9, &mut schema as *mut _ as usize, 2) }
                .expect("handoff");
        let records = encoder.encode(handoff).expect("encode");
        // Flink writes a DECIMAL through Jackson without its trailing zeros (docs/json-format.md).
        let value = r#"{"id":-42,"short":"héllo","long":"a string longer than 7","dec10":-12345.67,"dec38":-123456789012345678901234.56789,"ts3":"2023-11-14 22:13:20.123","ts9":"1969-12-31 23:59:59.999999999","flag":true,"n":null}"#;
        let got: Vec<_> = records.iter().collect();
        assert_eq!(
            got[0],
            (Some(&br#"{"id":-42}"#[..]), Some(value.as_bytes()))
        );
        assert_eq!(
            got[1],
            (Some(&br#"{"id":-42}"#[..]), None),
            "-D is a tombstone"
        );
        // A later batch without its schema uses the held one; a negative arity is refused up front.
        let (data, offsets) = batch(&[&row]);
        // SAFETY: no schema address.
        let handoff = unsafe { Handoff::binary_rows(data, offsets, 9, 0, 1) }.expect("handoff");
        assert_eq!(encoder.encode(handoff).expect("encode").len(), 1);
        // SAFETY: no schema address.
        let negative = unsafe { Handoff::binary_rows(Vec::new(), vec![0], -1, 0, 0) };
        assert!(matches!(negative, Err(Error::InvalidHandoff(_))));
    }

    /// What is wrong with one row of [`long_rows`]: its string is not UTF-8 (found by the decoding), or its
    /// TIME is past the end of the day (found by the encoder).
    #[derive(Clone, Copy, PartialEq)]
    enum Fault {
        Utf8,
        Time,
    }

    /// Rows of a BIGINT, a STRING of 200 bytes and a TIME (about 250 bytes a row), row `bad.0` (if any) with
    /// the fault `bad.1`.
    fn long_rows(rows: usize, bad: Option<(usize, Fault)>) -> Vec<Vec<u8>> {
        (0..rows)
            .map(|i| {
                let mut text = format!("{i:0200}").into_bytes();
                let mut millis = i as u64;
                match bad {
                    Some((row, Fault::Utf8)) if row == i => text[100] = 0xff,
                    Some((row, Fault::Time)) if row == i => millis = 86_400_000,
                    _ => {}
                }
                let mut w = Writer::new(3, 0);
                w.slot(0, i as u64).bytes(1, &text).slot(2, millis);
                w.bytes
            })
            .collect()
    }

    fn encode_rows(
        encoder: &mut crate::ffi::Encoder,
        rows: &[Vec<u8>],
        in_place: bool,
    ) -> Result<Vec<Vec<u8>>> {
        use arrow_array::ffi::FFI_ArrowSchema;
        use arrow_schema::Schema;

        use crate::ffi::Handoff;

        let fields = vec![
            field("id", DataType::Int64),
            field("s", DataType::Utf8),
            field("t", DataType::Time32(TimeUnit::Millisecond)),
        ];
        let mut schema = FFI_ArrowSchema::try_from(&Schema::new(fields)).expect("schema");
        let refs: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
        let (data, offsets) = batch(&refs);
        let schema = &mut schema as *mut _ as usize;
        // SAFETY: a fresh schema export; `data` outlives the handoff, which `encode` consumes.
        let handoff = unsafe {
            if in_place {
                Handoff::binary_rows_at(
                    data.as_ptr() as i64,
                    data.len() as i64,
                    data.len() as i32,
                    offsets,
                    3,
                    schema,
                    rows.len() as i64,
                )
            } else {
                Handoff::binary_rows(data.clone(), offsets, 3, schema, rows.len() as i64)
            }
        }?;
        let records = encoder.encode(handoff)?;
        Ok(records
            .iter()
            .map(|(_, v)| v.expect("a value").to_vec())
            .collect())
    }

    #[test]
    fn a_batch_of_many_runs_gives_every_row_and_names_rows_by_their_index_in_the_batch() {
        use crate::ffi::Encoder;
        use crate::EncoderOptions;

        // 300 rows of about 250 bytes in runs of 16 KiB: five runs, the last one short (under Miri, which takes
        // minutes for those, 16 rows in runs of 1 KiB: four runs). The records must be those of the same rows
        // encoded as one batch (a run boundary changes nothing).
        let (rows, run_bytes) = if cfg!(miri) {
            (16, 1024)
        } else {
            (300, 16 * 1024)
        };
        let mut encoder = Encoder::new(EncoderOptions::default())
            .expect("encoder")
            .with_run_bytes(run_bytes);
        let mut whole = Encoder::new(EncoderOptions::default()).expect("encoder");
        let expected = encode_rows(&mut whole, &long_rows(rows, None), false).expect("one run");
        // Flink's json format writes a TIME to the second (`LocalTime.ofSecondOfDay(millis / 1000)`).
        let last = rows - 1;
        assert_eq!(
            String::from_utf8_lossy(&expected[last]),
            format!(r#"{{"id":{last},"s":"{last:0200}","t":"00:00:00"}}"#)
        );
        for in_place in [false, true] {
            let values =
                encode_rows(&mut encoder, &long_rows(rows, None), in_place).expect("encode");
            assert!(values == expected, "in place {in_place}");
            // A fault the decoding finds and one the encoder finds, both in the last run.
            for (fault, name) in [(Fault::Utf8, "s"), (Fault::Time, "t")] {
                let last = rows - 3;
                match encode_rows(
                    &mut encoder,
                    &long_rows(rows, Some((last, fault))),
                    in_place,
                ) {
                    Err(Error::InvalidValue { field, row, .. }) => {
                        assert_eq!((field.as_str(), row), (name, last), "in place {in_place}");
                    }
                    other => panic!("expected the invalid `{name}` of row {last}, got {other:?}"),
                }
            }
        }
        // The encoder stays usable.
        let one = encode_rows(&mut encoder, &long_rows(1, None), true).expect("one row");
        assert_eq!(one.len(), 1);
    }

    #[test]
    fn rows_in_place_must_fit_their_buffer() {
        use crate::ffi::Handoff;

        for (address, capacity, len) in [(8, 10, 11), (8, 10, -1), (0, 10, 10)] {
            // SAFETY: refused before any read.
            let refused =
                unsafe { Handoff::binary_rows_at(address, capacity, len, vec![0], 1, 0, 0) };
            assert!(
                matches!(refused, Err(Error::InvalidHandoff(_))),
                "address {address}, capacity {capacity}, length {len}: {refused:?}"
            );
        }
        // SAFETY: no bytes are read at a zero address when there are none.
        let empty = unsafe { Handoff::binary_rows_at(0, 0, 0, vec![0], 1, 0, 0) };
        assert!(empty.is_ok(), "{empty:?}");
    }

    #[test]
    fn every_covered_type_decodes_with_nulls() {
        let fields = vec![
            field("b", DataType::Boolean),
            field("i8", DataType::Int8),
            field("i16", DataType::Int16),
            field("i32", DataType::Int32),
            field("i64", DataType::Int64),
            field("f32", DataType::Float32),
            field("f64", DataType::Float64),
            field("date", DataType::Date32),
            field("time", DataType::Time32(TimeUnit::Millisecond)),
            field("ym", DataType::Interval(IntervalUnit::YearMonth)),
            field("dt", DataType::Duration(TimeUnit::Millisecond)),
            field("bin", DataType::Binary),
            field(
                "us",
                DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            ),
            field("d20", DataType::Decimal128(20, 0)),
        ];
        let mut full = Writer::new(14, 0);
        full.slot(0, 1)
            .slot(1, 0xff) // -1
            .slot(2, 0x8000) // i16::MIN
            .slot(3, u64::from(i32::MAX as u32))
            .slot(4, i64::MIN as u64)
            .slot(5, u64::from(1.5f32.to_bits()))
            .slot(6, (-0.25f64).to_bits())
            .slot(7, u64::from((-1i32) as u32))
            .slot(8, 86_399_999)
            .slot(9, 14)
            .slot(10, 90_061_001)
            .bytes(11, &[0, 1, 2, 3, 4, 5, 6, 7, 8])
            .var(12, &(-1_i64).to_le_bytes(), 999_000)
            .var(
                13,
                &[0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                9,
            );
        let mut empty = Writer::new(14, 3);
        for f in 0..14 {
            empty.null(f);
        }
        let mut short = Writer::new(14, 1);
        short.bytes(11, b"").var(13, &[0], 1);
        for f in (0..11).chain([12]) {
            short.null(f);
        }
        // Null slots left as written: junk in them is never read.
        short.slot(12, u64::MAX);
        let columns =
            import(&fields, 14, &[&full.bytes, &empty.bytes, &short.bytes]).expect("import");
        assert!(columns[0].as_boolean().value(0));
        assert_eq!(columns[1].as_primitive::<Int8Type>().value(0), -1);
        assert_eq!(columns[2].as_primitive::<Int16Type>().value(0), i16::MIN);
        assert_eq!(columns[3].as_primitive::<Int32Type>().value(0), i32::MAX);
        assert_eq!(columns[4].as_primitive::<Int64Type>().value(0), i64::MIN);
        assert_eq!(columns[5].as_primitive::<Float32Type>().value(0), 1.5);
        assert_eq!(columns[6].as_primitive::<Float64Type>().value(0), -0.25);
        assert_eq!(columns[7].as_primitive::<Date32Type>().value(0), -1);
        assert_eq!(
            columns[8].as_primitive::<Time32MillisecondType>().value(0),
            86_399_999
        );
        assert_eq!(
            columns[9].as_primitive::<IntervalYearMonthType>().value(0),
            14
        );
        assert_eq!(
            columns[10]
                .as_primitive::<DurationMillisecondType>()
                .value(0),
            90_061_001
        );
        assert_eq!(
            columns[11].as_binary::<i32>().value(0),
            &[0, 1, 2, 3, 4, 5, 6, 7, 8]
        );
        assert_eq!(columns[11].as_binary::<i32>().value(2), b"");
        assert_eq!(
            columns[12]
                .as_primitive::<TimestampMicrosecondType>()
                .value(0),
            -1_000 + 999
        );
        assert_eq!(columns[12].data_type(), fields[12].data_type());
        assert_eq!(
            columns[13].as_primitive::<Decimal128Type>().value(0),
            i128::from(u64::MAX)
        );
        assert_eq!(columns[13].as_primitive::<Decimal128Type>().value(2), 0);
        for (f, column) in columns.iter().enumerate() {
            assert_eq!(column.len(), 3, "field {f}");
            assert!(column.is_null(1), "field {f}: row 1 is all nulls");
            assert_eq!(column.is_null(2), f != 11 && f != 13, "field {f}, row 2");
        }
    }

    #[test]
    fn an_arity_of_64_takes_two_words_of_null_bits() {
        assert_eq!(null_bits_bytes(0), 8);
        assert_eq!(null_bits_bytes(56), 8);
        assert_eq!(null_bits_bytes(57), 16);
        let fields: Vec<_> = (0..64)
            .map(|f| field(&format!("f{f}"), DataType::Int64))
            .collect();
        let mut row = Writer::new(64, 0);
        row.slot(63, 7).null(62);
        let columns = import(&fields, 64, &[&row.bytes]).expect("import");
        assert_eq!(columns[63].as_primitive::<Int64Type>().value(0), 7);
        assert!(columns[62].is_null(0));
        assert!(!columns[61].is_null(0));
    }

    fn error(fields: &[Arc<Field>], arity: usize, rows: &[&[u8]]) -> String {
        import(fields, arity, rows)
            .expect_err("corrupt")
            .to_string()
    }

    fn assert_mentions(message: &str, parts: &[&str]) {
        for part in parts {
            assert!(
                message.contains(part),
                "`{message}` does not mention `{part}`"
            );
        }
    }

    #[test]
    fn offsets_out_of_order_or_range_are_errors() {
        let fields = [field("id", DataType::Int64)];
        let row = Writer::new(1, 0).bytes;
        let (data, _) = batch(&[&row, &row]);
        for (offsets, row) in [
            (vec![0, 16, 8], "row 1"),
            (vec![0, 16, 40], "row 1"),
            (vec![-8, 8, 32], "row 0"),
        ] {
            let message = import_columns(&fields, 1, &data, &offsets, 2, 0)
                .expect_err("bad offsets")
                .to_string();
            assert_mentions(&message, &[row, "offsets"]);
        }
        let count = import_columns(&fields, 1, &data, &[0, 16], 2, 0).expect_err("too few");
        assert_mentions(&count.to_string(), &["2 row offsets for 2 binary rows"]);
    }

    #[test]
    fn a_row_shorter_than_its_fixed_part_is_an_error() {
        let fields = [field("a", DataType::Int64), field("b", DataType::Int64)];
        let row = Writer::new(2, 0).bytes;
        let message = error(&fields, 2, &[&row, &row[..23]]);
        assert_mentions(&message, &["binary row 1", "23 bytes", "24"]);
    }

    #[test]
    fn variable_length_values_outside_their_row_are_errors() {
        let fields = [field("s", DataType::Utf8)];
        let mut good = Writer::new(1, 0);
        good.bytes(0, b"a string longer than 7");
        for (word, what) in [
            ((200u64 << 32) | 4, "offset 200"),
            ((16u64 << 32) | 100, "100 bytes"),
            ((16u64 << 32) | 0xffff_ffff, "-1 bytes"),
            // A negative offset would set the slot's top bit, the inline mark: it cannot be written.
            ((0x7fff_fff0u64 << 32) | 4, "offset 2147483632"),
        ] {
            let mut bad = Writer::new(1, 0);
            bad.bytes(0, b"a string longer than 7").slot(0, word);
            let message = error(&fields, 1, &[&good.bytes, &bad.bytes]);
            assert_mentions(&message, &["field `s`", "binary row 1", what, "outside"]);
        }
        let mut inline = Writer::new(1, 0);
        inline.slot(0, 0x8800_0000_0000_0000);
        assert_mentions(
            &error(&fields, 1, &[&inline.bytes]),
            &["field `s`", "binary row 0", "inline value of 8 bytes"],
        );
    }

    #[test]
    fn corrupt_decimals_and_timestamps_are_errors() {
        let decimal = [field("d", DataType::Decimal128(38, 2))];
        for len in [0usize, 17] {
            let mut row = Writer::new(1, 0);
            row.var(0, &vec![1; len.max(1)], len as u32);
            let message = error(&decimal, 1, &[&row.bytes]);
            assert_mentions(&message, &["field `d`", "binary row 0", "decimal"]);
        }
        let micros = [field("t", DataType::Timestamp(TimeUnit::Microsecond, None))];
        let nanos = [field("t", DataType::Timestamp(TimeUnit::Nanosecond, None))];
        let mut past_the_row = Writer::new(1, 0);
        past_the_row.slot(0, 16 << 32);
        assert_mentions(
            &error(&micros, 1, &[&past_the_row.bytes]),
            &["outside the row"],
        );
        for (fields, millis, nanos_of_milli, what) in [
            (&micros, 0i64, 1_000_000u32, "outside 0..999999"),
            (
                &micros,
                0,
                1_001,
                "digits below the column's unit of 1000 ns",
            ),
            (&nanos, i64::MAX / 1_000, 0, "64-bit range"),
        ] {
            let mut row = Writer::new(1, 0);
            row.var(0, &millis.to_le_bytes(), nanos_of_milli);
            let failure = import(fields, 1, &[&row.bytes]).expect_err("bad timestamp");
            assert!(
                matches!(failure, Error::InvalidValue { row: 0, .. }),
                "{failure}"
            );
            assert_mentions(&failure.to_string(), &["field `t`", what]);
        }
    }

    #[test]
    fn invalid_utf8_names_field_and_row() {
        let fields = [field("s", DataType::Utf8)];
        let mut good = Writer::new(1, 0);
        good.bytes(0, "été".as_bytes());
        let mut bad = Writer::new(1, 0);
        bad.bytes(0, &[b'a', 0xc3]);
        let failure = import(&fields, 1, &[&good.bytes, &bad.bytes]).expect_err("not UTF-8");
        assert!(
            matches!(failure, Error::InvalidValue { row: 1, .. }),
            "{failure}"
        );
        assert_mentions(&failure.to_string(), &["field `s`", "not valid UTF-8"]);
    }

    #[test]
    fn schemas_the_rows_cannot_fill_are_errors() {
        let row = Writer::new(1, 0).bytes;
        let two = [
            field("a", DataType::Int64),
            field("b", DataType::Int64),
            field("c", DataType::Int64),
        ];
        assert_mentions(
            &error(&two, 1, &[&row]),
            &["binary rows of 1 fields", "3 fields"],
        );
        let kind = [field("a", DataType::Int64), field("kind", DataType::Int32)];
        assert_mentions(
            &error(&kind, 1, &[&row]),
            &["row-kind column `kind`", "Int8"],
        );
        let list = [field(
            "l",
            DataType::List(Arc::new(Field::new("item", DataType::Int64, true))),
        )];
        assert_mentions(
            &error(&list, 1, &[&row]),
            &["field `l`", "cannot cross as a binary row"],
        );
    }
}
