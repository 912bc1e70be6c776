package org.bijou64;

import java.util.Objects;

/** The {@link LongCodec} backed by the Rust core through JNI. */
final class NativeLongCodec implements LongCodec {
    private final Mapping mapping;
    private final int code;
    private final JavaLongCodec lengths;

    NativeLongCodec(Mapping mapping) {
        this.mapping = mapping;
        this.code = mapping.ordinal();
        this.lengths = new JavaLongCodec(mapping); // pure arithmetic: no reason to cross JNI
    }

    @Override
    public Mapping mapping() {
        return mapping;
    }

    @Override
    public Implementation implementation() {
        return Implementation.NATIVE;
    }

    @Override
    public int encodedLength(long value) {
        return lengths.encodedLength(value);
    }

    @Override
    public byte[] encode(long value) {
        return NativeCodec.encodeLong(value, code);
    }

    @Override
    public long decode(byte[] src, int offset, int length) {
        Objects.requireNonNull(src, "src");
        return NativeCodec.decodeLong(src, offset, length, code);
    }

    @Override
    public Decoded decodePrefix(byte[] src, int offset, int length) {
        Objects.requireNonNull(src, "src");
        int[] consumed = new int[1];
        long value = NativeCodec.decodeLongPrefix(src, offset, length, code, consumed);
        return new Decoded(value, consumed[0]);
    }

    @Override
    public EncodedSlab encodeAll(long[] values) {
        int[] offsets = new int[Objects.requireNonNull(values, "values").length + 1];
        byte[] bytes = NativeCodec.encodeLongs(values, code, offsets);
        return new EncodedSlab(bytes, offsets);
    }

    @Override
    public long[] decodeAll(byte[] slab, int[] offsets) {
        return NativeCodec.decodeLongs(
                Objects.requireNonNull(slab, "slab"), Objects.requireNonNull(offsets, "offsets"), code);
    }
}
