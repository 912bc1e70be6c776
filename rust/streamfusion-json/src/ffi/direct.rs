//! Flink binary rows written as Flink's JSON straight from their bytes, without the Arrow columns in between.
//!
//! The Arrow import ([`super::binary_row`]) reads every row once per column and writes every value into an
//! Arrow buffer, which the row writer then reads back: on rows with nested columns that import was 40% of a
//! batch. This writer reads each row once, field after field, and writes its JSON as it reads (the layout is
//! the one [`super::binary_row`] describes).
//!
//! It covers the types most Kafka JSON tables have, at any depth: BOOLEAN, TINYINT to BIGINT, FLOAT, DOUBLE,
//! CHAR/VARCHAR/STRING, TIMESTAMP(0..3) and TIMESTAMP_LTZ(0..3) (the compact ones), ARRAY, MAP<STRING, V> and
//! MULTISET<STRING>, and ROW. A schema with any other type ([`DirectPlan::new`] gives `None`), or a run of rows
//! with anything irregular in it ([`DirectPlan::write`] declines: a row or value that does not fit its bytes, a
//! string that is not UTF-8, a null map key, a map with a repeated key or more than 16 entries, a row kind
//! outside 0 to 3 where row kinds make tombstones), is left to the Arrow import. That path stays the reference
//! for everything this one declines: it applies `map-null-key.mode`, merges repeated keys as Flink's
//! `ObjectNode` does, and reports each fault with its error. So both paths give the same records and the same
//! errors for every batch, which the tests check on random batches and the `binary_rows` fuzz target on
//! arbitrary bytes. A deleted row's value (a tombstone) is read and dropped, since the Arrow import reads it
//! too; a schema with a field declared not null is left to the Arrow path, which checks it.
//!
//! The JSON text of each value is the one the Arrow path's encoders write ([`crate::flink::encode`]), from the
//! same functions: `write_i64` (`Long.toString`), the JDK's float digits, Jackson's string escapes,
//! [`TimestampWriter`].

use std::str;

use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};

use super::binary_row::{element_width, leading_int};
use crate::binary_format::{null_bits_bytes, HEADER_BITS, INLINE_MARK, MAX_INLINE};
use crate::escape::{write_jackson_str, write_plain_ascii};
use crate::flink::encode::temporal::seconds_of;
use crate::flink::float::{write_f32, write_f64};
use crate::flink::float_jdk17::{write_f32_jdk17, write_f64_jdk17};
use crate::flink::plan::{RowPlan, Ty, TypeOptions};
use crate::flink::temporal::TimestampWriter;
use crate::options::JavaFloatDigits;
use crate::out::{write_i64, Padded};
use crate::records::{EncodedRecords, MAX_SLAB};

/// How one value is read from its fixed-length part (a row's slot or an array element, zero-extended to 8
/// bytes) and written.
#[derive(Debug, Clone)]
enum Kind {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    F32(JavaFloatDigits),
    F64(JavaFloatDigits),
    Str,
    /// A compact TIMESTAMP (`ltz`: TIMESTAMP_LTZ): epoch milliseconds in the slot.
    Timestamp {
        ltz: bool,
    },
    /// ARRAY: the element kind and its width in the array (`BinaryArrayData.calculateFixLengthPartSize`).
    List(Box<Kind>, usize),
    /// MAP<STRING, V> or MULTISET<STRING>: the value kind and its width.
    Map(Box<Kind>, usize),
    Row(DirectRow),
}

/// A ROW's fields as they are written.
#[derive(Debug, Clone)]
struct DirectRow {
    fields: Vec<DirectField>,
    /// The fields' count in the binary row (its null bits and slots).
    arity: usize,
    ignore_nulls: bool,
    /// Between a timestamp's date and time (`timestamp-format.standard`), the same at every depth.
    separator: u8,
}

#[derive(Debug, Clone)]
struct DirectField {
    /// `,"name":`.
    name: Padded,
    /// The field's index in the binary row.
    slot: usize,
    kind: Kind,
}

impl Kind {
    /// The kind of a value planned as `ty` whose Arrow type (what the Arrow import would make) is `data_type`;
    /// `None` for a type this writer does not cover, or a nested field declared not null (all of Flink's are
    /// nullable).
    fn of(ty: &Ty, data_type: &DataType, o: &TypeOptions) -> Option<Self> {
        Some(match (ty, data_type) {
            (Ty::Bool, DataType::Boolean) => Kind::Bool,
            (Ty::Int, DataType::Int8) => Kind::Int8,
            (Ty::Int, DataType::Int16) => Kind::Int16,
            (Ty::Int, DataType::Int32) => Kind::Int32,
            (Ty::Int, DataType::Int64) => Kind::Int64,
            (Ty::F32(digits), DataType::Float32) => Kind::F32(*digits),
            (Ty::F64(digits), DataType::Float64) => Kind::F64(*digits),
            (Ty::Str, DataType::Utf8) => Kind::Str,
            (
                Ty::Timestamp {
                    unit: TimeUnit::Millisecond,
                    ltz,
                },
                DataType::Timestamp(TimeUnit::Millisecond, _),
            ) => Kind::Timestamp { ltz: *ltz },
            (Ty::List(element), DataType::List(item)) if item.is_nullable() => Kind::List(
                Box::new(Kind::of(element, item.data_type(), o)?),
                element_width(item.data_type()),
            ),
            (Ty::Map(value), DataType::Map(entries, _)) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    return None;
                };
                // The shape the JVM front end sends (`FlinkArrowTypes`), the one Arrow's map takes whatever
                // the values: entries and keys not null, values nullable.
                if kv.len() != 2
                    || entries.is_nullable()
                    || kv[0].is_nullable()
                    || kv[0].data_type() != &DataType::Utf8
                    || !kv[1].is_nullable()
                {
                    return None;
                }
                Kind::Map(
                    Box::new(Kind::of(value, kv[1].data_type(), o)?),
                    element_width(kv[1].data_type()),
                )
            }
            (Ty::Row(plan), DataType::Struct(fields)) => {
                Kind::Row(DirectRow::of(plan, fields_in_order(fields), o)?)
            }
            _ => return None,
        })
    }
}

/// A struct's fields with their index, which is their slot in the nested binary row.
fn fields_in_order(fields: &Fields) -> Vec<(usize, &Field)> {
    fields.iter().map(|f| f.as_ref()).enumerate().collect()
}

impl DirectRow {
    /// The row of `plan`'s fields, which are the binary row's `fields` (slot and Arrow field) in that order;
    /// `None` when a field has a type this writer does not cover.
    fn of(plan: &RowPlan, fields: Vec<(usize, &Field)>, o: &TypeOptions) -> Option<Self> {
        let arity = fields.len();
        Self::projected(plan, fields, arity, o)
    }

    /// As [`DirectRow::of`] for a projection of a binary row of `arity` fields.
    fn projected(
        plan: &RowPlan,
        fields: Vec<(usize, &Field)>,
        arity: usize,
        o: &TypeOptions,
    ) -> Option<Self> {
        let fields = plan
            .fields
            .iter()
            .zip(fields)
            .map(|(f, (slot, field))| {
                // A field that cannot be null would make the Arrow path check for nulls (an error when one
                // is): left to it.
                (slot < arity && field.is_nullable()).then_some(())?;
                Some(DirectField {
                    name: f.name.clone(),
                    slot,
                    kind: Kind::of(&f.ty, field.data_type(), o)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(DirectRow {
            fields,
            arity,
            ignore_nulls: o.ignore_null_fields,
            separator: o.timestamp_separator,
        })
    }
}

/// The key and value rows of a Flink-mode plan, written straight from binary rows of a fixed arity.
#[derive(Debug)]
pub(super) struct DirectPlan {
    key: Option<DirectRow>,
    value: DirectRow,
    /// Whether the records' tombstones follow the row kind (`changelog.row-kind-column` names the row-kind
    /// column the binary rows' header fills).
    tombstones: bool,
    arity: usize,
}

/// What the Flink-mode plan of a schema says, as [`DirectPlan::new`] reads it.
pub(crate) struct FlinkPlan<'a> {
    pub(crate) schema: &'a Schema,
    /// Key row: column indices (the plan's key fields in order) and the key row's plan and options.
    pub(crate) key: Option<(Vec<usize>, &'a RowPlan, &'a TypeOptions)>,
    pub(crate) value: (Vec<usize>, &'a RowPlan, &'a TypeOptions),
    /// The row-kind column's index, if any.
    pub(crate) row_kind: Option<usize>,
}

impl DirectPlan {
    /// The direct writing of `plan` for binary rows of `arity` fields; `None` when a key or value field has a
    /// type this writer does not cover, or the row-kind column is not the one the rows' header fills (the
    /// last column, after the `arity` fields).
    pub(super) fn new(plan: &FlinkPlan<'_>, arity: usize) -> Option<Self> {
        let row = |(columns, row, o): &(Vec<usize>, &RowPlan, &TypeOptions)| {
            let fields = columns.iter().map(|&i| (i, plan.schema.field(i))).collect();
            DirectRow::projected(row, fields, arity, o)
        };
        // The Arrow import reads every field of the rows (and fails on one it cannot read): so must this
        // writer, which reads only the key and value fields.
        let fields = plan.schema.fields().len();
        let read = |i: usize| {
            plan.value.0.contains(&i) || plan.key.as_ref().is_some_and(|k| k.0.contains(&i))
        };
        if !(fields == arity || fields == arity + 1) || !(0..arity).all(read) {
            return None;
        }
        let tombstones = match plan.row_kind {
            None => false,
            Some(i) if i == arity && plan.schema.field(i).data_type() == &DataType::Int8 => true,
            Some(_) => return None,
        };
        Some(DirectPlan {
            key: match &plan.key {
                Some(key) => Some(row(key)?),
                None => None,
            },
            value: row(&plan.value)?,
            tombstones,
            arity,
        })
    }

    /// Appends the records of the binary rows `data[offsets[i]..offsets[i + 1]]` to `out`; false, with `out` as
    /// it was, when the rows have anything this writer leaves to the Arrow import (see the module doc).
    pub(super) fn write(&self, data: &[u8], offsets: &[i32], out: &mut EncodedRecords) -> bool {
        let mark = out.mark();
        let mut key_writer = self.key.as_ref().map(Writer::new);
        let mut value_writer = Writer::new(&self.value);
        let fixed = null_bits_bytes(self.arity) + 8 * self.arity;
        let ok = std::cell::Cell::new(true);
        let (mut scratch, mut dropped) = (Vec::new(), 0usize);
        for pair in offsets.windows(2) {
            let row = usize::try_from(pair[0])
                .ok()
                .zip(usize::try_from(pair[1]).ok())
                .and_then(|(s, e)| data.get(s..e))
                .filter(|row| row.len() >= fixed);
            let Some(row) = row else {
                ok.set(false);
                break;
            };
            let tombstone = match row[0] {
                0 | 2 => false,
                1 | 3 => self.tombstones,
                _ if !self.tombstones => false,
                _ => {
                    ok.set(false);
                    break;
                }
            };
            let written = out.write_row(
                self.key
                    .as_ref()
                    .zip(key_writer.as_mut())
                    .map(|(key, writer)| {
                        |slab: &mut Vec<u8>| {
                            if writer.row(key, row, slab).is_none() {
                                ok.set(false);
                            }
                        }
                    }),
                (!tombstone).then_some(|slab: &mut Vec<u8>| {
                    if value_writer.row(&self.value, row, slab).is_none() {
                        ok.set(false);
                    }
                }),
            );
            if written.is_err() || !ok.get() {
                ok.set(false);
                break;
            }
            if tombstone {
                // The Arrow import reads a tombstone's fields too (and fails on a fault in them): so written
                // and dropped, their bytes counted against the 2 GiB an Arrow column can hold.
                scratch.clear();
                if value_writer.row(&self.value, row, &mut scratch).is_none() {
                    ok.set(false);
                    break;
                }
                dropped = dropped.saturating_add(scratch.len());
                if dropped > MAX_SLAB {
                    ok.set(false);
                    break;
                }
            }
        }
        if !ok.get() {
            out.truncate(mark);
        }
        ok.get()
    }
}

/// One row plan's writing state over a run: its timestamp writers (each with its cached date), without and with
/// the zone suffix of TIMESTAMP_LTZ.
struct Writer {
    timestamps: [TimestampWriter; 2],
}

impl Writer {
    fn new(row: &DirectRow) -> Self {
        Writer {
            timestamps: [false, true].map(|ltz| TimestampWriter::new(row.separator, ltz)),
        }
    }

    /// Writes the binary row `row` (its fixed part checked to be inside it) as the JSON object of `plan`'s
    /// fields; `None` when a value does not fit its bytes or is irregular.
    fn row(&mut self, plan: &DirectRow, row: &[u8], out: &mut Vec<u8>) -> Option<()> {
        let null_bits = null_bits_bytes(plan.arity);
        let start = out.len();
        for f in &plan.fields {
            let bit = f.slot + HEADER_BITS;
            if row[bit / 8] & (1 << (bit % 8)) != 0 {
                if !plan.ignore_nulls {
                    f.name.append(out, 0);
                    out.extend_from_slice(b"null");
                }
                continue;
            }
            f.name.append(out, 0);
            let at = null_bits + 8 * f.slot;
            let word = u64::from_le_bytes(row[at..at + 8].try_into().expect("8 bytes"));
            self.value(&f.kind, row, word, out)?;
        }
        if out.len() == start {
            out.push(b'{');
        } else {
            out[start] = b'{';
        }
        out.push(b'}');
        Some(())
    }

    /// Writes the non-null value whose fixed-length part is `word`, inside `base` (the row or array that
    /// holds it, where its offsets point).
    fn value(&mut self, kind: &Kind, base: &[u8], word: u64, out: &mut Vec<u8>) -> Option<()> {
        match kind {
            Kind::Bool => out.extend_from_slice(if word as u8 != 0 { b"true" } else { b"false" }),
            Kind::Int8 => write_i64(out, i64::from(word as u8 as i8)),
            Kind::Int16 => write_i64(out, i64::from(word as u16 as i16)),
            Kind::Int32 => write_i64(out, i64::from(word as u32 as i32)),
            Kind::Int64 => write_i64(out, word as i64),
            Kind::F32(JavaFloatDigits::Jdk19) => write_f32(out, f32::from_bits(word as u32)),
            Kind::F32(JavaFloatDigits::Jdk17) => write_f32_jdk17(out, f32::from_bits(word as u32)),
            Kind::F64(JavaFloatDigits::Jdk19) => write_f64(out, f64::from_bits(word)),
            Kind::F64(JavaFloatDigits::Jdk17) => write_f64_jdk17(out, f64::from_bits(word)),
            Kind::Str => {
                // Strings may share their bytes (several slots pointing at the same ones): past a slab's
                // limit the run is left to the Arrow path (which fails it) before the output grows further.
                if out.len() > MAX_SLAB {
                    return None;
                }
                let slot = word.to_le_bytes();
                write_str(out, string_bytes(base, &slot)?)?;
            }
            Kind::Timestamp { ltz, .. } => {
                let (seconds, nanos) = seconds_of(word as i64, 0, *ltz);
                self.timestamps[usize::from(*ltz)].write(out, seconds, nanos);
            }
            Kind::List(element, width) => {
                let array = ArrayView::new(sized(base, word)?, *width)?;
                out.push(b'[');
                for i in 0..array.len {
                    if i > 0 {
                        // Nested arrays may share their bytes too: bounded as strings are.
                        if out.len() > MAX_SLAB {
                            return None;
                        }
                        out.push(b',');
                    }
                    match array.get(i) {
                        Some(w) => self.value(element, array.bytes, w, out)?,
                        None => out.extend_from_slice(b"null"),
                    }
                }
                out.push(b']');
            }
            Kind::Map(value, width) => self.map(value, *width, sized(base, word)?, out)?,
            Kind::Row(row) => {
                let bytes = sized(base, word)?;
                if bytes.len() < null_bits_bytes(row.arity) + 8 * row.arity {
                    return None;
                }
                self.row(row, bytes, out)?;
            }
        }
        Some(())
    }

    /// Writes the `BinaryMapData` in `map` (keys STRING, values of `value` kind `width` bytes wide) as Flink's
    /// `ObjectNode`; `None` for a null or repeated key, or more than [`MAX_ENTRIES`] entries (left to the Arrow
    /// path, which applies `map-null-key.mode` and merges repeated keys).
    fn map(&mut self, value: &Kind, width: usize, map: &[u8], out: &mut Vec<u8>) -> Option<()> {
        let key_bytes = usize::try_from(leading_int(map)?).ok()?;
        let keys = ArrayView::new(map.get(4..4 + key_bytes)?, 8)?;
        let values = ArrayView::new(&map[4 + key_bytes..], width)?;
        if keys.len != values.len || keys.len > MAX_ENTRIES {
            return None;
        }
        let mut slots = [[0u8; 8]; MAX_ENTRIES];
        for (i, slot) in slots.iter_mut().enumerate().take(keys.len) {
            *slot = keys.get(i)?.to_le_bytes();
        }
        let mut texts: [&str; MAX_ENTRIES] = [""; MAX_ENTRIES];
        for i in 0..keys.len {
            let text = str::from_utf8(string_bytes(keys.bytes, &slots[i])?).ok()?;
            if texts[..i].contains(&text) {
                return None;
            }
            texts[i] = text;
        }
        out.push(b'{');
        for (i, text) in texts.iter().enumerate().take(keys.len) {
            if i > 0 {
                out.push(b',');
            }
            write_jackson_str(out, text);
            out.push(b':');
            match values.get(i) {
                Some(w) => self.value(value, values.bytes, w, out)?,
                None => out.extend_from_slice(b"null"),
            }
        }
        out.push(b'}');
        Some(())
    }
}

/// Writes `bytes` as a JSON string as Jackson does; `None` when they are not UTF-8.
#[inline]
fn write_str(out: &mut Vec<u8>, bytes: &[u8]) -> Option<()> {
    if !write_plain_ascii(out, bytes) {
        write_jackson_str(out, str::from_utf8(bytes).ok()?);
    }
    Some(())
}

/// Maps with more entries than this are left to the Arrow path (its hash-map dedupe of repeated keys).
const MAX_ENTRIES: usize = 16;

/// The bytes of a string or binary value whose fixed-length part is `slot`: inline in the slot, or in the
/// variable-length part of `base` (the row or array that holds it); `None` when they do not fit.
fn string_bytes<'a>(base: &'a [u8], slot: &'a [u8; 8]) -> Option<&'a [u8]> {
    let word = u64::from_le_bytes(*slot);
    if word & INLINE_MARK != 0 {
        slot.get(..usize::from(slot[7] & 0x7f))
            .filter(|b| b.len() <= MAX_INLINE)
    } else {
        sized(base, word)
    }
}

/// The value a slot points to, `size` bytes (the slot's low word) at `offset` (its high word) of `base`;
/// `None` when it does not fit.
fn sized(base: &[u8], word: u64) -> Option<&[u8]> {
    let offset = usize::try_from((word >> 32) as u32 as i32).ok()?;
    let size = usize::try_from(word as u32 as i32).ok()?;
    base.get(offset..offset.checked_add(size)?)
}

/// A `BinaryArrayData` whose count, null bits and elements were checked to lie in its bytes.
struct ArrayView<'a> {
    bytes: &'a [u8],
    len: usize,
    width: usize,
    /// Where the elements start, after the count and null bits.
    header: usize,
}

impl<'a> ArrayView<'a> {
    /// The array in `bytes` of elements `width` bytes wide (1, 2, 4 or 8); `None` when its fixed part does not
    /// fit.
    fn new(bytes: &'a [u8], width: usize) -> Option<Self> {
        let len = usize::try_from(leading_int(bytes)?).ok()?;
        let header = 4 + len.div_ceil(32) * 4;
        let end = len.checked_mul(width)?.checked_add(header)?;
        (end <= bytes.len()).then_some(ArrayView {
            bytes,
            len,
            width,
            header,
        })
    }

    /// Element `i < len` zero-extended to 8 bytes, `None` when it is null.
    #[inline]
    fn get(&self, i: usize) -> Option<u64> {
        if self.bytes[4 + i / 8] & (1 << (i % 8)) != 0 {
            return None;
        }
        let at = self.header + i * self.width;
        let b = &self.bytes[at..at + self.width];
        Some(match self.width {
            1 => u64::from(b[0]),
            2 => u64::from(u16::from_le_bytes([b[0], b[1]])),
            4 => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            _ => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::ffi::FFI_ArrowSchema;
    use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};

    use crate::binary_format::{null_bits_bytes, HEADER_BITS, MAX_INLINE};
    use crate::ffi::{Encoder, Handoff};
    use crate::EncoderOptions;

    /// A value of a binary row, written as Flink's `BinaryRowWriter` / `BinaryArrayWriter` write it.
    #[derive(Clone, Debug)]
    enum V {
        Null,
        /// A fixed-length value's bits, zero-extended.
        Bits(u64),
        Str(Vec<u8>),
        List(Vec<V>, usize),
        Map(Vec<V>, Vec<V>, usize),
        Row(Vec<V>),
    }

    /// Writes `values` as a row (`row`: header and 8-byte slots) or an array (element `width` bytes wide) with
    /// its variable-length parts, 8-byte aligned, offsets relative to its first byte.
    fn container(values: &[V], row: Option<u8>, width: usize) -> Vec<u8> {
        let (null_bits, width) = match row {
            Some(_) => (null_bits_bytes(values.len()), 8),
            None => (4 + values.len().div_ceil(32) * 4, width),
        };
        let mut bytes = vec![0u8; (null_bits + width * values.len()).div_ceil(8) * 8];
        match row {
            Some(kind) => bytes[0] = kind,
            None => bytes[..4].copy_from_slice(&(values.len() as i32).to_le_bytes()),
        }
        for (i, v) in values.iter().enumerate() {
            let word = match v {
                V::Null => {
                    let bit = if row.is_some() {
                        i + HEADER_BITS
                    } else {
                        i + 32
                    };
                    bytes[bit / 8] |= 1 << (bit % 8);
                    continue;
                }
                V::Bits(bits) => *bits,
                V::Str(s) if s.len() <= MAX_INLINE => {
                    let mut slot = [0u8; 8];
                    slot[..s.len()].copy_from_slice(s);
                    slot[7] = 0x80 | s.len() as u8;
                    u64::from_le_bytes(slot)
                }
                V::Str(s) => append(&mut bytes, s),
                V::List(elements, w) => append(&mut bytes, &container(elements, None, *w)),
                V::Map(keys, values, w) => {
                    let keys = container(keys, None, 8);
                    let mut map = (keys.len() as i32).to_le_bytes().to_vec();
                    map.extend_from_slice(&keys);
                    map.extend_from_slice(&container(values, None, *w));
                    append(&mut bytes, &map)
                }
                V::Row(fields) => append(&mut bytes, &container(fields, Some(0), 8)),
            };
            let at = null_bits + width * i;
            bytes[at..at + width].copy_from_slice(&word.to_le_bytes()[..width]);
        }
        bytes
    }

    /// Appends `value` 8-byte aligned and returns its slot: offset in the high word, size in the low.
    fn append(bytes: &mut Vec<u8>, value: &[u8]) -> u64 {
        let offset = bytes.len() as u64;
        bytes.extend_from_slice(value);
        bytes.resize(bytes.len().div_ceil(8) * 8, 0);
        offset << 32 | value.len() as u64
    }

    /// A small xorshift generator: the same batches on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Strings of every kind the writer tells apart: inline and not, plain ASCII, escapes, non-ASCII, a
    /// 4-byte character (a surrogate pair in Jackson's text), and (`faults`) invalid UTF-8.
    fn string(r: &mut Rng, faults: bool) -> Vec<u8> {
        const TEXTS: [&str; 9] = [
            "",
            "k1",
            "vintage",
            "a longer plain string",
            "quote \" and \\ back",
            "tab\tnewline\n\u{1}",
            "h\u{e9}llo w\u{f6}rld",
            "emoji \u{1f600}!",
            "</script>",
        ];
        if faults && r.below(40) == 0 {
            return vec![b'a', 0xff, 0xfe];
        }
        TEXTS[r.below(TEXTS.len() as u64) as usize]
            .as_bytes()
            .to_vec()
    }

    /// A random value of `data_type` (null one time in `nulls`); `faults` adds invalid strings, null and
    /// repeated map keys.
    fn value(r: &mut Rng, data_type: &DataType, faults: bool, nulls: u64) -> V {
        if r.below(nulls) == 0 {
            return V::Null;
        }
        let bits = r.next();
        match data_type {
            DataType::Boolean => V::Bits(bits & 1),
            DataType::Int8 => V::Bits(bits & 0xff),
            DataType::Int16 => V::Bits(bits & 0xffff),
            DataType::Int32 => V::Bits(bits & 0xffff_ffff),
            DataType::Float32 => V::Bits(u64::from(
                match bits % 3 {
                    0 => (bits as u32 % 100_000) as f32 / 100.0,
                    1 => f32::from_bits(bits as u32 >> 1),
                    _ => -1.5e-7,
                }
                .to_bits(),
            )),
            DataType::Float64 => V::Bits(
                match bits % 3 {
                    0 => ((bits >> 8) % 10_000_000) as f64 / 100.0,
                    1 => f64::from_bits(bits >> 1),
                    _ => 7.7e9,
                }
                .to_bits(),
            ),
            DataType::Timestamp(..) => V::Bits(match bits % 3 {
                0 => 1_700_000_000_123,
                1 => (bits as i64 >> 20) as u64,
                _ => (-1_234_567_i64) as u64,
            }),
            DataType::Utf8 => V::Str(string(r, faults)),
            DataType::List(item) => {
                let n = r.below(5) as usize;
                let width = super::element_width(item.data_type());
                V::List(
                    (0..n)
                        .map(|_| value(r, item.data_type(), faults, 6))
                        .collect(),
                    width,
                )
            }
            DataType::Map(entries, _) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("map entries are a struct")
                };
                let n = r.below(5) as usize;
                let mut keys: Vec<V> = (0..n)
                    .map(|i| V::Str(format!("k{}", i + (r.below(3) as usize) * 10).into_bytes()))
                    .collect();
                if faults && n > 1 && r.below(6) == 0 {
                    keys[n - 1] = keys[0].clone();
                }
                if faults && n > 0 && r.below(8) == 0 {
                    keys[0] = V::Null;
                }
                let values = (0..n)
                    .map(|_| value(r, kv[1].data_type(), faults, 5))
                    .collect();
                V::Map(keys, values, super::element_width(kv[1].data_type()))
            }
            DataType::Struct(fields) => V::Row(
                fields
                    .iter()
                    .map(|f| value(r, f.data_type(), faults, 4))
                    .collect(),
            ),
            // DECIMAL(10, 2), compact: an unscaled value of at most 10 digits.
            _ => V::Bits(bits % 10_000_000_000),
        }
    }

    fn field(name: &str, data_type: DataType) -> Field {
        Field::new(name, data_type, true)
    }

    fn list_of(item: DataType) -> DataType {
        DataType::List(Arc::new(field("element", item)))
    }

    fn map_of(value: DataType) -> DataType {
        let entries = Fields::from(vec![
            Field::new("key", DataType::Utf8, false),
            field("value", value),
        ]);
        DataType::Map(
            Arc::new(Field::new("entries", DataType::Struct(entries), false)),
            false,
        )
    }

    /// Every type the direct writer covers, nested in every way it reads.
    fn covered_schema() -> Vec<Field> {
        let point = DataType::Struct(Fields::from(vec![
            field("x", DataType::Float64),
            field("label", DataType::Utf8),
            field("at", DataType::Timestamp(TimeUnit::Millisecond, None)),
        ]));
        vec![
            field("id", DataType::Int64),
            field("flag", DataType::Boolean),
            field("tiny", DataType::Int8),
            field("small", DataType::Int16),
            field("n", DataType::Int32),
            field("f", DataType::Float32),
            field("d", DataType::Float64),
            field("s", DataType::Utf8),
            field("ts", DataType::Timestamp(TimeUnit::Millisecond, None)),
            field(
                "ltz",
                DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
            ),
            field("tags", list_of(DataType::Utf8)),
            field("shorts", list_of(DataType::Int16)),
            field("attrs", map_of(DataType::Utf8)),
            field("bag", map_of(DataType::Int32)),
            field("point", point.clone()),
            field("points", list_of(point)),
            field("lists", map_of(list_of(DataType::Int64))),
            field("flags", list_of(DataType::Boolean)),
        ]
    }

    /// A batch's records as text (key and value, `None` for a null key or a tombstone), or its error's text.
    type Records = Result<Vec<(Option<String>, Option<String>)>, String>;

    /// Encodes `rows` of `fields` (and a row-kind column, when `kind_column`) with `options`, directly or
    /// through the Arrow import, in runs of `run_bytes`; the records as text, or the error's, and the runs the
    /// direct writer took.
    fn encode(
        fields: &[Field],
        rows: &[Vec<u8>],
        options: &EncoderOptions,
        direct: bool,
        kind_column: bool,
    ) -> (Records, usize) {
        let mut encoder = encoder(options, direct);
        let result = encode_with(&mut encoder, fields, rows, kind_column);
        (result, encoder.direct_runs)
    }

    /// An encoder with `options` and runs of 2 KiB, writing binary rows directly or not.
    fn encoder(options: &EncoderOptions, direct: bool) -> Encoder {
        Encoder::new(options.clone())
            .expect("options")
            .with_run_bytes(2048)
            .with_direct_rows(direct)
    }

    /// One batch through `encoder`, its schema crossing with it.
    fn encode_with(
        encoder: &mut Encoder,
        fields: &[Field],
        rows: &[Vec<u8>],
        kind_column: bool,
    ) -> Records {
        let arity = fields.len();
        let mut all = fields.to_vec();
        if kind_column {
            all.push(field("kind", DataType::Int8));
        }
        let mut exported = FFI_ArrowSchema::try_from(&Schema::new(all)).expect("schema");
        let mut data = Vec::new();
        let mut offsets = vec![0];
        for row in rows {
            data.extend_from_slice(row);
            offsets.push(data.len() as i32);
        }
        // SAFETY: a fresh schema export that outlives the call; the rows are owned.
        let handoff = unsafe {
            Handoff::binary_rows(
                data,
                offsets,
                arity as i32,
                &mut exported as *mut FFI_ArrowSchema as usize,
                rows.len() as i64,
            )
        }
        .expect("handoff");
        let text = |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(b).into_owned());
        encoder
            .encode(handoff)
            .map(|records| records.iter().map(|(k, v)| (text(k), text(v))).collect())
            .map_err(|e| e.to_string())
    }

    fn options(pairs: &[(&str, &str)]) -> EncoderOptions {
        EncoderOptions::from_pairs(pairs.iter().copied()).expect("options")
    }

    /// The option sets that change what the direct writer writes.
    fn option_sets() -> Vec<(EncoderOptions, bool)> {
        vec![
            (options(&[]), false),
            (options(&[("encode.ignore-null-fields", "true")]), false),
            (
                options(&[
                    ("timestamp-format.standard", "ISO-8601"),
                    ("float.java-digits", "jdk17"),
                ]),
                false,
            ),
            (
                options(&[
                    ("key.fields", "id;s;point"),
                    ("key.timestamp-format.standard", "ISO-8601"),
                    ("key.encode.ignore-null-fields", "true"),
                ]),
                false,
            ),
            (
                options(&[
                    ("map-null-key.mode", "LITERAL"),
                    ("map-null-key.literal", "nil"),
                    ("changelog.row-kind-column", "kind"),
                    ("key.fields", "id"),
                ]),
                true,
            ),
            (options(&[("map-null-key.mode", "DROP")]), false),
        ]
    }

    /// `n` random rows of `fields`; with `faults`, also invalid strings, null and repeated map keys, row kinds
    /// above 3, and (one row in six) one to three bytes overwritten anywhere: offsets, sizes, counts, null bits.
    fn rows(r: &mut Rng, fields: &[Field], n: usize, faults: bool) -> Vec<Vec<u8>> {
        (0..n)
            .map(|_| {
                let values: Vec<V> = fields
                    .iter()
                    .map(|f| value(r, f.data_type(), faults, 7))
                    .collect();
                let kinds = if faults { 5 } else { 4 };
                let mut row = container(&values, Some(r.below(kinds) as u8), 8);
                if faults && r.below(6) == 0 {
                    for _ in 0..=r.below(3) {
                        let at = r.below(row.len() as u64) as usize;
                        row[at] = r.next() as u8;
                    }
                }
                row
            })
            .collect()
    }

    #[test]
    fn regular_rows_are_written_directly_with_the_arrow_paths_records() {
        let fields = covered_schema();
        let mut r = Rng(0x5eed_1234_abcd_ef01);
        // Under Miri (no unsafe code here, but the handoff's), a few rows: still several runs of 2 KiB.
        let n = if cfg!(miri) { 16 } else { 300 };
        for (options, kind_column) in option_sets() {
            let rows = rows(&mut r, &fields, n, false);
            let (direct, runs) = encode(&fields, &rows, &options, true, kind_column);
            let (arrow, none) = encode(&fields, &rows, &options, false, kind_column);
            assert_eq!(direct, arrow, "{options:?}");
            assert!(direct.is_ok(), "{direct:?}");
            assert!(runs > n / 60 && none == 0, "{runs} direct runs, {none}");
        }
    }

    #[test]
    fn irregular_runs_are_left_to_the_arrow_path_with_its_records_or_error() {
        let fields = covered_schema();
        let mut r = Rng(0x0dd_ba11_5eed_0002);
        let mut declined = 0;
        for _ in 0..if cfg!(miri) { 2 } else { 10 } {
            for (options, kind_column) in option_sets() {
                // A few rows: one run, written directly or (after a fault) by the Arrow path alone.
                let rows = rows(&mut r, &fields, 4, true);
                let (direct, runs) = encode(&fields, &rows, &options, true, kind_column);
                let (arrow, _) = encode(&fields, &rows, &options, false, kind_column);
                assert_eq!(direct, arrow, "{options:?}");
                declined += usize::from(direct.is_ok() && runs == 0);
            }
        }
        assert!(
            declined > 0,
            "no batch was left to the Arrow path and encoded there"
        );
    }

    #[test]
    fn a_fault_in_a_tombstone_is_the_arrow_paths_error() {
        // The value of a deleted row is not written, but the Arrow import reads it: a string that is not UTF-8
        // there fails the batch on both paths.
        let fields = covered_schema();
        let mut r = Rng(11);
        let mut rows = rows(&mut r, &fields, 3, false);
        let mut values: Vec<V> = fields
            .iter()
            .map(|f| value(&mut r, f.data_type(), false, 1000))
            .collect();
        values[7] = V::Str(vec![b'a', 0xff, 0xfe, b'z']);
        rows.push(container(&values, Some(3), 8));
        let options = options(&[("changelog.row-kind-column", "kind"), ("key.fields", "id")]);
        let (direct, _) = encode(&fields, &rows, &options, true, true);
        let (arrow, _) = encode(&fields, &rows, &options, false, true);
        assert_eq!(direct, arrow);
        assert!(
            direct.as_ref().is_err_and(|e| e.contains("UTF-8")),
            "{direct:?}"
        );
    }

    #[test]
    fn a_field_declared_not_null_is_left_to_the_arrow_path() {
        // Arrow refuses a null in a column declared not null; the direct writer never sees such a schema.
        let mut fields = covered_schema();
        fields[0] = Field::new("id", DataType::Int64, false);
        let mut r = Rng(12);
        let mut values: Vec<V> = fields
            .iter()
            .map(|f| value(&mut r, f.data_type(), false, 1000))
            .collect();
        values[0] = V::Null;
        let rows = vec![container(&values, Some(0), 8)];
        let (direct, runs) = encode(&fields, &rows, &options(&[]), true, false);
        let (arrow, _) = encode(&fields, &rows, &options(&[]), false, false);
        assert_eq!(direct, arrow);
        assert!(direct.is_err() && runs == 0, "{direct:?}");
    }

    #[test]
    fn the_encoder_plans_a_schema_as_the_arrow_path_does() {
        // The Arrow path plans a schema when a batch of it has been imported, and then refuses any other. A
        // first batch that fails leaves the encoder unplanned (a second schema is then fine); a first batch
        // that is written fixes the plan (a second schema is then an error).
        let fields = covered_schema();
        let fewer = &fields[..fields.len() - 1];
        let mut r = Rng(13);
        let good = rows(&mut r, &fields, 3, false);
        let good_fewer = rows(&mut r, fewer, 3, false);
        let broken = vec![good[0][..8].to_vec()];
        let outcomes = |direct: bool| {
            let mut first_fails = encoder(&options(&[]), direct);
            let mut first_works = encoder(&options(&[]), direct);
            [
                encode_with(&mut first_fails, &fields, &broken, false),
                encode_with(&mut first_fails, fewer, &good_fewer, false),
                encode_with(&mut first_works, &fields, &good, false),
                encode_with(&mut first_works, fewer, &good_fewer, false),
            ]
        };
        let (direct, arrow) = (outcomes(true), outcomes(false));
        assert_eq!(direct, arrow);
        assert!(direct[0].is_err() && direct[1].is_ok() && direct[2].is_ok());
        assert!(
            direct[3].as_ref().is_err_and(|e| e.contains("schema")),
            "{:?}",
            direct[3]
        );
    }

    #[test]
    fn a_type_it_does_not_cover_sends_the_schema_through_the_arrow_import() {
        let mut fields = covered_schema();
        fields.push(field("dec", DataType::Decimal128(10, 2)));
        let mut r = Rng(7);
        let rows = rows(&mut r, &fields, if cfg!(miri) { 8 } else { 40 }, false);
        let (direct, runs) = encode(&fields, &rows, &options(&[]), true, false);
        assert!(direct.is_ok(), "{direct:?}");
        assert_eq!(runs, 0);
    }
}
