package org.bijou64.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.bijou64.perf.kafka.Bijou64Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bijou64 serializer under an idempotent {@code acks=all} producer through node failures of the three-node
 * cluster (the cluster failure tests, docs/reliability.md), one test each: a SIGKILL of partition 0's leader, a SIGKILL of the active controller
 * (both restarted once every send was acknowledged), a SIGSTOP of partition 0's leader for {@link #PAUSE},
 * past the brokers' session timeout (9 s), then a SIGCONT (the test fails unless partition 0 gets another leader
 * meanwhile), the same for {@link #LONG_PAUSE} with the producer's {@code request.timeout.ms} less than half the
 * pause ({@link #SHORT_REQUEST_TIMEOUT}), and a rolling restart of all three nodes during the run. Each test sends {@link #VALUES} values
 * (the rolling restart's run: until the restart is done, and {@link #FAULT_AT} more) and fails the node after
 * {@link #FAULT_AT}; every send must succeed, and every value is read back exactly once ({@code read_committed}, decoded with the bijou64
 * deserializer), none missing, none twice, in send order per partition. Each prints one {@code RESULT} line with
 * what the producer's user saw: the longest time without an acknowledgement per partition and on any partition,
 * failed sends, the producer's retries (docs/reliability.md quotes it).
 *
 * <p>Runs only when {@code KAFKA_CLUSTER_BOOTSTRAP_SERVERS} names the cluster ({@code scripts/cluster-faults.sh});
 * otherwise skipped with the reason printed. Nodes are failed and brought back with {@code kafka/cluster}
 * ({@link Cluster}).
 */
class Bijou64LeaderFailoverTest {
    private static final int PARTITIONS = 3;
    private static final int VALUES = 20_000;
    /** Values sent per step of the run; a short pause between steps spreads the run over several seconds. */
    private static final int STEP = 100;
    /** The node is failed once this many values were sent. */
    private static final int FAULT_AT = VALUES / 4;
    /**
     * How long the paused leader stays SIGSTOPped: past the brokers' session timeout (9 s), so the controller
     * fences it and partition 0 gets another leader, and shorter than the producer's request timeout (30 s).
     */
    private static final Duration PAUSE = Duration.ofSeconds(13);
    /**
     * The producer's {@code request.timeout.ms} in the test that pauses the leader past it: shorter than
     * {@link #PAUSE}, and longer than the session timeout (9 s), so the partition has another leader when the
     * requests to the silent one time out.
     */
    private static final Duration SHORT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** How long the leader stays paused in that test: more than twice {@link #SHORT_REQUEST_TIMEOUT}. */
    private static final Duration LONG_PAUSE = Duration.ofSeconds(25);
    /**
     * The pause after each {@link #STEP} sends of a rolling restart's run, longer than the others' 10 ms: the run lasts
     * as long as the restart (minutes), and the values must stay distinct (fewer than 2^20 sends).
     */
    private static final int ROLLING_STEP_PAUSE_MS = 50;
    /** Bound on waiting for the acknowledgement or failure of every send (the producer's delivery timeout, 120 s). */
    private static final Duration DELIVERY = Duration.ofSeconds(120);

    /** How a test fails its node. */
    private enum Failure {
        /** SIGKILL after {@code FAULT_AT} sends; started again once every send was acknowledged. */
        SIGKILL,
        /**
         * SIGSTOP after {@code FAULT_AT} sends; SIGCONT {@code PAUSE} later, or once another node leads partition 0
         * if that takes longer.
         */
        SIGSTOP,
        /**
         * {@code kafka/cluster rolling-restart} started after {@code FAULT_AT} sends; the run goes on until it is done,
         * then {@code FAULT_AT} sends more.
         */
        ROLLING_RESTART
    }

    /** Picks the node a test fails. */
    @FunctionalInterface
    private interface Victim {
        /** The node to fail, once {@code topic} exists. */
        int choose(Cluster cluster, String topic) throws Exception;
    }

    /**
     * The value of the {@code i}-th send: {@code i} in the low 20 bits (so no two sends share a value) and one bit
     * from 20 to 60 above it, spreading the values over bijou64's lengths of 3 to 9 bytes.
     */
    private static long value(int i) {
        return i | 1L << (20 + 5 * (i % 9));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughALeaderSigkillLosesAndDuplicatesNothing() throws Exception {
        try (Cluster cluster = Cluster.forTest("Bijou64LeaderFailoverTest, leader SIGKILL")) {
            Run run = produceThrough(cluster, "leader-kill", Failure.SIGKILL, (c, topic) -> c.leaderOf(topic, 0));
            System.err.printf(
                    "RESULT bijou64 idempotent acks=all producer, leader SIGKILL (%s): %s; node restarted"
                            + " in %.1f s%n",
                    run.describeFault(), run.measurements(), run.healed().toMillis() / 1e3);
            run.checkEveryValueOnce();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughAControllerSigkillLosesAndDuplicatesNothing() throws Exception {
        try (Cluster cluster = Cluster.forTest("Bijou64LeaderFailoverTest, controller SIGKILL")) {
            // Every node is broker and controller: the active controller also leads or follows every partition.
            Run run = produceThrough(cluster, "controller-kill", Failure.SIGKILL, (c, topic) -> c.controller());
            int controller = cluster.controller();
            System.err.printf(
                    "RESULT bijou64 idempotent acks=all producer, active controller SIGKILL (%s): %s;"
                            + " node restarted in %.1f s; quorum leader after the restart node %d%n",
                    run.describeFault(), run.measurements(), run.healed().toMillis() / 1e3, controller);
            run.checkEveryValueOnce();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughALeaderPausedBeyondTheSessionTimeoutLosesAndDuplicatesNothing()
            throws Exception {
        try (Cluster cluster = Cluster.forTest("Bijou64LeaderFailoverTest, leader SIGSTOP")) {
            Run run = produceThrough(cluster, "leader-pause", Failure.SIGSTOP, (c, topic) -> c.leaderOf(topic, 0));
            System.err.printf(
                    "RESULT bijou64 idempotent acks=all producer, leader SIGSTOP (%s): %s; resumed after"
                            + " %.1f s, partition 0 then led by node %d%n",
                    run.describeFault(), run.measurements(), run.healed().toMillis() / 1e3, run.leaderDuringPause());
            run.checkEveryValueOnce();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughALeaderPausedPastItsRequestTimeoutLosesAndDuplicatesNothing()
            throws Exception {
        try (Cluster cluster = Cluster.forTest("Bijou64LeaderFailoverTest, leader SIGSTOP past request.timeout.ms")) {
            Run run = produceThrough(
                    cluster,
                    "leader-pause-request-timeout",
                    Failure.SIGSTOP,
                    (c, topic) -> c.leaderOf(topic, 0),
                    SHORT_REQUEST_TIMEOUT,
                    LONG_PAUSE);
            System.err.printf(
                    "RESULT bijou64 idempotent acks=all producer, request.timeout.ms %d, leader SIGSTOP (%s):"
                            + " %s; resumed after %.1f s, partition 0 then led by node %d%n",
                    SHORT_REQUEST_TIMEOUT.toMillis(),
                    run.describeFault(),
                    run.measurements(),
                    run.healed().toMillis() / 1e3,
                    run.leaderDuringPause());
            run.checkEveryValueOnce();
        }
    }

    @Test
    @Timeout(value = 480, unit = TimeUnit.SECONDS)
    void idempotentAcksAllProducerThroughARollingRestartLosesAndDuplicatesNothing() throws Exception {
        try (Cluster cluster = Cluster.forTest("Bijou64LeaderFailoverTest, rolling restart")) {
            Run run = produceThrough(cluster, "rolling-restart", Failure.ROLLING_RESTART, (c, topic) -> -1);
            System.err.printf(
                    "RESULT bijou64 idempotent acks=all producer, rolling restart of the three nodes"
                            + " (%s): %s; restart done in %.1f s (%s)%n",
                    run.describeFault(),
                    run.measurements(),
                    run.healed().toMillis() / 1e3,
                    run.restart().replace("\n", "; "));
            run.checkEveryValueOnce();
        }
    }

    /**
     * Creates a topic of {@link #PARTITIONS} partitions and sends {@link #VALUES} values round robin to it with an
     * idempotent {@code acks=all} producer (100 sends, then 10 ms), failing the node {@code victim} picks after
     * {@link #FAULT_AT} sends as {@code failure} says, and bringing it back; returns what the producer saw. A rolling
     * restart (no victim: {@code victim} returns -1) runs beside the sends, which go on until it is done and then
     * {@link #FAULT_AT} more (100 sends, then {@link #ROLLING_STEP_PAUSE_MS}).
     */
    private static Run produceThrough(Cluster cluster, String scenario, Failure failure, Victim victim)
            throws Exception {
        return produceThrough(cluster, scenario, failure, victim, null, PAUSE);
    }

    /**
     * As {@link #produceThrough(Cluster, String, Failure, Victim)}, with the producer's {@code request.timeout.ms}
     * set to {@code requestTimeout} (Kafka's default, 30 s, when null) and a SIGSTOPped node resumed after
     * {@code silence}.
     */
    private static Run produceThrough(
            Cluster cluster, String scenario, Failure failure, Victim victim, Duration requestTimeout, Duration silence)
            throws Exception {
        String topic = "reliability-bijou64-" + scenario + "-"
                + ProcessHandle.current().pid() + "-" + System.nanoTime();
        cluster.createTopic(topic, PARTITIONS);
        int node = victim.choose(cluster, topic);
        List<Integer> led = node < 0 ? List.of() : cluster.ledBy(topic, PARTITIONS, node);

        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        configs.put(ProducerConfig.ACKS_CONFIG, "all");
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        if (requestTimeout != null) {
            configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) requestTimeout.toMillis());
        }
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, Bijou64Serializer.class.getName());
        ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger completed = new AtomicInteger();
        CompletableFuture<String> restart = null;
        String restartReport = "";
        int sends = VALUES;
        int pause = failure == Failure.ROLLING_RESTART ? ROLLING_STEP_PAUSE_MS : 10;
        long faultAt = 0;
        int leaderDuringPause = -1;
        Duration healed = Duration.ZERO;
        KafkaProducer<byte[], Long> producer = new KafkaProducer<>(configs);
        try {
            long started = System.nanoTime();
            AckGaps gaps = new AckGaps(started);
            for (int i = 0; i < sends; i++) {
                int partition = i % PARTITIONS;
                producer.send(new ProducerRecord<>(topic, partition, null, value(i)), (metadata, error) -> {
                    if (error != null) {
                        failures.add(error);
                    } else {
                        gaps.acked(partition, System.nanoTime());
                    }
                    completed.incrementAndGet();
                });
                if (i == FAULT_AT) {
                    switch (failure) {
                        case SIGKILL -> cluster.kill(node);
                        case SIGSTOP -> cluster.pause(node);
                        case ROLLING_RESTART ->
                            restart = CompletableFuture.supplyAsync(() -> {
                                try {
                                    return cluster.rollingRestart();
                                } catch (IOException | InterruptedException e) {
                                    throw new CompletionException(e);
                                }
                            });
                    }
                    faultAt = System.nanoTime();
                }
                if (restart != null && !restart.isDone()) {
                    sends = i + 1 + FAULT_AT;
                    assertTrue(sends < 1 << 20, "the values stay distinct: fewer than 2^20 sends");
                }
                if (i % STEP == STEP - 1) {
                    Thread.sleep(pause);
                }
            }
            if (restart != null) {
                restartReport = restart.join();
                healed = Duration.ofNanos(System.nanoTime() - faultAt);
            }
            if (failure == Failure.SIGSTOP) {
                leaderDuringPause = cluster.leaderOtherThan(topic, 0, node);
                TimeUnit.NANOSECONDS.sleep(faultAt + silence.toNanos() - System.nanoTime());
                cluster.resume(node);
                healed = Duration.ofNanos(System.nanoTime() - faultAt);
                cluster.awaitInSync();
            }
            long deadline = System.nanoTime() + DELIVERY.toNanos();
            while (completed.get() < sends && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(
                    sends,
                    completed.get(),
                    topic + ": sends acknowledged or failed within " + DELIVERY + " (of " + sends + ")");
            long run = System.nanoTime() - started;
            long retries = (long) metric(producer.metrics(), "record-retry-total");
            if (failure == Failure.SIGKILL) {
                long restartStarted = System.nanoTime();
                cluster.startNode(node);
                healed = Duration.ofNanos(System.nanoTime() - restartStarted);
            }
            return new Run(
                    cluster.bootstrap(),
                    topic,
                    node,
                    led,
                    sends,
                    Duration.ofNanos(run),
                    gaps,
                    List.copyOf(failures),
                    retries,
                    healed,
                    leaderDuringPause,
                    restartReport);
        } finally {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * What the producer of one test saw.
     *
     * @param bootstrap the cluster's bootstrap servers
     * @param topic the topic the values went to
     * @param victim the node failed
     * @param led the partitions {@code victim} led when the run started
     * @param sends the values sent
     * @param run from the first send to the last acknowledgement
     * @param gaps the acknowledgement times per partition, from the first send
     * @param failures the sends that failed (their callbacks' errors)
     * @param retries the producer's {@code record-retry-total}
     * @param healed how long the node took to start again ({@link Failure#SIGKILL}), how long it was paused
     *     ({@link Failure#SIGSTOP}), or how long the rolling restart took
     * @param leaderDuringPause the leader of partition 0 once the paused node was fenced, or -1
     * @param restart the report of {@code kafka/cluster rolling-restart}, or empty
     */
    private record Run(
            String bootstrap,
            String topic,
            int victim,
            List<Integer> led,
            int sends,
            Duration run,
            AckGaps gaps,
            List<Exception> failures,
            long retries,
            Duration healed,
            int leaderDuringPause,
            String restart) {

        /** The node and when: "node N, leading partitions [..], after F of V sends". */
        String describeFault() {
            return victim < 0
                    ? String.format("started after %d of %d sends", FAULT_AT, sends)
                    : String.format(
                            "node %d, leading partitions %s, after %d of %d sends", victim, led, FAULT_AT, sends);
        }

        /** The measurements every RESULT line has. */
        String measurements() {
            return String.format(
                    "run %.1f s; longest time without an acknowledgement (from the first send) per"
                            + " partition %s s, of any partition %.1f s; failed sends %d%s; producer retries"
                            + " (record-retry-total) %d",
                    run.toMillis() / 1e3,
                    perPartition(gaps::longest),
                    gaps.longestOverall() / 1e9,
                    failures.size(),
                    failures.isEmpty() ? "" : " (first: " + failures.get(0) + ")",
                    retries);
        }

        /** Every send succeeded, and a {@code read_committed} read holds every value once, in order. */
        void checkEveryValueOnce() {
            assertTrue(failures.isEmpty(), "failed sends: " + failures);
            verifyEveryValueOnce(bootstrap, topic, sends);
        }

        private static String perPartition(IntToLongFunction nanos) {
            return IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> String.format("%.1f", nanos.applyAsLong(p) / 1e9))
                    .collect(Collectors.joining(", ", "[", "]"));
        }
    }

    /**
     * Reads the topic {@code read_committed} to its end offsets and checks the values of the first {@code sends}
     * sends, each once, in order.
     */
    private static void verifyEveryValueOnce(String bootstrap, String topic, int sends) {
        Map<Long, Integer> seen = new HashMap<>();
        List<List<Long>> perPartition = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            perPartition.add(new ArrayList<>());
        }
        for (ConsumerRecord<byte[], Long> record :
                Cluster.readToEnd(bootstrap, topic, PARTITIONS, "read_committed", Bijou64Deserializer.class)) {
            seen.merge(record.value(), 1, Integer::sum);
            perPartition.get(record.partition()).add(record.value());
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < sends; i++) {
            if (!seen.containsKey(value(i))) {
                missing.add(i);
            }
        }
        List<Long> duplicated = seen.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .toList();
        assertTrue(
                missing.isEmpty() && duplicated.isEmpty(),
                topic + ": " + missing.size() + " missing (sends " + missing.subList(0, Math.min(10, missing.size()))
                        + "), " + duplicated.size() + " duplicated");
        assertEquals(sends, seen.size(), topic + ": distinct values read");
        for (int p = 0; p < PARTITIONS; p++) {
            List<Long> expected = new ArrayList<>();
            for (int i = p; i < sends; i += PARTITIONS) {
                expected.add(value(i));
            }
            assertEquals(expected, perPartition.get(p), topic + "-" + p + ": the values in send order");
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream()
                .filter(e ->
                        e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no producer metric " + name));
    }

    /**
     * Acknowledgement times (callbacks run on the producer's I/O thread) and the longest times without one, per
     * partition and on any partition, counted from the first send (the node may fail before a partition's first
     * acknowledgement).
     */
    private static final class AckGaps {
        private final long[] last = new long[PARTITIONS];
        private final long[] longest = new long[PARTITIONS];
        /** The first send, then every acknowledgement of any partition. */
        private final List<Long> times = new ArrayList<>();

        /** Gaps from {@code started}, the first send ({@link System#nanoTime()}). */
        AckGaps(long started) {
            Arrays.fill(last, started);
            times.add(started);
        }

        synchronized void acked(int partition, long now) {
            longest[partition] = Math.max(longest[partition], now - last[partition]);
            last[partition] = now;
            times.add(now);
        }

        synchronized long longest(int partition) {
            return longest[partition];
        }

        synchronized long longestOverall() {
            List<Long> sorted = new ArrayList<>(times);
            sorted.sort(null);
            long gap = 0;
            for (int i = 1; i < sorted.size(); i++) {
                gap = Math.max(gap, sorted.get(i) - sorted.get(i - 1));
            }
            return gap;
        }
    }
}
