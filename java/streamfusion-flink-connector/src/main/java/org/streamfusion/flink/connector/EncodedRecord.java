package org.streamfusion.flink.connector;

import java.util.Objects;
import org.streamfusion.kafka.EncodedBatch;

/**
 * One finished Kafka record on its way from {@link BatchingEncoderOperator} to Flink's {@code KafkaSink}: a
 * row of an {@link EncodedBatch}, not yet copied out of the batch's slabs. The copy into the {@code byte[]} a
 * {@code ProducerRecord} needs happens once, in {@link PreEncodedRecordSerializationSchema}. Immutable (the
 * batch's arrays are never modified), which lets {@link EncodedRecordSerializer#copy} return the record itself
 * when Flink copies records between chained operators.
 */
public final class EncodedRecord {
    private final EncodedBatch batch;
    private final int row;

    /**
     * @param batch the encoded batch holding the record
     * @param row the record's index, {@code 0 <= row < batch.size()}
     * @throws NullPointerException if {@code batch} is null
     * @throws IndexOutOfBoundsException if {@code row} is out of range
     */
    public EncodedRecord(EncodedBatch batch, int row) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.row = Objects.checkIndex(row, batch.size());
    }

    /** A record of its own (one-record batch), e.g. after crossing the network. Null key / null value allowed. */
    static EncodedRecord of(byte[] key, byte[] value) {
        return new EncodedRecord(EncodedBatch.ofRecords(new byte[][] {key}, new byte[][] {value}, 0), 0);
    }

    /** @return a fresh copy of the key bytes, or null for a null key */
    public byte[] key() {
        return batch.key(row);
    }

    /** @return a fresh copy of the value bytes, or null for a tombstone */
    public byte[] value() {
        return batch.value(row);
    }

    /** @return the key length in bytes, -1 for a null key */
    public int keyLength() {
        return batch.keyLength(row);
    }

    /** @return the value length in bytes, -1 for a tombstone */
    public int valueLength() {
        return batch.valueLength(row);
    }

    /** @return true when both records have equal key and value bytes (nulls included) */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EncodedRecord)) {
            return false;
        }
        EncodedRecord that = (EncodedRecord) o;
        return java.util.Arrays.equals(key(), that.key()) && java.util.Arrays.equals(value(), that.value());
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(key()) + java.util.Arrays.hashCode(value());
    }

    @Override
    public String toString() {
        return "EncodedRecord[keyLength=" + keyLength() + ", valueLength=" + valueLength() + "]";
    }
}
