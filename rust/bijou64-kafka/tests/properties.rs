//! Properties: round trips, agreement with upstream `bijoux`, and canonicity checked
//! exhaustively over every 1-, 2- and 3-byte input.

use bijou64_kafka::{decode, decode_slab, encode_slab, encoded_len, to_bytes, BijouValue, Mapping};
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
