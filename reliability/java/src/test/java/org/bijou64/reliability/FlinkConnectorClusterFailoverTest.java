package org.bijou64.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink connector {@code streamfusion-kafka}, exactly once, through node failures of the three-node cluster
 * (one of the cluster failure tests, docs/reliability.md), beside Flink's stock {@code kafka} connector in the same job. One Flink SQL job per test
 * (MiniCluster, parallelism 2, a checkpoint every 500 ms, at most 5 restarts 1 s apart) reads ids 1 to
 * {@link #IDS} from a bounded sequence, tags each with the attempt that wrote it, and writes the same rows to two
 * topics of three partitions and replication factor 3: one through {@code streamfusion-kafka}, one through
 * {@code kafka}, both {@code 'sink.delivery-guarantee' = 'exactly-once'} with JSON keys and values.
 *
 * <p>The rows are throttled (1 ms per row and subtask; 4 ms for the rolling restart) until the fault is over. The fault is set off from the
 * checkpoint that starts once {@link #ROWS_BEFORE_FAULT} rows went through and a first checkpoint completed: the
 * operator in front of the sinks snapshots its state, which releases the test thread, which fails the node while
 * the sinks flush their open transactions and commit them. One test per fault: a SIGKILL of the node leading
 * partition 0 of the connector's topic; a SIGKILL of the transaction coordinator of one of the connector's
 * ongoing transactions; a SIGKILL of the active controller (every node is broker and controller); a SIGSTOP of
 * partition 0's leader for {@link #PAUSE}, past the brokers' session timeout (9 s), the test failing unless
 * another node leads partition 0 meanwhile; a rolling restart of the three nodes ({@code kafka/cluster
 * rolling-restart}) with the job running throughout (a longer, slower job: {@link #ROLLING_IDS} ids). Killed nodes
 * stay down until the job is done ({@link Cluster#close()} starts them again). Once three more checkpoints
 * completed after the fault, the rows flow at full speed to the end.
 *
 * <p>Each test then reads both topics {@code read_committed}: every id exactly once, none missing, none twice,
 * and the committed records of both connectors equal (keys and values, the attempt that wrote each row among
 * them). It prints one {@code RESULT} line with what the job's user saw: the job's restarts and the exception
 * of each (Flink's exception history, through the REST API), the longest and the median time between two
 * completed checkpoints from the fault until the rows went at full speed, the records written and then aborted ({@code read_uncommitted} minus {@code read_committed})
 * per connector.
 *
 * <p>Runs only when {@code KAFKA_CLUSTER_BOOTSTRAP_SERVERS} names the cluster ({@code scripts/cluster-faults.sh});
 * otherwise skipped with the reason printed.
 */
class FlinkConnectorClusterFailoverTest {
    private static final int PARTITIONS = 3;
    private static final int PARALLELISM = 2;
    /**
     * The ids of a test: at 1 ms per row and subtask the rows last about 15 s, so the job outlives the stall a fault
     * causes (10-15 s) with rows to write after it.
     */
    private static final long IDS = 30_000;
    /**
     * The rolling restart's ids: at 4 ms per row and subtask the job writes about 500 rows per second, so the
     * rows last about five minutes, longer than the restart; the rest go at full speed once it is done.
     */
    private static final long ROLLING_IDS = 150_000;
    /** Rows through the job (both subtasks) before the fault is set off. */
    private static final long ROWS_BEFORE_FAULT = 1_000;
    /** Checkpoints completed after the fault (after the resume, for a pause) before the rows flow at full speed. */
    private static final int CHECKPOINTS_AFTER_FAULT = 3;
    /**
     * How long the paused leader stays SIGSTOPped: past the brokers' session timeout (9 s), so the controller
     * fences it, and shorter than the producers' request timeout (30 s).
     */
    private static final Duration PAUSE = Duration.ofSeconds(13);
    /** Bound on the job's run after the fault (restarts and the rows at full speed included). */
    private static final Duration JOB = Duration.ofSeconds(150);

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+),\"attempt\":(\\d+)");

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    /** How a test fails its node. */
    private enum Fault {
        /** SIGKILL of the node leading partition 0 of the connector's topic. */
        LEADER_KILL,
        /** SIGKILL of the transaction coordinator of one of the connector's ongoing transactions. */
        COORDINATOR_KILL,
        /** SIGKILL of the active controller. */
        CONTROLLER_KILL,
        /** SIGSTOP of the node leading partition 0 of the connector's topic for {@link #PAUSE}, then SIGCONT. */
        LEADER_PAUSE,
        /** {@code kafka/cluster rolling-restart}: every node restarted in turn, the job running throughout. */
        ROLLING_RESTART
    }

    /** The state the job's {@link Tagged} map shares with the test (the MiniCluster runs in this JVM). */
    static final class Plan {
        /** Sleep {@link #throttleNanos} per row while true. */
        static volatile boolean throttle;
        /** The sleep per row and subtask while {@link #throttle}. */
        static volatile long throttleNanos;
        /** Set off the fault at the next checkpoint once {@link #ROWS_BEFORE_FAULT} rows went through. */
        static volatile boolean armed;
        /** Released by subtask 0's snapshot of the checkpoint that sets off the fault. */
        static volatile CountDownLatch faultPoint;
        /** The id of that checkpoint. */
        static volatile long faultCheckpoint;

        static final AtomicInteger maxAttempt = new AtomicInteger();
        static final AtomicLong rows = new AtomicLong();
        /** When subtask 0 heard of each completed checkpoint ({@link System#nanoTime()}). */
        static final List<Long> completed = new CopyOnWriteArrayList<>();

        static void reset(Duration perRow) {
            throttle = true;
            throttleNanos = perRow.toNanos();
            armed = false;
            faultPoint = new CountDownLatch(1);
            faultCheckpoint = -1;
            maxAttempt.set(0);
            rows.set(0);
            completed.clear();
        }

        /** Checkpoints completed at or after {@code since}. */
        static long completedSince(long since) {
            return completed.stream().filter(t -> t >= since).count();
        }

        /**
         * The times between two completed checkpoints from the last one before {@code since} on, up to
         * {@code until}, in order.
         */
        static List<Duration> gaps(long since, long until) {
            List<Long> times = new ArrayList<>(completed);
            times.sort(null);
            long previous = times.stream()
                    .filter(t -> t < since)
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(since);
            List<Duration> gaps = new ArrayList<>();
            for (long t : times) {
                if (t >= since && t <= until) {
                    gaps.add(Duration.ofNanos(t - previous));
                    previous = t;
                }
            }
            return gaps;
        }
    }

    /** id to the row (id, attempt, label); sets off the fault and counts completed checkpoints for {@link Plan}. */
    static final class Tagged extends RichMapFunction<Long, Row> implements CheckpointedFunction, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private transient int subtask;
        private transient int attempt;

        @Override
        public void open(OpenContext context) {
            subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            Plan.maxAttempt.accumulateAndGet(attempt, Math::max);
        }

        @Override
        public Row map(Long id) {
            if (Plan.throttle) {
                LockSupport.parkNanos(Plan.throttleNanos);
            }
            Plan.rows.incrementAndGet();
            return Row.of(id, attempt, "row " + id);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            if (subtask == 0 && Plan.armed && !Plan.completed.isEmpty() && Plan.rows.get() >= ROWS_BEFORE_FAULT) {
                Plan.armed = false;
                Plan.faultCheckpoint = context.getCheckpointId();
                Plan.faultPoint.countDown();
            }
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (subtask == 0) {
                Plan.completed.add(System.nanoTime());
            }
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void exactlyOnceThroughALeaderSigkill(@InjectClusterClient ClusterClient<?> flink) throws Exception {
        try (Cluster cluster = Cluster.forTest("FlinkConnectorClusterFailoverTest, leader SIGKILL")) {
            run(cluster, flink, "leader-kill", Fault.LEADER_KILL);
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void exactlyOnceThroughATransactionCoordinatorSigkill(@InjectClusterClient ClusterClient<?> flink)
            throws Exception {
        try (Cluster cluster = Cluster.forTest("FlinkConnectorClusterFailoverTest, coordinator SIGKILL")) {
            run(cluster, flink, "coordinator-kill", Fault.COORDINATOR_KILL);
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void exactlyOnceThroughAControllerSigkill(@InjectClusterClient ClusterClient<?> flink) throws Exception {
        try (Cluster cluster = Cluster.forTest("FlinkConnectorClusterFailoverTest, controller SIGKILL")) {
            run(cluster, flink, "controller-kill", Fault.CONTROLLER_KILL);
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void exactlyOnceThroughALeaderPausedBeyondTheSessionTimeout(@InjectClusterClient ClusterClient<?> flink)
            throws Exception {
        try (Cluster cluster = Cluster.forTest("FlinkConnectorClusterFailoverTest, leader SIGSTOP")) {
            run(cluster, flink, "leader-pause", Fault.LEADER_PAUSE);
        }
    }

    @Test
    @Tag("soak") // two minutes or more: make soak (scripts/cluster-faults.sh --soak)
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void exactlyOnceThroughARollingRestart(@InjectClusterClient ClusterClient<?> flink) throws Exception {
        try (Cluster cluster = Cluster.forTest("FlinkConnectorClusterFailoverTest, rolling restart")) {
            run(cluster, flink, "rolling-restart", Fault.ROLLING_RESTART);
        }
    }

    /**
     * Runs the job through {@code fault}, checks both topics exactly once and equal, and prints the test's
     * {@code RESULT} line. The rolling restart's job is longer and slower ({@link #ROLLING_IDS} ids, 4 ms per row
     * and subtask until the restart is done), so that it outlives the restart (one to two minutes here).
     */
    private static void run(Cluster cluster, ClusterClient<?> flink, String scenario, Fault fault) throws Exception {
        boolean rolling = fault == Fault.ROLLING_RESTART;
        long ids = rolling ? ROLLING_IDS : IDS;
        String tag = scenario + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        String ours = "reliability-flink-ours-" + tag;
        String stock = "reliability-flink-stock-" + tag;
        cluster.createTopic(ours, PARTITIONS);
        cluster.createTopic(stock, PARTITIONS);
        int victim = switch (fault) {
            case LEADER_KILL, LEADER_PAUSE -> cluster.leaderOf(ours, 0);
            case CONTROLLER_KILL -> cluster.controller();
            case COORDINATOR_KILL, ROLLING_RESTART -> -1; // the coordinator: found at the fault point
        };
        String what = victim < 0
                ? "all three nodes"
                : "node " + victim + ", leading partitions " + cluster.ledBy(ours, PARTITIONS, victim)
                        + " of the connector's topic";

        Plan.reset(rolling ? Duration.ofMillis(4) : Duration.ofMillis(1));
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, PARALLELISM);
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(PARALLELISM);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> rows = env.fromSequence(1, ids)
                .uid("ids")
                .map(new Tagged())
                .uid("tagged")
                .returns(Types.ROW_NAMED(new String[] {"id", "attempt", "label"}, Types.LONG, Types.INT, Types.STRING));
        tEnv.createTemporaryView("src", tEnv.fromDataStream(rows));
        createSink(tEnv, cluster, "ours", "streamfusion-kafka", ours);
        createSink(tEnv, cluster, "stock", "kafka", stock);
        StatementSet set = tEnv.createStatementSet();
        set.addInsertSql("INSERT INTO ours SELECT * FROM src");
        set.addInsertSql("INSERT INTO stock SELECT * FROM src");
        JobClient job = set.execute().getJobClient().orElseThrow();

        Plan.armed = true;
        assertTrue(
                Plan.faultPoint.await(Cluster.TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                "a checkpoint after " + ROWS_BEFORE_FAULT + " rows within " + Cluster.TIMEOUT + " (rows "
                        + Plan.rows.get() + ", checkpoints " + Plan.completed.size() + ")");
        if (fault == Fault.COORDINATOR_KILL) {
            Map.Entry<String, Integer> coordinator = cluster.coordinatorOfOngoingTransaction(ours);
            victim = coordinator.getValue();
            what = "node " + victim + ", coordinator of the transaction " + coordinator.getKey();
        }
        long faultAt = System.nanoTime();
        String healing = "killed, started again after the job";
        switch (fault) {
            case LEADER_KILL, COORDINATOR_KILL, CONTROLLER_KILL -> cluster.kill(victim);
            case LEADER_PAUSE -> {
                cluster.pause(victim);
                int leader = cluster.leaderOtherThan(ours, 0, victim);
                TimeUnit.NANOSECONDS.sleep(faultAt + PAUSE.toNanos() - System.nanoTime());
                cluster.resume(victim);
                healing = String.format(
                        "paused %.1f s, partition 0 meanwhile led by node %d",
                        (System.nanoTime() - faultAt) / 1e9, leader);
            }
            case ROLLING_RESTART -> {
                String report = cluster.rollingRestart();
                healing = String.format(
                        "restart done in %.1f s (%s)", (System.nanoTime() - faultAt) / 1e9, report.replace("\n", "; "));
                assertTrue(
                        !job.getJobStatus().get().isGloballyTerminalState(),
                        "the job outlived the rolling restart (rows " + Plan.rows.get() + " of " + ids + ")");
            }
        }
        long healedAt = System.nanoTime();
        long deadline = healedAt + JOB.toNanos();
        while (Plan.completedSince(healedAt) < CHECKPOINTS_AFTER_FAULT
                && System.nanoTime() < deadline
                && !job.getJobStatus().get().isGloballyTerminalState()) {
            Thread.sleep(50);
        }
        long fullSpeedAt = System.nanoTime();
        long rowsAtFullSpeed = Plan.rows.get();
        Plan.throttle = false;
        job.getJobExecutionResult().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        Duration run = Duration.ofNanos(System.nanoTime() - faultAt);
        if (fault == Fault.LEADER_PAUSE) {
            cluster.awaitInSync(); // the resumed node has caught up before the topics are read
        }

        Map<String, List<String>> committed = new TreeMap<>();
        Map<String, Integer> aborted = new TreeMap<>();
        for (String topic : List.of(ours, stock)) {
            List<String> records = read(cluster.bootstrap(), topic, "read_committed");
            checkEveryIdOnce(topic, records, ids);
            committed.put(topic, records);
            aborted.put(
                    topic.equals(ours) ? "ours" : "stock",
                    read(cluster.bootstrap(), topic, "read_uncommitted").size() - records.size());
        }
        List<String> restarts = exceptionHistory(flink.getWebInterfaceURL(), job.getJobID());
        List<Duration> gaps = Plan.gaps(faultAt, fullSpeedAt);
        List<Duration> sorted = gaps.stream().sorted().toList();
        System.err.printf(
                "RESULT Flink connector exactly once, %s (%s, at checkpoint %d after %d rows): %d of %d"
                        + " ids committed once by each connector, the two equal; %s; job restarts %d %s; %d checkpoints"
                        + " completed from the fault until full speed (after %d rows), the longest %.1f s after the one"
                        + " before, the median %.2f s; records written then aborted %s; job done %.1f s after the fault%n",
                fault,
                what,
                Plan.faultCheckpoint,
                ROWS_BEFORE_FAULT,
                ids,
                ids,
                healing,
                Plan.maxAttempt.get(),
                restarts,
                gaps.size(),
                rowsAtFullSpeed,
                sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).toMillis() / 1e3,
                sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2).toMillis() / 1e3,
                aborted,
                run.toMillis() / 1e3);
        assertEquals(committed.get(stock), committed.get(ours), "the committed records of both connectors");
    }

    private static void createSink(
            StreamTableEnvironment tEnv, Cluster cluster, String table, String connector, String topic) {
        String options = "'connector' = '" + connector + "', 'topic' = '" + topic + "', "
                + "'properties.bootstrap.servers' = '" + cluster.bootstrap() + "', "
                + "'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'json', "
                + "'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '" + topic + "', "
                + "'properties.transaction.timeout.ms' = '60000'";
        if (connector.startsWith("streamfusion")) {
            options += ", 'streamfusion.batch-rows' = '64', 'streamfusion.linger' = '20 ms'";
        }
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE " + table + " (id BIGINT, attempt INT, label STRING) WITH (" + options + ")");
    }

    /** Every id from 1 to {@code ids} exactly once among {@code records}. */
    private static void checkEveryIdOnce(String topic, List<String> records, long ids) {
        Map<Long, Integer> counts = new HashMap<>();
        for (String record : records) {
            Matcher m = ID.matcher(record);
            assertTrue(m.find(), topic + ": a record of the job: " + record);
            counts.merge(Long.parseLong(m.group(1)), 1, Integer::sum);
        }
        List<Long> missing = new ArrayList<>();
        for (long id = 1; id <= ids; id++) {
            if (!counts.containsKey(id)) {
                missing.add(id);
            }
        }
        List<Long> twice = counts.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        assertTrue(
                missing.isEmpty() && twice.isEmpty(),
                topic + ": " + missing.size() + " ids missing (first "
                        + missing.subList(0, Math.min(10, missing.size())) + "), " + twice.size()
                        + " more than once (first "
                        + twice.subList(0, Math.min(10, twice.size())) + ")");
        assertEquals(ids, records.size(), topic + ": records read_committed");
    }

    /**
     * The records of {@code topic}, all partitions, read from the beginning to the end offsets (with
     * {@code read_committed}, the last stable offsets) as {@code key => value}, sorted.
     */
    private static List<String> read(String bootstrap, String topic, String isolation) {
        List<String> records = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r :
                Cluster.readToEnd(bootstrap, topic, PARTITIONS, isolation, ByteArrayDeserializer.class)) {
            records.add(text(r.key()) + " => " + text(r.value()));
        }
        records.sort(null);
        return records;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * The failures that restarted the job, oldest first, from Flink's exception history ({@code GET
     * /jobs/:jobid/exceptions} of the MiniCluster's REST endpoint): per failure, its exception and the innermost
     * {@code Caused by} of its stack trace.
     */
    private static List<String> exceptionHistory(String rest, JobID job) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(rest + "/jobs/" + job + "/exceptions"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), "the job's exception history: " + response.body());
        JsonNode entries = new ObjectMapper()
                .readTree(response.body())
                .path("exceptionHistory")
                .path("entries");
        List<String> failures = new ArrayList<>();
        for (JsonNode entry : entries) {
            String trace = entry.path("stacktrace").asText();
            String cause = trace.lines()
                    .filter(l -> l.startsWith("Caused by: "))
                    .reduce((a, b) -> b)
                    .map(l -> " (innermost: " + l.substring("Caused by: ".length()) + ")")
                    .orElse("");
            failures.add(0, entry.path("exceptionName").asText() + cause);
        }
        return failures;
    }
}
