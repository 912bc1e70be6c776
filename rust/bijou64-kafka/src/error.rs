//! The crate's one error type.

/// What went wrong while decoding a record or a slab.
///
/// The four decode variants are the whole-record contract (`docs/format.md`) and
/// `docs/format.md`: a decoder reports one of them and never returns a value for
/// malformed bytes. [`Error::kind`] gives a stable, payload-free classification
/// (used by the JNI layer to pick the Java exception's kind).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The record has no bytes. A tombstone (null) is not an error; `[]` is.
    #[error("empty: a {format} value takes at least 1 byte, the record has 0")]
    Empty {
        /// `bijou64`, `bijou64s`, `bijou32` or `bijou32s`.
        format: &'static str,
    },
    /// The first byte announces more bytes than the record holds (`f8`, `fb 00 00 00`).
    #[error("truncated: tag 0x{tag:02x} announces a {needed}-byte {format} value, {available} bytes present")]
    Truncated {
        /// Format name.
        format: &'static str,
        /// The tag (first) byte.
        tag: u8,
        /// Bytes the tag announces, tag included.
        needed: usize,
        /// Bytes present.
        available: usize,
    },
    /// A maximal-length value whose payload lies past the format's range
    /// (`ff fe fe fe fe fe fe fe 08` for bijou64).
    #[error("overflow: the {len}-byte {format} value exceeds the type's range")]
    Overflow {
        /// Format name.
        format: &'static str,
        /// Encoded length (9 for bijou64, 5 for bijou32).
        len: usize,
    },
    /// A valid value that does not consume the whole record (`2a 99`; or Kafka
    /// `LongSerializer`'s `00 00 00 00 00 00 00 2a`, which would otherwise read as 0).
    #[error("trailing bytes: a {consumed}-byte {format} value is followed by {} more bytes", len - consumed)]
    TrailingBytes {
        /// Format name.
        format: &'static str,
        /// Bytes the value took.
        consumed: usize,
        /// Bytes in the record.
        len: usize,
    },
    /// Record `index` of a slab failed to decode.
    #[error("record {index}: {source}")]
    InvalidRecord {
        /// Zero-based record index in the slab.
        index: usize,
        /// Why it failed (one of the four decode variants).
        #[source]
        source: Box<Error>,
    },
    /// The offsets do not describe the slab: not `n + 1` non-decreasing offsets
    /// starting at 0 and ending at the slab length.
    #[error("invalid offsets: {reason}")]
    InvalidOffsets {
        /// What is wrong, with positions.
        reason: String,
    },
    /// The encoded slab would exceed `u32::MAX` bytes, the offset width (or, through
    /// JNI, the largest Java array).
    #[error("slab too large: {bytes} bytes exceed the largest Java array")]
    SlabTooLarge {
        /// Bytes the slab would hold.
        bytes: usize,
    },
}

/// Payload-free classification of an [`Error`]; for a slab error, the kind of the
/// failing record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::Empty`].
    Empty,
    /// [`Error::Truncated`].
    Truncated,
    /// [`Error::Overflow`].
    Overflow,
    /// [`Error::TrailingBytes`].
    TrailingBytes,
    /// [`Error::InvalidOffsets`].
    InvalidOffsets,
    /// [`Error::SlabTooLarge`].
    SlabTooLarge,
}

impl ErrorKind {
    /// The lower-case word the test vectors (`bijou-invalid.csv`) use for this kind:
    /// `empty`, `truncated`, `overflow`, `trailing`; other kinds give their own word.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::Truncated => "truncated",
            Self::Overflow => "overflow",
            Self::TrailingBytes => "trailing",
            Self::InvalidOffsets => "invalid-offsets",
            Self::SlabTooLarge => "slab-too-large",
        }
    }
}

impl Error {
    /// The classification of this error (of the failing record for
    /// [`Error::InvalidRecord`]).
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Empty { .. } => ErrorKind::Empty,
            Self::Truncated { .. } => ErrorKind::Truncated,
            Self::Overflow { .. } => ErrorKind::Overflow,
            Self::TrailingBytes { .. } => ErrorKind::TrailingBytes,
            Self::InvalidRecord { source, .. } => source.kind(),
            Self::InvalidOffsets { .. } => ErrorKind::InvalidOffsets,
            Self::SlabTooLarge { .. } => ErrorKind::SlabTooLarge,
        }
    }

    /// The index of the failing record for a slab decode error, else `None`.
    #[must_use]
    pub fn record_index(&self) -> Option<usize> {
        match self {
            Self::InvalidRecord { index, .. } => Some(*index),
            _ => None,
        }
    }
}
