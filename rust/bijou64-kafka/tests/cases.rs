//! Small inputs that broke other varint serdes, through the Rust codec: a lone tag byte, trailing bytes, overflow,
//! a short payload, `LongSerializer`'s bytes, an empty record, the extreme values (`java/bijou64`'s `CasesTest` and
//! `java/bijou64-kafka-serializers`' `SerdeCasesTest` check the same on the JVM).

mod common;

use bijou64_kafka::{decode, decode_prefix, decode_slab, to_bytes, Error, ErrorKind, Mapping};
use common::unhex;

fn kind(hex: &str) -> ErrorKind {
    decode::<i64>(&unhex(hex), Mapping::Unsigned)
        .expect_err(hex)
        .kind()
}

#[test]
fn a_lone_tag_byte_is_truncated_never_zero() {
    assert_eq!(kind("f8"), ErrorKind::Truncated);
    assert_eq!(kind("ff"), ErrorKind::Truncated);
    assert_eq!(
        decode_prefix::<i64>(&[0xf8], Mapping::Unsigned)
            .unwrap_err()
            .kind(),
        ErrorKind::Truncated
    );
    let message = decode::<i64>(&[0xff], Mapping::Unsigned)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "truncated: tag 0xff announces a 9-byte bijou64 value, 1 bytes present"
    );
}

#[test]
fn a_trailing_byte_is_left_by_decode_prefix_and_refused_by_decode() {
    assert_eq!(
        decode_prefix::<i64>(&[0x2a, 0x99], Mapping::Unsigned).unwrap(),
        (42, 1)
    );
    assert_eq!(kind("2a99"), ErrorKind::TrailingBytes);
}

#[test]
fn values_beyond_the_integer_type_overflow() {
    assert_eq!(kind("fffefefefefefefe08"), ErrorKind::Overflow);
    assert_eq!(kind("ffffffffffffffffff"), ErrorKind::Overflow);
    assert_eq!(
        decode::<i32>(&unhex("ffffffffff"), Mapping::Unsigned)
            .unwrap_err()
            .kind(),
        ErrorKind::Overflow
    );
}

#[test]
fn a_payload_shorter_than_its_tag_announces_is_truncated() {
    let error = decode::<i64>(&unhex("fb000000"), Mapping::Unsigned).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Truncated {
                tag: 0xfb,
                needed: 5,
                available: 4,
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn long_serializer_bytes_are_trailing_bytes_never_a_value() {
    for mapping in [Mapping::Unsigned, Mapping::Zigzag] {
        let error = decode::<i64>(&42_i64.to_be_bytes(), mapping).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::TrailingBytes);
        assert_eq!(
            error.to_string(),
            format!(
                "trailing bytes: a 1-byte {} value is followed by 7 more bytes",
                if mapping == Mapping::Unsigned {
                    "bijou64"
                } else {
                    "bijou64s"
                }
            )
        );
    }
}

#[test]
fn an_empty_record_is_an_error_alone_and_inside_a_slab() {
    assert_eq!(kind(""), ErrorKind::Empty);
    assert_eq!(
        decode::<i32>(&[], Mapping::Zigzag).unwrap_err().kind(),
        ErrorKind::Empty
    );
    // An empty record inside a slab, too.
    let error = decode_slab::<i64>(&[0x01], &[0, 1, 1], Mapping::Unsigned).unwrap_err();
    assert_eq!(
        (error.record_index(), error.kind()),
        (Some(1), ErrorKind::Empty)
    );
}

#[test]
fn min_max_minus_one_and_zero_match_the_vectors() {
    let cases: [(i64, &str, &str); 4] = [
        (i64::MIN, "ff7efefefefefefe08", "fffefefefefefefe07"),
        (i64::MAX, "ff7efefefefefefe07", "fffefefefefefefe06"),
        (-1, "fffefefefefefefe07", "01"),
        (0, "00", "00"),
    ];
    for (value, unsigned, zigzag) in cases {
        assert_eq!(
            to_bytes(value, Mapping::Unsigned),
            unhex(unsigned),
            "{value} unsigned"
        );
        assert_eq!(
            to_bytes(value, Mapping::Zigzag),
            unhex(zigzag),
            "{value} zigzag"
        );
    }
}

#[test]
fn bad_offsets_are_reported() {
    let bad: [&[u32]; 4] = [&[], &[1, 1], &[0, 2], &[0, 1, 0, 1]];
    for offsets in bad {
        let error = decode_slab::<i64>(&[0x01], offsets, Mapping::Unsigned).unwrap_err();
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidOffsets,
            "{offsets:?}: {error}"
        );
    }
}
