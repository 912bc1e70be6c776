//! The flat JVM handoff target's harness: real allocations described to
//! [`Handoff::take_flat`](streamfusion_json::ffi::Handoff::take_flat) with fuzzed value counts, capacities,
//! address offsets and contents.
//!
//! The contract of `take_flat` is kept: every non-zero address points into an allocation this harness owns
//! until the imported batch is dropped, with at least the capacity it claims readable from there. Each
//! allocation is exactly as long as the address offset plus the claimed capacity, so a read past what was
//! claimed is a heap overflow AddressSanitizer reports. Everything else is the fuzzer's: the schema (flat types,
//! and a few that may not cross flat), the row count (negative and huge too), each column's value count, each
//! buffer's presence, size, misalignment (address offsets 0..=7), content (random bytes, valid UTF-8, offsets
//! that mostly hold together), null addresses with a capacity, negative capacities.
//!
//! [`check`] then asserts that the import is an error or a batch of arrays that pass Arrow's full validation
//! (for strings: every offset in bounds and every non-null value valid UTF-8, the importer's promise; null
//! slots may hold any bytes, as Arrow Java's vectors do), and that the batch encodes without a panic.

use arbitrary::{Result, Unstructured};
use arrow_array::ffi::FFI_ArrowSchema;
use arrow_array::{Array, BinaryArray, LargeBinaryArray, RecordBatch};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use streamfusion_json::ffi::{Handoff, FLAT_BUFFERS, FLAT_WORDS};
use streamfusion_json::{EncoderOptions, JsonEncoder};

/// Column types: every flat layout (bits, fixed widths 1 to 32, misaligned wide values, 32- and 64-bit
/// offsets), and types that must be refused flat.
const TYPES: &[DataType] = &[
    DataType::Boolean,
    DataType::Int8,
    DataType::Int16,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt32,
    DataType::Float32,
    DataType::Float64,
    DataType::Decimal128(38, 2),
    DataType::Decimal256(40, 0),
    DataType::Date32,
    DataType::Date64,
    DataType::Time64(TimeUnit::Microsecond),
    DataType::Timestamp(TimeUnit::Millisecond, None),
    DataType::Interval(arrow_schema::IntervalUnit::DayTime),
    DataType::FixedSizeBinary(3),
    DataType::FixedSizeBinary(0),
    DataType::Utf8,
    DataType::Utf8,
    DataType::LargeUtf8,
    DataType::Binary,
    DataType::LargeBinary,
    DataType::Utf8View,
    DataType::Null,
];

/// One batch as the harness hands it over: the words, the schema, and the allocations the words point into.
#[derive(Debug)]
pub struct FlatBatch {
    schema: Schema,
    send_schema: bool,
    rows: i64,
    words: Vec<i64>,
    /// Kept alive (and unchanged) until the batch imported from them is dropped.
    allocations: Vec<Box<[u8]>>,
}

fn small_or_any(u: &mut Unstructured<'_>, small: i64) -> Result<i64> {
    Ok(if u.ratio(15, 16)? {
        small
    } else {
        u.arbitrary()?
    })
}

/// Offsets as little-endian `i32` or `i64`, from `start` on by small steps (one in eight goes back).
fn offsets(u: &mut Unstructured<'_>, count: usize, wide: bool) -> Result<Vec<u8>> {
    let mut at = i64::from(u.int_in_range(0u8..=3)?);
    let mut out = Vec::new();
    for _ in 0..count {
        if wide {
            out.extend_from_slice(&at.to_le_bytes());
        } else {
            out.extend_from_slice(&(at as i32).to_le_bytes());
        }
        at += i64::from(u.int_in_range(0u8..=6)?);
        if u.ratio(1, 8)? {
            at -= i64::from(u.int_in_range(1u8..=8)?);
        }
    }
    Ok(out)
}

impl FlatBatch {
    /// A batch from the fuzzer's bytes.
    ///
    /// # Errors
    /// Only `arbitrary`'s own.
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let columns = u.int_in_range(0..=3)?;
        let rows_small = i64::from(u.int_in_range(0u8..=9)?);
        let rows = if u.ratio(1, 16)? {
            -1
        } else {
            small_or_any(u, rows_small)?
        };
        let mut fields = Vec::with_capacity(columns);
        let mut words = Vec::with_capacity(columns * FLAT_WORDS + 1);
        let mut allocations = Vec::new();
        for c in 0..columns {
            let data_type = u.choose(TYPES)?.clone();
            fields.push(Field::new(format!("c{c}"), data_type.clone(), true));
            words.push(small_or_any(u, rows)?);
            let wide = matches!(data_type, DataType::LargeUtf8 | DataType::LargeBinary);
            let len = usize::try_from(rows).unwrap_or(0).min(64);
            for buffer in 0..FLAT_BUFFERS {
                let (address, capacity) = match u.int_in_range(0u8..=15)? {
                    0 => (0, 0),
                    1 => (0, u.arbitrary::<i64>()?),
                    2 => (8, -i64::from(u.int_in_range(1u8..=64)?)),
                    kind => {
                        let content = match (buffer, kind) {
                            (1, 3..=9)
                                if wide
                                    || matches!(data_type, DataType::Utf8 | DataType::Binary) =>
                            {
                                let mismatched = u.ratio(1, 16)?;
                                offsets(u, len + 1, wide ^ mismatched)?
                            }
                            (2, 3..=9) => u.arbitrary::<String>()?.into_bytes(),
                            (0, 3..=9) => {
                                let mut bitmap = vec![0xff; len.div_ceil(8)];
                                if u.arbitrary()? {
                                    u.fill_buffer(&mut bitmap)?;
                                }
                                bitmap
                            }
                            (1, 3..=9) => {
                                let size = match data_type {
                                    DataType::Boolean => len.div_ceil(8),
                                    DataType::FixedSizeBinary(w) => len * w as usize,
                                    _ => len * data_type.primitive_width().unwrap_or(1),
                                };
                                let mut data = vec![0; size];
                                u.fill_buffer(&mut data)?;
                                data
                            }
                            _ => u.arbitrary::<Vec<u8>>()?,
                        };
                        // Sometimes claim less than the content, never more than the allocation.
                        let claim = content.len()
                            - u.int_in_range(0..=content.len())? * usize::from(u.ratio(1, 8)?);
                        let shift = usize::from(u.int_in_range(0u8..=7)?);
                        let mut allocation = vec![0u8; shift + claim].into_boxed_slice();
                        allocation[shift..].copy_from_slice(&content[..claim]);
                        let address = allocation.as_ptr() as i64 + shift as i64;
                        allocations.push(allocation);
                        (address, claim as i64)
                    }
                };
                words.extend([address, capacity]);
            }
        }
        if u.ratio(1, 32)? {
            words.push(0); // not a whole number of columns
        }
        Ok(Self {
            schema: Schema::new(fields),
            send_schema: u.ratio(31, 32)?,
            rows,
            words,
            allocations,
        })
    }
}

/// Whether `data` is a valid array of its type. Strings are checked as binary (offsets and buffers), then
/// each non-null value as UTF-8: the importer's promise, which leaves null slots' bytes alone.
fn assert_valid(field: &Field, data: ArrayData) {
    let binary = match data.data_type() {
        DataType::Utf8 => Some(DataType::Binary),
        DataType::LargeUtf8 => Some(DataType::LargeBinary),
        _ => None,
    };
    let Some(binary) = binary else {
        data.validate_full()
            .unwrap_or_else(|e| panic!("column {}: imported an invalid array: {e}", field.name()));
        return;
    };
    let data = data
        .into_builder()
        .data_type(binary)
        .build()
        .unwrap_or_else(|e| panic!("column {}: imported invalid offsets: {e}", field.name()));
    let array = arrow_array::make_array(data);
    let values: Vec<Option<&[u8]>> = if let Some(a) = array.as_any().downcast_ref::<BinaryArray>() {
        a.iter().collect()
    } else {
        let a = array
            .as_any()
            .downcast_ref::<LargeBinaryArray>()
            .expect("large binary");
        a.iter().collect()
    };
    for (row, value) in values.into_iter().enumerate() {
        if let Some(value) = value {
            assert!(
                std::str::from_utf8(value).is_ok(),
                "column {} row {row}: imported a string that is not UTF-8",
                field.name()
            );
        }
    }
}

/// Hands `flat` over, imports it, and checks the result; panics when the import gives an invalid array or
/// the encoder panics.
/// The most rows [`check`] encodes, unless they are too many for any slab (see there).
const MAX_ENCODED_ROWS: usize = 1 << 16;

pub fn check(flat: FlatBatch) {
    let FlatBatch {
        schema,
        send_schema,
        rows,
        words,
        allocations,
    } = flat;
    let Ok(mut exported) = FFI_ArrowSchema::try_from(&schema) else {
        return;
    };
    let schema_address = if send_schema {
        &mut exported as *mut FFI_ArrowSchema as usize
    } else {
        0
    };
    // SAFETY: every non-zero buffer address in `words` was made by `FlatBatch::generate` from an allocation
    // in `allocations` with at least the claimed capacity after it; they are neither changed nor dropped
    // before the end of this function, after the batch. `exported` is a fresh export.
    let handoff = unsafe { Handoff::take_flat(words, schema_address, rows) };
    let Ok(handoff) = handoff else { return };
    let mut held = None;
    let batch: RecordBatch = match handoff.import(&mut held) {
        Ok(batch) => batch,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    assert_eq!(batch.num_rows() as i64, rows);
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        assert_eq!(column.data_type(), field.data_type());
        assert_valid(field, column.to_data());
    }
    // A batch without columns may declare billions of rows: the encoder fails with `SlabTooLarge` before it
    // allocates (docs/reliability.md, Fuzzing, finding 2). Tens of millions of valid rows (a column of a type without
    // buffers, such as Null) encode correctly but take seconds under the sanitizer, a libFuzzer timeout
    // (docs/reliability.md, Fuzzing, finding 10): those are not encoded here (`json_encoder` fuzzes the encoder).
    let slab_too_large = batch.num_rows() > i32::MAX as usize / 2; // every record is at least `{}`
    if batch.num_rows() <= MAX_ENCODED_ROWS || slab_too_large {
        if let Ok(mut encoder) = JsonEncoder::new(EncoderOptions::default()) {
            let _ = encoder.encode(&batch);
        }
    }
    drop(batch);
    drop(allocations);
}
