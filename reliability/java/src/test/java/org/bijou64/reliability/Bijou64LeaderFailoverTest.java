package org.bijou64.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.bijou64.perf.kafka.Bijou64Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bijou64 serializer under an idempotent {@code acks=all} producer through a SIGKILL of a partition leader of
 * the three-node cluster (issue #17 item 2): every value is read back exactly once ({@code read_committed},
 * decoded with the bijou64 deserializer), none missing, none twice, in send order per partition. Prints one
 * {@code RESULT} line with what the producer's user saw: the longest wait for an acknowledgement, failed sends,
 * the producer's retries (docs/reliability.md quotes it).
 *
 * <p>Runs only when {@code KAFKA_CLUSTER_BOOTSTRAP_SERVERS} names the cluster ({@code scripts/cluster-faults.sh});
 * otherwise skipped with the reason printed. The node is killed and started again with {@code kafka/cluster}
 * (system property {@code reliability.cluster.script}).
 */
class Bijou64LeaderFailoverTest {
    private static final String CLUSTER_ENV = "KAFKA_CLUSTER_BOOTSTRAP_SERVERS";
    private static final int PARTITIONS = 3;
    private static final int VALUES = 20_000;
    /** Values sent per step of the run; a short pause between steps spreads the run over several seconds. */
    private static final int STEP = 100;
    /** The leader of partition 0 is killed once this many values were sent. */
    private static final int KILL_AT = VALUES / 4;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /**
     * The value of the {@code i}-th send: {@code i} in the low 20 bits (so no two sends share a value) and one bit
     * from 20 to 60 above it, spreading the values over bijou64's lengths of 3 to 9 bytes.
     */
    private static long value(int i) {
        return i | 1L << (20 + 5 * (i % 9));
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughALeaderSigkillLosesAndDuplicatesNothing() throws Exception {
        String bootstrap = System.getenv(CLUSTER_ENV);
        if (bootstrap == null) {
            System.err.println("Bijou64LeaderFailoverTest: skipped: " + CLUSTER_ENV
                + " is not set (scripts/cluster-faults.sh starts kafka/cluster and sets it)");
        }
        assumeTrue(bootstrap != null, CLUSTER_ENV + " is not set");
        String topic = "reliability-bijou64-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        int victim;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(PARTITIONS), Optional.empty())))
                .all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            victim = leaderOf(admin, topic, 0);
        }

        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        configs.put(ProducerConfig.ACKS_CONFIG, "all");
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, Bijou64Serializer.class.getName());
        ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
        AckGaps gaps = new AckGaps();
        long killedAt;
        long retries;
        Duration restart;
        try (KafkaProducer<byte[], Long> producer = new KafkaProducer<>(configs)) {
            long started = System.nanoTime();
            killedAt = 0;
            for (int i = 0; i < VALUES; i++) {
                int partition = i % PARTITIONS;
                producer.send(new ProducerRecord<>(topic, partition, null, value(i)), (metadata, error) -> {
                    if (error != null) {
                        failures.add(error);
                    } else {
                        gaps.acked(partition, System.nanoTime());
                    }
                });
                if (i == KILL_AT) {
                    cluster("kill", Integer.toString(victim));
                    killedAt = System.nanoTime();
                }
                if (i % STEP == STEP - 1) {
                    Thread.sleep(10);
                }
            }
            producer.flush();
            long run = System.nanoTime() - started;
            retries = (long) metric(producer.metrics(), "record-retry-total");
            long restartStarted = System.nanoTime();
            cluster("start-node", Integer.toString(victim));
            restart = Duration.ofNanos(System.nanoTime() - restartStarted);
            assertTrue(failures.isEmpty(), "failed sends: " + failures);
            System.err.printf(
                "RESULT bijou64 idempotent acks=all producer, leader SIGKILL (node %d, partition 0) after %d of %d sends:"
                    + " run %.1f s; longest wait between acknowledgements of partition 0 %.1f s, of any partition"
                    + " %.1f s; first acknowledgement of partition 0 after the kill %.1f s later; failed sends %d;"
                    + " producer retries (record-retry-total) %d; node restarted in %.1f s%n",
                victim, KILL_AT, VALUES, run / 1e9, gaps.longest(0) / 1e9, gaps.longestOverall() / 1e9,
                (gaps.firstAfter(0, killedAt) - killedAt) / 1e9, failures.size(), retries,
                restart.toMillis() / 1e3);
        }
        verifyEveryValueOnce(bootstrap, topic);
    }

    /** Reads the topic {@code read_committed} to its end offsets and checks every value once, in order. */
    private static void verifyEveryValueOnce(String bootstrap, String topic) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        configs.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, Bijou64Deserializer.class.getName());
        Map<Long, Integer> seen = new HashMap<>();
        List<List<Long>> perPartition = new ArrayList<>();
        try (KafkaConsumer<byte[], Long> consumer = new KafkaConsumer<>(configs)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(topic, p));
                perPartition.add(new ArrayList<>());
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < ends.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "read " + topic + " to " + ends + " within " + TIMEOUT);
                for (ConsumerRecord<byte[], Long> record : consumer.poll(Duration.ofMillis(200))) {
                    seen.merge(record.value(), 1, Integer::sum);
                    perPartition.get(record.partition()).add(record.value());
                }
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < VALUES; i++) {
            if (!seen.containsKey(value(i))) {
                missing.add(i);
            }
        }
        List<Long> duplicated = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        assertTrue(missing.isEmpty() && duplicated.isEmpty(), topic + ": " + missing.size() + " missing (sends "
            + missing.subList(0, Math.min(10, missing.size())) + "), " + duplicated.size() + " duplicated");
        assertEquals(VALUES, seen.size(), topic + ": distinct values read");
        for (int p = 0; p < PARTITIONS; p++) {
            List<Long> expected = new ArrayList<>();
            for (int i = p; i < VALUES; i += PARTITIONS) {
                expected.add(value(i));
            }
            assertEquals(expected, perPartition.get(p), topic + "-" + p + ": the values in send order");
        }
    }

    /** The leader of {@code topic}-{@code partition}, waiting until it has one. */
    private static int leaderOf(Admin admin, String topic, int partition) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            Node leader = admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                .get(topic).partitions().get(partition).leader();
            if (leader != null && !leader.isEmpty()) {
                return leader.id();
            }
            assertTrue(System.nanoTime() < deadline, topic + "-" + partition + " has no leader");
            Thread.sleep(50);
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream()
            .filter(e -> e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics"))
            .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
            .findFirst().orElseThrow(() -> new AssertionError("no producer metric " + name));
    }

    /** Runs {@code kafka/cluster ARGS}; fails the test with its output when it fails. */
    private static void cluster(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("reliability.cluster.script", "kafka/cluster"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, process.exitValue(), command + ": " + output);
    }

    /** Acknowledgement times per partition (callbacks run on the producer's I/O thread). */
    private static final class AckGaps {
        private final long[] last = new long[PARTITIONS];
        private final long[] longest = new long[PARTITIONS];
        private final List<List<Long>> times = new ArrayList<>();

        AckGaps() {
            for (int p = 0; p < PARTITIONS; p++) {
                times.add(new ArrayList<>());
            }
        }

        synchronized void acked(int partition, long now) {
            if (last[partition] != 0) {
                longest[partition] = Math.max(longest[partition], now - last[partition]);
            }
            last[partition] = now;
            times.get(partition).add(now);
        }

        synchronized long longest(int partition) {
            return longest[partition];
        }

        synchronized long longestOverall() {
            List<Long> all = new ArrayList<>();
            times.forEach(all::addAll);
            all.sort(null);
            long gap = 0;
            for (int i = 1; i < all.size(); i++) {
                gap = Math.max(gap, all.get(i) - all.get(i - 1));
            }
            return gap;
        }

        /** The first acknowledgement of {@code partition} at or after {@code moment}. */
        synchronized long firstAfter(int partition, long moment) {
            return times.get(partition).stream().filter(t -> t >= moment).findFirst().orElse(moment);
        }
    }
}
