package org.streamfusion.perf;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Flink's records of every row, made once per shape by serializer instances of their own, and the read-back
 * that checks a topic against them ({@link #verify}; {@link ProducerComparison}'s class comment says what counts).
 */
final class Reference {

    /** A verification that receives nothing for this long gives up. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final byte[][] keys;
    private final byte[][] values;
    private Map<Record, int[]> index;

    Reference(RowType type, List<String> keyFields, List<RowData> rows) {
        KeyProjection key = KeyProjection.of(type, keyFields);
        JsonRowDataSerializationSchema keySerializer = key == null ? null : flinkSerializer(key.type());
        ProjectedRowData keyRow = key == null ? null : ProjectedRowData.from(key.positions());
        JsonRowDataSerializationSchema valueSerializer = flinkSerializer(type);
        keys = new byte[rows.size()][];
        values = new byte[rows.size()][];
        for (int i = 0; i < rows.size(); i++) {
            keys[i] = keyRow == null ? null : keySerializer.serialize(keyRow.replaceRow(rows.get(i)));
            values[i] = valueSerializer.serialize(rows.get(i));
        }
    }

    int size() {
        return values.length;
    }

    /** @return Flink's key of {@code row} (not a copy), null without key fields */
    byte[] key(int row) {
        return keys[row];
    }

    /** @return Flink's value of {@code row} (not a copy) */
    byte[] value(int row) {
        return values[row];
    }

    boolean matches(int row, byte[] key, byte[] value) {
        return Arrays.equals(keys[row], key) && Arrays.equals(values[row], value);
    }

    /** The rows whose records are exactly {@code key} and {@code value}, or null; the index is built on first use. */
    int[] rowsOf(byte[] key, byte[] value) {
        if (index == null) {
            index = new HashMap<>();
            for (int i = 0; i < values.length; i++) {
                index.merge(new Record(keys[i], values[i]), new int[] {i}, (a, b) -> {
                    int[] both = Arrays.copyOf(a, a.length + 1);
                    both[a.length] = b[0];
                    return both;
                });
            }
        }
        return index.get(new Record(key, value));
    }

    /** One record's bytes as a map key. */
    private record Record(byte[] key, byte[] value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Record r && Arrays.equals(key, r.key) && Arrays.equals(value, r.value);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
        }
    }

    /** What {@link Reference#verify} found; {@code problem} is the first problem, or null when there was none. */
    record Verification(long read, long missing, long duplicates, long outOfOrder, long mismatches, String problem) {}

    /**
     * Reads partition 0 of {@code topic} from the beginning to its {@code read_committed} end offset and checks it
     * holds these records {@code passes} times over, in order (see {@link ProducerComparison}'s class comment).
     *
     * @param admin an admin client of the broker (the end offset)
     * @param bootstrap the broker's bootstrap servers (the consumer)
     * @param clientSuffix the end of the consumer's {@code client.id}
     */
    Verification verify(Admin admin, String bootstrap, String topic, String clientSuffix, int passes) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        long end = Topics.endOffset(admin, partition);
        int n = size();
        long expected = (long) n * passes;
        int[] seen = new int[n];
        long read = 0;
        long outOfOrder = 0;
        long mismatches = 0;
        String firstProblem = null;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "streamfusion-compare-verify-" + clientSuffix);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20000");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long lastData = System.nanoTime();
            while (consumer.position(partition) < end) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (System.nanoTime() - lastData > IDLE_TIMEOUT.toNanos()) {
                        firstProblem = "no records for " + IDLE_TIMEOUT.toSeconds() + " s at offset "
                                + consumer.position(partition) + " of " + end;
                        break;
                    }
                    continue;
                }
                lastData = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    int row = (int) (read % n);
                    read++;
                    if (matches(row, record.key(), record.value())) {
                        seen[row]++;
                        continue;
                    }
                    int[] candidates = rowsOf(record.key(), record.value());
                    if (candidates == null) {
                        mismatches++;
                        if (firstProblem == null) {
                            firstProblem = "offset " + record.offset() + ": no row's Flink record matches key "
                                    + preview(record.key()) + ", value " + preview(record.value())
                                    + "; expected row " + row + ": key " + preview(keys[row])
                                    + ", value " + preview(values[row]);
                        }
                        continue;
                    }
                    int pick = candidates[0];
                    for (int c : candidates) {
                        if (seen[c] < passes) {
                            pick = c;
                            break;
                        }
                    }
                    seen[pick]++;
                    outOfOrder++;
                    if (firstProblem == null) {
                        firstProblem = "offset " + record.offset() + " holds row " + pick + ", expected row " + row;
                    }
                }
            }
        }
        long missing = 0;
        long duplicates = 0;
        for (int count : seen) {
            if (count < passes) {
                missing += passes - count;
            } else {
                duplicates += count - passes;
            }
        }
        if (firstProblem == null && read != expected) {
            firstProblem = "read " + read + " records up to end offset " + end + ", sent " + expected;
        }
        if (firstProblem == null && (missing > 0 || duplicates > 0)) {
            firstProblem = missing + " records missing, " + duplicates + " duplicated";
        }
        return new Verification(read, missing, duplicates, outOfOrder, mismatches, firstProblem);
    }

    private static String preview(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return bytes.length + " bytes `" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "`";
    }

    /**
     * Flink 2.2's serializer with the json format's defaults: {@code timestamp-format.standard=SQL},
     * {@code map-null-key.mode=FAIL}, literal {@code "null"}, decimals not as plain numbers, nulls written.
     */
    static JsonRowDataSerializationSchema flinkSerializer(RowType type) {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException("JsonRowDataSerializationSchema failed to open: " + e, e);
        }
        return schema;
    }
}
