package org.bijou64;

/** The pure-Java {@link LongCodec}. */
final class JavaLongCodec implements LongCodec {
    private static final JavaFormat FORMAT = JavaFormat.BIJOU64;

    private final Mapping mapping;
    private final boolean zigzag;
    private final String formatName;

    JavaLongCodec(Mapping mapping) {
        this.mapping = mapping;
        this.zigzag = mapping == Mapping.ZIGZAG;
        this.formatName = zigzag ? "bijou64s" : "bijou64";
    }

    private long toUnsigned(long v) {
        return zigzag ? (v << 1) ^ (v >> 63) : v;
    }

    private long fromUnsigned(long u) {
        return zigzag ? (u >>> 1) ^ -(u & 1) : u;
    }

    @Override
    public Mapping mapping() {
        return mapping;
    }

    @Override
    public Implementation implementation() {
        return Implementation.JAVA;
    }

    @Override
    public int encodedLength(long value) {
        return FORMAT.encodedLength(toUnsigned(value));
    }

    @Override
    public byte[] encode(long value) {
        return JavaFormat.encode64(toUnsigned(value));
    }

    @Override
    public long decode(byte[] src, int offset, int length) {
        return fromUnsigned(FORMAT.decodeRecord(src, offset, length, formatName));
    }

    @Override
    public Decoded decodePrefix(byte[] src, int offset, int length) {
        int consumed = FORMAT.announcedLength(src, offset, length, formatName);
        return new Decoded(fromUnsigned(FORMAT.value(src, offset, consumed, formatName)), consumed);
    }

    @Override
    public EncodedSlab encodeAll(long[] values) {
        long total = 0;
        for (long v : values) {
            total += FORMAT.encodedLength(toUnsigned(v));
        }
        byte[] bytes = new byte[JavaFormat.slabLength(total)];
        int[] offsets = new int[values.length + 1];
        int at = 0;
        for (int i = 0; i < values.length; i++) {
            at += FORMAT.encode(toUnsigned(values[i]), bytes, at);
            offsets[i + 1] = at;
        }
        return new EncodedSlab(bytes, offsets);
    }

    @Override
    public long[] decodeAll(byte[] slab, int[] offsets) {
        JavaFormat.checkOffsets(slab.length, offsets);
        long[] values = new long[offsets.length - 1];
        for (int i = 0; i < values.length; i++) {
            try {
                values[i] = decode(slab, offsets[i], offsets[i + 1] - offsets[i]);
            } catch (Bijou64Exception e) {
                throw JavaFormat.inRecord(i, e);
            }
        }
        return values;
    }
}
