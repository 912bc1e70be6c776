package org.streamfusion.kafka;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The Kafka records of one encoded batch, in the layout the native encoder writes: one key slab, one value
 * slab, and per row an offset and a length into each. Row {@code i}'s key is
 * {@code keys()[keyOffsets()[i] .. keyOffsets()[i] + keyLengths()[i]]}; a length of {@code -1} means a null
 * key (no {@code key.fields}) or a tombstone value (an upsert delete). A present empty key or value has
 * length 0. Rows are in batch order.
 *
 * <p><b>Ownership.</b> The six arrays are ordinary JVM arrays made fresh by the native call that produced
 * this batch; nothing native refers to them, and the encoder never reuses them. The accessors return the
 * arrays themselves (no copy): treat them as read-only. {@link #key(int)} / {@link #value(int)} copy one
 * record (the copy made when a record is handed to Kafka); {@link #keyView(int)} / {@link #valueView(int)}
 * copy nothing. Instances are immutable and safe to share between threads once published.
 */
public final class EncodedBatch {
    /**
     * The arrays one native {@code encode} returns: {@code byte[] keys, byte[] values, int[] keyOffsets,
     * int[] keyLengths, int[] valueOffsets, int[] valueLengths}. Equal to the native constant (checked by
     * {@code LayoutTest}).
     */
    static final int NATIVE_ARRAYS = 6;

    private final byte[] keys;
    private final byte[] values;
    private final int[] keyOffsets;
    private final int[] keyLengths;
    private final int[] valueOffsets;
    private final int[] valueLengths;
    private final long encodeNanos;

    EncodedBatch(
            byte[] keys,
            byte[] values,
            int[] keyOffsets,
            int[] keyLengths,
            int[] valueOffsets,
            int[] valueLengths,
            long encodeNanos) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.values = Objects.requireNonNull(values, "values");
        this.keyOffsets = Objects.requireNonNull(keyOffsets, "keyOffsets");
        this.keyLengths = Objects.requireNonNull(keyLengths, "keyLengths");
        this.valueOffsets = Objects.requireNonNull(valueOffsets, "valueOffsets");
        this.valueLengths = Objects.requireNonNull(valueLengths, "valueLengths");
        int rows = valueLengths.length;
        if (keyOffsets.length != rows || keyLengths.length != rows || valueOffsets.length != rows) {
            throw new IllegalArgumentException("offset and length arrays differ in length: " + keyOffsets.length + ", "
                    + keyLengths.length + ", " + valueOffsets.length + ", " + rows);
        }
        this.encodeNanos = encodeNanos;
    }

    /** The six arrays in the order the native {@code encode} returns them. */
    static EncodedBatch fromNative(Object[] six, long encodeNanos) {
        if (six == null || six.length != NATIVE_ARRAYS) {
            throw new IllegalStateException("native encode returned " + (six == null ? "null" : six.length + " arrays")
                    + ", expected " + NATIVE_ARRAYS);
        }
        return new EncodedBatch(
                (byte[]) six[0],
                (byte[]) six[1],
                (int[]) six[2],
                (int[]) six[3],
                (int[]) six[4],
                (int[]) six[5],
                encodeNanos);
    }

    /**
     * A batch made from one key and one value array per record, copied back to back into the two slabs: the
     * layout for records a front end encoded row by row on the JVM (small batches, where one JNI crossing
     * costs more than it saves). The arrays are not retained.
     *
     * @param keys per record, the key bytes, or null for a null key
     * @param values per record, the value bytes, or null for a tombstone; as many as {@code keys}
     * @param encodeNanos wall-clock nanoseconds spent encoding the records, reported by {@link #encodeNanos()}
     * @return the batch, records in array order
     * @throws NullPointerException if {@code keys} or {@code values} is null
     * @throws IllegalArgumentException if the two arrays differ in length, or a slab would exceed 2^31 - 1 bytes
     */
    public static EncodedBatch ofRecords(byte[][] keys, byte[][] values, long encodeNanos) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (keys.length != values.length) {
            throw new IllegalArgumentException(keys.length + " keys but " + values.length + " values");
        }
        int rows = keys.length;
        int[] keyOffsets = new int[rows];
        int[] keyLengths = new int[rows];
        int[] valueOffsets = new int[rows];
        int[] valueLengths = new int[rows];
        byte[] keySlab = slab(keys, keyOffsets, keyLengths, "key");
        byte[] valueSlab = slab(values, valueOffsets, valueLengths, "value");
        return new EncodedBatch(keySlab, valueSlab, keyOffsets, keyLengths, valueOffsets, valueLengths, encodeNanos);
    }

    private static byte[] slab(byte[][] records, int[] offsets, int[] lengths, String what) {
        long total = 0;
        for (byte[] record : records) {
            total += record == null ? 0 : record.length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the " + what + " slab would hold " + total
                    + " bytes, more than a Java array can: encode smaller batches");
        }
        byte[] slab = new byte[(int) total];
        int at = 0;
        for (int i = 0; i < records.length; i++) {
            byte[] record = records[i];
            offsets[i] = at;
            if (record == null) {
                lengths[i] = -1;
            } else {
                System.arraycopy(record, 0, slab, at, record.length);
                lengths[i] = record.length;
                at += record.length;
            }
        }
        return slab;
    }

    /** @return the number of records (rows of the encoded batch) */
    public int size() {
        return valueLengths.length;
    }

    /** @return true when the batch had no rows */
    public boolean isEmpty() {
        return valueLengths.length == 0;
    }

    /**
     * @param row record index, {@code 0 <= row < size()}
     * @return the key's length in bytes, or -1 for a null key
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public int keyLength(int row) {
        return keyLengths[row];
    }

    /**
     * @param row record index, {@code 0 <= row < size()}
     * @return the value's length in bytes, or -1 for a tombstone
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public int valueLength(int row) {
        return valueLengths[row];
    }

    /**
     * A fresh copy of one key: the one copy made per record when it is handed to Kafka.
     *
     * @param row record index, {@code 0 <= row < size()}
     * @return a new array owned by the caller, or null for a null key
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public byte[] key(int row) {
        return copy(keys, keyOffsets[row], keyLengths[row]);
    }

    /**
     * A fresh copy of one value: the one copy made per record when it is handed to Kafka.
     *
     * @param row record index, {@code 0 <= row < size()}
     * @return a new array owned by the caller, or null for a tombstone
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public byte[] value(int row) {
        return copy(values, valueOffsets[row], valueLengths[row]);
    }

    /**
     * A read-only view of one key inside the key slab, without copying: position 0 is the key's first byte,
     * limit its length. Valid as long as this batch is reachable (the slab is never reused).
     *
     * @param row record index, {@code 0 <= row < size()}
     * @return a new read-only buffer over the slab, or null for a null key
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public ByteBuffer keyView(int row) {
        return view(keys, keyOffsets[row], keyLengths[row]);
    }

    /**
     * A read-only view of one value inside the value slab, without copying (see {@link #keyView(int)}).
     *
     * @param row record index, {@code 0 <= row < size()}
     * @return a new read-only buffer over the slab, or null for a tombstone
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public ByteBuffer valueView(int row) {
        return view(values, valueOffsets[row], valueLengths[row]);
    }

    private static byte[] copy(byte[] slab, int offset, int length) {
        if (length < 0) {
            return null;
        }
        byte[] out = new byte[length];
        System.arraycopy(slab, offset, out, 0, length);
        return out;
    }

    private static ByteBuffer view(byte[] slab, int offset, int length) {
        if (length < 0) {
            return null;
        }
        return ByteBuffer.wrap(slab, offset, length).slice().asReadOnlyBuffer();
    }

    /** @return the key slab itself (not a copy; do not modify): every present key back to back */
    public byte[] keys() {
        return keys;
    }

    /** @return the value slab itself (not a copy; do not modify): every present value back to back */
    public byte[] values() {
        return values;
    }

    /** @return per row, the key's start in {@link #keys()} (not a copy; do not modify) */
    public int[] keyOffsets() {
        return keyOffsets;
    }

    /** @return per row, the key's length, -1 for a null key (not a copy; do not modify) */
    public int[] keyLengths() {
        return keyLengths;
    }

    /** @return per row, the value's start in {@link #values()} (not a copy; do not modify) */
    public int[] valueOffsets() {
        return valueOffsets;
    }

    /** @return per row, the value's length, -1 for a tombstone (not a copy; do not modify) */
    public int[] valueLengths() {
        return valueLengths;
    }

    /** @return the total bytes of all present keys, the key slab's length (null keys count 0) */
    public long keyBytes() {
        return keys.length;
    }

    /** @return the total bytes of all present values, the value slab's length (tombstones count 0) */
    public long valueBytes() {
        return values.length;
    }

    /**
     * @return wall-clock nanoseconds {@link NativeJsonEncoder#encode} spent on this batch: the Arrow C Data
     *     export, the native encode and the copy into the six arrays
     */
    public long encodeNanos() {
        return encodeNanos;
    }

    @Override
    public String toString() {
        return "EncodedBatch[rows=" + size() + ", keyBytes=" + keys.length + ", valueBytes=" + values.length
                + ", encodeNanos=" + encodeNanos + "]";
    }
}
