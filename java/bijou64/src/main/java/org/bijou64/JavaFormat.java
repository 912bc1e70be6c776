package org.bijou64;

import java.util.Objects;

/**
 * The pure-Java bijou format, byte-identical to the upstream Rust {@code bijoux} crate (pinned by
 * {@code testdata/vectors/bijou.csv} and a differential test against the native library).
 *
 * <p>Values are handled as unsigned longs: the first byte below {@code threshold} is the value
 * itself; tag {@code threshold + t - 1} (t = 1..maxTier) is followed by t big-endian bytes holding
 * {@code value - OFFSET[t]}, with {@code OFFSET[1] = threshold} and
 * {@code OFFSET[t] = OFFSET[t-1] + 256^(t-1)}.
 */
final class JavaFormat {
    /** bijou64 (and bijou64s after zigzag): threshold 248, up to 9 bytes, values up to 2^64 - 1. */
    static final JavaFormat BIJOU64 = new JavaFormat(248, 8, -1L);
    /** bijou32 (and bijou32s after zigzag): threshold 252, up to 5 bytes, values up to 2^32 - 1. */
    static final JavaFormat BIJOU32 = new JavaFormat(252, 4, 0xFFFF_FFFFL);

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

    byte[] encode(long u) {
        byte[] out = new byte[encodedLength(u)];
        encode(u, out, 0);
        return out;
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

    /** Strict whole-record decode of an unsigned value. */
    long decodeRecord(byte[] src, int off, int len, String format) {
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
