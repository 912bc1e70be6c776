package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The job graph Flink makes of a table written through {@code streamfusion-kafka}: the encoder runs in the task
 * of the {@code KafkaSink} writer (one task, so an encoded record never crosses Flink's network stack), the
 * operators carry the table's name as the stock sink's do, and the edge into the sink's task is the one the stock
 * sink gets (forward, rebalance, or hash on the key for upsert, which keeps a key's rows in order).
 */
class JobGraphTest {
    private static final String KAFKA = "'properties.bootstrap.servers' = '127.0.0.1:9'";
    /** A FLIP-27 source (Flink's {@code KafkaSource}; planning does not contact the broker). */
    private static final String KAFKA_SOURCE =
            "'connector' = 'kafka', 'topic' = 'in', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json', "
                    + KAFKA;
    /** A legacy {@code SourceFunction}. */
    private static final String DATAGEN_SOURCE = "'connector' = 'datagen', 'number-of-rows' = '10'";

    private static final String EXACTLY_ONCE = ", 'topic' = 'out', 'format' = 'json', " + KAFKA
            + ", 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'jobgraph'";
    private static final String UPSERT = ", 'topic' = 'out', 'key.format' = 'json', 'value.format' = 'json', " + KAFKA;

    /**
     * @param sinkColumns the sink table's columns, constraints included
     * @return the job vertices of {@code insert} planned at parallelism 2 with checkpoints: each as its name (the
     *     chained operators joined by {@code " -> "}, without the planner's node ids: {@code snk[6]} is
     *     {@code snk}), its parallelism and the ship strategy of each input edge, sorted
     */
    private static List<String> vertices(String sourceOptions, String sinkColumns, String sinkOptions, String insert) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql("CREATE TABLE src (id BIGINT, name STRING) WITH (" + sourceOptions + ")");
        tEnv.executeSql("CREATE TABLE snk (" + sinkColumns + ") WITH (" + sinkOptions + ")");
        StreamStatementSet set = tEnv.createStatementSet();
        set.addInsertSql(insert);
        set.attachAsDataStream();
        return StreamSupport.stream(
                        env.getStreamGraph().getJobGraph().getVertices().spliterator(), false)
                .map(JobGraphTest::describe)
                .sorted()
                .toList();
    }

    private static List<String> inserted(String sourceOptions, String sinkOptions) {
        return vertices(sourceOptions, "id BIGINT, name STRING", sinkOptions, "INSERT INTO snk SELECT * FROM src");
    }

    private static String describe(JobVertex vertex) {
        String inputs = vertex.getInputs().stream()
                .map(edge -> " <- " + edge.getShipStrategyName())
                .collect(Collectors.joining());
        return vertex.getName().replaceAll("\\[\\d+]", "") + " (" + vertex.getParallelism() + ")" + inputs;
    }

    @Test
    void theEncoderRunsInTheWritersTask() {
        assertEquals(
                List.of("Source: src -> snk: Writer -> snk: Committer (2)"),
                inserted(KAFKA_SOURCE, "'connector' = 'kafka'" + EXACTLY_ONCE));
        assertEquals(
                List.of("Source: src -> snk: StreamFusion JSON encoder -> snk: Writer -> snk: Committer (2)"),
                inserted(KAFKA_SOURCE, "'connector' = 'streamfusion-kafka'" + EXACTLY_ONCE));
    }

    @Test
    void aSinkParallelismOfItsOwnKeepsTheEncoderWithTheWriter() {
        String parallelism = ", 'sink.parallelism' = '3'";
        assertEquals(
                List.of("Source: src (2)", "snk: Writer -> snk: Committer (3) <- REBALANCE"),
                inserted(KAFKA_SOURCE, "'connector' = 'kafka'" + EXACTLY_ONCE + parallelism));
        assertEquals(
                List.of(
                        "Source: src (2)",
                        "snk: StreamFusion JSON encoder -> snk: Writer -> snk: Committer (3) <- REBALANCE"),
                inserted(KAFKA_SOURCE, "'connector' = 'streamfusion-kafka'" + EXACTLY_ONCE + parallelism));
    }

    @Test
    void upsertRowsReachTheEncoderHashedOnTheKeyAsTheStockWriter() {
        String columns = "id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED";
        String insert = "INSERT INTO snk SELECT id, LAST_VALUE(name) FROM src GROUP BY id";
        String parallelism = ", 'sink.parallelism' = '3'";
        assertEquals(
                List.of(
                        "GroupAggregate -> ConstraintEnforcer (2) <- HASH",
                        "Source: src (2)",
                        "snk: Writer -> snk: Committer (3) <- HASH"),
                vertices(KAFKA_SOURCE, columns, "'connector' = 'upsert-kafka'" + UPSERT + parallelism, insert));
        assertEquals(
                List.of(
                        "GroupAggregate -> ConstraintEnforcer (2) <- HASH",
                        "Source: src (2)",
                        "snk: StreamFusion JSON encoder -> snk: Writer -> snk: Committer (3) <- HASH"),
                vertices(
                        KAFKA_SOURCE,
                        columns,
                        "'connector' = 'streamfusion-upsert-kafka'" + UPSERT + parallelism,
                        insert));
    }

    /**
     * Flink chains a {@code KafkaSink} writer to nothing before it in a legacy source's task (it yields to its
     * mailbox, which such a source's thread does not serve: {@code StreamingJobGraphGenerator.areOperatorsChainable}),
     * for the stock sink as for ours; the encoder then runs in the source's task, and the hop stays one.
     */
    @Test
    void behindALegacySourceTheWriterStartsATaskAsTheStockOneDoes() {
        assertEquals(
                List.of("Source: src (2)", "snk: Writer -> snk: Committer (2) <- FORWARD"),
                inserted(DATAGEN_SOURCE, "'connector' = 'kafka'" + EXACTLY_ONCE));
        assertEquals(
                List.of(
                        "Source: src -> snk: StreamFusion JSON encoder (2)",
                        "snk: Writer -> snk: Committer (2) <- FORWARD"),
                inserted(DATAGEN_SOURCE, "'connector' = 'streamfusion-kafka'" + EXACTLY_ONCE));
    }
}
