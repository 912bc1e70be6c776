//! Java `Double.toString` / `Float.toString` text of JDK 17 and earlier, as Jackson writes FLOAT/DOUBLE for
//! Flink on those JVMs.
//!
//! Up to JDK 18 both methods print the digits of `jdk.internal.math.FloatingDecimal`
//! (`BinaryToASCIIBuffer.dtoa`, from `sun.misc.FloatingDecimal` of JDK 1.x). They are not always the
//! shortest decimal that rounds back, the digits JDK 19+ prints ([`super::float`], JDK-4511638):
//!
//! | value | JDK 17 | JDK 19+ |
//! |---|---|---|
//! | `2e23` | `1.9999999999999998E23` | `2.0E23` |
//! | `8.41e21` | `8.409999999999999E21` | `8.41E21` |
//! | `9.5e21` | `9.500000000000001E21` | `9.5E21` |
//! | `2^62` | `4.6116860184273879E18` | `4.611686018427388E18` |
//! | `2 * Double.MIN_VALUE` (subnormal) | `1.0E-323` | `9.9E-324` |
//! | the float `3.2892086E10` | `3.28920863E10` | `3.2892086E10` |
//!
//! This module reproduces `FloatingDecimal` step by step, so that its quirks come out the same:
//!
//! * integers below 2^63 (binary exponent 0..=62) are printed from their exact value, with the digits below
//!   the precision of the type rounded half up (`developLongDigits`), so large integers can keep a
//!   non-shortest digit;
//! * every other value estimates its decimal exponent from a linear approximation of `log10`
//!   (`estimateDecExp`) and generates digits `B / S` one at a time until the remainder is within half an ulp
//!   `M` of either neighbour, using a *symmetric* ulp also below powers of two (halved there once, a "HACK"
//!   in the original);
//! * for `|d| < 1e-3` or `|d| >= 1e8` (the original's test for its scientific layout, one decade off at the
//!   top: the layout switches at `1e7`) the stopping test is skipped after the first digit, so at least two
//!   digits are generated;
//! * the last digit is rounded up when the remainder passes the midpoint (ties to an even last digit),
//!   a carry out of `9.99..` leaves trailing zeros in place (`roundup`);
//! * the digit loop runs in `int`, `long` or big-integer arithmetic depending on the operands' sizes, and the
//!   three differ: the `int`/`long` loops let the half-ulp overflow (wrapping, two's complement) and stop on
//!   `B + M > 10S`, the big-integer loop stops on `B + M >= 10S`. All three are kept.
//!
//! Floats go through the same routine with their 24-bit significand widened to the double's 53-bit position
//! and their own significant-bit count. Layout and quoting are those of [`super::float`] (`getChars`).
//!
//! Not in the original, for speed, with the original's output:
//!
//! * the digit loop is first taken in one 128-by-64-bit multiplication against a table of powers of ten
//!   ([`digits_fast`]), which finds where the loop stops from the first 18 digits of the value and of its
//!   neighbours half an ulp away. Where that approximation cannot decide (ties, exact boundaries, the fixed-width
//!   loops' wrapping: about 0.1% of random doubles, none of a sample of prices, 0.2% of values in `[0, 1)`
//!   (where the original's `long` loop wraps), 7% of random floats, mostly floats from about 1e3 to 1e19 whose
//!   neighbours are exact 18-digit decimals), the
//!   exact loops run. Against the exact loops alone (medians per double, one core of the development VM): 24
//!   times faster for random bit patterns (whose exact loop needs big integers), 3 to 7 times for values in
//!   `[0, 1000)` with a fraction, 1.4 times for prices with two decimals (whose exact loop runs in `long`);
//! * the exponent estimate is read from a table per binary exponent ([`estimate_dec_exp_by_table`]) instead of
//!   being computed in dependent double operations, with the same result.
//!
//! Source: OpenJDK 17's `jdk/internal/math/FloatingDecimal.java` (`getBinaryToASCIIConverter`,
//! `BinaryToASCIIBuffer.dtoa`, `developLongDigits`, `estimateDecExp`, `roundup`, `getChars`) and
//! `FDBigInteger.java` (whose operations are exact integer arithmetic; here [`Big`]). Pinned by
//! `tests/data/java_float_to_string_jdk17.txt`, printed by a real JDK 17.

use std::cmp::Ordering;

use super::float::{write_decimal_java, write_non_finite, Decimal};
use crate::out::POW10;

/// Appends `v` as Flink's `json` format writes a DOUBLE on JDK 17 and earlier: Java `Double.toString`
/// (`FloatingDecimal` digits), NaN/±Infinity quoted.
///
/// Source of truth: `java.lang.Double.toString(double)` on JDK 17 (verified against OpenJDK 17.0.15, see
/// `tests/data/java_float_to_string_jdk17.txt`), as called by Jackson's `NumberOutput.toString`; the quoting of
/// non-finite values is Jackson's `JsonWriteFeature.WRITE_NAN_AS_STRINGS` default.
pub(crate) fn write_f64_jdk17(out: &mut Vec<u8>, v: f64) {
    if !v.is_finite() {
        write_non_finite(out, v.is_nan(), v.is_sign_negative());
        return;
    }
    let bits = v.to_bits();
    let negative = bits >> 63 != 0;
    let fraction = bits & ((1 << 52) - 1);
    let biased = ((bits >> 52) & 0x7ff) as i32;
    // getBinaryToASCIIConverter(double): normalise subnormals so that the hidden bit (2^52) is set.
    let (fract_bits, bin_exp, n_significant_bits) = if biased == 0 {
        if fraction == 0 {
            out.extend_from_slice(if negative { b"-0.0" } else { b"0.0" });
            return;
        }
        let leading_zeros = fraction.leading_zeros() as i32;
        let shift = leading_zeros - (63 - 52);
        (fraction << shift, 1 - shift - 1023, 64 - leading_zeros)
    } else {
        (fraction | 1 << 52, biased - 1023, 53)
    };
    write_digits(
        out,
        negative,
        &dtoa(bin_exp, fract_bits, n_significant_bits),
    );
}

/// Appends `v` as Flink's `json` format writes a FLOAT on JDK 17 and earlier: Java `Float.toString`
/// (`FloatingDecimal` digits), NaN/±Infinity quoted.
///
/// Source of truth: `java.lang.Float.toString(float)` on JDK 17 (verified against OpenJDK 17.0.15, see
/// `tests/data/java_float_to_string_jdk17.txt`, and against all 2^32 bit patterns once:
/// `matches_jdk17_on_every_float`), as called by Jackson's `NumberOutput.toString`.
pub(crate) fn write_f32_jdk17(out: &mut Vec<u8>, v: f32) {
    if !v.is_finite() {
        write_non_finite(out, v.is_nan(), v.is_sign_negative());
        return;
    }
    let bits = v.to_bits();
    let negative = bits >> 31 != 0;
    let fraction = bits & ((1 << 23) - 1);
    let biased = ((bits >> 23) & 0xff) as i32;
    // getBinaryToASCIIConverter(float): as for double, then the significand moves to the double's position.
    let (fract_bits, bin_exp, n_significant_bits) = if biased == 0 {
        if fraction == 0 {
            out.extend_from_slice(if negative { b"-0.0" } else { b"0.0" });
            return;
        }
        let leading_zeros = fraction.leading_zeros() as i32;
        let shift = leading_zeros - (31 - 23);
        (fraction << shift, 1 - shift - 127, 32 - leading_zeros)
    } else {
        (fraction | 1 << 23, biased - 127, 24)
    };
    write_digits(
        out,
        negative,
        &dtoa(
            bin_exp,
            u64::from(fract_bits) << (52 - 23),
            n_significant_bits,
        ),
    );
}

fn write_digits(out: &mut Vec<u8>, negative: bool, d: &Decimal) {
    if negative {
        out.push(b'-');
    }
    write_decimal_java(out, d);
}

/// `5^0..=5^26`: `FDBigInteger.LONG_5_POW` (its length bounds the fast path).
const LONG_5_POW: [u64; 27] = {
    let mut t = [1u64; 27];
    let mut i = 1;
    while i < 27 {
        t[i] = t[i - 1] * 5;
        i += 1;
    }
    t
};

/// `FloatingDecimal.N_5_BITS`: the bit length of `5^i`, `i < 27`.
const N_5_BITS: [i32; 27] = [
    0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56,
    59, 61,
];

/// `FloatingDecimal.insignificantDigitsNumber`: decimal digits of `2^i` minus one, `i < 64`.
const INSIGNIFICANT_DIGITS_NUMBER: [i32; 64] = [
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16,
    16, 17, 17, 17, 18, 18, 18, 19,
];

/// `insignificantDigitsForPow2`: how many low decimal digits of an integer are below the precision of a
/// type when the integer exceeds it by the factor `2^(p2 + 1)`.
fn insignificant_digits_for_pow2(p2: i32) -> i32 {
    if p2 > 1 && p2 < 64 {
        INSIGNIFICANT_DIGITS_NUMBER[p2 as usize]
    } else {
        0
    }
}

/// `estimateDecExp`: `floor(log10(d))` from a linear approximation of `log10` of the significand, in the
/// original's double arithmetic (never too low, sometimes one too high; the digit loop corrects that).
// The original's constants, not `LOG10_2`: the estimate must be the same double.
#[allow(clippy::approx_constant)]
fn estimate_dec_exp(fract_bits: u64, bin_exp: i32) -> i32 {
    let d2 = f64::from_bits((1023u64 << 52) | (fract_bits & ((1 << 52) - 1)));
    let d = (d2 - 1.5) * 0.289529654 + 0.176091259 + f64::from(bin_exp) * 0.301029995663981;
    // The original floors through the bit pattern; for these magnitudes that is `floor`, here without a libm
    // call (x86-64's baseline has no rounding instruction): truncation, one less below zero when inexact.
    let t = d as i32;
    t - i32::from(f64::from(t) > d)
}

/// [`estimate_dec_exp`] by table lookup, for `bin_exp` in `-1074..=1023` (every finite nonzero double and
/// float), without its chain of dependent floating-point operations.
///
/// Within one binary exponent the estimate is a non-decreasing function of the fraction (each of its double
/// operations is correctly rounded, hence monotone) and rises by at most one over the binade (the fraction's
/// term spans less than 0.29). So it is its value at the fraction zero, plus one from a threshold fraction on;
/// the table holds both per exponent, found once by bisection on [`estimate_dec_exp`] itself.
fn estimate_dec_exp_by_table(fract_bits: u64, bin_exp: i32) -> i32 {
    const FRACTION: u64 = (1 << 52) - 1;
    let entry = estimate_table()[(bin_exp + 1074) as usize];
    let base = (entry >> 53) as i32 - ESTIMATE_BIAS;
    base + i32::from(fract_bits & FRACTION >= entry & ((1 << 53) - 1))
}

/// Added to an estimate in [`estimate_table`]'s top 11 bits (estimates span `-324..=308`).
const ESTIMATE_BIAS: i32 = 512;

/// Per binary exponent `-1074..=1023`: `(estimate at the fraction zero + ESTIMATE_BIAS) << 53 | threshold`,
/// the threshold being the smallest fraction whose estimate is one more, or `2^52` (none).
fn estimate_table() -> &'static [u64] {
    static TABLE: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (-1074..=1023)
            .map(|bin_exp| {
                let at = |fraction: u64| estimate_dec_exp(1 << 52 | fraction, bin_exp);
                let (base, last) = (at(0), (1u64 << 52) - 1);
                let threshold = if at(last) == base {
                    1 << 52
                } else {
                    // at(low) == base, at(high) == base + 1.
                    let (mut low, mut high) = (0, last);
                    while high - low > 1 {
                        let mid = low + (high - low) / 2;
                        if at(mid) > base {
                            high = mid;
                        } else {
                            low = mid;
                        }
                    }
                    high
                };
                ((base + ESTIMATE_BIAS) as u64) << 53 | threshold
            })
            .collect()
    })
}

/// The digit loops build their [`Decimal`] a digit at a time, with `BinaryToASCIIBuffer`'s `roundup`.
impl Decimal {
    /// No digits yet.
    fn empty() -> Self {
        Decimal {
            digits: 0,
            len: 0,
            point: 0,
        }
    }

    fn push(&mut self, q: u8) {
        // At most 18 digits come out of the loops (the half-ulp grows tenfold a digit); the guard only keeps
        // an impossible 20th digit from overflowing.
        if self.len < 19 {
            self.digits = self.digits * 10 + u64::from(q);
            self.len += 1;
        }
    }

    /// `roundup` when `up`, else nothing: adds one to the last digit; a carry out of all nines makes `1`
    /// followed by the zeros the nines became (the digit count is kept) and one more decimal exponent.
    #[inline(always)]
    fn round_up_by(&mut self, up: bool) {
        self.digits += u64::from(up);
        if self.digits == POW10[self.len] {
            self.digits = POW10[self.len - 1];
            self.point += 1;
        }
    }
}

/// `developLongDigits(0, lvalue, insignificant)`: the digits of the integer `value`, its lowest
/// `insignificant` digits rounded half up away first, trailing zeros dropped.
fn develop_long_digits(mut value: u64, insignificant: i32) -> Decimal {
    let mut point = 0;
    if insignificant != 0 {
        let pow10 = LONG_5_POW[insignificant as usize] << insignificant;
        let residue = value % pow10;
        value /= pow10;
        point += insignificant;
        if residue >= pow10 >> 1 {
            value += 1;
        }
    }
    // The original skips the trailing zeros, then counts the digits left.
    while value != 0 && value.is_multiple_of(10) {
        value /= 10;
        point += 1;
    }
    let len = crate::out::decimal_digits(value);
    Decimal {
        digits: value,
        len,
        point: point + len as i32,
    }
}

/// Where the digit loop stopped: the last remainder was within half an ulp of the lower (`low`) or of the
/// upper (`high`) neighbour; `low_digit_difference` is the sign of `2 * remainder - 10S` when both hold.
struct Stop {
    low: bool,
    high: bool,
    low_digit_difference: i64,
}

/// The digit loop of `dtoa` in fixed-width two's complement arithmetic (`int` or `long` in the original),
/// overflow of the half-ulp `m` included.
macro_rules! fixed_width_digits {
    ($name:ident, $t:ty) => {
        fn $name(mut b: $t, s: $t, mut m: $t, dec_exp: &mut i32, out: &mut Decimal) -> Stop {
            let tens = s.wrapping_mul(10);
            // The first iteration is unrolled: a zero first digit means the exponent estimate was one too high.
            let q = b / s;
            b = (b % s).wrapping_mul(10);
            m = m.wrapping_mul(10);
            let mut low = b < m;
            let mut high = b.wrapping_add(m) > tens;
            if q == 0 && !high {
                *dec_exp -= 1;
            } else {
                out.push(q as u8);
            }
            // A second digit is forced where the original takes the layout to be scientific (its test,
            // `decExp < -3 || decExp >= 8`, kept as it is).
            if *dec_exp < -3 || *dec_exp >= 8 {
                low = false;
                high = false;
            }
            while !low && !high {
                let q = b / s;
                b = (b % s).wrapping_mul(10);
                m = m.wrapping_mul(10);
                if m > 0 {
                    low = b < m;
                    high = b.wrapping_add(m) > tens;
                } else {
                    // The original's "hack -- m might overflow": stop with both set.
                    low = true;
                    high = true;
                }
                out.push(q as u8);
            }
            Stop {
                low,
                high,
                low_digit_difference: i64::from((b << 1).wrapping_sub(tens)),
            }
        }
    };
}

fixed_width_digits!(digits_i32, i32);
fixed_width_digits!(digits_i64, i64);

/// `BinaryToASCIIBuffer.dtoa(binExp, fractBits, nSignificantBits, true)`: the digits Java prints for
/// `fract_bits * 2^(bin_exp - 52)`, where `fract_bits` has bit 52 set and `n_significant_bits` is the
/// precision of the value's type at its exponent (53 or 24, fewer for subnormals).
fn dtoa(bin_exp: i32, fract_bits: u64, n_significant_bits: i32) -> Decimal {
    dtoa_with(bin_exp, fract_bits, n_significant_bits, true)
}

/// [`dtoa`], with the exact loops only when `fast` is false (the tests' reference for [`digits_fast`]).
#[inline]
fn dtoa_with(bin_exp: i32, fract_bits: u64, n_significant_bits: i32, fast: bool) -> Decimal {
    let n_fract_bits = 53 - fract_bits.trailing_zeros() as i32;
    let n_tiny_bits = (n_fract_bits - bin_exp - 1).max(0);
    // The original's fast path is guarded by `-21 <= binExp <= 62` and a size test that always passes when
    // `nTinyBits == 0`; its other branch (values with a fraction) is commented out there.
    if (-21..=62).contains(&bin_exp) && n_tiny_bits == 0 {
        // An integer below 2^63: its own digits, those below the type's precision rounded away.
        let insignificant = if bin_exp > n_significant_bits {
            insignificant_digits_for_pow2(bin_exp - n_significant_bits - 1)
        } else {
            0
        };
        let value = if bin_exp >= 52 {
            fract_bits << (bin_exp - 52)
        } else {
            fract_bits >> (52 - bin_exp)
        };
        return develop_long_digits(value, insignificant);
    }
    let dec_exp = estimate_dec_exp_by_table(fract_bits, bin_exp);
    let operands = Operands::new(bin_exp, fract_bits, n_significant_bits, dec_exp);
    if fast {
        // Not in the original: its digit loop on a 128-bit approximation, where that decides.
        let fast = digits_fast(
            fract_bits,
            bin_exp,
            n_significant_bits,
            n_fract_bits == 1,
            operands.fixed_width(),
            dec_exp,
        );
        if let Some(decimal) = fast {
            return decimal;
        }
    }
    digits_exact(&operands, dec_exp)
}

/// `dtoa`'s operands `B = fract * 5^b5 * 2^b2`, `S = 5^s5 * 2^s2`, `M = 5^m5 * 2^m2` for its digit loop:
/// `d = B / S * 10^dec_exp` with `1 <= B / S < 10` (if the estimate is right), `M` half an ulp scaled like
/// `B`, and which of the original's loops they take.
struct Operands {
    /// The significand without its trailing zero bits.
    fract: u64,
    b5: i32,
    b2: i32,
    s5: i32,
    s2: i32,
    m5: i32,
    m2: i32,
    /// The bit lengths of `B` and `10S`, which choose the loop.
    b_bits: i32,
    ten_s_bits: i32,
}

impl Operands {
    /// The original's operands for the estimate `dec_exp` of `fract_bits * 2^(bin_exp - 52)` (bit 52 set).
    #[inline]
    fn new(bin_exp: i32, fract_bits: u64, n_significant_bits: i32, dec_exp: i32) -> Self {
        let tail_zeros = fract_bits.trailing_zeros() as i32;
        let n_fract_bits = 53 - tail_zeros;
        let n_tiny_bits = (n_fract_bits - bin_exp - 1).max(0);
        let b5 = (-dec_exp).max(0);
        let mut b2 = b5 + n_tiny_bits + bin_exp;
        let s5 = dec_exp.max(0);
        let mut s2 = s5 + n_tiny_bits;
        let m5 = b5;
        let mut m2 = b2 - n_significant_bits;
        b2 -= n_fract_bits - 1;
        let common2 = b2.min(s2);
        b2 -= common2;
        s2 -= common2;
        m2 -= common2;
        // The original's "HACK" for exact powers of two: the next smaller value is half as far away.
        if n_fract_bits == 1 {
            m2 -= 1;
        }
        if m2 < 0 {
            b2 -= m2;
            s2 -= m2;
            m2 = 0;
        }
        let n5_bits = |p5: i32| {
            if p5 < 27 {
                N_5_BITS[p5 as usize]
            } else {
                p5 * 3
            }
        };
        Operands {
            fract: fract_bits >> tail_zeros,
            b5,
            b2,
            s5,
            s2,
            m5,
            m2,
            b_bits: n_fract_bits + b2 + n5_bits(b5),
            ten_s_bits: s2 + 1 + n5_bits(s5 + 1),
        }
    }

    /// Whether the original runs its `long` loop (or, [`Self::narrow`], its `int` loop).
    fn fixed(&self) -> bool {
        self.b_bits < 64 && self.ten_s_bits < 64
    }

    fn narrow(&self) -> bool {
        self.b_bits < 32 && self.ten_s_bits < 32
    }

    /// The fixed-width loop's operands, for the fast loop to see where they would wrap; `None` where the
    /// original runs its big-integer loop.
    #[inline]
    fn fixed_width(&self) -> Option<FixedWidth> {
        self.fixed().then(|| FixedWidth {
            m: u128::from(LONG_5_POW[self.m5 as usize]) << self.m2,
            ten_s: (u128::from(LONG_5_POW[self.s5 as usize]) * 10) << self.s2,
            max: if self.narrow() {
                i32::MAX as u128
            } else {
                i64::MAX as u128
            },
        })
    }
}

/// The original's digit loop for `operands` (the one it takes, or its `u128` equivalent), from the estimate
/// `dec_exp`, and the rounding of the last digit.
#[inline(never)]
fn digits_exact(operands: &Operands, mut dec_exp: i32) -> Decimal {
    let &Operands {
        fract,
        b5,
        b2,
        s5,
        s2,
        m5,
        m2,
        b_bits,
        ten_s_bits,
    } = operands;
    let mut out = Decimal::empty();
    let stop = if operands.fixed() {
        if operands.narrow() {
            let pow5 = |p: i32| LONG_5_POW[p as usize] as i32;
            digits_i32(
                (fract as i32 * pow5(b5)) << b2,
                pow5(s5) << s2,
                pow5(m5) << m2,
                &mut dec_exp,
                &mut out,
            )
        } else {
            let pow5 = |p: i32| LONG_5_POW[p as usize] as i64;
            digits_i64(
                (fract as i64 * pow5(b5)) << b2,
                pow5(s5) << s2,
                pow5(m5) << m2,
                &mut dec_exp,
                &mut out,
            )
        }
    } else if b_bits < 124 && ten_s_bits < 120 {
        // Not in the original: its big-integer loop, in u128 where every operand fits (most doubles).
        digits_exact_u128(operands, &mut dec_exp, &mut out)
    } else {
        digits_big(operands, &mut dec_exp, &mut out)
    };
    out.point = dec_exp + 1;
    stop.round(out)
}

impl Stop {
    /// `d` with its last digit rounded on where the loop stopped (the end of `dtoa`): up when the remainder
    /// was within half an ulp of the upper neighbour only, or of both and past half a digit (an even last
    /// digit on a tie). Without branches: the outcome follows the data.
    #[inline(always)]
    fn round(&self, mut d: Decimal) -> Decimal {
        let up = self.high
            & (d.len > 0)
            & (!self.low
                | (self.low_digit_difference > 0)
                | ((self.low_digit_difference == 0) & (d.digits & 1 != 0)));
        d.round_up_by(up);
        d
    }
}

/// `10^k` to 128 bits for `k` in `POW10_MIN..=POW10_MAX` (`17 - dec_exp` for the decimal exponents `dtoa`
/// estimates for finite doubles, `-324..=308`, with a margin): `(m, e)` with `m` in `[2^127, 2^128)` and
/// `|10^k / 2^e - m| < 2`. Built once, from `1` by exact multiplication and truncated division by ten in
/// 256 bits (at most 2^-240 of relative error gathered on the way, far below the 2^-127 kept).
const POW10_MIN: i32 = -295;
const POW10_MAX: i32 = 345;

fn pow10_table() -> &'static [(u128, i32)] {
    static TABLE: std::sync::OnceLock<Vec<(u128, i32)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // 256-bit mantissas, little-endian 64-bit limbs, normalised to bit 255; value = limbs * 2^e.
        let top =
            |limbs: &[u64; 4], e: i32| (u128::from(limbs[3]) << 64 | u128::from(limbs[2]), e + 128);
        let one = ([0, 0, 0, 1u64 << 63], -255);
        let mut table = vec![(0u128, 0i32); (POW10_MAX - POW10_MIN + 1) as usize];
        let (mut up, mut e_up) = one;
        for k in 0..=POW10_MAX {
            table[(k - POW10_MIN) as usize] = top(&up, e_up);
            // * 10, then shifted right until bit 255 is the top again (the bits shifted out truncated).
            let mut wide = [0u64; 5];
            let mut carry = 0u128;
            for (i, limb) in up.iter().enumerate() {
                let p = u128::from(*limb) * 10 + carry;
                wide[i] = p as u64;
                carry = p >> 64;
            }
            wide[4] = carry as u64;
            let shift = 64 - wide[4].leading_zeros();
            for i in 0..4 {
                up[i] = wide[i] >> shift | wide[i + 1] << (64 - shift);
            }
            e_up += shift as i32;
        }
        let (mut down, mut e_down) = one;
        for k in (POW10_MIN..0).rev() {
            // / 10 from the top limb, then shifted left until bit 255 is set again (zeros shifted in).
            let mut rem = 0u128;
            for limb in down.iter_mut().rev() {
                let n = rem << 64 | u128::from(*limb);
                *limb = (n / 10) as u64;
                rem = n % 10;
            }
            let shift = down[3].leading_zeros();
            for i in (0..4).rev() {
                let below = if i > 0 {
                    down[i - 1] >> (64 - shift)
                } else {
                    0
                };
                down[i] = down[i] << shift | below;
            }
            e_down -= shift as i32;
            table[(k - POW10_MIN) as usize] = top(&down, e_down);
        }
        table
    })
}

/// The operands of the fixed-width loops ([`digits_i32`], [`digits_i64`]) that [`digits_fast`] needs to tell
/// where they wrap: `M` before its first multiplication by ten, `10S`, and the type's maximum.
#[derive(Clone, Copy)]
struct FixedWidth {
    m: u128,
    ten_s: u128,
    max: u128,
}

/// The digit loop of `dtoa` (any of [`digits_i32`], [`digits_i64`], [`digits_exact_u128`], [`digits_big`])
/// and the rounding of its last digit in one 128-by-64-bit multiplication, where they decide: `None` leaves the value
/// to the exact loop.
///
/// With `x = B / S` (the value over `10^dec_exp`) and `mu = M / S` (half its ulp, as `dtoa` takes it, at the
/// same scale), the loop's stops after `n` digits, `B < M` and `B + M >= 10S`, say that `floor(x * 10^(n-1))`
/// differs from `floor((x - mu) * 10^(n-1))`, and from `floor((x + mu) * 10^(n-1))`. So the loop stops at the
/// first digit where the decimal expansions of `x - mu`, `x` and `x + mu` part, which their first 18 digits
/// show; the stops there and the rounding of the last digit (the remainder against a half) follow from those
/// digits. They are computed from `x * 10^17` and `mu * 10^17` in 64.64 fixed point (the value times a table
/// power of ten, `10^(17 - dec_exp)`, to 128 bits), with the approximations' error carried along: a digit
/// string is used only when every value within the error has the same, and the remainder's comparison with a
/// half only when it is not a tie. Ties, an exact boundary (where the fixed-width loops' `>` and the
/// big-integer loop's `>=` part), a first digit that the exponent estimate makes zero and might round up, a
/// second digit forced on a one-digit stop, and more than 17 digits are left to the exact loops, as is any
/// length at which the original's fixed-width arithmetic would wrap. The tests pin this against the exact
/// loops on random doubles and floats of every exponent, and check how often it decides.
///
/// `fract_bits * 2^(bin_exp - 52)` is the value, `2^(bin_exp - n_significant_bits - pow2)` half its ulp
/// (`pow2`: the power-of-two "HACK"), `dec_exp` the estimated decimal exponent, `fixed_width` the operands of
/// the fixed-width loop the original would run (`None`: its big-integer loop).
fn digits_fast(
    fract_bits: u64,
    bin_exp: i32,
    n_significant_bits: i32,
    pow2: bool,
    fixed_width: Option<FixedWidth>,
    mut dec_exp: i32,
) -> Option<Decimal> {
    // `10^17` and `10^18` in 64.64 fixed point: the range of `x * 10^17` for `x` in `[1, 10)`.
    const LOW: u128 = (POW10[17] as u128) << 64;
    const HIGH: u128 = (POW10[18] as u128) << 64;
    const UNIT: u128 = 1 << 64;
    let k = 17 - dec_exp;
    if !(POW10_MIN..=POW10_MAX).contains(&k) {
        return None;
    }
    let (p, e) = pow10_table()[(k - POW10_MIN) as usize];
    // X = x * 10^17 in 64.64 fixed point = fract_bits * p * 2^(bin_exp - 52 + e + 64): the 192-bit product
    // shifted right.
    let (lo, hi) = mul_u128_u64(p, fract_bits);
    let shift = -(bin_exp - 52 + e + 64);
    if !(1..128).contains(&shift) || hi >> shift != 0 {
        return None;
    }
    let mut x = lo >> shift | hi << (128 - shift);
    // Mu = mu * 10^17 = 2^(bin_exp - n_significant_bits - pow2) * p * 2^(e + 64), same fixed point.
    let mu_shift = -(bin_exp - n_significant_bits - i32::from(pow2) + e + 64);
    if !(1..128).contains(&mu_shift) {
        return None;
    }
    let mut mu = p >> mu_shift;
    // How far X and Mu are from the true values, together, in units of 2^-64: p is below 10^k / 2^e by less
    // than 2 units, so X by less than 2 * fract_bits units before the shift, Mu by less than 2 units, plus
    // each truncation.
    let mut err = (u128::from(fract_bits) << 1 >> shift) + 4;
    if err >= 1 << 20 {
        return None;
    }
    // The original multiplies M by ten once per digit generated, a dropped zero included.
    let mut steps = 0;
    // The original's scientific-layout test, `decExp < -3 || decExp >= 8`.
    let mut at_least = if !(-3..8).contains(&dec_exp) { 2 } else { 1 };
    if x < LOW {
        // The estimate was one too high: the zero digit is dropped, unless it rounds up (x + mu >= 1, left to
        // the exact loop). The forced second digit, if any, was that zero.
        if x + mu + err >= LOW {
            return None;
        }
        dec_exp -= 1;
        (x, mu, err) = (x * 10, mu * 10, err * 10);
        steps = 1;
        at_least = 1;
    }
    if !(LOW..HIGH).contains(&x) || mu >= LOW {
        return None;
    }
    // floor(V), the first 18 digits of v = V / 10^17 in [0, 10), where every value within the error has them.
    let digits18 = |v: u128| -> Option<u64> {
        let frac = v & (UNIT - 1);
        (frac > err && frac < UNIT - err).then_some((v >> 64) as u64)
    };
    // x * 10^17 (the value times 10^(17 - dec_exp)) is an integer when the estimate is at most 17 and the value's
    // lowest set bit is at 2^(dec_exp - 17) or above; then its first 18 digits are the nearest integer (a value
    // with few digits, 5044.25 say).
    let exact =
        dec_exp <= 17 && bin_exp - 52 + fract_bits.trailing_zeros() as i32 + 17 - dec_exp >= 0;
    let mid = if exact {
        ((x + UNIT / 2) >> 64) as u64
    } else {
        digits18(x)?
    };
    let (below, above) = (digits18(x - mu)?, digits18(x + mu)?);
    // The stop is the first digit at which the three differ, one past the longest prefix they share.
    // `below <= mid <= above`, so they agree
    // after dropping `d` digits exactly when `below` and `above` do, and go on agreeing for any larger `d`: the
    // largest `d` at which they still differ is found in five halving steps.
    if below == above {
        return None;
    }
    let mut at_stop = (below, mid, above);
    let mut d = 0;
    lift::<16>(&mut at_stop, &mut d);
    lift::<8>(&mut at_stop, &mut d);
    lift::<4>(&mut at_stop, &mut d);
    lift::<2>(&mut at_stop, &mut d);
    lift::<1>(&mut at_stop, &mut d);
    // `d` digits dropped (at least one), `18 - d` kept: the digits up to the stop (at most 17).
    if !(1..=17).contains(&d) {
        return None;
    }
    let n = 18 - d;
    if n < at_least {
        return None;
    }
    let (below, digits, above) = at_stop;
    let (low, high) = (below != digits, above != digits);
    steps += n;
    if let Some(w) = fixed_width {
        // M after the last step, plus 10S: past the type's maximum the original wraps (and `2B` in the rounding
        // test when 10S is above half of it).
        if w.m * u128::from(POW10[steps]) + w.ten_s > w.max || (high && low && w.ten_s > w.max / 2)
        {
            return None;
        }
    }
    let low_digit_difference = if high && low {
        // 2B vs 10S: the remainder below the n digits against half a unit of the last one.
        let unit = POW10[d];
        let rest = mid - digits * unit;
        match rest.cmp(&(unit / 2)) {
            Ordering::Less => -1,
            Ordering::Greater => 1,
            // A tie only when the 18 digits are all there is; otherwise `digits18` made sure that more
            // follows (x * 10^17 is no integer), so the remainder is above the half.
            Ordering::Equal if exact => 0,
            Ordering::Equal => 1,
        }
    } else {
        0
    };
    let stop = Stop {
        low,
        high,
        low_digit_difference,
    };
    Some(stop.round(Decimal {
        digits,
        len: n,
        point: dec_exp + 1,
    }))
}

/// One step of [`digits_fast`]'s search: where `below` and `above` (the first and last of `q`) still differ
/// once `P` more digits are dropped, drops them from all three and adds `P` to `d`.
#[inline(always)]
fn lift<const P: u32>(q: &mut (u64, u64, u64), d: &mut usize) {
    let unit = 10u64.pow(P);
    let (below, above) = (q.0 / unit, q.2 / unit);
    if below != above {
        *q = (below, q.1 / unit, above);
        *d += P as usize;
    }
}

/// `a * b` as the low 128 bits and the bits above them.
fn mul_u128_u64(a: u128, b: u64) -> (u128, u128) {
    let b = u128::from(b);
    let low = (a & u128::from(u64::MAX)) * b;
    let high = (a >> 64) * b + (low >> 64);
    (high << 64 | (low & u128::from(u64::MAX)), high >> 64)
}

/// [`digits_big`] in `u128`, for operands that fit: `B < 2^124`, `10S < 2^120`. `M` is at most half of `B`
/// at the start (half an ulp of the value), and after the first two digits the loop runs only while
/// `B + M < 10S`: every value stays below `2^127`, and the arithmetic is as exact as the big integers'.
fn digits_exact_u128(operands: &Operands, dec_exp: &mut i32, out: &mut Decimal) -> Stop {
    let &Operands {
        fract,
        b5,
        b2,
        s5,
        s2,
        m5,
        m2,
        ..
    } = operands;
    let pow5 = |p: i32| 5u128.pow(p as u32);
    let mut b = (u128::from(fract) * pow5(b5)) << b2;
    let s = pow5(s5) << s2;
    let mut m = pow5(m5 + 1) << (m2 + 1);
    let ten_s = pow5(s5 + 1) << (s2 + 1);
    // q = b / s, b = 10 * (b % s): q is a decimal digit, so subtracting beats a 128-bit division.
    let quo_rem_times_10 = |b: &mut u128| {
        let mut q = 0u8;
        while *b >= s {
            *b -= s;
            q += 1;
        }
        *b *= 10;
        q
    };
    let q = quo_rem_times_10(&mut b);
    let mut low = b < m;
    let mut high = b + m >= ten_s;
    if q == 0 && !high {
        *dec_exp -= 1;
    } else {
        out.push(q);
    }
    if *dec_exp < -3 || *dec_exp >= 8 {
        low = false;
        high = false;
    }
    while !low && !high {
        let q = quo_rem_times_10(&mut b);
        m *= 10;
        low = b < m;
        high = b + m >= ten_s;
        out.push(q);
    }
    let low_digit_difference = if high && low {
        match (b << 1).cmp(&ten_s) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    } else {
        0
    };
    Stop {
        low,
        high,
        low_digit_difference,
    }
}

/// The digit loop of `dtoa` in big-integer arithmetic (`FDBigInteger` in the original) over `operands`; the
/// stopping test is `B + M >= 10S` here.
fn digits_big(operands: &Operands, dec_exp: &mut i32, out: &mut Decimal) -> Stop {
    let &Operands {
        fract,
        b5,
        b2,
        s5,
        s2,
        m5,
        m2,
        ..
    } = operands;
    // M and 10S are kept pre-multiplied by 10, as the remainder is after each step. One power of five is
    // computed: `b5` and `s5` are never both non-zero, and `m5 == b5`.
    debug_assert!((b5 == 0 || s5 == 0) && m5 == b5);
    let mut pow5 = Big::from_u64(1);
    pow5.mul_pow5(b5.max(s5));
    let (mut b, mut s, mut m, mut ten_s);
    if s5 > 0 {
        s = pow5.clone();
        ten_s = pow5;
        ten_s.mul_small(5);
        b = Big::from_u64(fract);
        m = Big::from_u64(5);
    } else {
        b = pow5.clone();
        b.mul_small_u64(fract);
        m = pow5;
        m.mul_small(5);
        s = Big::from_u64(1);
        ten_s = Big::from_u64(5);
    }
    b.shl(b2);
    s.shl(s2);
    m.shl(m2 + 1);
    ten_s.shl(s2 + 1);
    let s = s;
    let ten_s = ten_s;

    let q = b.quo_rem_times_10(&s);
    let mut low = b.cmp(&m) == Ordering::Less;
    let mut high = ten_s.cmp_sum(&b, &m) != Ordering::Greater;
    if q == 0 && !high {
        *dec_exp -= 1;
    } else {
        out.push(q);
    }
    if *dec_exp < -3 || *dec_exp >= 8 {
        low = false;
        high = false;
    }
    while !low && !high {
        let q = b.quo_rem_times_10(&s);
        m.mul_small(10);
        low = b.cmp(&m) == Ordering::Less;
        high = ten_s.cmp_sum(&b, &m) != Ordering::Greater;
        out.push(q);
    }
    let low_digit_difference = if high && low {
        b.shl(1);
        match b.cmp(&ten_s) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    } else {
        0
    };
    Stop {
        low,
        high,
        low_digit_difference,
    }
}

/// Limbs of [`Big`]: 1,536 bits. The largest operand is about 10 * 2^805 (`S` for `Double.MIN_VALUE`).
const LIMBS: usize = 48;

/// A non-negative integer of at most `32 * LIMBS` bits, little-endian 32-bit limbs, on the stack.
#[derive(Clone)]
struct Big {
    limbs: [u32; LIMBS],
    /// Limbs in use; `limbs[len..]` are zero.
    len: usize,
}

impl Big {
    fn from_u64(v: u64) -> Self {
        let mut big = Big {
            limbs: [0; LIMBS],
            len: 2,
        };
        big.limbs[0] = v as u32;
        big.limbs[1] = (v >> 32) as u32;
        big.trim();
        big
    }

    /// `5^p5 * 2^p2`.
    #[cfg(test)]
    fn pow52(p5: i32, p2: i32) -> Self {
        let mut big = Big::from_u64(1);
        big.mul_pow5(p5);
        big.shl(p2);
        big
    }

    fn trim(&mut self) {
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs[..self.len] {
            let p = u64::from(*limb) * u64::from(k) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry != 0 {
            self.limbs[self.len] = carry as u32;
            self.len += 1;
        }
    }

    fn mul_small_u64(&mut self, k: u64) {
        let (lo, hi) = (k as u32, (k >> 32) as u32);
        if hi == 0 {
            self.mul_small(lo);
            return;
        }
        let mut high = self.clone();
        high.mul_small(hi);
        high.shl(32);
        self.mul_small(lo);
        let len = self.len.max(high.len);
        let mut carry = 0u64;
        for i in 0..len {
            let t = u64::from(self.limbs[i]) + u64::from(high.limbs[i]) + carry;
            self.limbs[i] = t as u32;
            carry = t >> 32;
        }
        self.len = len;
        if carry != 0 {
            self.limbs[len] = carry as u32;
            self.len += 1;
        }
    }

    fn mul_pow5(&mut self, mut p5: i32) {
        // 5^13 is the largest power of five below 2^32.
        while p5 >= 13 {
            self.mul_small(1_220_703_125);
            p5 -= 13;
        }
        if p5 > 0 {
            self.mul_small(LONG_5_POW[p5 as usize] as u32);
        }
    }

    fn shl(&mut self, bits: i32) {
        if self.len == 0 || bits == 0 {
            return;
        }
        let (words, bits) = ((bits / 32) as usize, bits % 32);
        let mut new_len = self.len + words;
        if bits != 0 {
            self.limbs[new_len] = 0;
            new_len += 1;
            for i in (0..self.len).rev() {
                let v = self.limbs[i];
                self.limbs[i + words + 1] |= v >> (32 - bits);
                self.limbs[i + words] = v << bits;
            }
        } else {
            for i in (0..self.len).rev() {
                self.limbs[i + words] = self.limbs[i];
            }
        }
        self.limbs[..words].fill(0);
        self.len = new_len;
        self.trim();
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.len.cmp(&other.len).then_with(|| {
            self.limbs[..self.len]
                .iter()
                .rev()
                .cmp(other.limbs[..other.len].iter().rev())
        })
    }

    /// `self` compared with `x + y` (`FDBigInteger.addAndCmp`): the sign of `self - x - y`, in one pass from
    /// the low limb with a signed borrow, nothing copied.
    fn cmp_sum(&self, x: &Big, y: &Big) -> Ordering {
        let len = self.len.max(x.len).max(y.len);
        let mut borrow = 0i64;
        let mut nonzero = false;
        for i in 0..len {
            let t =
                i64::from(self.limbs[i]) - i64::from(x.limbs[i]) - i64::from(y.limbs[i]) + borrow;
            nonzero |= t & 0xffff_ffff != 0;
            borrow = t >> 32;
        }
        if borrow < 0 {
            Ordering::Less
        } else if nonzero {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }

    /// `self -= k * s`; the caller knows the result is not negative.
    fn sub_mul_small(&mut self, s: &Big, k: u32) {
        let mut borrow = 0i64;
        let mut carry = 0u64;
        for i in 0..self.len {
            let p = u64::from(s.limbs[i]) * u64::from(k) + carry;
            carry = p >> 32;
            let t = i64::from(self.limbs[i]) - i64::from(p as u32) + borrow;
            self.limbs[i] = t as u32;
            borrow = t >> 32;
        }
        debug_assert!(borrow == 0 && carry == 0, "subtraction went negative");
        self.trim();
    }

    /// `FDBigInteger.quoRemIteration`: returns `q = self / s` (a decimal digit) and leaves `10 * (self % s)`.
    fn quo_rem_times_10(&mut self, s: &Big) -> u8 {
        // Estimate q from the top 64 bits at the scale of s's top 60 bits: it is the quotient or one more.
        let shift = s.bit_len().saturating_sub(60);
        let estimate = self.low_u64_after_shr(shift) / s.low_u64_after_shr(shift).max(1);
        let mut q = estimate.saturating_sub(1) as u32;
        self.sub_mul_small(s, q);
        while self.cmp(s) != Ordering::Less {
            self.sub_mul_small(s, 1);
            q += 1;
        }
        self.mul_small(10);
        debug_assert!(q < 10, "digit {q} out of range");
        q as u8
    }

    fn bit_len(&self) -> usize {
        if self.len == 0 {
            0
        } else {
            self.len * 32 - self.limbs[self.len - 1].leading_zeros() as usize
        }
    }

    /// The low 64 bits of `self >> shift`.
    fn low_u64_after_shr(&self, shift: usize) -> u64 {
        let (word, bits) = (shift / 32, shift % 32);
        let limb = |i: usize| u64::from(if i < self.len { self.limbs[i] } else { 0 });
        let window = limb(word) | limb(word + 1) << 32;
        let above = limb(word + 2);
        if bits == 0 {
            window
        } else {
            window >> bits | above << (64 - bits)
        }
    }

    #[cfg(test)]
    fn shr(&mut self, bits: i32) {
        let (words, bits) = ((bits / 32) as usize, bits % 32);
        if words >= self.len {
            self.len = 0;
            self.limbs = [0; LIMBS];
            return;
        }
        for i in 0..self.len - words {
            let lo = self.limbs[i + words] >> bits;
            let hi = if bits != 0 && i + words + 1 < self.len {
                self.limbs[i + words + 1] << (32 - bits)
            } else {
                0
            };
            self.limbs[i] = lo | hi;
        }
        self.limbs[self.len - words..self.len].fill(0);
        self.len -= words;
        self.trim();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flink::float::tests::check_java_table;

    fn f64_text(v: f64) -> String {
        let mut out = Vec::new();
        write_f64_jdk17(&mut out, v);
        String::from_utf8(out).expect("utf-8")
    }

    fn f32_text(v: f32) -> String {
        let mut out = Vec::new();
        write_f32_jdk17(&mut out, v);
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn known_jdk17_digits() {
        for (v, want) in [
            (2e23, "1.9999999999999998E23"),
            (1e23, "9.999999999999999E22"),
            (8.41e21, "8.409999999999999E21"),
            (9.5e21, "9.500000000000001E21"),
            (4.611_686_018_427_388E18, "4.6116860184273879E18"),
            (f64::from_bits(2), "1.0E-323"),
            (9.007199254740993E15, "9.007199254740992E15"),
            (2e-3, "0.002"),
            (1e22, "1.0E22"),
            (f64::from_bits(1), "4.9E-324"),
            (1.0e-322, "1.0E-322"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (f64::NAN, "\"NaN\""),
            (f64::NEG_INFINITY, "\"-Infinity\""),
        ] {
            assert_eq!(f64_text(v), want, "f64 bits {:016x}", v.to_bits());
        }
        for (v, want) in [
            (f32::from_bits(0x50f5_10ad), "3.28920863E10"),
            (f32::from_bits(0x4d4c_46eb), "2.14199984E8"),
            (2e23, "2.0E23"),
            (0.1, "0.1"),
            (f32::MIN_POSITIVE, "1.17549435E-38"),
            (f32::from_bits(1), "1.4E-45"),
        ] {
            assert_eq!(f32_text(v), want, "f32 bits {:08x}", v.to_bits());
        }
    }

    /// Edges, powers of two and ten, subnormals, random values and thousands of values whose text differs
    /// between JDK 17 and JDK 25, as JDK 17 prints them (generator: `tests/data/JavaFloatToString.java`).
    #[test]
    fn matches_jdk17_table() {
        let table = include_str!("../../tests/data/java_float_to_string_jdk17.txt");
        assert!(check_java_table(table, f64_text, f32_text) > 20_000);
    }

    /// A one-off check against a larger table printed by JDK 17 (e.g. the 4,000,000 lines of
    /// `java JavaFloatToString.java candidates`): `JDK17_FLOAT_TABLE=/tmp/c17.txt cargo test ... -- --ignored`.
    #[test]
    #[ignore = "needs a table printed by a JDK 17 in JDK17_FLOAT_TABLE"]
    fn matches_a_jdk17_table_file() {
        let path = std::env::var("JDK17_FLOAT_TABLE").expect("JDK17_FLOAT_TABLE");
        let table = std::fs::read_to_string(path).expect("readable table");
        let checked = check_java_table(&table, f64_text, f32_text);
        eprintln!("{checked} lines match");
    }

    /// JDK 17's digits are never fewer than the shortest's and always read back as the same value.
    #[test]
    fn random_bits_round_trip_and_are_never_shorter_than_shortest() {
        let mut state = 0x005e_ed17_u64;
        let mut next = || {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let digits = |t: &str| {
            let m = t.trim_start_matches('-').split('E').next().unwrap_or("");
            m.replace('.', "").trim_matches('0').len()
        };
        for _ in 0..200_000 {
            let bits = next();
            let v = f64::from_bits(bits);
            if v.is_finite() {
                let t = f64_text(v);
                assert_eq!(t.parse::<f64>().map(f64::to_bits), Ok(bits), "f64 {t}");
                let mut shortest = Vec::new();
                crate::flink::float::write_f64(&mut shortest, v);
                let shortest = String::from_utf8(shortest).expect("utf-8");
                assert!(
                    digits(&t) >= digits(&shortest),
                    "{t} shorter than {shortest}"
                );
            }
            let v = f32::from_bits(bits as u32);
            if v.is_finite() {
                let t = f32_text(v);
                assert_eq!(
                    t.parse::<f32>().map(f32::to_bits),
                    Ok(bits as u32),
                    "f32 {t}"
                );
            }
        }
    }

    /// A one-off exhaustive check of every float: the per-block FNV-1a hashes of `java JavaFloatToString.java
    /// f32-hash` run on JDK 17 (a file of lines `<block hex> <hash hex>`), computed here over the same texts:
    /// `JDK17_F32_HASHES=/tmp/f32hash17.txt cargo test ... matches_jdk17_on_every_float -- --ignored`.
    #[test]
    #[ignore = "needs the f32-hash output of a JDK 17 in JDK17_F32_HASHES; minutes of CPU"]
    fn matches_jdk17_on_every_float() {
        let path = std::env::var("JDK17_F32_HASHES").expect("JDK17_F32_HASHES");
        let want = std::fs::read_to_string(path).expect("readable hashes");
        let want: Vec<(u32, u64)> = want
            .lines()
            .map(|line| {
                let (block, hash) = line.split_once(' ').expect("`block hash`");
                (
                    u32::from_str_radix(block, 16).expect("hex block"),
                    u64::from_str_radix(hash, 16).expect("hex hash"),
                )
            })
            .collect();
        assert_eq!(want.len(), 256, "one hash per block of 2^24 floats");
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let got: Vec<(u32, u64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        let mut text = Vec::with_capacity(32);
                        for block in (0..256u32).filter(|b| *b as usize % threads == t) {
                            let mut h = 0xcbf2_9ce4_8422_2325u64;
                            for i in 0..1u32 << 24 {
                                text.clear();
                                write_f32_jdk17(&mut text, f32::from_bits(block << 24 | i));
                                for &b in &text {
                                    h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
                                }
                                h = (h ^ u64::from(b'\n')).wrapping_mul(0x100_0000_01b3);
                            }
                            out.push((block, h));
                        }
                        out
                    })
                })
                .collect();
            let mut all: Vec<(u32, u64)> = workers
                .into_iter()
                .flat_map(|w| w.join().expect("worker"))
                .collect();
            all.sort_unstable();
            all
        });
        let differing: Vec<u32> = want
            .iter()
            .zip(&got)
            .filter(|(w, g)| w != g)
            .map(|(w, _)| w.0)
            .collect();
        assert!(
            differing.is_empty(),
            "blocks whose texts differ: {differing:02x?}"
        );
    }

    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The parts `write_f64_jdk17` passes to `dtoa`.
    fn f64_parts(v: f64) -> (i32, u64, i32) {
        let bits = v.abs().to_bits();
        let fraction = bits & ((1 << 52) - 1);
        let biased = (bits >> 52) as i32;
        if biased == 0 {
            let shift = fraction.leading_zeros() as i32 - 11;
            (
                1 - shift - 1023,
                fraction << shift,
                64 - fraction.leading_zeros() as i32,
            )
        } else {
            (biased - 1023, fraction | 1 << 52, 53)
        }
    }

    /// The 128-bit loop gives the exact loops' digits wherever it decides, and leaves the rest to them: random
    /// doubles and floats over every exponent, powers of two and ten, neighbours of both, subnormals.
    #[test]
    fn fast_loop_agrees_with_the_exact_loops() {
        let same = |bin_exp: i32, fract: u64, n_sig: i32, what: &dyn std::fmt::Display| {
            let fast = dtoa_with(bin_exp, fract, n_sig, true);
            let exact = dtoa_with(bin_exp, fract, n_sig, false);
            assert_eq!(fast, exact, "{what}");
        };
        let mut state = 0x0fa5_7100_u64;
        let mut values: Vec<f64> = (0..300_000)
            .map(|_| f64::from_bits(splitmix(&mut state) & !(1 << 63)))
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        for e in -1074..=1023 {
            let p = if e >= -1022 {
                ((e + 1023) as u64) << 52
            } else {
                1 << (e + 1074)
            };
            values.extend([p, p + 1, p - 1].map(f64::from_bits));
        }
        for e in -323..=308 {
            let p: f64 = format!("1e{e}").parse().expect("a power of ten");
            values.extend([
                p,
                f64::from_bits(p.to_bits() + 1),
                f64::from_bits(p.to_bits() - 1),
            ]);
            values.push(format!("1.5e{e}").parse().expect("a tie"));
        }
        // Short decimals, as tables hold them (prices, measurements), many exact in binary.
        let decimals: Vec<String> = (0..100_000)
            .map(|_| {
                let digits = 1 + splitmix(&mut state) % 9;
                let mantissa = splitmix(&mut state) % 10u64.pow(digits as u32);
                let exponent = (splitmix(&mut state) % 61) as i32 - 30;
                format!("{mantissa}e{exponent}")
            })
            .collect();
        values.extend(
            decimals
                .iter()
                .map(|d| d.parse::<f64>().expect("a decimal")),
        );
        for v in values.into_iter().filter(|v| *v > 0.0 && v.is_finite()) {
            let (bin_exp, fract, n_sig) = f64_parts(v);
            same(
                bin_exp,
                fract,
                n_sig,
                &format_args!("f64 {v:e} ({:016x})", v.to_bits()),
            );
        }
        let floats = (0..300_000)
            .map(|_| f32::from_bits(splitmix(&mut state) as u32 & !(1 << 31)))
            .chain(
                decimals
                    .iter()
                    .map(|d| d.parse::<f32>().expect("a decimal")),
            );
        for v in floats {
            if v.is_finite() && v != 0.0 {
                let (bin_exp, fract, _) = f64_parts(f64::from(v));
                let n_sig = if v.is_normal() {
                    24
                } else {
                    32 - (v.to_bits() & 0x7f_ffff).leading_zeros() as i32
                };
                same(
                    bin_exp,
                    fract,
                    n_sig,
                    &format_args!("f32 {v:e} ({:08x})", v.to_bits()),
                );
            }
        }
    }

    /// The table's estimate is the original's at every binary exponent: at the fraction zero, on both sides of
    /// the threshold, at the largest fraction, and at random fractions.
    #[test]
    fn estimate_table_matches_the_original_estimate() {
        let mut state = 0x5eed_u64;
        let mut steps = 0;
        for bin_exp in -1074..=1023 {
            let threshold = estimate_table()[(bin_exp + 1074) as usize] & ((1 << 53) - 1);
            steps += usize::from(threshold < 1 << 52);
            let last = (1 << 52) - 1;
            let mut fractions = vec![0, last, threshold.min(last), threshold.saturating_sub(1)];
            fractions.extend((0..32).map(|_| splitmix(&mut state) & last));
            for f in fractions {
                assert_eq!(
                    estimate_dec_exp_by_table(1 << 52 | f, bin_exp),
                    estimate_dec_exp(1 << 52 | f, bin_exp),
                    "bin_exp {bin_exp}, fraction {f:#x}"
                );
            }
        }
        // The estimate steps up inside about 30% of the binades (log10 2); the table must hold those steps.
        assert!((500..800).contains(&steps), "{steps} binades with a step");
    }

    /// Whether [`digits_fast`] decides `fract_bits * 2^(bin_exp - 52)` as [`dtoa`] calls it (`None` for the
    /// integers of the original's own fast path, which never reach it).
    fn fast_decides(bin_exp: i32, fract_bits: u64, n_sig: i32) -> Option<bool> {
        let n_fract_bits = 53 - fract_bits.trailing_zeros() as i32;
        if (-21..=62).contains(&bin_exp) && n_fract_bits - bin_exp - 1 <= 0 {
            return None;
        }
        let dec_exp = estimate_dec_exp_by_table(fract_bits, bin_exp);
        let operands = Operands::new(bin_exp, fract_bits, n_sig, dec_exp);
        let fixed_width = operands.fixed_width();
        Some(
            digits_fast(
                fract_bits,
                bin_exp,
                n_sig,
                n_fract_bits == 1,
                fixed_width,
                dec_exp,
            )
            .is_some(),
        )
    }

    /// The fast loop decides nearly every value. Declining costs only time (the exact loops give the same
    /// digits), so only this test sees a fast loop that declines too often.
    #[test]
    fn fast_loop_decides_nearly_every_value() {
        let mut state = 0x0dec_1de5_u64;
        let share = |values: &mut dyn Iterator<Item = (i32, u64, i32)>| {
            let (mut decided, mut all) = (0, 0);
            for (bin_exp, fract, n_sig) in values {
                if let Some(d) = fast_decides(bin_exp, fract, n_sig) {
                    decided += usize::from(d);
                    all += 1;
                }
            }
            decided as f64 / all as f64
        };
        let doubles: Vec<f64> = (0..100_000)
            .map(|_| f64::from_bits(splitmix(&mut state) & !(1 << 63)))
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        let prices: Vec<f64> = (0..100_000)
            .map(|_| (splitmix(&mut state) % 10_000_000) as f64 / 100.0)
            .filter(|v| *v != 0.0)
            .collect();
        let units: Vec<f64> = (0..100_000)
            .map(|_| (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64)
            .filter(|v| *v != 0.0)
            .collect();
        for (name, values) in [
            ("random doubles", &doubles),
            ("prices", &prices),
            ("units", &units),
        ] {
            let decided = share(&mut values.iter().map(|v| f64_parts(*v)));
            assert!(decided > 0.995, "{name}: {decided}");
        }
        let floats: Vec<f32> = (0..100_000)
            .map(|_| f32::from_bits(splitmix(&mut state) as u32 & !(1 << 31)))
            .filter(|v| v.is_normal())
            .collect();
        let decided = share(&mut floats.iter().map(|v| {
            let (bin_exp, fract, _) = f64_parts(f64::from(*v));
            (bin_exp, fract, 24)
        }));
        assert!(decided > 0.9, "random floats: {decided}");
        println!("doubles, prices, units > 99.5%; floats {decided}");
    }

    /// Where the approximation cannot tell, the fast loop declines: `1.5E22` is a tie at its first digit
    /// (and JDK 17 prints `1.5E22`).
    #[test]
    fn fast_loop_declines_a_decimal_tie() {
        let (bin_exp, fract, n_sig) = f64_parts(1.5e22);
        let dec_exp = estimate_dec_exp(fract, bin_exp);
        assert!(digits_fast(fract, bin_exp, n_sig, false, None, dec_exp).is_none());
        assert_eq!(f64_text(1.5e22), "1.5E22");
    }

    #[test]
    fn big_shifts_and_quotients() {
        let mut b = Big::from_u64(0x1234_5678_9abc_def0);
        b.shl(100);
        b.shr(100);
        assert_eq!(
            b.cmp(&Big::from_u64(0x1234_5678_9abc_def0)),
            Ordering::Equal
        );
        let s = Big::pow52(300, 7);
        let mut x = s.clone();
        x.mul_small(7);
        let mut y = s.clone();
        y.mul_small(3);
        let mut sum = x.clone();
        sum.mul_small(1);
        assert_eq!(
            Big::pow52(300, 7).cmp_sum(&s, &Big::from_u64(0)),
            Ordering::Equal
        );
        let mut r = x.clone();
        r.sub_mul_small(&y, 2); // 7s - 6s = s
        assert_eq!(r.cmp(&s), Ordering::Equal);
        assert_eq!(x.quo_rem_times_10(&s), 7);
        assert_eq!(x.len, 0, "7s = 7 * s exactly, remainder 0");
    }
}
