package org.streamfusion.flink.connector;

import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.header.Header;
import org.streamfusion.kafka.EncodedBatch;

/**
 * One finished Kafka record on its way from {@link BatchingEncoderOperator} to Flink's {@code KafkaSink}: a
 * row of an {@link EncodedBatch}, not yet copied out of the batch's slabs. The copy into the {@code byte[]} a
 * {@code ProducerRecord} needs happens once, in {@link PreEncodedRecordSerializationSchema}; with a custom
 * partitioner, once before it, and the partitioner and the producer record get the same arrays
 * ({@code partitioned}). Immutable (the batch's arrays are never modified), which lets
 * {@link EncodedRecordSerializer#copy} return the record itself when Flink copies records between chained
 * operators.
 *
 * <p>It also carries the record's writable metadata, as {@code KafkaDynamicSink}'s {@code topic},
 * {@code timestamp} and {@code headers} columns give them: the topic (null: none given, which is fine for a sink
 * of one topic only), the timestamp in epoch milliseconds (null: the producer's clock) and the headers (null or
 * empty: none). And, with a custom {@code sink.partitioner} class, the partition that partitioner chose
 * (null: none chosen here).
 */
@Internal
public final class EncodedRecord {
    private final EncodedBatch batch;
    private final int row;
    private final Long timestamp;
    private final List<Header> headers;
    private final String topic;
    private final Integer partition;
    /** True when a custom partitioner was given {@link #partitionedKey} and {@link #partitionedValue}. */
    private final boolean partitionedBytes;
    /** With a custom partitioner: the key copy it was given, which the producer record gets. */
    private final byte[] partitionedKey;
    /** With a custom partitioner: the value copy it was given, which the producer record gets. */
    private final byte[] partitionedValue;

    /**
     * A record without metadata (null timestamp, no headers).
     *
     * @param batch the encoded batch holding the record
     * @param row the record's index, {@code 0 <= row < batch.size()}
     * @throws NullPointerException if {@code batch} is null
     * @throws IndexOutOfBoundsException if {@code row} is out of range
     */
    public EncodedRecord(EncodedBatch batch, int row) {
        this(batch, row, null, null);
    }

    /**
     * @param batch the encoded batch holding the record
     * @param row the record's index, {@code 0 <= row < batch.size()}
     * @param timestamp the record timestamp in epoch milliseconds, or null (the producer's clock)
     * @param headers the record headers in order, or null for none; not copied, must not be modified
     * @throws NullPointerException if {@code batch} is null
     * @throws IndexOutOfBoundsException if {@code row} is out of range
     */
    public EncodedRecord(EncodedBatch batch, int row, Long timestamp, List<Header> headers) {
        this(batch, row, null, timestamp, headers);
    }

    /**
     * @param batch the encoded batch holding the record
     * @param row the record's index, {@code 0 <= row < batch.size()}
     * @param topic the record's topic ({@code topic} metadata column), or null for none
     * @param timestamp the record timestamp in epoch milliseconds, or null (the producer's clock)
     * @param headers the record headers in order, or null for none; not copied, must not be modified
     * @throws NullPointerException if {@code batch} is null
     * @throws IndexOutOfBoundsException if {@code row} is out of range
     */
    public EncodedRecord(EncodedBatch batch, int row, String topic, Long timestamp, List<Header> headers) {
        this(batch, row, topic, null, timestamp, headers);
    }

    /**
     * @param batch the encoded batch holding the record
     * @param row the record's index, {@code 0 <= row < batch.size()}
     * @param topic the record's topic ({@code topic} metadata column), or null for none
     * @param partition the partition a custom {@code sink.partitioner} chose, or null for none
     * @param timestamp the record timestamp in epoch milliseconds, or null (the producer's clock)
     * @param headers the record headers in order, or null for none; not copied, must not be modified
     * @throws NullPointerException if {@code batch} is null
     * @throws IndexOutOfBoundsException if {@code row} is out of range
     */
    public EncodedRecord(
            EncodedBatch batch, int row, String topic, Integer partition, Long timestamp, List<Header> headers) {
        this(batch, row, topic, partition, timestamp, headers, false, null, null);
    }

    private EncodedRecord(
            EncodedBatch batch,
            int row,
            String topic,
            Integer partition,
            Long timestamp,
            List<Header> headers,
            boolean partitionedBytes,
            byte[] partitionedKey,
            byte[] partitionedValue) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.row = Objects.checkIndex(row, batch.size());
        this.topic = topic;
        this.partition = partition;
        this.timestamp = timestamp;
        this.headers = headers;
        this.partitionedBytes = partitionedBytes;
        this.partitionedKey = partitionedKey;
        this.partitionedValue = partitionedValue;
    }

    /**
     * A record whose partition a custom partitioner chose from {@code key} and {@code value}, the record's bytes
     * copied out of the batch once: {@link #producerKey()} / {@link #producerValue()} hand those very arrays to
     * the producer record, as {@code DynamicKafkaRecordSerializationSchema.serialize} gives the partitioner and
     * the {@code ProducerRecord} the same arrays. The arrays are not copied and must not be modified.
     *
     * @param key {@code batch.key(row)}, or null for a null key
     * @param value {@code batch.value(row)}, or null for a tombstone
     * @throws IllegalArgumentException if {@code key} or {@code value} is not the row's bytes by length
     */
    static EncodedRecord partitioned(
            EncodedBatch batch,
            int row,
            String topic,
            Integer partition,
            Long timestamp,
            List<Header> headers,
            byte[] key,
            byte[] value) {
        if ((key == null ? -1 : key.length) != batch.keyLength(row)
                || (value == null ? -1 : value.length) != batch.valueLength(row)) {
            throw new IllegalArgumentException("the key and value given are not record " + row + "'s bytes");
        }
        return new EncodedRecord(batch, row, topic, partition, timestamp, headers, true, key, value);
    }

    /** A record of its own (one-record batch), e.g. after crossing the network. Null key / null value allowed. */
    static EncodedRecord of(byte[] key, byte[] value) {
        return of(key, value, null, null);
    }

    /** As {@link #of(byte[], byte[])}, with metadata. */
    static EncodedRecord of(byte[] key, byte[] value, Long timestamp, List<Header> headers) {
        return of(key, value, null, timestamp, headers);
    }

    /** As {@link #of(byte[], byte[])}, with metadata and a topic (null: none). */
    static EncodedRecord of(byte[] key, byte[] value, String topic, Long timestamp, List<Header> headers) {
        return of(key, value, topic, null, timestamp, headers);
    }

    /** As {@link #of(byte[], byte[])}, with metadata, a topic and a partition (null: none). */
    static EncodedRecord of(
            byte[] key, byte[] value, String topic, Integer partition, Long timestamp, List<Header> headers) {
        return new EncodedRecord(
                EncodedBatch.ofRecords(new byte[][] {key}, new byte[][] {value}, 0),
                0,
                topic,
                partition,
                timestamp,
                headers);
    }

    /** @return the record's topic from the {@code topic} metadata column, or null when none was given */
    public String topic() {
        return topic;
    }

    /** @return the partition a custom {@code sink.partitioner} chose, or null when none was chosen here */
    public Integer partition() {
        return partition;
    }

    /** @return the record timestamp in epoch milliseconds, or null (the producer's clock) */
    public Long timestamp() {
        return timestamp;
    }

    /** @return the headers in order, or null for none (unmodifiable by contract) */
    public List<Header> headers() {
        return headers;
    }

    /** @return a fresh copy of the key bytes, or null for a null key */
    public byte[] key() {
        return batch.key(row);
    }

    /** @return a fresh copy of the value bytes, or null for a tombstone */
    public byte[] value() {
        return batch.value(row);
    }

    /**
     * @return the key bytes for the producer record: the array the custom partitioner was given (see
     *     {@link #partitioned}), else a fresh copy; null for a null key
     */
    byte[] producerKey() {
        return partitionedBytes ? partitionedKey : key();
    }

    /**
     * @return the value bytes for the producer record: the array the custom partitioner was given (see
     *     {@link #partitioned}), else a fresh copy; null for a tombstone
     */
    byte[] producerValue() {
        return partitionedBytes ? partitionedValue : value();
    }

    /** @return the key length in bytes, -1 for a null key */
    public int keyLength() {
        return batch.keyLength(row);
    }

    /** @return the value length in bytes, -1 for a tombstone */
    public int valueLength() {
        return batch.valueLength(row);
    }

    /**
     * @return true when both records have equal key and value bytes (nulls included), topic, partition, timestamp
     *     and headers
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EncodedRecord)) {
            return false;
        }
        EncodedRecord that = (EncodedRecord) o;
        return java.util.Arrays.equals(key(), that.key())
                && java.util.Arrays.equals(value(), that.value())
                && Objects.equals(topic, that.topic)
                && Objects.equals(partition, that.partition)
                && Objects.equals(timestamp, that.timestamp)
                && headersEqual(headers, that.headers);
    }

    private static boolean headersEqual(List<Header> a, List<Header> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).key().equals(b.get(i).key())
                    || !java.util.Arrays.equals(a.get(i).value(), b.get(i).value())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(key()) + java.util.Arrays.hashCode(value());
    }

    @Override
    public String toString() {
        return "EncodedRecord[keyLength=" + keyLength() + ", valueLength=" + valueLength() + ", topic=" + topic
                + ", partition=" + partition + ", timestamp="
                + timestamp + ", headers=" + (headers == null ? "null" : headers.size()) + "]";
    }
}
