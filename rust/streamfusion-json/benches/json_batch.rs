//! Arrow batches to Kafka JSON records, side by side in one run: arrow-json's `LineDelimitedWriter` over the
//! batch, arrow-json once per row (a writer and a `Vec` per record, what a per-record sink does), our encoder in
//! plain and Flink mode, a typed `#[derive(Serialize)]` struct serialized with `serde_json` once per row (bids
//! only), and a `memcpy` of the Flink-mode output bytes (the physical floor). Shapes: one 4096-row batch of
//! Nexmark bids (auction, bidder, price, channel, url, dateTime, extra) and of q9-like rows (auction + bid
//! columns, wide strings), and a corpus of 1,048,576 bid rows in 256 batches of 4096 (the input no longer in
//! cache; each encoder reuses its output between batches, as a sink does). Report ratios from the same run.

use std::hint::black_box;

use arrow_array::RecordBatch;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamfusion_json::EncodedRecords;

mod common;

use common::{
    arrow_json_batch, arrow_json_per_row, bid_batch, bid_corpus, bid_date_times, doubles_batch,
    encoder, q9_batch, serde_per_row,
};

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

    if name == "bid" {
        let date_times = bid_date_times(batch);
        let (mut slab, mut offsets) = (Vec::new(), Vec::new());
        serde_per_row(batch, &date_times, &mut slab, &mut offsets);
        let flink = encoder("flink", &[]).encode(batch).expect("encodes");
        assert_eq!(
            slab,
            flink.values(),
            "the serde struct writes Flink's bytes for these rows"
        );
        group.bench_function("serde_json_typed_per_row", |b| {
            b.iter(|| serde_per_row(black_box(batch), &date_times, &mut slab, &mut offsets))
        });
    }

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

/// The 1,048,576-row corpus: ours in Flink mode (keyed and not) and plain mode, `LineDelimitedWriter`, the
/// serde struct per row, and a `memcpy` of the Flink-mode output, batch after batch.
fn bench_corpus(c: &mut Criterion) {
    let corpus = bid_corpus();
    let rows: usize = corpus.iter().map(RecordBatch::num_rows).sum();
    let mut group = c.benchmark_group("json_bid_1m");
    group.throughput(Throughput::Elements(rows as u64));
    group.sample_size(10);
    for (label, mode, key) in [
        ("streamfusion_flink", "flink", None),
        ("streamfusion_flink_keyed", "flink", Some("auction")),
        ("streamfusion_plain", "plain", None),
    ] {
        let options: Vec<(&str, &str)> = key.map(|k| ("key.fields", k)).into_iter().collect();
        let mut enc = encoder(mode, &options);
        let mut out = EncodedRecords::new();
        group.bench_function(label, |b| {
            b.iter(|| {
                for batch in &corpus {
                    enc.encode_into(black_box(batch), &mut out)
                        .expect("encodes");
                }
            })
        });
    }
    group.bench_function("arrow_json_line_delimited", |b| {
        b.iter(|| {
            for batch in &corpus {
                black_box(arrow_json_batch(black_box(batch)));
            }
        })
    });
    let date_times: Vec<Vec<String>> = corpus.iter().map(bid_date_times).collect();
    let (mut slab, mut offsets) = (Vec::new(), Vec::new());
    group.bench_function("serde_json_typed_per_row", |b| {
        b.iter(|| {
            for (batch, times) in corpus.iter().zip(&date_times) {
                serde_per_row(black_box(batch), times, &mut slab, &mut offsets);
            }
        })
    });
    let outputs: Vec<Vec<u8>> = corpus
        .iter()
        .map(|b| {
            encoder("flink", &[])
                .encode(b)
                .expect("encodes")
                .values()
                .to_vec()
        })
        .collect();
    let mut target = vec![0u8; outputs.iter().map(Vec::len).max().unwrap_or(0)];
    group.bench_function("memcpy_flink_output", |b| {
        b.iter(|| {
            for source in &outputs {
                target[..source.len()].copy_from_slice(black_box(source));
                black_box(&target);
            }
        })
    });
    group.finish();
}

/// The DOUBLE columns in Flink mode with each JDK's digits (`float.java-digits`): JDK 19+'s shortest digits
/// against JDK 17's `FloatingDecimal` ones, on the same batch.
fn bench_doubles(c: &mut Criterion) {
    let batch = doubles_batch();
    let mut group = c.benchmark_group("json_doubles_4096");
    group.throughput(Throughput::Elements(batch.num_rows() as u64));
    for digits in ["jdk19", "jdk17"] {
        let mut enc = encoder("flink", &[("float.java-digits", digits)]);
        let mut out = EncodedRecords::new();
        group.bench_function(format!("streamfusion_flink_{digits}"), |b| {
            b.iter(|| {
                enc.encode_into(black_box(&batch), &mut out)
                    .expect("encodes")
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_doubles(c);
    bench_shape(c, "bid", &bid_batch(), "auction");
    bench_shape(c, "q9", &q9_batch(), "id");
    bench_corpus(c);
}

criterion_group! {
    name = json;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(json);
