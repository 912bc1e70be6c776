package org.streamfusion.perf.nexmark;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A query's output topic as read back with {@code isolation.level=read_committed}, from the first offset to the
 * end offsets taken when the read starts (after the job has finished, so every transaction is committed or
 * aborted; the last offset of a partition may be a transaction marker, and offset gaps are not loss).
 *
 * <p>Append-only output (q0): every value, as q0 digests of its parsed fields ({@link #rowDigests}, sorted)
 * and an order-independent hash of the raw value bytes ({@link #rawHash}, the sum of a 64-bit hash per record,
 * so two outputs with the same multiset of values have the same hash). Upsert output (q9, q19): the final value
 * per key ({@link #finalState}: key JSON text to value JSON text, a tombstone removing the key), applying each
 * partition's records in offset order (one key always lands in one partition).
 *
 * @param records records read (the whole changelog for upsert output)
 * @param rowDigests q0: sorted digest pairs of the values' fields, else null
 * @param rawHash q0: the multiset hash of the raw values, else 0
 * @param finalState q9/q19: the final value per key, else null
 */
public record Output(long records, long[] rowDigests, long rawHash, Map<String, String> finalState) {

    /**
     * Reads {@code topic} for {@code query}'s output shape.
     *
     * @param bootstrap the broker
     * @param topic the output topic
     * @param query what wrote it
     * @return the output
     * @throws java.io.UncheckedIOException for a q0 value that is not JSON (Jackson's exception)
     */
    public static Output read(String bootstrap, String topic, Queries.Query query) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "8192");
        MessageDigest md5 = Expected.md5();
        long[] digests = new long[1 << 16];
        int digestCount = 0;
        long rawHash = 0;
        long records = 0;
        Map<String, String> state = query.upsert() ? new HashMap<>() : null;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            // The log end offsets: a read_committed consumer's own endOffsets is the last stable offset, which can
            // still trail the job's last committed transaction (the broker writes the markers after EndTxn).
            Map<TopicPartition, Long> end;
            Properties uncommitted = new Properties();
            uncommitted.putAll(props);
            uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
            try (KafkaConsumer<byte[], byte[]> offsets =
                    new KafkaConsumer<>(uncommitted, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                end = offsets.endOffsets(partitions);
            }
            long idle = 0;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                var batch = consumer.poll(Duration.ofMillis(500));
                if (batch.isEmpty()) {
                    if (++idle > 120) {
                        throw new IllegalStateException("no progress reading " + topic + " for 60 s");
                    }
                    continue;
                }
                idle = 0;
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    records++;
                    if (state != null) {
                        String key = new String(r.key(), StandardCharsets.UTF_8);
                        if (r.value() == null) {
                            state.remove(key);
                        } else {
                            state.put(key, new String(r.value(), StandardCharsets.UTF_8));
                        }
                    } else {
                        if (2 * digestCount + 2 > digests.length) {
                            digests = java.util.Arrays.copyOf(digests, digests.length * 2);
                        }
                        byte[] raw = r.value();
                        rawHash += hash64(md5, raw);
                        OutputCheck.q0Digest(md5, raw, digests, 2 * digestCount);
                        digestCount++;
                    }
                }
            }
        }
        long[] rows = null;
        if (state == null) {
            rows = java.util.Arrays.copyOf(digests, 2 * digestCount);
            Expected.sortPairs(rows);
        }
        return new Output(records, rows, rawHash, state);
    }

    static long hash64(MessageDigest md5, byte[] bytes) {
        byte[] d = md5.digest(bytes == null ? new byte[0] : bytes);
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (d[i] & 0xff);
        }
        return h;
    }

    /** An order-independent hash of an upsert output's final state (sum of a hash per key and value). */
    public long finalStateHash() {
        MessageDigest md5 = Expected.md5();
        long h = 0;
        for (Map.Entry<String, String> e : finalState.entrySet()) {
            h += hash64(md5, (e.getKey() + "\u0000" + e.getValue()).getBytes(StandardCharsets.UTF_8));
        }
        return h;
    }
}
