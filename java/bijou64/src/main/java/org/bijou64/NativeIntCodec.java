package org.bijou64;

import java.util.Objects;

/** The {@link IntCodec} backed by the Rust core through JNI. */
final class NativeIntCodec implements IntCodec {
    private final Mapping mapping;
    private final int code;
    private final JavaIntCodec lengths;

    NativeIntCodec(Mapping mapping) {
        this.mapping = mapping;
        this.code = mapping.ordinal();
        this.lengths = new JavaIntCodec(mapping); // pure arithmetic: no reason to cross JNI
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
    public int encodedLength(int value) {
        return lengths.encodedLength(value);
    }

    @Override
    public byte[] encode(int value) {
        return NativeCodec.encodeInt(value, code);
    }

    @Override
    public int decode(byte[] src, int offset, int length) {
        Objects.requireNonNull(src, "src");
        return NativeCodec.decodeInt(src, offset, length, code);
    }

    @Override
    public Decoded decodePrefix(byte[] src, int offset, int length) {
        Objects.requireNonNull(src, "src");
        int[] consumed = new int[1];
        int value = NativeCodec.decodeIntPrefix(src, offset, length, code, consumed);
        return new Decoded(value, consumed[0]);
    }

    @Override
    public EncodedSlab encodeAll(int[] values) {
        int[] offsets = new int[Objects.requireNonNull(values, "values").length + 1];
        byte[] bytes = NativeCodec.encodeInts(values, code, offsets);
        return new EncodedSlab(bytes, offsets);
    }

    @Override
    public int[] decodeAll(byte[] slab, int[] offsets) {
        return NativeCodec.decodeInts(
                Objects.requireNonNull(slab, "slab"), Objects.requireNonNull(offsets, "offsets"), code);
    }
}
