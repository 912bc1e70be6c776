//! Kafka JSON messages to one Arrow batch: our `JsonDecoder` (Flink's `json` deserializer semantics) against
//! arrow-json's `Decoder` into the same schema. Input: a chunk of 8,192 seeded Nexmark bid messages (auction,
//! bidder, price as BIGINT; channel, url, dateTime, extra as STRING: the decoder does not read timestamps yet,
//! so `dateTime` is a string column for both). Ours gets the messages as Kafka hands them over, one slice per
//! message; arrow-json gets the same bytes joined by newlines (its line-delimited input), decoded and flushed
//! into one batch. Each decoder is built once and reused across iterations, as a consumer would. The two
//! batches are checked equal before timing. Throughput is in message bytes (newlines not counted). Ours also into
//! Flink binary rows (`decode_binary`), the form the JVM's Flink source takes.

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_json::reader::Decoder;
use arrow_json::ReaderBuilder;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamfusion_json::{BinaryRows, DecoderOptions, JsonDecoder};

mod common;
use common::{Rng, CHANNELS};

/// Messages per chunk.
const MESSAGES: usize = 8192;

/// The bid schema, every column nullable (`dateTime` as a string).
fn bid_schema() -> SchemaRef {
    let int = |name: &str| Field::new(name, DataType::Int64, true);
    let text = |name: &str| Field::new(name, DataType::Utf8, true);
    Arc::new(Schema::new(vec![
        int("auction"),
        int("bidder"),
        int("price"),
        text("channel"),
        text("url"),
        text("dateTime"),
        text("extra"),
    ]))
}

/// `MESSAGES` bids as Flink's `json` format writes them (fields in schema order, `dateTime` as
/// `yyyy-MM-dd HH:mm:ss.SSS`), 10 ms apart.
fn bid_messages(seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed);
    (0..MESSAGES as u64)
        .map(|i| {
            let ms = i * 10 + rng.below(10);
            let (seconds, millis) = (ms / 1000, ms % 1000);
            let date_time = format!(
                "2026-01-01 {:02}:{:02}:{:02}.{millis:03}",
                seconds / 3600,
                seconds / 60 % 60,
                seconds % 60
            );
            format!(
                concat!(
                    r#"{{"auction":{},"bidder":{},"price":{},"channel":"{}","#,
                    r#""url":"https://www.nexmark.com/{}/{}/{}/item.htm?query=1","#,
                    r#""dateTime":"{}","extra":"{}"}}"#
                ),
                1000 + rng.below(10_000),
                1000 + rng.below(100_000),
                1 + rng.below(10_000_000),
                CHANNELS[rng.below(4) as usize],
                rng.text(3, 5),
                rng.text(3, 5),
                rng.text(3, 5),
                date_time,
                rng.text(54, 81),
            )
            .into_bytes()
        })
        .collect()
}

/// Our decoder over the chunk, one slice per message.
fn ours(decoder: &mut JsonDecoder, messages: &[Vec<u8>]) -> RecordBatch {
    decoder
        .decode(messages.iter().map(|m| Some(m.as_slice())))
        .expect("the bids decode")
        .into_batch()
}

/// arrow-json's decoder over the newline-joined messages, flushed into one batch.
fn arrow_json(decoder: &mut Decoder, mut lines: &[u8]) -> RecordBatch {
    while !lines.is_empty() {
        let read = decoder.decode(lines).expect("arrow-json reads the bids");
        if read == 0 {
            break;
        }
        lines = &lines[read..];
    }
    decoder
        .flush()
        .expect("arrow-json flushes")
        .expect("a batch of rows")
}

fn benches(c: &mut Criterion) {
    let schema = bid_schema();
    let messages = bid_messages(42);
    let lines = messages.join(&b'\n');
    let bytes: usize = messages.iter().map(Vec::len).sum();

    let mut decoder = JsonDecoder::new(Arc::clone(&schema), DecoderOptions::default())
        .expect("a decoder for the bid schema");
    let mut reference = ReaderBuilder::new(Arc::clone(&schema))
        .with_batch_size(MESSAGES)
        .build_decoder()
        .expect("an arrow-json decoder for the bid schema");
    let batch = ours(&mut decoder, &messages);
    assert_eq!(batch.num_rows(), MESSAGES);
    assert_eq!(
        batch,
        arrow_json(&mut reference, &lines),
        "both decoders make the same rows"
    );
    eprintln!(
        "json_decode: {MESSAGES} bid messages, {bytes} bytes ({:.1} per message)",
        bytes as f64 / MESSAGES as f64
    );

    let mut group = c.benchmark_group("json_decode_bid_8192");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("streamfusion_json_decoder", |b| {
        b.iter(|| ours(&mut decoder, black_box(&messages)))
    });
    // The JVM's form: Flink binary rows (what the Flink source hands on), same messages.
    let mut rows = BinaryRows::new();
    group.bench_function("streamfusion_json_decoder_binary_rows", |b| {
        b.iter(|| {
            decoder
                .decode_binary(
                    black_box(&messages).iter().map(|m| Some(m.as_slice())),
                    &mut rows,
                )
                .expect("the bids decode");
            rows.rows()
        })
    });
    group.bench_function("arrow_json_decoder", |b| {
        b.iter(|| arrow_json(&mut reference, black_box(&lines)))
    });
    group.finish();
}

criterion_group!(json_decode, benches);
criterion_main!(json_decode);
