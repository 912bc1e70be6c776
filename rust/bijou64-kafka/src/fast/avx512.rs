//! The AVX-512 kernels: sixteen values per encode step, eight records per decode step,
//! no branch per value.
//!
//! Same bytes, values and verdicts as the portable kernels of the parent module (pinned
//! by the differential tests below, which run both on random and corrupted input), on
//! x86-64 CPUs with AVX-512 F, BW, CD, VBMI and VBMI2 (detected at run time).
//!
//! * **Encode**, per step: each value's tier from its leading zeros (`vplzcntq`, then
//!   one table lookup and one comparison, as the portable kernel), its tag as
//!   `min(u, 247 + t)` and its payload `u - OFFSETS[t]`; then, four values at a time,
//!   one `vpermt2b` builds a 64-byte register holding, per value, 16 bytes: `t` at byte
//!   0, the tag at byte 7, the payload big-endian in bytes 8..16. A byte mask keeps
//!   byte 7 and the last `t` bytes of each 16 (`vpcmpub` against the value's `t`),
//!   `vpcompressb` packs the kept bytes into the records, and one unaligned 64-byte
//!   store writes them (the bytes past the records are slack for the next store). The
//!   sixteen end offsets are a prefix sum of the lengths `t + 1` in 32-bit lanes of one
//!   register, stored at once.
//! * **Decode**, per step: the step's nine offsets, and the 128 slab bytes from its
//!   first record's start (the step's records, at most 8 × 9 = 72 bytes, lie in them
//!   whenever the offsets are valid); per record, the 8 bytes that end it and its tag
//!   gathered from those 128 bytes with `vpermi2b`; the value is the ending bytes
//!   masked by the length the offsets give (`d`) plus that length's first value (the
//!   portable kernel's tables); the tag must announce `d`, and a maximal-length
//!   payload must stay in range; both checks are accumulated in a mask register and
//!   tested once after the loop. Only the first record's start is trusted for memory
//!   (the step is taken only when its 128 bytes lie in the slab): wrong offsets give
//!   wrong indices into registers, never a read outside the slab, and fail the checks.
//!   The records in the slab's last 128 bytes go through the scalar decoder.

use std::arch::x86_64::*;
use std::mem::size_of;

use super::{decode_scalar, put, DecodeTables};
use crate::value::sealed::Sealed;
use crate::BijouValue;

/// Values (records) per step.
const STEP: usize = 8;

/// Slab bytes each decode step reads, from its first record's start.
const WINDOW: usize = 128;

/// True when this CPU has every extension these kernels use.
pub(super) fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512cd")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("avx512vbmi2")
        && is_x86_feature_detected!("popcnt")
}

/// What the encode step looks up, for one format.
#[repr(C, align(64))]
struct EncodeTables {
    /// By `b / 8` (`b` the index of the value's highest set bit): the first value of the
    /// tier after `b / 8`, `OFFSETS[b / 8 + 1]` (0 past the format's last tier).
    next: [u64; 8],
    /// By tier (`0..=8`, zero-padded to 16): its first value, `OFFSETS[t]`.
    first: [u64; 16],
}

impl EncodeTables {
    const fn of<T: Sealed>() -> Self {
        let mut tables = Self {
            next: [0; 8],
            first: [0; 16],
        };
        let mut k = 0;
        while k < 9 {
            if k < 8 {
                tables.next[k] = T::OFFSETS[k + 1];
            }
            tables.first[k] = T::OFFSETS[k];
            k += 1;
        }
        tables
    }
}

/// A 64-byte constant: `lane` repeated in each of the four 16-byte lanes.
#[repr(C, align(64))]
struct Bytes([u8; 64]);

impl Bytes {
    const fn lanes(lane: [u8; 16]) -> Self {
        let mut bytes = [0; 64];
        let mut i = 0;
        while i < 64 {
            bytes[i] = lane[i % 16];
            i += 1;
        }
        Self(bytes)
    }
}

/// Values per step of the encode loop (two groups of [`STEP`]).
const WIDE_STEP: usize = 2 * STEP;

/// The `vpermt2b` indices that build four records' 16-byte lanes from eight tag lanes
/// (indices 0..64) and eight payload lanes (64..128): record `j` of the four starting at
/// `first` takes tag lane `first + j` as its bytes 0..8 and payload lane `first + j`,
/// byte-reversed (big-endian), as its bytes 8..16.
const fn record_lanes(first: usize) -> Bytes {
    let mut bytes = [0; 64];
    let mut j = 0;
    while j < 4 {
        let lane = first + j;
        let mut p = 0;
        while p < 8 {
            bytes[16 * j + p] = (8 * lane + p) as u8;
            bytes[16 * j + 8 + p] = (64 + 8 * lane + 7 - p) as u8;
            p += 1;
        }
        j += 1;
    }
    Bytes(bytes)
}

static RECORDS_0_TO_3: Bytes = record_lanes(0);
static RECORDS_4_TO_7: Bytes = record_lanes(4);
/// Byte `p` of a record lane is kept when its `t` is at least this: the tag (byte 7)
/// always, payload byte `p >= 8` when `p >= 16 - t`, bytes 0..7 never (`t <= 8`).
static KEEP_FROM: Bytes =
    Bytes::lanes([255, 255, 255, 255, 255, 255, 255, 0, 8, 7, 6, 5, 4, 3, 2, 1]);
/// Copies the lowest byte of each 64-bit lane to all eight of its bytes (`vpshufb`).
static SPREAD_LOW_BYTE: Bytes = Bytes::lanes([0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8]);
/// Subtracted from a record's end (relative to the window) to index, in byte `k` of its
/// lane, the slab byte `end - 1 - k`: the record's last 8 bytes, reversed.
static BACK_FROM_END: Bytes = Bytes::lanes([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]);

/// `values[i..i + 8]` as unsigned 64-bit lanes (the mapping applied).
///
/// # Safety
/// `p` must be valid for reading 8 `T`s.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn load8<T: Sealed, const ZIGZAG: bool>(p: *const T) -> __m512i {
    let v = if size_of::<T>() == 8 {
        // SAFETY: the contract; unaligned loads need no alignment.
        unsafe { _mm512_loadu_si512(p.cast()) }
    } else {
        // SAFETY: as above, 8 × 4 bytes.
        let v = unsafe { _mm256_loadu_si256(p.cast()) };
        if ZIGZAG {
            _mm512_cvtepi32_epi64(v) // zigzag of the sign-extended value fits in 32 bits
        } else {
            _mm512_cvtepu32_epi64(v)
        }
    };
    if ZIGZAG {
        _mm512_xor_si512(_mm512_slli_epi64::<1>(v), _mm512_srai_epi64::<63>(v))
    } else {
        v
    }
}

/// Stores 8 unsigned lanes as `T`s at `p` (the mapping undone).
///
/// # Safety
/// `p` must be valid for writing 8 `T`s.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn store8<T: Sealed, const ZIGZAG: bool>(p: *mut T, u: __m512i) {
    let v = if ZIGZAG {
        let sign = _mm512_sub_epi64(
            _mm512_setzero_si512(),
            _mm512_and_si512(u, _mm512_set1_epi64(1)),
        );
        _mm512_xor_si512(_mm512_srli_epi64::<1>(u), sign)
    } else {
        u
    };
    if size_of::<T>() == 8 {
        // SAFETY: the contract.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    } else {
        // SAFETY: the contract; the truncation is `from_unsigned`'s `u as u32`.
        unsafe { _mm256_storeu_si256(p.cast(), _mm512_cvtepi64_epi32(v)) }
    }
}

/// A 64-byte constant from memory.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn constant(b: &'static Bytes) -> __m512i {
    // SAFETY: `b` is 64 readable bytes.
    unsafe { _mm512_loadu_si512(b.0.as_ptr().cast()) }
}

/// Eight `u64`s from memory.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn words(w: &[u64]) -> __m512i {
    assert!(w.len() >= 8);
    // SAFETY: `w` holds at least 8 `u64`s (asserted).
    unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
}

/// The encode kernel; the contract of `super::encode_portable`.
///
/// # Safety
/// That of `super::encode_portable`, and the CPU must have the extensions [`available`]
/// checks.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
pub(super) unsafe fn encode<T: BijouValue, const ZIGZAG: bool>(
    values: &[T],
    dst: *mut u8,
    ends: *mut u32,
) -> usize {
    let n = values.len();
    let zero = _mm512_setzero_si512();
    let (first_four, last_four) = (constant(&RECORDS_0_TO_3), constant(&RECORDS_4_TO_7));
    let keep_from = constant(&KEEP_FROM);
    let low_dwords = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    // SAFETY: `ends` is valid for n + 1 writes (the contract).
    unsafe { ends.write(0) };
    let mut at = 0_usize;
    let mut i = 0;
    while i + WIDE_STEP <= n {
        // SAFETY: i + 16 <= n.
        let (t0, tags0, payloads0) = unsafe { tiers::<T, ZIGZAG>(values.as_ptr().add(i)) };
        // SAFETY: as above.
        let (t1, tags1, payloads1) = unsafe { tiers::<T, ZIGZAG>(values.as_ptr().add(i + STEP)) };
        // The 16 end offsets: at + the prefix sums of the lengths t + 1, in 32-bit lanes.
        let mut sum = _mm512_add_epi32(
            _mm512_permutex2var_epi32(t0, low_dwords, t1),
            _mm512_set1_epi32(1),
        );
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32::<15>(sum, zero));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32::<14>(sum, zero));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32::<12>(sum, zero));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32::<8>(sum, zero));
        // SAFETY: ends + i + 1 .. + 17 lie within the n + 1 offsets (i + 16 <= n); the
        // offsets fit in u32 (the contract), so the wrapping 32-bit sums are exact.
        unsafe {
            _mm512_storeu_si512(
                ends.add(i + 1).cast(),
                _mm512_add_epi32(sum, _mm512_set1_epi32(at as i32)),
            );
        }
        for (tags, payloads) in [(tags0, payloads0), (tags1, payloads1)] {
            for order in [first_four, last_four] {
                // Four records' 16-byte lanes: t at byte 0, the tag at byte 7, the
                // big-endian payload in bytes 8..16; the kept bytes are the record.
                let lanes = _mm512_permutex2var_epi8(tags, order, payloads);
                let keep = _mm512_cmpge_epu8_mask(_mm512_shuffle_epi8(lanes, zero), keep_from);
                // SAFETY: `at` is at most MAX_BYTES per value before these four, so at
                // most (i + 12) * MAX_BYTES, and the 64 bytes end at most at
                // (n - 4) * MAX_BYTES + 64 <= n * MAX_BYTES + SLACK (i + 16 <= n): within
                // the contract.
                unsafe {
                    _mm512_storeu_si512(
                        dst.add(at).cast(),
                        _mm512_maskz_compress_epi8(keep, lanes),
                    );
                }
                at += keep.count_ones() as usize;
            }
        }
        i += WIDE_STEP;
    }
    for (j, &value) in values[i..].iter().enumerate() {
        // SAFETY: as in `super::encode_portable`: at <= (i + j) * MAX_BYTES.
        at += unsafe { put::<T, ZIGZAG>(dst, ends, i + j, value, at) };
    }
    at
}

/// For `values[i..i + 8]`: each value's tier `t` (`0..=8`), its tag lane (the tag in
/// byte 7, `t` in byte 0) and its payload `u - OFFSETS[t]` (the low `t` bytes matter).
///
/// # Safety
/// `p` must be valid for reading 8 `T`s.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn tiers<T: Sealed, const ZIGZAG: bool>(p: *const T) -> (__m512i, __m512i, __m512i) {
    let tables: &'static EncodeTables = const { &EncodeTables::of::<T>() };
    let one = _mm512_set1_epi64(1);
    // SAFETY: the contract.
    let u = unsafe { load8::<T, ZIGZAG>(p) };
    // b / 8 (b the index of the highest set bit) from the leading zeros of u | 1 (63 for
    // 0 and 1); the tier is that, plus one when u reaches the next tier's first value.
    let high_byte = _mm512_xor_si512(
        _mm512_srli_epi64::<3>(_mm512_lzcnt_epi64(_mm512_or_si512(u, one))),
        _mm512_set1_epi64(7),
    );
    let up = _mm512_cmpge_epu64_mask(u, _mm512_permutexvar_epi64(high_byte, words(&tables.next)));
    let t = _mm512_mask_add_epi64(high_byte, up, high_byte, one);
    let first = _mm512_permutex2var_epi64(words(&tables.first[..8]), t, words(&tables.first[8..]));
    // The tag is 247 + t (251 + t for bijou32), or u itself in the one-byte form.
    let tag = _mm512_min_epu64(
        u,
        _mm512_add_epi64(t, _mm512_set1_epi64(i64::from(T::THRESHOLD) - 1)),
    );
    (
        t,
        _mm512_or_si512(_mm512_slli_epi64::<56>(tag), t),
        _mm512_sub_epi64(u, first),
    )
}

/// The decode kernel; the contract of `super::decode_portable`.
///
/// # Safety
/// That of `super::decode_portable`, and the CPU must have the extensions [`available`]
/// checks.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
pub(super) unsafe fn decode<T: BijouValue, const ZIGZAG: bool>(
    bytes: &[u8],
    offsets: &[u32],
    dst: *mut T,
) -> bool {
    let tables: &'static DecodeTables = const { &DecodeTables::of::<T>() };
    let n = offsets.len() - 1;
    let len = bytes.len();
    let (src, ends) = (bytes.as_ptr(), offsets.as_ptr());
    let (mask_lo, mask_hi) = (words(&tables.mask[..8]), words(&tables.mask[8..]));
    let (base_lo, base_hi) = (words(&tables.base[..8]), words(&tables.base[8..]));
    let (spread, back) = (constant(&SPREAD_LOW_BYTE), constant(&BACK_FROM_END));
    let low_byte = _mm512_set1_epi64(0xff);
    // A tag announces max(tag, THRESHOLD - 1) - (THRESHOLD - 2) bytes.
    let below = _mm512_set1_epi64(i64::from(T::THRESHOLD) - 1);
    let two_below = _mm512_set1_epi64(i64::from(T::THRESHOLD) - 2);
    let max_value = _mm512_set1_epi64(T::MAX_VALUE as i64);
    let mut bad: __mmask8 = 0;
    let mut i = 0;
    while i + STEP <= n {
        let origin = offsets[i] as usize;
        if origin + WINDOW > len {
            break; // the records in the last 128 bytes: the scalar loop below
        }
        // SAFETY: offsets i..=i + 8 exist (i + 8 <= n); the window lies in `bytes`
        // (checked above); unaligned loads need no alignment.
        let (starts, stops, low, high) = unsafe {
            (
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(ends.add(i).cast())),
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(ends.add(i + 1).cast())),
                _mm512_loadu_si512(src.add(origin).cast()),
                _mm512_loadu_si512(src.add(origin + 64).cast()),
            )
        };
        let origin = _mm512_set1_epi64(origin as i64);
        let d = _mm512_sub_epi64(stops, starts);
        // Byte k of lane j: window index of the slab byte stops[j] - 1 - k (the indices
        // wrap modulo 128: bytes of wrong offsets are garbage, and fail the tag check).
        let from_end = _mm512_sub_epi8(
            _mm512_shuffle_epi8(_mm512_sub_epi64(stops, origin), spread),
            back,
        );
        let word = _mm512_permutex2var_epi8(low, from_end, high);
        let tag = _mm512_and_si512(
            _mm512_permutex2var_epi8(low, _mm512_sub_epi64(starts, origin), high),
            low_byte,
        );
        let announced = _mm512_sub_epi64(_mm512_max_epu64(tag, below), two_below);
        bad |= _mm512_cmpneq_epu64_mask(announced, d);
        // d's low 4 bits index the 16-entry tables; a d of 16 or more failed above.
        let first = _mm512_permutex2var_epi64(base_lo, d, base_hi);
        let payload = _mm512_and_si512(word, _mm512_permutex2var_epi64(mask_lo, d, mask_hi));
        let u = _mm512_add_epi64(first, payload);
        // Out of range only at the maximal length: bijou64 wraps past u64::MAX (the
        // sum falls below the tier's first value), bijou32 passes u32::MAX.
        bad |= if T::MAX_VALUE == u64::MAX {
            _mm512_cmplt_epu64_mask(u, first)
        } else {
            _mm512_cmpgt_epu64_mask(u, max_value)
        };
        // SAFETY: `dst` is valid for n values (the contract) and i + 8 <= n.
        unsafe { store8::<T, ZIGZAG>(dst.add(i), u) };
        i += STEP;
    }
    // SAFETY: the contract.
    bad == 0 && unsafe { decode_scalar::<T, ZIGZAG>(bytes, offsets, i, n, dst) }
}

/// The kernels against the portable ones: the same slabs from the same values, the same
/// values and verdicts from the same (valid, corrupted or mis-cut) slabs. Skipped where
/// the CPU lacks the extensions; not under Miri, which does not interpret them.
#[cfg(all(test, not(miri)))]
mod tests {
    use super::super::{decode_portable, encode_portable, SLACK};
    use super::*;
    use proptest::prelude::*;

    fn encode_both<T: BijouValue, const Z: bool>(values: &[T]) -> [(Vec<u8>, Vec<u32>); 2] {
        let run = |simd: bool| {
            let n = values.len();
            let (mut bytes, mut ends) =
                (vec![0xaa_u8; n * T::MAX_BYTES + SLACK], vec![7_u32; n + 1]);
            // SAFETY: the buffers have the contract's sizes; `available()` was checked.
            let at = unsafe {
                if simd {
                    encode::<T, Z>(values, bytes.as_mut_ptr(), ends.as_mut_ptr())
                } else {
                    encode_portable::<T, Z>(values, bytes.as_mut_ptr(), ends.as_mut_ptr())
                }
            };
            bytes.truncate(at);
            (bytes, ends)
        };
        [run(true), run(false)]
    }

    fn decode_both<T: BijouValue + PartialEq + std::fmt::Debug, const Z: bool>(
        bytes: &[u8],
        offsets: &[u32],
    ) -> [Option<Vec<T>>; 2] {
        let run = |simd: bool| {
            let n = offsets.len() - 1;
            let mut out: Vec<T> = Vec::with_capacity(n);
            // SAFETY: `out` has capacity n; the callers pass offsets with the contract's
            // ends; `available()` was checked.
            let ok = unsafe {
                if simd {
                    decode::<T, Z>(bytes, offsets, out.as_mut_ptr())
                } else {
                    decode_portable::<T, Z>(bytes, offsets, out.as_mut_ptr())
                }
            };
            ok.then(|| {
                // SAFETY: on `true` all n values are initialised.
                unsafe { out.set_len(n) };
                out
            })
        };
        [run(true), run(false)]
    }

    /// Values over every tier: a random value shifted right by a random amount.
    fn tiered() -> impl Strategy<Value = Vec<i64>> {
        prop::collection::vec((any::<i64>(), 0_u32..64).prop_map(|(v, s)| v >> s), 0..300)
    }

    /// Encodes with both kernels, checks they agree, and decodes the slab with both.
    fn agree<T: BijouValue + PartialEq + std::fmt::Debug, const Z: bool>(values: &[T]) {
        let [simd, portable] = encode_both::<T, Z>(values);
        assert_eq!(simd, portable);
        let [simd, portable] = decode_both::<T, Z>(&portable.0, &portable.1);
        assert_eq!(simd.as_deref(), Some(values));
        assert_eq!(portable.as_deref(), Some(values));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn both_kernels_write_and_read_the_same_slabs(values in tiered()) {
            if !available() {
                return Ok(());
            }
            let ints: Vec<i32> = values.iter().map(|&v| (v >> 32) as i32).collect();
            agree::<i64, false>(&values);
            agree::<i64, true>(&values);
            agree::<i32, false>(&ints);
            agree::<i32, true>(&ints);
        }

        /// Valid slabs with one byte changed, or one offset moved: the same verdict and,
        /// when both accept, the same values.
        #[test]
        fn both_kernels_judge_corrupted_slabs_alike(
            values in tiered(),
            at in any::<prop::sample::Index>(),
            byte in prop_oneof![any::<u8>(), 0xf8_u8..=0xff],
            shift in -12_i64..12,
            move_offset: bool,
        ) {
            if !available() || values.is_empty() {
                return Ok(());
            }
            let ints: Vec<i32> = values.iter().map(|&v| (v >> 32) as i32).collect();
            let [(mut bytes, mut offsets), _] = encode_both::<i64, false>(&values);
            let [(mut int_bytes, mut int_offsets), _] = encode_both::<i32, true>(&ints);
            for (bytes, offsets) in [(&mut bytes, &mut offsets), (&mut int_bytes, &mut int_offsets)] {
                if move_offset {
                    // An inner offset (the first and last are the contract's).
                    if offsets.len() > 2 {
                        let i = 1 + at.index(offsets.len() - 2);
                        offsets[i] = (i64::from(offsets[i]) + shift).clamp(0, u32::MAX.into()) as u32;
                    }
                } else if !bytes.is_empty() {
                    let i = at.index(bytes.len());
                    bytes[i] = byte;
                }
            }
            let [simd, portable] = decode_both::<i64, false>(&bytes, &offsets);
            prop_assert_eq!(simd, portable);
            let [simd, portable] = decode_both::<i32, true>(&int_bytes, &int_offsets);
            prop_assert_eq!(simd, portable);
        }
    }

    #[test]
    fn every_tier_at_every_lane_of_a_step() {
        if !available() {
            return;
        }
        let mut edges: Vec<i64> = i64::OFFSETS
            .iter()
            .flat_map(|&o| [o as i64, o as i64 - 1])
            .collect();
        edges.extend([0, 1, -1, i64::MIN, i64::MAX]);
        for rotation in 0..edges.len() {
            let mut values = edges.clone();
            values.rotate_left(rotation);
            values.extend_from_slice(&edges); // slabs past one 128-byte window
            values.extend_from_slice(&edges);
            agree::<i64, false>(&values);
            agree::<i64, true>(&values);
            let ints: Vec<i32> = values.iter().map(|&v| v as i32).collect();
            agree::<i32, false>(&ints);
            agree::<i32, true>(&ints);
        }
    }
}
