package org.bijou64;

/** The pure-Java {@link IntCodec}. */
final class JavaIntCodec implements IntCodec {
    private static final JavaFormat FORMAT = JavaFormat.BIJOU32;

    private final Mapping mapping;
    private final boolean zigzag;
    private final String formatName;

    JavaIntCodec(Mapping mapping) {
        this.mapping = mapping;
        this.zigzag = mapping == Mapping.ZIGZAG;
        this.formatName = zigzag ? "bijou32s" : "bijou32";
    }

    private long toUnsigned(int v) {
        return Integer.toUnsignedLong(zigzag ? (v << 1) ^ (v >> 31) : v);
    }

    private int fromUnsigned(long u) {
        int x = (int) u;
        return zigzag ? (x >>> 1) ^ -(x & 1) : x;
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
    public int encodedLength(int value) {
        return FORMAT.encodedLength(toUnsigned(value));
    }

    @Override
    public byte[] encode(int value) {
        return JavaFormat.encode32(toUnsigned(value));
    }

    @Override
    public int decode(byte[] src, int offset, int length) {
        return fromUnsigned(FORMAT.decodeRecord(src, offset, length, formatName));
    }

    @Override
    public Decoded decodePrefix(byte[] src, int offset, int length) {
        int consumed = FORMAT.announcedLength(src, offset, length, formatName);
        return new Decoded(fromUnsigned(FORMAT.value(src, offset, consumed, formatName)), consumed);
    }

    @Override
    public EncodedSlab encodeAll(int[] values) {
        long total = 0;
        for (int v : values) {
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
    public int[] decodeAll(byte[] slab, int[] offsets) {
        JavaFormat.checkOffsets(slab.length, offsets);
        int[] values = new int[offsets.length - 1];
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
