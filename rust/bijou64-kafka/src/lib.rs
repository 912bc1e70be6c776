//! Kafka Long and Integer values as canonical bijou bytes.
//!
//! The wire formats are the upstream [`bijoux`] crate's; this crate adds what a Kafka
//! serializer needs on top:
//!
//! * the [`Mapping`] of a signed Kafka value onto the formats (`unsigned`, the default,
//!   or `zigzag`), for `i64` (Kafka Long: bijou64 / bijou64s) and `i32` (Kafka Integer:
//!   bijou32 / bijou32s; the 32-bit formats differ on the wire from 248 up);
//! * a strict whole-record [`decode`]: exactly one value that consumes every byte, else
//!   an [`Error`] — never a wrong value;
//! * bulk [`encode_slab`] / [`decode_slab`]: one contiguous slab plus `n + 1` offsets,
//!   eight or sixteen values per step with AVX-512 where the CPU has it (F, BW, CD, VBMI,
//!   VBMI2; detected once per process, `BIJOU64_KAFKA_SIMD=off` in the environment turns
//!   it off), four per step elsewhere, the same bytes either way;
//!
//! It knows nothing of Kafka clients: records reach a broker through a serializer (the JVM serdes) or any
//! rdkafka producer of the caller's.
//!
//! # The format in one table (bijou64)
//!
//! | first byte | total bytes | value |
//! |---|---|---|
//! | `00`..=`f7` | 1 | the byte itself (0..=247) |
//! | `f8` + t - 1 (t = 1..=8) | 1 + t | `OFFSET[t]` + the t following bytes, big-endian |
//!
//! with `OFFSET[1] = 248` and `OFFSET[t] = OFFSET[t-1] + 256^(t-1)`. Every value has
//! exactly one encoding. bijou32 is the same with a one-byte range of 0..=251.
//!
//! ```
//! use bijou64_kafka::{decode, to_bytes, Mapping};
//! let bytes = to_bytes(1_700_000_000_000_i64, Mapping::Unsigned); // epoch millis
//! assert_eq!(bytes, [0xfd, 0x00, 0x8a, 0xce, 0xe4, 0x66, 0x08]); // 7 bytes, not 8
//! assert_eq!(decode::<i64>(&bytes, Mapping::Unsigned).unwrap(), 1_700_000_000_000);
//! assert_eq!(to_bytes(-1_i64, Mapping::Zigzag), [0x01]);
//! assert_eq!(to_bytes(300_i32, Mapping::Unsigned), [0xfc, 0x30]); // bijou32
//! ```

mod error;
mod fast;
mod slab;
mod value;

pub use error::{Error, ErrorKind};
pub use slab::{decode_slab, decode_slab_into, encode_slab, encode_slab_into, EncodedSlab};
pub use value::{decode, decode_prefix, encode, encoded_len, to_bytes, BijouValue, Mapping};
