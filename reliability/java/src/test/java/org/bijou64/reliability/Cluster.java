package org.bijou64.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The local three-node cluster of {@code kafka/cluster}, held by one test: creates topics, finds partition leaders
 * and the active controller, kills, starts, pauses and resumes nodes. Nodes the test killed or paused and did not
 * bring back are started again or resumed by {@link #close()}, so the next test finds three.
 *
 * <p>The script is the system property {@code reliability.cluster.script} (set by the module's pom), run with this
 * process's environment (so {@code KAFKA_CLUSTER_HOME} and the other cluster variables reach it). Every wait is
 * bounded by {@link #TIMEOUT}.
 */
final class Cluster implements AutoCloseable {
    /** The environment variable with the cluster's bootstrap servers ({@code kafka/cluster bootstrap}). */
    static final String BOOTSTRAP_ENV = "KAFKA_CLUSTER_BOOTSTRAP_SERVERS";
    /** Bound on every wait: a topic's creation, a leader, a script command, a read to the end. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    /**
     * Bound on a rolling restart: three nodes, each stopped, started (a start may take most of {@link #TIMEOUT})
     * and waited for until in sync.
     */
    static final Duration ROLLING_RESTART = Duration.ofMinutes(6);
    /** The cluster's nodes. */
    private static final int NODES = 3;

    private final String bootstrap;
    /** Short request timeouts, so a request to a paused node fails soon and the lookup asks again. */
    private final Admin admin;
    /** Nodes this test killed and has not started again. */
    private final Set<Integer> down = new LinkedHashSet<>();
    /** Nodes this test paused and has not resumed. */
    private final Set<Integer> paused = new LinkedHashSet<>();

    private Cluster(String bootstrap) {
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 6_000));
    }

    /**
     * The cluster at {@link #BOOTSTRAP_ENV} for the test {@code test}; when the variable is not set, prints why the
     * test is skipped and aborts it (a JUnit assumption).
     */
    static Cluster forTest(String test) {
        String bootstrap = System.getenv(BOOTSTRAP_ENV);
        if (bootstrap == null) {
            System.err.println(test + ": skipped: " + BOOTSTRAP_ENV
                    + " is not set (scripts/cluster-faults.sh starts kafka/cluster and sets it)");
        }
        assumeTrue(bootstrap != null, BOOTSTRAP_ENV + " is not set");
        return new Cluster(bootstrap);
    }

    /** The bootstrap servers (all three nodes). */
    String bootstrap() {
        return bootstrap;
    }

    /**
     * Creates {@code topic} with {@code partitions} partitions of the cluster's default replication (three), once
     * all three brokers are registered and unfenced (a node a previous test restarted may still be joining), and
     * waits until partition 0 has a leader.
     */
    void createTopic(String topic, int partitions) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            int brokers = admin.describeCluster()
                    .nodes()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                    .size();
            if (brokers == NODES) {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "only " + brokers + " of " + NODES + " brokers within " + TIMEOUT);
            Thread.sleep(200);
        }
        admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
                .all()
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        leaderOf(topic, 0);
    }

    /** The node leading {@code topic}-{@code partition}, asking again while it has none or a request fails. */
    int leaderOf(String topic, int partition) throws InterruptedException {
        return leaderOtherThan(topic, partition, -1);
    }

    /**
     * The node leading {@code topic}-{@code partition} once that is not {@code node} (e.g. once a paused leader
     * was fenced), asking again while it is, while there is none, or while a request fails (with a node silent,
     * the admin client's requests to it time out); fails the test after {@link #TIMEOUT}.
     */
    int leaderOtherThan(String topic, int partition, int node) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String last;
        do {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .get(topic);
                Node leader = description.partitions().get(partition).leader();
                if (leader != null && !leader.isEmpty() && leader.id() != node) {
                    return leader.id();
                }
                last = "leader " + leader;
            } catch (ExecutionException | TimeoutException e) {
                last = e.toString();
                System.err.println("describe " + topic + ": " + last + "; asking again");
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(topic + "-" + partition + ": no leader other than node " + node + " within " + TIMEOUT
                + " (last: " + last + ")");
    }

    /** The partitions of {@code topic} (of {@code partitions}) that {@code node} leads now. */
    List<Integer> ledBy(String topic, int partitions, int node) throws InterruptedException {
        List<Integer> led = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (leaderOf(topic, p) == node) {
                led.add(p);
            }
        }
        return led;
    }

    /**
     * The transaction coordinator of an ongoing transaction whose transactional id starts with {@code prefix}, and that
     * id ({@code Admin.listTransactions} filtered to {@link TransactionState#ONGOING}, then
     * {@code describeTransactions}), asking again while there is none or a request fails; fails the test after
     * {@link #TIMEOUT}.
     */
    Map.Entry<String, Integer> coordinatorOfOngoingTransaction(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String last = "none ongoing";
        do {
            try {
                List<String> ongoing = admin
                        .listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                        .all()
                        .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .stream()
                        .map(TransactionListing::transactionalId)
                        .filter(id -> id.startsWith(prefix))
                        .sorted()
                        .toList();
                if (!ongoing.isEmpty()) {
                    String id = ongoing.get(0);
                    int coordinator = admin.describeTransactions(List.of(id))
                            .description(id)
                            .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                            .coordinatorId();
                    return Map.entry(id, coordinator);
                }
            } catch (ExecutionException | TimeoutException e) {
                last = e.toString();
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(
                "no ongoing transaction of prefix " + prefix + " within " + TIMEOUT + " (last: " + last + ")");
    }

    /**
     * The records of {@code topic}'s partitions 0 to {@code partitions - 1}, read with {@code isolation}
     * ({@code read_committed} or {@code read_uncommitted}) from the beginning to the end offsets taken first (with
     * {@code read_committed}, the last stable offsets); keys as bytes, values decoded by {@code values}; each
     * partition's records in offset order. Fails the test when the read does not get there within {@link #TIMEOUT}.
     */
    static <V> List<ConsumerRecord<byte[], V>> readToEnd(
            String bootstrap, String topic, int partitions, String isolation, Class<? extends Deserializer<V>> values) {
        Map<String, Object> configs = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                isolation,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                values.getName());
        List<ConsumerRecord<byte[], V>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], V> consumer = new KafkaConsumer<>(configs)) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> ends = consumer.endOffsets(all, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (all.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < ends.get(tp))) {
                assertTrue(System.nanoTime() < deadline, "read " + topic + " to " + ends + " within " + TIMEOUT);
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** The active controller, the node leading the metadata quorum ({@code kafka/cluster controller}). */
    int controller() throws IOException, InterruptedException {
        String out = script("controller");
        try {
            return Integer.parseInt(out);
        } catch (NumberFormatException e) {
            throw new AssertionError("kafka/cluster controller: not a node id: " + out, e);
        }
    }

    /** SIGKILLs {@code node} ({@code kafka/cluster kill}, which returns once the process is gone). */
    void kill(int node) throws IOException, InterruptedException {
        script("kill", Integer.toString(node));
        down.add(node);
    }

    /** Starts {@code node} again ({@code kafka/cluster start-node}, which returns once it answers). */
    void startNode(int node) throws IOException, InterruptedException {
        script("start-node", Integer.toString(node));
        down.remove(node);
    }

    /**
     * SIGSTOPs {@code node} ({@code kafka/cluster pause}, which returns once {@code /proc} shows it stopped): alive,
     * its connections open, but silent, as a node cut off the network.
     */
    void pause(int node) throws IOException, InterruptedException {
        script("pause", Integer.toString(node));
        paused.add(node);
    }

    /** SIGCONTs {@code node} ({@code kafka/cluster resume}). */
    void resume(int node) throws IOException, InterruptedException {
        script("resume", Integer.toString(node));
        paused.remove(node);
    }

    /**
     * Waits until no partition is under-replicated ({@code kafka/cluster in-sync}): every node back in every ISR it
     * belongs to, so a node that was paused has caught up with the metadata too. A read right after a SIGCONT may
     * otherwise ask the resumed node, which still believes it leads, for a partition's end offset, and get the one
     * it had when it stopped (seen once: a verifying read stopped at the offset of the pause).
     */
    void awaitInSync() throws IOException, InterruptedException {
        script("in-sync");
    }

    /**
     * Restarts every node in turn as an operator does ({@code kafka/cluster rolling-restart}): a controlled shutdown,
     * a start, and a wait until no partition is under-replicated before the next node, the active controller last.
     * Returns the command's report, a line per node and step; fails the test when the command fails or takes longer
     * than {@link #ROLLING_RESTART}.
     */
    String rollingRestart() throws IOException, InterruptedException {
        return script(ROLLING_RESTART, "rolling-restart");
    }

    /**
     * Resumes the nodes this test left paused and starts those it left down (a failed test may leave them so),
     * then closes the admin client; fails if a node could not be brought back.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        List<String> errors = new ArrayList<>();
        for (int node : List.copyOf(paused)) {
            try {
                resume(node);
            } catch (AssertionError e) {
                errors.add(e.getMessage());
            }
        }
        for (int node : List.copyOf(down)) {
            try {
                startNode(node);
            } catch (AssertionError e) {
                errors.add(e.getMessage());
            }
        }
        admin.close(Duration.ofSeconds(5));
        assertTrue(errors.isEmpty(), "after the test: " + errors);
    }

    /**
     * Runs {@code kafka/cluster ARGS} and returns its standard output, trimmed; fails the test with what it printed
     * when it fails or takes longer than twice {@link #TIMEOUT} (a node's start may take most of one).
     */
    private static String script(String... args) throws IOException, InterruptedException {
        return script(TIMEOUT.multipliedBy(2), args);
    }

    /** {@link #script(String...)}, bounded by {@code limit}. */
    private static String script(Duration limit, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("reliability.cluster.script", "kafka/cluster"));
        command.addAll(List.of(args));
        File out = File.createTempFile("kafka-cluster-", ".out");
        File err = File.createTempFile("kafka-cluster-", ".err");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(out)
                    .redirectError(err)
                    .start();
            if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(command + " did not finish within " + limit + ": " + read(out) + read(err));
            }
            String stdout = read(out).trim();
            assertEquals(0, process.exitValue(), command + ": " + stdout + "\n" + read(err));
            return stdout;
        } finally {
            Files.deleteIfExists(out.toPath());
            Files.deleteIfExists(err.toPath());
        }
    }

    private static String read(File file) throws IOException {
        return Files.readString(file.toPath(), StandardCharsets.UTF_8);
    }
}
