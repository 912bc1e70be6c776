//! The rows and contenders the JSON benches use (`json_batch` times them, `json_instructions` counts their
//! instructions; `json_decode` takes the seeded generator for its messages): seeded Nexmark bid and q9-like batches, arrow-json's writer over a batch and per row, a typed
//! serde struct per row, and our encoder with options.

#![allow(dead_code)] // each bench target uses its own subset

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{
    ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray,
};
use streamfusion_json::{EncoderOptions, JsonEncoder};

/// Rows per batch.
pub const ROWS: usize = 4096;

/// splitmix64: deterministic data without a dependency.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn text(&mut self, min: usize, max: usize) -> String {
        let len = min + self.below((max - min + 1) as u64) as usize;
        (0..len)
            .map(|_| (b'a' + self.below(26) as u8) as char)
            .collect()
    }
}

pub const CHANNELS: [&str; 4] = ["Google", "Facebook", "Baidu", "Apple"];
/// 2026-11-29T00:00:00Z in epoch milliseconds.
const START_MS: i64 = 1_795_910_400_000;

pub fn bid_columns(rng: &mut Rng, prefix: &str) -> Vec<(String, ArrayRef)> {
    let auction: Int64Array = (0..ROWS).map(|_| 1000 + rng.below(10_000) as i64).collect();
    let bidder: Int64Array = (0..ROWS)
        .map(|_| 1000 + rng.below(100_000) as i64)
        .collect();
    let price: Int64Array = (0..ROWS)
        .map(|_| 1 + rng.below(10_000_000) as i64)
        .collect();
    let channel: StringArray = (0..ROWS)
        .map(|_| Some(CHANNELS[rng.below(4) as usize]))
        .collect();
    let url: StringArray = (0..ROWS)
        .map(|_| {
            Some(format!(
                "https://www.nexmark.com/{}/{}/{}/item.htm?query=1",
                rng.text(3, 5),
                rng.text(3, 5),
                rng.text(3, 5)
            ))
        })
        .collect();
    let date_time: TimestampMillisecondArray = TimestampMillisecondArray::from_iter_values(
        (0..ROWS as i64).map(|i| START_MS + i * 10 + rng.below(10) as i64),
    );
    let extra: StringArray = (0..ROWS).map(|_| Some(rng.text(54, 81))).collect();
    [
        ("auction", Arc::new(auction) as ArrayRef),
        ("bidder", Arc::new(bidder)),
        ("price", Arc::new(price)),
        ("channel", Arc::new(channel)),
        ("url", Arc::new(url)),
        ("dateTime", Arc::new(date_time)),
        ("extra", Arc::new(extra)),
    ]
    .into_iter()
    .map(|(name, a)| (format!("{prefix}{name}"), a))
    .collect()
}

/// Nexmark bids: auction, bidder, price BIGINT; channel, url VARCHAR; dateTime TIMESTAMP(3); extra VARCHAR(54-81).
pub fn bid_batch() -> RecordBatch {
    RecordBatch::try_from_iter(bid_columns(&mut Rng(42), "")).expect("valid batch")
}

/// 256 bid batches of 4096 rows (1,048,576 rows), each from its own seed.
pub fn bid_corpus() -> Vec<RecordBatch> {
    (0..256)
        .map(|seed| {
            RecordBatch::try_from_iter(bid_columns(&mut Rng(1000 + seed), "")).expect("valid batch")
        })
        .collect()
}

/// One bid as a hand-written serde struct: what a per-record Rust sink with a typed row would serialize.
#[derive(serde::Serialize)]
pub struct Bid<'a> {
    auction: i64,
    bidder: i64,
    price: i64,
    channel: &'a str,
    url: &'a str,
    #[serde(rename = "dateTime")]
    date_time: &'a str,
    extra: &'a str,
}

/// The bid batch's `dateTime` texts as Flink prints them, prepared outside the timed loop (a head start for
/// the serde contender, which would otherwise format them per row too).
pub fn bid_date_times(batch: &RecordBatch) -> Vec<String> {
    let flink = encoder("flink", &[]).encode(batch).expect("encodes");
    (0..batch.num_rows())
        .map(|row| {
            let value: serde_json::Value =
                serde_json::from_slice(flink.value(row).expect("a value")).expect("JSON");
            value["dateTime"].as_str().expect("a string").to_owned()
        })
        .collect()
}

/// Every bid of `batch` serialized once per row with `serde_json::to_writer` into one slab, with per-row
/// offsets (as `EncodedRecords` keeps them).
pub fn serde_per_row(
    batch: &RecordBatch,
    date_times: &[String],
    slab: &mut Vec<u8>,
    offsets: &mut Vec<i32>,
) {
    slab.clear();
    offsets.clear();
    let int = |i: usize| batch.column(i).as_primitive::<Int64Type>();
    let text = |i: usize| batch.column(i).as_string::<i32>();
    let (auction, bidder, price) = (int(0), int(1), int(2));
    let (channel, url, extra) = (text(3), text(4), text(6));
    for (row, date_time) in date_times.iter().enumerate().take(batch.num_rows()) {
        offsets.push(slab.len() as i32);
        let bid = Bid {
            auction: auction.value(row),
            bidder: bidder.value(row),
            price: price.value(row),
            channel: channel.value(row),
            url: url.value(row),
            date_time,
            extra: extra.value(row),
        };
        serde_json::to_writer(&mut *slab, &bid).expect("serializes");
    }
}

/// q9-like rows: the winning bid joined to its auction (auction columns, then the bid's, with wide strings).
pub fn q9_batch() -> RecordBatch {
    let mut rng = Rng(7);
    let int = |rng: &mut Rng, n: u64| -> ArrayRef {
        Arc::new(
            (0..ROWS)
                .map(|_| rng.below(n) as i64)
                .collect::<Int64Array>(),
        )
    };
    let text = |rng: &mut Rng, min, max| -> ArrayRef {
        Arc::new(
            (0..ROWS)
                .map(|_| Some(rng.text(min, max)))
                .collect::<StringArray>(),
        )
    };
    let ts = |rng: &mut Rng| -> ArrayRef {
        Arc::new(TimestampMillisecondArray::from_iter_values(
            (0..ROWS as i64).map(|i| START_MS + i * 10 + rng.below(1000) as i64),
        ))
    };
    let mut columns: Vec<(String, ArrayRef)> = vec![
        ("id".into(), int(&mut rng, 1_000_000)),
        ("itemName".into(), text(&mut rng, 20, 30)),
        ("description".into(), text(&mut rng, 80, 120)),
        ("initialBid".into(), int(&mut rng, 10_000)),
        ("reserve".into(), int(&mut rng, 20_000)),
        ("dateTime".into(), ts(&mut rng)),
        ("expires".into(), ts(&mut rng)),
        ("seller".into(), int(&mut rng, 100_000)),
        ("category".into(), int(&mut rng, 20)),
        ("extra".into(), text(&mut rng, 120, 200)),
    ];
    columns.extend(bid_columns(&mut rng, "bid_"));
    RecordBatch::try_from_iter(columns).expect("valid batch")
}

pub fn arrow_json_batch(batch: &RecordBatch) -> Vec<u8> {
    let mut w = arrow_json::LineDelimitedWriter::new(Vec::with_capacity(1 << 20));
    w.write(batch).expect("arrow-json writes the batch");
    w.finish().expect("finish");
    w.into_inner()
}

pub fn arrow_json_per_row(batch: &RecordBatch) -> Vec<Vec<u8>> {
    (0..batch.num_rows())
        .map(|row| {
            let mut w = arrow_json::LineDelimitedWriter::new(Vec::new());
            w.write(&batch.slice(row, 1))
                .expect("arrow-json writes the row");
            w.finish().expect("finish");
            w.into_inner()
        })
        .collect()
}

/// `id BIGINT` and eight DOUBLE columns, the mix of the JMH `doubles` shape: per pair of columns prices with two
/// decimals, ratios in `[0, 1)`, values near integers below 1,000 and random bit patterns of every magnitude;
/// one null in ten.
pub fn doubles_batch() -> RecordBatch {
    let mut rng = Rng(17);
    let mut columns: Vec<(String, ArrayRef)> = vec![(
        "id".into(),
        Arc::new((0..ROWS as i64).collect::<Int64Array>()),
    )];
    for d in 1..=8 {
        let unit = |rng: &mut Rng| (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        let values: Float64Array = (0..ROWS)
            .map(|_| {
                (rng.below(10) != 0).then(|| match d % 4 {
                    0 => rng.below(10_000_000) as f64 / 100.0,
                    1 => unit(&mut rng),
                    2 => unit(&mut rng) * 2.0 - 1.0 + rng.below(1000) as f64,
                    _ => f64::from_bits(rng.next() & 0xffef_ffff_ffff_ffff),
                })
            })
            .collect();
        columns.push((format!("d{d}"), Arc::new(values)));
    }
    RecordBatch::try_from_iter(columns).expect("doubles batch")
}

pub fn encoder(mode: &str, options: &[(&str, &str)]) -> JsonEncoder {
    let pairs = options.iter().copied().chain([("mode", mode)]);
    JsonEncoder::new(EncoderOptions::from_pairs(pairs).expect("valid options")).expect("encoder")
}
