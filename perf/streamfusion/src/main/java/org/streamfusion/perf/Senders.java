package org.streamfusion.perf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.KafkaRecords;

/** The two modes' senders ({@link Mode}): each sends every row once per pass and says what the pass did. */
final class Senders {

    private Senders() {}

    /** @return {@code mode}'s sender of rows of {@code type}, keyed by {@code keyFields} */
    static Sender of(Mode mode, RowType type, List<String> keyFields, int batch) {
        return mode == Mode.FLINK_PER_ROW ? new FlinkPerRow(type, keyFields) : new NativeBatch(type, keyFields, batch);
    }

    /** What one pass did. */
    record Pass(long nanos, long encodeNanos, long keyBytes, long valueBytes, long nativeBatches, long jvmBatches) {}

    /** One mode: sends every row once per pass. */
    interface Sender extends AutoCloseable {
        Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows) throws Exception;

        @Override
        default void close() {}
    }

    /**
     * Flink's serializer once per row for the key row (the {@code key.fields} projection) and once for the value
     * row (the whole row), each record sent right after it is serialized, as Flink's Kafka sink does.
     */
    static final class FlinkPerRow implements Sender {
        private final JsonRowDataSerializationSchema keySerializer;
        private final JsonRowDataSerializationSchema valueSerializer;
        private final ProjectedRowData keyRow;

        FlinkPerRow(RowType type, List<String> keyFields) {
            KeyProjection key = KeyProjection.of(type, keyFields);
            this.keySerializer = key == null ? null : Reference.flinkSerializer(key.type());
            this.keyRow = key == null ? null : ProjectedRowData.from(key.positions());
            this.valueSerializer = Reference.flinkSerializer(type);
        }

        @Override
        public Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows)
                throws InterruptedException {
            SendTracker tracker = new SendTracker(rows.size());
            long encodeNanos = 0;
            long keyBytes = 0;
            long valueBytes = 0;
            long start = System.nanoTime();
            for (RowData row : rows) {
                long t0 = System.nanoTime();
                byte[] key = keyRow == null ? null : keySerializer.serialize(keyRow.replaceRow(row));
                byte[] value = valueSerializer.serialize(row);
                encodeNanos += System.nanoTime() - t0;
                keyBytes += key == null ? 0 : key.length;
                valueBytes += value.length;
                producer.send(new ProducerRecord<>(topic, key, value), tracker);
            }
            producer.flush();
            long nanos = System.nanoTime() - start;
            tracker.await();
            return new Pass(nanos, encodeNanos, keyBytes, valueBytes, 0, 0);
        }
    }

    /**
     * {@link RowDataJsonEncoder} with {@code key.fields}, one {@code encode} per {@code batch} rows (the last
     * batch holds the remainder; under {@code native.min-batch-rows} rows it goes through Flink's serializer),
     * each batch's records then sent with {@link KafkaRecords#send}.
     */
    static final class NativeBatch implements Sender {
        private final RowDataJsonEncoder encoder;
        private final int batch;

        NativeBatch(RowType type, List<String> keyFields, int batch) {
            Map<String, String> options = new LinkedHashMap<>();
            if (!keyFields.isEmpty()) {
                options.put("key.fields", String.join(";", keyFields));
            }
            this.encoder = new RowDataJsonEncoder(type, options);
            this.batch = batch;
        }

        @Override
        public Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows)
                throws InterruptedException {
            SendTracker tracker = new SendTracker(rows.size());
            long nativeBefore = encoder.nativeBatches();
            long jvmBefore = encoder.jvmBatches();
            long encodeNanos = 0;
            long keyBytes = 0;
            long valueBytes = 0;
            long start = System.nanoTime();
            for (int from = 0; from < rows.size(); from += batch) {
                List<RowData> slice = rows.subList(from, Math.min(rows.size(), from + batch));
                long t0 = System.nanoTime();
                EncodedBatch encoded = encoder.encode(slice);
                encodeNanos += System.nanoTime() - t0;
                keyBytes += encoded.keyBytes();
                valueBytes += encoded.valueBytes();
                KafkaRecords.send(producer, topic, encoded, tracker);
            }
            producer.flush();
            long nanos = System.nanoTime() - start;
            tracker.await();
            return new Pass(
                    nanos,
                    encodeNanos,
                    keyBytes,
                    valueBytes,
                    encoder.nativeBatches() - nativeBefore,
                    encoder.jvmBatches() - jvmBefore);
        }

        @Override
        public void close() {
            encoder.close();
        }
    }

    /** One callback for a whole pass: counts completions, keeps the first error. */
    private static final class SendTracker implements Callback {
        private final CountDownLatch pending;
        private final AtomicReference<Exception> firstError = new AtomicReference<>();

        SendTracker(int count) {
            this.pending = new CountDownLatch(count);
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                firstError.compareAndSet(null, exception);
            }
            pending.countDown();
        }

        /** After {@code flush()}: every send completed (flush guarantees it; the bound guards a bug), none failed. */
        void await() throws InterruptedException {
            if (!pending.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException(pending.getCount() + " sends still incomplete after flush()");
            }
            Exception error = firstError.get();
            if (error != null) {
                throw new IllegalStateException("send failed: " + ProducerComparison.describe(error), error);
            }
        }
    }
}
