//! Nexmark bids as Arrow batches and their Kafka records, shared by `produce` and `verify`.
//!
//! The bids come from the `nexmark` crate's [`EventGenerator`] filtered to bids. It seeds
//! every event's random choices from the event's number, so bid `i` is the same on every
//! run once the configuration is fixed; the one input that is not fixed by default, the
//! base time of the event timestamps, is set here ([`BidOptions::base_time_ms`], the
//! "seed" of a run). That is what lets `produce` resume after bid `n` (the generator
//! starts at offset `n`) and `verify` regenerate exactly the records `produce` wrote.
//!
//! Columns: `auction`, `bidder`, `price` (Int64), `channel`, `url` (Utf8), `dateTime`
//! (Timestamp ms, no time zone), `extra` (Utf8). Records: [`JsonEncoder`] in Flink mode,
//! key fields [`BidOptions::key_fields`].

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use nexmark::config::NexmarkConfig;
use nexmark::event::{Event, EventType};
use nexmark::EventGenerator;
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};

use crate::source::JsonMode;
use crate::Error;

/// The default base time of the bids' `dateTime`: 2026-01-01T00:00:00Z in milliseconds.
pub const DEFAULT_BASE_TIME_MS: u64 = 1_767_225_600_000;

/// What fixes the records of a run: the same options give the same records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BidOptions {
    /// Base time of the event timestamps (Unix milliseconds).
    pub base_time_ms: u64,
    /// `key.fields` of the encoder: `;`-separated column names, empty for null keys.
    pub key_fields: String,
}

/// Generates bids by position and encodes them.
pub struct BidSource {
    generator: EventGenerator,
    schema: SchemaRef,
    encoder: JsonEncoder,
}

impl std::fmt::Debug for BidSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BidSource")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

/// The Arrow schema of the bid batches.
#[must_use]
pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("auction", DataType::Int64, false),
        Field::new("bidder", DataType::Int64, false),
        Field::new("price", DataType::Int64, false),
        Field::new("channel", DataType::Utf8, false),
        Field::new("url", DataType::Utf8, false),
        Field::new(
            "dateTime",
            DataType::Timestamp(TimeUnit::Millisecond, None),
            false,
        ),
        Field::new("extra", DataType::Utf8, false),
    ]))
}

fn as_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl BidSource {
    /// A source for `options`.
    ///
    /// # Errors
    /// [`Error::Encode`] when the key fields are not columns of the bids.
    pub fn new(options: &BidOptions) -> Result<Self, Error> {
        Self::with_mode(options, JsonMode::Flink)
    }

    /// [`new`](Self::new), encoding in `mode` (Flink's `json` format or arrow-json's plain lines).
    ///
    /// # Errors
    /// [`Error::Encode`] when the key fields are not columns of the bids.
    pub fn with_mode(options: &BidOptions, mode: JsonMode) -> Result<Self, Error> {
        let config = NexmarkConfig {
            base_time: options.base_time_ms,
            ..NexmarkConfig::default()
        };
        let generator = EventGenerator::new(config).with_type_filter(EventType::Bid);
        let encoder_options = EncoderOptions::from_pairs([
            ("mode", mode.name()),
            ("key.fields", options.key_fields.as_str()),
        ])?;
        let mut encoder = JsonEncoder::new(encoder_options)?;
        let schema = schema();
        encoder.plan(&schema)?;
        Ok(Self {
            generator,
            schema,
            encoder,
        })
    }

    /// Bids `start .. start + rows` as one batch.
    ///
    /// # Errors
    /// [`Error::Arrow`] if the batch cannot be built (it always can).
    pub fn batch(&self, start: u64, rows: usize) -> Result<RecordBatch, Error> {
        let mut auction = Vec::with_capacity(rows);
        let mut bidder = Vec::with_capacity(rows);
        let mut price = Vec::with_capacity(rows);
        let mut channel = Vec::with_capacity(rows);
        let mut url = Vec::with_capacity(rows);
        let mut date_time = Vec::with_capacity(rows);
        let mut extra = Vec::with_capacity(rows);
        let events = self.generator.clone().with_offset(start);
        for event in events.take(rows) {
            let Event::Bid(bid) = event else {
                unreachable!("the generator is filtered to bids")
            };
            auction.push(as_i64(bid.auction as u64));
            bidder.push(as_i64(bid.bidder as u64));
            price.push(as_i64(bid.price as u64));
            date_time.push(as_i64(bid.date_time));
            channel.push(bid.channel);
            url.push(bid.url);
            extra.push(bid.extra);
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(auction)),
            Arc::new(Int64Array::from(bidder)),
            Arc::new(Int64Array::from(price)),
            Arc::new(StringArray::from(channel)),
            Arc::new(StringArray::from(url)),
            Arc::new(TimestampMillisecondArray::from(date_time)),
            Arc::new(StringArray::from(extra)),
        ];
        RecordBatch::try_new(self.schema.clone(), columns).map_err(Error::Arrow)
    }

    /// Bids `start .. start + rows` encoded into `out` (cleared first).
    ///
    /// # Errors
    /// [`Error::Encode`] when the encoder refuses the batch.
    pub fn encode_into(
        &mut self,
        start: u64,
        rows: usize,
        out: &mut EncodedRecords,
    ) -> Result<(), Error> {
        let batch = self.batch(start, rows)?;
        self.encoder.encode_into(&batch, out)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> BidOptions {
        BidOptions {
            base_time_ms: DEFAULT_BASE_TIME_MS,
            key_fields: "auction".into(),
        }
    }

    #[test]
    fn bids_are_the_same_by_position_whatever_the_batching() {
        let mut source = BidSource::new(&options()).unwrap();
        let mut whole = EncodedRecords::new();
        source.encode_into(0, 10, &mut whole).unwrap();
        let mut part = EncodedRecords::new();
        source.encode_into(6, 4, &mut part).unwrap();
        for row in 0..4 {
            assert_eq!(whole.key(6 + row), part.key(row));
            assert_eq!(whole.value(6 + row), part.value(row));
        }
        let mut other = BidSource::new(&options()).unwrap();
        let mut again = EncodedRecords::new();
        other.encode_into(0, 10, &mut again).unwrap();
        assert_eq!(whole.values(), again.values());
    }

    #[test]
    fn records_are_flink_json_keyed_by_auction() {
        let mut source = BidSource::new(&options()).unwrap();
        let mut records = EncodedRecords::new();
        source.encode_into(0, 1, &mut records).unwrap();
        let key = std::str::from_utf8(records.key(0).unwrap()).unwrap();
        let value = std::str::from_utf8(records.value(0).unwrap()).unwrap();
        assert!(key.starts_with("{\"auction\":"), "{key}");
        assert!(value.starts_with("{\"auction\":"), "{value}");
        assert!(
            value.contains("\"dateTime\":\"2026-01-01 00:00:"),
            "{value}"
        );
    }

    #[test]
    fn unknown_key_field_is_refused() {
        let options = BidOptions {
            key_fields: "nope".into(),
            ..options()
        };
        assert!(BidSource::new(&options).is_err());
    }
}
