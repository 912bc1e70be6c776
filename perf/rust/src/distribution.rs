//! The values the producer comparison sends, bit for bit the same as the Java side's.
//!
//! `perf/kafka`'s `Distribution` (Java) draws its random values from
//! `java.util.SplittableRandom`, whose algorithm is specified exactly: a 64-bit counter
//! advanced by a fixed odd gamma and a `mix64`/`mix32` finaliser, with Java's rejection
//! loop for bounded draws. [`SplittableRandom`] reproduces it, so for the same `(n, seed)`
//! both benchmarks send the same values in the same order and report the same average
//! payload (2.985 bytes for sequential 1..50,000 under bijou64, 3.723 for mixed with the
//! default seed).
//!
//! | name | values | bijou64 bytes/value |
//! |---|---|---|
//! | [`Distribution::Sequential`] | 1, 2, ..., n (seed unused) | 2.985 for n = 50,000 |
//! | [`Distribution::Uniform`] | random `i64` over the full range, negatives included | about 9 |
//! | [`Distribution::Boundary`] | [`TIER_EDGES`] cycled to n (seed unused) | 5.4 per cycle |
//! | [`Distribution::Mixed`] | 50% in [0, 1,000), 30% in [0, 10^7), 20% epoch millis in [[`EPOCH_MILLIS_LOW`], [`EPOCH_MILLIS_HIGH`]) | about 3.72 |
//!
//! ```
//! use streamfusion_bench::distribution::{Distribution, DEFAULT_SEED};
//! assert_eq!(Distribution::Sequential.generate(3, DEFAULT_SEED), [1, 2, 3]);
//! let mixed = Distribution::Mixed.generate(2, DEFAULT_SEED);
//! assert_eq!(mixed, [7_829_077, 905]); // what Java's SplittableRandom gives for this seed
//! ```

use std::fmt;
use std::str::FromStr;

/// The seed used when none is given: the Java side's `Distribution.DEFAULT_SEED`
/// (`0x5EED_B10_64L` there, "seed bijou64").
pub const DEFAULT_SEED: i64 = 0x0005_EEDB_1064;

/// mixed: half of the values are below this (small counters).
pub const SMALL_BOUND: i64 = 1_000;
/// mixed: 30% of the values are below this (ids).
pub const MEDIUM_BOUND: i64 = 10_000_000;
/// mixed: the lowest epoch millisecond drawn, 2023-11-14T22:13:20Z (1.7e12).
pub const EPOCH_MILLIS_LOW: i64 = 1_700_000_000_000;
/// mixed: the epoch millisecond bound (exclusive), 2026-01-01T00:00:00Z.
pub const EPOCH_MILLIS_HIGH: i64 = 1_767_225_600_000;

/// The first and last value of every bijou64 tier (`docs/format.md`), ascending as unsigned
/// 64-bit numbers; the last three (`i64::MAX`, `i64::MIN` = 2^63, `-1` = `u64::MAX`) all
/// take 9 bytes under the unsigned mapping.
pub const TIER_EDGES: [i64; 20] = [
    0,
    247, // 1 byte
    248,
    503, // 2 bytes
    504,
    66_039, // 3 bytes
    66_040,
    16_843_255, // 4 bytes
    16_843_256,
    4_311_810_551, // 5 bytes
    4_311_810_552,
    1_103_823_438_327, // 6 bytes
    1_103_823_438_328,
    282_578_800_148_983, // 7 bytes
    282_578_800_148_984,
    72_340_172_838_076_919, // 8 bytes
    72_340_172_838_076_920,
    i64::MAX, // 9 bytes
    i64::MIN,
    -1, // 9 bytes (2^63 and u64::MAX unsigned)
];

/// A value distribution of the producer comparison (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Distribution {
    /// 1..=n: ids from a sequence.
    Sequential,
    /// Random longs over the full 64-bit range: the worst case for every varint.
    Uniform,
    /// The first and last value of every bijou64 tier, repeated until there are n values
    /// (`TIER_EDGES`).
    Boundary,
    /// Small counters, mid-sized ids and timestamps, drawn per value.
    Mixed,
}

impl Distribution {
    /// Every distribution, in the order of the Java enum.
    pub const ALL: [Distribution; 4] = [
        Distribution::Sequential,
        Distribution::Uniform,
        Distribution::Boundary,
        Distribution::Mixed,
    ];

    /// The command-line and CSV name, e.g. `sequential`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Sequential => "sequential",
            Distribution::Uniform => "uniform",
            Distribution::Boundary => "boundary",
            Distribution::Mixed => "mixed",
        }
    }

    /// The `n` values of this distribution; the same `(n, seed)` always gives the same
    /// values, equal to Java's `Distribution.generate(n, seed)`. `seed` is unused by
    /// `sequential` and `boundary`.
    #[must_use]
    pub fn generate(self, n: usize, seed: i64) -> Vec<i64> {
        match self {
            Distribution::Sequential => (1..).take(n).collect(),
            Distribution::Boundary => TIER_EDGES.iter().copied().cycle().take(n).collect(),
            Distribution::Uniform => {
                let mut random = SplittableRandom::new(seed);
                (0..n).map(|_| random.next_long()).collect()
            }
            Distribution::Mixed => {
                let mut random = SplittableRandom::new(seed);
                (0..n)
                    .map(|_| match random.next_int_below(100) {
                        0..50 => random.next_long_below(SMALL_BOUND),
                        50..80 => random.next_long_below(MEDIUM_BOUND),
                        _ => random.next_long_between(EPOCH_MILLIS_LOW, EPOCH_MILLIS_HIGH),
                    })
                    .collect()
            }
        }
    }
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Distribution {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        let wanted = name.trim().to_ascii_lowercase();
        Distribution::ALL
            .into_iter()
            .find(|d| d.name() == wanted)
            .ok_or_else(|| {
                format!("unknown distribution '{name}' (choose from sequential, uniform, boundary, mixed)")
            })
    }
}

/// `java.util.SplittableRandom` (JDK 8 through 21), the parts the distributions use.
///
/// The state is a 64-bit seed advanced by `GOLDEN_GAMMA` per draw; `nextLong` is
/// `mix64` of the new seed and `nextInt` is `mix32`. Bounded draws use Java's
/// rejection loop on the draw shifted right by one, so they consume the same number
/// of draws as Java and return the same numbers.
#[derive(Debug, Clone)]
pub struct SplittableRandom {
    seed: u64,
}

impl SplittableRandom {
    const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    /// `new SplittableRandom(seed)`.
    #[must_use]
    pub fn new(seed: i64) -> Self {
        Self { seed: seed as u64 }
    }

    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(Self::GOLDEN_GAMMA);
        self.seed
    }

    fn mix64(z: u64) -> u64 {
        let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn mix32(z: u64) -> i32 {
        let z = (z ^ (z >> 33)).wrapping_mul(0x62a9_d9ed_7997_05f5);
        ((z ^ (z >> 28)).wrapping_mul(0xcb24_d0a5_c88c_35b3) >> 32) as u32 as i32
    }

    /// `nextLong()`: uniform over every `i64`.
    pub fn next_long(&mut self) -> i64 {
        Self::mix64(self.next_seed()) as i64
    }

    /// `nextInt()`: uniform over every `i32`.
    pub fn next_int(&mut self) -> i32 {
        Self::mix32(self.next_seed())
    }

    /// `nextInt(bound)`: uniform in `[0, bound)`.
    ///
    /// # Panics
    /// When `bound <= 0` (Java throws `IllegalArgumentException`).
    pub fn next_int_below(&mut self, bound: i32) -> i32 {
        assert!(bound > 0, "bound must be positive, got {bound}");
        let mut r = self.next_int();
        let m = bound - 1;
        if bound & m == 0 {
            return r & m;
        }
        // for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = nextInt() >>> 1);
        let mut u = ((r as u32) >> 1) as i32;
        loop {
            r = u % bound;
            if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                return r;
            }
            u = ((self.next_int() as u32) >> 1) as i32;
        }
    }

    /// `nextLong(bound)`: uniform in `[0, bound)`.
    ///
    /// # Panics
    /// When `bound <= 0`.
    pub fn next_long_below(&mut self, bound: i64) -> i64 {
        assert!(bound > 0, "bound must be positive, got {bound}");
        let r = self.next_long();
        Self::reduce(self, r, bound)
    }

    /// `nextLong(origin, bound)`: uniform in `[origin, bound)`.
    ///
    /// # Panics
    /// When `origin >= bound`.
    pub fn next_long_between(&mut self, origin: i64, bound: i64) -> i64 {
        assert!(
            origin < bound,
            "origin {origin} must be below bound {bound}"
        );
        let mut r = self.next_long();
        let n = bound.wrapping_sub(origin);
        if n > 0 {
            Self::reduce(self, r, n) + origin
        } else {
            // The range does not fit in an i64: draw until one lands in it.
            while r < origin || r >= bound {
                r = self.next_long();
            }
            r
        }
    }

    /// Java's bounded reduction of the draw `r` to `[0, n)`, `n > 0`.
    fn reduce(&mut self, r: i64, n: i64) -> i64 {
        let m = n - 1;
        if n & m == 0 {
            return r & m;
        }
        let mut u = ((r as u64) >> 1) as i64;
        loop {
            let r = u % n;
            if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                return r;
            }
            u = ((self.next_long() as u64) >> 1) as i64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bijou64 length of a value under the unsigned mapping, from the codec itself.
    fn bijou_len(value: i64) -> usize {
        bijou64_kafka::encoded_len(value, bijou64_kafka::Mapping::Unsigned)
    }

    fn mean_bijou_len(values: &[i64]) -> f64 {
        values.iter().map(|&v| bijou_len(v)).sum::<usize>() as f64 / values.len() as f64
    }

    mod java_random {
        //! Reference numbers printed by OpenJDK 17's `java.util.SplittableRandom`.
        use super::*;

        #[test]
        fn next_long_matches_java() {
            let mut random = SplittableRandom::new(DEFAULT_SEED);
            let drawn: Vec<i64> = (0..5).map(|_| random.next_long()).collect();
            assert_eq!(
                drawn,
                [
                    5_369_426_690_720_168_748,
                    6_019_943_805_695_658_154,
                    -4_014_382_106_853_547_387,
                    3_667_261_648_298_961_811,
                    -467_358_188_112_059_742
                ],
                "new SplittableRandom(DEFAULT_SEED).nextLong() x5"
            );
        }

        #[test]
        fn next_int_below_matches_java() {
            let mut random = SplittableRandom::new(DEFAULT_SEED);
            let drawn: Vec<i32> = (0..8).map(|_| random.next_int_below(100)).collect();
            assert_eq!(drawn, [73, 83, 47, 40, 22, 80, 99, 39], "nextInt(100) x8");
        }

        #[test]
        fn odd_bounds_and_ranges_match_java() {
            let mut random = SplittableRandom::new(7);
            let mut drawn = Vec::new();
            for _ in 0..6 {
                drawn.push(i64::from(random.next_int_below(1_000_000_007)));
                drawn.push(random.next_long_below(i64::MAX - 12_345));
                drawn.push(random.next_long_between(-5, i64::MAX));
            }
            assert_eq!(
                drawn,
                [
                    332_694_689,
                    154_844_686_297_477_902,
                    8_346_079_845_500_723_674,
                    527_000_107,
                    4_316_104_653_711_435_899,
                    6_051_947_643_683_389_182,
                    884_477_684,
                    3_810_556_812_210_252_212,
                    1_910_343_844_960_271_083,
                    504_971_830,
                    8_467_236_170_921_859_495,
                    6_020_303_405_324_641_991,
                    794_312_664,
                    6_985_062_394_118_085_500,
                    1_968_162_948_761_465_549,
                    855_742_943,
                    8_324_459_088_656_525_080,
                    1_414_519_515_228_510_906
                ],
                "seed 7: nextInt(1e9+7), nextLong(MAX-12345), nextLong(-5, MAX) x6"
            );
        }
    }

    mod sequential {
        use super::*;

        #[test]
        fn is_exactly_one_to_n() {
            let values = Distribution::Sequential.generate(50_000, DEFAULT_SEED);
            assert_eq!(values.len(), 50_000);
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(v, i as i64 + 1, "sequential value at index {i}");
            }
        }

        #[test]
        fn averages_the_published_2985_bytes_for_fifty_thousand() {
            let values = Distribution::Sequential.generate(50_000, DEFAULT_SEED);
            assert_eq!(format!("{:.3}", mean_bijou_len(&values)), "2.985");
        }
    }

    mod boundary {
        use super::*;

        #[test]
        fn tier_edges_are_the_first_and_last_value_of_every_tier() {
            // OFFSET[t] of the format (`docs/format.md`), computed independently of TIER_EDGES.
            let mut offset = [0_i64; 9];
            offset[1] = 248;
            for t in 2..=8 {
                offset[t] = offset[t - 1] + (1_i64 << (8 * (t - 1)));
            }
            let mut expected = vec![0];
            for &o in &offset[1..] {
                expected.extend([o - 1, o]);
            }
            expected.extend([i64::MAX, i64::MIN, -1]);
            assert_eq!(TIER_EDGES.to_vec(), expected, "TIER_EDGES");
        }

        #[test]
        fn covers_every_tier_edge_and_every_length() {
            let values = Distribution::Boundary.generate(TIER_EDGES.len(), DEFAULT_SEED);
            for edge in TIER_EDGES {
                assert!(values.contains(&edge), "boundary covers {}", edge as u64);
            }
            for pair in TIER_EDGES[1..17].chunks(2) {
                // pair[0] is the last value of a tier, pair[1] the first of the next
                assert_eq!(
                    bijou_len(pair[0]) + 1,
                    bijou_len(pair[1]),
                    "length step between {} and {}",
                    pair[0],
                    pair[1]
                );
            }
            for len in 1..=9 {
                assert!(
                    values.iter().any(|&v| bijou_len(v) == len),
                    "some edge has length {len}"
                );
            }
        }

        #[test]
        fn cycles_the_edges_to_n() {
            let n = TIER_EDGES.len() * 3 + 5;
            let values = Distribution::Boundary.generate(n, DEFAULT_SEED);
            assert_eq!(values.len(), n);
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(v, TIER_EDGES[i % TIER_EDGES.len()], "index {i}");
            }
        }
    }

    mod mixed {
        use super::*;

        const N: usize = 200_000;

        #[test]
        fn has_the_stated_proportions() {
            let values = Distribution::Mixed.generate(N, DEFAULT_SEED);
            let small = values
                .iter()
                .filter(|v| (0..SMALL_BOUND).contains(v))
                .count();
            let epoch = values
                .iter()
                .filter(|v| (EPOCH_MILLIS_LOW..EPOCH_MILLIS_HIGH).contains(v))
                .count();
            let medium = values
                .iter()
                .filter(|v| (SMALL_BOUND..MEDIUM_BOUND).contains(v))
                .count();
            assert_eq!(
                small + medium + epoch,
                N,
                "every value in one of the ranges"
            );
            // The medium bucket also draws below 1,000 one time in 10^4.
            let share = |count: usize| count as f64 / N as f64;
            assert!(
                (share(small) - 0.50).abs() < 0.01,
                "small share {}",
                share(small)
            );
            assert!(
                (share(medium) - 0.30).abs() < 0.01,
                "medium share {}",
                share(medium)
            );
            assert!(
                (share(epoch) - 0.20).abs() < 0.01,
                "epoch share {}",
                share(epoch)
            );
        }

        #[test]
        fn matches_java_for_the_default_seed() {
            let values = Distribution::Mixed.generate(50_000, DEFAULT_SEED);
            assert_eq!(
                values[..6],
                [7_829_077, 905, 622, 1_751_505_058_726, 6_706_678, 779],
                "first values"
            );
            assert_eq!(values[49_999], 3_913_938, "last value");
            assert_eq!(
                values.iter().sum::<i64>(),
                17_357_979_344_218_564,
                "sum of 50,000 values"
            );
            assert_eq!(format!("{:.3}", mean_bijou_len(&values)), "3.723");
        }

        #[test]
        fn matches_java_for_another_seed() {
            assert_eq!(
                Distribution::Mixed.generate(12, 42),
                [
                    145,
                    1_717_213_927_882,
                    1_750_293_894_531,
                    3_887_954,
                    487,
                    823,
                    3_110_747,
                    65,
                    1_715_111_196_430,
                    504,
                    5_743_820,
                    1_725_361_851_464
                ]
            );
        }
    }

    mod determinism {
        use super::*;

        #[test]
        fn same_seed_same_values() {
            for d in Distribution::ALL {
                assert_eq!(
                    d.generate(10_000, 1234),
                    d.generate(10_000, 1234),
                    "{d} with seed 1234"
                );
            }
        }

        #[test]
        fn seeds_change_only_the_random_distributions() {
            for d in Distribution::ALL {
                let differs = d.generate(1_000, 1) != d.generate(1_000, 2);
                let random = matches!(d, Distribution::Uniform | Distribution::Mixed);
                assert_eq!(differs, random, "{d}: seed changes values");
            }
        }

        #[test]
        fn uniform_reaches_negatives_and_nine_bytes() {
            let values = Distribution::Uniform.generate(10_000, DEFAULT_SEED);
            let negative = values.iter().filter(|&&v| v < 0).count();
            assert!((4_500..5_500).contains(&negative), "{negative} negatives");
            assert!(mean_bijou_len(&values) > 8.9, "uniform mean length");
        }

        #[test]
        fn names_round_trip() {
            for d in Distribution::ALL {
                assert_eq!(d.name().parse::<Distribution>(), Ok(d));
            }
            assert!("zipf".parse::<Distribution>().is_err());
        }
    }
}
