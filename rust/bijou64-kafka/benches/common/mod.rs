//! What both benches share: the distributions (fixed seed) and the upstream `bijoux`
//! scalar loops our bulk paths are measured against.

/// Values per distribution.
pub const N: usize = 50_000;
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

/// The distributions of the producer comparison (`perf/kafka`), `N` values each:
/// `sequential` (1..=N), `uniform` (every bit random: nearly all 9-byte records),
/// `boundary` (the first and last value of every tier, cycled), `mixed` (half below
/// 1,000, 30% below 10,000,000, 20% epoch milliseconds).
pub fn distributions() -> Vec<(&'static str, Vec<i64>)> {
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

/// The baseline encoder: `bijoux::u64::encode` per value into one slab, plus the
/// offsets (`bytes` and `offsets` are cleared first).
pub fn bijoux_encode(values: &[i64], bytes: &mut Vec<u8>, offsets: &mut Vec<u32>) {
    bytes.clear();
    offsets.clear();
    offsets.push(0);
    for &v in values {
        bijoux::u64::encode(v as u64, bytes);
        offsets.push(bytes.len() as u32);
    }
}

/// The baseline decoder: `bijoux::u64::decode` per record, strict (each record must be
/// exactly one value, as a Kafka deserializer's), appending to `out`.
pub fn bijoux_decode(bytes: &[u8], offsets: &[u32], out: &mut Vec<i64>) {
    for w in offsets.windows(2) {
        let record = &bytes[w[0] as usize..w[1] as usize];
        out.push(strict(record, bijoux::u64::decode(record).ok()) as i64);
    }
}

/// Checks `consumed == record length`, as a strict Kafka deserializer must.
pub fn strict<T>(record: &[u8], decoded: Option<(T, usize)>) -> T {
    match decoded {
        Some((v, n)) if n == record.len() => v,
        _ => panic!("invalid record {record:02x?}"),
    }
}
