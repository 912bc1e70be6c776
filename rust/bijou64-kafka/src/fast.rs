//! The bulk paths behind [`crate::encode_slab_into`] and [`crate::decode_slab_into`].
//!
//! Same bytes as upstream `bijoux` (pinned by the vectors and a differential property
//! test), computed without per-value `Vec` pushes:
//!
//! * the tier comes from the value's byte width: a value of `b` significant bytes lies
//!   in tier `b` or `b - 1`, and one comparison with `OFFSETS[b]` decides;
//! * each record is written as a tag store plus one unconditional 8-byte big-endian
//!   store of the left-aligned payload into a slab sized exactly (plus 8 bytes of
//!   slack that later records overwrite and the end truncates);
//! * decoding checks each record's length against its tag and loads the payload with
//!   one 8-byte load where the slab has room. A record that fails any check is decoded
//!   again by the scalar [`crate::decode`], which builds the precise error, so both
//!   paths report identical errors.
//!
//! No `unsafe`: bounds are checked once per record on a 9-byte window.

use crate::value::sealed::Sealed;
use crate::{BijouValue, Error, Mapping};

/// Payload tier of the unsigned value `u` (0 = the one-byte form).
#[inline(always)]
fn tier<T: Sealed>(u: u64) -> usize {
    let width = (64 - u.leading_zeros() as usize).div_ceil(8); // significant bytes, 0..=8
    width - usize::from(u < T::OFFSETS[width])
}

/// Encoded length of every value together.
#[inline(always)]
fn total_len<T: Sealed, const ZIGZAG: bool>(values: &[T]) -> usize {
    values
        .iter()
        .map(|v| tier::<T>(v.to_unsigned::<ZIGZAG>()) + 1)
        .sum()
}

/// Writes `values` into `bytes` (cleared) and their `n + 1` offsets into `offsets`
/// (cleared).
///
/// # Errors
/// [`Error::SlabTooLarge`] past `u32::MAX` bytes; both vectors are then left cleared.
pub(crate) fn encode<T: BijouValue>(
    values: &[T],
    mapping: Mapping,
    bytes: &mut Vec<u8>,
    offsets: &mut Vec<u32>,
) -> Result<(), Error> {
    match mapping {
        Mapping::Unsigned => encode_with::<T, false>(values, bytes, offsets),
        Mapping::Zigzag => encode_with::<T, true>(values, bytes, offsets),
    }
}

fn encode_with<T: BijouValue, const ZIGZAG: bool>(
    values: &[T],
    bytes: &mut Vec<u8>,
    offsets: &mut Vec<u32>,
) -> Result<(), Error> {
    bytes.clear();
    offsets.clear();
    offsets.push(0);
    let total = total_len::<T, ZIGZAG>(values);
    if u32::try_from(total).is_err() {
        return Err(Error::SlabTooLarge { bytes: total });
    }
    bytes.resize(total + 8, 0);
    offsets.reserve(values.len());
    let mut at = 0;
    for value in values {
        let u = value.to_unsigned::<ZIGZAG>();
        let t = tier::<T>(u);
        let tag = if t == 0 {
            u as u8
        } else {
            T::THRESHOLD - 1 + t as u8
        };
        // Left-align the t payload bytes; for t == 0 the store is slack, overwritten later.
        let payload = (u - T::OFFSETS[t]) << ((64 - 8 * t) & 63);
        let window = &mut bytes[at..at + 9];
        window[0] = tag;
        window[1..].copy_from_slice(&payload.to_be_bytes());
        at += t + 1;
        offsets.push(at as u32); // at <= total <= u32::MAX, checked above
    }
    bytes.truncate(total);
    Ok(())
}

/// Decodes every record (offsets already validated) and appends the values to `out`.
///
/// # Errors
/// [`Error::InvalidRecord`] for the first record that is not exactly one value; `out`
/// is then restored to its length before the call.
pub(crate) fn decode<T: BijouValue>(
    bytes: &[u8],
    offsets: &[u32],
    mapping: Mapping,
    out: &mut Vec<T>,
) -> Result<(), Error> {
    let before = out.len();
    out.reserve(offsets.len().saturating_sub(1));
    let result = match mapping {
        Mapping::Unsigned => decode_with::<T, false>(bytes, offsets, out),
        Mapping::Zigzag => decode_with::<T, true>(bytes, offsets, out),
    };
    result.map_err(|index| {
        out.truncate(before);
        let record = &bytes[offsets[index] as usize..offsets[index + 1] as usize];
        let source = crate::decode::<T>(record, mapping)
            .err()
            .expect("the bulk path rejects only records the scalar decoder rejects");
        Error::InvalidRecord {
            index,
            source: Box::new(source),
        }
    })
}

/// Returns the index of the first invalid record.
fn decode_with<T: BijouValue, const ZIGZAG: bool>(
    bytes: &[u8],
    offsets: &[u32],
    out: &mut Vec<T>,
) -> Result<(), usize> {
    for (index, w) in offsets.windows(2).enumerate() {
        let (start, end) = (w[0] as usize, w[1] as usize);
        let Some(&tag) = bytes.get(start).filter(|_| end > start) else {
            return Err(index);
        };
        let t = usize::from(tag.saturating_sub(T::THRESHOLD - 1));
        if end - start != t + 1 {
            return Err(index);
        }
        let payload = if t == 0 {
            u64::from(tag)
        } else if let Some(window) = bytes.get(start + 1..start + 9) {
            let word = u64::from_be_bytes(window.try_into().expect("8-byte window"));
            word >> (64 - 8 * t)
        } else {
            bytes[start + 1..end]
                .iter()
                .fold(0, |acc, &b| (acc << 8) | u64::from(b))
        };
        let u = T::OFFSETS[t].wrapping_add(payload);
        if t == T::MAX_TIER && (u < payload || u > T::MAX_VALUE) {
            return Err(index); // overflow
        }
        out.push(T::from_unsigned::<ZIGZAG>(u));
    }
    Ok(())
}
