//! One value: the [`Mapping`]s of Kafka Long and Integer onto the bijou formats, and
//! the strict whole-record decoder.

use crate::Error;

/// How a signed Kafka value maps onto the unsigned bijou formats (`bijou64.mapping`).
///
/// | mapping | Long (`i64`) | Integer (`i32`) | one byte holds |
/// |---|---|---|---|
/// | [`Mapping::Unsigned`] (default) | bijou64 of `value as u64` | bijou32 of `value as u32` | 0..=247 (0..=251 for Integer); negatives take the maximal 9 (5) bytes |
/// | [`Mapping::Zigzag`] | bijou64s = bijou64 of `(n << 1) ^ (n >> 63)` | bijou32s | -124..=123 (-126..=125) |
///
/// Under `Unsigned`, non-negative values sort numerically by their bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mapping {
    /// Two's-complement bits as unsigned: the published size figures use it.
    #[default]
    Unsigned,
    /// Zigzag first, so small negative values stay short.
    Zigzag,
}

impl Mapping {
    /// The configuration word: `unsigned` or `zigzag`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Unsigned => "unsigned",
            Self::Zigzag => "zigzag",
        }
    }
}

impl std::str::FromStr for Mapping {
    type Err = String;

    /// Parses `unsigned` or `zigzag` (ASCII case-insensitive, surrounding spaces ignored).
    ///
    /// # Errors
    /// Any other word, with a message naming the accepted ones.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "unsigned" => Ok(Self::Unsigned),
            "zigzag" => Ok(Self::Zigzag),
            other => Err(format!(
                "unknown bijou64.mapping '{other}': expected 'unsigned' or 'zigzag'"
            )),
        }
    }
}

impl std::fmt::Display for Mapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub(crate) mod sealed {
    /// The tier tables behind the bulk paths (`crate::fast`); private to this crate.
    pub trait Sealed: Copy {
        /// First byte value that is a tag (248 for bijou64, 252 for bijou32).
        const THRESHOLD: u8;
        /// Largest payload tier (8 or 4).
        const MAX_TIER: usize;
        /// Largest unsigned value (`u64::MAX` or `u32::MAX`).
        const MAX_VALUE: u64;
        /// `OFFSETS[t]`: first value of tier `t`; `OFFSETS[0] = 0`.
        const OFFSETS: [u64; 9];
        /// The unsigned value the format encodes.
        fn to_unsigned<const ZIGZAG: bool>(self) -> u64;
        /// The inverse of `to_unsigned` for in-range values.
        fn from_unsigned<const ZIGZAG: bool>(u: u64) -> Self;
    }

    const fn offsets(threshold: u64, max_tier: usize) -> [u64; 9] {
        let mut offsets = [0; 9];
        let mut t = 1;
        while t <= max_tier {
            offsets[t] = if t == 1 {
                threshold
            } else {
                offsets[t - 1] + (1 << (8 * (t - 1)))
            };
            t += 1;
        }
        offsets
    }

    impl Sealed for i64 {
        const THRESHOLD: u8 = 248;
        const MAX_TIER: usize = 8;
        const MAX_VALUE: u64 = u64::MAX;
        const OFFSETS: [u64; 9] = offsets(248, 8);

        #[inline(always)]
        fn to_unsigned<const ZIGZAG: bool>(self) -> u64 {
            if ZIGZAG {
                bijoux::i64::zigzag(self)
            } else {
                self as u64
            }
        }

        #[inline(always)]
        fn from_unsigned<const ZIGZAG: bool>(u: u64) -> Self {
            if ZIGZAG {
                bijoux::i64::unzigzag(u)
            } else {
                u as i64
            }
        }
    }

    impl Sealed for i32 {
        const THRESHOLD: u8 = 252;
        const MAX_TIER: usize = 4;
        const MAX_VALUE: u64 = u32::MAX as u64;
        const OFFSETS: [u64; 9] = offsets(252, 4);

        #[inline(always)]
        fn to_unsigned<const ZIGZAG: bool>(self) -> u64 {
            u64::from(if ZIGZAG {
                bijoux::i32::zigzag(self)
            } else {
                self as u32
            })
        }

        #[inline(always)]
        fn from_unsigned<const ZIGZAG: bool>(u: u64) -> Self {
            if ZIGZAG {
                bijoux::i32::unzigzag(u as u32)
            } else {
                u as u32 as i32
            }
        }
    }
}

/// A Kafka value type with a bijou encoding: `i64` (Kafka Long, bijou64/bijou64s) and
/// `i32` (Kafka Integer, bijou32/bijou32s). Sealed; the free functions of this crate
/// are generic over it.
pub trait BijouValue: Copy + sealed::Sealed + 'static {
    /// The longest encoding in bytes: 9 for `i64`, 5 for `i32`.
    const MAX_BYTES: usize;

    /// The wire format's name under `mapping` (`bijou64`, `bijou64s`, `bijou32`, `bijou32s`).
    fn format(mapping: Mapping) -> &'static str;

    /// Encoded length in bytes (1..=[`Self::MAX_BYTES`]).
    fn encoded_len(self, mapping: Mapping) -> usize;

    /// Appends the encoding to `out`.
    fn encode_into(self, mapping: Mapping, out: &mut Vec<u8>);

    /// Decodes the value at the start of `buf`, returning it and the bytes it took.
    /// Bytes after the value are not looked at.
    ///
    /// # Errors
    /// [`Error::Empty`], [`Error::Truncated`], [`Error::Overflow`].
    fn decode_prefix(buf: &[u8], mapping: Mapping) -> Result<(Self, usize), Error>;
}

/// Total length announced by a tag byte, for formats whose one-byte range ends at
/// `threshold` (248 for bijou64, 252 for bijou32).
const fn announced_len(tag: u8, threshold: u8) -> usize {
    if tag < threshold {
        1
    } else {
        (tag - threshold) as usize + 2
    }
}

macro_rules! bijou_value {
    ($t:ty, $bits:literal, $unsigned:ident, $signed:ident, $threshold:literal) => {
        impl BijouValue for $t {
            const MAX_BYTES: usize = bijoux::$unsigned::MAX_BYTES;

            #[inline]
            fn format(mapping: Mapping) -> &'static str {
                match mapping {
                    Mapping::Unsigned => concat!("bijou", $bits),
                    Mapping::Zigzag => concat!("bijou", $bits, "s"),
                }
            }

            #[inline]
            fn encoded_len(self, mapping: Mapping) -> usize {
                match mapping {
                    Mapping::Unsigned => bijoux::$unsigned::encoded_len(self as _),
                    Mapping::Zigzag => bijoux::$signed::encoded_len(self),
                }
            }

            #[inline]
            fn encode_into(self, mapping: Mapping, out: &mut Vec<u8>) {
                match mapping {
                    Mapping::Unsigned => bijoux::$unsigned::encode(self as _, out),
                    Mapping::Zigzag => bijoux::$signed::encode(self, out),
                }
            }

            #[inline]
            fn decode_prefix(buf: &[u8], mapping: Mapping) -> Result<(Self, usize), Error> {
                let decoded = match mapping {
                    Mapping::Unsigned => bijoux::$unsigned::decode(buf).map(|(v, n)| (v as $t, n)),
                    Mapping::Zigzag => bijoux::$signed::decode(buf),
                };
                decoded.map_err(|e| {
                    let format = Self::format(mapping);
                    match (e, buf.first()) {
                        (_, None) => Error::Empty { format },
                        (bijoux::$unsigned::DecodeError::Overflow, _) => Error::Overflow {
                            format,
                            len: Self::MAX_BYTES,
                        },
                        (_, Some(&tag)) => Error::Truncated {
                            format,
                            tag,
                            needed: announced_len(tag, $threshold),
                            available: buf.len(),
                        },
                    }
                })
            }
        }
    };
}

bijou_value!(i64, "64", u64, i64, 248);
bijou_value!(i32, "32", u32, i32, 252);

/// Encoded length of `value` in bytes: 1..=9 for `i64`, 1..=5 for `i32`.
#[inline]
#[must_use]
pub fn encoded_len<T: BijouValue>(value: T, mapping: Mapping) -> usize {
    value.encoded_len(mapping)
}

/// Appends the bijou encoding of `value` to `out`.
///
/// ```
/// use bijou64_kafka::{encode, Mapping};
/// let mut out = Vec::new();
/// encode(300_i64, Mapping::Unsigned, &mut out);
/// assert_eq!(out, [0xf8, 0x34]);
/// ```
#[inline]
pub fn encode<T: BijouValue>(value: T, mapping: Mapping, out: &mut Vec<u8>) {
    value.encode_into(mapping, out);
}

/// The encoding of `value` as a new vector (convenience over [`encode`]).
#[inline]
#[must_use]
pub fn to_bytes<T: BijouValue>(value: T, mapping: Mapping) -> Vec<u8> {
    let mut out = Vec::with_capacity(T::MAX_BYTES);
    value.encode_into(mapping, &mut out);
    out
}

/// Decodes the value at the start of `buf`: `(value, bytes consumed)`. Later bytes
/// are ignored (`2a 99` gives `(42, 1)`); use [`decode`] for a Kafka record.
///
/// # Errors
/// [`Error::Empty`] for `[]`, [`Error::Truncated`] when the tag announces more bytes
/// than present (`f8`), [`Error::Overflow`] for a maximal-length value past the range.
#[inline]
pub fn decode_prefix<T: BijouValue>(buf: &[u8], mapping: Mapping) -> Result<(T, usize), Error> {
    T::decode_prefix(buf, mapping)
}

/// Decodes one whole Kafka record: exactly one canonical value that consumes every
/// byte.
///
/// ```
/// use bijou64_kafka::{decode, ErrorKind, Mapping};
/// assert_eq!(decode::<i64>(&[0xf8, 0x34], Mapping::Unsigned).unwrap(), 300);
/// // Kafka LongSerializer's bytes for 42 are not a bijou64 record:
/// let err = decode::<i64>(&[0, 0, 0, 0, 0, 0, 0, 42], Mapping::Unsigned).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::TrailingBytes);
/// ```
///
/// # Errors
/// [`Error::Empty`], [`Error::Truncated`], [`Error::Overflow`], and
/// [`Error::TrailingBytes`] when bytes remain after the value.
#[inline]
pub fn decode<T: BijouValue>(record: &[u8], mapping: Mapping) -> Result<T, Error> {
    let (value, consumed) = T::decode_prefix(record, mapping)?;
    if consumed == record.len() {
        Ok(value)
    } else {
        Err(Error::TrailingBytes {
            format: T::format(mapping),
            consumed,
            len: record.len(),
        })
    }
}
