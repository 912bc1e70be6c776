//! The bulk paths behind [`crate::encode_slab_into`] and [`crate::decode_slab_into`].
//!
//! Same bytes as upstream `bijoux` (pinned by the vectors and differential property
//! tests), computed without per-value `Vec` pushes or branches on the tier:
//!
//! * encode, four values per step: the tier comes from the value's byte width, looked
//!   up by its highest set bit (a value of `b` significant bytes lies in tier `b` or
//!   `b - 1`, and one comparison with `OFFSETS[b]` decides); the tag is `247 + t`, or
//!   the value itself when that is smaller (the one-byte form); each record is a tag
//!   store plus one unconditional 8-byte big-endian store of the left-aligned payload
//!   into a slab sized for the worst case (plus 8 bytes of slack that later records
//!   overwrite and the end truncates);
//! * decode: one pass over the offsets that validates and decodes together, four
//!   records per step. A record's value is read from the 8 bytes that end it, masked
//!   by the length its offsets give it (`d = offsets[i + 1] - offsets[i]`), so the
//!   value does not wait for the tag; the tag only has to announce that same length
//!   (and a maximal-length payload must stay in range). One branch per step keeps the
//!   reads inside the slab (no offset of the step decreases, the step ends before the
//!   slab's last byte); the record checks are accumulated and tested once, after the
//!   loop. Records starting in the first 8 bytes and the last few records go through
//!   the scalar [`crate::decode`]. Whenever anything fails, the precise error is
//!   rebuilt from scratch: the offsets check first, then [`crate::decode`] record by
//!   record, so every path reports identical errors.
//!
//! These are the portable kernels. On x86-64 CPUs with AVX-512 (F, BW, CD, VBMI and
//! VBMI2, detected once per process) [`avx512`] does the same work eight or sixteen
//! values per step, with the same bytes, values and verdicts (differential tests in
//! that module); `BIJOU64_KAFKA_SIMD=off` in the environment keeps the portable ones.
//!
//! `scripts/miri.sh` runs the tests of this module under Miri, which checks the
//! `unsafe` blocks of the portable kernels (each with its `SAFETY` proof); Miri does not
//! interpret AVX-512, so there the portable kernels always run.

use crate::value::sealed::Sealed;
use crate::{BijouValue, Error, Mapping};

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod avx512;

/// The loops [`encode`] and [`decode`] run on this CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kernel {
    /// Four values per step in general-purpose registers; every CPU.
    Portable,
    /// Eight values per step in AVX-512 registers (x86-64 with the F, BW, CD, VBMI and
    /// VBMI2 extensions: Intel Ice Lake and later, AMD Zen 4 and later).
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    Avx512,
}

/// The environment variable that turns the AVX-512 kernels off when set to `off`
/// (read once per process); any other value, or none, lets the CPU decide.
const SIMD_ENV: &str = "BIJOU64_KAFKA_SIMD";

/// The kernel for this CPU: AVX-512 where every extension it uses is present and
/// [`SIMD_ENV`] is not `off`, else the portable one. Detected once per process. Under
/// Miri, which does not interpret these instructions, always the portable one.
#[inline]
fn kernel() -> Kernel {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use std::sync::OnceLock;
        static KERNEL: OnceLock<Kernel> = OnceLock::new();
        *KERNEL.get_or_init(|| {
            let off = std::env::var(SIMD_ENV).is_ok_and(|v| v.trim().eq_ignore_ascii_case("off"));
            if !off && avx512::available() {
                Kernel::Avx512
            } else {
                Kernel::Portable
            }
        })
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        Kernel::Portable
    }
}

/// Bytes the encode kernels may write past a slab's worst-case length (the AVX-512
/// kernel stores whole 64-byte registers; later records or the final truncation
/// discard the excess).
const SLACK: usize = 64;

/// Payload tier of the unsigned value `u` (0 = the one-byte form).
#[inline(always)]
fn tier<T: Sealed>(u: u64) -> usize {
    // By the highest set bit: the value's significant bytes minus one; its tier is that
    // or one more.
    let tables: &'static TierTables = const { &TierTables::of::<T>() };
    let b = (u | 1).ilog2() as usize;
    usize::from(tables.bytes_minus_one[b]) + usize::from(u >= tables.next_tier[b])
}

/// What the tier of a value comes from, by the index `b` of its highest set bit
/// (`0..64`; 0 for u == 0): `b / 8`, and `OFFSETS[b / 8 + 1]`, the first value of the
/// next tier (0 past the format's last tier: bijou32 values never reach those bits).
struct TierTables {
    bytes_minus_one: [u8; 64],
    next_tier: [u64; 64],
}

impl TierTables {
    const fn of<T: Sealed>() -> Self {
        let mut tables = Self {
            bytes_minus_one: [0; 64],
            next_tier: [0; 64],
        };
        let mut b = 0;
        while b < 64 {
            tables.bytes_minus_one[b] = (b / 8) as u8;
            tables.next_tier[b] = T::OFFSETS[b / 8 + 1];
            b += 1;
        }
        tables
    }
}

/// Values (records) per step of the portable encode and decode loops.
const STEP: usize = 4;

/// By tier: the shift that left-aligns a tier's payload in 64 bits (`(64 - 8t) % 64`).
const SHIFT: [u8; 9] = [0, 56, 48, 40, 32, 24, 16, 8, 0];

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

#[inline(never)] // one loop of its own, registers to itself
fn encode_with<T: BijouValue, const ZIGZAG: bool>(
    values: &[T],
    bytes: &mut Vec<u8>,
    offsets: &mut Vec<u32>,
) -> Result<(), Error> {
    bytes.clear();
    offsets.clear();
    let n = values.len();
    // Worst case: every value at the maximal length, plus slack for the last wide store.
    let worst = n.saturating_mul(T::MAX_BYTES);
    if u32::try_from(worst).is_err() {
        let total = total_len::<T, ZIGZAG>(values);
        if u32::try_from(total).is_err() {
            return Err(Error::SlabTooLarge { bytes: total });
        }
    }
    bytes.reserve(worst + SLACK);
    offsets.reserve(n + 1);
    let (dst, ends) = (bytes.as_mut_ptr(), offsets.as_mut_ptr());
    // SAFETY: `bytes` has capacity for `n * MAX_BYTES + SLACK` bytes and `offsets` for
    // n + 1 elements (reserved above); the end offsets fit in u32 (checked above).
    let at = unsafe {
        match kernel() {
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => avx512::encode::<T, ZIGZAG>(values, dst, ends),
            Kernel::Portable => encode_portable::<T, ZIGZAG>(values, dst, ends),
        }
    };
    // SAFETY: the kernels' contract: bytes 0..at and offsets 0..=n are initialised.
    unsafe {
        bytes.set_len(at);
        offsets.set_len(n + 1);
    }
    Ok(())
}

/// Encodes `values` as contiguous records at `dst` and their `n + 1` end offsets (0
/// first) at `ends`; returns the slab's length. Bytes past it up to `SLACK` may be
/// written too (garbage).
///
/// # Safety
/// `dst` must be valid for `values.len() * T::MAX_BYTES + SLACK` byte writes, `ends`
/// for `values.len() + 1` `u32` writes, and the encoded length must fit in `u32`.
/// On return, the returned number of bytes and all `n + 1` offsets are initialised.
#[inline(always)]
unsafe fn encode_portable<T: BijouValue, const ZIGZAG: bool>(
    values: &[T],
    dst: *mut u8,
    ends: *mut u32,
) -> usize {
    let n = values.len();
    // SAFETY: `ends` is valid for n + 1 writes (the contract).
    unsafe { ends.write(0) };
    let mut at = 0_usize;
    // SAFETY (every `put` below): `at` is the sum of the lengths of the records before
    // value i, each at most MAX_BYTES, so `at <= i * MAX_BYTES` and the record's 9
    // bytes end at most at `(n - 1) * MAX_BYTES + 9 <= n * MAX_BYTES + SLACK`, within
    // the contract; `ends` is valid for n + 1 > i + 1 writes. (The end offsets are at
    // most the total length, which fits in u32: the contract.)
    let mut steps = values.chunks_exact(STEP);
    for (s, step) in steps.by_ref().enumerate() {
        for (j, &value) in step.iter().enumerate() {
            at += unsafe { put::<T, ZIGZAG>(dst, ends, s * STEP + j, value, at) };
        }
    }
    let done = n - steps.remainder().len();
    for (j, &value) in steps.remainder().iter().enumerate() {
        at += unsafe { put::<T, ZIGZAG>(dst, ends, done + j, value, at) };
    }
    // Records are contiguous and each record's stores cover its own bytes
    // [start, start + t + 1), so bytes 0..at are initialised; offsets 0..=n were all
    // written.
    at
}

/// Writes `value` as the record starting at `dst + at` and its end, `at` + its
/// length, as offset `i + 1` at `ends`; returns the length. A tag store and one 8-byte
/// store whose bytes past the record are slack, for the next record to overwrite.
///
/// # Safety
/// `dst + at .. dst + at + 9` must be valid for writes and `ends + i + 1` valid for a
/// `u32` write. (For a right offset, `at` + the length must also fit in `u32`.)
#[inline(always)]
unsafe fn put<T: Sealed, const ZIGZAG: bool>(
    dst: *mut u8,
    ends: *mut u32,
    i: usize,
    value: T,
    at: usize,
) -> usize {
    let u = value.to_unsigned::<ZIGZAG>();
    let t = tier::<T>(u);
    // The tag is 247 + t (251 + t for bijou32), or u itself in the one-byte form,
    // where u is below that and every other tier's values lie above it.
    let tag = u.min(u64::from(T::THRESHOLD) - 1 + t as u64) as u8;
    // The t payload bytes, left-aligned; for t == 0 the word is all slack.
    // SAFETY: t <= 8 (`tier`: at most 7 + 1), within both tables.
    let (first, shift) = unsafe { (*T::OFFSETS.get_unchecked(t), *SHIFT.get_unchecked(t)) };
    let payload = (u - first) << shift;
    // SAFETY: the caller's contract; the unaligned store needs no alignment.
    unsafe {
        dst.add(at).write(tag);
        dst.add(at + 1)
            .cast::<[u8; 8]>()
            .write_unaligned(payload.to_be_bytes());
        ends.add(i + 1).write((at + t + 1) as u32);
    }
    t + 1
}

/// What the decode loop looks up, for one format.
struct DecodeTables {
    /// By record length `d` (`0..16`): the bits of the 8 bytes ending the record that
    /// hold its value's part (`0xff`, the byte itself, for `d == 1`; the `d - 1` payload
    /// bytes for `d >= 2`), and the value those bits are added to (`OFFSETS[d - 1]`;
    /// 0 for `d == 1`). Zero for lengths no record of the format has.
    mask: [u64; 16],
    base: [u64; 16],
    /// By tag byte: the record length it announces (1 for a one-byte value).
    len_of_tag: [u64; 256],
}

impl DecodeTables {
    const fn of<T: Sealed>() -> Self {
        let mut mask = [0; 16];
        let mut base = [0; 16];
        mask[1] = 0xff;
        let mut d = 2;
        while d <= T::MAX_TIER + 1 {
            mask[d] = u64::MAX >> (64 - 8 * (d - 1));
            base[d] = T::OFFSETS[d - 1];
            d += 1;
        }
        let mut len_of_tag = [1; 256];
        let mut tag = T::THRESHOLD as usize;
        while tag < 256 {
            len_of_tag[tag] = (tag - T::THRESHOLD as usize + 2) as u64;
            tag += 1;
        }
        Self {
            mask,
            base,
            len_of_tag,
        }
    }
}

/// Validates `offsets` against `bytes` and decodes every record, appending the values
/// to `out`.
///
/// # Errors
/// [`Error::InvalidOffsets`] when `offsets` is not `n + 1` non-decreasing offsets from
/// 0 to `bytes.len()`; else [`Error::InvalidRecord`] for the first record that is not
/// exactly one value. `out` is then restored to its length before the call.
pub(crate) fn decode<T: BijouValue>(
    bytes: &[u8],
    offsets: &[u32],
    mapping: Mapping,
    out: &mut Vec<T>,
) -> Result<(), Error> {
    check_ends(bytes.len(), offsets)?;
    let ok = match mapping {
        Mapping::Unsigned => decode_with::<T, false>(bytes, offsets, out),
        Mapping::Zigzag => decode_with::<T, true>(bytes, offsets, out),
    };
    if ok {
        Ok(())
    } else {
        Err(first_error::<T>(bytes, offsets, mapping))
    }
}

/// Decodes every record into `out`'s spare capacity and commits them only if all are
/// valid: returns `false` (with `out` unchanged) when any record or offset is invalid.
/// The caller has checked `offsets[0] == 0` and `offsets[n] == bytes.len()`.
#[inline(never)] // one loop of its own, registers to itself
fn decode_with<T: BijouValue, const ZIGZAG: bool>(
    bytes: &[u8],
    offsets: &[u32],
    out: &mut Vec<T>,
) -> bool {
    let n = offsets.len() - 1;
    out.reserve(n);
    let base = out.len();
    // SAFETY: `out` has capacity for `base + n` elements (reserved above).
    let dst = unsafe { out.as_mut_ptr().add(base) };
    // SAFETY: `dst` is valid for n writes; the caller checked the offsets' ends.
    let ok = unsafe {
        match kernel() {
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kernel::Avx512 => avx512::decode::<T, ZIGZAG>(bytes, offsets, dst),
            Kernel::Portable => decode_portable::<T, ZIGZAG>(bytes, offsets, dst),
        }
    };
    if ok {
        // SAFETY: the kernels' contract: when every record is valid, all n values were
        // written.
        unsafe { out.set_len(base + n) };
    }
    ok
}

/// Decodes records `from..n` one by one with the scalar [`crate::decode`] into
/// `dst + from ..`; `false` at the first invalid record or out-of-order offsets.
///
/// # Safety
/// `dst` must be valid for `offsets.len() - 1` writes of `T`.
#[inline(always)]
unsafe fn decode_scalar<T: BijouValue, const ZIGZAG: bool>(
    bytes: &[u8],
    offsets: &[u32],
    from: usize,
    to: usize,
    dst: *mut T,
) -> bool {
    let mapping = if ZIGZAG {
        Mapping::Zigzag
    } else {
        Mapping::Unsigned
    };
    for i in from..to {
        let Some(record) = bytes.get(offsets[i] as usize..offsets[i + 1] as usize) else {
            return false;
        };
        let Ok(v) = crate::decode::<T>(record, mapping) else {
            return false;
        };
        // SAFETY: i < to <= offsets.len() - 1, within the contract.
        unsafe { dst.add(i).write(v) };
    }
    true
}

/// Validates and decodes every record, writing value `i` at `dst + i`; returns `false`
/// when any record or offset is invalid (the values written are then garbage).
///
/// # Safety
/// `dst` must be valid for `offsets.len() - 1` writes of `T`, and `offsets[0] == 0`,
/// `offsets[n] == bytes.len()`. On `true`, all `n` values are initialised.
#[inline(always)]
unsafe fn decode_portable<T: BijouValue, const ZIGZAG: bool>(
    bytes: &[u8],
    offsets: &[u32],
    dst: *mut T,
) -> bool {
    let tables: &'static DecodeTables = const { &DecodeTables::of::<T>() };
    let n = offsets.len() - 1;
    let len = bytes.len();
    let src = bytes.as_ptr();
    // Records starting in the first 8 bytes, where the 8 bytes ending a record may
    // begin before the slab.
    let head = offsets.iter().take(n).take_while(|&&o| o < 8).count();
    // SAFETY: the contract.
    if !unsafe { decode_scalar::<T, ZIGZAG>(bytes, offsets, 0, head, dst) } {
        return false;
    }
    let mut i = head;
    // Invariant at the top of each step: offsets[i] >= 8.
    let (mut bad, mut high) = (0_u64, 0_u64);
    while i + STEP <= n {
        let o: &[u32; STEP + 1] = offsets[i..=i + STEP].try_into().expect("STEP + 1 offsets");
        if o[STEP] as usize >= len {
            break; // the last records: the scalar loop below
        }
        let d: [u64; STEP] =
            std::array::from_fn(|j| u64::from(o[j + 1]).wrapping_sub(u64::from(o[j])));
        if d.iter().fold(0, |acc, &d| acc | d) >= 16 {
            return false; // a decreasing offset (d wrapped) or a record of 16 or more bytes
        }
        for j in 0..STEP {
            let (start, end, d) = (o[j] as usize, o[j + 1] as usize, d[j]);
            // SAFETY: every d < 16 (checked above), so the offsets of this step do not
            // decrease: 8 <= o[0] <= start <= end <= o[STEP] < len (invariant, check
            // above). So the tag at `start` and the 8 bytes at `end - 8 .. end` lie in
            // `bytes`; the unaligned read needs no alignment.
            let (tag, word) = unsafe {
                (
                    *src.add(start),
                    u64::from_be_bytes(src.add(end - 8).cast::<[u8; 8]>().read_unaligned()),
                )
            };
            bad |= tables.len_of_tag[usize::from(tag)] ^ d;
            // SAFETY: d < 16 (checked above), the tables' length.
            let (mask, first) = unsafe {
                (
                    *tables.mask.get_unchecked(d as usize),
                    *tables.base.get_unchecked(d as usize),
                )
            };
            let (u, carry) = first.overflowing_add(word & mask);
            // Out of range only at the maximal length: bijou64 wraps past u64::MAX (the
            // carries), bijou32 passes u32::MAX (bits above 32 in `high`).
            if T::MAX_VALUE == u64::MAX {
                high += u64::from(carry);
            } else {
                high |= u;
            }
            // SAFETY: the contract, and i + j < n.
            unsafe { dst.add(i + j).write(T::from_unsigned::<ZIGZAG>(u)) };
        }
        i += STEP;
    }
    let out_of_range = if T::MAX_VALUE == u64::MAX {
        high != 0
    } else {
        high > T::MAX_VALUE
    };
    // Every record is valid, so are the offsets: a record of the stepped loop has the
    // length its tag announces (so d >= 1, the offsets increase) and is in range.
    // SAFETY: the contract.
    bad == 0 && !out_of_range && unsafe { decode_scalar::<T, ZIGZAG>(bytes, offsets, i, n, dst) }
}

/// The error a slab with an invalid record or offset gets: the offsets' first, then
/// the first record's that fails [`crate::decode`].
fn first_error<T: BijouValue>(bytes: &[u8], offsets: &[u32], mapping: Mapping) -> Error {
    if let Err(error) = check_order(offsets) {
        return error;
    }
    offsets
        .windows(2)
        .enumerate()
        .find_map(|(index, w)| {
            let record = &bytes[w[0] as usize..w[1] as usize];
            crate::decode::<T>(record, mapping)
                .err()
                .map(|source| Error::InvalidRecord {
                    index,
                    source: Box::new(source),
                })
        })
        .expect("the bulk path rejects only slabs the scalar decoder rejects")
}

/// The offsets' first and last entries: `offsets[0] == 0`, `offsets[n] == slab_len`.
fn check_ends(slab_len: usize, offsets: &[u32]) -> Result<(), Error> {
    let invalid = |reason: String| Err(Error::InvalidOffsets { reason });
    let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else {
        return invalid("no offsets: n records need n + 1 offsets".into());
    };
    if first != 0 {
        return invalid(format!("offsets[0] is {first}, expected 0"));
    }
    if last as usize != slab_len {
        return invalid(format!(
            "last offset is {last}, expected the slab length {slab_len}"
        ));
    }
    Ok(())
}

/// The offsets do not decrease.
fn check_order(offsets: &[u32]) -> Result<(), Error> {
    match offsets.windows(2).position(|w| w[1] < w[0]) {
        Some(i) => Err(Error::InvalidOffsets {
            reason: format!(
                "offsets[{}] = {} is less than offsets[{i}] = {}",
                i + 1,
                offsets[i + 1],
                offsets[i]
            ),
        }),
        None => Ok(()),
    }
}

/// Small enough for Miri (`scripts/miri.sh`), which checks the `unsafe` blocks above:
/// every tier of both widths, slabs shorter than the 8-byte windows, failing records
/// in every loop, and reuse of dirty buffers.
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
        for n in 0..12 {
            round_trip(&longs[..n]); // slabs shorter than one step or one 8-byte window
        }
    }

    #[test]
    fn failures_in_every_loop_restore_the_output() {
        let mut out = vec![42_i64];
        let mut fails = |bytes: &[u8], offsets: &[u32]| {
            let error = decode::<i64>(bytes, offsets, Mapping::Unsigned, &mut out).unwrap_err();
            assert_eq!(out, [42], "{error}");
            error
        };
        // The first loop (records starting before byte 8): record 1 is truncated.
        let bytes = [
            0x01, 0xf9, 0x00, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
        ];
        assert_eq!(fails(&bytes, &[0, 1, 3, 12]).record_index(), Some(1));
        // The stepped loop: 8 one-byte records, then a step with a bad tag (record 9),
        // then 5 more one-byte records for the last loop.
        let mut bytes = vec![7_u8; 20];
        let offsets: Vec<u32> = (0..=20).collect();
        bytes[9] = 0xf8;
        assert_eq!(fails(&bytes, &offsets).record_index(), Some(9));
        // ... an out-of-range maximal-length value there,
        let mut overflow = vec![7_u8; 8];
        overflow.extend([0xff, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0x08]);
        overflow.extend([7; 8]);
        let mut offsets: Vec<u32> = (0..=8).collect();
        offsets.extend((17..=25).map(|o| o as u32));
        let error = fails(&overflow, &offsets);
        assert_eq!(error.record_index(), Some(8));
        assert_eq!(error.kind(), crate::ErrorKind::Overflow);
        // ... and offsets that decrease inside a step, which win over record errors.
        let mut offsets: Vec<u32> = (0..=20).collect();
        offsets[10] = 30;
        assert_eq!(
            fails(&bytes, &offsets).kind(),
            crate::ErrorKind::InvalidOffsets
        );
        offsets[10] = 3;
        assert_eq!(
            fails(&bytes, &offsets).kind(),
            crate::ErrorKind::InvalidOffsets
        );
        // The last loop: the final record is a lone tag.
        let mut bytes = vec![7_u8; 20];
        bytes[19] = 0xff;
        let offsets: Vec<u32> = (0..=20).collect();
        assert_eq!(fails(&bytes, &offsets).record_index(), Some(19));
        assert_eq!(fails(&[0x01, 0xff], &[0, 1, 2]).record_index(), Some(1));
    }
}
