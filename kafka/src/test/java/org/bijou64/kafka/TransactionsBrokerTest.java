package org.bijou64.kafka;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that the broker at {@code kafka.bootstrap.servers} (by default the local one of {@code kafka/broker start},
 * 127.0.0.1:19092) is a real Kafka whose transactions work: aborted records are hidden from {@code read_committed}
 * readers and visible to {@code read_uncommitted} ones. The Flink sink and the exactly-once benchmarks rely on both.
 *
 * <p>The tests fail, never skip, when no broker answers.
 */
@Timeout(120)
class TransactionsBrokerTest {

    private static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:19092";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static String bootstrapServers;
    private static Admin admin;

    @BeforeAll
    static void brokerAnswers() throws InterruptedException {
        bootstrapServers = bootstrapServers();
        admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
        try {
            admin.describeCluster().clusterId().get(15, SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            admin.close(Duration.ZERO);
            admin = null;
            fail(
                    "No Kafka broker answers at " + bootstrapServers + " (system property kafka.bootstrap.servers). "
                            + "Start the local one with `kafka/broker start`, or point the tests at your own cluster with "
                            + "-Dkafka.bootstrap.servers=host:port.",
                    e);
        }
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void metadataShowsOneNode() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        Collection<Node> nodes = cluster.nodes().get(WAIT.toSeconds(), SECONDS);
        String clusterId = cluster.clusterId().get(WAIT.toSeconds(), SECONDS);

        assertEquals(
                1,
                nodes.size(),
                () -> "the local broker is a single node, but " + bootstrapServers + " reports " + nodes);
        assertTrue(clusterId != null && !clusterId.isBlank(), "a KRaft cluster formatted by StorageTool has an id");
    }

    @Test
    void readCommittedSeesOnlyCommittedTransactions() throws Exception {
        String topic = "bijou64-broker-txn-" + UUID.randomUUID();
        TopicPartition partition = new TopicPartition(topic, 0);
        admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())))
                .all()
                .get(WAIT.toSeconds(), SECONDS);
        try {
            List<String> committed = List.of("committed-1", "committed-2", "committed-3");
            List<String> aborted = List.of("aborted-1", "aborted-2");
            // A committed transaction after the aborted one: the reader must skip the aborted records, not stop there.
            List<String> committedAfterAbort = List.of("committed-4", "committed-5");

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig())) {
                producer.initTransactions();
                sendInTransaction(producer, partition, committed);
                producer.commitTransaction();
                sendInTransaction(producer, partition, aborted);
                producer.abortTransaction();
                sendInTransaction(producer, partition, committedAfterAbort);
                producer.commitTransaction();
            }

            try (KafkaConsumer<String, String> readCommitted = new KafkaConsumer<>(consumerConfig("read_committed"));
                    KafkaConsumer<String, String> readUncommitted =
                            new KafkaConsumer<>(consumerConfig("read_uncommitted"))) {
                readCommitted.assign(List.of(partition));
                readUncommitted.assign(List.of(partition));
                long end = settledEndOffset(partition, readCommitted, readUncommitted);
                List<ConsumerRecord<String, String>> committedView = readUpTo(readCommitted, partition, end);
                List<ConsumerRecord<String, String>> uncommittedView = readUpTo(readUncommitted, partition, end);

                assertEquals(
                        concat(committed, committedAfterAbort),
                        values(committedView),
                        "read_committed must see exactly the committed records, in order");
                assertEquals(
                        concat(concat(committed, aborted), committedAfterAbort),
                        values(uncommittedView),
                        "read_uncommitted must see the committed and the aborted records, in order");
                assertOffsetsIncrease(committedView);
                assertOffsetsIncrease(uncommittedView);
                // Each of the three transactions ends with a control record (commit or abort marker) taking an offset.
                long records = uncommittedView.size();
                assertTrue(
                        end >= records + 3,
                        () -> "end offset " + end + " leaves no room for the 3 transaction " + "markers after "
                                + records + " records");
            }
        } finally {
            admin.deleteTopics(List.of(topic));
        }
    }

    /** Begins a transaction and sends {@code values} to {@code partition}, waiting for every acknowledgement. */
    private static void sendInTransaction(
            KafkaProducer<String, String> producer, TopicPartition partition, List<String> values) throws Exception {
        producer.beginTransaction();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (String value : values) {
            acks.add(producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), null, value)));
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get(WAIT.toSeconds(), SECONDS);
        }
    }

    /**
     * The end offset once all transactions are settled: commit and abort return before the coordinator has written
     * the markers, so wait until the last stable offset (what a read_committed consumer's {@code endOffsets} returns)
     * has caught up with the high watermark (a read_uncommitted consumer's).
     */
    private static long settledEndOffset(
            TopicPartition partition,
            KafkaConsumer<String, String> readCommitted,
            KafkaConsumer<String, String> readUncommitted)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            long lastStable = readCommitted.endOffsets(List.of(partition), WAIT).get(partition);
            long highWatermark =
                    readUncommitted.endOffsets(List.of(partition), WAIT).get(partition);
            if (lastStable == highWatermark) {
                return highWatermark;
            }
            if (System.nanoTime() > deadline) {
                fail("transactions on " + partition + " did not settle within " + WAIT + ": last stable offset "
                        + lastStable + ", high watermark " + highWatermark);
            }
            Thread.sleep(100);
        }
    }

    /** Reads the assigned {@code partition} from the beginning until the consumer's position reaches {@code end}. */
    private static List<ConsumerRecord<String, String>> readUpTo(
            KafkaConsumer<String, String> consumer, TopicPartition partition, long end) {
        consumer.seekToBeginning(List.of(partition));
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        // Offsets are not contiguous (markers take offsets too), so compare positions, not counts.
        while (consumer.position(partition) < end) {
            if (System.nanoTime() > deadline) {
                fail("reading " + partition + " stopped at position " + consumer.position(partition) + " of " + end
                        + " after " + values(records));
            }
            for (ConsumerRecord<String, String> record :
                    consumer.poll(Duration.ofMillis(200)).records(partition)) {
                if (record.offset() < end) {
                    records.add(record);
                }
            }
        }
        return records;
    }

    private static void assertOffsetsIncrease(List<ConsumerRecord<String, String>> records) {
        assertFalse(records.isEmpty(), "no records read");
        for (int i = 1; i < records.size(); i++) {
            long previous = records.get(i - 1).offset();
            long current = records.get(i).offset();
            assertTrue(current > previous, () -> "offset " + current + " follows " + previous);
        }
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toList());
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private static Map<String, Object> producerConfig() {
        return Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "bijou64-broker-test-" + UUID.randomUUID(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                (int) WAIT.toMillis(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class);
    }

    /** A consumer without a group: partitions are assigned by hand and no offsets are committed. */
    private static Map<String, Object> consumerConfig(String isolationLevel) {
        return Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                isolationLevel,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class);
    }

    /** The system property Surefire sets from the parent pom, defaulting to the local broker. */
    private static String bootstrapServers() {
        String value = System.getProperty("kafka.bootstrap.servers");
        return value == null || value.isBlank() || value.startsWith("${") ? DEFAULT_BOOTSTRAP_SERVERS : value.trim();
    }
}
