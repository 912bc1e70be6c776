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
//! Two `unsafe` blocks per direction, each with its `SAFETY` proof: stores into
//! reserved capacity, and loads from records that start 9 or more bytes before the
//! slab end. `scripts/miri.sh` runs the tests under Miri.

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
    let n = values.len();
    // Worst case: every value at the maximal length, plus slack for the last 8-byte store.
    let worst = n.saturating_mul(T::MAX_BYTES);
    if u32::try_from(worst).is_err() {
        let total = total_len::<T, ZIGZAG>(values);
        if u32::try_from(total).is_err() {
            return Err(Error::SlabTooLarge { bytes: total });
        }
    }
    bytes.reserve(worst + 8);
    offsets.reserve(n + 1);
    let dst = bytes.as_mut_ptr();
    let ends = offsets.as_mut_ptr();
    // SAFETY: `offsets` has capacity for n + 1 elements (reserved above).
    unsafe { ends.write(0) };
    let mut at = 0_usize;
    for (i, value) in values.iter().enumerate() {
        let u = value.to_unsigned::<ZIGZAG>();
        let t = tier::<T>(u);
        let tag = if t == 0 {
            u as u8
        } else {
            T::THRESHOLD - 1 + t as u8
        };
        // Left-align the t payload bytes; for t == 0 the store is slack, overwritten later.
        let payload = (u - T::OFFSETS[t]) << ((64 - 8 * t) & 63);
        // SAFETY: before this store `at <= i * MAX_BYTES` (each record takes t + 1 <=
        // MAX_BYTES bytes), so the 9 bytes written end at most at
        // `(n - 1) * MAX_BYTES + 9 <= worst + 8`, within the reserved capacity. The
        // unaligned store needs no alignment. `ends` has capacity n + 1 > i + 1.
        unsafe {
            dst.add(at).write(tag);
            dst.add(at + 1)
                .cast::<[u8; 8]>()
                .write_unaligned(payload.to_be_bytes());
            at += t + 1;
            ends.add(i + 1).write(at as u32); // at <= total <= u32::MAX, checked above
        }
    }
    // SAFETY: bytes 0..at are initialised: records are contiguous and each record's stores
    // cover its own bytes [start, start + t + 1). Offsets 0..=n were all written.
    unsafe {
        bytes.set_len(at);
        offsets.set_len(n + 1);
    }
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
    // Records starting at least 9 bytes before the slab end can be read with one
    // unconditional 8-byte load after the tag; the rest take the checked loop.
    let fast =
        offsets[..offsets.len() - 1].partition_point(|&start| start as usize + 9 <= bytes.len());
    let base = out.len();
    out.reserve(fast);
    let dst = out.as_mut_ptr();
    let mut failed = None;
    for (index, w) in offsets[..=fast].windows(2).enumerate() {
        let (start, end) = (w[0] as usize, w[1] as usize);
        // SAFETY: start + 9 <= bytes.len() for every record before `fast` (partition_point
        // on the non-decreasing offsets, validated by the caller).
        let (tag, word) = unsafe {
            let p = bytes.as_ptr().add(start);
            (
                *p,
                u64::from_be_bytes(p.add(1).cast::<[u8; 8]>().read_unaligned()),
            )
        };
        let t = usize::from(tag.saturating_sub(T::THRESHOLD - 1));
        let payload = if t == 0 {
            u64::from(tag)
        } else {
            word >> (64 - 8 * t)
        };
        match value::<T, ZIGZAG>(t, payload) {
            Some(v) if end - start == t + 1 => {
                // SAFETY: `out` has capacity base + fast (reserved above) and index < fast.
                unsafe { dst.add(base + index).write(v) };
            }
            _ => {
                failed = Some(index);
                break;
            }
        }
    }
    // SAFETY: elements base..base + written were all written by the loop above.
    unsafe { out.set_len(base + failed.unwrap_or(fast)) };
    if let Some(index) = failed {
        return Err(index);
    }
    for (index, w) in offsets.windows(2).enumerate().skip(fast) {
        let (start, end) = (w[0] as usize, w[1] as usize);
        let Some(&tag) = bytes.get(start).filter(|_| end > start) else {
            return Err(index);
        };
        let t = usize::from(tag.saturating_sub(T::THRESHOLD - 1));
        if end - start != t + 1 {
            return Err(index);
        }
        let payload = bytes[start + 1..end]
            .iter()
            .fold(u64::from(tag) * u64::from(t == 0), |acc, &b| {
                (acc << 8) | u64::from(b)
            });
        out.push(value::<T, ZIGZAG>(t, payload).ok_or(index)?);
    }
    Ok(())
}

/// The value of a tier-`t` record with `payload`, or `None` on overflow.
#[inline(always)]
fn value<T: BijouValue, const ZIGZAG: bool>(t: usize, payload: u64) -> Option<T> {
    let u = T::OFFSETS[t].wrapping_add(payload);
    if t == T::MAX_TIER && (u < payload || u > T::MAX_VALUE) {
        return None;
    }
    Some(T::from_unsigned::<ZIGZAG>(u))
}

/// Small enough for Miri (`scripts/miri.sh`), which checks the `unsafe` blocks above:
/// every tier of both widths, slabs shorter than the 9-byte load window, failing
/// records in the fast and the tail loop, and reuse of dirty buffers.
#[cfg(test)]
mod tests {
    use super::*;

    fn tiered_i64() -> Vec<i64> {
        let mut values = vec![0, 1, -1, i64::MIN, i64::MAX];
        values.extend((0..64).map(|s| i64::MAX >> s));
        values.extend((0..64).map(|s| (i64::MAX >> s).wrapping_add(1)));
        values
    }

    fn round_trip<T: BijouValue + PartialEq + std::fmt::Debug>(values: &[T]) {
        for mapping in [Mapping::Unsigned, Mapping::Zigzag] {
            let (mut bytes, mut offsets) = (vec![0xaa; 3], vec![7, 7]);
            encode(values, mapping, &mut bytes, &mut offsets).unwrap();
            let expected: Vec<u8> = values
                .iter()
                .flat_map(|&v| crate::to_bytes(v, mapping))
                .collect();
            assert_eq!(bytes, expected, "{mapping}");
            assert_eq!(offsets.len(), values.len() + 1);
            let mut out: Vec<T> = Vec::new();
            decode(&bytes, &offsets, mapping, &mut out).unwrap();
            assert_eq!(out, values, "{mapping}");
        }
    }

    #[test]
    fn every_tier_round_trips() {
        let longs = tiered_i64();
        round_trip(&longs);
        let ints: Vec<i32> = longs.iter().map(|&v| (v >> 32) as i32).collect();
        round_trip(&ints);
        for n in 0..4 {
            round_trip(&longs[..n]); // slabs shorter than one load window
        }
    }

    #[test]
    fn failures_in_both_loops_restore_the_output() {
        // record 1 (fast loop) is truncated; then a slab whose bad record is in the tail.
        let bytes = [
            0x01, 0xf9, 0x00, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
        ];
        let mut out = vec![42_i64];
        let error = decode::<i64>(&bytes, &[0, 1, 3, 12], Mapping::Unsigned, &mut out).unwrap_err();
        assert_eq!((error.record_index(), out.as_slice()), (Some(1), &[42][..]));
        let error =
            decode::<i64>(&bytes, &[0, 1, 4, 5, 12], Mapping::Unsigned, &mut out).unwrap_err();
        assert_eq!(error.record_index(), Some(3), "{error}");
        assert_eq!(out, [42]);
        let error =
            decode::<i64>(&[0x01, 0xff], &[0, 1, 2], Mapping::Unsigned, &mut out).unwrap_err();
        assert_eq!(error.record_index(), Some(1));
        assert_eq!(out, [42]);
    }
}
