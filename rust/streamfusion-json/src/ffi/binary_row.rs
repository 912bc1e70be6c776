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
//!   slot's low 32 bits hold the nanosecond of the millisecond (0 to 999,999) instead of a size;
//! - ARRAY, MAP / MULTISET and ROW: the nested `BinaryArrayData`, `BinaryMapData` or `BinaryRowData`, `size`
//!   bytes at `offset`.
//!
//! A nested **array** (`BinaryArrayData`) of `n` elements: `n` as a 4-byte int, the null bits (element `i` is
//! null when bit `i` of the bytes after the count is set), `(n + 31) / 32 * 4` bytes; then the elements, each
//! as wide as its type's fixed part (BOOLEAN and TINYINT 1, SMALLINT 2, INT, DATE, TIME, FLOAT and INTERVAL
//! YEAR TO MONTH 4, every other type 8: `BinaryArrayData.calculateFixLengthPartSize`), holding what a row's
//! slot holds, offsets counted from the array's first byte. A **map** (`BinaryMapData`; a MULTISET is the map
//! of its elements to INT counts): the byte size of its key array as a 4-byte int, the key array, the value
//! array (the rest). A nested **row** is a row as above, its row kind byte unread.
//!
//! Each Arrow type says which reading applies (the front end maps Flink types to Arrow types one to one,
//! `FlinkArrowTypes`): Boolean, Int8..Int64, Float32/64, Date32, Time32(ms), Interval(YearMonth),
//! Duration(ms), Utf8, Binary, Decimal128 (compact iff its precision ≤ 18), Timestamp (compact iff its unit is
//! milliseconds; microsecond and nanosecond columns are filled from the milliseconds and nanoseconds), and
//! List, Map (of a Struct of key and value) and Struct of them, to any depth.
//!
//! Every read is checked against the buffer: the row offsets must increase within it, each row must hold its
//! header, null bits and slots, every variable-length value must lie inside the row or array that holds it,
//! and a nested array, map or row must hold its own fixed part. A layout that disagrees with the schema is an
//! [`Error::InvalidHandoff`] naming the field (a dotted path for nested values: `tags[]`, `attrs{}`,
//! `point.x`) and row; a value a Flink type cannot hold (a nanosecond of the millisecond outside
//! 0..999,999) or that the column cannot hold exactly (digits below a microsecond column's unit, a timestamp
//! outside 64-bit nanoseconds) an [`Error::InvalidValue`]. The JVM front end checks the second kind before it
//! hands the rows over (leaving such a batch to Flink's serializer), so that error is a safety net. Rows with
//! several faults give one of their errors: the columns are read one after another, a string child of nested
//! values as its parents are read, any other child after them.
//!
//! An Arrow map cannot hold a null key, so `map-null-key.mode` is applied as a map is read ([`NullKeys`], as
//! Flink's `RowDataToJsonConverters.createMapConverter` applies it): `DROP` leaves the entry out, `LITERAL`
//! reads the key as `map-null-key.literal`, and `FAIL` is [`Error::NullMapKey`] with Flink's message, naming the
//! map and row.

use std::sync::Arc;

use arrow_array::types::{
    Date32Type, Decimal128Type, DurationMillisecondType, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, IntervalYearMonthType, Time32MillisecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, ListArray, MapArray, PrimitiveArray,
    StringArray, StructArray,
};
use arrow_buffer::{
    BooleanBufferBuilder, Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{DataType, Field, FieldRef, Fields, IntervalUnit, TimeUnit};

use crate::binary_format::{
    null_bits_bytes, HEADER_BITS, INLINE_MARK, MAX_COMPACT_PRECISION, MAX_INLINE,
};
use crate::error::{Error, Result};
use crate::options::{EncoderOptions, MapNullKeyMode};

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

    fn row(&self, i: usize) -> &'a [u8] {
        let (s, e) = self.spans[i];
        &self.data[s..e]
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    /// The bytes these rows span together.
    fn bytes(&self) -> usize {
        self.spans.iter().map(|&(s, e)| e - s).sum()
    }
}

/// One value of a column: where its offsets point into (the row or array that holds it), its fixed-length
/// part (a row's slot, or an array element zero-extended to 8 bytes), whether it is null, and the batch's row
/// it belongs to (errors name it).
#[derive(Clone, Copy)]
struct Cell<'a> {
    base: &'a [u8],
    slot: [u8; 8],
    null: bool,
    row: usize,
}

/// The values of one column, read where they lie: a field of the batch's rows, or the elements, entries or
/// fields of nested values gathered for their child column.
trait Cells<'a> {
    fn len(&self) -> usize;
    fn cell(&self, i: usize) -> Cell<'a>;
    /// An upper bound of the bytes the values span, to size a variable-length column's buffer.
    fn span_bytes(&self) -> usize;
}

/// Field `at` of every row of a batch.
struct RowField<'r, 'a> {
    rows: &'r Rows<'a>,
    at: usize,
}

impl<'a> Cells<'a> for RowField<'_, 'a> {
    fn len(&self) -> usize {
        self.rows.len()
    }

    #[inline]
    fn cell(&self, i: usize) -> Cell<'a> {
        let bytes = self.rows.row(i);
        let bit = self.at + HEADER_BITS;
        let at = self.rows.null_bits + 8 * self.at;
        let mut slot = [0; 8];
        // Inside the fixed part, which `Rows::new` checked.
        slot.copy_from_slice(&bytes[at..at + 8]);
        Cell {
            base: bytes,
            slot,
            null: bytes[bit / 8] & (1 << (bit % 8)) != 0,
            row: self.rows.first + i,
        }
    }

    fn span_bytes(&self) -> usize {
        self.rows.bytes()
    }
}

impl<'a> Cells<'a> for [Cell<'a>] {
    fn len(&self) -> usize {
        <[Cell<'a>]>::len(self)
    }

    #[inline]
    fn cell(&self, i: usize) -> Cell<'a> {
        self[i]
    }

    fn span_bytes(&self) -> usize {
        // Nested values of one batch lie in its rows; their sum over-counts values that share a base.
        self.iter()
            .map(|c| c.base.len())
            .fold(0, usize::saturating_add)
    }
}

impl<'a> Cell<'a> {
    /// A null value (the fields of a null nested row).
    fn null(row: usize) -> Self {
        Cell {
            base: &[],
            slot: [0; 8],
            null: true,
            row,
        }
    }

    /// The string `text`, read as a value in the variable-length part of a buffer of its own (a text longer
    /// than a slot's `i32` size reads as a value outside its buffer: an error, never a truncated text).
    fn text(text: &'a str, row: usize) -> Self {
        let size = u32::try_from(text.len())
            .ok()
            .filter(|&n| i32::try_from(n).is_ok())
            .unwrap_or(u32::MAX);
        Cell {
            base: text.as_bytes(),
            slot: u64::from(size).to_le_bytes(),
            null: false,
            row,
        }
    }

    fn word(&self) -> u64 {
        u64::from_le_bytes(self.slot)
    }

    /// The `size` bytes at the offset in the slot's high word, checked to lie in the value's row or array.
    fn var(&self, name: &str, size: i64) -> Result<&'a [u8]> {
        let offset = (self.word() >> 32) as u32 as i32;
        usize::try_from(offset)
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(o, n)| self.base.get(o..o.checked_add(n)?))
            .ok_or_else(|| {
                Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: its value at offset {offset}, {size} bytes, lies outside \
                     the row (or nested array) that holds it, of {} bytes",
                    self.row,
                    self.base.len()
                ))
            })
    }

    /// The value the slot points to with the size in its low word (strings, binaries, decimals, nested values).
    fn sized(&self, name: &str) -> Result<&'a [u8]> {
        self.var(name, i64::from(self.word() as u32 as i32))
    }

    /// Appends a string or binary value to `out`: inline in the slot or in the variable-length part.
    fn append_bytes(&self, name: &str, out: &mut Vec<u8>) -> Result<()> {
        if self.word() & INLINE_MARK != 0 {
            let len = usize::from(self.slot[7] & 0x7f);
            if len > MAX_INLINE {
                return Err(Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: an inline value of {len} bytes (at most {MAX_INLINE})",
                    self.row
                )));
            }
            // The whole slot, then the bytes past the value dropped: a fixed-size copy instead of a call to
            // memcpy for at most 7 bytes (most short strings, keys and tags are inline).
            out.extend_from_slice(&self.slot);
            out.truncate(out.len() - (self.slot.len() - len));
        } else {
            out.extend_from_slice(self.sized(name)?);
        }
        Ok(())
    }
}

/// What a null map key becomes as a map is read ([`import_columns`]): Flink's `map-null-key.mode`, applied
/// here because an Arrow map's keys cannot be null (Flink applies it in
/// `RowDataToJsonConverters.createMapConverter`; the JSON text is then the same as Flink's, since a map's
/// entries reach the encoder in order, a dropped entry absent and a literal key as if the row held it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NullKeys<'a> {
    /// No one mode applies (an import without encoder options, or a key row whose mode or literal differs
    /// from the value row's): [`Error::InvalidValue`], naming the map and row.
    Refuse,
    /// `FAIL`: [`Error::NullMapKey`] (Flink's message), naming the map and row.
    Fail,
    /// `DROP`: the entry is left out.
    Drop,
    /// `LITERAL`: the key is this text (`map-null-key.literal`).
    Literal(&'a str),
}

impl<'a> NullKeys<'a> {
    /// The mode of an encoder with options `o`: the value row's `map-null-key.mode` (and literal), when the
    /// records have no key or the key row's mode and literal are the same; else [`NullKeys::Refuse`], since a
    /// map read once feeds both rows.
    pub(super) fn of(o: &'a EncoderOptions) -> Self {
        let value = (o.map_null_key_mode(), o.map_null_key_literal());
        let k = o.key_format();
        let key = (
            k.map_null_key_mode.unwrap_or(value.0),
            k.map_null_key_literal.as_deref().unwrap_or(value.1),
        );
        if !o.key_fields().is_empty() && key != value {
            return NullKeys::Refuse;
        }
        match value.0 {
            MapNullKeyMode::Fail => NullKeys::Fail,
            MapNullKeyMode::Drop => NullKeys::Drop,
            MapNullKeyMode::Literal => NullKeys::Literal(value.1),
        }
    }

    /// Applies the mode to `keys` and `values` (one map of binary row `row`, at least one of whose keys is
    /// null); `name` is the map's path, for errors.
    fn apply(
        self,
        name: &str,
        row: usize,
        keys: &mut Vec<Cell<'a>>,
        values: &mut Vec<Cell<'a>>,
    ) -> Result<()> {
        match self {
            NullKeys::Refuse => Err(invalid_value(
                name,
                row,
                "a null map key, which an Arrow map cannot hold, and no one map-null-key.mode to apply"
                    .to_owned(),
            )),
            NullKeys::Fail => Err(Error::NullMapKey {
                field: name.to_owned(),
                row,
            }),
            NullKeys::Drop => {
                let mut kept = 0;
                for j in 0..keys.len() {
                    if !keys[j].null {
                        keys[kept] = keys[j];
                        values[kept] = values[j];
                        kept += 1;
                    }
                }
                keys.truncate(kept);
                values.truncate(kept);
                Ok(())
            }
            NullKeys::Literal(text) => {
                for key in keys.iter_mut().filter(|k| k.null) {
                    *key = Cell::text(text, row);
                }
                Ok(())
            }
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
/// `data`, a row or a nested value is shorter than its fixed part, or a value lies outside its row or array
/// (each naming the field and row); [`Error::InvalidValue`] (naming the field and row) for a string that is
/// not valid UTF-8 or a timestamp the column cannot hold; for a null map key, as `null_keys` says.
pub(super) fn import_columns<'a>(
    fields: &[Arc<Field>],
    arity: usize,
    data: &'a [u8],
    offsets: &[i32],
    rows: usize,
    first: usize,
    null_keys: NullKeys<'a>,
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
            column(
                field,
                field.name(),
                &RowField { rows: &rows, at },
                null_keys,
            )?
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
    let kinds: Vec<i8> = (0..rows.len()).map(|i| rows.row(i)[0] as i8).collect();
    Ok(Arc::new(PrimitiveArray::<Int8Type>::from(kinds)))
}

/// The column of `field`'s type of `cells`; `name` is the field's path, for errors; `null_keys` applies to
/// the maps inside.
fn column<'a, C: Cells<'a> + ?Sized>(
    field: &Field,
    name: &str,
    cells: &C,
    null_keys: NullKeys<'a>,
) -> Result<ArrayRef> {
    let int = |s: [u8; 8]| i32::from_le_bytes([s[0], s[1], s[2], s[3]]);
    let long = u64::from_le_bytes;
    match field.data_type() {
        DataType::Boolean => Ok(booleans(cells)),
        DataType::Int8 => fixed::<Int8Type, _>(cells, field, |c| Ok(c.slot[0] as i8)),
        DataType::Int16 => {
            fixed::<Int16Type, _>(cells, field, |c| Ok(i16::from_le_bytes([c.slot[0], c.slot[1]])))
        }
        DataType::Int32 => fixed::<Int32Type, _>(cells, field, |c| Ok(int(c.slot))),
        DataType::Date32 => fixed::<Date32Type, _>(cells, field, |c| Ok(int(c.slot))),
        DataType::Time32(TimeUnit::Millisecond) => {
            fixed::<Time32MillisecondType, _>(cells, field, |c| Ok(int(c.slot)))
        }
        DataType::Interval(IntervalUnit::YearMonth) => {
            fixed::<IntervalYearMonthType, _>(cells, field, |c| Ok(int(c.slot)))
        }
        DataType::Int64 => fixed::<Int64Type, _>(cells, field, |c| Ok(long(c.slot) as i64)),
        DataType::Duration(TimeUnit::Millisecond) => {
            fixed::<DurationMillisecondType, _>(cells, field, |c| Ok(long(c.slot) as i64))
        }
        DataType::Float32 => {
            fixed::<Float32Type, _>(cells, field, |c| Ok(f32::from_bits(int(c.slot) as u32)))
        }
        DataType::Float64 => {
            fixed::<Float64Type, _>(cells, field, |c| Ok(f64::from_bits(long(c.slot))))
        }
        DataType::Decimal128(precision, _) if *precision <= MAX_COMPACT_PRECISION => {
            fixed::<Decimal128Type, _>(cells, field, |c| Ok(i128::from(long(c.slot) as i64)))
        }
        DataType::Decimal128(..) => fixed::<Decimal128Type, _>(cells, field, |c| {
            let bytes = c.sized(name)?;
            unscaled(bytes).ok_or_else(|| {
                Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: a non-compact decimal of {} bytes (1 to 16)",
                    c.row,
                    bytes.len()
                ))
            })
        }),
        DataType::Timestamp(TimeUnit::Millisecond, _) => {
            fixed::<TimestampMillisecondType, _>(cells, field, |c| Ok(long(c.slot) as i64))
        }
        DataType::Timestamp(TimeUnit::Microsecond, _) => {
            fixed::<TimestampMicrosecondType, _>(cells, field, |c| timestamp(c, name, 1_000))
        }
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            fixed::<TimestampNanosecondType, _>(cells, field, |c| timestamp(c, name, 1_000_000))
        }
        DataType::Utf8 | DataType::Binary => {
            variable(cells, name)?.finish(field.data_type(), name, |i| cells.cell(i).row)
        }
        DataType::List(item) => list(item, name, cells, null_keys),
        DataType::Struct(fields) => structs(fields, name, cells, null_keys),
        DataType::Map(entries, sorted) => map(entries, *sorted, name, cells, null_keys),
        other => Err(Error::InvalidHandoff(format!(
            "field `{name}` of type {other} cannot cross as a binary row; export it through the C Data \
             Interface"
        ))),
    }
}

/// The non-compact timestamp a cell points to, in units of `per_milli` per millisecond.
fn timestamp(cell: &Cell<'_>, name: &str, per_milli: i64) -> Result<i64> {
    let nanos = i64::from(cell.word() as u32 as i32);
    let mut millis = [0; 8];
    millis.copy_from_slice(cell.var(name, 8)?);
    let millis = i64::from_le_bytes(millis);
    if !(0..1_000_000).contains(&nanos) {
        return Err(invalid_value(
            name,
            cell.row,
            format!("nanosecond of the millisecond {nanos} is outside 0..999999 (Flink's TimestampData)"),
        ));
    }
    let nanos_per_unit = 1_000_000 / per_milli;
    if nanos % nanos_per_unit != 0 {
        return Err(invalid_value(
            name,
            cell.row,
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
                cell.row,
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

fn booleans<'a, C: Cells<'a> + ?Sized>(cells: &C) -> ArrayRef {
    let mut values = BooleanBufferBuilder::new(cells.len());
    let mut nulls = NullBufferBuilder::new(cells.len());
    for i in 0..cells.len() {
        let c = cells.cell(i);
        nulls.append(!c.null);
        values.append(!c.null && c.slot[0] != 0);
    }
    Arc::new(BooleanArray::new(values.finish(), nulls.finish()))
}

/// A primitive column whose non-null values `read` takes from their cell (null values are the type's
/// default).
fn fixed<'a, T: ArrowPrimitiveType, C: Cells<'a> + ?Sized>(
    cells: &C,
    field: &Field,
    read: impl Fn(&Cell<'a>) -> Result<T::Native>,
) -> Result<ArrayRef> {
    let mut values = Vec::with_capacity(cells.len());
    let mut nulls = NullBufferBuilder::new(cells.len());
    for i in 0..cells.len() {
        let c = cells.cell(i);
        nulls.append(!c.null);
        values.push(if c.null {
            T::Native::default()
        } else {
            read(&c)?
        });
    }
    let array = PrimitiveArray::<T>::new(ScalarBuffer::from(values), nulls.finish())
        .with_data_type(field.data_type().clone());
    Ok(Arc::new(array))
}

/// The string or binary column of `cells`, appended value by value.
fn variable<'a, C: Cells<'a> + ?Sized>(cells: &C, name: &str) -> Result<Variable> {
    let n = cells.len();
    // The column's bytes as its slots announce them (checked as they are read), at most the values' own
    // bytes: one allocation instead of a doubling per power of two.
    let announced = (0..n)
        .map(|i| cells.cell(i))
        .filter(|c| !c.null && c.word() & INLINE_MARK == 0)
        .map(|c| usize::try_from(c.word() as u32 as i32).unwrap_or(0))
        .fold(0, usize::saturating_add);
    let mut column = Variable::with_capacity(n, announced.min(cells.span_bytes()));
    for i in 0..n {
        column.push(&cells.cell(i), name)?;
    }
    Ok(column)
}

/// The offsets, bytes and nulls of a string or binary column, appended value by value.
struct Variable {
    offsets: Vec<i32>,
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl Variable {
    /// Room for `n` values that announce `bytes` bytes besides their inline ones.
    fn with_capacity(n: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        Variable {
            offsets,
            // Inline values are appended 8 bytes at a time, then cut (`Cell::append_bytes`).
            values: Vec::with_capacity(bytes.saturating_add(8 * n)),
            nulls: NullBufferBuilder::new(n),
        }
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Appends `c`'s value (or a null); `name` is the column's path, for errors.
    fn push(&mut self, c: &Cell<'_>, name: &str) -> Result<()> {
        self.nulls.append(!c.null);
        if !c.null {
            c.append_bytes(name, &mut self.values)?;
        }
        let end = i32::try_from(self.values.len()).map_err(|_| {
            invalid_value(
                name,
                c.row,
                "the column's bytes reach 2^31, beyond Arrow's i32 offsets".to_owned(),
            )
        })?;
        self.offsets.push(end);
        Ok(())
    }

    /// The column, Utf8 or Binary as `data_type` says; `row(i)` gives the batch row of value `i` (for the
    /// error of a string that is not valid UTF-8).
    fn finish(
        self,
        data_type: &DataType,
        name: &str,
        row: impl Fn(usize) -> usize,
    ) -> Result<ArrayRef> {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        let values = Buffer::from_vec(self.values);
        let mut nulls = self.nulls;
        let nulls = nulls.finish();
        if data_type == &DataType::Binary {
            return Ok(Arc::new(BinaryArray::new(offsets, values, nulls)));
        }
        // One UTF-8 check of the whole column (Arrow's); the value at fault is looked for only after.
        match StringArray::try_new(offsets.clone(), values.clone(), nulls.clone()) {
            Ok(strings) => Ok(Arc::new(strings)),
            Err(_) => Err(first_invalid_utf8(
                name,
                &offsets,
                &values,
                nulls.as_ref(),
                row,
            )),
        }
    }
}

/// The values of one child column (the elements of nested arrays, the keys or values of maps, a field of
/// nested rows), gathered as their parents are read. A string or binary child appends each value's bytes
/// at once, keeping no cell per value; any other child keeps the cells, which [`column`] reads after.
struct Children<'a> {
    /// The child's path, for errors.
    name: String,
    values: ChildValues<'a>,
}

enum ChildValues<'a> {
    Cells(Vec<Cell<'a>>),
    Bytes(Variable),
}

impl<'a> Children<'a> {
    /// The child of `field`'s type at path `name`, with room for `n` values.
    fn new(field: &Field, name: String, n: usize) -> Self {
        let values = match field.data_type() {
            DataType::Utf8 | DataType::Binary => ChildValues::Bytes(Variable::with_capacity(n, 0)),
            _ => ChildValues::Cells(Vec::with_capacity(n)),
        };
        Children { name, values }
    }

    fn len(&self) -> usize {
        match &self.values {
            ChildValues::Cells(cells) => cells.len(),
            ChildValues::Bytes(column) => column.len(),
        }
    }

    fn push(&mut self, cell: Cell<'a>) -> Result<()> {
        match &mut self.values {
            ChildValues::Cells(cells) => cells.push(cell),
            ChildValues::Bytes(column) => column.push(&cell, &self.name)?,
        }
        Ok(())
    }

    fn extend(&mut self, from: &[Cell<'a>]) -> Result<()> {
        from.iter().try_for_each(|&cell| self.push(cell))
    }

    /// The child column of `field`'s type (the `field` of [`Children::new`]); `row(i)` gives the batch row of
    /// value `i`, for errors; `null_keys` applies to the maps inside.
    fn finish(
        self,
        field: &Field,
        null_keys: NullKeys<'a>,
        row: impl Fn(usize) -> usize,
    ) -> Result<ArrayRef> {
        match self.values {
            ChildValues::Cells(cells) => column(field, &self.name, cells.as_slice(), null_keys),
            ChildValues::Bytes(column) => column.finish(field.data_type(), &self.name, row),
        }
    }
}

/// The batch row of child value `i` of a List or Map whose parents are `cells`, with `offsets` (the values
/// of parent `p` are `offsets[p]..offsets[p + 1]`).
fn parent_row<'a, C: Cells<'a> + ?Sized>(cells: &C, offsets: &[i32], i: usize) -> usize {
    let p = offsets
        .partition_point(|&o| o as usize <= i)
        .saturating_sub(1);
    cells.cell(p.min(cells.len().saturating_sub(1))).row
}

/// Bytes of an array element of `data_type` (`BinaryArrayData.calculateFixLengthPartSize`).
pub(super) fn element_width(data_type: &DataType) -> usize {
    match data_type {
        DataType::Boolean | DataType::Int8 => 1,
        DataType::Int16 => 2,
        DataType::Int32
        | DataType::Float32
        | DataType::Date32
        | DataType::Time32(_)
        | DataType::Interval(IntervalUnit::YearMonth) => 4,
        _ => 8,
    }
}

/// The 4-byte little-endian `int` that starts a nested array (its element count) or map (its key array's byte
/// size); `None` when `bytes` is shorter.
pub(super) fn leading_int(bytes: &[u8]) -> Option<i32> {
    bytes.first_chunk().map(|b| i32::from_le_bytes(*b))
}

/// Hands the elements of the `BinaryArrayData` in `bytes` to `each` in order, each `width` bytes wide (1, 2, 4
/// or 8: [`element_width`]); their count. The first error of `each` ends the reading.
fn array_elements<'a>(
    bytes: &'a [u8],
    width: usize,
    name: &str,
    row: usize,
    mut each: impl FnMut(Cell<'a>) -> Result<()>,
) -> Result<usize> {
    let invalid =
        |what: String| Error::InvalidHandoff(format!("field `{name}`, binary row {row}: {what}"));
    let count = leading_int(bytes).ok_or_else(|| {
        invalid(format!(
            "an array of {} bytes, without its count",
            bytes.len()
        ))
    })?;
    let n = usize::try_from(count).map_err(|_| invalid(format!("an array of {count} elements")))?;
    let header = 4 + n.div_ceil(32) * 4;
    let fixed = n
        .checked_mul(width)
        .and_then(|w| w.checked_add(header))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            invalid(format!(
                "an array of {n} elements of {width} bytes in {} bytes",
                bytes.len()
            ))
        })?;
    debug_assert!(fixed <= bytes.len());
    for i in 0..n {
        let at = header + i * width;
        let mut slot = [0; 8];
        // One fixed-size copy per width (a length known at compile time is a register move, not a memcpy).
        match width {
            1 => slot[0] = bytes[at],
            2 => slot[..2].copy_from_slice(&bytes[at..at + 2]),
            4 => slot[..4].copy_from_slice(&bytes[at..at + 4]),
            _ => slot.copy_from_slice(&bytes[at..at + 8]),
        }
        each(Cell {
            base: bytes,
            slot,
            null: bytes[4 + i / 8] & (1 << (i % 8)) != 0,
            row,
        })?;
    }
    Ok(n)
}

/// The `i32` end offset of `len` child values, or the error of a column beyond Arrow's offsets.
fn child_end(len: usize, name: &str, row: usize) -> Result<i32> {
    i32::try_from(len).map_err(|_| {
        invalid_value(
            name,
            row,
            "the column's nested values reach 2^31, beyond Arrow's i32 offsets".to_owned(),
        )
    })
}

fn arrow_error(name: &str, e: arrow_schema::ArrowError) -> Error {
    Error::InvalidHandoff(format!("field `{name}`: {e}"))
}

/// An ARRAY column: a List of `item`.
fn list<'a, C: Cells<'a> + ?Sized>(
    item: &FieldRef,
    name: &str,
    cells: &C,
    null_keys: NullKeys<'a>,
) -> Result<ArrayRef> {
    let width = element_width(item.data_type());
    // Sized for two elements a row (a guess; it grows by doubling beyond).
    let mut elements = Children::new(item, format!("{name}[]"), 2 * cells.len());
    let mut offsets = Vec::with_capacity(cells.len() + 1);
    offsets.push(0i32);
    let mut nulls = NullBufferBuilder::new(cells.len());
    for i in 0..cells.len() {
        let c = cells.cell(i);
        nulls.append(!c.null);
        if !c.null {
            array_elements(c.sized(name)?, width, name, c.row, |e| elements.push(e))?;
        }
        offsets.push(child_end(elements.len(), name, c.row)?);
    }
    let values = elements.finish(item, null_keys, |i| parent_row(cells, &offsets, i))?;
    let list = ListArray::try_new(
        item.clone(),
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        values,
        nulls.finish(),
    )
    .map_err(|e| arrow_error(name, e))?;
    Ok(Arc::new(list))
}

/// A ROW column: a Struct of `fields`.
fn structs<'a, C: Cells<'a> + ?Sized>(
    fields: &Fields,
    name: &str,
    cells: &C,
    null_keys: NullKeys<'a>,
) -> Result<ArrayRef> {
    let arity = fields.len();
    let null_bits = null_bits_bytes(arity);
    let fixed = null_bits + 8 * arity;
    let mut children: Vec<Children<'a>> = fields
        .iter()
        .map(|f| Children::new(f, format!("{name}.{}", f.name()), cells.len()))
        .collect();
    let mut nulls = NullBufferBuilder::new(cells.len());
    for i in 0..cells.len() {
        let c = cells.cell(i);
        nulls.append(!c.null);
        if c.null {
            for child in &mut children {
                child.push(Cell::null(c.row))?;
            }
            continue;
        }
        let bytes = c.sized(name)?;
        if bytes.len() < fixed {
            return Err(Error::InvalidHandoff(format!(
                "field `{name}`, binary row {}: a nested row of {} bytes, shorter than the {fixed} of its \
                 header, null bits and {arity} fixed-length slots",
                c.row,
                bytes.len()
            )));
        }
        for (f, child) in children.iter_mut().enumerate() {
            let bit = f + HEADER_BITS;
            let at = null_bits + 8 * f;
            let mut slot = [0; 8];
            slot.copy_from_slice(&bytes[at..at + 8]);
            child.push(Cell {
                base: bytes,
                slot,
                null: bytes[bit / 8] & (1 << (bit % 8)) != 0,
                row: c.row,
            })?;
        }
    }
    let columns = fields
        .iter()
        .zip(children)
        .map(|(f, child)| child.finish(f, null_keys, |i| cells.cell(i).row))
        .collect::<Result<Vec<_>>>()?;
    let rows =
        StructArray::try_new_with_length(fields.clone(), columns, nulls.finish(), cells.len())
            .map_err(|e| arrow_error(name, e))?;
    Ok(Arc::new(rows))
}

/// A MAP or MULTISET column: a Map of `entries` (a Struct of key and value).
fn map<'a, C: Cells<'a> + ?Sized>(
    entries: &FieldRef,
    sorted: bool,
    name: &str,
    cells: &C,
    null_keys: NullKeys<'a>,
) -> Result<ArrayRef> {
    let DataType::Struct(kv) = entries.data_type() else {
        return Err(Error::InvalidHandoff(format!(
            "field `{name}`: map entries of type {}, not a Struct of key and value",
            entries.data_type()
        )));
    };
    if kv.len() != 2 {
        return Err(Error::InvalidHandoff(format!(
            "field `{name}`: map entries of {} fields, not key and value",
            kv.len()
        )));
    }
    let (key_width, value_width) = (
        element_width(kv[0].data_type()),
        element_width(kv[1].data_type()),
    );
    // Sized for two entries a row (a guess; they grow by doubling beyond).
    let (mut keys, mut values) = (
        Children::new(&kv[0], format!("{name}{{}}"), 2 * cells.len()),
        Children::new(&kv[1], format!("{name}{{}}"), 2 * cells.len()),
    );
    // One map's keys and values, as read (before `null_keys` applies).
    let (mut map_keys, mut map_values) = (Vec::new(), Vec::new());
    let mut offsets = Vec::with_capacity(cells.len() + 1);
    offsets.push(0i32);
    let mut nulls = NullBufferBuilder::new(cells.len());
    for i in 0..cells.len() {
        let c = cells.cell(i);
        nulls.append(!c.null);
        if !c.null {
            let bytes = c.sized(name)?;
            let key_bytes = leading_int(bytes)
                .and_then(|size| usize::try_from(size).ok())
                .filter(|&size| size <= bytes.len() - 4)
                .ok_or_else(|| {
                    Error::InvalidHandoff(format!(
                        "field `{name}`, binary row {}: a map of {} bytes whose key array does not fit",
                        c.row,
                        bytes.len()
                    ))
                })?;
            map_keys.clear();
            map_values.clear();
            let n = array_elements(&bytes[4..4 + key_bytes], key_width, name, c.row, |k| {
                map_keys.push(k);
                Ok(())
            })?;
            let m = array_elements(&bytes[4 + key_bytes..], value_width, name, c.row, |v| {
                map_values.push(v);
                Ok(())
            })?;
            if n != m {
                return Err(Error::InvalidHandoff(format!(
                    "field `{name}`, binary row {}: a map of {n} keys and {m} values",
                    c.row
                )));
            }
            if map_keys.iter().any(|k| k.null) {
                null_keys.apply(name, c.row, &mut map_keys, &mut map_values)?;
            }
            keys.extend(&map_keys)?;
            values.extend(&map_values)?;
        }
        offsets.push(child_end(keys.len(), name, c.row)?);
    }
    let row = |i| parent_row(cells, &offsets, i);
    let key_column = keys.finish(&kv[0], null_keys, row)?;
    let value_column = values.finish(&kv[1], null_keys, row)?;
    let entries_array = StructArray::try_new(kv.clone(), vec![key_column, value_column], None)
        .map_err(|e| arrow_error(name, e))?;
    let map = MapArray::try_new(
        entries.clone(),
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        entries_array,
        nulls.finish(),
        sorted,
    )
    .map_err(|e| arrow_error(name, e))?;
    Ok(Arc::new(map))
}

/// The error for the first non-null value of a string column that is not valid UTF-8; `row` gives the batch
/// row of value `i`.
fn first_invalid_utf8(
    name: &str,
    offsets: &OffsetBuffer<i32>,
    values: &[u8],
    nulls: Option<&NullBuffer>,
    row: impl Fn(usize) -> usize,
) -> Error {
    for (i, pair) in offsets.windows(2).enumerate() {
        if nulls.is_some_and(|n| n.is_null(i)) {
            continue;
        }
        let value = &values[pair[0] as usize..pair[1] as usize];
        if let Err(e) = std::str::from_utf8(value) {
            let at = e.valid_up_to();
            return invalid_value(
                name,
                row(i),
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
        import_with(fields, arity, rows, NullKeys::Refuse)
    }

    fn import_with(
        fields: &[Arc<Field>],
        arity: usize,
        rows: &[&[u8]],
        null_keys: NullKeys<'_>,
    ) -> Result<Vec<ArrayRef>> {
        let (data, offsets) = batch(rows);
        import_columns(fields, arity, &data, &offsets, rows.len(), 0, null_keys)
    }

    /// Flink 2.2.1's `BinaryRowWriter` over a row of kind `+U`: BIGINT -42, STRING "héllo" (6 bytes,
    /// inline), STRING "a string longer than 7", DECIMAL(10, 2) -12345.67, DECIMAL(38, 6)
    /// -123456789012345678901234.567890, TIMESTAMP(3) 1700000000123 ms, TIMESTAMP(9) -1 ms + 999999 ns,
    /// BOOLEAN true, INT null (`writeLong`, `writeString`, `writeDecimal`, `writeTimestamp`, `writeBoolean`,
    /// `setNullAt`, `complete`; the bytes of `getSegments()[0]` from `getOffset()`, `getSizeInBytes()` long).
    const FLINK_ROW: &str = include_str!("../../tests/data/flink_binary_row.hex");

    fn hex(text: &str) -> Vec<u8> {
        let text = text.trim_end();
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
            let message = import_columns(&fields, 1, &data, &offsets, 2, 0, NullKeys::Refuse)
                .expect_err("bad offsets")
                .to_string();
            assert_mentions(&message, &[row, "offsets"]);
        }
        let count = import_columns(&fields, 1, &data, &[0, 16], 2, 0, NullKeys::Refuse)
            .expect_err("too few");
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

    /// Flink 2.2.1's `RowDataSerializer.toBinaryRow` of a `+U` row of nested columns (the bytes of
    /// `getSegments()[0]` from `getOffset()`), made from this `GenericRowData`:
    /// `ints ARRAY<INT>` [1, null, -3]; `tags ARRAY<STRING>` ["short", null, "a string longer than 7"];
    /// `attrs MAP<STRING, BIGINT>` {"k": 1, "a longer key": null}; `point ROW<x DOUBLE, label STRING,
    /// ts TIMESTAMP(9)>` (-0.5, "p", -1 ms + 999,999 ns); `bag MULTISET<STRING>` {"x": 2};
    /// `rows ARRAY<ROW<a INT>>` [(5), null]; `lists MAP<STRING, ARRAY<BIGINT>>` {"l": [7, null, -8]};
    /// `flags ARRAY<BOOLEAN>` [true, false, null]; `shorts ARRAY<SMALLINT>` [-2, null];
    /// `decs ARRAY<DECIMAL(38, 2)>` [-12345678901234567890.12]; `empty ARRAY<INT>` []; `none ROW<y INT>` null.
    const FLINK_NESTED_ROW: &str = include_str!("../../tests/data/flink_binary_row_nested.hex");

    fn list_of(item: DataType) -> DataType {
        DataType::List(Arc::new(Field::new("element", item, true)))
    }

    fn map_of(key: DataType, value: DataType) -> DataType {
        let entries = Field::new(
            "entries",
            DataType::Struct(
                vec![
                    Field::new("key", key, false),
                    Field::new("value", value, true),
                ]
                .into(),
            ),
            false,
        );
        DataType::Map(Arc::new(entries), false)
    }

    fn struct_of(fields: &[(&str, DataType)]) -> DataType {
        DataType::Struct(
            fields
                .iter()
                .map(|(name, t)| Field::new(*name, t.clone(), true))
                .collect::<Vec<_>>()
                .into(),
        )
    }

    /// The Arrow schema `FlinkArrowTypes` gives the row type of [`FLINK_NESTED_ROW`].
    fn nested_fields() -> Vec<Arc<Field>> {
        vec![
            field("ints", list_of(DataType::Int32)),
            field("tags", list_of(DataType::Utf8)),
            field("attrs", map_of(DataType::Utf8, DataType::Int64)),
            field(
                "point",
                struct_of(&[
                    ("x", DataType::Float64),
                    ("label", DataType::Utf8),
                    ("ts", DataType::Timestamp(TimeUnit::Nanosecond, None)),
                ]),
            ),
            field("bag", map_of(DataType::Utf8, DataType::Int32)),
            field("rows", list_of(struct_of(&[("a", DataType::Int32)]))),
            field("lists", map_of(DataType::Utf8, list_of(DataType::Int64))),
            field("flags", list_of(DataType::Boolean)),
            field("shorts", list_of(DataType::Int16)),
            field("decs", list_of(DataType::Decimal128(38, 2))),
            field("empty", list_of(DataType::Int32)),
            field("none", struct_of(&[("y", DataType::Int32)])),
        ]
    }

    #[test]
    fn nested_columns_written_by_flink_decode_to_their_values() {
        let row = hex(FLINK_NESTED_ROW);
        let fields = nested_fields();
        let columns = import(&fields, fields.len(), &[&row, &row]).expect("import");
        let ints = columns[0].as_list::<i32>().value(1);
        let ints = ints.as_primitive::<Int32Type>();
        assert_eq!(
            (ints.len(), ints.value(0), ints.is_null(1), ints.value(2)),
            (3, 1, true, -3)
        );
        let tags = columns[1].as_list::<i32>().value(0);
        let tags = tags.as_string::<i32>();
        assert_eq!(tags.value(0), "short");
        assert!(tags.is_null(1));
        assert_eq!(tags.value(2), "a string longer than 7");
        let attrs = columns[2].as_map().value(0);
        assert_eq!(attrs.column(0).as_string::<i32>().value(0), "k");
        assert_eq!(attrs.column(0).as_string::<i32>().value(1), "a longer key");
        assert_eq!(attrs.column(1).as_primitive::<Int64Type>().value(0), 1);
        assert!(attrs.column(1).is_null(1));
        let point = columns[3].as_struct();
        assert_eq!(point.column(0).as_primitive::<Float64Type>().value(1), -0.5);
        assert_eq!(point.column(1).as_string::<i32>().value(1), "p");
        assert_eq!(
            point
                .column(2)
                .as_primitive::<TimestampNanosecondType>()
                .value(1),
            -1_000_000 + 999_999
        );
        let bag = columns[4].as_map().value(1);
        assert_eq!(bag.column(0).as_string::<i32>().value(0), "x");
        assert_eq!(bag.column(1).as_primitive::<Int32Type>().value(0), 2);
        let rows = columns[5].as_list::<i32>().value(0);
        let rows = rows.as_struct();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows.column(0).as_primitive::<Int32Type>().value(0), 5);
        assert!(rows.is_null(1));
        let lists = columns[6].as_map().value(0);
        assert_eq!(lists.column(0).as_string::<i32>().value(0), "l");
        let longs = lists.column(1).as_list::<i32>().value(0);
        let longs = longs.as_primitive::<Int64Type>();
        assert_eq!(
            (
                longs.len(),
                longs.value(0),
                longs.is_null(1),
                longs.value(2)
            ),
            (3, 7, true, -8)
        );
        let flags = columns[7].as_list::<i32>().value(0);
        let flags = flags.as_boolean();
        assert_eq!(
            (flags.value(0), flags.value(1), flags.is_null(2)),
            (true, false, true)
        );
        let shorts = columns[8].as_list::<i32>().value(0);
        let shorts = shorts.as_primitive::<Int16Type>();
        assert_eq!((shorts.value(0), shorts.is_null(1)), (-2, true));
        let decs = columns[9].as_list::<i32>().value(0);
        assert_eq!(
            decs.as_primitive::<Decimal128Type>().value(0),
            -1_234_567_890_123_456_789_012
        );
        assert_eq!(columns[10].as_list::<i32>().value(0).len(), 0);
        assert!(!columns[10].is_null(0));
        assert!(columns[11].is_null(0) && columns[11].is_null(1));
        for (f, column) in columns.iter().enumerate() {
            assert_eq!(column.len(), 2, "field {f}");
            assert_eq!(column.data_type(), fields[f].data_type(), "field {f}");
        }
    }

    /// The keys and values of map `i` of a MAP<STRING, BIGINT> column, as text.
    fn entries(column: &ArrayRef, i: usize) -> Vec<(String, Option<i64>)> {
        let map = column.as_map().value(i);
        let (keys, values) = (
            map.column(0).as_string::<i32>(),
            map.column(1).as_primitive::<Int64Type>(),
        );
        (0..map.len())
            .map(|j| {
                (
                    keys.value(j).to_owned(),
                    values.is_valid(j).then(|| values.value(j)),
                )
            })
            .collect()
    }

    #[test]
    fn a_null_map_key_is_read_as_map_null_key_mode_says() {
        let fields = nested_fields();
        let flink = hex(FLINK_NESTED_ROW);
        let null_bits = null_bits_bytes(fields.len());
        let attrs_word = u64::from_le_bytes(
            flink[null_bits + 16..null_bits + 24]
                .try_into()
                .expect("8 bytes"),
        );
        // `attrs` {"k": 1, "a longer key": null} with its second key null (bit 1 of the key array's null bits,
        // after the map's key-array size and the key array's count), then the row as Flink wrote it.
        let mut row = flink.clone();
        let keys = (attrs_word >> 32) as usize + 4;
        row[keys + 4] |= 2;
        let rows: [&[u8]; 2] = [&row, &flink];
        let whole = vec![("k".to_owned(), Some(1)), ("a longer key".to_owned(), None)];

        let dropped = import_with(&fields, fields.len(), &rows, NullKeys::Drop).expect("DROP");
        assert_eq!(entries(&dropped[2], 0), [("k".to_owned(), Some(1))]);
        assert_eq!(entries(&dropped[2], 1), whole);

        let literal =
            import_with(&fields, fields.len(), &rows, NullKeys::Literal("nil")).expect("LITERAL");
        assert_eq!(
            entries(&literal[2], 0),
            [("k".to_owned(), Some(1)), ("nil".to_owned(), None)]
        );
        assert_eq!(entries(&literal[2], 1), whole);
        // The other columns are untouched.
        for columns in [&dropped, &literal] {
            assert_eq!(columns[4].as_map().value(0).len(), 1);
            assert_eq!(columns[6].as_map().value(1).len(), 1);
        }

        let failure =
            import_with(&fields, fields.len(), &rows[..1], NullKeys::Fail).expect_err("FAIL");
        assert!(
            matches!(&failure, Error::NullMapKey { field, row: 0 } if field == "attrs"),
            "{failure}"
        );
        assert_mentions(
            &failure.to_string(),
            &[
                "field `attrs`, row 0",
                "JSON format doesn't support to serialize map data with null keys",
            ],
        );

        // The encoder's options give the mode: the value row's, unless the key row has another.
        let options = |pairs: &[(&str, &str)]| {
            EncoderOptions::from_pairs(pairs.iter().copied()).expect("options")
        };
        let drop = options(&[("map-null-key.mode", "DROP")]);
        assert_eq!(NullKeys::of(&drop), NullKeys::Drop);
        assert_eq!(NullKeys::of(&EncoderOptions::default()), NullKeys::Fail);
        let literal = options(&[
            ("map-null-key.mode", "LITERAL"),
            ("map-null-key.literal", "nil"),
            ("key.fields", "id"),
            ("key.map-null-key.mode", "LITERAL"),
        ]);
        assert_eq!(NullKeys::of(&literal), NullKeys::Literal("nil"));
        let differing = options(&[("key.fields", "id"), ("key.map-null-key.mode", "DROP")]);
        assert_eq!(NullKeys::of(&differing), NullKeys::Refuse);
        let keyless = options(&[("key.map-null-key.mode", "DROP")]);
        assert_eq!(NullKeys::of(&keyless), NullKeys::Fail);
    }

    #[test]
    fn invalid_utf8_in_nested_values_names_the_path_and_the_batch_row() {
        let fields = nested_fields();
        let flink = hex(FLINK_NESTED_ROW);
        let null_bits = null_bits_bytes(fields.len());
        let at = |f: usize| {
            let word = u64::from_le_bytes(
                flink[null_bits + 8 * f..null_bits + 8 * f + 8]
                    .try_into()
                    .expect("8 bytes"),
            );
            (word >> 32) as usize
        };
        let find = |text: &[u8]| {
            flink
                .windows(text.len())
                .position(|w| w == text)
                .expect("the text is in Flink's row")
        };
        // Row 0: `tags`, `attrs` and `point` null. Row 1: Flink's, with the second key of `attrs` null, which DROP
        // leaves out. So the rows' first child values are 0, 0 and 3 (`tags`) or 0, 0 and 1 (`attrs`): a value's
        // row is found past a null parent and a shorter map, not by counting.
        let mut nulled = flink.clone();
        for f in [1, 2, 3] {
            let bit = f + HEADER_BITS;
            nulled[bit / 8] |= 1 << (bit % 8);
        }
        let mut dropped = flink.clone();
        dropped[at(2) + 4 + 4] |= 2;
        // Array elements (the first, inline in its slot, and the last, in the array's variable-length part), a
        // map key, and a nested row's inline string (`point.label`, "p": slot 1 of the 3-field row, after its 8
        // bytes of null bits), each made invalid in row 2.
        for (byte, path) in [
            (find(b"short"), "tags[]"),
            (find(b"a string longer than 7"), "tags[]"),
            (find(b"a longer key"), "attrs{}"),
            (at(3) + 8 + 8, "point.label"),
        ] {
            let mut bad = flink.clone();
            bad[byte] = 0xff;
            let rows: [&[u8]; 3] = [&nulled, &dropped, &bad];
            let failure =
                import_with(&fields, fields.len(), &rows, NullKeys::Drop).expect_err(path);
            assert!(
                matches!(&failure, Error::InvalidValue { field, row: 2, .. } if field == path),
                "{path}: {failure}"
            );
            assert_mentions(&failure.to_string(), &["not valid UTF-8", "0xff"]);
        }
        // Valid, the same rows import, the dropped entry absent.
        let columns = import_with(
            &fields,
            fields.len(),
            &[&nulled, &dropped, &flink],
            NullKeys::Drop,
        )
        .expect("import");
        assert!(columns[1].is_null(0) && columns[2].is_null(0) && columns[3].is_null(0));
        assert_eq!(entries(&columns[2], 1), [("k".to_owned(), Some(1))]);
        assert_eq!(entries(&columns[2], 2).len(), 2);
    }

    #[test]
    fn corrupt_nested_values_are_errors_naming_their_path() {
        let fields = nested_fields();
        let flink = hex(FLINK_NESTED_ROW);
        let null_bits = null_bits_bytes(fields.len());
        let word = |row: &[u8], f: usize| {
            u64::from_le_bytes(
                row[null_bits + 8 * f..null_bits + 8 * f + 8]
                    .try_into()
                    .unwrap(),
            )
        };
        let at = |row: &[u8], f: usize| (word(row, f) >> 32) as usize;
        // An array whose count overruns it.
        let mut row = flink.clone();
        let ints = at(&row, 0);
        row[ints..ints + 4].copy_from_slice(&1000i32.to_le_bytes());
        assert_mentions(
            &error(&fields, fields.len(), &[&row]),
            &["field `ints`", "binary row 0", "1000 elements"],
        );
        // A negative count.
        row[ints..ints + 4].copy_from_slice(&(-1i32).to_le_bytes());
        assert_mentions(&error(&fields, fields.len(), &[&row]), &["-1 elements"]);
        // A string element pointing outside its array.
        let mut row = flink.clone();
        let tags = at(&row, 1);
        let element = tags + 8 + 8 * 2;
        let long = u64::from_le_bytes(row[element..element + 8].try_into().unwrap());
        row[element..element + 8]
            .copy_from_slice(&((long & 0xffff_ffff) | 4096 << 32).to_le_bytes());
        assert_mentions(
            &error(&fields, fields.len(), &[&row]),
            &["field `tags[]`", "outside the row (or nested array)"],
        );
        // A map whose key array is larger than the map.
        let mut row = flink.clone();
        let attrs = at(&row, 2);
        row[attrs..attrs + 4].copy_from_slice(&10_000i32.to_le_bytes());
        assert_mentions(
            &error(&fields, fields.len(), &[&row]),
            &["field `attrs`", "key array does not fit"],
        );
        // A null map key.
        let mut row = flink.clone();
        let keys = attrs + 4;
        row[keys + 4] |= 1;
        let failure = import(&fields, fields.len(), &[&row]).expect_err("null key");
        assert!(
            matches!(failure, Error::InvalidValue { row: 0, .. }),
            "{failure}"
        );
        assert_mentions(&failure.to_string(), &["field `attrs`", "null map key"]);
        // A nested row shorter than its fixed part.
        let mut row = flink.clone();
        let point = null_bits + 8 * 3;
        let size = 8u64;
        let shrunk = (word(&row, 3) & !0xffff_ffff) | size;
        row[point..point + 8].copy_from_slice(&shrunk.to_le_bytes());
        assert_mentions(
            &error(&fields, fields.len(), &[&row]),
            &["field `point`", "a nested row of 8 bytes"],
        );
        // A nested row's non-compact timestamp with its nanoseconds out of range.
        let mut row = flink.clone();
        let nested = at(&row, 3);
        let ts = nested + null_bits_bytes(3) + 8 * 2;
        let ts_word = u64::from_le_bytes(row[ts..ts + 8].try_into().unwrap());
        row[ts..ts + 8].copy_from_slice(&((ts_word & !0xffff_ffff) | 1_000_000).to_le_bytes());
        let failure = import(&fields, fields.len(), &[&row]).expect_err("bad nanos");
        assert!(
            matches!(failure, Error::InvalidValue { row: 0, .. }),
            "{failure}"
        );
        assert_mentions(
            &failure.to_string(),
            &["field `point.ts`", "outside 0..999999"],
        );
        // Every truncation of the row, and every byte of it changed, is an error or a batch, never a panic (not
        // under Miri, for time: these look for panics, which the plain run finds).
        if cfg!(miri) {
            return;
        }
        for len in 0..flink.len() {
            let _ = import(&fields, fields.len(), &[&flink[..len]]);
        }
        for at in 0..flink.len() {
            for value in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                let mut row = flink.clone();
                row[at] = value;
                let _ = import(&fields, fields.len(), &[&row]);
            }
        }
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
        let large = [field("l", DataType::LargeUtf8)];
        assert_mentions(
            &error(&large, 1, &[&row]),
            &["field `l`", "cannot cross as a binary row"],
        );
    }
}
