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
 * <p>The static methods use the {@link Mapping#UNSIGNED unsigned} mapping and the default codec
 * ({@link Implementation#AUTO}): pure Java for single values, where it is faster than a JNI crossing, and the
 * native library for bulk calls of at least {@link #NATIVE_BULK_MIN_VALUES} values when it loads and
 * {@code -Dbijou64.useJava=true} is not set (see {@link NativeLibrary} for the load order). Both write the same
 * bytes; the format is specified in {@code docs/format.md}.
 */
public final class Bijou64 {
    /** Typed as the final class, so the static per-record calls below are direct calls, inlined by the JIT. */
    private static final JavaLongCodec[] JAVA = {new JavaLongCodec(Mapping.UNSIGNED), new JavaLongCodec(Mapping.ZIGZAG)
    };

    private static final LongCodec[] NATIVE = NativeLibrary.isLoaded()
            ? new LongCodec[] {new NativeLongCodec(Mapping.UNSIGNED), new NativeLongCodec(Mapping.ZIGZAG)}
            : null;
    private static final LongCodec[] DEFAULT = NATIVE == null
            ? JAVA
            : new LongCodec[] {new AutoLongCodec(JAVA[0], NATIVE[0]), new AutoLongCodec(JAVA[1], NATIVE[1])};

    private Bijou64() {}

    /**
     * Bulk calls of at least this many values go native in the {@link Implementation#AUTO default codec}; smaller
     * ones, and every single-value call, stay in Java, where a JNI crossing would cost more than it saves. Chosen
     * from the JMH figures in {@code docs/benchmarks.md}.
     */
    public static final int NATIVE_BULK_MIN_VALUES = 4096;

    /** @return {@link Implementation#AUTO} when the native library is loaded and not disabled, else JAVA */
    public static Implementation implementation() {
        return NativeLibrary.isLoaded() ? Implementation.AUTO : Implementation.JAVA;
    }

    /** @return true when the native library is loaded (so {@link Implementation#NATIVE} codecs are available) */
    public static boolean nativeAvailable() {
        return NativeLibrary.isLoaded();
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
     * @return the default codec: {@link Implementation#AUTO} when the native library is loaded (pure Java for
     *     single values and small bulk calls, native for bulk calls of at least {@link Bijou64#NATIVE_BULK_MIN_VALUES}
     *     values), else pure Java
     */
    public static LongCodec codec(Mapping mapping) {
        return DEFAULT[mapping.ordinal()];
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
        if (implementation == Implementation.AUTO) {
            return DEFAULT[mapping.ordinal()];
        }
        if (NATIVE == null) {
            throw new IllegalStateException(
                    "bijou64 native library not loaded: "
                            + NativeLibrary.loadError()
                                    .map(Throwable::getMessage)
                                    .orElse("?"),
                    NativeLibrary.loadError().orElse(null));
        }
        return NATIVE[mapping.ordinal()];
    }

    /**
     * @param value any long
     * @return its unsigned-mapping bijou64 encoding, 1 to 9 bytes
     */
    public static byte[] encode(long value) {
        return JAVA[0].encode(value);
    }

    /**
     * The per-record encode the Kafka serializers call: pure Java (what every codec writes, and what the default
     * codec does for single values), a direct call with no codec object to dispatch on.
     *
     * @param value any long
     * @param mapping the mapping, not null
     * @return a new array holding the value's one canonical bijou64 (zigzag: bijou64s) encoding, 1 to 9 bytes
     */
    public static byte[] encode(long value, Mapping mapping) {
        return JAVA[mapping.ordinal()].encode(value);
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
        return JAVA[0].decode(record);
    }

    /**
     * The per-record strict decode the Kafka deserializers call, pure Java as {@link #encode(long, Mapping)}: the
     * record in {@code src[offset .. offset + length)} must be exactly one value.
     *
     * @param src the array, not null
     * @param offset where the record starts
     * @param length the record's length in bytes
     * @param mapping the mapping, not null
     * @return the value
     * @throws Bijou64Exception EMPTY, TRUNCATED, OVERFLOW or TRAILING_BYTES, with the messages of every codec
     * @throws IndexOutOfBoundsException when the range lies outside {@code src}
     */
    public static long decode(byte[] src, int offset, int length, Mapping mapping) {
        return JAVA[mapping.ordinal()].decode(src, offset, length);
    }

    /**
     * @param values the values
     * @return one slab with {@code values.length + 1} offsets
     */
    public static EncodedSlab encodeAll(long[] values) {
        return DEFAULT[0].encodeAll(values);
    }

    /**
     * @param slab records back to back
     * @param offsets {@code n + 1} boundaries
     * @return the values
     * @throws Bijou64Exception for bad offsets or the first invalid record
     */
    public static long[] decodeAll(byte[] slab, int[] offsets) {
        return DEFAULT[0].decodeAll(slab, offsets);
    }
}
