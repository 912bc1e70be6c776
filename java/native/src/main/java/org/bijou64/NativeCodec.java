package org.bijou64;

/**
 * The bijou64 JNI entry points of {@code libkafka_serde_native} ({@code rust/kafka-serde-native/src/bijou64.rs}), declared
 * next to {@link NativeLibrary}, whose version check calls {@link #version()}; the codec calls are made by
 * the codec classes of {@code org.bijou64:bijou64} (same package, same class loader). Arguments
 * are copied into native memory and results are fresh arrays; nothing is retained across calls.
 * {@code mapping} is {@code Mapping.ordinal()}. Errors arrive as {@code Bijou64Exception}, null
 * arrays as {@link NullPointerException}, bad ranges as {@link IndexOutOfBoundsException}; a native
 * panic becomes {@link IllegalStateException}. Callers must first check {@link NativeLibrary#isLoaded()}.
 */
final class NativeCodec {
    private NativeCodec() {}

    static native String version();

    static native byte[] encodeLong(long value, int mapping);

    static native long decodeLong(byte[] src, int offset, int length, int mapping);

    static native long decodeLongPrefix(byte[] src, int offset, int length, int mapping, int[] consumedOut);

    static native byte[] encodeLongs(long[] values, int mapping, int[] offsetsOut);

    static native long[] decodeLongs(byte[] slab, int[] offsets, int mapping);

    static native byte[] encodeInt(int value, int mapping);

    static native int decodeInt(byte[] src, int offset, int length, int mapping);

    static native int decodeIntPrefix(byte[] src, int offset, int length, int mapping, int[] consumedOut);

    static native byte[] encodeInts(int[] values, int mapping, int[] offsetsOut);

    static native int[] decodeInts(byte[] slab, int[] offsets, int mapping);
}
