package org.bijou64;

/**
 * Kafka Integer values as bijou32 (mapping {@link Mapping#UNSIGNED}) or bijou32s
 * ({@link Mapping#ZIGZAG}) records. Obtain one from {@link Bijou32#codec(Mapping)}. Instances are
 * immutable and thread-safe; both implementations produce the same bytes and the same errors.
 */
public interface IntCodec {
    /** @return the mapping of signed values onto the format */
    Mapping mapping();

    /** @return which implementation does the work */
    Implementation implementation();

    /**
     * @param value any int
     * @return the encoded length in bytes, 1 to 5
     */
    int encodedLength(int value);

    /**
     * @param value any int
     * @return a new array holding the value's one canonical encoding (1 to 5 bytes)
     */
    byte[] encode(int value);

    /**
     * Decodes one whole record: exactly one value that consumes every byte.
     *
     * @param record the record's bytes, not null
     * @return the value
     * @throws Bijou64Exception {@code EMPTY}, {@code TRUNCATED}, {@code OVERFLOW} or {@code TRAILING_BYTES}
     */
    default int decode(byte[] record) {
        return decode(record, 0, record.length);
    }

    /**
     * Decodes one whole record held in {@code src[offset .. offset + length)}.
     *
     * @param src the array, not null
     * @param offset where the record starts
     * @param length the record's length in bytes
     * @return the value
     * @throws Bijou64Exception {@code EMPTY}, {@code TRUNCATED}, {@code OVERFLOW} or {@code TRAILING_BYTES}
     * @throws IndexOutOfBoundsException when the range lies outside {@code src}
     */
    int decode(byte[] src, int offset, int length);

    /**
     * Decodes the value at the start of {@code src[offset .. offset + length)}, ignoring later bytes
     * ({@code 2a 99} gives value 42, consumed 1).
     *
     * @param src the array, not null
     * @param offset where the value starts
     * @param length bytes available
     * @return the value and the bytes it took
     * @throws Bijou64Exception {@code EMPTY}, {@code TRUNCATED} or {@code OVERFLOW}
     */
    Decoded decodePrefix(byte[] src, int offset, int length);

    /**
     * Encodes many values into one slab, one record per value (one JNI crossing when native).
     *
     * @param values the values, not null
     * @return the slab and its {@code values.length + 1} offsets
     */
    EncodedSlab encodeAll(int[] values);

    /**
     * Decodes every record of a slab with the whole-record rule of {@link #decode(byte[])}.
     *
     * @param slab the records' bytes back to back, not null
     * @param offsets {@code n + 1} non-decreasing offsets from 0 to {@code slab.length}, not null
     * @return the {@code n} values
     * @throws Bijou64Exception {@code INVALID_OFFSETS}, or the kind of the first invalid record
     *     with its {@link Bijou64Exception#recordIndex() index}
     */
    int[] decodeAll(byte[] slab, int[] offsets);
}
