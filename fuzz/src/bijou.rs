//! The bijou64 targets' oracle: upstream `bijoux` decides what `bijou64_kafka` must return for any bytes.
//!
//! `bijoux` decodes a prefix and knows two errors (`BufferTooShort`, `Overflow`); `bijou64_kafka`'s strict
//! decode adds the whole-record rule. So for a record `r`, [`expected`] is: `bijoux` gives `(v, n)` with
//! `n == r.len()`: exactly `v`; with `n < r.len()`: `TrailingBytes` after `n` bytes; `BufferTooShort`: `Empty`
//! for no bytes, else `Truncated` naming the first byte and the bytes present; `Overflow`: `Overflow`.
//! [`check_record`] and [`check_slab`] compare the crate with that, field by field where the error has fields.

use bijou64_kafka::{BijouValue, Error, ErrorKind, Mapping};

/// The four wire formats: (Kafka type, mapping).
pub const FORMATS: [(Width, Mapping); 4] = [
    (Width::Long, Mapping::Unsigned),
    (Width::Long, Mapping::Zigzag),
    (Width::Integer, Mapping::Unsigned),
    (Width::Integer, Mapping::Zigzag),
];

/// Kafka Long (`i64`: bijou64, bijou64s) or Integer (`i32`: bijou32, bijou32s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// `i64`.
    Long,
    /// `i32`.
    Integer,
}

/// What `bijoux` says one record must decode to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected<T> {
    /// Exactly this value.
    Value(T),
    /// `Empty`, `Truncated` (with the tag byte and the bytes present), `Overflow`, or `TrailingBytes` after
    /// `consumed` bytes.
    Error {
        /// The kind.
        kind: ErrorKind,
        /// For `TrailingBytes`, the bytes the value took; else the record's length.
        consumed: usize,
    },
}

/// A Kafka value type with the `bijoux` decoder of each of its mappings.
pub trait Upstream: BijouValue + PartialEq + std::fmt::Debug {
    /// `bijoux`'s prefix decode under `mapping`: `Ok((value, consumed))`, or `Err(true)` for `Overflow` and
    /// `Err(false)` for `BufferTooShort`.
    fn upstream(buf: &[u8], mapping: Mapping) -> Result<(Self, usize), bool>;
    /// `bijoux`'s encoding of `self` under `mapping`.
    fn upstream_bytes(self, mapping: Mapping) -> Vec<u8>;
}

macro_rules! upstream {
    ($t:ty, $unsigned:ident, $signed:ident, $u:ty) => {
        impl Upstream for $t {
            fn upstream(buf: &[u8], mapping: Mapping) -> Result<(Self, usize), bool> {
                let decoded = match mapping {
                    Mapping::Unsigned => bijoux::$unsigned::decode(buf).map(|(v, n)| (v as $t, n)),
                    Mapping::Zigzag => bijoux::$signed::decode(buf),
                };
                decoded.map_err(|e| matches!(e, bijoux::$unsigned::DecodeError::Overflow))
            }

            fn upstream_bytes(self, mapping: Mapping) -> Vec<u8> {
                let mut out = Vec::new();
                match mapping {
                    Mapping::Unsigned => bijoux::$unsigned::encode(self as $u, &mut out),
                    Mapping::Zigzag => bijoux::$signed::encode(self, &mut out),
                }
                out
            }
        }
    };
}

upstream!(i64, u64, i64, u64);
upstream!(i32, u32, i32, u32);

/// What a strict whole-record decode of `record` must give, according to `bijoux`.
pub fn expected<T: Upstream>(record: &[u8], mapping: Mapping) -> Expected<T> {
    let error = |kind, consumed| Expected::Error { kind, consumed };
    match T::upstream(record, mapping) {
        Ok((value, n)) if n == record.len() => Expected::Value(value),
        Ok((_, n)) => error(ErrorKind::TrailingBytes, n),
        Err(true) => error(ErrorKind::Overflow, record.len()),
        Err(false) if record.is_empty() => error(ErrorKind::Empty, 0),
        Err(false) => error(ErrorKind::Truncated, record.len()),
    }
}

/// Panics unless `error` is exactly the error `bijoux` predicts for `record` (kind and fields).
fn check_error<T: Upstream>(
    record: &[u8],
    mapping: Mapping,
    error: &Error,
    kind: ErrorKind,
    consumed: usize,
) {
    assert_eq!(error.kind(), kind, "{mapping} {record:02x?}: {error}");
    let format = T::format(mapping);
    match *error {
        Error::Empty { format: f } => assert_eq!(f, format),
        Error::Truncated {
            format: f,
            tag,
            needed,
            available,
        } => {
            assert_eq!(
                (f, tag, available),
                (format, record[0], record.len()),
                "{error}"
            );
            assert!(needed > available && needed <= T::MAX_BYTES, "{error}");
        }
        Error::Overflow { format: f, len } => assert_eq!((f, len), (format, T::MAX_BYTES)),
        Error::TrailingBytes {
            format: f,
            consumed: c,
            len,
        } => assert_eq!((f, c, len), (format, consumed, record.len())),
        ref other => panic!("{mapping} {record:02x?}: unexpected error {other}"),
    }
    // Every message formats (the JNI layer puts it in the Java exception).
    assert!(!error.to_string().is_empty());
}

/// Decodes `record` with `bijou64_kafka::decode` and `decode_prefix` and panics on any difference from
/// `bijoux`: another value, a value where `bijoux` fails, or another error. A decoded value must also encode
/// back to exactly `record` with both crates (the format is canonical).
pub fn check_record<T: Upstream>(record: &[u8], mapping: Mapping) {
    let expected = expected::<T>(record, mapping);
    let strict = bijou64_kafka::decode::<T>(record, mapping);
    let prefix = bijou64_kafka::decode_prefix::<T>(record, mapping);
    match (T::upstream(record, mapping), &prefix) {
        (Ok(up), Ok(ours)) => assert_eq!(&up, ours, "{mapping} prefix {record:02x?}"),
        (Err(overflow), Err(e)) => assert_eq!(
            e.kind(),
            match (overflow, record.is_empty()) {
                (true, _) => ErrorKind::Overflow,
                (false, true) => ErrorKind::Empty,
                (false, false) => ErrorKind::Truncated,
            },
            "{mapping} prefix {record:02x?}: {e}"
        ),
        (up, ours) => panic!("{mapping} prefix {record:02x?}: bijoux {up:?}, ours {ours:?}"),
    }
    match (expected, strict) {
        (Expected::Value(v), Ok(ours)) => {
            assert_eq!(v, ours, "{mapping} {record:02x?}");
            assert_eq!(
                bijou64_kafka::to_bytes(ours, mapping),
                record,
                "{mapping} re-encode"
            );
            assert_eq!(
                ours.upstream_bytes(mapping),
                record,
                "{mapping} bijoux re-encode"
            );
            assert_eq!(bijou64_kafka::encoded_len(ours, mapping), record.len());
        }
        (Expected::Error { kind, consumed }, Err(error)) => {
            check_error::<T>(record, mapping, &error, kind, consumed);
        }
        (expected, ours) => {
            panic!("{mapping} {record:02x?}: bijoux says {expected:?}, ours {ours:?}")
        }
    }
}

/// A slab as the slab target reads it from the fuzzer's bytes: `flags`, `n`, `n` record lengths, then the
/// slab. Bit 0 of `flags`: zigzag; bit 1: Integer; bit 2: the offsets come raw from the length bytes (as
/// little-endian `u32`s, mostly invalid) instead of summing the lengths (valid whenever they add up to the
/// slab's length).
#[derive(Debug)]
pub struct SlabInput<'a> {
    /// Kafka type.
    pub width: Width,
    /// Mapping.
    pub mapping: Mapping,
    /// The `n + 1` offsets (or whatever the raw bytes give).
    pub offsets: Vec<u32>,
    /// The slab.
    pub bytes: &'a [u8],
}

impl<'a> SlabInput<'a> {
    /// Reads a slab from `data`; `None` when it is too short to hold the header.
    pub fn parse(data: &'a [u8]) -> Option<Self> {
        let (&flags, rest) = data.split_first()?;
        let (&n, rest) = rest.split_first()?;
        let raw = flags & 4 != 0;
        let header = if raw {
            usize::from(n) * 4
        } else {
            usize::from(n)
        };
        let lengths = rest.get(..header)?;
        let bytes = &rest[header..];
        let offsets = if raw {
            lengths
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else {
            std::iter::once(0)
                .chain(lengths.iter().scan(0u32, |end, &len| {
                    *end += u32::from(len % 16);
                    Some(*end)
                }))
                .collect()
        };
        Some(Self {
            width: if flags & 2 != 0 {
                Width::Integer
            } else {
                Width::Long
            },
            mapping: if flags & 1 != 0 {
                Mapping::Zigzag
            } else {
                Mapping::Unsigned
            },
            offsets,
            bytes,
        })
    }
}

/// Whether `offsets` describe a slab of `len` bytes: `n + 1` non-decreasing offsets from 0 to `len`.
fn offsets_valid(offsets: &[u32], len: usize) -> bool {
    offsets.first() == Some(&0)
        && offsets.last().map(|&l| l as usize) == Some(len)
        && offsets.windows(2).all(|w| w[0] <= w[1])
}

/// Decodes a slab with `decode_slab` and `decode_slab_into` and panics on any difference from decoding each
/// record with `bijoux`: the offsets check, the index and error of the first bad record, every value. On
/// error `decode_slab_into` must leave its output as it was; a decoded slab must encode back to the same
/// bytes and offsets.
pub fn check_slab<T: Upstream>(input: &SlabInput<'_>) {
    let (bytes, offsets, mapping) = (input.bytes, input.offsets.as_slice(), input.mapping);
    let ours = bijou64_kafka::decode_slab::<T>(bytes, offsets, mapping);
    let mut into: Vec<T> = Vec::new();
    let sentinel = bijou64_kafka::decode_slab::<T>(&[0x07], &[0, 1], mapping).expect("one value");
    into.extend_from_slice(&sentinel);
    let into_result = bijou64_kafka::decode_slab_into(bytes, offsets, mapping, &mut into);
    if !offsets_valid(offsets, bytes.len()) {
        let error = ours.expect_err("invalid offsets must be refused");
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidOffsets,
            "{offsets:?} over {}: {error}",
            bytes.len()
        );
        assert!(into_result.is_err());
        assert_eq!(
            into, sentinel,
            "decode_slab_into changed its output on error"
        );
        return;
    }
    let mut values = Vec::new();
    for (index, w) in offsets.windows(2).enumerate() {
        let record = &bytes[w[0] as usize..w[1] as usize];
        match expected::<T>(record, mapping) {
            Expected::Value(v) => values.push(v),
            Expected::Error { kind, consumed } => {
                let error = ours.expect_err("a bad record must fail the slab");
                assert_eq!(error.record_index(), Some(index), "{error}");
                let Error::InvalidRecord { source, .. } = &error else {
                    panic!("not InvalidRecord: {error}")
                };
                check_error::<T>(record, mapping, source, kind, consumed);
                assert!(into_result.is_err());
                assert_eq!(
                    into, sentinel,
                    "decode_slab_into changed its output on error"
                );
                return;
            }
        }
    }
    let decoded = ours.unwrap_or_else(|e| panic!("bijoux decodes every record, ours: {e}"));
    assert_eq!(decoded, values);
    into_result.expect("decode_slab_into agrees with decode_slab");
    assert_eq!(&into[..1], sentinel.as_slice());
    assert_eq!(&into[1..], values.as_slice());
    let slab = bijou64_kafka::encode_slab(&values, mapping).expect("small slab");
    assert_eq!(slab.bytes(), bytes, "re-encoded slab");
    assert_eq!(slab.offsets(), offsets, "re-encoded offsets");
}
