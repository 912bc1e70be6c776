package org.bijou64;

/**
 * The JNI entry points of {@code libkafka_serde_native} ({@code rust/kafka-serde-native/src/bijou64.rs}).
 * Arguments are copied into native memory and results are fresh arrays; nothing is retained across calls.
 * {@code mapping} is {@link Mapping#ordinal()}. Errors arrive as {@link Bijou64Exception}, null
 * arrays as {@link NullPointerException}, bad ranges as {@link IndexOutOfBoundsException}; a native
 * panic becomes {@link IllegalStateException}. Callers must first check {@link NativeLibrary#isLoaded()}.
 */
final class NativeCodec {
    private NativeCodec() {
    }

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
