//! Shootout: our bulk slab encode/decode against upstream `bijoux` scalar loops, LEB128
//! and zigzag LEB128 (`integer-encoding`), and the fixed 8-byte big-endian copy Kafka's
//! `LongSerializer` does, over four distributions of 50,000 values (fixed seed).
//!
//! Every contender produces (or consumes) the same thing: one slab plus `n + 1` offsets
//! (the fixed copy needs no offsets). Decoders are strict: each record must be exactly
//! one value. Buffers are allocated once outside the timed closure and cleared inside.
//!
//! Run: `cargo bench -p bijou64-kafka --bench codec`. Results: `docs/benchmarks.md`.

use std::hint::black_box;

use bijou64_kafka::{decode_slab_into, encode_slab_into, EncodedSlab, Mapping};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use integer_encoding::VarInt;

const N: usize = 50_000;
const SEED: u64 = 0x05ee_db17_0064;

/// splitmix64: a fixed, dependency-free generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The distributions of the producer comparison (`perf/kafka`).
fn distributions() -> Vec<(&'static str, Vec<i64>)> {
    let mut rng = SplitMix(SEED);
    let sequential: Vec<i64> = (1..=N as i64).collect();
    let uniform: Vec<i64> = (0..N).map(|_| rng.next() as i64).collect();
    let edges: Vec<i64> = [
        0_i64, 247, 248, 503, 504, 66_039, 66_040, 16_843_255, 16_843_256,
    ]
    .into_iter()
    .chain([
        4_311_810_551,
        4_311_810_552,
        1_103_823_438_327,
        1_103_823_438_328,
    ])
    .chain([
        282_578_800_148_983,
        282_578_800_148_984,
        72_340_172_838_076_919,
        72_340_172_838_076_920,
    ])
    .chain([i64::MAX, -1, i64::MIN])
    .collect();
    let boundary: Vec<i64> = edges.iter().copied().cycle().take(N).collect();
    let mixed: Vec<i64> = (0..N)
        .map(|_| {
            let r = rng.next();
            match r % 10 {
                0..=4 => ((r >> 8) % 1_000) as i64,
                5..=7 => ((r >> 8) % 10_000_000) as i64,
                _ => 1_700_000_000_000 + ((r >> 8) % 100_000_000_000) as i64,
            }
        })
        .collect();
    vec![
        ("sequential", sequential),
        ("uniform", uniform),
        ("boundary", boundary),
        ("mixed", mixed),
    ]
}

fn encode(c: &mut Criterion) {
    for (name, values) in distributions() {
        let mut group = c.benchmark_group(format!("encode/{name}"));
        group.throughput(Throughput::Elements(values.len() as u64));
        let mut slab = EncodedSlab::new();
        let mut bytes: Vec<u8> = Vec::with_capacity(values.len() * 10);
        let mut offsets: Vec<u32> = Vec::with_capacity(values.len() + 1);

        group.bench_function(BenchmarkId::new("bulk-bijou64", name), |b| {
            b.iter(|| encode_slab_into(black_box(&values), Mapping::Unsigned, &mut slab).unwrap())
        });
        group.bench_function(BenchmarkId::new("bulk-bijou64s", name), |b| {
            b.iter(|| encode_slab_into(black_box(&values), Mapping::Zigzag, &mut slab).unwrap())
        });
        group.bench_function(BenchmarkId::new("bijoux-scalar", name), |b| {
            b.iter(|| {
                bytes.clear();
                offsets.clear();
                offsets.push(0);
                for &v in black_box(&values) {
                    bijoux::u64::encode(v as u64, &mut bytes);
                    offsets.push(bytes.len() as u32);
                }
            })
        });
        group.bench_function(BenchmarkId::new("leb128", name), |b| {
            b.iter(|| {
                bytes.clear();
                offsets.clear();
                offsets.push(0);
                let mut buf = [0_u8; 10];
                for &v in black_box(&values) {
                    let n = (v as u64).encode_var(&mut buf);
                    bytes.extend_from_slice(&buf[..n]);
                    offsets.push(bytes.len() as u32);
                }
            })
        });
        group.bench_function(BenchmarkId::new("zigzag-leb128", name), |b| {
            b.iter(|| {
                bytes.clear();
                offsets.clear();
                offsets.push(0);
                let mut buf = [0_u8; 10];
                for &v in black_box(&values) {
                    let n = v.encode_var(&mut buf);
                    bytes.extend_from_slice(&buf[..n]);
                    offsets.push(bytes.len() as u32);
                }
            })
        });
        group.bench_function(BenchmarkId::new("fixed-8-byte", name), |b| {
            b.iter(|| {
                bytes.clear();
                for &v in black_box(&values) {
                    bytes.extend_from_slice(&v.to_be_bytes());
                }
            })
        });
        group.finish();
    }
}

/// Checks `consumed == record length`, as a strict Kafka deserializer must.
fn strict<T>(record: &[u8], decoded: Option<(T, usize)>) -> T {
    match decoded {
        Some((v, n)) if n == record.len() => v,
        _ => panic!("invalid record {record:02x?}"),
    }
}

fn decode(c: &mut Criterion) {
    for (name, values) in distributions() {
        let mut group = c.benchmark_group(format!("decode/{name}"));
        group.throughput(Throughput::Elements(values.len() as u64));
        let bijou = bijou64_kafka::encode_slab(&values, Mapping::Unsigned).unwrap();
        let leb = slab_of(&values, |v, buf| (v as u64).encode_var(buf));
        let zleb = slab_of(&values, |v, buf| v.encode_var(buf));
        let fixed: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        let mut out: Vec<i64> = Vec::with_capacity(values.len());

        group.bench_function(BenchmarkId::new("bulk-bijou64", name), |b| {
            b.iter(|| {
                out.clear();
                decode_slab_into(
                    black_box(bijou.bytes()),
                    bijou.offsets(),
                    Mapping::Unsigned,
                    &mut out,
                )
                .unwrap();
            })
        });
        group.bench_function(BenchmarkId::new("bijoux-scalar", name), |b| {
            b.iter(|| {
                out.clear();
                let bytes = black_box(bijou.bytes());
                for w in bijou.offsets().windows(2) {
                    let record = &bytes[w[0] as usize..w[1] as usize];
                    out.push(strict(record, bijoux::u64::decode(record).ok()) as i64);
                }
            })
        });
        group.bench_function(BenchmarkId::new("leb128", name), |b| {
            b.iter(|| {
                out.clear();
                let bytes = black_box(&leb.0);
                for w in leb.1.windows(2) {
                    let record = &bytes[w[0] as usize..w[1] as usize];
                    out.push(strict(record, u64::decode_var(record)) as i64);
                }
            })
        });
        group.bench_function(BenchmarkId::new("zigzag-leb128", name), |b| {
            b.iter(|| {
                out.clear();
                let bytes = black_box(&zleb.0);
                for w in zleb.1.windows(2) {
                    let record = &bytes[w[0] as usize..w[1] as usize];
                    out.push(strict(record, i64::decode_var(record)));
                }
            })
        });
        group.bench_function(BenchmarkId::new("fixed-8-byte", name), |b| {
            b.iter(|| {
                out.clear();
                out.extend(
                    black_box(&fixed)
                        .chunks_exact(8)
                        .map(|c| i64::from_be_bytes(c.try_into().unwrap())),
                );
            })
        });
        group.finish();
    }
}

fn slab_of(values: &[i64], encode: impl Fn(i64, &mut [u8]) -> usize) -> (Vec<u8>, Vec<u32>) {
    let (mut bytes, mut offsets, mut buf) = (Vec::new(), vec![0_u32], [0_u8; 10]);
    for &v in values {
        let n = encode(v, &mut buf);
        bytes.extend_from_slice(&buf[..n]);
        offsets.push(bytes.len() as u32);
    }
    (bytes, offsets)
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30);
    targets = encode, decode
}
criterion_main!(benches);
