//! The JSON decoder target's checks ([`streamfusion_json::JsonDecoder`]) over one chunk of Kafka messages cut
//! from the fuzzer's bytes ([`Case::parse`]), under fuzzed options, into one of [`SCHEMA_COUNT`] layouts
//! ([`schema`]): flat ones, and ones with ARRAY, MAP, MULTISET and ROW columns nested up to three deep and DATE,
//! TIME, TIMESTAMP and TIMESTAMP_LTZ columns (also nested).
//!
//! - **No panic**, whatever the bytes: a failure is [`Error::Decode`] (never under `ignore-parse-errors`) or
//!   [`Error::NotExact`], naming a message of the chunk.
//! - **A chunk is its messages one after the other**: decoding the chunk at once fails exactly when one of its
//!   messages decoded alone fails, with the first such message's index, the same error kind and the same
//!   reason; otherwise its rows are the rows of each message decoded alone, in order (the same values,
//!   compared column by column), its `rows_per_message` theirs concatenated and its `null_rows` theirs shifted
//!   by the rows before.
//! - **Every batch is valid**: the decoder's schema, columns that pass Arrow's full validation (nested
//!   children included: offsets, a map's non-nullable keys), one `rows_per_message` entry per message summing
//!   to the row count (none for a null message), `null_rows` ascending, in range and all-null in every column.
//! - **Decoding is repeatable**: the same decoder decodes the chunk again to the same outcome (the messages
//!   decoded alone in between, some of them failing, leave nothing behind).

use std::sync::Arc;

use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use streamfusion_json::{
    BinaryRows, DecodedBatch, DecoderOptions, Error, JsonDecoder, TimestampStandard,
};

/// Messages per chunk, at most.
pub const MAX_MESSAGES: usize = 8;

/// The byte that separates the messages of a chunk in the fuzzer's input. Never part of valid UTF-8, so no
/// well-formed message needs it; the last message keeps every byte after the last cut, separators included.
pub const SEPARATOR: u8 = 0xFF;

/// The column layouts a case picks from (every field nullable, at every depth), by index: only the types the
/// decoder reads, with short field names that the seeds' objects use. 0-6 are flat; 7-11 nest ARRAY (`List`),
/// MAP and MULTISET (`Map` with `Utf8` keys) and ROW (`Struct`), and hold DATE, TIME, TIMESTAMP and
/// TIMESTAMP_LTZ, with the Arrow shapes of `flink_decode_goldens`' `arrow_type`.
pub fn schema(index: usize) -> SchemaRef {
    use DataType::*;
    let columns: Vec<(&str, DataType)> = match index % SCHEMA_COUNT {
        0 => vec![("a", Int64), ("b", Boolean), ("s", Utf8)],
        1 => vec![("a", Int8), ("b", Int16), ("c", Int32), ("d", Int64)],
        2 => vec![("a", Float32), ("b", Float64), ("s", Utf8)],
        // A DECIMAL column makes Jackson read floating-point numbers as BigDecimal, which a string column's
        // echo of an object shows.
        3 => vec![
            ("a", Decimal128(10, 2)),
            ("b", Decimal128(38, 0)),
            ("c", Decimal128(5, 5)),
            ("s", Utf8),
        ],
        4 => vec![("s", Utf8), ("b", Binary), ("a", Int32)],
        5 => vec![
            ("a", Boolean),
            ("b", Int64),
            ("c", Float64),
            ("d", Decimal128(18, 3)),
            ("s", Utf8),
            ("x", Binary),
        ],
        6 => vec![("s", Utf8)],
        // a ARRAY<INT>, s STRING.
        7 => vec![("a", list(Int32)), ("s", Utf8)],
        // m MAP<STRING, BIGINT>, r ROW<x INT, y STRING>.
        8 => vec![
            ("m", map(Int64)),
            ("r", row(vec![("x", Int32), ("y", Utf8)])),
        ],
        // r ROW<a ARRAY<ROW<b BIGINT, c DECIMAL(10, 2)>>, d MAP<STRING, ARRAY<DOUBLE>>>: a decimal three deep.
        9 => vec![(
            "r",
            row(vec![
                ("a", list(row(vec![("b", Int64), ("c", Decimal128(10, 2))]))),
                ("d", map(list(Float64))),
            ]),
        )],
        // d DATE, t TIME(3), ts TIMESTAMP(9), lt TIMESTAMP_LTZ(9).
        10 => vec![
            ("d", Date32),
            ("t", Time32(TimeUnit::Millisecond)),
            ("ts", Timestamp(TimeUnit::Nanosecond, None)),
            ("lt", Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))),
        ],
        // l ARRAY<ARRAY<STRING>>, m MAP<STRING, ROW<t TIMESTAMP_LTZ(9), d DATE>>, n MULTISET<STRING>,
        // b ARRAY<BYTES>: temporal values and strings nested.
        _ => vec![
            ("l", list(list(Utf8))),
            (
                "m",
                map(row(vec![
                    ("t", Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))),
                    ("d", Date32),
                ])),
            ),
            ("n", map(Int32)),
            ("b", list(Binary)),
        ],
    };
    Arc::new(Schema::new(fields(columns)))
}

/// Nullable fields of these names and types.
fn fields(columns: Vec<(&str, DataType)>) -> Vec<Field> {
    columns
        .into_iter()
        .map(|(name, data_type)| Field::new(name, data_type, true))
        .collect()
}

/// ARRAY: a list of nullable elements.
fn list(element: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("element", element, true)))
}

/// MAP<STRING, value> (MULTISET<STRING> with `Int32` values): entries of a non-nullable string key and a
/// nullable value, unordered.
fn map(value: DataType) -> DataType {
    let entries = DataType::Struct(
        vec![
            Field::new("key", DataType::Utf8, false),
            Field::new("value", value, true),
        ]
        .into(),
    );
    DataType::Map(Arc::new(Field::new("entries", entries, false)), false)
}

/// ROW: a struct of nullable fields.
fn row(columns: Vec<(&str, DataType)>) -> DataType {
    DataType::Struct(fields(columns).into())
}

/// How many layouts [`schema`] has.
pub const SCHEMA_COUNT: usize = 12;

/// One chunk to decode, with its options and schema.
#[derive(Debug)]
pub struct Case<'a> {
    /// The decoder options (never both `fail-on-missing-field` and `ignore-parse-errors`).
    pub options: DecoderOptions,
    /// The columns.
    pub schema: SchemaRef,
    /// The messages, 1 to [`MAX_MESSAGES`]; `None` is a null message (a tombstone).
    pub messages: Vec<Option<&'a [u8]>>,
}

impl<'a> Case<'a> {
    /// A case from the fuzzer's bytes; `None` for fewer than two bytes. Byte 0: the options in its low two
    /// bits (0 and 3 the defaults, 1 `ignore-parse-errors`, 2 `fail-on-missing-field`), the [`schema`] in bits
    /// 2-6 (0-31, modulo [`SCHEMA_COUNT`]) and `timestamp-format.standard` in bit 7 (0 `SQL`, 1 `ISO-8601`);
    /// byte 1: which messages are null (bit `i` for message `i`); the rest: the messages, cut at each
    /// [`SEPARATOR`] into at most [`MAX_MESSAGES`].
    pub fn parse(data: &'a [u8]) -> Option<Case<'a>> {
        let (&[flags, nulls], rest) = data.split_first_chunk::<2>()?;
        let options = DecoderOptions::default()
            .with_ignore_parse_errors(flags & 3 == 1)
            .with_fail_on_missing_field(flags & 3 == 2)
            .with_timestamp_standard(if flags & 0x80 == 0 {
                TimestampStandard::Sql
            } else {
                TimestampStandard::Iso8601
            });
        let messages = rest
            .splitn(MAX_MESSAGES, |&b| b == SEPARATOR)
            .enumerate()
            .map(|(i, m)| (nulls >> i & 1 == 0).then_some(m))
            .collect();
        Some(Case {
            options,
            schema: schema(usize::from(flags >> 2 & 0x1f)),
            messages,
        })
    }
}

/// A failure's kind, message index and reason; panics on an error a chunk of messages cannot give.
fn failure(error: &Error) -> (&'static str, usize, &str) {
    match error {
        Error::Decode { message, reason } | Error::NotExact { message, reason } => {
            (error.kind(), *message, reason)
        }
        other => panic!("decoding failed with an error other than Decode or NotExact: {other:?}"),
    }
}

/// Checks one decoded chunk of `messages` on its own.
fn check_batch(schema: &SchemaRef, messages: &[Option<&[u8]>], decoded: &DecodedBatch) {
    let batch = decoded.batch();
    assert_eq!(&batch.schema(), schema, "the batch has another schema");
    for (i, column) in batch.columns().iter().enumerate() {
        column
            .to_data()
            .validate_full()
            .unwrap_or_else(|e| panic!("column {i} does not validate: {e}"));
    }
    let rows = decoded.rows_per_message();
    assert_eq!(rows.len(), messages.len(), "rows_per_message: {rows:?}");
    for (i, message) in messages.iter().enumerate() {
        if message.is_none() {
            assert_eq!(rows[i], 0, "null message {i} gave rows");
        }
    }
    assert_eq!(
        rows.iter().map(|&n| n as usize).sum::<usize>(),
        batch.num_rows(),
        "rows_per_message {rows:?} does not add up to the batch's rows"
    );
    let nulls = decoded.null_rows();
    assert!(
        nulls.windows(2).all(|w| w[0] < w[1]),
        "null_rows not ascending: {nulls:?}"
    );
    for &row in nulls {
        assert!(row < batch.num_rows(), "null row {row} out of range");
        for (i, column) in batch.columns().iter().enumerate() {
            assert!(
                column.is_null(row),
                "null row {row} has a value in column {i}"
            );
        }
    }
}

/// Runs every check on the case cut from `data`; panics when one fails.
pub fn check(data: &[u8]) {
    let Some(case) = Case::parse(data) else {
        return;
    };
    let mut decoder = JsonDecoder::new(case.schema.clone(), case.options.clone())
        .expect("every layout and option set of the target is accepted");
    let ignore = case.options.ignore_parse_errors();
    let messages = &case.messages;

    let whole = decoder.decode(messages.iter().copied());
    match &whole {
        Ok(decoded) => check_batch(&case.schema, messages, decoded),
        Err(e) => {
            let (kind, index, _) = failure(e);
            assert!(index < messages.len(), "message index {index} out of range");
            assert!(
                !(ignore && kind == "DECODE"),
                "Decode error under ignore-parse-errors: {e}"
            );
        }
    }

    // The exact walk alone (no fast path): the same rows, or the same failure.
    let mut exact = JsonDecoder::new(
        case.schema.clone(),
        case.options.clone().with_exact_walk_only(true),
    )
    .expect("the same layout and options");
    match (&whole, &exact.decode(messages.iter().copied())) {
        (Ok(fast), Ok(walked)) => {
            assert_eq!(
                fast.batch(),
                walked.batch(),
                "the fast path's rows differ from the exact walk's"
            );
            assert_eq!(fast.rows_per_message(), walked.rows_per_message());
            assert_eq!(fast.null_rows(), walked.null_rows());
        }
        (Err(fast), Err(walked)) => assert_eq!(
            failure(fast),
            failure(walked),
            "the fast path fails otherwise than the exact walk"
        ),
        (fast, walked) => panic!(
            "the fast path ({:?}) and the exact walk ({:?}) disagree",
            fast.as_ref().err(),
            walked.as_ref().err()
        ),
    }

    // Each message alone, through the same decoder, up to the first that fails.
    let mut singles = Vec::with_capacity(messages.len());
    let mut first_failure = None;
    for (i, &message) in messages.iter().enumerate() {
        match decoder.decode([message]) {
            Ok(decoded) => {
                check_batch(&case.schema, &[message], &decoded);
                singles.push(decoded);
            }
            Err(e) => {
                let (kind, index, reason) = failure(&e);
                assert_eq!(index, 0, "a single message's error names message {index}");
                first_failure = Some((kind, i, reason.to_owned()));
                break;
            }
        }
    }

    check_binary(&mut decoder, messages, &whole, &singles);

    match (&whole, first_failure) {
        (Err(e), Some((kind, index, reason))) => {
            let (whole_kind, whole_index, whole_reason) = failure(e);
            assert_eq!(
                (whole_kind, whole_index, whole_reason),
                (kind, index, reason.as_str()),
                "the chunk fails otherwise than its first failing message alone"
            );
        }
        (Err(e), None) => panic!("the chunk fails ({e}) but every message alone decodes"),
        (Ok(_), Some((kind, index, reason))) => {
            panic!("the chunk decodes but message {index} alone fails: {kind}: {reason}")
        }
        (Ok(decoded), None) => compare_with_singles(decoded, &singles),
    }

    let again = decoder.decode(messages.iter().copied());
    match (&whole, &again) {
        (Ok(first), Ok(second)) => {
            assert_eq!(first.batch(), second.batch(), "a second decode differs");
            assert_eq!(first.rows_per_message(), second.rows_per_message());
            assert_eq!(first.null_rows(), second.null_rows());
        }
        (Err(first), Err(second)) => {
            assert_eq!(
                failure(first),
                failure(second),
                "a second decode fails otherwise"
            )
        }
        (first, second) => panic!(
            "a second decode differs: {:?} then {:?}",
            first.as_ref().err(),
            second.as_ref().err()
        ),
    }
}

/// `decode_binary` against `decode` of the same chunk: the same stop (kind, message, reason), the rows of the
/// messages before it (as many per message as decoded alone), the same null rows, and rows whose sizes are
/// whole 8-byte words holding at least a row's fixed part.
fn check_binary(
    decoder: &mut JsonDecoder,
    messages: &[Option<&[u8]>],
    whole: &Result<DecodedBatch, Error>,
    singles: &[DecodedBatch],
) {
    let mut rows = BinaryRows::new();
    let binary = decoder.decode_binary(messages.iter().copied(), &mut rows);
    match (whole, &binary) {
        (Ok(decoded), Ok(())) => {
            assert_eq!(rows.rows_per_message(), decoded.rows_per_message());
            let nulls: Vec<usize> = rows.null_rows().iter().map(|&r| r as usize).collect();
            assert_eq!(nulls, decoded.null_rows(), "binary null rows");
        }
        (Err(e), Err(b)) => assert_eq!(failure(e), failure(b), "binary rows stop otherwise"),
        (e, b) => panic!(
            "decode_binary ({:?}) and decode ({:?}) disagree",
            b.as_ref().err(),
            e.as_ref().err()
        ),
    }
    let alone: Vec<u32> = singles
        .iter()
        .flat_map(|s| s.rows_per_message().iter().copied())
        .collect();
    assert_eq!(
        rows.rows_per_message(),
        &alone[..rows.rows_per_message().len()]
    );
    let per_message: u32 = rows.rows_per_message().iter().sum();
    assert_eq!(rows.rows(), per_message as usize);
    let arity = decoder.schema().fields().len();
    let fixed = (arity + 63 + 8) / 64 * 8 + 8 * arity;
    for r in 0..rows.rows() {
        let row = rows.row(r);
        assert!(
            row.len().is_multiple_of(8) && row.len() >= fixed,
            "binary row {r}: {} bytes",
            row.len()
        );
    }
}

/// The chunk's rows, `rows_per_message` and `null_rows` against its messages decoded alone.
fn compare_with_singles(whole: &DecodedBatch, singles: &[DecodedBatch]) {
    let batch: &RecordBatch = whole.batch();
    let mut offset = 0;
    let mut rows_per_message = Vec::new();
    let mut null_rows = Vec::new();
    for (i, single) in singles.iter().enumerate() {
        let n = single.batch().num_rows();
        assert!(
            offset + n <= batch.num_rows(),
            "message {i} alone gives more rows than the chunk has left"
        );
        let part = batch.slice(offset, n);
        for (c, (ours, alone)) in part
            .columns()
            .iter()
            .zip(single.batch().columns())
            .enumerate()
        {
            assert_eq!(
                ours.to_data(),
                alone.to_data(),
                "message {i}, column {c}: the chunk's rows differ from the message decoded alone"
            );
        }
        rows_per_message.extend_from_slice(single.rows_per_message());
        null_rows.extend(single.null_rows().iter().map(|r| r + offset));
        offset += n;
    }
    assert_eq!(
        offset,
        batch.num_rows(),
        "the chunk has more rows than its messages"
    );
    assert_eq!(
        whole.rows_per_message(),
        rows_per_message,
        "rows_per_message"
    );
    assert_eq!(whole.null_rows(), null_rows, "null_rows");
}
