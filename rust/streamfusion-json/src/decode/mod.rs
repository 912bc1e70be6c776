//! Kafka JSON messages → rows of an Arrow schema, with the semantics of Flink's `json` format deserializer
//! (`JsonParserRowDataDeserializationSchema`, the default since Flink 1.18, and its
//! `JsonParserToRowDataConverters`), a chunk of messages per call ([`JsonDecoder`]).
//!
//! The decoder is a port of Flink's token walk over a parser with Jackson's token model and acceptance rules
//! (module `lexer`), so that what Flink makes of a message — including its leniencies and the way a field that
//! fails under `ignore-parse-errors` leaves the walk where the failure left it — comes out the same:
//!
//! - the root must be an object; a null or empty message gives no row;
//! - the object walk counts the keys it has matched; once it has matched as many as the row has fields, it only
//!   skips tokens to the end of the object (a repeated key counts each time: `{"a":1,"a":2,"b":3}` read as
//!   `(a, b)` gives `a = 2, b = null`); unknown keys are skipped; a missing field is null unless
//!   `fail-on-missing-field`; nothing after the root object is read;
//! - each column converts as Flink's converter for its type does (Java's `parseInt`, `parseDouble`,
//!   `new BigDecimal`, `Boolean.parseBoolean` on the trimmed text of strings; Jackson's accessors on numbers);
//! - a message Flink rejects fails the chunk with [`Error::Decode`] naming the message, unless
//!   `ignore-parse-errors`, under which a failing field is null, a message that fails inside its object gives a
//!   null row ([`DecodedBatch::null_rows`]) and one that fails before gives no row.
//!
//! Where this port does not reproduce Flink's answer for a message (the cases are listed on
//! [`Error::NotExact`]), it says so instead of guessing: a front end that has Flink at hand (the JVM) decodes that
//! message with Flink's own deserializer.
//!
//! Columns: Boolean (BOOLEAN), Int8/16/32/64 (TINYINT, SMALLINT, INT, BIGINT), Float32 (FLOAT), Float64 (DOUBLE),
//! Decimal128 (DECIMAL), Utf8 and LargeUtf8 (CHAR, VARCHAR, STRING), Binary and LargeBinary (BINARY, VARBINARY,
//! BYTES), Date32 (DATE), Time32 in seconds or milliseconds and Time64 (TIME, whole seconds as Flink 2.2 keeps),
//! Timestamp without a time zone (TIMESTAMP) and with one (TIMESTAMP_LTZ, the instant in UTC) in any unit that
//! holds the value exactly (Flink keeps nanoseconds whatever the declared precision: a value with a finer part
//! than the column's unit is left to Flink, [`Error::NotExact`]). Other types are refused by [`JsonDecoder::new`]
//! with [`Error::UnsupportedType`].

mod binary;
mod column;
mod fast;
mod jackson;
mod java;
mod java_hash;
mod lexer;
mod row;
mod temporal;

use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchOptions};
use arrow_schema::SchemaRef;

use crate::error::{Error, Result};
use crate::options::TimestampStandard;
pub use binary::BinaryRows;
use column::{ArrowRows, RowShape};
use row::{Outcome, RowDecoder, RowSink};

/// The options of Flink's `json` format that change decoding, with Flink's names and defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecoderOptions {
    fail_on_missing_field: bool,
    ignore_parse_errors: bool,
    timestamp_standard: TimestampStandard,
    exact_walk_only: bool,
}

impl DecoderOptions {
    /// `json.fail-on-missing-field` (default false): a message without one of the row's fields fails.
    pub fn with_fail_on_missing_field(mut self, fail: bool) -> Self {
        self.fail_on_missing_field = fail;
        self
    }

    /// `json.ignore-parse-errors` (default false): a field that cannot be converted is null, a message that
    /// cannot be read gives no row, instead of failing.
    pub fn with_ignore_parse_errors(mut self, ignore: bool) -> Self {
        self.ignore_parse_errors = ignore;
        self
    }

    /// `json.timestamp-format.standard` (default `SQL`).
    pub fn with_timestamp_standard(mut self, standard: TimestampStandard) -> Self {
        self.timestamp_standard = standard;
        self
    }

    /// Decodes every message with the exact token walk, leaving out the fast path that takes messages in the
    /// shape Flink's serializer writes (default false). The rows are the same either way (the fast path gives a
    /// message up wherever the walk could differ); for comparisons and tests.
    pub fn with_exact_walk_only(mut self, exact: bool) -> Self {
        self.exact_walk_only = exact;
        self
    }

    /// Reads Flink's option names, with or without the `json.` prefix: `fail-on-missing-field`,
    /// `ignore-parse-errors` (`true`/`false`, case-insensitive) and `timestamp-format.standard` (`SQL`,
    /// `ISO-8601`).
    ///
    /// # Errors
    /// [`Error::InvalidOption`] for another name or a value out of its set, and for `fail-on-missing-field` and
    /// `ignore-parse-errors` both true, which Flink's json format refuses ("fail-on-missing-field and
    /// ignore-parse-errors shouldn't both be true.").
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self> {
        let mut options = DecoderOptions::default();
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            let name = key.strip_prefix("json.").unwrap_or(key);
            let flag = || match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(Error::InvalidOption {
                    key: key.to_owned(),
                    message: format!("'{value}' is not a boolean (true or false)"),
                }),
            };
            match name {
                "fail-on-missing-field" => options.fail_on_missing_field = flag()?,
                "ignore-parse-errors" => options.ignore_parse_errors = flag()?,
                "timestamp-format.standard" => {
                    options.timestamp_standard = match value {
                        "SQL" => TimestampStandard::Sql,
                        "ISO-8601" => TimestampStandard::Iso8601,
                        _ => {
                            return Err(Error::InvalidOption {
                                key: key.to_owned(),
                                message: format!("'{value}' is not SQL or ISO-8601"),
                            })
                        }
                    }
                }
                _ => {
                    return Err(Error::InvalidOption {
                        key: key.to_owned(),
                        message:
                            "not a decoding option of the json format (fail-on-missing-field, \
                                  ignore-parse-errors, timestamp-format.standard)"
                                .to_owned(),
                    })
                }
            }
        }
        options.validate()?;
        Ok(options)
    }

    fn validate(&self) -> Result<()> {
        if self.fail_on_missing_field && self.ignore_parse_errors {
            return Err(Error::InvalidOption {
                key: "json.fail-on-missing-field".to_owned(),
                message: "fail-on-missing-field and ignore-parse-errors shouldn't both be true."
                    .to_owned(),
            });
        }
        Ok(())
    }

    /// `json.fail-on-missing-field`.
    pub fn fail_on_missing_field(&self) -> bool {
        self.fail_on_missing_field
    }

    /// `json.ignore-parse-errors`.
    pub fn ignore_parse_errors(&self) -> bool {
        self.ignore_parse_errors
    }

    /// `json.timestamp-format.standard`.
    pub fn timestamp_standard(&self) -> TimestampStandard {
        self.timestamp_standard
    }

    /// Whether the fast path is left out ([`with_exact_walk_only`](Self::with_exact_walk_only)).
    pub fn exact_walk_only(&self) -> bool {
        self.exact_walk_only
    }
}

/// Decodes chunks of Kafka JSON messages into [`RecordBatch`]es of one schema, as Flink's `json` format
/// deserializer makes rows (module documentation).
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::cast::AsArray;
/// use arrow_array::types::Int64Type;
/// use arrow_schema::{DataType, Field, Schema};
/// use streamfusion_json::{DecoderOptions, JsonDecoder};
///
/// let schema = Arc::new(Schema::new(vec![
///     Field::new("id", DataType::Int64, true),
///     Field::new("name", DataType::Utf8, true),
/// ]));
/// let mut decoder = JsonDecoder::new(schema, DecoderOptions::default())?;
/// let decoded = decoder.decode([Some(&br#"{"name":"a","id":"7"}"#[..]), None, Some(b"{}")])?;
/// assert_eq!(decoded.rows_per_message(), &[1, 0, 1]);
/// let batch = decoded.batch();
/// assert_eq!(batch.column(0).as_primitive::<Int64Type>().value(0), 7);
/// assert_eq!(batch.column(1).as_string::<i32>().value(0), "a");
/// assert!(batch.column(0).is_null(1));
/// # Ok::<(), streamfusion_json::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonDecoder {
    schema: SchemaRef,
    rows: RowDecoder,
    arrow: ArrowRows,
}

/// One decoded chunk: the rows, how many rows each message gave (0 for a null, empty or skipped message), and
/// which rows are null rows.
#[derive(Debug)]
pub struct DecodedBatch {
    batch: RecordBatch,
    rows_per_message: Vec<u32>,
    null_rows: Vec<usize>,
}

impl DecodedBatch {
    /// The rows of every message of the chunk, in message order.
    pub fn batch(&self) -> &RecordBatch {
        &self.batch
    }

    /// The batch, taken.
    pub fn into_batch(self) -> RecordBatch {
        self.batch
    }

    /// Rows per message, one entry per message of the chunk.
    pub fn rows_per_message(&self) -> &[u32] {
        &self.rows_per_message
    }

    /// The rows (indices into [`batch`](Self::batch), ascending) that stand for a null row: under
    /// `ignore-parse-errors`, Flink's deserializer collects a null `RowData` for a message that fails inside its
    /// object. Their fields are all null in the batch.
    pub fn null_rows(&self) -> &[usize] {
        &self.null_rows
    }
}

impl JsonDecoder {
    /// A decoder for rows of `schema` (one column per field, matched by name with the JSON keys).
    ///
    /// # Errors
    /// [`Error::UnsupportedType`] for a column of a type the decoder does not read (module documentation);
    /// [`Error::InvalidOption`] for options Flink refuses together.
    pub fn new(schema: SchemaRef, options: DecoderOptions) -> Result<Self> {
        options.validate()?;
        let shape = RowShape::of(schema.fields()).map_err(|(field, data_type)| Error::UnsupportedType {
            field,
            data_type,
            mode: "Flink-mode",
            reason: "the JSON decoder reads BOOLEAN, TINYINT to BIGINT, FLOAT, DOUBLE, DECIMAL, strings, binary, \
                     DATE, TIME, TIMESTAMP, lists, maps with string keys and structs, every field nullable"
                .to_owned(),
        })?;
        Ok(JsonDecoder {
            rows: RowDecoder::new(Arc::new(shape), options),
            arrow: ArrowRows::new(schema.fields()),
            schema,
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Decodes a chunk of messages (`None`: a null message, such as a tombstone), in order.
    ///
    /// # Errors
    /// [`Error::Decode`] for the first message Flink would fail on (never under `ignore-parse-errors`);
    /// [`Error::NotExact`] for the first message whose result this decoder does not reproduce. Either way no
    /// batch is returned; decode the other messages in chunks of their own.
    pub fn decode<'m>(
        &mut self,
        messages: impl IntoIterator<Item = Option<&'m [u8]>>,
    ) -> Result<DecodedBatch> {
        let mut rows_per_message = Vec::new();
        for (index, message) in messages.into_iter().enumerate() {
            let before = self.arrow.len();
            if let Err(e) = outcome(
                index,
                message,
                self.rows.decode_message(message, &mut self.arrow),
            ) {
                let _ = self.arrow.finish();
                return Err(e);
            }
            rows_per_message.push((self.arrow.len() - before) as u32);
        }
        let null_rows = self.arrow.null_rows().to_vec();
        let row_count = self.arrow.len();
        let columns = self.arrow.finish();
        // The row count given, for a row type of no fields (a value of only key columns), whose batch has none.
        let batch = RecordBatch::try_new_with_options(
            Arc::clone(&self.schema),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(row_count)),
        )?;
        Ok(DecodedBatch {
            batch,
            rows_per_message,
            null_rows,
        })
    }

    /// Decodes a chunk of messages (`None`: a null message) into Flink's binary rows (`BinaryRowData`, the
    /// layout of [`BinaryRows`]), in order, replacing what `out` held: the form the JVM hands to Flink.
    ///
    /// Unlike [`decode`](Self::decode), a message that stops the chunk keeps the rows before it: when this
    /// returns an error for message `i`, `out` holds the rows of messages `0..i`
    /// (`out.rows_per_message().len() == i`), so a caller that has Flink at hand lets Flink decode message `i`
    /// and goes on natively from `i + 1`.
    ///
    /// # Errors
    /// [`Error::Decode`] for a message Flink would fail on (never under `ignore-parse-errors`);
    /// [`Error::NotExact`] for a message whose result this decoder does not reproduce;
    /// [`Error::SlabTooLarge`] for a message whose rows would take the chunk's rows past 2^31 - 1 bytes (the
    /// reach of `i32` offsets): decode it in a chunk of its own.
    pub fn decode_binary<'m>(
        &mut self,
        messages: impl IntoIterator<Item = Option<&'m [u8]>>,
        out: &mut BinaryRows,
    ) -> Result<()> {
        out.clear();
        for (index, message) in messages.into_iter().enumerate() {
            let mark = out.mark();
            let stop =
                outcome(index, message, self.rows.decode_message(message, out)).and_then(|()| {
                    if out.len_bytes() > i32::MAX as usize {
                        Err(Error::SlabTooLarge {
                            slab: "binary row",
                            bytes: out.len_bytes(),
                        })
                    } else {
                        Ok(())
                    }
                });
            if let Err(e) = stop {
                out.roll_back(mark);
                return Err(e);
            }
            out.push_message((out.rows() - mark) as u32);
        }
        Ok(())
    }
}

/// A message's [`Outcome`] as this module's errors, naming the message by its `index` in the chunk.
fn outcome(index: usize, message: Option<&[u8]>, outcome: Outcome) -> Result<()> {
    match outcome {
        Outcome::Done => Ok(()),
        Outcome::Failed(reason) => Err(Error::Decode {
            message: index,
            reason: format!(
                "Failed to deserialize JSON '{}': {reason}",
                String::from_utf8_lossy(message.unwrap_or_default())
            ),
        }),
        Outcome::NotExact(reason) => Err(Error::NotExact {
            message: index,
            reason,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::Schema;

    /// A value of key columns only (`EXCEPT_KEY`): rows of no fields, one per object message, in both forms.
    #[test]
    fn rows_of_no_fields_are_counted() {
        let mut decoder = JsonDecoder::new(Arc::new(Schema::empty()), DecoderOptions::default())
            .expect("a decoder of no fields");
        let messages = [Some(&b"{}"[..]), Some(&b"{\"a\":1}"[..]), None];
        let decoded = decoder.decode(messages).expect("decodes");
        assert_eq!(decoded.batch().num_rows(), 2);
        let mut rows = BinaryRows::new();
        decoder.decode_binary(messages, &mut rows).expect("decodes");
        assert_eq!(rows.rows(), 2);
    }
}
