//! The contenders: how one Arrow batch of bids becomes the Kafka records handed to `Sink::write`.
//!
//! * `streamfusion-flink`: [`JsonEncoder::encode_into`] once per batch into one reused [`EncodedRecords`],
//!   Flink mode (the product, byte-identical to Flink's `json` format).
//! * `streamfusion-plain`: the same call in plain mode, whose bytes are arrow-json's.
//! * `arrow-json-per-row`: arrow-json 60.1 used the way a per-record sink uses a serializer: each row is sliced
//!   off the batch (`RecordBatch::slice(row, 1)`, zero-copy) and written by a new `LineDelimitedWriter` into a
//!   new `Vec` (its trailing newline dropped), once for the key (the key columns projected) and once for the
//!   value. The two `Vec`s are then copied into the batch's `EncodedRecords` ([`EncodedRecords::push`]) so the
//!   records reach the same `Sink::write` as the others; that copy (about 260 bytes per record) is counted
//!   as encoding.
//!
//! The per-row contender produces exactly the bytes of `streamfusion-plain` (both are arrow-json's), which the
//! tests check; Flink mode differs only in the timestamp text (`2026-01-01 00:00:00.123` against arrow-json's
//! `2026-01-01T00:00:00.123`).

use arrow_array::RecordBatch;
use arrow_json::LineDelimitedWriter;
use arrow_schema::SchemaRef;
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};

use crate::Error;

/// How bids become records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Encoder {
    /// StreamFusion's encoder in Flink mode, one call per batch.
    #[value(alias = "streamfusion")]
    StreamfusionFlink,
    /// StreamFusion's encoder in plain mode (arrow-json's bytes), one call per batch.
    StreamfusionPlain,
    /// arrow-json's `LineDelimitedWriter` once per row for the value and once for the key.
    ArrowJsonPerRow,
}

impl Encoder {
    /// The name in tables and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoder::StreamfusionFlink => "streamfusion-flink",
            Encoder::StreamfusionPlain => "streamfusion-plain",
            Encoder::ArrowJsonPerRow => "arrow-json-per-row",
        }
    }
}

/// One contender, set up for one schema and key.
#[derive(Debug)]
pub enum BatchEncoder {
    /// A planned StreamFusion encoder (Flink or plain mode), boxed: it is large.
    StreamFusion(Box<JsonEncoder>),
    /// arrow-json per row; the indices of the key columns (empty: null keys).
    PerRow {
        /// Column indices of the key, in `key.fields` order.
        key_columns: Vec<usize>,
    },
}

impl BatchEncoder {
    /// `encoder` for batches of `schema`, keyed by `key_fields` (`;`-separated column names; empty for null
    /// keys, as the Flink connector's `key.fields`).
    ///
    /// # Errors
    /// [`Error::Encode`] when StreamFusion refuses the options or the schema (an unknown key field);
    /// [`Error::ArrowJson`] when a key field is not a column (per row).
    pub fn new(encoder: Encoder, schema: &SchemaRef, key_fields: &str) -> Result<Self, Error> {
        let mode = match encoder {
            Encoder::StreamfusionFlink => "flink",
            Encoder::StreamfusionPlain => "plain",
            Encoder::ArrowJsonPerRow => {
                let key_columns = key_fields
                    .split(';')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(|name| schema.index_of(name).map_err(Error::ArrowJson))
                    .collect::<Result<_, _>>()?;
                return Ok(BatchEncoder::PerRow { key_columns });
            }
        };
        let options = EncoderOptions::from_pairs([("mode", mode), ("key.fields", key_fields)])?;
        let mut json = JsonEncoder::new(options)?;
        json.plan(schema)?;
        Ok(BatchEncoder::StreamFusion(Box::new(json)))
    }

    /// The records of `batch`, in row order, into `out` (cleared first).
    ///
    /// # Errors
    /// [`Error::Encode`] from StreamFusion, [`Error::ArrowJson`] from arrow-json.
    pub fn encode_into(
        &mut self,
        batch: &RecordBatch,
        out: &mut EncodedRecords,
    ) -> Result<(), Error> {
        match self {
            BatchEncoder::StreamFusion(json) => Ok(json.encode_into(batch, out)?),
            BatchEncoder::PerRow { key_columns } => {
                out.clear();
                let keys = if key_columns.is_empty() {
                    None
                } else {
                    Some(batch.project(key_columns).map_err(Error::ArrowJson)?)
                };
                for row in 0..batch.num_rows() {
                    let key = keys
                        .as_ref()
                        .map(|keys| line(&keys.slice(row, 1)))
                        .transpose()?;
                    let value = line(&batch.slice(row, 1))?;
                    out.push(key.as_deref(), Some(&value))?;
                }
                Ok(())
            }
        }
    }
}

/// arrow-json's line for a one-row batch, without the newline: what a per-record serializer returns.
fn line(row: &RecordBatch) -> Result<Vec<u8>, Error> {
    let mut writer = LineDelimitedWriter::new(Vec::new());
    writer.write(row).map_err(Error::ArrowJson)?;
    writer.finish().map_err(Error::ArrowJson)?;
    let mut bytes = writer.into_inner();
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamfusion_cli::bids::{schema, BidOptions, BidSource, DEFAULT_BASE_TIME_MS};

    fn bids(start: u64, rows: usize) -> RecordBatch {
        let source = BidSource::new(&BidOptions {
            base_time_ms: DEFAULT_BASE_TIME_MS,
            key_fields: "auction".into(),
        })
        .unwrap();
        source.batch(start, rows).unwrap()
    }

    fn encode(encoder: Encoder, batch: &RecordBatch, key_fields: &str) -> EncodedRecords {
        let mut out = EncodedRecords::new();
        BatchEncoder::new(encoder, &schema(), key_fields)
            .unwrap()
            .encode_into(batch, &mut out)
            .unwrap();
        out
    }

    /// arrow-json's `LineDelimitedWriter` over the whole batch, split into lines: the reference both the
    /// per-row contender and plain mode must match.
    fn writer_lines(batch: &RecordBatch) -> Vec<Vec<u8>> {
        let mut writer = LineDelimitedWriter::new(Vec::new());
        writer.write(batch).unwrap();
        writer.finish().unwrap();
        let text = writer.into_inner();
        text.split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    }

    #[test]
    fn per_row_and_plain_mode_give_arrow_json_bytes_row_for_row() {
        let batch = bids(10_000, 1000);
        let reference = writer_lines(&batch);
        let reference_keys = writer_lines(&batch.project(&[0]).unwrap());
        let per_row = encode(Encoder::ArrowJsonPerRow, &batch, "auction");
        let plain = encode(Encoder::StreamfusionPlain, &batch, "auction");
        assert_eq!(per_row.len(), 1000);
        for row in 0..1000 {
            assert_eq!(
                per_row.value(row),
                Some(&reference[row][..]),
                "per-row value {row}"
            );
            assert_eq!(
                per_row.key(row),
                Some(&reference_keys[row][..]),
                "per-row key {row}"
            );
            assert_eq!(plain.value(row), per_row.value(row), "plain value {row}");
            assert_eq!(plain.key(row), per_row.key(row), "plain key {row}");
        }
    }

    #[test]
    fn flink_mode_differs_from_arrow_json_only_in_the_timestamp_text() {
        let batch = bids(0, 200);
        let flink = encode(Encoder::StreamfusionFlink, &batch, "auction");
        let per_row = encode(Encoder::ArrowJsonPerRow, &batch, "auction");
        for row in 0..200 {
            assert_eq!(flink.key(row), per_row.key(row), "key {row}");
            let flink = std::str::from_utf8(flink.value(row).unwrap()).unwrap();
            let arrow = std::str::from_utf8(per_row.value(row).unwrap()).unwrap();
            // "dateTime":"2026-01-01 00:00:00.1" against "dateTime":"2026-01-01T00:00:00.100" and the like.
            let cut = |text: &str| {
                let start = text.find("\"dateTime\":\"").unwrap();
                let end = start + 12 + text[start + 12..].find('"').unwrap();
                (text[..start].to_owned(), text[end..].to_owned())
            };
            assert_eq!(cut(flink), cut(arrow), "row {row}: {flink} / {arrow}");
        }
    }

    #[test]
    fn empty_key_fields_give_null_keys_and_unknown_ones_are_refused() {
        let batch = bids(0, 3);
        for encoder in [
            Encoder::StreamfusionFlink,
            Encoder::StreamfusionPlain,
            Encoder::ArrowJsonPerRow,
        ] {
            let records = encode(encoder, &batch, "");
            assert_eq!(records.key(2), None, "{}", encoder.name());
            assert!(
                BatchEncoder::new(encoder, &schema(), "nope").is_err(),
                "{}",
                encoder.name()
            );
        }
    }
}
