package org.bijou64;

import java.util.Optional;

/**
 * Kafka Long values in bijou64: the entry point of this library.
 *
 * <pre>{@code
 * byte[] record = Bijou64.encode(300L);        // f8 34
 * long value = Bijou64.decode(record);         // 300; throws Bijou64Exception for malformed bytes
 * LongCodec zigzag = Bijou64.codec(Mapping.ZIGZAG);
 * }</pre>
 *
 * <p>The static methods use the {@link Mapping#UNSIGNED unsigned} mapping and the
 * {@link #implementation() active implementation}: native when the bundled library loads and
 * {@code -Dbijou64.useJava=true} is not set, else pure Java (see {@link NativeLibrary} for the
 * load order). Both write the same bytes; the format is specified in {@code docs/format.md}.
 */
public final class Bijou64 {
    private static final LongCodec[] JAVA = {new JavaLongCodec(Mapping.UNSIGNED), new JavaLongCodec(Mapping.ZIGZAG)};
    private static final LongCodec[] NATIVE = NativeLibrary.isLoaded()
            ? new LongCodec[] {new NativeLongCodec(Mapping.UNSIGNED), new NativeLongCodec(Mapping.ZIGZAG)}
            : JAVA;

    private Bijou64() {
    }

    /** @return {@link Implementation#NATIVE} when the native library is loaded and not disabled, else JAVA */
    public static Implementation implementation() {
        return NativeLibrary.isLoaded() ? Implementation.NATIVE : Implementation.JAVA;
    }

    /** @return why the native library is not in use (missing, broken, stale, or disabled), if it is not */
    public static Optional<Throwable> nativeLoadError() {
        return NativeLibrary.loadError();
    }

    /** @return the version the loaded native library reports, if one is loaded */
    public static Optional<String> nativeVersion() {
        return NativeLibrary.version();
    }

    /**
     * @param mapping the mapping
     * @return the codec of the active implementation
     */
    public static LongCodec codec(Mapping mapping) {
        return NATIVE[mapping.ordinal()];
    }

    /**
     * @param mapping the mapping
     * @param implementation the implementation wanted
     * @return that codec
     * @throws IllegalStateException when NATIVE is asked for but not loaded (the message gives the reason)
     */
    public static LongCodec codec(Mapping mapping, Implementation implementation) {
        if (implementation == Implementation.JAVA) {
            return JAVA[mapping.ordinal()];
        }
        if (!NativeLibrary.isLoaded()) {
            throw new IllegalStateException("bijou64 native library not loaded",
                    NativeLibrary.loadError().orElse(null));
        }
        return NATIVE[mapping.ordinal()];
    }

    /**
     * @param value any long
     * @return its unsigned-mapping bijou64 encoding, 1 to 9 bytes
     */
    public static byte[] encode(long value) {
        return NATIVE[0].encode(value);
    }

    /**
     * @param value any long
     * @return the encoded length, 1 to 9
     */
    public static int encodedLength(long value) {
        return JAVA[0].encodedLength(value);
    }

    /**
     * Strict whole-record decode under the unsigned mapping.
     *
     * @param record the bytes, not null
     * @return the value
     * @throws Bijou64Exception EMPTY, TRUNCATED, OVERFLOW or TRAILING_BYTES
     */
    public static long decode(byte[] record) {
        return NATIVE[0].decode(record);
    }

    /**
     * @param values the values
     * @return one slab with {@code values.length + 1} offsets
     */
    public static EncodedSlab encodeAll(long[] values) {
        return NATIVE[0].encodeAll(values);
    }

    /**
     * @param slab records back to back
     * @param offsets {@code n + 1} boundaries
     * @return the values
     * @throws Bijou64Exception for bad offsets or the first invalid record
     */
    public static long[] decodeAll(byte[] slab, int[] offsets) {
        return NATIVE[0].decodeAll(slab, offsets);
    }
}
