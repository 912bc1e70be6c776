package org.streamfusion.flink.connector;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The broker the tests run against: {@code kafka.bootstrap.servers}, by default the local one of
 * {@code kafka/broker start} (127.0.0.1:19092), as in the other broker tests of this repository. A test fails,
 * never skips, when no broker answers (CI always runs one).
 */
final class TestBroker {
    private static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:19092";

    private TestBroker() {}

    /**
     * Writes a test's input and waits until the broker has every record: each send is awaited (60 s to deliver).
     * The producer is not idempotent, has one request in flight and waits for acks from all replicas. An idempotent
     * producer writing to a topic created a moment before once restarted a partition's sequence at 0 after 4,309
     * records, and the broker refused that batch ({@code OutOfOrderSequenceException} in its log, 2026-12-06) until
     * the records expired: the test's input was then silently incomplete. With one request in flight nothing is
     * reordered. A retry of a request that succeeded but timed out could duplicate a record; callers that count
     * their input see that.
     *
     * @param records the records, written in order
     * @throws Exception if a record was not delivered within 60 s
     */
    static void writeInput(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                false,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                1,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                60_000);
        List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                sent.add(producer.send(record));
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get(60, SECONDS);
            }
        }
    }

    /** @return the system property {@code kafka.bootstrap.servers}, or the local broker's address */
    static String bootstrapServers() {
        String value = System.getProperty("kafka.bootstrap.servers");
        return value == null || value.isBlank() || value.startsWith("${") ? DEFAULT_BOOTSTRAP_SERVERS : value.trim();
    }

    /** @return an admin client, after the broker answered; fails the test otherwise */
    static Admin admin() throws InterruptedException {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        Admin admin = Admin.create(props);
        try {
            admin.describeCluster().clusterId().get(15, SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            admin.close(Duration.ZERO);
            fail(
                    "No Kafka broker answers at " + bootstrapServers() + " (system property kafka.bootstrap.servers). "
                            + "Start the local one with `kafka/broker start`, or point the tests at your own cluster with "
                            + "-Dkafka.bootstrap.servers=host:port.",
                    e);
        }
        return admin;
    }

    /** Creates a topic with a unique name ({@code prefix}-random) and {@code partitions} partitions. */
    static String createTopic(Admin admin, String prefix, int partitions) throws Exception {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                .all()
                .get(30, SECONDS);
        return name;
    }

    /**
     * Reads a topic from the beginning to the end offsets (with {@code read_committed}, the last stable offsets)
     * captured at the start.
     *
     * @return per partition, the records in offset order as {@code key + " => " + value} ({@code null} for a
     *     null key or a tombstone)
     */
    static Map<Integer, List<String>> read(String topic, int partitions) {
        return read(topic, partitions, "read_committed");
    }

    /**
     * As {@link #read(String, int)} with the given {@code isolation.level}: {@code read_committed} or
     * {@code read_uncommitted} (which also returns the records of aborted transactions).
     */
    static Map<Integer, List<String>> read(String topic, int partitions, String isolationLevel) {
        return read(topic, partitions, isolationLevel, r -> text(r.key()) + " => " + text(r.value()));
    }

    /**
     * As {@link #read(String, int)}, each record as {@code key => value @ timestamp [header=value, ...]}: the
     * timestamp in epoch ms, or {@code now} when it is at or after {@code producerClockFrom} (a record the
     * producer stamped with its clock); header values as UTF-8 text.
     */
    static Map<Integer, List<String>> readWithMetadata(String topic, int partitions, long producerClockFrom) {
        return read(topic, partitions, "read_committed", r -> {
            StringBuilder text = new StringBuilder(text(r.key()) + " => " + text(r.value()) + " @ "
                    + (r.timestamp() >= producerClockFrom ? "now" : Long.toString(r.timestamp())) + " [");
            String separator = "";
            for (org.apache.kafka.common.header.Header header : r.headers()) {
                text.append(separator).append(header.key()).append('=').append(text(header.value()));
                separator = ", ";
            }
            return text.append(']').toString();
        });
    }

    private static Map<Integer, List<String>> read(
            String topic,
            int partitions,
            String isolationLevel,
            java.util.function.Function<ConsumerRecord<byte[], byte[]>, String> format) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Map<Integer, List<String>> records = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
                records.put(p, new ArrayList<>());
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            // The log end offsets: under read_committed the position reaches them once every transaction in the
            // log is decided. (A read_committed consumer's endOffsets is the last stable offset, which can still
            // trail a transaction the job has committed: the broker writes the commit markers after EndTxn.)
            Map<TopicPartition, Long> end;
            Properties uncommitted = new Properties();
            uncommitted.putAll(props);
            uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
            try (KafkaConsumer<byte[], byte[]> offsets = new KafkaConsumer<>(uncommitted)) {
                end = offsets.endOffsets(all);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (all.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    fail("reading " + topic + " stalled before the end offsets " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    records.get(r.partition()).add(format.apply(r));
                }
            }
        }
        return records;
    }

    /** The bytes as text where they are UTF-8 (JSON), else as {@code 0x} and hex (e.g. Avro), exactly either way. */
    private static String text(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
    }
}
