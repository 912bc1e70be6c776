//! JSON string escaping: a word-at-a-time (SWAR) scan copies runs that need no escaping in bulk; the rest
//! reproduce the reference escaper byte for byte.
//!
//! Two escapers, identical except for the rows marked (docs/json-format.md, string escaping):
//!
//! | input | Jackson `UTF8JsonGenerator` (Flink) | serde_json (arrow-json) |
//! |---|---|---|
//! | `"` `\` | `\"` `\\` | `\"` `\\` |
//! | U+0008/09/0A/0C/0D | `\b` `\t` `\n` `\f` `\r` | same |
//! | other U+0000–U+001F | `\u00XX`, **upper-case** hex (`\u001F`) | `\u00xx`, **lower-case** hex (`\u001f`) |
//! | U+007F, `/`, the rest of the BMP (U+2028, U+FFFF, ...) | raw UTF-8 | raw UTF-8 |
//! | U+10000 and up (4-byte UTF-8) | **UTF-16 surrogate pair escapes** (`\uD83D\uDE00`) | raw UTF-8 |
//!
//! So the bytes that need attention are `< 0x20`, `"`, `\` and, for Jackson only, the 4-byte lead
//! bytes `0xF0..=0xF4` (`>= 0xF0` is tested; `0xF5..` never occur in UTF-8). The scan loads 8 bytes
//! as a little-endian `u64` and computes a mask whose lowest set bit marks the first such byte
//! (the classic "has less than" / "has zero byte" bit tricks: borrows only run upwards, so bits
//! above a true hit may be spurious but the lowest one never is). Everything before it is copied
//! with one `extend_from_slice`.

use arrow_array::{GenericStringArray, OffsetSizeTrait};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Appends `s` as a quoted JSON string exactly as Jackson's `UTF8JsonGenerator` writes it for Flink.
///
/// Source of truth: Jackson `com.fasterxml.jackson.core.json.UTF8JsonGenerator` with the default
/// `CharTypes` output escapes (Jackson 2.14–2.20, as shaded in Flink 1.19–2.3; all 128 ASCII code
/// points and non-BMP characters verified against the real Flink serializer). Supplementary characters
/// become surrogate-pair escapes because `COMBINE_UNICODE_SURROGATES_IN_UTF8` is off.
#[inline]
pub(crate) fn write_jackson_str(out: &mut Vec<u8>, s: &str) {
    write_escaped::<true>(out, s);
}

/// Appends `s` as a quoted JSON string exactly as serde_json (arrow-json's escaper) writes it.
///
/// Source of truth: `serde_json::ser::format_escaped_str` (serde_json 1.x `ESCAPE` table, lower-case
/// hex, non-ASCII raw), which arrow-json 60.1.0 uses for Utf8 values and keys; checked in the tests
/// against `serde_json::to_string`.
#[inline]
pub(crate) fn write_serde_str(out: &mut Vec<u8>, s: &str) {
    write_escaped::<false>(out, s);
}

/// Whether any byte of `bytes` needs escaping under Jackson's rules (`JACKSON`) or serde_json's: one pass over a
/// whole column's value buffer. When it finds nothing, every string of the column is written with
/// [`write_verbatim_str`], a bulk copy. On x86_64 the pass compares 128 bytes per step with AVX2 when the CPU
/// has it (detected at run time, cached by the standard library), else 64 bytes per step with SSE2 (part of
/// the x86_64 baseline); elsewhere, and for the tail, it is the SWAR scan, 16 bytes per step (a non-zero
/// [`attention_mask`] always holds a real hit).
pub(crate) fn needs_escaping<const JACKSON: bool>(bytes: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    let (hit, rest) = if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        unsafe { avx2::scan::<JACKSON>(bytes) }
    } else {
        sse2::scan::<JACKSON>(bytes)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (hit, rest) = (false, bytes);
    hit || swar_needs_escaping::<JACKSON>(rest)
}

/// The SWAR scan: two 8-byte words per step, then byte by byte.
fn swar_needs_escaping<const JACKSON: bool>(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        let (w0, w1) = (load(chunk, 0), load(chunk, 8));
        if attention_mask::<JACKSON>(w0) | attention_mask::<JACKSON>(w1) != 0 {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&b| needs_attention::<JACKSON>(b))
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Bytes compared per step: four 32-byte vectors, OR-ed, one branch.
    const STEP: usize = 128;

    /// As [`super::sse2::scan`], 128 bytes per step.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn scan<const JACKSON: bool>(bytes: &[u8]) -> (bool, &[u8]) {
        let mut steps = bytes.chunks_exact(STEP);
        for step in &mut steps {
            let p = step.as_ptr().cast::<__m256i>();
            // SAFETY: each load reads 32 bytes at `step[32 * k ..]`, inside the 128-byte chunk (unaligned loads).
            let (a, b, c, d) = unsafe {
                (
                    _mm256_loadu_si256(p),
                    _mm256_loadu_si256(p.add(1)),
                    _mm256_loadu_si256(p.add(2)),
                    _mm256_loadu_si256(p.add(3)),
                )
            };
            let any = _mm256_or_si256(
                _mm256_or_si256(attention::<JACKSON>(a), attention::<JACKSON>(b)),
                _mm256_or_si256(attention::<JACKSON>(c), attention::<JACKSON>(d)),
            );
            if _mm256_movemask_epi8(any) != 0 {
                return (true, &[]);
            }
        }
        (false, steps.remainder())
    }

    /// 0xFF in each byte lane of `x` that is below 0x20, `"`, `\\` or (Jackson) at least 0xF0, else 0.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn attention<const JACKSON: bool>(x: __m256i) -> __m256i {
        let control = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
        let quote = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(b'"' as i8));
        let backslash = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(b'\\' as i8));
        let m = _mm256_or_si256(control, _mm256_or_si256(quote, backslash));
        if JACKSON {
            _mm256_or_si256(
                m,
                _mm256_cmpeq_epi8(_mm256_max_epu8(x, _mm256_set1_epi8(0xF0u8 as i8)), x),
            )
        } else {
            m
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Bytes compared per step: four 16-byte vectors, OR-ed, one branch.
    const STEP: usize = 64;

    /// Scans the whole 64-byte steps of `bytes`: whether one holds a byte that needs attention, and the bytes
    /// after the last whole step (for the caller's scalar scan).
    #[inline]
    pub(super) fn scan<const JACKSON: bool>(bytes: &[u8]) -> (bool, &[u8]) {
        let mut steps = bytes.chunks_exact(STEP);
        for step in &mut steps {
            // SAFETY: SSE2 is part of the x86_64 baseline; each load reads 16 bytes at `step[16 * k ..]`, inside
            // the 64-byte chunk (unaligned loads).
            let hit = unsafe {
                let p = step.as_ptr().cast::<__m128i>();
                let any = _mm_or_si128(
                    _mm_or_si128(
                        attention::<JACKSON>(_mm_loadu_si128(p)),
                        attention::<JACKSON>(_mm_loadu_si128(p.add(1))),
                    ),
                    _mm_or_si128(
                        attention::<JACKSON>(_mm_loadu_si128(p.add(2))),
                        attention::<JACKSON>(_mm_loadu_si128(p.add(3))),
                    ),
                );
                _mm_movemask_epi8(any) != 0
            };
            if hit {
                return (true, &[]);
            }
        }
        (false, steps.remainder())
    }

    /// 0xFF in each byte lane of `x` that is below 0x20, `"`, `\\` or (Jackson) at least 0xF0, else 0.
    #[inline(always)]
    fn attention<const JACKSON: bool>(x: __m128i) -> __m128i {
        // SAFETY (all intrinsics): SSE2 is part of the x86_64 baseline; they work on registers only.
        unsafe {
            let control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
            let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
            let mut m = _mm_or_si128(control, _mm_or_si128(quote, backslash));
            if JACKSON {
                m = _mm_or_si128(
                    m,
                    _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0xF0u8 as i8)), x),
                );
            }
            m
        }
    }
}

/// [`needs_escaping`] over the value bytes a (possibly sliced) string array uses.
pub(crate) fn column_needs_escaping<const JACKSON: bool, O: OffsetSizeTrait>(
    a: &GenericStringArray<O>,
) -> bool {
    let offsets = a.value_offsets();
    let used = &a.value_data()[offsets[0].as_usize()..offsets[offsets.len() - 1].as_usize()];
    needs_escaping::<JACKSON>(used)
}

/// Appends `bytes` as Jackson writes them as a JSON string ([`write_jackson_str`]), when they are ASCII with nothing
/// to escape (checked 8 bytes at a time), copied between quotes; false, with `out` unchanged, otherwise (the
/// caller then checks them as UTF-8 and escapes them). One pass for the common short string instead of a UTF-8
/// check and an escaping loop.
#[inline]
pub(crate) fn write_plain_ascii(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    let plain = if bytes.len() >= 8 {
        let mut dirty = 0;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let w = load(chunk, 0);
            dirty |= (w & HIGHS) | attention_mask::<true>(w);
        }
        // The tail as the last 8 bytes (overlapping the last chunk), loaded in place.
        let w = load(bytes, bytes.len() - 8);
        dirty |= (w & HIGHS) | attention_mask::<true>(w);
        dirty == 0
    } else {
        bytes
            .iter()
            .all(|&b| b.is_ascii() && !needs_attention::<true>(b))
    };
    if !plain {
        return false;
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
    true
}

/// Appends `s` quoted, without escaping: only for strings [`needs_escaping`] cleared.
#[inline]
pub(crate) fn write_verbatim_str(out: &mut Vec<u8>, s: &str) {
    debug_assert!(!needs_escaping::<false>(s.as_bytes()));
    out.reserve(s.len() + 2);
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

/// Appends the bytes `data[start..end]` quoted, without escaping, as [`write_verbatim_str`] does: only for UTF-8
/// that [`needs_escaping`] cleared (the values of a string column). A value of at most 16 bytes with 16 bytes of
/// `data` from its start is copied as one 16-byte block and cut to its length, instead of a call to memcpy
/// (short strings: nested elements, map keys and values).
///
/// # Panics
/// If `start..end` is not a range inside `data`.
#[inline]
pub(crate) fn write_verbatim_bytes(out: &mut Vec<u8>, data: &[u8], start: usize, end: usize) {
    let value = &data[start..end];
    debug_assert!(!needs_escaping::<false>(value));
    out.reserve(18);
    out.push(b'"');
    match data.get(start..start + 16) {
        Some(block) if value.len() <= 16 => {
            out.extend_from_slice(block);
            out.truncate(out.len() - (16 - value.len()));
        }
        _ => out.extend_from_slice(value),
    }
    out.push(b'"');
}

/// Mask with the high bit set in (at least) the lowest byte of `w` that needs attention.
///
/// Per byte `b` with its high bit clear, `b - 0x20`, `(b ^ '"') - 1` and `(b ^ '\\') - 1` have their high bit set
/// exactly when `b < 0x20`, `b == '"'`, `b == '\\'` (the XOR constants have no high bit, so `!w` masks all three);
/// borrows only run upwards, so a bit above a real hit may be spurious but the lowest one never is. For Jackson,
/// `(b & 0x7F) + 0x10` reaches `0x80` (no carry out of the byte) when `b & 0x7F >= 0x70`, which with `b`'s own
/// high bit means `b >= 0xF0`: a 4-byte UTF-8 lead.
#[inline(always)]
fn attention_mask<const JACKSON: bool>(w: u64) -> u64 {
    let control = w.wrapping_sub(ONES * 0x20);
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let mut mask = (control | quote | backslash) & !w;
    if JACKSON {
        mask |= ((w & (ONES * 0x7F)) + ONES * 0x10) & w;
    }
    mask & HIGHS
}

#[inline(always)]
fn load(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The fused scan-and-copy loop. Every clean 8-byte word is stored into the slab as soon as it is scanned (no
/// separate `memmove` per run); a word with a byte that needs attention advances to that byte, which takes the
/// escape path.
///
/// Capacity invariant, re-established after every escape: `capacity >= w + (len - i) + 9`, where `w` is the write
/// position and `i` the read position. It covers an 8-byte store at `w` while 8 or more input bytes remain, one
/// byte per remaining input byte, and the closing quote.
#[inline(always)]
fn write_escaped<const JACKSON: bool>(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let len = bytes.len();
    out.reserve(len + 10);
    out.push(b'"');
    let mut w = out.len();
    let mut i = 0;
    // Input index after the last escape: output and input are byte-aligned copies from there on.
    let mut escaped_until = 0;
    // Two words per step while 16 or more bytes remain (one branch per 16 clean bytes).
    while i + 16 <= len {
        let (w0, w1) = (load(bytes, i), load(bytes, i + 8));
        // SAFETY: by the invariant, `w + 16 <= w + (len - i) <= capacity`; the sources are local values.
        unsafe {
            std::ptr::copy_nonoverlapping(w0.to_le_bytes().as_ptr(), out.as_mut_ptr().add(w), 8);
            std::ptr::copy_nonoverlapping(
                w1.to_le_bytes().as_ptr(),
                out.as_mut_ptr().add(w + 8),
                8,
            );
        }
        let (m0, m1) = (attention_mask::<JACKSON>(w0), attention_mask::<JACKSON>(w1));
        if m0 | m1 == 0 {
            i += 16;
            w += 16;
            continue;
        }
        let clean = if m0 != 0 {
            (m0.trailing_zeros() / 8) as usize
        } else {
            8 + (m1.trailing_zeros() / 8) as usize
        };
        // SAFETY: the `clean` bytes before the hit were just stored (initialised) and `w + clean <= capacity`.
        unsafe { out.set_len(w + clean) };
        i = escape_at::<JACKSON>(out, bytes, i + clean);
        escaped_until = i;
        out.reserve(len - i + 9);
        w = out.len();
    }
    while i + 8 <= len {
        let word = load(bytes, i);
        // SAFETY: by the invariant, `w + 8 <= w + (len - i) <= capacity`; the source is a local value.
        unsafe {
            std::ptr::copy_nonoverlapping(word.to_le_bytes().as_ptr(), out.as_mut_ptr().add(w), 8)
        };
        let mask = attention_mask::<JACKSON>(word);
        if mask == 0 {
            i += 8;
            w += 8;
            continue;
        }
        let clean = (mask.trailing_zeros() / 8) as usize;
        // SAFETY: the `clean` bytes before the hit were just stored (initialised) and `w + clean <= capacity`.
        unsafe { out.set_len(w + clean) };
        i = escape_at::<JACKSON>(out, bytes, i + clean);
        escaped_until = i;
        out.reserve(len - i + 9);
        w = out.len();
    }
    // Tail of a string of 8+ bytes whose last 8 input bytes were copied verbatim so far (no escape inside them):
    // re-scan the last word with the already-scanned bytes replaced by a plain one (masking the result instead
    // would be wrong: a hit below `i` can leave a spurious borrow bit above it), and if it is clean store the
    // whole word so that it ends where the string ends, rewriting identical bytes.
    if i < len && len >= 8 && escaped_until + 8 <= len {
        let base = len - 8;
        let fresh = !0u64 << (8 * (i - base));
        let word = load(bytes, base);
        if attention_mask::<JACKSON>((word & fresh) | ((ONES * u64::from(b'a')) & !fresh)) == 0 {
            let at = w - (i - base);
            // SAFETY: output `at .. w` holds input `base .. i` verbatim (no escape at or after `base`), and
            // `at + 8 = w + (len - i) <= capacity` by the invariant.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    word.to_le_bytes().as_ptr(),
                    out.as_mut_ptr().add(at),
                    8,
                )
            };
            w += len - i;
            i = len;
        }
    }
    while i < len {
        let b = bytes[i];
        if needs_attention::<JACKSON>(b) {
            // SAFETY: bytes up to `w` are initialised (stored above or below) and within capacity.
            unsafe { out.set_len(w) };
            i = escape_at::<JACKSON>(out, bytes, i);
            out.reserve(len - i + 9);
            w = out.len();
        } else {
            // SAFETY: by the invariant, `w + 1 <= capacity`.
            unsafe { *out.as_mut_ptr().add(w) = b };
            w += 1;
            i += 1;
        }
    }
    // SAFETY: bytes up to `w` are initialised and the invariant leaves room for the closing quote.
    unsafe {
        *out.as_mut_ptr().add(w) = b'"';
        out.set_len(w + 1);
    }
}

#[inline(always)]
fn needs_attention<const JACKSON: bool>(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || (JACKSON && b >= 0xF0)
}

/// The short escape letter of a control character, or 0 for `\u00XX`.
const SHORT: [u8; 32] = {
    let mut t = [0u8; 32];
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t
};

/// Writes the escape for the byte at `at` (which needs attention) and returns the index after it.
#[inline(never)]
fn escape_at<const JACKSON: bool>(out: &mut Vec<u8>, bytes: &[u8], at: usize) -> usize {
    let hex: &[u8; 16] = if JACKSON {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let b = bytes[at];
    match b {
        b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
        0x00..=0x1F => match SHORT[usize::from(b)] {
            0 => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                hex[usize::from(b >> 4)],
                hex[usize::from(b & 0xF)],
            ]),
            letter => out.extend_from_slice(&[b'\\', letter]),
        },
        _ => {
            // Jackson only: a 4-byte UTF-8 sequence (the input is a `&str`, so it is complete).
            let cp = (u32::from(b & 0x07) << 18)
                | (u32::from(bytes[at + 1] & 0x3F) << 12)
                | (u32::from(bytes[at + 2] & 0x3F) << 6)
                | u32::from(bytes[at + 3] & 0x3F);
            let c = cp - 0x1_0000;
            let high = 0xD800 | (c >> 10);
            let low = 0xDC00 | (c & 0x3FF);
            let h = |v: u32, shift: u32| hex[((v >> shift) & 0xF) as usize];
            out.extend_from_slice(&[
                b'\\',
                b'u',
                h(high, 12),
                h(high, 8),
                h(high, 4),
                h(high, 0),
                b'\\',
                b'u',
                h(low, 12),
                h(low, 8),
                h(low, 4),
                h(low, 0),
            ]);
            return at + 4;
        }
    }
    at + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_bytes_at_every_length_and_position() {
        // Values of 0 to 20 bytes at every start of a 40-byte buffer: those near its end have fewer than 16
        // bytes after their start and take the plain copy, the others the 16-byte block.
        let data: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for start in 0..=data.len() {
            for len in 0..=20.min(data.len() - start) {
                let mut out = b"x".to_vec();
                write_verbatim_bytes(&mut out, &data, start, start + len);
                let mut expected = b"x\"".to_vec();
                expected.extend_from_slice(&data[start..start + len]);
                expected.push(b'"');
                assert_eq!(out, expected, "{len} bytes at {start}");
            }
        }
    }

    #[test]
    fn plain_ascii_is_jacksons_text_or_declined_for_every_byte_at_every_position() {
        // Every byte value at every position of strings of 0 to 20 bytes: the short loop, whole words and the
        // overlapping tail. Plain ASCII must be written as Jackson writes it; anything else must be declined
        // (left to the UTF-8 check and the escaping loop), leaving `out` as it was.
        for len in 0..=20 {
            for at in 0..len.max(1) {
                for byte in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    if len > 0 {
                        bytes[at] = byte;
                    }
                    let mut out = b"x".to_vec();
                    let plain = byte.is_ascii() && byte >= 0x20 && byte != b'"' && byte != b'\\';
                    assert_eq!(
                        write_plain_ascii(&mut out, &bytes),
                        plain || len == 0,
                        "{byte:#x} at {at} of {len}"
                    );
                    if plain || len == 0 {
                        let mut expected = b"x".to_vec();
                        write_jackson_str(&mut expected, std::str::from_utf8(&bytes).unwrap());
                        assert_eq!(out, expected, "{byte:#x} at {at} of {len}");
                    } else {
                        assert_eq!(out, b"x", "{byte:#x} at {at} of {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn needs_escaping_finds_every_class_at_every_position() {
        for len in 0..40 {
            let clean = "a".repeat(len);
            assert!(
                !needs_escaping::<true>(clean.as_bytes())
                    && !needs_escaping::<false>(clean.as_bytes())
            );
            for at in 0..len {
                for (hit, jackson_only) in [
                    ("\"", false),
                    ("\\", false),
                    ("\u{1}", false),
                    ("\u{1f}", false),
                    ("\u{1f600}", true),
                ] {
                    let s = format!("{}{hit}{}", &clean[..at], &clean[at..]);
                    assert!(needs_escaping::<true>(s.as_bytes()), "{s:?}");
                    assert_eq!(
                        needs_escaping::<false>(s.as_bytes()),
                        !jackson_only,
                        "{s:?}"
                    );
                }
            }
        }
        assert!(!needs_escaping::<true>(
            "caf\u{e9} / \u{2028} \u{7f} \u{ffff}".as_bytes()
        ));
    }

    /// The vector scans (AVX2 when this CPU has it, and SSE2 always) and the scalar tail against the byte rule:
    /// every byte value at every position of buffers around one and two steps of each.
    #[test]
    fn needs_escaping_matches_the_byte_rule_for_every_byte_at_every_position() {
        for len in [63, 64, 65, 127, 128, 129, 255, 256, 300] {
            let mut bytes = vec![b'a'; len];
            for at in 0..len {
                for b in 0..=255u8 {
                    bytes[at] = b;
                    #[cfg(target_arch = "x86_64")]
                    {
                        let sse2 = |j: bool| {
                            let (hit, rest) = if j {
                                sse2::scan::<true>(&bytes)
                            } else {
                                sse2::scan::<false>(&bytes)
                            };
                            hit || if j {
                                swar_needs_escaping::<true>(rest)
                            } else {
                                swar_needs_escaping::<false>(rest)
                            }
                        };
                        assert_eq!(
                            sse2(true),
                            needs_attention::<true>(b),
                            "SSE2: {b:#04x} at {at} of {len}"
                        );
                        assert_eq!(
                            sse2(false),
                            needs_attention::<false>(b),
                            "SSE2: {b:#04x} at {at} of {len}"
                        );
                    }
                    assert_eq!(
                        needs_escaping::<true>(&bytes),
                        needs_attention::<true>(b),
                        "{b:#04x} at {at} of {len}"
                    );
                    assert_eq!(
                        needs_escaping::<false>(&bytes),
                        needs_attention::<false>(b),
                        "{b:#04x} at {at} of {len}"
                    );
                }
                bytes[at] = b'a';
            }
        }
    }

    /// Small enough for Miri (`scripts/miri.sh`): the vector scan's loads over whole steps and the tail, clean
    /// and with a hit in each of the four vectors of a step and in the tail.
    #[test]
    fn miri_unsafe_paths_of_the_scan() {
        let clean = vec![b'x'; 150];
        assert!(!needs_escaping::<true>(&clean) && !needs_escaping::<false>(&clean));
        for at in [0, 17, 40, 63, 64, 127, 128, 149] {
            let mut bytes = clean.clone();
            bytes[at] = b'"';
            assert!(needs_escaping::<false>(&bytes), "{at}");
            bytes[at] = 0xF0;
            assert!(
                needs_escaping::<true>(&bytes) && !needs_escaping::<false>(&bytes),
                "{at}"
            );
        }
    }

    /// Small enough for Miri (`scripts/miri.sh`): every path of the unsafe scan-and-store loop (clean words,
    /// a hit in a word, the overlapping tail store, the byte tail, escapes that grow the output, a 4-byte
    /// character) on a vector that starts without spare capacity.
    #[test]
    fn miri_unsafe_paths() {
        let cases = [
            ("", "\"\""),
            ("abc", "\"abc\""),
            ("abcdefgh", "\"abcdefgh\""),
            ("abcdefghij", "\"abcdefghij\""),
            ("abc\u{1}defghijklmnop", "\"abc\\u0001defghijklmnop\""),
            ("abcdefghijklmn\"", "\"abcdefghijklmn\\\"\""),
            ("\u{1f600}bcdefghijk\n", "\"\\uD83D\\uDE00bcdefghijk\\n\""),
            (
                "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
                "\"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\"",
            ),
        ];
        for (input, expected) in cases {
            let mut out = Vec::new();
            write_jackson_str(&mut out, input);
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{input:?}");
            let mut out = Vec::with_capacity(1);
            write_serde_str(&mut out, input);
            assert_eq!(
                out,
                serde_json::to_string(input).unwrap().into_bytes(),
                "{input:?}"
            );
        }
    }

    fn jackson(s: &str) -> String {
        let mut out = Vec::new();
        write_jackson_str(&mut out, s);
        String::from_utf8(out).expect("escaper must write UTF-8")
    }

    fn serde(s: &str) -> String {
        let mut out = Vec::new();
        write_serde_str(&mut out, s);
        String::from_utf8(out).expect("escaper must write UTF-8")
    }

    /// A char-at-a-time model of Jackson's rules (docs/json-format.md), independent of the SWAR code.
    fn jackson_model(s: &str) -> String {
        let mut t = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => t.push_str("\\\""),
                '\\' => t.push_str("\\\\"),
                '\u{8}' => t.push_str("\\b"),
                '\t' => t.push_str("\\t"),
                '\n' => t.push_str("\\n"),
                '\u{c}' => t.push_str("\\f"),
                '\r' => t.push_str("\\r"),
                '\0'..='\u{1f}' => t.push_str(&format!("\\u{:04X}", c as u32)),
                '\u{10000}'.. => {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        t.push_str(&format!("\\u{:04X}", unit));
                    }
                }
                _ => t.push(c),
            }
        }
        t.push('"');
        t
    }

    fn reference_serde(s: &str) -> String {
        serde_json::to_string(s).expect("serde_json string")
    }

    #[test]
    fn json_parity_2_2_golden_strings() {
        for (s, want) in [
            ("a\u{1}b", r#""a\u0001b""#),
            ("\u{1f}\u{7f}", "\"\\u001F\u{7f}\""),
            ("q\"q", r#""q\"q""#),
            ("b\\s", r#""b\\s""#),
            ("sl/ash", r#""sl/ash""#),
            ("\u{8}\t\n\u{c}\r", r#""\b\t\n\f\r""#),
            ("\0", r#""\u0000""#),
            ("café", "\"café\""),
            ("emoji\u{1F600}", r#""emoji\uD83D\uDE00""#),
            ("ls\u{2028}ps\u{2029}", "\"ls\u{2028}ps\u{2029}\""),
            ("we\"ird\u{1}", r#""we\"ird\u0001""#),
            ("", r#""""#),
        ] {
            assert_eq!(jackson(s), want, "Jackson escape of {s:?}");
        }
        // arrow-json 60.1.0 observed lines.
        for (s, want) in [
            ("a\u{1}b", r#""a\u0001b""#),
            ("\u{1f}\u{7f}", "\"\\u001f\u{7f}\""),
            ("emoji\u{1F600}", "\"emoji\u{1F600}\""),
            ("ls\u{2028}ps\u{2029}", "\"ls\u{2028}ps\u{2029}\""),
        ] {
            assert_eq!(serde(s), want, "serde escape of {s:?}");
        }
    }

    #[test]
    fn every_ascii_code_point() {
        for b in 0u8..128 {
            let s = (b as char).to_string();
            let want = match b {
                b'"' => "\\\"".to_owned(),
                b'\\' => "\\\\".to_owned(),
                0x08 => "\\b".to_owned(),
                0x09 => "\\t".to_owned(),
                0x0A => "\\n".to_owned(),
                0x0C => "\\f".to_owned(),
                0x0D => "\\r".to_owned(),
                0x00..=0x1F => format!("\\u{b:04X}"),
                _ => s.clone(),
            };
            assert_eq!(
                jackson(&s),
                format!("\"{want}\""),
                "Jackson, code point {b:#04x}"
            );
            assert_eq!(serde(&s), reference_serde(&s), "serde, code point {b:#04x}");
            // Only the upper-case hex letters differ between the two.
            assert_eq!(
                jackson(&s).to_ascii_lowercase(),
                serde(&s).to_ascii_lowercase(),
                "{b:#04x}"
            );
        }
        assert_eq!(serde("\u{b}\u{1f}"), r#""\u000b\u001f""#);
        assert_eq!(jackson("\u{b}\u{1f}"), r#""\u000B\u001F""#);
    }

    #[test]
    fn non_ascii() {
        for (s, want) in [
            ("\u{1F600}", r#""\uD83D\uDE00""#),
            ("\u{10000}", r#""\uD800\uDC00""#),
            ("\u{10FFFF}", r#""\uDBFF\uDFFF""#),
            ("\u{FFFF}", "\"\u{FFFF}\""),
            (
                "\u{FEFF}\u{80}\u{9F}\u{A0}",
                "\"\u{FEFF}\u{80}\u{9F}\u{A0}\"",
            ),
            ("\u{2028}", "\"\u{2028}\""),
            ("abcdefg\u{1F600}", r#""abcdefg\uD83D\uDE00""#),
            ("abcdefgh\u{1F600}", r#""abcdefgh\uD83D\uDE00""#),
            (
                "\u{1F600}\u{1F600}\u{1F600}",
                r#""\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00""#,
            ),
        ] {
            assert_eq!(jackson(s), want, "Jackson escape of {s:?}");
            assert_eq!(serde(s), reference_serde(s), "serde escape of {s:?}");
        }
        let many = "\u{1F600}x".repeat(5000);
        assert_eq!(jackson(&many), jackson_model(&many));
        assert_eq!(jackson(&many).matches("\\uD83D\\uDE00").count(), 5000);
    }

    /// Every escape class at every position of strings of length 0..=17 (word boundaries and tails).
    #[test]
    fn escape_at_every_position() {
        // The two-byte classes put the byte a borrow would spuriously flag right after a hit.
        let classes = [
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "é",
            "\u{2028}",
            "\u{1F600}",
            "\u{10FFFF}",
            "\u{1} ",
            "\"#",
            "\\]",
            "\u{0}\u{1}",
        ];
        for len in 0..=17 {
            for pos in 0..=len {
                for class in classes {
                    for filler in ["a", "\u{1}"] {
                        let s =
                            format!("{}{class}{}", filler.repeat(pos), filler.repeat(len - pos));
                        assert_eq!(
                            jackson(&s),
                            jackson_model(&s),
                            "Jackson, len {len} pos {pos} {class:?}"
                        );
                        assert_eq!(
                            serde(&s),
                            reference_serde(&s),
                            "serde, len {len} pos {pos} {class:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn long_runs() {
        let plain = "The quick brown fox jumps over the lazy dog / 0123456789 ".repeat(100);
        assert_eq!(jackson(&plain), format!("\"{plain}\""));
        assert_eq!(serde(&plain), format!("\"{plain}\""));
        let controls: String = (0u8..0x20).map(char::from).collect::<String>().repeat(50);
        assert_eq!(jackson(&controls), jackson_model(&controls));
        assert_eq!(serde(&controls), reference_serde(&controls));
    }

    /// Random strings mixing every class, compared with serde_json itself and with the Jackson model.
    #[test]
    fn random_strings_against_references() {
        let pool: Vec<char> = "aZ09 /<>&'\"\\\u{0}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{1a}\u{1f}\u{7f}\u{80}\u{9f}\u{a0}é\u{7ff}\u{800}\u{2028}\u{2029}\u{d7ff}\u{e000}\u{feff}\u{fffd}\u{ffff}\u{10000}\u{1F600}\u{10FFFF}".chars().collect();
        let mut state = 0x0e5c_a9e5_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let plain_bias = next() % 4;
            let s: String = (0..len)
                .map(|_| {
                    if next() % 4 < plain_bias {
                        'x'
                    } else {
                        pool[(next() % pool.len() as u64) as usize]
                    }
                })
                .collect();
            assert_eq!(jackson(&s), jackson_model(&s), "Jackson escape of {s:?}");
            assert_eq!(serde(&s), reference_serde(&s), "serde escape of {s:?}");
        }
    }

    #[test]
    fn appends_without_clearing() {
        let mut out = b"{".to_vec();
        write_jackson_str(&mut out, "k");
        out.push(b':');
        write_serde_str(&mut out, "v\u{1f}");
        assert_eq!(out, b"{\"k\":\"v\\u001f\"");
    }
}
