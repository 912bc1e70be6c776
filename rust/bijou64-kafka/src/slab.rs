//! Many values at once: one contiguous slab plus `n + 1` offsets.
//!
//! Record `i` is `bytes[offsets[i]..offsets[i + 1]]`. This is the layout the JNI bulk
//! calls hand across the boundary in one crossing, and the shape of arrow-avro's
//! `EncodedRows`.

use crate::{BijouValue, Error, Mapping};

/// Encoded records: one byte slab and `len() + 1` offsets into it (`offsets[0] == 0`,
/// `offsets[len()] == bytes.len()`, non-decreasing). Offsets are `u32`, so a slab
/// holds at most `u32::MAX` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedSlab {
    bytes: Vec<u8>,
    offsets: Vec<u32>,
}

impl Default for EncodedSlab {
    fn default() -> Self {
        Self::new()
    }
}

impl EncodedSlab {
    /// An empty slab (no records; offsets `[0]`).
    #[must_use]
    pub fn new() -> Self {
        Self {
            bytes: Vec::new(),
            offsets: vec![0],
        }
    }

    /// Removes every record, keeping the allocations for reuse.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.clear();
        self.offsets.push(0);
    }

    /// Number of records.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True when there are no records.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slab: every record's bytes, back to back.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `len() + 1` record boundaries.
    #[must_use]
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// The bytes of record `index`, or `None` past the end.
    #[must_use]
    pub fn record(&self, index: usize) -> Option<&[u8]> {
        let start = *self.offsets.get(index)? as usize;
        let end = *self.offsets.get(index + 1)? as usize;
        self.bytes.get(start..end)
    }

    /// Iterates over the records' bytes in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.offsets
            .windows(2)
            .map(|w| &self.bytes[w[0] as usize..w[1] as usize])
    }

    /// Splits into `(bytes, offsets)`.
    #[must_use]
    pub fn into_parts(self) -> (Vec<u8>, Vec<u32>) {
        (self.bytes, self.offsets)
    }
}

/// Encodes `values` into a new slab, one record per value.
///
/// ```
/// use bijou64_kafka::{encode_slab, Mapping};
/// // zigzag: 1 -> 2, 300 -> 600 (tier 2: 600 - 504 = 0x0060), -1 -> 1
/// let slab = encode_slab(&[1_i64, 300, -1], Mapping::Zigzag).unwrap();
/// assert_eq!(slab.offsets(), &[0, 1, 4, 5]);
/// assert_eq!(slab.bytes(), &[0x02, 0xf9, 0x00, 0x60, 0x01]);
/// assert_eq!(slab.record(1), Some(&[0xf9, 0x00, 0x60][..]));
/// ```
///
/// # Errors
/// [`Error::SlabTooLarge`] when the slab would pass `u32::MAX` bytes.
pub fn encode_slab<T: BijouValue>(values: &[T], mapping: Mapping) -> Result<EncodedSlab, Error> {
    let mut slab = EncodedSlab::new();
    encode_slab_into(values, mapping, &mut slab)?;
    Ok(slab)
}

/// Like [`encode_slab`], reusing `slab`'s allocations (it is cleared first).
///
/// # Errors
/// [`Error::SlabTooLarge`]; `slab` is then left cleared.
pub fn encode_slab_into<T: BijouValue>(
    values: &[T],
    mapping: Mapping,
    slab: &mut EncodedSlab,
) -> Result<(), Error> {
    crate::fast::encode(values, mapping, &mut slab.bytes, &mut slab.offsets)
        .inspect_err(|_| slab.clear())
}

/// Decodes every record of a slab, each with the strict whole-record rule of
/// [`crate::decode`].
///
/// # Errors
/// [`Error::InvalidOffsets`] when `offsets` is not `n + 1` non-decreasing offsets from
/// 0 to `bytes.len()`; [`Error::InvalidRecord`] (index + cause) for the first record
/// that fails. Nothing is returned for a slab with any invalid record.
pub fn decode_slab<T: BijouValue>(
    bytes: &[u8],
    offsets: &[u32],
    mapping: Mapping,
) -> Result<Vec<T>, Error> {
    let mut out = Vec::new();
    decode_slab_into(bytes, offsets, mapping, &mut out)?;
    Ok(out)
}

/// Like [`decode_slab`], appending to `out`. On error `out` is restored to its
/// length before the call.
///
/// # Errors
/// As [`decode_slab`].
pub fn decode_slab_into<T: BijouValue>(
    bytes: &[u8],
    offsets: &[u32],
    mapping: Mapping,
    out: &mut Vec<T>,
) -> Result<(), Error> {
    crate::fast::decode(bytes, offsets, mapping, out)
}
