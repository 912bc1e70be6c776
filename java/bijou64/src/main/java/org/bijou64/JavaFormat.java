package org.bijou64;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The pure-Java bijou format, byte-identical to the upstream Rust {@code bijoux} crate (pinned by
 * {@code testdata/vectors/bijou.csv} and a differential test against the native library).
 *
 * <p>Values are handled as unsigned longs: the first byte below {@code threshold} is the value
 * itself; tag {@code threshold + t - 1} (t = 1..maxTier) is followed by t big-endian bytes holding
 * {@code value - OFFSET[t]}, with {@code OFFSET[1] = threshold} and
 * {@code OFFSET[t] = OFFSET[t-1] + 256^(t-1)}.
 *
 * <p>Two paths write and read one record. The per-record paths ({@link #encode64}, {@link #encode32} and the
 * fast path of {@link #decodeRecord}) are what the Kafka serdes call once per record: the tier comes from the
 * value's significant bytes ({@code Long.numberOfLeadingZeros}) and one comparison with a constant, the array is
 * allocated at a constant length per tier and written with constant indices (no zeroing, no byte loop), and a
 * record is read with at most three big-endian loads. The general paths ({@link #encode(long, byte[], int)},
 * {@link #announcedLength}, {@link #value}) serve slabs and prefixes, and every record the fast decode does not
 * accept, so every error is raised, with its message, in one place.
 */
final class JavaFormat {
    /** bijou64 (and bijou64s after zigzag): threshold 248, up to 9 bytes, values up to 2^64 - 1. */
    static final JavaFormat BIJOU64 = new JavaFormat(248, 8, -1L);
    /** bijou32 (and bijou32s after zigzag): threshold 252, up to 5 bytes, values up to 2^32 - 1. */
    static final JavaFormat BIJOU32 = new JavaFormat(252, 4, 0xFFFF_FFFFL);

    /** bijou64's threshold and {@code OFFSET[1..8]}, the first value of each tier, as constants for the JIT. */
    private static final int T64 = 248;

    private static final long O64_1 = T64;
    private static final long O64_2 = O64_1 + (1L << 8);
    private static final long O64_3 = O64_2 + (1L << 16);
    private static final long O64_4 = O64_3 + (1L << 24);
    private static final long O64_5 = O64_4 + (1L << 32);
    private static final long O64_6 = O64_5 + (1L << 40);
    private static final long O64_7 = O64_6 + (1L << 48);
    private static final long O64_8 = O64_7 + (1L << 56);

    /** bijou32's threshold and {@code OFFSET[1..4]}. */
    private static final int T32 = 252;

    private static final long O32_1 = T32;
    private static final long O32_2 = O32_1 + (1L << 8);
    private static final long O32_3 = O32_2 + (1L << 16);
    private static final long O32_4 = O32_3 + (1L << 24);

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final int threshold;
    private final long maxValue;
    /** {@code offsets[t]}: first value of tier t, t = 0..maxTier ({@code offsets[0] = 0}). */
    private final long[] offsets;

    private JavaFormat(int threshold, int maxTier, long maxValue) {
        this.threshold = threshold;
        this.maxValue = maxValue;
        this.offsets = new long[maxTier + 1];
        offsets[1] = threshold;
        for (int t = 2; t <= maxTier; t++) {
            offsets[t] = offsets[t - 1] + (1L << (8 * (t - 1)));
        }
    }

    /**
     * @return the encoded length of the unsigned value {@code u}: a value of {@code w} significant bytes lies in
     *     tier {@code w} or {@code w - 1}, and one comparison with {@code OFFSET[w]} decides (no loop)
     */
    int encodedLength(long u) {
        int width = (71 - Long.numberOfLeadingZeros(u)) >>> 3;
        return Long.compareUnsigned(u, offsets[width]) < 0 ? width : width + 1;
    }

    /** Writes the encoding of unsigned {@code u} at {@code dst[off]}; returns the bytes written. */
    int encode(long u, byte[] dst, int off) {
        int length = encodedLength(u);
        if (length == 1) {
            dst[off] = (byte) u;
            return 1;
        }
        int tier = length - 1;
        long payload = u - offsets[tier];
        dst[off] = (byte) (threshold + tier - 1);
        for (int i = tier; i >= 1; i--) {
            dst[off + i] = (byte) payload;
            payload >>>= 8;
        }
        return length;
    }

    /**
     * The per-record bijou64 encode: the same bytes as {@link #encode(long, byte[], int)} into an array of their
     * length. A value of {@code w} significant bytes lies in tier {@code w - 1} or {@code w}; the switch on
     * {@code w} and one comparison with that tier's first value pick the tier, whose array is written whole.
     *
     * @param u the unsigned value (mapping applied)
     * @return a new array of 1 to 9 bytes
     */
    static byte[] encode64(long u) {
        switch ((71 - Long.numberOfLeadingZeros(u)) >>> 3) {
            case 0:
            case 1:
                return u < O64_1 ? new byte[] {(byte) u} : tier1(T64, u - O64_1);
            case 2:
                return u < O64_2 ? tier1(T64, u - O64_1) : tier2(T64, u - O64_2);
            case 3:
                return u < O64_3 ? tier2(T64, u - O64_2) : tier3(T64, u - O64_3);
            case 4:
                return u < O64_4 ? tier3(T64, u - O64_3) : tier4(T64, u - O64_4);
            case 5:
                return u < O64_5 ? tier4(T64, u - O64_4) : tier5(T64, u - O64_5);
            case 6:
                return u < O64_6 ? tier5(T64, u - O64_5) : tier6(T64, u - O64_6);
            case 7:
                return u < O64_7 ? tier6(T64, u - O64_6) : tier7(T64, u - O64_7);
            default: // 8 significant bytes: u may be negative as a signed long, and then lies in tier 8
                return u >= 0 && u < O64_8 ? tier7(T64, u - O64_7) : tier8(T64, u - O64_8);
        }
    }

    /**
     * The per-record bijou32 encode, as {@link #encode64}.
     *
     * @param u the unsigned value (mapping applied), {@code 0 .. 2^32 - 1}
     * @return a new array of 1 to 5 bytes
     */
    static byte[] encode32(long u) {
        switch ((71 - Long.numberOfLeadingZeros(u)) >>> 3) {
            case 0:
            case 1:
                return u < O32_1 ? new byte[] {(byte) u} : tier1(T32, u - O32_1);
            case 2:
                return u < O32_2 ? tier1(T32, u - O32_1) : tier2(T32, u - O32_2);
            case 3:
                return u < O32_3 ? tier2(T32, u - O32_2) : tier3(T32, u - O32_3);
            default: // 4 significant bytes
                return u < O32_4 ? tier3(T32, u - O32_3) : tier4(T32, u - O32_4);
        }
    }

    // The records of tiers 1 to 8: tag threshold + t - 1, then the payload p in t big-endian bytes.

    private static byte[] tier1(int threshold, long p) {
        return new byte[] {(byte) threshold, (byte) p};
    }

    private static byte[] tier2(int threshold, long p) {
        return new byte[] {(byte) (threshold + 1), (byte) (p >>> 8), (byte) p};
    }

    private static byte[] tier3(int threshold, long p) {
        return new byte[] {(byte) (threshold + 2), (byte) (p >>> 16), (byte) (p >>> 8), (byte) p};
    }

    private static byte[] tier4(int threshold, long p) {
        return new byte[] {(byte) (threshold + 3), (byte) (p >>> 24), (byte) (p >>> 16), (byte) (p >>> 8), (byte) p};
    }

    private static byte[] tier5(int threshold, long p) {
        return new byte[] {
            (byte) (threshold + 4), (byte) (p >>> 32), (byte) (p >>> 24), (byte) (p >>> 16), (byte) (p >>> 8), (byte) p
        };
    }

    private static byte[] tier6(int threshold, long p) {
        return new byte[] {
            (byte) (threshold + 5),
            (byte) (p >>> 40),
            (byte) (p >>> 32),
            (byte) (p >>> 24),
            (byte) (p >>> 16),
            (byte) (p >>> 8),
            (byte) p
        };
    }

    private static byte[] tier7(int threshold, long p) {
        return new byte[] {
            (byte) (threshold + 6),
            (byte) (p >>> 48),
            (byte) (p >>> 40),
            (byte) (p >>> 32),
            (byte) (p >>> 24),
            (byte) (p >>> 16),
            (byte) (p >>> 8),
            (byte) p
        };
    }

    private static byte[] tier8(int threshold, long p) {
        return new byte[] {
            (byte) (threshold + 7),
            (byte) (p >>> 56),
            (byte) (p >>> 48),
            (byte) (p >>> 40),
            (byte) (p >>> 32),
            (byte) (p >>> 24),
            (byte) (p >>> 16),
            (byte) (p >>> 8),
            (byte) p
        };
    }

    /**
     * The length announced by the record's tag, after checking the record is non-empty and holds it.
     *
     * @throws Bijou64Exception EMPTY or TRUNCATED
     */
    int announcedLength(byte[] src, int off, int len, String format) {
        Objects.checkFromIndexSize(off, len, src.length);
        if (len == 0) {
            throw new Bijou64Exception(
                    Bijou64Exception.Kind.EMPTY,
                    -1,
                    "empty: a " + format + " value takes at least 1 byte, the record has 0");
        }
        int tag = src[off] & 0xFF;
        int needed = tag < threshold ? 1 : tag - threshold + 2;
        if (len < needed) {
            throw new Bijou64Exception(
                    Bijou64Exception.Kind.TRUNCATED,
                    -1,
                    String.format(
                            "truncated: tag 0x%02x announces a %d-byte %s value, %d bytes present",
                            tag, needed, format, len));
        }
        return needed;
    }

    /**
     * The unsigned value of the {@code length}-byte encoding at {@code src[off]} (length from
     * {@link #announcedLength}).
     *
     * @throws Bijou64Exception OVERFLOW
     */
    long value(byte[] src, int off, int length, String format) {
        if (length == 1) {
            return src[off] & 0xFF;
        }
        int tier = length - 1;
        long payload = 0;
        for (int i = 1; i <= tier; i++) {
            payload = (payload << 8) | (src[off + i] & 0xFF);
        }
        if (Long.compareUnsigned(payload, maxValue - offsets[tier]) > 0) {
            throw new Bijou64Exception(
                    Bijou64Exception.Kind.OVERFLOW,
                    -1,
                    "overflow: the " + length + "-byte " + format + " value exceeds the type's range");
        }
        return offsets[tier] + payload;
    }

    /**
     * Strict whole-record decode of an unsigned value. The fast path takes a record whose tag announces exactly
     * its length and whose value is in range; anything else (empty, truncated, trailing bytes, overflow) goes
     * through {@link #decodeRecordChecked}, which raises the error.
     *
     * @throws Bijou64Exception EMPTY, TRUNCATED, OVERFLOW or TRAILING_BYTES
     * @throws IndexOutOfBoundsException when the range lies outside {@code src}
     */
    long decodeRecord(byte[] src, int off, int len, String format) {
        Objects.checkFromIndexSize(off, len, src.length);
        if (len > 0) {
            int tag = src[off] & 0xFF;
            int tier = len - 1;
            if (tier == 0) {
                if (tag < threshold) {
                    return tag;
                }
            } else if (tag == threshold + tier - 1 && tier < offsets.length) {
                long payload = payload(src, off + 1, tier);
                if (Long.compareUnsigned(payload, maxValue - offsets[tier]) <= 0) {
                    return offsets[tier] + payload;
                }
            }
        }
        return decodeRecordChecked(src, off, len, format);
    }

    /**
     * The {@code length} big-endian bytes at {@code src[at]}, {@code length} 1 to 8, within bounds (checked by
     * the caller): at most three loads, no loop.
     */
    private static long payload(byte[] src, int at, int length) {
        switch (length) {
            case 1:
                return src[at] & 0xFFL;
            case 2:
                return (short) SHORT.get(src, at) & 0xFFFFL;
            case 3:
                return (src[at] & 0xFFL) << 16 | ((short) SHORT.get(src, at + 1) & 0xFFFFL);
            case 4:
                return (int) INT.get(src, at) & 0xFFFF_FFFFL;
            case 5:
                return (src[at] & 0xFFL) << 32 | ((int) INT.get(src, at + 1) & 0xFFFF_FFFFL);
            case 6:
                return ((short) SHORT.get(src, at) & 0xFFFFL) << 32 | ((int) INT.get(src, at + 2) & 0xFFFF_FFFFL);
            case 7:
                return (src[at] & 0xFFL) << 48
                        | ((short) SHORT.get(src, at + 1) & 0xFFFFL) << 32
                        | ((int) INT.get(src, at + 3) & 0xFFFF_FFFFL);
            default:
                return (long) LONG.get(src, at);
        }
    }

    /** The general whole-record decode, which raises every error of {@link #decodeRecord}. */
    private long decodeRecordChecked(byte[] src, int off, int len, String format) {
        int length = announcedLength(src, off, len, format);
        long u = value(src, off, length, format);
        if (length != len) {
            throw new Bijou64Exception(
                    Bijou64Exception.Kind.TRAILING_BYTES,
                    -1,
                    "trailing bytes: a " + length + "-byte " + format + " value is followed by " + (len - length)
                            + " more bytes");
        }
        return u;
    }

    /** Largest Java array length that HotSpot allocates. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * @param total the encoded length of a slab
     * @return it as an array length
     * @throws Bijou64Exception SLAB_TOO_LARGE past the largest Java array
     */
    static int slabLength(long total) {
        if (total > MAX_ARRAY) {
            throw new Bijou64Exception(
                    Bijou64Exception.Kind.SLAB_TOO_LARGE,
                    -1,
                    "slab too large: " + total + " bytes exceed the largest Java array");
        }
        return (int) total;
    }

    /** Checks slab offsets as the native library does, with the same messages. */
    static void checkOffsets(int slabLength, int[] offsets) {
        String reason = offsetsProblem(slabLength, offsets);
        if (reason != null) {
            throw new Bijou64Exception(Bijou64Exception.Kind.INVALID_OFFSETS, -1, "invalid offsets: " + reason);
        }
    }

    private static String offsetsProblem(int slabLength, int[] offsets) {
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < 0) {
                return "offsets[" + i + "] = " + offsets[i] + " is negative";
            }
        }
        if (offsets.length == 0) {
            return "no offsets: n records need n + 1 offsets";
        }
        if (offsets[0] != 0) {
            return "offsets[0] is " + offsets[0] + ", expected 0";
        }
        if (offsets[offsets.length - 1] != slabLength) {
            return "last offset is " + offsets[offsets.length - 1] + ", expected the slab length " + slabLength;
        }
        for (int i = 1; i < offsets.length; i++) {
            if (offsets[i] < offsets[i - 1]) {
                return "offsets[" + i + "] = " + offsets[i] + " is less than offsets[" + (i - 1) + "] = "
                        + offsets[i - 1];
            }
        }
        return null;
    }

    /** Re-throws a record's error with its index in the slab. */
    static Bijou64Exception inRecord(int index, Bijou64Exception e) {
        return new Bijou64Exception(e.kind(), index, e.getMessage());
    }
}
