package org.bijou64;

/**
 * Kafka Integer values in bijou32 (not bijou64: the 32-bit format uses threshold 252, so the two
 * differ on the wire from 248 up). Same conventions as {@link Bijou64}.
 */
public final class Bijou32 {
    /** Typed as the final class, so the static per-record calls below are direct calls, inlined by the JIT. */
    private static final JavaIntCodec[] JAVA = {new JavaIntCodec(Mapping.UNSIGNED), new JavaIntCodec(Mapping.ZIGZAG)};

    private static final IntCodec[] NATIVE = NativeLibrary.isLoaded()
            ? new IntCodec[] {new NativeIntCodec(Mapping.UNSIGNED), new NativeIntCodec(Mapping.ZIGZAG)}
            : null;
    private static final IntCodec[] DEFAULT = NATIVE == null
            ? JAVA
            : new IntCodec[] {new AutoIntCodec(JAVA[0], NATIVE[0]), new AutoIntCodec(JAVA[1], NATIVE[1])};

    private Bijou32() {}

    /** @return the default codec's implementation, as {@link Bijou64#implementation()} */
    public static Implementation implementation() {
        return Bijou64.implementation();
    }

    /**
     * @param mapping the mapping
     * @return the default codec: {@link Implementation#AUTO} when the native library is loaded (pure Java for
     *     single values and small bulk calls, native for bulk calls of at least {@link Bijou64#NATIVE_BULK_MIN_VALUES}
     *     values), else pure Java
     */
    public static IntCodec codec(Mapping mapping) {
        return DEFAULT[mapping.ordinal()];
    }

    /**
     * @param mapping the mapping
     * @param implementation the implementation wanted
     * @return that codec
     * @throws IllegalStateException when NATIVE is asked for but not loaded
     */
    public static IntCodec codec(Mapping mapping, Implementation implementation) {
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
     * @param value any int
     * @return its unsigned-mapping bijou32 encoding, 1 to 5 bytes
     */
    public static byte[] encode(int value) {
        return JAVA[0].encode(value);
    }

    /**
     * The per-record encode the Kafka serializers call: pure Java (what every codec writes, and what the default
     * codec does for single values), a direct call with no codec object to dispatch on.
     *
     * @param value any int
     * @param mapping the mapping, not null
     * @return a new array holding the value's one canonical bijou32 (zigzag: bijou32s) encoding, 1 to 5 bytes
     */
    public static byte[] encode(int value, Mapping mapping) {
        return JAVA[mapping.ordinal()].encode(value);
    }

    /**
     * @param value any int
     * @return the encoded length, 1 to 5
     */
    public static int encodedLength(int value) {
        return JAVA[0].encodedLength(value);
    }

    /**
     * @param record the bytes, not null
     * @return the value
     * @throws Bijou64Exception EMPTY, TRUNCATED, OVERFLOW or TRAILING_BYTES
     */
    public static int decode(byte[] record) {
        return JAVA[0].decode(record);
    }

    /**
     * The per-record strict decode the Kafka deserializers call, pure Java as {@link #encode(int, Mapping)}: the
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
    public static int decode(byte[] src, int offset, int length, Mapping mapping) {
        return JAVA[mapping.ordinal()].decode(src, offset, length);
    }

    /**
     * @param values the values
     * @return one slab with {@code values.length + 1} offsets
     */
    public static EncodedSlab encodeAll(int[] values) {
        return DEFAULT[0].encodeAll(values);
    }

    /**
     * @param slab records back to back
     * @param offsets {@code n + 1} boundaries
     * @return the values
     * @throws Bijou64Exception for bad offsets or the first invalid record
     */
    public static int[] decodeAll(byte[] slab, int[] offsets) {
        return DEFAULT[0].decodeAll(slab, offsets);
    }
}
