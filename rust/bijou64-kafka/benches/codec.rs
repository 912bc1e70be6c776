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

mod common;

use bijou64_kafka::{decode_slab_into, encode_slab_into, EncodedSlab, Mapping};
use common::{bijoux_decode, bijoux_encode, distributions, strict};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use integer_encoding::VarInt;

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
            b.iter(|| bijoux_encode(black_box(&values), &mut bytes, &mut offsets))
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
                bijoux_decode(black_box(bijou.bytes()), bijou.offsets(), &mut out);
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
