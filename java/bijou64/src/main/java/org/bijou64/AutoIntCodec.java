package org.bijou64;

/**
 * The default {@link IntCodec} ({@link Implementation#AUTO}): pure Java for single values and small bulk
 * calls, native for bulk calls of at least {@link Bijou64#NATIVE_BULK_MIN_VALUES} values. Both write the
 * same bytes and throw the same errors, so the choice is invisible except in speed.
 */
final class AutoIntCodec implements IntCodec {
    private final IntCodec java;
    private final IntCodec bulk;

    AutoIntCodec(IntCodec java, IntCodec nativeCodec) {
        this.java = java;
        this.bulk = nativeCodec;
    }

    @Override
    public Mapping mapping() {
        return java.mapping();
    }

    @Override
    public Implementation implementation() {
        return Implementation.AUTO;
    }

    @Override
    public int encodedLength(int value) {
        return java.encodedLength(value);
    }

    @Override
    public byte[] encode(int value) {
        return java.encode(value);
    }

    @Override
    public int decode(byte[] src, int offset, int length) {
        return java.decode(src, offset, length);
    }

    @Override
    public Decoded decodePrefix(byte[] src, int offset, int length) {
        return java.decodePrefix(src, offset, length);
    }

    @Override
    public EncodedSlab encodeAll(int[] values) {
        return (values.length >= Bijou64.NATIVE_BULK_MIN_VALUES ? bulk : java).encodeAll(values);
    }

    @Override
    public int[] decodeAll(byte[] slab, int[] offsets) {
        return (offsets.length - 1 >= Bijou64.NATIVE_BULK_MIN_VALUES ? bulk : java).decodeAll(slab, offsets);
    }
}
