//! Arrow batches handed over by another runtime (a JVM, a C program, Python), imported and checked here, once,
//! for every front end (feature `ffi`).
//!
//! The model: the caller owns a batch in its own memory and hands it over for one call, as raw addresses
//! (integers, as a JVM `long`, a Python `int` or a C `uintptr_t` carries them). [`Handoff`] takes it over in one
//! of two ways; the schema crosses through the Arrow C Data Interface (an `ArrowSchema` struct) only when it is
//! not the one that crossed last, which the caller's [`Encoder`] (or `held` schema) keeps.
//! - **C Data Interface** ([`Handoff::take_c_data`]), any type: one exported `ArrowArray` struct per column.
//!   Every struct is moved out of the caller's memory first thing (an empty, released struct is left behind, so
//!   the caller's own release is a no-op) and released exactly once, by Rust, on every path; a struct that is
//!   already released, or a null address, is an error, never a read of freed memory. The columns are imported
//!   without copying, with the types of the schema.
//! - **Flat** ([`Handoff::take_flat`]), when every column has a flat type (primitives, booleans, decimals,
//!   temporals, (large) strings and binaries; no children, no dictionary): [`FLAT_WORDS`] words per column, the
//!   value count, then the address and capacity in bytes of each of its [`FLAT_BUFFERS`] buffers (the validity
//!   bitmap, then the first and the second buffer of the type's layout). The buffers are read in place (a
//!   buffer misaligned for its type is copied), after checking that each is large enough for its values and
//!   that offsets stay inside their data, so a corrupt buffer is an error, not a read outside its memory.
//!   Nothing is released: the caller keeps the buffers alive and unchanged until the imported batch is
//!   dropped.
//! - **Binary rows** ([`Handoff::binary_rows`], or [`Handoff::binary_rows_at`] to read them in place), for a
//!   Flink front end: the rows themselves in Flink's binary row format (`BinaryRowData`), concatenated in one
//!   buffer that Rust owns or the caller holds for the call, with their offsets. They are decoded into Arrow
//!   columns of the schema's types (the module `binary_row` has the layout), every read checked against the
//!   buffer, so no Arrow vector is filled on the JVM; [`Encoder::encode`] does it a run of rows at a time,
//!   reading a null map key (which an Arrow map cannot hold) as its `map-null-key.mode` says.
//!
//! [`Handoff::import`] then makes a [`RecordBatch`] and checks that every non-null string is valid UTF-8 (Arrow
//! promises it and the encoder relies on it, but Arrow Java's vectors and Flink's `StringData.fromBytes` take
//! any bytes; decoded binary rows are checked as their string columns are built). [`Encoder::encode`] imports, encodes and drops the batch (running the exports' release callbacks)
//! before it returns, so nothing native points at the caller's memory after the call.
//!
//! Every error is an [`Error`]: [`Error::InvalidHandoff`] for memory that does not describe a batch of the
//! schema (a bug in the front end, or a corrupt vector), [`Error::ArrowImport`] when Arrow rejects the imported
//! data, [`Error::InvalidValue`] for a string that is not UTF-8, and the encoder's own errors.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::ffi::{to_ffi, FFI_ArrowSchema};
//! use arrow_array::{Array, Int64Array, RecordBatch};
//! use streamfusion_json::ffi::{Encoder, Handoff};
//! use streamfusion_json::EncoderOptions;
//!
//! let batch = RecordBatch::try_from_iter([("id", Arc::new(Int64Array::from(vec![7])) as _)])?;
//! // What another runtime would hand over: an exported column and schema, by address.
//! let (mut array, _) = to_ffi(&batch.column(0).to_data())?;
//! let mut schema = FFI_ArrowSchema::try_from(batch.schema().as_ref())?;
//! let addresses = [&mut array as *mut _ as usize];
//! // SAFETY: both structs are fresh exports, not yet consumed.
//! let handoff = unsafe { Handoff::take_c_data(&addresses, &mut schema as *mut _ as usize, 1) }?;
//! assert!(array.is_released(), "the struct was moved out");
//! let mut encoder = Encoder::new(EncoderOptions::default())?;
//! assert_eq!(encoder.encode(handoff)?.value(0), Some(&br#"{"id":7}"#[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod binary_row;
mod c_data;
mod direct;
mod flat;
mod utf8;

use std::sync::Arc;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{Schema, SchemaRef};

use crate::error::{Error, Result};
use crate::{EncodedRecords, EncoderOptions, JsonEncoder};
use binary_row::NullKeys;
use direct::DirectPlan;
pub(crate) use direct::FlinkPlan;

pub use flat::{FLAT_BUFFERS, FLAT_WORDS};

/// One batch as it crossed, taken over and not yet imported: its columns, the exported schema when one
/// crossed, the row count.
#[derive(Debug)]
pub struct Handoff {
    columns: Columns,
    schema: Option<FFI_ArrowSchema>,
    rows: usize,
}

/// How the columns of one batch crossed.
#[derive(Debug)]
enum Columns {
    /// One exported C Data Interface array per column (any type).
    CData(Vec<FFI_ArrowArray>),
    /// The flat handoff: per column [`FLAT_WORDS`] words describing the caller's buffers (flat types only).
    Flat(Vec<i64>),
    /// Flink binary rows of `arity` fields: row `i` is `data[offsets[i]..offsets[i + 1]]`.
    BinaryRows {
        data: RowBytes,
        offsets: Vec<i32>,
        arity: usize,
    },
}

/// Where the bytes of binary rows are: copied into Rust, or in the caller's memory, read in place.
#[derive(Debug)]
enum RowBytes {
    Owned(Vec<u8>),
    /// `len` bytes at `address`, readable and unchanged until the handoff is dropped (the contract of
    /// [`Handoff::binary_rows_at`]); a zero `len` may have any address.
    InPlace {
        address: usize,
        len: usize,
    },
}

impl RowBytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Self::Owned(data) => data,
            Self::InPlace { len: 0, .. } => &[],
            // SAFETY: `InPlace` is only made by `Handoff::binary_rows_at`, checked there to be non-null, whose
            // caller guarantees `len` readable bytes at `address` that stay unchanged while the handoff lives;
            // the slice borrows `self`, so it cannot outlive the handoff.
            Self::InPlace { address, len } => unsafe {
                std::slice::from_raw_parts(*address as *const u8, *len)
            },
        }
    }
}

/// Binary rows are decoded and encoded in runs of about this many bytes of rows, so that the columns a run
/// decodes are still in the core's cache (with the rows and the run's JSON, about three times this) when the
/// encoder reads them: a batch of several MiB of rows decoded whole, then encoded, reads its decoded columns
/// back from farther away.
const BINARY_RUN_BYTES: i64 = 512 * 1024;

impl Handoff {
    /// Takes over one batch exported through the C Data Interface: the `ArrowArray` struct of each column at
    /// `array_addresses`, and the root's `ArrowSchema` at `schema_address` (0: the schema that crossed last).
    /// Every struct is moved out of the caller's memory, leaving a released, empty struct behind, so that from
    /// here on each is released exactly once, by Rust, on every path (when this or the imported batch is
    /// dropped).
    ///
    /// # Errors
    /// [`Error::InvalidHandoff`] for a zero array address or a struct that is already released (every live
    /// struct is still taken, and released), and for a negative `rows`.
    ///
    /// # Safety
    /// Each non-zero address must point to a properly aligned, initialised C Data Interface struct of its kind
    /// (`ArrowArray` for `array_addresses`, `ArrowSchema` for `schema_address`) that the caller may hand over
    /// (an export not yet consumed).
    pub unsafe fn take_c_data(
        array_addresses: &[usize],
        schema_address: usize,
        rows: i64,
    ) -> Result<Self> {
        // SAFETY: forwarded from the caller.
        let (columns, schema) = unsafe { c_data::take(array_addresses, schema_address) }?;
        Ok(Self {
            columns: Columns::CData(columns),
            schema,
            rows: row_count(rows)?,
        })
    }

    /// Takes over one batch of flat columns: `words` describes each column's buffers ([`FLAT_WORDS`] per
    /// column: value count, then address and capacity in bytes of the validity bitmap, of the first and of the
    /// second buffer of the type's layout, 0 and 0 for a buffer it does not have); the schema crosses as in
    /// [`take_c_data`](Self::take_c_data) (0: the one held). Signed words, as the C Data Interface's lengths
    /// and a JVM `long[]` are: an address is the word's bits; a negative count or capacity is an error.
    ///
    /// # Errors
    /// [`Error::InvalidHandoff`] for a released schema struct, a word count that is not a multiple of
    /// [`FLAT_WORDS`], or a negative `rows`. The buffers are checked by [`import`](Self::import).
    ///
    /// # Safety
    /// Every non-zero buffer address in `words` must point to at least its capacity of readable bytes that stay
    /// valid and unchanged until the returned handoff, and every batch imported from it, is dropped; a non-zero
    /// `schema_address` as in [`take_c_data`](Self::take_c_data).
    pub unsafe fn take_flat(words: Vec<i64>, schema_address: usize, rows: i64) -> Result<Self> {
        // SAFETY: forwarded from the caller.
        let schema = unsafe { c_data::take_schema(schema_address) }?;
        if !words.len().is_multiple_of(FLAT_WORDS) {
            return Err(Error::InvalidHandoff(format!(
                "{} words do not describe whole columns of {FLAT_WORDS}",
                words.len()
            )));
        }
        Ok(Self {
            columns: Columns::Flat(words),
            schema,
            rows: row_count(rows)?,
        })
    }

    /// Takes over one batch of Flink binary rows (`BinaryRowData`, the layout in Flink's `BinaryRowWriter`):
    /// `rows` rows of `arity` fields each, row `i` being `data[offsets[i]..offsets[i + 1]]` (so `offsets` has
    /// `rows + 1` entries, in bytes, increasing). The schema crosses as in [`take_c_data`](Self::take_c_data)
    /// (0: the one held); its first `arity` fields type the rows' fields in order (Boolean, Int8..Int64,
    /// Float32/64, Date32, Time32(ms), Interval(YearMonth), Duration(ms), Utf8, Binary, Decimal128, Timestamp:
    /// the Arrow types `RowDataArrowWriter` gives the Flink types), and one more field, if it has one, is an
    /// Int8 column that receives each row's kind byte (the row-kind column of `changelog.row-kind-column`).
    /// The rows are decoded by [`import`](Self::import).
    ///
    /// # Errors
    /// [`Error::InvalidHandoff`] for a released schema struct, or a negative `arity` or `rows`.
    ///
    /// # Safety
    /// A non-zero `schema_address` as in [`take_c_data`](Self::take_c_data); `data` and `offsets` are owned
    /// values, read with bounds checks only.
    pub unsafe fn binary_rows(
        data: Vec<u8>,
        offsets: Vec<i32>,
        arity: i32,
        schema_address: usize,
        rows: i64,
    ) -> Result<Self> {
        // SAFETY: forwarded from the caller.
        let schema = unsafe { c_data::take_schema(schema_address) }?;
        Self::binary(RowBytes::Owned(data), offsets, arity, schema, rows)
    }

    /// Like [`binary_rows`](Self::binary_rows), with the rows read in place: the first `len` bytes at
    /// `address` (in a buffer of `capacity` bytes), so that a batch of rows is not copied once more on its way
    /// in. Signed, as a JVM `long` and `int` carry them: an address is the word's bits.
    ///
    /// # Errors
    /// [`Error::InvalidHandoff`] for a zero `address` (unless `len` is 0), a negative `len` or one past
    /// `capacity`, and as [`binary_rows`](Self::binary_rows).
    ///
    /// # Safety
    /// `capacity` bytes at a non-zero `address` must be readable and stay valid and unchanged until the returned
    /// handoff, and every batch imported from it, is dropped; a non-zero `schema_address` as in
    /// [`take_c_data`](Self::take_c_data).
    pub unsafe fn binary_rows_at(
        address: i64,
        capacity: i64,
        len: i32,
        offsets: Vec<i32>,
        arity: i32,
        schema_address: usize,
        rows: i64,
    ) -> Result<Self> {
        // SAFETY: forwarded from the caller.
        let schema = unsafe { c_data::take_schema(schema_address) }?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&len| i64::try_from(len).is_ok_and(|len| len <= capacity))
            .ok_or_else(|| {
                Error::InvalidHandoff(format!(
                    "{len} bytes of binary rows in a buffer of {capacity} bytes"
                ))
            })?;
        if address == 0 && len > 0 {
            return Err(Error::InvalidHandoff(format!(
                "{len} bytes of binary rows at address 0"
            )));
        }
        let data = RowBytes::InPlace {
            address: address as usize,
            len,
        };
        Self::binary(data, offsets, arity, schema, rows)
    }

    fn binary(
        data: RowBytes,
        offsets: Vec<i32>,
        arity: i32,
        schema: Option<FFI_ArrowSchema>,
        rows: i64,
    ) -> Result<Self> {
        let arity = usize::try_from(arity)
            .map_err(|_| Error::InvalidHandoff(format!("binary rows of {arity} fields")))?;
        Ok(Self {
            columns: Columns::BinaryRows {
                data,
                offsets,
                arity,
            },
            schema,
            rows: row_count(rows)?,
        })
    }

    /// Imports the columns as a [`RecordBatch`], without copying their buffers (unless a flat buffer is
    /// misaligned for its type): the batch owns the exported arrays, and dropping it runs their release
    /// callbacks; flat columns borrow the caller's buffers. A schema that crossed replaces `held` (the root's
    /// own metadata kept); without one, `held` gives the columns' types. Binary rows are decoded into new
    /// columns (a null map key is an error here: no `map-null-key.mode` applies without an encoder's options).
    /// Every non-null string value, nested and dictionary values included, is checked to be valid UTF-8.
    ///
    /// # Errors
    /// [`Error::InvalidHandoff`] when no schema crossed and none is held, the column count differs from the
    /// schema's field count, a column's length differs from the row count, a column of a type that is not flat
    /// crossed flat, or a flat buffer is too small, at a null address or has offsets that decrease or leave
    /// their data, or binary rows disagree with the schema (the errors of the module `binary_row`: offsets out
    /// of order or range, a row shorter than its fixed part, a value outside its row, naming field and row);
    /// [`Error::ArrowImport`] when Arrow rejects the schema or a column; [`Error::InvalidValue`]
    /// (naming the field and row) for a string that is not valid UTF-8.
    pub fn import(self, held: &mut Option<SchemaRef>) -> Result<RecordBatch> {
        let Self {
            columns,
            schema,
            rows,
        } = self;
        let schema = resolve_schema(schema, held)?;
        let fields = schema.fields();
        let exported = |count: usize| {
            if fields.len() == count {
                Ok(())
            } else {
                Err(Error::InvalidHandoff(format!(
                    "{count} exported columns for a schema of {} fields",
                    fields.len()
                )))
            }
        };
        let arrays = match columns {
            Columns::CData(arrays) => {
                exported(arrays.len())?;
                c_data::import_columns(fields, arrays, rows)?
            }
            Columns::Flat(words) => {
                exported(words.len() / FLAT_WORDS)?;
                fields
                    .iter()
                    .zip(words.chunks_exact(FLAT_WORDS))
                    .map(|(field, words)| {
                        // SAFETY: `Columns::Flat` is only made by `take_flat`, whose caller guarantees the
                        // buffers stay readable until every batch imported from the handoff is dropped.
                        unsafe { flat::import_column(field, words, rows) }.map(make_array)
                    })
                    .collect::<Result<Vec<_>>>()?
            }
            // Each string column is checked to be UTF-8 as it is built.
            Columns::BinaryRows {
                data,
                offsets,
                arity,
            } => {
                // Without an encoder's options no map-null-key.mode applies: a null map key is an error.
                let arrays = binary_row::import_columns(
                    fields,
                    arity,
                    data.as_slice(),
                    &offsets,
                    rows,
                    0,
                    NullKeys::Refuse,
                )?;
                return record_batch(schema, arrays, rows);
            }
        };
        for (field, array) in fields.iter().zip(&arrays) {
            utf8::check(field.name(), &array.to_data())?;
        }
        record_batch(schema, arrays, rows)
    }
}

/// Imports the schema exported at `schema_address` through the Arrow C Data Interface (Arrow Java's
/// `Data.exportSchema`), taking the struct over: what a front end hands over to make a
/// [`JsonDecoder`](crate::JsonDecoder).
///
/// # Errors
/// [`Error::InvalidHandoff`] for a zero address or a released struct; [`Error::ArrowImport`] for a schema
/// Arrow cannot read.
///
/// # Safety
/// A non-zero `schema_address` must point to an initialised `ArrowSchema` that the caller may hand over
/// (it is left released).
pub unsafe fn import_schema(schema_address: usize) -> Result<SchemaRef> {
    // SAFETY: as this function's contract.
    let crossed = unsafe { c_data::take_schema(schema_address) }?.ok_or_else(|| {
        Error::InvalidHandoff("the ArrowSchema address is 0: a schema must cross".to_owned())
    })?;
    Ok(Arc::new(
        Schema::try_from(&crossed).map_err(Error::ArrowImport)?,
    ))
}

/// The schema a batch's columns are read with: one that crossed replaces `held` (the root's own metadata
/// kept); without one, `held`.
fn resolve_schema(
    crossed: Option<FFI_ArrowSchema>,
    held: &mut Option<SchemaRef>,
) -> Result<SchemaRef> {
    if let Some(schema) = crossed {
        *held = None;
        *held = Some(Arc::new(
            Schema::try_from(&schema).map_err(Error::ArrowImport)?,
        ));
    }
    held.clone().ok_or_else(|| {
        Error::InvalidHandoff(
            "no schema has crossed for this handle yet: the first batch must export its schema"
                .to_owned(),
        )
    })
}

fn record_batch(schema: SchemaRef, arrays: Vec<ArrayRef>, rows: usize) -> Result<RecordBatch> {
    RecordBatch::try_new_with_options(
        schema,
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .map_err(Error::ArrowImport)
}

/// The end of the run of binary rows that starts at row `start`: rows are added until they hold at least
/// `run_bytes` (at least one row; offsets are checked when the run is decoded).
fn run_end(offsets: &[i32], start: usize, rows: usize, run_bytes: i64) -> usize {
    let limit = i64::from(offsets[start]) + run_bytes;
    let mut end = (start + 1).min(rows);
    while end < rows && i64::from(offsets[end]) < limit {
        end += 1;
    }
    end
}

/// The direct writing of binary rows of `arity` fields and `schema`, kept in `direct` (made once per schema and
/// arity); `None` when `encoder`'s plan has a type it does not cover, or the schema cannot be planned (the
/// Arrow path then reports why).
fn direct_plan<'d>(
    direct: &'d mut Option<Direct>,
    encoder: &JsonEncoder,
    schema: &SchemaRef,
    arity: usize,
) -> Option<&'d DirectPlan> {
    let current = direct
        .as_ref()
        .is_some_and(|d| Arc::ptr_eq(&d.schema, schema) && d.arity == arity);
    if !current {
        let plan = encoder
            .with_flink_plan(schema, |plan| DirectPlan::new(plan, arity))
            .flatten();
        *direct = Some(Direct {
            schema: schema.clone(),
            arity,
            plan,
        });
    }
    direct.as_ref().and_then(|d| d.plan.as_ref())
}

fn row_count(rows: i64) -> Result<usize> {
    usize::try_from(rows)
        .map_err(|_| Error::InvalidHandoff(format!("row count {rows} is negative")))
}

/// What one front-end encoder owns: the [`JsonEncoder`] (options and plan), the [`EncodedRecords`] scratch
/// reused by every batch, and the schema of the last batch whose schema crossed (reused by the batches that
/// send none).
#[derive(Debug)]
pub struct Encoder {
    encoder: JsonEncoder,
    records: EncodedRecords,
    schema: Option<SchemaRef>,
    /// [`BINARY_RUN_BYTES`], smaller in tests that cross run boundaries.
    run_bytes: i64,
    /// Whether binary rows may be written straight from their bytes ([`Encoder::with_direct_rows`]).
    direct_rows: bool,
    /// The direct writing of binary rows for the last schema and arity they came with.
    direct: Option<Direct>,
    /// Runs of binary rows written straight from their bytes, for tests that must see that path taken.
    #[cfg(test)]
    direct_runs: usize,
}

/// A [`DirectPlan`] (or `None`: the schema's rows go through the Arrow import) for one schema and arity.
#[derive(Debug)]
struct Direct {
    schema: SchemaRef,
    arity: usize,
    plan: Option<DirectPlan>,
}

impl Encoder {
    /// An encoder with `options`; the plan is built from the first batch, which must send its schema.
    ///
    /// # Errors
    /// As [`JsonEncoder::new`].
    pub fn new(options: EncoderOptions) -> Result<Self> {
        Ok(Self {
            encoder: JsonEncoder::new(options)?,
            records: EncodedRecords::new(),
            schema: None,
            run_bytes: BINARY_RUN_BYTES,
            direct_rows: true,
            direct: None,
            #[cfg(test)]
            direct_runs: 0,
        })
    }

    /// Runs of binary rows of about `run_bytes` instead of [`BINARY_RUN_BYTES`], for tests (under Miri too)
    /// that cross run boundaries with few rows.
    #[cfg(test)]
    pub(crate) fn with_run_bytes(mut self, run_bytes: i64) -> Self {
        self.run_bytes = run_bytes;
        self
    }

    /// Whether binary rows are written as JSON straight from their bytes when every key and value field has a
    /// type that writer covers (`true`, the default: BOOLEAN, TINYINT to BIGINT, FLOAT, DOUBLE, STRING,
    /// TIMESTAMP and TIMESTAMP_LTZ up to precision 3, ARRAY, MAP<STRING, V>, MULTISET<STRING> and ROW of them),
    /// or always through the Arrow import (`false`). Both give the same records and errors; the Arrow import is
    /// the reference the direct writer is checked against, and takes over any run of rows the direct writer
    /// finds irregular (a fault, a null or repeated map key).
    pub fn with_direct_rows(mut self, direct: bool) -> Self {
        self.direct_rows = direct;
        self
    }

    /// Whether this encoder applies `map-null-key.mode` itself to a null map or multiset key in binary rows
    /// (DROP, LITERAL, or FAIL's [`Error::NullMapKey`]): true when one mode applies to every map (the records
    /// have no key, or the key row's mode and literal are the value row's); false when [`Encoder::encode`]
    /// refuses such a row ([`Error::InvalidValue`]),
    /// since a map read once feeds both rows. The JVM front end asks once, and when false leaves batches with
    /// a null key to Flink's serializer (`RowDataBinaryWriter`). Arrow handoffs never carry a null key.
    pub fn applies_null_map_keys(&self) -> bool {
        NullKeys::of(self.encoder.options()) != NullKeys::Refuse
    }

    /// Imports `handoff` ([`Handoff::import`], with the schema this encoder holds), encodes it into the reused
    /// records and returns them. Binary rows are decoded and encoded in runs of about 512 KiB of rows (the same
    /// records and errors as one batch, with the decoded columns still in cache when they are encoded); a null
    /// map key in them is dropped, read as the literal, or an [`Error::NullMapKey`], as the options'
    /// `map-null-key.mode` says (or an [`Error::InvalidValue`] when the key row's mode or literal differs from
    /// the value row's). The imported batch is dropped (the exports' release callbacks run) before this returns,
    /// on every path. After a failed batch the scratch is given back (it may have grown to the 2 GiB slab limit)
    /// and the encoder stays usable.
    ///
    /// # Errors
    /// As [`Handoff::import`] and [`JsonEncoder::encode_into`]; with binary rows, an error of the first run at
    /// fault (a run is decoded, then encoded, before the next is read; of several faults in one run, which one
    /// is reported is not specified).
    pub fn encode(&mut self, handoff: Handoff) -> Result<&EncodedRecords> {
        self.records.clear();
        let result = self.append(handoff);
        if result.is_err() {
            self.records = EncodedRecords::new();
        }
        result?;
        Ok(&self.records)
    }

    fn append(&mut self, handoff: Handoff) -> Result<()> {
        let Handoff {
            columns,
            schema,
            rows,
        } = handoff;
        let Columns::BinaryRows {
            data,
            offsets,
            arity,
        } = columns
        else {
            let batch = Handoff {
                columns,
                schema,
                rows,
            }
            .import(&mut self.schema)?;
            return self.encoder.append_into(&batch, &mut self.records, 0);
        };
        let schema = resolve_schema(schema, &mut self.schema)?;
        binary_row::check_offset_count(&offsets, rows)?;
        let data = data.as_slice();
        let direct = if self.direct_rows {
            direct_plan(&mut self.direct, &self.encoder, &schema, arity)
        } else {
            None
        };
        let mut start = 0;
        loop {
            let end = run_end(&offsets, start, rows, self.run_bytes);
            if direct.is_some_and(|d| d.write(data, &offsets[start..=end], &mut self.records)) {
                #[cfg(test)]
                {
                    self.direct_runs += 1;
                }
                // The plan the Arrow path would have made (and checked the schema against) for this run.
                self.encoder.plan(&schema)?;
                if end == rows {
                    return Ok(());
                }
                start = end;
                continue;
            }
            let arrays = binary_row::import_columns(
                schema.fields(),
                arity,
                data,
                &offsets[start..=end],
                end - start,
                start,
                NullKeys::of(self.encoder.options()),
            )?;
            let run = record_batch(schema.clone(), arrays, end - start)?;
            self.encoder.append_into(&run, &mut self.records, start)?;
            if end == rows {
                return Ok(());
            }
            start = end;
        }
    }
}

#[cfg(test)]
mod tests;
