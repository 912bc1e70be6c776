package org.bijou64;

import java.util.Arrays;

/**
 * Encoded records: one byte slab plus {@code size() + 1} offsets. Record {@code i} is
 * {@code bytes[offsets[i] .. offsets[i + 1])}. The arrays are owned by this object and not copied;
 * do not modify them.
 *
 * @param bytes every record's bytes, back to back
 * @param offsets the {@code n + 1} record boundaries, {@code offsets[0] == 0},
 *     {@code offsets[n] == bytes.length}
 */
public record EncodedSlab(byte[] bytes, int[] offsets) {
    /** @return the number of records */
    public int size() {
        return offsets.length - 1;
    }

    /**
     * @param index the record, {@code 0 <= index < size()}
     * @return a copy of the record's bytes
     */
    public byte[] record(int index) {
        return Arrays.copyOfRange(bytes, offsets[index], offsets[index + 1]);
    }

    /** @return the length of record {@code index} in bytes */
    public int recordLength(int index) {
        return offsets[index + 1] - offsets[index];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EncodedSlab other
                && Arrays.equals(bytes, other.bytes)
                && Arrays.equals(offsets, other.offsets);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bytes) + Arrays.hashCode(offsets);
    }

    @Override
    public String toString() {
        return "EncodedSlab[records=" + size() + ", bytes=" + bytes.length + "]";
    }
}
