//! One contender of the codec shootout over one distribution, a given number of
//! passes, for instruction counts under `valgrind --tool=callgrind` (exact and
//! load-independent, unlike this VM's timings).
//!
//! `scripts/codec-instructions.sh` runs every cell with 1 and with 21 passes and
//! divides the difference by 20 passes × 50,000 values, so setup (generating values,
//! the input slab, allocations) cancels out. Results: `docs/benchmarks.md`.
//!
//! Usage: `instructions <encode|decode> <bulk-bijou64|bulk-bijou64s|bijoux-scalar>
//! <sequential|uniform|boundary|mixed> <passes>`. Run by `cargo bench` (no such
//! arguments), it runs every cell once and checks that the contenders agree.

mod common;

use std::hint::black_box;

use bijou64_kafka::{decode_slab_into, encode_slab_into, EncodedSlab, Mapping};
use common::{bijoux_decode, bijoux_encode, distributions};

/// The contenders and, for the bulk paths, their mapping.
const CONTENDERS: [(&str, Option<Mapping>); 3] = [
    ("bulk-bijou64", Some(Mapping::Unsigned)),
    ("bulk-bijou64s", Some(Mapping::Zigzag)),
    ("bijoux-scalar", None),
];

/// Runs `passes` passes of `contender` in direction `op` over `values`.
fn run(op: &str, contender: Option<Mapping>, values: &[i64], passes: usize) {
    match op {
        "encode" => {
            let mut slab = EncodedSlab::new();
            let (mut bytes, mut offsets) = (Vec::with_capacity(values.len() * 10), Vec::new());
            offsets.reserve(values.len() + 1);
            for _ in 0..passes {
                match contender {
                    Some(m) => encode_slab_into(black_box(values), m, &mut slab).unwrap(),
                    None => bijoux_encode(black_box(values), &mut bytes, &mut offsets),
                }
            }
            if let Some(m) = contender {
                encode_slab_into(values, m, &mut slab).unwrap();
                bijoux_encode(values, &mut bytes, &mut offsets);
                if m == Mapping::Unsigned {
                    assert_eq!((slab.bytes(), slab.offsets()), (&bytes[..], &offsets[..]));
                }
            }
        }
        "decode" => {
            let m = contender.unwrap_or(Mapping::Unsigned);
            let slab = bijou64_kafka::encode_slab(values, m).unwrap();
            let mut out: Vec<i64> = Vec::with_capacity(values.len());
            for _ in 0..passes {
                out.clear();
                match contender {
                    Some(m) => {
                        decode_slab_into(black_box(slab.bytes()), slab.offsets(), m, &mut out)
                            .unwrap()
                    }
                    None => bijoux_decode(black_box(slab.bytes()), slab.offsets(), &mut out),
                }
            }
            assert!(
                passes == 0 || out == values,
                "{op} {contender:?}: wrong values"
            );
        }
        other => panic!("unknown direction {other}: encode or decode"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let distributions = distributions();
    if let [op, contender, distribution, passes] = &args[..] {
        let contender = CONTENDERS
            .iter()
            .find(|(name, _)| name == contender)
            .unwrap_or_else(|| panic!("unknown contender {contender}"))
            .1;
        let values = &distributions
            .iter()
            .find(|(name, _)| name == distribution)
            .unwrap_or_else(|| panic!("unknown distribution {distribution}"))
            .1;
        run(
            op,
            contender,
            values,
            passes.parse().expect("passes: a number"),
        );
    } else {
        for (_, values) in &distributions {
            for op in ["encode", "decode"] {
                for (_, contender) in CONTENDERS {
                    run(op, contender, values, 1);
                }
            }
        }
    }
}
