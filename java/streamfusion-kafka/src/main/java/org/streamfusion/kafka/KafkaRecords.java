package org.streamfusion.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Hands an {@link EncodedBatch} to a plain Kafka {@link Producer Producer&lt;byte[], byte[]&gt;} (configured with
 * {@code ByteArraySerializer} for keys and values), one {@link ProducerRecord} per row, in batch order.
 *
 * <p>Each record's key and value are copied out of the batch's slabs exactly once, here, into arrays the
 * producer then owns ({@code ProducerRecord} needs its own {@code byte[]}); the batch itself is not retained.
 * A null key stays null (the partitioner then spreads records), a tombstone is sent with a null value.
 */
public final class KafkaRecords {
    private KafkaRecords() {}

    /**
     * The record of one row, with its key and value freshly copied.
     *
     * @param topic the topic
     * @param batch the encoded batch
     * @param row record index, {@code 0 <= row < batch.size()}
     * @return a new record (partition and timestamp left to the producer)
     * @throws NullPointerException if {@code topic} or {@code batch} is null
     * @throws ArrayIndexOutOfBoundsException if {@code row} is out of range
     */
    public static ProducerRecord<byte[], byte[]> record(String topic, EncodedBatch batch, int row) {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(batch, "batch");
        return new ProducerRecord<>(topic, batch.key(row), batch.value(row));
    }

    /**
     * Sends every record of {@code batch} with {@link Producer#send(ProducerRecord, Callback)}, in row order.
     * Like {@code send} itself this is asynchronous: it may block only while the producer's buffer is full
     * ({@code max.block.ms}); delivery is reported through the futures and {@code callback}.
     *
     * @param producer a producer of {@code byte[]} keys and values
     * @param topic the topic
     * @param batch the encoded batch
     * @param callback called once per record on completion, or null
     * @return one future per record, in row order
     * @throws NullPointerException if {@code producer}, {@code topic} or {@code batch} is null
     * @throws org.apache.kafka.common.KafkaException whatever {@code Producer.send} throws synchronously (the
     *     records before the failing one have been handed over)
     */
    public static List<Future<RecordMetadata>> send(
            Producer<byte[], byte[]> producer, String topic, EncodedBatch batch, Callback callback) {
        Objects.requireNonNull(producer, "producer");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(batch, "batch");
        List<Future<RecordMetadata>> futures = new ArrayList<>(batch.size());
        for (int row = 0; row < batch.size(); row++) {
            futures.add(producer.send(new ProducerRecord<>(topic, batch.key(row), batch.value(row)), callback));
        }
        return futures;
    }
}
