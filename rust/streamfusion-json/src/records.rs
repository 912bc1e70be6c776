//! [`EncodedRecords`]: the Kafka records of one batch as two slabs plus per-row offsets and lengths.

use crate::error::{Error, Result};

/// The key and value bytes of one batch's Kafka records: one contiguous key slab, one contiguous value slab,
/// and per row an `i32` offset and length into each (the six arrays the JVM receives).
///
/// A negative length means null: a null key (no key format) or a tombstone value (upsert delete). A present
/// empty key or value has length 0. Rows appear in batch order; row `i`'s bytes are
/// `slab[offset[i] .. offset[i] + length[i]]`. Reuse one instance across batches
/// ([`JsonEncoder::encode_into`](crate::JsonEncoder::encode_into)) to keep its allocations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EncodedRecords {
    pub(crate) keys: Vec<u8>,
    pub(crate) values: Vec<u8>,
    pub(crate) key_offsets: Vec<i32>,
    pub(crate) key_lengths: Vec<i32>,
    pub(crate) value_offsets: Vec<i32>,
    pub(crate) value_lengths: Vec<i32>,
}

/// The largest slab `i32` offsets (and a JVM `byte[]`) can address.
pub(crate) const MAX_SLAB: usize = i32::MAX as usize;

/// The fewest bytes a present key or value takes in either mode: an empty JSON object, `{}`.
const MIN_RECORD: usize = 2;

impl EncodedRecords {
    /// An empty set of records.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of records (rows of the batch).
    pub fn len(&self) -> usize {
        self.value_lengths.len()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.value_lengths.is_empty()
    }

    /// The key slab: every present key, back to back, no separators.
    pub fn keys(&self) -> &[u8] {
        &self.keys
    }

    /// The value slab: every present value, back to back, no separators.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Per row: start of the key in [`keys`](Self::keys) (for a null key, the slab length at that row).
    pub fn key_offsets(&self) -> &[i32] {
        &self.key_offsets
    }

    /// Per row: key length in bytes, or -1 for a null key.
    pub fn key_lengths(&self) -> &[i32] {
        &self.key_lengths
    }

    /// Per row: start of the value in [`values`](Self::values) (for a tombstone, the slab length at that row).
    pub fn value_offsets(&self) -> &[i32] {
        &self.value_offsets
    }

    /// Per row: value length in bytes, or -1 for a tombstone.
    pub fn value_lengths(&self) -> &[i32] {
        &self.value_lengths
    }

    /// The key of record `row`, `None` for a null key.
    ///
    /// # Panics
    /// If `row >= self.len()`.
    pub fn key(&self, row: usize) -> Option<&[u8]> {
        slice(&self.keys, self.key_offsets[row], self.key_lengths[row])
    }

    /// The value of record `row`, `None` for a tombstone.
    ///
    /// # Panics
    /// If `row >= self.len()`.
    pub fn value(&self, row: usize) -> Option<&[u8]> {
        slice(
            &self.values,
            self.value_offsets[row],
            self.value_lengths[row],
        )
    }

    /// `(key, value)` of every record in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Option<&[u8]>, Option<&[u8]>)> + '_ {
        (0..self.len()).map(|row| (self.key(row), self.value(row)))
    }

    /// Removes every record, keeping the allocations.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
        self.key_offsets.clear();
        self.key_lengths.clear();
        self.value_offsets.clear();
        self.value_lengths.clear();
    }

    /// Appends one record made elsewhere (another encoder, a per-record serializer): `key` (`None`: a null key)
    /// and `value` (`None`: a tombstone) are copied to the ends of the slabs. This is how records that were not
    /// encoded by [`JsonEncoder`](crate::JsonEncoder) reach a sink that takes `EncodedRecords`.
    ///
    /// ```
    /// use streamfusion_json::EncodedRecords;
    ///
    /// let mut records = EncodedRecords::new();
    /// records.push(Some(b"{\"id\":1}"), Some(b"{\"id\":1,\"n\":2}"))?;
    /// records.push(None, None)?;
    /// assert_eq!(records.len(), 2);
    /// assert_eq!(records.key(0), Some(&b"{\"id\":1}"[..]));
    /// assert_eq!((records.key(1), records.value(1)), (None, None));
    /// # Ok::<(), streamfusion_json::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::SlabTooLarge`] when a slab grows past 2^31 - 1 bytes; the records are then unusable until
    /// [`clear`](Self::clear)ed.
    pub fn push(&mut self, key: Option<&[u8]>, value: Option<&[u8]>) -> Result<()> {
        fn append(bytes: &[u8]) -> impl FnOnce(&mut Vec<u8>) + '_ {
            move |slab| slab.extend_from_slice(bytes)
        }
        self.write_row(key.map(append), value.map(append))
    }

    /// Reserves room for `rows` more records, `keys` of them with a key and `values` with a value, and about
    /// `key_bytes` / `value_bytes` more slab bytes (hints, capped at what a slab may hold).
    ///
    /// # Errors
    /// [`Error::SlabTooLarge`] when even the smallest records those rows can make (`{}`, [`MIN_RECORD`] bytes,
    /// for every key and value) would pass 2^31 - 1 bytes in a slab: found before anything is allocated, so a
    /// batch that declares billions of rows (without columns, say) fails at once rather than on an allocation.
    pub(crate) fn reserve(
        &mut self,
        rows: usize,
        (keys, key_bytes): (usize, usize),
        (values, value_bytes): (usize, usize),
    ) -> Result<()> {
        let at_least = |slab: &'static str, len: usize, records: usize| {
            let bytes = records.saturating_mul(MIN_RECORD).saturating_add(len);
            if bytes > MAX_SLAB {
                Err(Error::SlabTooLarge { slab, bytes })
            } else {
                Ok(())
            }
        };
        at_least("key", self.keys.len(), keys)?;
        at_least("value", self.values.len(), values)?;
        self.keys.reserve(key_bytes.min(MAX_SLAB - self.keys.len()));
        self.values
            .reserve(value_bytes.min(MAX_SLAB - self.values.len()));
        self.key_offsets.reserve(rows);
        self.key_lengths.reserve(rows);
        self.value_offsets.reserve(rows);
        self.value_lengths.reserve(rows);
        Ok(())
    }

    /// Where the records end now, for [`EncodedRecords::truncate`].
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            keys: self.keys.len(),
            values: self.values.len(),
            rows: self.value_lengths.len(),
        }
    }

    /// Drops the records appended after `mark` (taken from these records, with none removed since).
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.keys.truncate(mark.keys);
        self.values.truncate(mark.values);
        self.key_offsets.truncate(mark.rows);
        self.key_lengths.truncate(mark.rows);
        self.value_offsets.truncate(mark.rows);
        self.value_lengths.truncate(mark.rows);
    }

    /// Appends one record: the key written by `key` (`None`: a null key) and the value written by `value`
    /// (`None`: a tombstone), each straight into its slab, then records the offsets and checks the slab sizes.
    #[inline]
    pub(crate) fn write_row(
        &mut self,
        key: Option<impl FnOnce(&mut Vec<u8>)>,
        value: Option<impl FnOnce(&mut Vec<u8>)>,
    ) -> Result<()> {
        let key_start = key.map(|write| {
            let start = self.keys.len();
            write(&mut self.keys);
            start
        });
        let value_start = value.map(|write| {
            let start = self.values.len();
            write(&mut self.values);
            start
        });
        self.push_row(key_start, value_start);
        self.check_size()
    }

    /// Records a row boundary: the key (if `key_start` is `Some`) ends at the current key slab length, the value
    /// (if `value_start` is `Some`) at the current value slab length; `None` records a null.
    #[inline]
    fn push_row(&mut self, key_start: Option<usize>, value_start: Option<usize>) {
        let (ko, kl) = span(key_start, self.keys.len());
        let (vo, vl) = span(value_start, self.values.len());
        self.key_offsets.push(ko);
        self.key_lengths.push(kl);
        self.value_offsets.push(vo);
        self.value_lengths.push(vl);
    }

    /// Fails when a slab has grown past what `i32` offsets address. Checked after every row: the offsets of
    /// that row were computed with wrapping casts and are discarded with the batch when this fails.
    #[inline]
    fn check_size(&self) -> Result<()> {
        if self.keys.len() > MAX_SLAB {
            return Err(Error::SlabTooLarge {
                slab: "key",
                bytes: self.keys.len(),
            });
        }
        if self.values.len() > MAX_SLAB {
            return Err(Error::SlabTooLarge {
                slab: "value",
                bytes: self.values.len(),
            });
        }
        Ok(())
    }
}

#[inline]
fn span(start: Option<usize>, end: usize) -> (i32, i32) {
    match start {
        Some(start) => (start as i32, (end - start) as i32),
        None => (end as i32, -1),
    }
}

fn slice(slab: &[u8], offset: i32, length: i32) -> Option<&[u8]> {
    (length >= 0).then(|| &slab[offset as usize..offset as usize + length as usize])
}

/// The end of [`EncodedRecords`] at one point: slab lengths and record count.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    keys: usize,
    values: usize,
    rows: usize,
}
