//! Every row of the shared vectors, through the single-value and the slab API.

mod common;

use bijou64_kafka::{
    decode, decode_prefix, decode_slab, encode_slab, encoded_len, to_bytes, Mapping,
};
use common::{rows, unhex};

/// One `bijou.csv` row as (signed Kafka value, mapping); `None` for a format this row set doesn't use.
enum Row {
    Long(i64, Mapping),
    Int(i32, Mapping),
}

fn parse(format: &str, value: &str) -> Row {
    match format {
        // bijou64 rows hold u64 values: the unsigned mapping of a Long is `value as u64`.
        "bijou64" => Row::Long(value.parse::<u64>().unwrap() as i64, Mapping::Unsigned),
        "bijou64-long" => Row::Long(value.parse().unwrap(), Mapping::Unsigned),
        "bijou64s" => Row::Long(value.parse().unwrap(), Mapping::Zigzag),
        "bijou32" => Row::Int(value.parse::<u32>().unwrap() as i32, Mapping::Unsigned),
        "bijou32s" => Row::Int(value.parse().unwrap(), Mapping::Zigzag),
        other => panic!("unknown format {other} in bijou.csv"),
    }
}

#[test]
fn every_valid_vector_encodes_and_decodes() {
    let rows = rows("bijou.csv");
    assert!(rows.len() >= 230, "bijou.csv has {} rows", rows.len());
    for row in &rows {
        let (format, value, hex) = (&row[0], &row[1], &row[2]);
        let bytes = unhex(hex);
        let context = format!("{format} {value} = {hex}");
        match parse(format, value) {
            Row::Long(v, m) => {
                assert_eq!(to_bytes(v, m), bytes, "encode {context}");
                assert_eq!(encoded_len(v, m), bytes.len(), "encoded_len {context}");
                assert_eq!(decode::<i64>(&bytes, m).unwrap(), v, "decode {context}");
                assert_eq!(
                    decode_prefix::<i64>(&bytes, m).unwrap(),
                    (v, bytes.len()),
                    "decode_prefix {context}"
                );
            }
            Row::Int(v, m) => {
                assert_eq!(to_bytes(v, m), bytes, "encode {context}");
                assert_eq!(encoded_len(v, m), bytes.len(), "encoded_len {context}");
                assert_eq!(decode::<i32>(&bytes, m).unwrap(), v, "decode {context}");
            }
        }
    }
}

#[test]
fn every_valid_vector_round_trips_through_one_slab_per_format() {
    for (format, mapping) in [
        ("bijou64-long", Mapping::Unsigned),
        ("bijou64s", Mapping::Zigzag),
    ] {
        let rows: Vec<_> = rows("bijou.csv")
            .into_iter()
            .filter(|r| r[0] == format)
            .collect();
        let values: Vec<i64> = rows.iter().map(|r| r[1].parse().unwrap()).collect();
        let expected: Vec<u8> = rows.iter().flat_map(|r| unhex(&r[2])).collect();
        let slab = encode_slab(&values, mapping).unwrap();
        assert_eq!(slab.bytes(), &expected[..], "{format} slab bytes");
        assert_eq!(slab.len(), values.len());
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(
                slab.record(i).unwrap(),
                &unhex(&r[2])[..],
                "{format} record {i}"
            );
        }
        assert_eq!(
            decode_slab::<i64>(slab.bytes(), slab.offsets(), mapping).unwrap(),
            values
        );
    }
    for (format, mapping) in [
        ("bijou32", Mapping::Unsigned),
        ("bijou32s", Mapping::Zigzag),
    ] {
        let rows: Vec<_> = rows("bijou.csv")
            .into_iter()
            .filter(|r| r[0] == format)
            .collect();
        let values: Vec<i32> = rows
            .iter()
            .map(|r| {
                if format == "bijou32" {
                    r[1].parse::<u32>().unwrap() as i32
                } else {
                    r[1].parse().unwrap()
                }
            })
            .collect();
        let expected: Vec<u8> = rows.iter().flat_map(|r| unhex(&r[2])).collect();
        let slab = encode_slab(&values, mapping).unwrap();
        assert_eq!(slab.bytes(), &expected[..], "{format} slab bytes");
        assert_eq!(
            decode_slab::<i32>(slab.bytes(), slab.offsets(), mapping).unwrap(),
            values
        );
    }
}

#[test]
fn every_invalid_vector_raises_its_error() {
    let rows = rows("bijou-invalid.csv");
    assert!(
        rows.len() >= 14,
        "bijou-invalid.csv has {} rows",
        rows.len()
    );
    for row in &rows {
        let (format, hex, expected) = (&row[0], &row[1], &row[2]);
        assert_eq!(format, "bijou64", "only bijou64 rows are expected");
        let bytes = unhex(hex);
        let result = decode::<i64>(&bytes, Mapping::Unsigned);
        match expected.strip_prefix("ok:") {
            Some(v) => assert_eq!(result.unwrap() as u64, v.parse::<u64>().unwrap(), "{hex}"),
            None => {
                let error = result.expect_err(&format!("{hex} must fail with {expected}"));
                assert_eq!(error.kind().as_str(), expected, "{hex}: {error}");
                // The same record inside a slab fails with its index and kind.
                let slab = [&[0x01_u8][..], &bytes].concat();
                let offsets = [0, 1, slab.len() as u32];
                let error = decode_slab::<i64>(&slab, &offsets, Mapping::Unsigned).unwrap_err();
                assert_eq!(
                    (error.record_index(), error.kind().as_str()),
                    (Some(1), expected.as_str()),
                    "{hex} in a slab"
                );
            }
        }
    }
}
