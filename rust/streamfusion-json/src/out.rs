//! Small, branch-light appends into a slab `Vec<u8>`: the hot path of the Flink-mode row encoder.
//!
//! `Vec::extend_from_slice` calls `memmove` for every copy; for the 2-to-30-byte pieces a JSON row is made of
//! (field names, numbers, dates) the call costs more than the copy. These helpers reserve a little slack, copy
//! fixed-size chunks (which compile to a few vector moves) into the spare capacity, and then set the length to
//! the bytes that count. Bytes written past the new length stay in spare capacity, where they are simply
//! overwritten by the next append.

/// Bytes copied per chunk by [`Padded`] appends.
pub(crate) const CHUNK: usize = 16;

/// A byte string stored with `CHUNK` bytes of zero padding so it can be copied in whole chunks.
#[derive(Debug, Clone)]
pub(crate) struct Padded {
    bytes: Box<[u8]>,
    len: usize,
}

impl Padded {
    /// Stores `text` with padding.
    pub(crate) fn new(text: &[u8]) -> Self {
        let mut bytes = Vec::with_capacity(text.len() + CHUNK);
        bytes.extend_from_slice(text);
        bytes.resize(text.len() + CHUNK, 0);
        Self {
            bytes: bytes.into_boxed_slice(),
            len: text.len(),
        }
    }

    /// Appends the text, skipping its first `skip` bytes (`skip <= len`).
    #[inline(always)]
    pub(crate) fn append(&self, out: &mut Vec<u8>, skip: usize) {
        debug_assert!(skip <= self.len);
        let n = self.len - skip;
        out.reserve(n + CHUNK);
        let at = out.len();
        // SAFETY: `reserve` guarantees `n + CHUNK` writable bytes after `at`. Each chunk copy reads
        // `src + c .. src + c + CHUNK` with `c < n`, so at most `skip + n - 1 + CHUNK < self.bytes.len()`: inside the
        // padded box, a distinct allocation. It writes `at + c .. at + c + CHUNK <= at + n + CHUNK`. The first `n`
        // bytes written are the text, so the new length exposes only initialised bytes.
        unsafe {
            let dst = out.as_mut_ptr().add(at);
            let src = self.bytes.as_ptr().add(skip);
            std::ptr::copy_nonoverlapping(src, dst, CHUNK);
            let mut c = CHUNK;
            while c < n {
                std::ptr::copy_nonoverlapping(src.add(c), dst.add(c), CHUNK);
                c += CHUNK;
            }
            out.set_len(at + n);
        }
    }
}

impl Padded {
    /// Writes the text at `dst` in whole chunks and returns its length; the up to `CHUNK - 1` bytes written past
    /// it are padding for the next write to overwrite.
    ///
    /// # Safety
    /// `dst .. dst + len + CHUNK` must be writable and must not overlap the text.
    #[inline(always)]
    pub(crate) unsafe fn put(&self, dst: *mut u8) -> usize {
        let src = self.bytes.as_ptr();
        // SAFETY: each chunk reads `src + c .. src + c + CHUNK` with `c < len` (or `c = 0`), inside the padded box
        // of `len + CHUNK` bytes, and writes `dst + c .. dst + c + CHUNK <= dst + len + CHUNK`, writable by the
        // caller's contract.
        unsafe {
            std::ptr::copy_nonoverlapping(src, dst, CHUNK);
            let mut c = CHUNK;
            while c < self.len {
                std::ptr::copy_nonoverlapping(src.add(c), dst.add(c), CHUNK);
                c += CHUNK;
            }
        }
        self.len
    }

    /// The text's length in bytes (without the padding).
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// The most bytes [`put_i64`] writes: `-9223372036854775808`.
pub(crate) const I64_WIDTH: usize = 20;

/// Writes the decimal text of `v` (as [`write_i64`]) at `dst` and returns its length.
///
/// # Safety
/// `dst .. dst + I64_WIDTH` must be writable.
#[inline(always)]
pub(crate) unsafe fn put_i64(dst: *mut u8, v: i64) -> usize {
    let sign = usize::from(v < 0);
    let abs = v.unsigned_abs();
    let n = decimal_digits(abs);
    // SAFETY: a magnitude of at most 2^63 has at most 19 digits, so `put_digits` writes at most
    // `sign + max(n, 8) <= I64_WIDTH` bytes, inside the caller's range (the `-` at `dst` is overwritten by the
    // first digit when `v >= 0`).
    unsafe {
        *dst = b'-';
        put_digits(dst.add(sign), n, abs);
    }
    sign + n
}

/// `"00".."99"`, two ASCII digits per entry.
pub(crate) const DIGITS2: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends the decimal text of `v` (as Java's `Long.toString`, which Jackson uses for integers).
#[inline]
pub(crate) fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

/// Appends the decimal text of `v`.
#[inline]
pub(crate) fn write_u64(out: &mut Vec<u8>, v: u64) {
    let n = decimal_digits(v);
    out.reserve(20);
    let at = out.len();
    // SAFETY: `reserve(20)` makes `at..at + 20` writable, and `put_digits` writes at most `max(n, 8) <= 20`
    // bytes, the digits at `at..at + n`, so the new length exposes only initialised bytes.
    unsafe {
        put_digits(out.as_mut_ptr().add(at), n, v);
        out.set_len(at + n);
    }
}

/// `10^0..=10^19`, every power of ten a `u64` holds.
pub(crate) const POW10: [u64; 20] = {
    let mut p = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        p[i] = p[i - 1] * 10;
        i += 1;
    }
    p
};

/// Number of decimal digits of `v` (1 for 0).
#[inline(always)]
pub(crate) fn decimal_digits(v: u64) -> usize {
    // `t` = floor(log10(2^bits)) (1233/4096 ~ log10 2) is the digit count or one less; `v | 1` keeps 0 at one
    // digit and crosses no power of ten (those are even, or 1).
    let v = v | 1;
    let t = ((64 - v.leading_zeros() as usize) * 1233) >> 12;
    t + usize::from(v >= POW10[t])
}

/// Writes the `n` decimal digits of `v` at `dst .. dst + n`, without a data-dependent branch within a range:
/// below 10^8 (ids, counters, prices) one 8-byte store writes the eight digits of [`eight_digits`] shifted to the
/// last `n` (its other bytes are padding for the next write to overwrite), so a column of varying widths costs no
/// mispredicted branch per value. Larger values are cut into groups of eight digits (one or two divisions by
/// 10^8) written the same way, the highest group first, each later one over the previous one's padding.
///
/// # Safety
/// `dst .. dst + max(n, 8)` must be writable, and `n` must be the digit count of `v`.
#[inline(always)]
pub(crate) unsafe fn put_digits(dst: *mut u8, n: usize, v: u64) {
    const GROUP: u64 = 100_000_000;
    // SAFETY (every store below): `n` is `v`'s digit count, so each store of eight bytes at `dst + k` has
    // `k + 8 <= max(n, 8)`: the first at `dst`, the later ones ending at `dst + n - 8` and `dst + n`.
    // Little-endian: the most significant digit in the lowest byte; dropping leading zeros is a right shift.
    let put = |at: usize, digits: u64| unsafe {
        dst.add(at).cast::<u64>().write_unaligned(digits.to_le())
    };
    if v < GROUP {
        put(0, eight_digits(v as u32) >> ((8 - n) * 8));
        return;
    }
    let (high, low) = (v / GROUP, (v % GROUP) as u32);
    if high < GROUP {
        put(0, eight_digits(high as u32) >> ((16 - n) * 8));
    } else {
        // 17 to 20 digits: the top one to four, then eight.
        let (top, middle) = ((high / GROUP) as u32, (high % GROUP) as u32);
        put(0, eight_digits(top) >> ((24 - n) * 8));
        put(n - 16, eight_digits(middle));
    }
    put(n - 8, eight_digits(low));
}

/// The eight decimal digits of `v < 10^8`, leading zeros included, as ASCII in the bytes of a `u64`, the most
/// significant digit in the lowest byte (little-endian memory order): two divisions and four table pairs.
#[inline(always)]
fn eight_digits(v: u32) -> u64 {
    let (hi, lo) = ((v / 10_000) as usize, (v % 10_000) as usize);
    let pair = |p: usize| [DIGITS2[p * 2], DIGITS2[p * 2 + 1]];
    let [a, b] = pair(hi / 100);
    let [c, d] = pair(hi % 100);
    let [e, f] = pair(lo / 100);
    let [g, h] = pair(lo % 100);
    u64::from_le_bytes([a, b, c, d, e, f, g, h])
}

/// Appends `src[..n]` with one fixed-size copy of all `N` bytes (no `memmove` call for small `N`).
///
/// # Panics
/// If `n > N`.
#[inline(always)]
pub(crate) fn append_fixed<const N: usize>(out: &mut Vec<u8>, src: &[u8; N], n: usize) {
    assert!(n <= N);
    out.reserve(N);
    let at = out.len();
    // SAFETY: `reserve(N)` makes `at..at + N` writable; all `N` source bytes are initialised and the buffers are
    // distinct; only the first `n <= N` become part of the vector.
    unsafe {
        std::ptr::copy_nonoverlapping(src.as_ptr(), out.as_mut_ptr().add(at), N);
        out.set_len(at + n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_appends_with_and_without_skip() {
        for len in 0..40 {
            let text: Vec<u8> = (0..len as u8).map(|b| b'a' + b % 26).collect();
            let p = Padded::new(&text);
            for skip in [0, len.min(1)] {
                let mut out = b"x".to_vec();
                p.append(&mut out, skip);
                assert_eq!(&out[1..], &text[skip..]);
            }
        }
    }

    #[test]
    fn integers_match_std() {
        let mut cases = vec![
            0i64,
            1,
            9,
            10,
            99,
            100,
            101,
            12345,
            -1,
            -10,
            i64::MIN,
            i64::MAX,
            i64::MIN + 1,
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push(x as i64 >> (x % 64));
        }
        for v in cases {
            let mut out = vec![b'['];
            write_i64(&mut out, v);
            assert_eq!(out, format!("[{v}").into_bytes());
        }
        for shift in 0..64 {
            for v in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
                let mut out = Vec::new();
                write_u64(&mut out, v);
                assert_eq!(out, v.to_string().into_bytes());
            }
        }
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            for v in [p - 1, p, p + 1, next - 1] {
                let mut out = Vec::new();
                write_u64(&mut out, v);
                assert_eq!(out, v.to_string().into_bytes());
            }
            p = next;
        }
        let mut out = Vec::new();
        write_u64(&mut out, u64::MAX);
        assert_eq!(out, u64::MAX.to_string().into_bytes());
    }

    #[test]
    fn put_i64_and_put_write_in_place() {
        for v in [
            0i64,
            7,
            -7,
            10,
            -99,
            1234567,
            i64::MIN,
            i64::MAX,
            i64::MIN + 1,
        ] {
            let mut buf = [b'#'; I64_WIDTH + 1];
            // SAFETY: the buffer has `I64_WIDTH` writable bytes.
            let n = unsafe { put_i64(buf.as_mut_ptr(), v) };
            assert_eq!(&buf[..n], v.to_string().as_bytes());
            assert_eq!(buf[I64_WIDTH], b'#');
        }
        for len in [0, 1, 15, 16, 17, 40] {
            let text: Vec<u8> = (0..len as u8).map(|b| b'a' + b % 26).collect();
            let mut buf = vec![0u8; len + CHUNK];
            // SAFETY: `len + CHUNK` writable bytes, a distinct allocation.
            assert_eq!(unsafe { Padded::new(&text).put(buf.as_mut_ptr()) }, len);
            assert_eq!(&buf[..len], &text[..]);
        }
    }

    #[test]
    fn append_fixed_exposes_only_n() {
        let mut out = Vec::new();
        append_fixed(&mut out, b"2024-01-02......", 10);
        append_fixed(&mut out, b"+10000-01-01....", 12);
        assert_eq!(out, b"2024-01-02+10000-01-01");
    }
}
