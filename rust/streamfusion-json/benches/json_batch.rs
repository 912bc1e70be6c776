//! One 4096-row Arrow batch to Kafka JSON records, side by side in one run:
//! arrow-json's `LineDelimitedWriter` over the batch, arrow-json once per row (a writer and a `Vec` per record,
//! what a per-record sink does), our encoder in plain and Flink mode, and a `memcpy` of the Flink-mode output
//! bytes (the physical floor). Shapes: Nexmark bids (auction, bidder, price, channel, url, dateTime, extra) and q9-like rows (auction + bid columns, wide
//! strings). Report ratios from the same run.

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};

const ROWS: usize = 4096;

/// splitmix64: deterministic data without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn text(&mut self, min: usize, max: usize) -> String {
        let len = min + self.below((max - min + 1) as u64) as usize;
        (0..len)
            .map(|_| (b'a' + self.below(26) as u8) as char)
            .collect()
    }
}

const CHANNELS: [&str; 4] = ["Google", "Facebook", "Baidu", "Apple"];
/// 2026-11-29T00:00:00Z in epoch milliseconds.
const START_MS: i64 = 1_795_910_400_000;

fn bid_columns(rng: &mut Rng, prefix: &str) -> Vec<(String, ArrayRef)> {
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
fn bid_batch() -> RecordBatch {
    RecordBatch::try_from_iter(bid_columns(&mut Rng(42), "")).expect("valid batch")
}

/// q9-like rows: the winning bid joined to its auction (auction columns, then the bid's, with wide strings).
fn q9_batch() -> RecordBatch {
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

fn arrow_json_batch(batch: &RecordBatch) -> Vec<u8> {
    let mut w = arrow_json::LineDelimitedWriter::new(Vec::with_capacity(1 << 20));
    w.write(batch).expect("arrow-json writes the batch");
    w.finish().expect("finish");
    w.into_inner()
}

fn arrow_json_per_row(batch: &RecordBatch) -> Vec<Vec<u8>> {
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

fn encoder(mode: &str, options: &[(&str, &str)]) -> JsonEncoder {
    let pairs = options.iter().copied().chain([("mode", mode)]);
    JsonEncoder::new(EncoderOptions::from_pairs(pairs).expect("valid options")).expect("encoder")
}

fn bench_shape(c: &mut Criterion, name: &str, batch: &RecordBatch, key: &str) {
    let mut group = c.benchmark_group(format!("json_{name}_4096"));
    group.throughput(Throughput::Elements(batch.num_rows() as u64));

    group.bench_function("arrow_json_line_delimited", |b| {
        b.iter(|| arrow_json_batch(black_box(batch)))
    });
    group.bench_function("arrow_json_per_row", |b| {
        b.iter(|| arrow_json_per_row(black_box(batch)))
    });
    for mode in ["plain", "flink"] {
        let mut enc = encoder(mode, &[]);
        let mut out = EncodedRecords::new();
        group.bench_function(format!("streamfusion_{mode}"), |b| {
            b.iter(|| {
                enc.encode_into(black_box(batch), &mut out)
                    .expect("encodes")
            })
        });
    }
    let mut enc = encoder("flink", &[("key.fields", key)]);
    let mut out = EncodedRecords::new();
    group.bench_function("streamfusion_flink_keyed", |b| {
        b.iter(|| {
            enc.encode_into(black_box(batch), &mut out)
                .expect("encodes")
        })
    });

    let flink = encoder("flink", &[]).encode(batch).expect("encodes");
    let source = flink.values().to_vec();
    let mut target = vec![0u8; source.len()];
    group.bench_function("memcpy_flink_output", |b| {
        b.iter(|| {
            target.copy_from_slice(black_box(&source));
            black_box(&target);
        })
    });
    group.finish();
    eprintln!(
        "{name}: flink-mode output {} bytes ({:.1} per row); arrow-json output {} bytes",
        source.len(),
        source.len() as f64 / batch.num_rows() as f64,
        arrow_json_batch(batch).len()
    );
}

fn benches(c: &mut Criterion) {
    bench_shape(c, "bid", &bid_batch(), "auction");
    bench_shape(c, "q9", &q9_batch(), "id");
}

criterion_group! {
    name = json;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(json);
