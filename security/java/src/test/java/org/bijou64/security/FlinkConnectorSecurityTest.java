package org.bijou64.security;

import static org.bijou64.security.SecureBroker.allow;
import static org.bijou64.security.SecureBroker.jaas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink SQL connector {@code streamfusion-kafka}, beside Flink's stock {@code kafka} connector, against a
 * broker that authenticates with SASL/SCRAM-SHA-512 over TLS and authorises every request with
 * {@code StandardAuthorizer} ACLs ({@code docs/security.md}; {@code kafka/broker} with {@code KAFKA_SECURITY=sasl_ssl}).
 * The client settings reach Flink's {@code KafkaSink} as the DDL's {@code 'properties.*'} options
 * ({@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code ssl.truststore.*}). Each
 * sink writes as a user of its own (a fresh random password each, made through the super user's {@link Admin})
 * with exactly the ACLs the test names. Jobs run on one MiniCluster (one TaskManager, {@value #SLOTS} slots), a
 * checkpoint every 500 ms, rows {@code (id BIGINT, label STRING)}, {@code 'key.format' = 'json'},
 * {@code 'key.fields' = 'id'}, {@code 'value.format' = 'json'}, topics of {@value #PARTITIONS} partitions:
 * <ul>
 *   <li>with the least-privilege ACLs of {@code docs/security.md} (exactly once: {@code WRITE} on the topic and
 *       {@code WRITE} on the transactional ids of prefix {@code sink.transactional-id-prefix}, and with
 *       {@code 'sink.transaction-naming-strategy' = 'POOLING'} also {@code READ} on the topic; at least once:
 *       {@code WRITE} on the topic), one job at parallelism {@value #SLOTS} writes {@value #ROWS} rows through
 *       six sinks (each connector exactly once with either naming strategy, and at least once) and fails once as
 *       planned after a completed checkpoint, so the restarted sinks abort the lingering transactions and commit
 *       the recovered ones with those ACLs; read back {@code read_committed} by the super user: exactly once,
 *       every id once and the four sinks' records equal (key and value bytes, partition); at least once, every
 *       id;</li>
 *   <li>the same for {@code streamfusion-upsert-kafka} beside Flink's {@code upsert-kafka}, with the same ACLs:
 *       one job writes a changelog ({@code (k, n)}, primary key {@code k}: the count of each key's rows, an
 *       insert then an update per row) through the six upsert sinks with a planned failure; exactly once, each
 *       key's changes once and in order and the four sinks' records equal; at least once, every change and the
 *       final value of each key; and without any one of the ACLs each upsert job fails as below;</li>
 *   <li>without any one of those ACLs, or with a wrong password, the job (parallelism 1, no restart) fails well
 *       within the producer's timeouts ({@code max.block.ms}, {@code transaction.timeout.ms}: 60 s) with Kafka's
 *       authorisation or authentication error in its cause chain, for both connectors alike, the broker's
 *       authorizer log names the operation it denied, and nothing reaches the topic (end offsets 0). One case
 *       may instead shut the TaskManager down, a fault of Flink's {@code KafkaWriter} (see
 *       {@link #poolingWithoutTopicWriteFailsNamingTheTopicOrLosesTheTaskManager});</li>
 *   <li>a table that fails planning gets Flink's error listing its options with the passwords hidden;</li>
 *   <li>and, at the end, no password of any user (nor the super user's, nor the truststore's) appears in an
 *       error message of those chains, in the log of the clients and of Flink (everything at INFO and above, the
 *       producers' configurations among it) or in the broker's logs.</li>
 * </ul>
 *
 * <p>Runs only when {@code KAFKA_SECURE_BOOTSTRAP_SERVERS} (the broker's {@code SASL_SSL} listener) and
 * {@code KAFKA_SECURE_ADMIN_CONFIG} (the super user's client settings, {@code run/admin.properties} of the broker's
 * home) are set, as {@code scripts/security-tests.sh} does; otherwise skipped with the reason (before the
 * MiniCluster starts). {@code KAFKA_SECURE_LOG_DIR} names the broker's logs folder.
 */
@Timeout(120)
@EnabledIfEnvironmentVariable(
        named = "KAFKA_SECURE_BOOTSTRAP_SERVERS",
        matches = ".+",
        disabledReason = "KAFKA_SECURE_BOOTSTRAP_SERVERS is not set: run scripts/security-tests.sh")
@EnabledIfEnvironmentVariable(
        named = "KAFKA_SECURE_ADMIN_CONFIG",
        matches = ".+",
        disabledReason = "KAFKA_SECURE_ADMIN_CONFIG is not set: run scripts/security-tests.sh")
class FlinkConnectorSecurityTest {
    private static final int ROWS = 400;
    /** The keys of the upsert sinks' changelog: row {@code id} counts for key {@code id % UPSERT_KEYS}. */
    private static final int UPSERT_KEYS = 40;
    /** The rows of a job that must be refused: more than it can write before it fails. */
    private static final long REFUSED_ROWS = 1_000_000;

    private static final int PARTITIONS = 2;
    /** The MiniCluster's slots (one TaskManager) and the parallelism of the least-privilege job. */
    private static final int SLOTS = 2;
    /** The producers' {@code max.block.ms}, {@code transaction.timeout.ms} and {@code delivery.timeout.ms}. */
    private static final Duration PRODUCER_TIMEOUT = Duration.ofSeconds(60);
    /** A refused job must have failed within this (well below {@link #PRODUCER_TIMEOUT}). */
    private static final Duration FAIL_WITHIN = Duration.ofSeconds(30);

    private static final Path CLIENTS_LOG = Paths.get("target/security-clients.log");
    /** What Flink's {@code Task} logs when closing a failed task throws again; its TaskManager then shuts down. */
    private static final String FATAL_TASK_ERROR = "FATAL - exception in exception handler of task";

    private static final Pattern UPSERT_RECORD =
            Pattern.compile("^\\{\"k\":(\\d+)\\} => \\{\"k\":(\\d+),\"n\":(\\d+)\\}$");
    private static final Pattern ID =
            Pattern.compile("^\\{\"id\":(\\d+)\\} => \\{\"id\":(\\d+),\"label\":\"row (\\d+)\"\\}$");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(SLOTS)
            .build());

    private static MiniCluster miniCluster;
    /** The broker, its super user, and every password the tests made or were given. */
    private static SecureBroker broker;

    private static Admin admin;
    /** The jobs run (the test of a planning error runs none). */
    private static int jobs;
    /** Every error a job failed with, checked for secrets at the end. */
    private static final List<Throwable> ERRORS = new ArrayList<>();

    @BeforeAll
    static void setUp(@InjectMiniCluster MiniCluster cluster) throws Exception {
        miniCluster = cluster;
        assertTrue(
                NativeLibrary.isLoaded(),
                "the native library must be on the test class path (the connector's "
                        + "native path is the one under test): "
                        + NativeLibrary.loadError().map(Throwable::toString).orElse(""));
        broker = SecureBroker.connect();
        admin = broker.admin();
    }

    @AfterAll
    static void noSecretInLogsOrErrors() throws Exception {
        if (broker != null) {
            broker.close();
        }
        for (Throwable error : ERRORS) {
            for (Throwable t : chain(error)) {
                broker.assertNoSecret(
                        String.valueOf(t.getMessage()),
                        "the message of " + t.getClass().getName());
                broker.assertNoSecret(
                        t.toString(), "the toString of " + t.getClass().getName());
            }
        }
        List<Path> logs = new ArrayList<>();
        logs.add(CLIENTS_LOG);
        logs.addAll(SecureBroker.logFiles());
        String clients = Files.readString(logs.get(0));
        // The log holds Flink's lines and the producers' configurations (Kafka prints passwords as [hidden]).
        assertTrue(
                clients.contains("org.apache.flink.runtime.minicluster.MiniCluster"),
                "Flink logged at INFO into " + logs.get(0));
        if (jobs > 0) {
            assertTrue(
                    clients.contains("transactional.id = sf-sec-") && clients.contains("sasl.jaas.config = [hidden]"),
                    "the sinks' producers logged their configurations into " + logs.get(0));
        }
        for (Path log : logs) {
            broker.assertNoSecret(Files.readString(log), log.toString());
        }
        System.out.printf(
                "RESULT flink: no secret in %d error chains and %d log files (%s)%n", ERRORS.size(), logs.size(), logs);
    }

    // --- the jobs ------------------------------------------------------------------------------------------

    /**
     * What the {@link Rows} map does, shared by its subtasks through statics (the MiniCluster runs in this JVM).
     * Reset by each job.
     */
    static final class Plan {
        /** Fail once (attempt 0) when a checkpoint completed and 20 more rows went through. */
        static volatile boolean failAfterCheckpoint;
        /** Sleep this long per row (0: not at all). */
        static volatile long throttleMillis;

        static final AtomicBoolean failed = new AtomicBoolean();
        static final AtomicInteger maxAttempt = new AtomicInteger();
        static final AtomicInteger completedCheckpoints = new AtomicInteger();
        static final Set<Integer> subtasks = ConcurrentHashMap.newKeySet();

        static void reset(boolean failAfterCheckpoint, long throttleMillis) {
            Plan.failAfterCheckpoint = failAfterCheckpoint;
            Plan.throttleMillis = throttleMillis;
            failed.set(false);
            maxAttempt.set(0);
            completedCheckpoints.set(0);
            subtasks.clear();
        }
    }

    /** id to row (id, label); fails as {@link Plan} says. */
    static final class Rows extends RichMapFunction<Long, Row> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private transient int subtask;
        private transient int attempt;
        private transient long rowsSinceCompletedCheckpoint = -1;

        @Override
        public void open(OpenContext context) {
            subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            Plan.maxAttempt.accumulateAndGet(attempt, Math::max);
            Plan.subtasks.add(subtask);
        }

        @Override
        public Row map(Long id) {
            if (Plan.throttleMillis > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Plan.throttleMillis));
            }
            if (rowsSinceCompletedCheckpoint >= 0) {
                rowsSinceCompletedCheckpoint++;
            }
            if (Plan.failAfterCheckpoint
                    && subtask == 0
                    && attempt == 0
                    && rowsSinceCompletedCheckpoint >= 20
                    && !Plan.failed.getAndSet(true)) {
                throw new IllegalStateException("planned failure after a completed checkpoint (test)");
            }
            return Row.of(id, "row " + id);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            Plan.completedCheckpoints.incrementAndGet();
            if (rowsSinceCompletedCheckpoint < 0) {
                rowsSinceCompletedCheckpoint = 0;
            }
        }
    }

    /**
     * A sink table: its connector, topic, delivery guarantee, transactional-id prefix (or null) and user. An
     * upsert connector ({@code upsert-kafka}, {@code streamfusion-upsert-kafka}) writes the changelog of the view
     * {@code changes} ({@code (k, n)}, primary key {@code k}); the others the rows of {@code src}.
     */
    private record Sink(
            String table,
            String connector,
            String topic,
            String guarantee,
            String prefix,
            Properties user,
            String naming) {
        Sink(String table, String connector, String topic, String guarantee, String prefix, Properties user) {
            this(table, connector, topic, guarantee, prefix, user, null);
        }

        boolean upsert() {
            return connector.endsWith("upsert-kafka");
        }

        /** The statement that writes into the table. */
        String insert() {
            return upsert()
                    ? "INSERT INTO " + table + " SELECT k, n FROM changes"
                    : "INSERT INTO " + table + " SELECT id, label FROM src";
        }

        String ddl() {
            StringBuilder options = new StringBuilder();
            options.append("'connector' = '")
                    .append(connector)
                    .append("', 'topic' = '")
                    .append(topic)
                    .append("', ")
                    .append(upsert() ? "'key.format' = 'json', " : "'key.format' = 'json', 'key.fields' = 'id', ")
                    .append("'value.format' = 'json', ")
                    .append("'sink.delivery-guarantee' = '")
                    .append(guarantee)
                    .append("'");
            if (prefix != null) {
                options.append(", 'sink.transactional-id-prefix' = '")
                        .append(prefix)
                        .append("'");
            }
            if (naming != null) {
                options.append(", 'sink.transaction-naming-strategy' = '")
                        .append(naming)
                        .append("'");
            }
            if (connector.startsWith("streamfusion")) {
                options.append(", 'streamfusion.batch-rows' = '64', 'streamfusion.linger' = '20 ms'");
            }
            Properties props = new Properties();
            props.putAll(user);
            props.put("max.block.ms", Long.toString(PRODUCER_TIMEOUT.toMillis()));
            props.put("transaction.timeout.ms", Long.toString(PRODUCER_TIMEOUT.toMillis()));
            props.put("delivery.timeout.ms", Long.toString(PRODUCER_TIMEOUT.toMillis()));
            props.put("request.timeout.ms", "15000");
            for (String key :
                    new TreeMap<>(props).keySet().stream().map(Object::toString).toList()) {
                options.append(", 'properties.")
                        .append(key)
                        .append("' = '")
                        .append(props.getProperty(key))
                        .append("'");
            }
            String columns = upsert() ? "k BIGINT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED" : "id BIGINT, label STRING";
            return "CREATE TEMPORARY TABLE " + table + " (" + columns + ") WITH (" + options + ")";
        }
    }

    /**
     * A job's outcome: the error it failed with (null if it finished), the time to plan and submit it, and the
     * time from its submission to its end.
     */
    private record JobRun(Throwable error, Duration submit, Duration run) {}

    /**
     * A table environment on the MiniCluster at {@code parallelism} with a view {@code src} of {@code rows} rows
     * (ids 1 to rows).
     */
    private static StreamTableEnvironment tableEnvironment(Configuration conf, int parallelism, long rows) {
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> stream = env.fromSequence(1, rows)
                .uid("ids")
                .map(new Rows())
                .uid("rows")
                .returns(Types.ROW_NAMED(new String[] {"id", "label"}, Types.LONG, Types.STRING));
        tEnv.createTemporaryView("src", tEnv.fromDataStream(stream));
        // A changelog for the upsert sinks: per key k, the count n of its rows so far (+I, then +U per row; the
        // planner asks the aggregate for no -U before an upsert sink). The values do not depend on the order in
        // which the aggregate's subtasks receive the rows, so every sink's committed changelog is the same.
        tEnv.executeSql("CREATE TEMPORARY VIEW changes AS SELECT id % " + UPSERT_KEYS + " AS k, COUNT(*) AS n "
                + "FROM src GROUP BY id % " + UPSERT_KEYS);
        return tEnv;
    }

    /**
     * Runs one job at {@code parallelism} that writes the rows into every sink, at most 90 s: with a planned
     * failure, {@value #ROWS} rows, 4 ms each (so the job spans a few checkpoints), and one restart; otherwise (a
     * job that must be refused) no restart, and a source that does not end before the job fails (1 ms per row of
     * {@value #REFUSED_ROWS}) and checkpoint failures tolerated, so the job's error is the sink's own: Flink
     * reports the first failure it sees, and a source that ran out (its coordinator's {@code NoMoreSplitEvent}
     * to the failed task is lost) or a declined checkpoint could come first.
     */
    private static JobRun runJob(boolean plannedFailure, int parallelism, List<Sink> sinks) throws Exception {
        Configuration conf = new Configuration();
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
        if (plannedFailure) {
            Plan.reset(true, 4);
            conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 0);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        } else {
            Plan.reset(false, 1);
            conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, Integer.MAX_VALUE);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        StreamTableEnvironment tEnv = tableEnvironment(conf, parallelism, plannedFailure ? ROWS : REFUSED_ROWS);
        StatementSet set = tEnv.createStatementSet();
        for (Sink sink : sinks) {
            tEnv.executeSql(sink.ddl());
            set.addInsertSql(sink.insert());
        }
        jobs++;
        long start = System.nanoTime();
        TableResult result = set.execute();
        long submitted = System.nanoTime();
        Throwable error = null;
        try {
            result.await(90, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            ERRORS.add(e);
            error = e;
        }
        return new JobRun(error, Duration.ofNanos(submitted - start), Duration.ofNanos(System.nanoTime() - submitted));
    }

    // --- the tests -----------------------------------------------------------------------------------------

    @Test
    void leastPrivilegeAclsWriteEveryRowThroughBothConnectorsAndEveryMode() throws Exception {
        String run = "sf-sec-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Sink> sinks = new LinkedHashMap<>();
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String who = connector.equals("kafka") ? "stock" : "ours";
            for (String mode : List.of("eo", "pool", "alo")) {
                String topic = createTopic(run + "-" + who + "-" + mode);
                String prefix = mode.equals("alo") ? null : topic + "-tx";
                String user = "flink-" + who + "-" + mode;
                List<AclBinding> acls = switch (mode) {
                    case "eo" -> exactlyOnceAcls(user, topic, prefix);
                    case "pool" -> poolingAcls(user, topic, prefix);
                    default -> List.of(allow(user, ResourceType.TOPIC, topic, AclOperation.WRITE));
                };
                sinks.put(
                        who + "_" + mode,
                        new Sink(
                                who + "_" + mode,
                                connector,
                                topic,
                                mode.equals("alo") ? "at-least-once" : "exactly-once",
                                prefix,
                                broker.user(user, acls),
                                mode.equals("pool") ? "POOLING" : null));
            }
        }
        JobRun job = runJob(true, SLOTS, List.copyOf(sinks.values()));
        if (job.error() != null) {
            throw new AssertionError("the job with the least-privilege ACLs failed", job.error());
        }
        assertTrue(Plan.failed.get(), "the planned failure after a completed checkpoint happened");
        assertEquals(1, Plan.maxAttempt.get(), "one restart");

        // Two subtasks write into each partition, so the order in a partition is theirs; the records are compared
        // sorted, per partition.
        Map<Integer, List<String>> stock =
                sorted(readCommitted(sinks.get("stock_eo").topic()));
        assertEveryIdOnce(stock, "kafka exactly once");
        for (String name : List.of("ours_eo", "ours_pool", "stock_pool")) {
            Map<Integer, List<String>> records =
                    sorted(readCommitted(sinks.get(name).topic()));
            assertEveryIdOnce(records, name);
            assertEquals(
                    stock,
                    records,
                    name + ": the committed records equal kafka's exactly-once sink's (key and "
                            + "value bytes, partition)");
        }
        List<Long> aloRecords = new ArrayList<>();
        for (String name : List.of("ours_alo", "stock_alo")) {
            Map<Long, Integer> counts = idCounts(readCommitted(sinks.get(name).topic()));
            assertEquals(ROWS, counts.size(), name + ": every id");
            assertEquals(
                    ROWS,
                    counts.keySet().stream().mapToLong(Long::longValue).max().orElseThrow(),
                    name);
            aloRecords.add(
                    counts.values().stream().mapToLong(Integer::longValue).sum());
        }
        List<Long> uncommitted = new ArrayList<>();
        for (String name : List.of("ours_eo", "stock_eo", "ours_pool", "stock_pool")) {
            uncommitted.add(endOffsets(sinks.get(name).topic()));
        }
        System.out.printf(
                "RESULT flink least-privilege ACLs: %d rows through 6 sinks at parallelism %d, one "
                        + "planned restart, %d checkpoints completed, job ran %d ms (planned and submitted in %d ms); exactly once (incrementing "
                        + "ours, stock; pooling ours, stock): %d records each read_committed, every id once, all equal, end "
                        + "offsets %s; at least once: every id, %s records%n",
                ROWS,
                SLOTS,
                Plan.completedCheckpoints.get(),
                job.run().toMillis(),
                job.submit().toMillis(),
                ROWS,
                uncommitted,
                aloRecords);
        assertEquals(SLOTS, Plan.subtasks.size(), "subtasks that mapped rows");
    }

    /**
     * {@code streamfusion-upsert-kafka} beside Flink's {@code upsert-kafka}, with the same least-privilege ACLs as
     * the append connectors (exactly once: {@code WRITE} on the topic and on the transactional ids of the prefix,
     * with {@code POOLING} also {@code READ} on the topic; at least once: {@code WRITE} on the topic): one job at
     * parallelism {@value #SLOTS} writes the changelog of {@code changes} ({@value #ROWS} changes over
     * {@value #UPSERT_KEYS} keys: an insert, then an update per row) through six sinks and fails once as planned
     * after a completed checkpoint. Read back {@code read_committed}: exactly once, each key's changes once and in
     * order ({@code n} = 1, 2, ... {@code ROWS / UPSERT_KEYS}) and the four sinks' records equal (key and value
     * bytes, partition); at least once, every change of every key and the last one final.
     */
    @Test
    void upsertLeastPrivilegeAclsWriteTheSameChangelogThroughBothConnectorsAndEveryMode() throws Exception {
        String run = "sf-sec-up-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Sink> sinks = new LinkedHashMap<>();
        for (String connector : List.of("streamfusion-upsert-kafka", "upsert-kafka")) {
            String who = connector.equals("upsert-kafka") ? "stock" : "ours";
            for (String mode : List.of("eo", "pool", "alo")) {
                String topic = createTopic(run + "-" + who + "-" + mode);
                String prefix = mode.equals("alo") ? null : topic + "-tx";
                String user = "flink-" + who + "-upsert-" + mode;
                List<AclBinding> acls = switch (mode) {
                    case "eo" -> exactlyOnceAcls(user, topic, prefix);
                    case "pool" -> poolingAcls(user, topic, prefix);
                    default -> List.of(allow(user, ResourceType.TOPIC, topic, AclOperation.WRITE));
                };
                sinks.put(
                        who + "_" + mode,
                        new Sink(
                                "upsert_" + who + "_" + mode,
                                connector,
                                topic,
                                mode.equals("alo") ? "at-least-once" : "exactly-once",
                                prefix,
                                broker.user(user, acls),
                                mode.equals("pool") ? "POOLING" : null));
            }
        }
        JobRun job = runJob(true, SLOTS, List.copyOf(sinks.values()));
        if (job.error() != null) {
            throw new AssertionError("the upsert job with the least-privilege ACLs failed", job.error());
        }
        assertTrue(Plan.failed.get(), "the planned failure after a completed checkpoint happened");
        assertEquals(1, Plan.maxAttempt.get(), "one restart");

        Map<Integer, List<String>> stock = readCommitted(sinks.get("stock_eo").topic());
        assertEveryChangeOnceInOrder(stock, "upsert-kafka exactly once");
        for (String name : List.of("ours_eo", "ours_pool", "stock_pool")) {
            Map<Integer, List<String>> records = readCommitted(sinks.get(name).topic());
            assertEveryChangeOnceInOrder(records, name);
            assertEquals(
                    sorted(stock),
                    sorted(records),
                    name + ": the committed records equal upsert-kafka's "
                            + "exactly-once sink's (key and value bytes, partition)");
        }
        List<Integer> aloRecords = new ArrayList<>();
        for (String name : List.of("ours_alo", "stock_alo")) {
            Map<Long, List<Long>> changes =
                    changes(readCommitted(sinks.get(name).topic()));
            assertEquals(UPSERT_KEYS, changes.size(), name + ": keys");
            changes.forEach((k, counts) -> {
                assertEquals(
                        LongStream.rangeClosed(1, ROWS / UPSERT_KEYS).boxed().toList(),
                        counts.stream().distinct().sorted().toList(),
                        name + ": every change of key " + k);
                assertEquals(
                        (long) (ROWS / UPSERT_KEYS),
                        counts.get(counts.size() - 1),
                        name + ": the final value of key " + k);
            });
            aloRecords.add(changes.values().stream().mapToInt(List::size).sum());
        }
        List<Long> uncommitted = new ArrayList<>();
        for (String name : List.of("ours_eo", "stock_eo", "ours_pool", "stock_pool")) {
            uncommitted.add(endOffsets(sinks.get(name).topic()));
        }
        System.out.printf(
                "RESULT flink upsert least-privilege ACLs: %d changes over %d keys through 6 sinks at "
                        + "parallelism %d, one planned restart, %d checkpoints completed, job ran %d ms (planned and submitted "
                        + "in %d ms); exactly once (incrementing ours, stock; pooling ours, stock): %d records each "
                        + "read_committed, every change once in order, all equal, end offsets %s; at least once: every change, "
                        + "%s records%n",
                ROWS,
                UPSERT_KEYS,
                SLOTS,
                Plan.completedCheckpoints.get(),
                job.run().toMillis(),
                job.submit().toMillis(),
                ROWS,
                uncommitted,
                aloRecords);
    }

    /**
     * {@code streamfusion-upsert-kafka} and {@code upsert-kafka} without one of their ACLs each (a user with every
     * other one): exactly once without {@code WRITE} on the topic, or on the transactional ids; with
     * {@code POOLING} without {@code READ} on the topic; at least once without {@code WRITE} on the topic. Each job
     * fails fast with the error the append connectors get, naming the topic where Kafka's error does, and commits
     * nothing (see {@link #refused}).
     */
    @Test
    void upsertWithoutAnyOneOfItsAclsFailsAndCommitsNothing() throws Exception {
        for (String connector : List.of("streamfusion-upsert-kafka", "upsert-kafka")) {
            String who = connector.equals("upsert-kafka") ? "stock" : "ours";
            String id = UUID.randomUUID().toString().substring(0, 8);

            String topic = createTopic("sf-sec-up-no-topic-write-" + id);
            String user = "flink-" + who + "-upsert-no-topic-write";
            Refusal refusal = refused(
                    connector,
                    topic,
                    "exactly-once",
                    topic + "-tx",
                    null,
                    broker.user(user, exactlyOnceAcls(user, topic + "-other", topic + "-tx")));
            TopicAuthorizationException noWrite = refusal.find(TopicAuthorizationException.class);
            assertEquals(Set.of(topic), noWrite.unauthorizedTopics());
            assertTrue(noWrite.getMessage().contains(topic), noWrite.getMessage());
            refusal.print(
                    connector + " exactly once without WRITE on the topic",
                    noWrite,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));

            topic = createTopic("sf-sec-up-no-txn-write-" + id);
            user = "flink-" + who + "-upsert-no-txn-write";
            refusal = refused(
                    connector,
                    topic,
                    "exactly-once",
                    topic + "-tx",
                    null,
                    broker.user(user, exactlyOnceAcls(user, topic, topic + "-other-tx")));
            refusal.print(
                    connector + " exactly once without WRITE on the transactional ids",
                    refusal.find(TransactionalIdAuthorizationException.class),
                    SecureBroker.denial(user, "TransactionalId:LITERAL:" + topic + "-tx"));

            topic = createTopic("sf-sec-up-pool-no-read-" + id);
            user = "flink-" + who + "-upsert-pool-no-read";
            List<AclBinding> acls = new ArrayList<>(exactlyOnceAcls(user, topic, topic + "-tx"));
            acls.add(allow(user, ResourceType.TOPIC, topic + "-other", AclOperation.READ));
            refusal = refused(connector, topic, "exactly-once", topic + "-tx", "POOLING", broker.user(user, acls));
            TopicAuthorizationException noRead = refusal.find(TopicAuthorizationException.class);
            assertTrue(
                    noRead.getMessage().contains("Failed to describe active producers for partition " + topic),
                    noRead.getMessage());
            refusal.print(
                    connector + " pooling without READ on the topic",
                    noRead,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));

            topic = createTopic("sf-sec-up-alo-no-write-" + id);
            user = "flink-" + who + "-upsert-alo-no-write";
            refusal = refused(
                    connector,
                    topic,
                    "at-least-once",
                    null,
                    null,
                    broker.user(user, List.of(allow(user, ResourceType.TOPIC, topic + "-other", AclOperation.WRITE))));
            TopicAuthorizationException aloNoWrite = refusal.find(TopicAuthorizationException.class);
            assertEquals(Set.of(topic), aloNoWrite.unauthorizedTopics());
            refusal.print(
                    connector + " at least once without WRITE on the topic",
                    aloNoWrite,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));
        }
    }

    @Test
    void exactlyOnceWithoutTopicWriteFailsNamingTheTopic() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-no-topic-write-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "no-topic-write");
            // WRITE on another topic, so only the one on ours is missing.
            Refusal refusal = refused(
                    connector,
                    topic,
                    "exactly-once",
                    prefix,
                    null,
                    broker.user(user, exactlyOnceAcls(user, topic + "-other", prefix)));
            TopicAuthorizationException denied = refusal.find(TopicAuthorizationException.class);
            assertEquals(Set.of(topic), denied.unauthorizedTopics());
            assertTrue(denied.getMessage().contains(topic), denied.getMessage());
            refusal.print(
                    connector + " exactly once without WRITE on the topic",
                    denied,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));
        }
    }

    @Test
    void exactlyOnceWithoutTransactionalIdWriteFails() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-no-txn-write-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "no-txn-write");
            // WRITE on the transactional ids of another prefix, so only the one on ours is missing.
            Refusal refusal = refused(
                    connector,
                    topic,
                    "exactly-once",
                    prefix,
                    null,
                    broker.user(user, exactlyOnceAcls(user, topic, topic + "-other-tx")));
            TransactionalIdAuthorizationException denied = refusal.find(TransactionalIdAuthorizationException.class);
            refusal.print(
                    connector + " exactly once without WRITE on the transactional ids",
                    denied,
                    SecureBroker.denial(user, "TransactionalId:LITERAL:" + prefix));
        }
    }

    @Test
    void atLeastOnceWithoutTopicWriteFailsNamingTheTopic() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-alo-no-write-" + UUID.randomUUID().toString().substring(0, 8));
            String user = userName(connector, "alo-no-write");
            Refusal refusal = refused(
                    connector,
                    topic,
                    "at-least-once",
                    null,
                    null,
                    broker.user(user, List.of(allow(user, ResourceType.TOPIC, topic + "-other", AclOperation.WRITE))));
            TopicAuthorizationException denied = refusal.find(TopicAuthorizationException.class);
            assertEquals(Set.of(topic), denied.unauthorizedTopics());
            refusal.print(
                    connector + " at least once without WRITE on the topic",
                    denied,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));
        }
    }

    /**
     * {@code 'sink.transaction-naming-strategy' = 'POOLING'}: at every start the writer looks for the
     * transactions open on the topic (Flink's {@code AdminUtils.getOpenTransactionsForTopics}: DescribeProducers
     * on each partition, which needs {@code READ} on the topic, then ListTransactions of those producers, which
     * returns only the ids the user may {@code DESCRIBE}); without {@code READ} it fails naming the topic.
     */
    @Test
    void poolingWithoutTopicReadFailsNamingTheTopic() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-pool-no-read-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "pool-no-read");
            List<AclBinding> acls = new ArrayList<>(exactlyOnceAcls(user, topic, prefix));
            acls.add(allow(user, ResourceType.TOPIC, topic + "-other", AclOperation.READ));
            Refusal refusal = refused(connector, topic, "exactly-once", prefix, "POOLING", broker.user(user, acls));
            TopicAuthorizationException denied = refusal.find(TopicAuthorizationException.class);
            assertTrue(
                    denied.getMessage().contains("Failed to describe active producers for partition " + topic),
                    denied.getMessage());
            refusal.print(
                    connector + " pooling without READ on the topic",
                    denied,
                    SecureBroker.denial(user, "Topic:LITERAL:" + topic));
        }
    }

    /**
     * {@code POOLING} with {@code READ} but without {@code WRITE} on the topic: the metadata request passes (READ
     * implies DESCRIBE), the broker refuses the Produce request, and the producer reports the error in its send
     * callback, on its own thread. When the task fails on it, the job fails with the
     * {@code TopicAuthorizationException}; when the task first fails on the next send (the transaction is already
     * in its error state: {@code KafkaException: Cannot execute transactional method because we are in an error
     * state}), Flink's {@code KafkaWriter.close()} throws the pending callback error again while the failed task
     * is cleaned up, Flink's {@code Task} logs {@value #FATAL_TASK_ERROR} and shuts the whole TaskManager down,
     * and the job fails with {@code The TaskExecutor is shutting down}. Both connectors (Flink's
     * {@code KafkaSink} writes for both) take either path; the test accepts both, checks the log in the second
     * case and starts a new TaskManager.
     */
    @Test
    void poolingWithoutTopicWriteFailsNamingTheTopicOrLosesTheTaskManager() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-pool-no-write-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "pool-no-write");
            List<AclBinding> acls = new ArrayList<>(poolingAcls(user, topic, prefix));
            acls.removeIf(acl -> acl.entry().operation() == AclOperation.WRITE
                    && acl.pattern().resourceType() == ResourceType.TOPIC);
            acls.add(allow(user, ResourceType.TOPIC, topic + "-other", AclOperation.WRITE));
            String log = Files.readString(CLIENTS_LOG);
            Refusal refusal = refused(connector, topic, "exactly-once", prefix, "POOLING", broker.user(user, acls));
            String denial = SecureBroker.denial(user, "Topic:LITERAL:" + topic);
            assertTrue(denial.contains("Denied operation = WRITE") && denial.contains("request = Produce"), denial);
            if (refusal.lost()) {
                String fatal = Files.readString(CLIENTS_LOG).substring(log.length());
                fatal = fatal.substring(fatal.indexOf(FATAL_TASK_ERROR));
                assertTrue(
                        fatal.contains("TopicAuthorizationException: Not authorized to access topics: [" + topic + "]"),
                        "the fatal error's cause: " + fatal.lines().limit(40).toList());
                String job = rootMessages(refusal.error());
                assertTrue(job.contains("The TaskExecutor is shutting down") || job.contains(topic), job);
                refusal.print(connector + " pooling without WRITE on the topic", "the TaskManager shut down", denial);
            } else {
                TopicAuthorizationException denied = refusal.find(TopicAuthorizationException.class);
                assertEquals(Set.of(topic), denied.unauthorizedTopics());
                refusal.print(connector + " pooling without WRITE on the topic", denied, denial);
            }
        }
    }

    @Test
    void poolingWithoutTransactionalIdWriteFails() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-pool-no-txn-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "pool-no-txn-write");
            Refusal refusal = refused(
                    connector,
                    topic,
                    "exactly-once",
                    prefix,
                    "POOLING",
                    broker.user(user, poolingAcls(user, topic, topic + "-other-tx")));
            TransactionalIdAuthorizationException denied = refusal.find(TransactionalIdAuthorizationException.class);
            refusal.print(
                    connector + " pooling without WRITE on the transactional ids",
                    denied,
                    SecureBroker.denial(user, "TransactionalId:LITERAL:" + prefix));
        }
    }

    @Test
    void wrongPasswordIsRefused() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = createTopic(
                    "sf-sec-wrong-password-" + UUID.randomUUID().toString().substring(0, 8));
            String prefix = topic + "-tx";
            String user = userName(connector, "wrong-password");
            Properties props = broker.user(user, exactlyOnceAcls(user, topic, prefix));
            String wrong = broker.newPassword();
            props.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(user, wrong));
            Refusal refusal = refused(connector, topic, "exactly-once", prefix, null, props);
            SaslAuthenticationException denied = refusal.find(SaslAuthenticationException.class);
            refusal.print(connector + " wrong password", denied, "-");
        }
    }

    /**
     * A table that fails planning: Flink's {@code FactoryUtil} lists the table's options in its
     * {@code ValidationException}, and hides the values of {@code properties.sasl.jaas.config} and
     * {@code properties.ssl.truststore.password} ({@code ******}, Flink's sensitive keys); for both connectors.
     */
    @Test
    void aPlanningErrorListsTheOptionsWithTheSecretsHidden() throws Exception {
        for (String connector : List.of("streamfusion-kafka", "kafka")) {
            String topic = "sf-sec-planning-" + UUID.randomUUID().toString().substring(0, 8);
            Properties user = broker.user(userName(connector, "planning"), List.of());
            StreamTableEnvironment tEnv = tableEnvironment(new Configuration(), 1, ROWS);
            tEnv.executeSql(new Sink("bad", connector, topic, "exactly-twice", null, user).ddl());
            ValidationException error = assertThrows(
                    ValidationException.class, () -> tEnv.explainSql("INSERT INTO bad SELECT id, label FROM src"));
            ERRORS.add(error);
            String message = error.getMessage();
            assertTrue(message.contains("Table options are:"), message);
            assertTrue(message.contains("'properties.sasl.jaas.config'='******'"), message);
            assertTrue(message.contains("'properties.ssl.truststore.password'='******'"), message);
            assertTrue(rootMessages(error).contains("exactly-twice"), rootMessages(error));
            System.out.printf(
                    "RESULT flink %s planning error: %s%n",
                    connector,
                    chain(error).stream()
                            .map(t -> t.getClass().getSimpleName() + ": "
                                    + t.getMessage().replace('\n', ' '))
                            .collect(Collectors.joining(" <- ")));
        }
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    /**
     * The error a refused job failed with and when (after its submission; its planning and submission took
     * submit); lost: its TaskManager shut down on Flink's fatal-error path (see
     * {@link #poolingWithoutTopicWriteFailsNamingTheTopicOrLosesTheTaskManager}).
     */
    private record Refusal(Throwable error, Duration took, Duration submit, boolean lost) {
        /** The first {@code type} in the error's cause chain; fails if there is none. */
        <T extends Throwable> T find(Class<T> type) {
            for (Throwable t : chain(error)) {
                if (type.isInstance(t)) {
                    return type.cast(t);
                }
            }
            return fail("no " + type.getName() + " in the cause chain of " + error, error);
        }

        void print(String what, Object cause, String brokerDenial) {
            System.out.printf(
                    "RESULT flink %s: %s after %d ms (submitted in %d ms; the job's error: %s)%s; broker: " + "%s%n",
                    what,
                    cause,
                    took.toMillis(),
                    submit.toMillis(),
                    rootMessages(error),
                    lost ? "; the TaskManager shut down (" + FATAL_TASK_ERROR + ")" : "",
                    brokerDenial);
        }
    }

    /**
     * Runs a job (no restart) that writes the rows into {@code topic} through {@code connector} as {@code user};
     * asserts that it fails within {@link #FAIL_WITHIN} of its submission, that nothing is visible
     * {@code read_committed} and that nothing was written at all (the end offsets are 0).
     */
    private static Refusal refused(
            String connector, String topic, String guarantee, String prefix, String naming, Properties user)
            throws Exception {
        int fatalBefore = fatalTaskErrors();
        JobRun job = runJob(false, 1, List.of(new Sink("refused", connector, topic, guarantee, prefix, user, naming)));
        assertTrue(job.error() != null, "the job must fail");
        boolean lost = fatalTaskErrors() > fatalBefore;
        if (lost) {
            restartLostTaskManager();
        }
        assertTrue(
                job.run().compareTo(FAIL_WITHIN) < 0,
                "failed after " + job.run() + ", within " + FAIL_WITHIN + " (the producer's timeouts: "
                        + PRODUCER_TIMEOUT + ")");
        assertEquals(
                0, readCommitted(topic).values().stream().mapToInt(List::size).sum(), "records visible in " + topic);
        assertEquals(0, endOffsets(topic), "records written to " + topic);
        return new Refusal(job.error(), job.run(), job.submit(), lost);
    }

    /** The lines of the clients' log where a task's cleanup failed after its failure and Flink gave up its TaskManager. */
    private static int fatalTaskErrors() throws IOException {
        return Files.readString(CLIENTS_LOG).split(FATAL_TASK_ERROR, -1).length - 1;
    }

    /** The sum of the topic's end offsets (read_uncommitted: every record written, aborted ones included). */
    private static long endOffsets(String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                .mapToLong(ListOffsetsResultInfo::offset)
                .sum();
    }

    /** A user name per connector and case: {@code flink-ours-<what>} or {@code flink-stock-<what>}. */
    private static String userName(String connector, String what) {
        return "flink-" + (connector.equals("kafka") ? "stock" : "ours") + "-" + what;
    }

    /**
     * After Flink's fatal-error path shut the MiniCluster's one TaskManager down: waits until the ResourceManager
     * saw it go, starts a new one and waits until its slot is registered.
     */
    private static void restartLostTaskManager() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (miniCluster.requestClusterOverview().get().getNumTaskManagersConnected() > 0) {
            assertTrue(System.nanoTime() < deadline, "the lost TaskManager unregistered");
            Thread.sleep(50);
        }
        miniCluster.startTaskManager();
        while (miniCluster.requestClusterOverview().get().getNumSlotsAvailable() < SLOTS) {
            assertTrue(System.nanoTime() < deadline, "the new TaskManager registered its slot");
            Thread.sleep(50);
        }
    }

    /** Exactly once: {@code WRITE} on the topic and {@code WRITE} on the transactional ids of {@code prefix}. */
    private static List<AclBinding> exactlyOnceAcls(String user, String topic, String prefix) {
        List<AclBinding> acls = new ArrayList<>();
        acls.add(allow(user, ResourceType.TOPIC, topic, AclOperation.WRITE));
        acls.add(allow(user, ResourceType.TRANSACTIONAL_ID, prefix, PatternType.PREFIXED, AclOperation.WRITE));
        return acls;
    }

    /** Exactly once with {@code POOLING}: {@link #exactlyOnceAcls} and {@code READ} on the topic. */
    private static List<AclBinding> poolingAcls(String user, String topic, String prefix) {
        List<AclBinding> acls = new ArrayList<>(exactlyOnceAcls(user, topic, prefix));
        acls.add(allow(user, ResourceType.TOPIC, topic, AclOperation.READ));
        return acls;
    }

    private static String createTopic(String name) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, PARTITIONS, (short) 1)))
                .all()
                .get(30, TimeUnit.SECONDS);
        return name;
    }

    /**
     * The topic read by the super user from the beginning to its last stable offsets, {@code read_committed}:
     * per partition, the records in offset order as {@code key + " => " + value}.
     */
    private static Map<Integer, List<String>> readCommitted(String topic) {
        Properties props = new Properties();
        props.putAll(broker.adminProperties());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        Map<Integer, List<String>> records = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(topic, p));
                records.put(p, new ArrayList<>());
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    fail("could not read " + topic + " to " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(topic, r.partition()))) {
                        records.get(r.partition()).add(text(r.key()) + " => " + text(r.value()));
                    }
                }
            }
        }
        return records;
    }

    private static Map<Integer, List<String>> sorted(Map<Integer, List<String>> records) {
        Map<Integer, List<String>> sorted = new TreeMap<>();
        records.forEach((partition, list) ->
                sorted.put(partition, list.stream().sorted().toList()));
        return sorted;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static Map<Long, Integer> idCounts(Map<Integer, List<String>> records) {
        Map<Long, Integer> counts = new TreeMap<>();
        records.values().stream().flatMap(List::stream).forEach(record -> {
            Matcher m = ID.matcher(record);
            assertTrue(m.matches(), "a record of the job: " + record);
            assertEquals(m.group(1), m.group(2), record);
            assertEquals(m.group(1), m.group(3), record);
            counts.merge(Long.parseLong(m.group(1)), 1, Integer::sum);
        });
        return counts;
    }

    private static void assertEveryIdOnce(Map<Integer, List<String>> records, String what) {
        assertEquals(ROWS, records.values().stream().mapToInt(List::size).sum(), what + ": records read_committed");
        Map<Long, Integer> counts = idCounts(records);
        assertEquals(ROWS, counts.size(), what + ": distinct ids");
        assertEquals(
                1L, counts.keySet().stream().mapToLong(Long::longValue).min().orElseThrow(), what);
        assertEquals(
                ROWS, counts.keySet().stream().mapToLong(Long::longValue).max().orElseThrow(), what);
        assertTrue(
                records.values().stream().filter(l -> !l.isEmpty()).count() > 1,
                what + ": keyed records spread " + "over the partitions");
    }

    /**
     * An upsert sink's records (per partition, in offset order) as each key's counts {@code n} in that order; fails
     * on a record that is not {@code {"k":K} => {"k":K,"n":N}} or a key found in two partitions.
     */
    private static Map<Long, List<Long>> changes(Map<Integer, List<String>> records) {
        Map<Long, List<Long>> changes = new TreeMap<>();
        Map<Long, Integer> partitionOf = new HashMap<>();
        records.forEach((partition, list) -> list.forEach(record -> {
            Matcher m = UPSERT_RECORD.matcher(record);
            assertTrue(m.matches(), "a record of the upsert job: " + record);
            assertEquals(m.group(1), m.group(2), record);
            long k = Long.parseLong(m.group(1));
            assertEquals(partition, partitionOf.computeIfAbsent(k, x -> partition), "the partition of key " + k);
            changes.computeIfAbsent(k, x -> new ArrayList<>()).add(Long.parseLong(m.group(3)));
        }));
        return changes;
    }

    /** Exactly once: {@value #ROWS} records, each key's counts 1, 2, ... in offset order, over several partitions. */
    private static void assertEveryChangeOnceInOrder(Map<Integer, List<String>> records, String what) {
        assertEquals(ROWS, records.values().stream().mapToInt(List::size).sum(), what + ": records read_committed");
        Map<Long, List<Long>> changes = changes(records);
        assertEquals(LongStream.range(0, UPSERT_KEYS).boxed().toList(), List.copyOf(changes.keySet()), what + ": keys");
        List<Long> expected =
                LongStream.rangeClosed(1, ROWS / UPSERT_KEYS).boxed().toList();
        changes.forEach((k, counts) -> assertEquals(expected, counts, what + ": the changes of key " + k));
        assertTrue(
                records.values().stream().filter(l -> !l.isEmpty()).count() > 1,
                what + ": keyed records spread " + "over the partitions");
    }

    /** The error, its causes and their suppressed errors, each once. */
    private static List<Throwable> chain(Throwable error) {
        List<Throwable> all = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> todo = new ArrayList<>(List.of(error));
        while (!todo.isEmpty()) {
            Throwable t = todo.remove(0);
            if (t == null || !seen.add(t)) {
                continue;
            }
            all.add(t);
            todo.add(t.getCause());
            todo.addAll(List.of(t.getSuppressed()));
        }
        return all;
    }

    /**
     * The cause chain below Flink's two job-level wrappers ({@code ExecutionException}, {@code JobExecutionException}),
     * then the errors suppressed along it (closing the sink after the failure), for the RESULT lines.
     */
    private static String rootMessages(Throwable error) {
        List<String> causes = new ArrayList<>();
        List<String> suppressed = new ArrayList<>();
        int depth = 0;
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (depth++ >= 2) {
                causes.add(t.getClass().getSimpleName() + ": " + t.getMessage());
            }
            for (Throwable s : t.getSuppressed()) {
                suppressed.add(s.getClass().getSimpleName() + ": " + s.getMessage());
            }
        }
        return String.join(" <- ", causes) + (suppressed.isEmpty() ? "" : "; suppressed: " + suppressed);
    }
}
