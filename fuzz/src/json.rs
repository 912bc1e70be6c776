//! The JSON encoder target's checks over one generated [`Case`].
//!
//! - **No panic**, whatever the batch: an [`Error`](streamfusion_json::Error) is a valid answer (a type Flink
//!   has no mapping for, a value it cannot hold, a row kind that is none, ...).
//! - **Flink mode**: every key and value written is one JSON object that `serde_json` parses; every FLOAT and
//!   DOUBLE of a top-level Float32/Float64 column, written alone with the case's `float.java-digits` (JDK 19+ or
//!   JDK 17 digits), parses back to the same value (NaN and ±Infinity quoted), and has Java's shape.
//! - **Plain mode**: every record is byte-identical to arrow-json's `LineDelimitedWriter` line for the same row
//!   over the key and value projections (without the newline), and the encoder fails exactly when the writer
//!   does (for a batch of no rows, which the writer does not look at, plain mode may refuse an unsupported
//!   type as it does for every batch of the schema).
//! - **Both**: the same encoder encodes a slice of the batch (a non-zero offset into every column) to the same
//!   records as the whole batch's rows, and encodes the same batch again to the same bytes.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type};
use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_json::writer::LineDelimited;
use arrow_json::WriterBuilder;
use arrow_schema::{DataType, Field, Schema};
use streamfusion_json::{EncodedRecords, Error, JsonEncoder, Mode};

use crate::batch::Case;

/// A record's key and value, owned.
type Record = (Option<Vec<u8>>, Option<Vec<u8>>);

fn owned(records: &EncodedRecords) -> Vec<Record> {
    records
        .iter()
        .map(|(k, v)| (k.map(<[u8]>::to_vec), v.map(<[u8]>::to_vec)))
        .collect()
}

/// Runs every check on `case`; panics when one fails.
pub fn check(case: &Case) {
    let Ok(mut encoder) = JsonEncoder::new(case.options.clone()) else {
        return; // an option combination Flink refuses
    };
    let result = encoder.encode(&case.batch).map(|r| owned(&r));
    let plain = case.options.mode() == Mode::Plain;
    if plain {
        match &result {
            // arrow-json's writer panics on a dictionary of Null values, so plain mode refuses the column when
            // planning (docs/reliability.md, Fuzzing, finding 3): nothing to compare against.
            Err(Error::UnsupportedType { reason, .. })
                if reason.contains("dictionary of Null values") => {}
            // arrow-json's writer returns at once for a batch of no rows, without looking at its types;
            // plain mode plans each schema, whatever the row count, and refuses what the writer would refuse
            // on the first row.
            Err(Error::UnsupportedType { .. }) if case.batch.num_rows() == 0 => {}
            _ => check_plain(case, result.as_ref().ok()),
        }
    }
    if !plain {
        check_float_round_trip(case);
    }
    let Ok(records) = result else { return };
    assert_eq!(records.len(), case.batch.num_rows());
    if !plain {
        for (key, value) in &records {
            for json in [key, value].into_iter().flatten() {
                let parsed: serde_json::Value = serde_json::from_slice(json).unwrap_or_else(|e| {
                    panic!(
                        "Flink-mode output is not JSON ({e}): {}",
                        String::from_utf8_lossy(json)
                    )
                });
                assert!(parsed.is_object(), "not an object: {parsed}");
            }
        }
    }
    let again = encoder
        .encode(&case.batch)
        .expect("the same batch encodes again");
    assert_eq!(
        owned(&again),
        records,
        "a second encode of the same batch differs"
    );
    let rows = case.batch.num_rows();
    if rows > 0 {
        let tail = case.batch.slice(1, rows - 1);
        if let Ok(sliced) = encoder.encode(&tail) {
            assert_eq!(
                owned(&sliced),
                records[1..],
                "the slice from row 1 encodes differently"
            );
        }
    }
}

/// Each top-level Float32/Float64 column written alone (`{"v":...}`) with the case's options' float digits: a
/// finite value's text has Java's shape and parses back to the same bits, a NaN or an infinity is quoted.
fn check_float_round_trip(case: &Case) {
    let options =
        streamfusion_json::EncoderOptions::default().with_float_digits(case.options.float_digits());
    for column in case.batch.columns() {
        if !matches!(column.data_type(), DataType::Float32 | DataType::Float64) {
            continue;
        }
        let field = Field::new("v", column.data_type().clone(), true);
        let single = RecordBatch::try_new(
            Arc::new(Schema::new(vec![field])),
            vec![ArrayRef::clone(column)],
        )
        .expect("one column");
        let mut encoder = JsonEncoder::new(options.clone()).expect("default options");
        let records = encoder.encode(&single).expect("a float column encodes");
        for (row, (_, value)) in records.iter().enumerate() {
            let json = value.expect("a value per row");
            let text = std::str::from_utf8(json)
                .ok()
                .and_then(|t| t.strip_prefix("{\"v\":"))
                .and_then(|t| t.strip_suffix('}'))
                .unwrap_or_else(|| panic!("not {{\"v\":...}}: {}", String::from_utf8_lossy(json)));
            if column.is_null(row) {
                assert_eq!(text, "null");
                continue;
            }
            let (finite, same) = match column.data_type() {
                DataType::Float32 => {
                    let v = column.as_primitive::<Float32Type>().value(row);
                    (
                        v.is_finite(),
                        text.parse::<f32>().map(f32::to_bits) == Ok(v.to_bits()),
                    )
                }
                _ => {
                    let v = column.as_primitive::<Float64Type>().value(row);
                    (
                        v.is_finite(),
                        text.parse::<f64>().map(f64::to_bits) == Ok(v.to_bits()),
                    )
                }
            };
            if finite {
                assert!(
                    same,
                    "{text} ({:?}) does not parse back to row {row}'s value",
                    options.float_digits()
                );
                let body = text.strip_prefix('-').unwrap_or(text);
                let mantissa = body.split('E').next().unwrap_or(body);
                let (int, frac) = mantissa
                    .split_once('.')
                    .expect("Java float text has a point");
                assert!(
                    !int.is_empty()
                        && !frac.is_empty()
                        && int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()),
                    "{text}: not Java's shape"
                );
            } else {
                assert!(
                    matches!(text, "\"NaN\"" | "\"Infinity\"" | "\"-Infinity\""),
                    "{text}: a non-finite value is quoted"
                );
            }
        }
    }
}

/// arrow-json's lines for the `columns` of `batch`, or its error.
fn writer_lines(
    batch: &RecordBatch,
    columns: &[usize],
    explicit_nulls: bool,
) -> Result<Vec<Vec<u8>>, String> {
    let schema = batch.schema();
    let fields: Vec<_> = columns.iter().map(|&i| schema.field(i).clone()).collect();
    let projected = RecordBatch::try_new_with_options(
        Arc::new(Schema::new(fields)),
        columns.iter().map(|&i| batch.column(i).clone()).collect(),
        &RecordBatchOptions::new().with_row_count(Some(batch.num_rows())),
    )
    .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    // arrow-json 60.1's writer panics on some batches (a `Null` array it reaches inside a nested value:
    // `NullEncoder::encode` is `unreachable!()`; docs/reliability.md, Fuzzing, finding 9): that is its refusal, as an
    // error is.
    crate::allow_caught_arrow_panics();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut writer = WriterBuilder::new()
            .with_explicit_nulls(explicit_nulls)
            .build::<_, LineDelimited>(&mut buf);
        writer.write(&projected)?;
        writer.finish()
    }))
    .map_err(|_| "arrow-json's writer panicked".to_owned())?
    .map_err(|e| e.to_string())?;
    if batch.num_rows() == 0 {
        return Ok(Vec::new());
    }
    // Every line ends with '\n' and a JSON line holds no raw newline.
    let mut lines: Vec<Vec<u8>> = buf.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    assert_eq!(
        lines.pop(),
        Some(Vec::new()),
        "the writer's output ends with a newline"
    );
    assert_eq!(lines.len(), batch.num_rows(), "one writer line per row");
    Ok(lines)
}

/// Plain mode against arrow-json's writer: the same bytes, or both fail.
fn check_plain(case: &Case, ours: Option<&Vec<Record>>) {
    let explicit = case.options.plain_explicit_nulls();
    let values = writer_lines(&case.batch, &case.value, explicit);
    let keys = case
        .key
        .as_ref()
        .map(|k| writer_lines(&case.batch, k, explicit))
        .transpose();
    match (ours, values, keys) {
        (Some(ours), Ok(values), Ok(keys)) => {
            for (row, (key, value)) in ours.iter().enumerate() {
                let want_key = keys.as_ref().map(|k| k[row].clone());
                assert_eq!(key, &want_key, "row {row}: key differs from arrow-json");
                assert_eq!(
                    value.as_ref(),
                    Some(&values[row]),
                    "row {row}: value differs from arrow-json"
                );
            }
        }
        (Some(_), values, keys) => {
            panic!(
                "arrow-json's writer fails (values {:?}, keys {:?}) but plain mode encoded",
                values.err(),
                keys.err()
            )
        }
        (None, Ok(_), Ok(_)) => panic!("plain mode failed where arrow-json's writer succeeds"),
        (None, _, _) => {}
    }
}
