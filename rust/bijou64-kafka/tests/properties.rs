//! Properties: round trips, agreement with upstream `bijoux`, and canonicity checked
//! exhaustively over every 1-, 2- and 3-byte input.

use bijou64_kafka::{
    decode, decode_slab, encode_slab, encoded_len, to_bytes, BijouValue, Error, ErrorKind, Mapping,
};
use proptest::prelude::*;

/// The bytes upstream `bijoux` writes.
fn upstream(encode: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::new();
    encode(&mut out);
    out
}

const MAPPINGS: [Mapping; 2] = [Mapping::Unsigned, Mapping::Zigzag];

/// Values spread over every tier: a random value shifted right by a random amount.
fn any_tiered_i64() -> impl Strategy<Value = i64> {
    (any::<i64>(), 0_u32..64).prop_map(|(v, shift)| v >> shift)
}

fn any_tiered_i32() -> impl Strategy<Value = i32> {
    (any::<i32>(), 0_u32..32).prop_map(|(v, shift)| v >> shift)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn i64_round_trips_and_matches_bijoux(v in any_tiered_i64()) {
        let unsigned = to_bytes(v, Mapping::Unsigned);
        prop_assert_eq!(&unsigned[..], &upstream(|b| bijoux::u64::encode(v as u64, b))[..]);
        let zigzag = to_bytes(v, Mapping::Zigzag);
        prop_assert_eq!(&zigzag[..], &upstream(|b| bijoux::i64::encode(v, b))[..]);
        for (m, bytes) in [(Mapping::Unsigned, unsigned), (Mapping::Zigzag, zigzag)] {
            prop_assert_eq!(encoded_len(v, m), bytes.len());
            prop_assert_eq!(decode::<i64>(&bytes, m).unwrap(), v);
        }
    }

    #[test]
    fn i32_round_trips_and_matches_bijoux(v in any_tiered_i32()) {
        let unsigned = to_bytes(v, Mapping::Unsigned);
        prop_assert_eq!(&unsigned[..], &upstream(|b| bijoux::u32::encode(v as u32, b))[..]);
        let zigzag = to_bytes(v, Mapping::Zigzag);
        prop_assert_eq!(&zigzag[..], &upstream(|b| bijoux::i32::encode(v, b))[..]);
        for (m, bytes) in [(Mapping::Unsigned, unsigned), (Mapping::Zigzag, zigzag)] {
            prop_assert_eq!(decode::<i32>(&bytes, m).unwrap(), v);
        }
    }

    #[test]
    fn int_slabs_round_trip(values in prop::collection::vec(any_tiered_i32(), 0..200), zigzag: bool) {
        let m = if zigzag { Mapping::Zigzag } else { Mapping::Unsigned };
        let slab = encode_slab(&values, m).unwrap();
        let concatenated: Vec<u8> = values.iter().flat_map(|&v| to_bytes(v, m)).collect();
        prop_assert_eq!(slab.bytes(), &concatenated[..]);
        prop_assert_eq!(decode_slab::<i32>(slab.bytes(), slab.offsets(), m).unwrap(), values);
    }

    /// Arbitrary bytes cut into arbitrary records: the bulk decoder agrees with the
    /// scalar one record by record (values, or the first failing index and kind).
    #[test]
    fn bulk_decode_of_arbitrary_slabs_matches_scalar(
        bytes in prop::collection::vec(prop_oneof![any::<u8>(), 0xf8_u8..=0xff, Just(0xfe_u8)], 0..120),
        cuts in prop::collection::vec(0_usize..120, 0..40),
        zigzag: bool,
    ) {
        let m = if zigzag { Mapping::Zigzag } else { Mapping::Unsigned };
        let mut offsets: Vec<u32> = cuts.into_iter().filter(|&c| c <= bytes.len()).map(|c| c as u32).collect();
        offsets.extend([0, bytes.len() as u32]);
        offsets.sort_unstable();
        let scalar: Result<Vec<i64>, (usize, bijou64_kafka::ErrorKind)> = offsets
            .windows(2)
            .enumerate()
            .map(|(i, w)| decode::<i64>(&bytes[w[0] as usize..w[1] as usize], m).map_err(|e| (i, e.kind())))
            .collect();
        let bulk = decode_slab::<i64>(&bytes, &offsets, m).map_err(|e| (e.record_index().unwrap(), e.kind()));
        prop_assert_eq!(bulk, scalar);
        let scalar32: Result<Vec<i32>, (usize, bijou64_kafka::ErrorKind)> = offsets
            .windows(2)
            .enumerate()
            .map(|(i, w)| decode::<i32>(&bytes[w[0] as usize..w[1] as usize], m).map_err(|e| (i, e.kind())))
            .collect();
        let bulk32 = decode_slab::<i32>(&bytes, &offsets, m).map_err(|e| (e.record_index().unwrap(), e.kind()));
        prop_assert_eq!(bulk32, scalar32);
    }

    /// Offsets in any order (first 0, last the slab length, as the cheap checks want):
    /// the bulk decoder reports what the contract says, offsets first.
    #[test]
    fn bulk_decode_with_offsets_in_any_order_matches_the_contract(
        values in prop::collection::vec(any_tiered_i64(), 0..60),
        swaps in prop::collection::vec((0_usize..61, 0_usize..61), 0..3),
        nudges in prop::collection::vec((0_usize..61, -10_i64..10), 0..3),
        zigzag: bool,
    ) {
        let m = if zigzag { Mapping::Zigzag } else { Mapping::Unsigned };
        let slab = encode_slab(&values, m).unwrap();
        let mut offsets = slab.offsets().to_vec();
        let inner = offsets.len() - 1; // offsets[1..inner] may move
        for (a, b) in swaps {
            if inner > 1 {
                offsets.swap(1 + a % (inner - 1), 1 + b % (inner - 1));
            }
        }
        for (i, delta) in nudges {
            if inner > 1 {
                let o = &mut offsets[1 + i % (inner - 1)];
                *o = (i64::from(*o) + delta).clamp(0, i64::from(u32::MAX)) as u32;
            }
        }
        prop_assert_eq!(
            summary(decode_slab::<i64>(slab.bytes(), &offsets, m)),
            contract::<i64>(slab.bytes(), &offsets, m)
        );
    }

    #[test]
    fn slabs_round_trip(values in prop::collection::vec(any_tiered_i64(), 0..200), zigzag: bool) {
        let m = if zigzag { Mapping::Zigzag } else { Mapping::Unsigned };
        let slab = encode_slab(&values, m).unwrap();
        let concatenated: Vec<u8> = values.iter().flat_map(|&v| to_bytes(v, m)).collect();
        prop_assert_eq!(slab.bytes(), &concatenated[..]);
        prop_assert_eq!(decode_slab::<i64>(slab.bytes(), slab.offsets(), m).unwrap(), values);
    }
}

/// Every input of 1, 2 and 3 bytes either fails to decode or is the one canonical
/// encoding of the value it decodes to.
fn exhaustive_canonicity<T: BijouValue + PartialEq + std::fmt::Debug>() {
    for mapping in MAPPINGS {
        let mut accepted = 0_u64;
        let mut buf = Vec::with_capacity(3);
        for len in 1..=3_u32 {
            let slab_end = [0, len];
            for n in 0..(1_u32 << (8 * len)) {
                let bytes = &n.to_be_bytes()[4 - len as usize..];
                let scalar = decode::<T>(bytes, mapping);
                let bulk = decode_slab::<T>(bytes, &slab_end, mapping);
                match (&scalar, &bulk) {
                    (Ok(v), Ok(vs)) => assert_eq!(vs, &[*v], "{bytes:02x?} under {mapping}"),
                    (Err(e), Err(b)) => assert_eq!(
                        (b.record_index(), b.kind()),
                        (Some(0), e.kind()),
                        "{bytes:02x?} under {mapping}"
                    ),
                    _ => panic!("{bytes:02x?} under {mapping}: scalar {scalar:?}, bulk {bulk:?}"),
                }
                if let Ok(value) = scalar {
                    buf.clear();
                    value.encode_into(mapping, &mut buf);
                    assert_eq!(
                        &buf[..],
                        bytes,
                        "{bytes:02x?} decodes to {value:?} under {mapping}"
                    );
                    accepted += 1;
                }
            }
        }
        // Exactly the values of tiers 0..=2 have encodings of at most 3 bytes.
        let expected = if T::MAX_BYTES == 9 { 66_040 } else { 66_044 };
        assert_eq!(
            accepted, expected,
            "accepted inputs of 1..=3 bytes under {mapping}"
        );
    }
}

#[test]
fn every_short_input_is_rejected_or_canonical_i64() {
    exhaustive_canonicity::<i64>();
}

#[test]
fn every_short_input_is_rejected_or_canonical_i32() {
    exhaustive_canonicity::<i32>();
}

/// A decode result without the payload of its error: values, or (record index, kind,
/// message).
type Summary<T> = Result<Vec<T>, (Option<usize>, ErrorKind, String)>;

fn summary<T>(result: Result<Vec<T>, Error>) -> Summary<T> {
    result.map_err(|e| (e.record_index(), e.kind(), e.to_string()))
}

/// What `decode_slab` must return, from the documented contract and the scalar
/// decoder: any invalid offset first (an offsets error), else the first record that
/// `decode` rejects, else every value.
fn contract<T: BijouValue + std::fmt::Debug>(
    bytes: &[u8],
    offsets: &[u32],
    m: Mapping,
) -> Summary<T> {
    let ordered = offsets.first() == Some(&0)
        && offsets.last().map(|&l| l as usize) == Some(bytes.len())
        && offsets.windows(2).all(|w| w[0] <= w[1]);
    if !ordered {
        let error = decode_slab::<T>(bytes, offsets, m).expect_err("invalid offsets");
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidOffsets,
            "{offsets:?}: {error}"
        );
        return summary(Err(error));
    }
    offsets
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            decode::<T>(&bytes[w[0] as usize..w[1] as usize], m).map_err(|e| {
                let message = format!("record {i}: {e}");
                (Some(i), e.kind(), message)
            })
        })
        .collect()
}

/// The first and the last unsigned value of every tier of a format whose one-byte form
/// ends below `threshold` and whose longest payload is `max_tier` bytes.
fn tier_edges(threshold: u64, max_tier: u32) -> Vec<u64> {
    let mut firsts = vec![0, threshold];
    for t in 1..max_tier {
        firsts.push(firsts[t as usize] + 256_u64.pow(t));
    }
    let max = if max_tier == 8 {
        u64::MAX
    } else {
        u64::from(u32::MAX)
    };
    (0..firsts.len())
        .flat_map(|t| [firsts[t], firsts.get(t + 1).map_or(max, |next| next - 1)])
        .collect()
}

/// `n` values whose unsigned forms under `m` take every tier's edges in turn from
/// `phase` on, so that records of every length start at every position of a step of
/// the bulk decoder.
fn every_tier_in_turn(n: usize, phase: usize, m: Mapping) -> (Vec<i64>, Vec<i32>) {
    let (long_edges, int_edges) = (tier_edges(248, 8), tier_edges(252, 4));
    let long = |u: u64| match m {
        Mapping::Unsigned => u as i64,
        Mapping::Zigzag => bijoux::i64::unzigzag(u),
    };
    let int = |u: u64| match m {
        Mapping::Unsigned => u as u32 as i32,
        Mapping::Zigzag => bijoux::i32::unzigzag(u as u32),
    };
    (
        (0..n)
            .map(|i| long(long_edges[(i + phase) % long_edges.len()]))
            .collect(),
        (0..n)
            .map(|i| int(int_edges[(i + phase) % int_edges.len()]))
            .collect(),
    )
}

/// The bulk slab of `values` is their upstream (`bijoux`) records concatenated, and decodes back to them.
fn slab_is_the_records_and_round_trips<T: BijouValue + PartialEq + std::fmt::Debug>(
    values: &[T],
    m: Mapping,
    what: &str,
) {
    let slab = encode_slab(values, m).unwrap();
    let concatenated: Vec<u8> = values.iter().flat_map(|&v| to_bytes(v, m)).collect();
    assert_eq!(slab.bytes(), &concatenated[..], "{what}, {m}");
    assert_eq!(
        decode_slab::<T>(slab.bytes(), slab.offsets(), m).unwrap(),
        values,
        "{what}, {m}"
    );
}

/// Every slab length from 0 to 40 values (past a few decode steps, the first 8 bytes
/// and the last records, which take the scalar loops), every tier at every position:
/// encode matches `bijoux` byte for byte, decode gives the values back.
#[test]
fn every_slab_length_near_the_step_and_window_edges_round_trips() {
    for m in MAPPINGS {
        for n in 0..=40 {
            for phase in 0..18 {
                let (values, ints) = every_tier_in_turn(n, phase, m);
                slab_is_the_records_and_round_trips(
                    &values,
                    m,
                    &format!("{n} values, phase {phase}"),
                );
                slab_is_the_records_and_round_trips(&ints, m, &format!("{n} ints, phase {phase}"));
            }
        }
    }
}

/// Every single-byte corruption and every offset moved by one, in slabs of 0 to 24
/// records of every tier: the bulk decoder reports exactly what the contract says.
#[test]
fn every_corruption_of_small_slabs_is_reported_as_the_contract_says() {
    for m in MAPPINGS {
        for n in 0..=24 {
            let (values, _) = every_tier_in_turn(n, n, m);
            let slab = encode_slab(&values, m).unwrap();
            for at in 0..slab.bytes().len() {
                for byte in [
                    0x00,
                    0x7f,
                    0xf7,
                    0xf8,
                    0xfb,
                    0xfc,
                    0xfe,
                    0xff,
                    slab.bytes()[at] ^ 1,
                ] {
                    let mut bytes = slab.bytes().to_vec();
                    bytes[at] = byte;
                    assert_eq!(
                        summary(decode_slab::<i64>(&bytes, slab.offsets(), m)),
                        contract::<i64>(&bytes, slab.offsets(), m),
                        "{n} values, byte {at} = {byte:02x}, {m}"
                    );
                    assert_eq!(
                        summary(decode_slab::<i32>(&bytes, slab.offsets(), m)),
                        contract::<i32>(&bytes, slab.offsets(), m),
                        "{n} values as bijou32, byte {at} = {byte:02x}, {m}"
                    );
                }
            }
            for at in 0..slab.offsets().len() {
                for delta in [-1_i64, 1] {
                    let mut offsets = slab.offsets().to_vec();
                    offsets[at] = (i64::from(offsets[at]) + delta).max(0) as u32;
                    assert_eq!(
                        summary(decode_slab::<i64>(slab.bytes(), &offsets, m)),
                        contract::<i64>(slab.bytes(), &offsets, m),
                        "{n} values, offsets[{at}] {delta:+}, {m}"
                    );
                }
            }
        }
    }
}
