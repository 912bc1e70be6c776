//! The `produce --input` readers ([`streamfusion_input`]) over any bytes: the `ipc_reader` and `csv_reader`
//! targets.
//!
//! - **No panic**: opening is an [`Error`] naming the format's refusal or a reader, and reading on gives
//!   batches until the end or an [`Error::Read`] (where `produce` stops), never a panic and never an
//!   [`Error::Io`] (an in-memory input cannot fail to read or seek). The one exception is the guarded
//!   outcome: a panic inside arrow that `streamfusion-input` catches and returns as [`Error::Panicked`]
//!   (docs/reliability.md, Fuzzing, finding 5: arrow-ipc slices a message body with an unchecked buffer
//!   offset). libFuzzer's panic hook aborts on every panic, caught or not, so
//!   [`allow_caught_arrow_panics`](crate::allow_caught_arrow_panics) lets a panic raised in an arrow
//!   crate's source unwind to that guard; one that escapes it still reaches libfuzzer-sys's `catch_unwind`,
//!   which aborts, and every other panic (the checks here) aborts at once as before.
//! - **Every batch read is valid**: its schema is the reader's, `RecordBatch::try_new` accepts its columns
//!   and each column passes Arrow's full validation (`ArrayData::validate_full`: offsets in bounds, UTF-8,
//!   dictionary keys in range, ...), so the JSON encoder only sees batches Arrow itself would build.
//! - **Positions hold**: a second open of the same bytes (for CSV with the first open's schema, as `produce`
//!   reopens a file on a replay) gives the same batches and the same outcome, so row `n` is the same row on
//!   every read. CSV batches have [`CSV_BATCH_ROWS`] rows, only the last one fewer (and none empty).
//! - **CSV schemas are what arrow-csv infers**: every column nullable, named by the header, of a type
//!   its inference gives (`Null`, `Boolean`, `Int64`, `Float64`, `Date32`, a timestamp without zone, `Utf8`).

use std::io::Cursor;

use arrow_array::{RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType, SchemaRef};
use streamfusion_input::{open, BatchReader, Error, FileFormat, CSV_BATCH_ROWS};

/// How a read of one input ended: the batches read, and the error that stopped it, if any (as text: the
/// errors are not comparable).
#[derive(Debug, PartialEq)]
struct Outcome {
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
    error: Option<String>,
}

/// Reads every batch of `reader`, checking each, to the end or the first error.
fn read_all(reader: BatchReader<Cursor<&[u8]>>) -> Outcome {
    let schema = reader.schema();
    let mut batches = Vec::new();
    let mut error = None;
    for next in reader {
        match next {
            Ok(batch) => {
                check_batch(&schema, &batch);
                batches.push(batch);
            }
            Err(e @ (Error::Read(_) | Error::Panicked(_))) => {
                error = Some(e.to_string());
                break;
            }
            Err(e) => panic!("reading on failed with an error other than Read: {e:?}"),
        }
    }
    Outcome {
        schema,
        batches,
        error,
    }
}

fn check_batch(schema: &SchemaRef, batch: &RecordBatch) {
    assert_eq!(
        batch.schema(),
        *schema,
        "a batch's schema is not the reader's"
    );
    // With its row count: a batch of no columns (an IPC schema without fields) still has rows.
    let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
    RecordBatch::try_new_with_options(batch.schema(), batch.columns().to_vec(), &options)
        .expect("a batch read is a valid RecordBatch");
    for (i, column) in batch.columns().iter().enumerate() {
        column
            .to_data()
            .validate_full()
            .unwrap_or_else(|e| panic!("column {i} of a batch read does not validate: {e}"));
    }
}

/// Opens `data` as `format` (`csv_schema` as [`open`] takes it) and reads it whole; `None` when it does not
/// open, after checking that the refusal is one the format can give.
fn open_and_read(
    data: &[u8],
    format: FileFormat,
    csv_schema: Option<SchemaRef>,
) -> Option<Outcome> {
    match open(Cursor::new(data), format, csv_schema) {
        Ok(reader) => Some(read_all(reader)),
        Err(Error::NotIpcFile(_) | Error::NotIpc(_)) if format == FileFormat::Ipc => None,
        Err(Error::NotCsvWithHeader(_) | Error::NotCsv(_)) if format == FileFormat::Csv => None,
        Err(Error::Panicked(_)) => None,
        Err(e) => panic!("opening as {format:?} failed with {e:?}"),
    }
}

/// The `ipc_reader` target: `data` as Arrow IPC (file format when it starts with `ARROW1`, else stream
/// format), read twice; for a file, the bytes after its 8-byte magic and padding (where a file's stream
/// starts) read as a stream too, so that both readers run on every file-format input.
pub fn check_ipc(data: &[u8]) {
    crate::allow_caught_arrow_panics();
    check_ipc_once(data);
    if data.starts_with(b"ARROW1") && data.len() >= 8 {
        check_ipc_once(&data[8..]);
    }
}

fn check_ipc_once(data: &[u8]) {
    let Some(first) = open_and_read(data, FileFormat::Ipc, None) else {
        return;
    };
    let again = open_and_read(data, FileFormat::Ipc, None).expect("the same bytes open again");
    assert_eq!(first, again, "a second read of the same bytes differs");
}

/// The `csv_reader` target: `data` as CSV with a header row, its schema inferred, read twice (the second
/// time with the first schema, as a replay does).
pub fn check_csv(data: &[u8]) {
    crate::allow_caught_arrow_panics();
    let Some(first) = open_and_read(data, FileFormat::Csv, None) else {
        return;
    };
    for field in first.schema.fields() {
        assert!(
            field.is_nullable(),
            "an inferred column is not nullable: {field:?}"
        );
        assert!(
            matches!(
                field.data_type(),
                DataType::Null
                    | DataType::Boolean
                    | DataType::Int64
                    | DataType::Float64
                    | DataType::Date32
                    | DataType::Timestamp(_, None)
                    | DataType::Utf8
            ),
            "a type arrow-csv does not infer: {field:?}"
        );
    }
    let rows: Vec<usize> = first.batches.iter().map(RecordBatch::num_rows).collect();
    if let Some((last, full)) = rows.split_last() {
        assert!(
            full.iter().all(|&n| n == CSV_BATCH_ROWS) && (1..=CSV_BATCH_ROWS).contains(last),
            "CSV batches of {rows:?} rows"
        );
    }
    let again = open_and_read(data, FileFormat::Csv, Some(first.schema.clone()))
        .expect("the same bytes open again with their schema");
    assert_eq!(
        first, again,
        "a second read with the inferred schema differs"
    );
}
