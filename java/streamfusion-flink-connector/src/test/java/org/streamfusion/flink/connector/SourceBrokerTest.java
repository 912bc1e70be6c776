package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The read side of both connectors against the local broker ({@code kafka.bootstrap.servers}): a table declared
 * with {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} reads the same rows as the same table
 * declared with {@code kafka} / {@code upsert-kafka}, over the same topic, with the options a stock table takes
 * (key and value formats, {@code key.fields-prefix}, {@code value.fields-include}, json options, metadata
 * columns, a watermark, {@code topic-pattern}, bounded scans). The records are written by a plain producer:
 * objects with every kind of column, nested ones, lenient values, malformed messages read under
 * {@code ignore-parse-errors}, headers, and for upsert tombstones.
 */
class SourceBrokerTest {
    /** Keeps every job's metrics after it ends, for the source's counters. */
    private static final RetainedMetrics METRICS = new RetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = METRICS.cluster();

    private static Admin admin;

    @BeforeAll
    static void broker() throws InterruptedException {
        admin = TestBroker.admin();
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close();
        }
    }

    private static StreamTableEnvironment tableEnvironment() {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        return StreamTableEnvironment.create(env);
    }

    /** Writes key/value records (null: a null key or a tombstone), each with a header {@code h}. */
    private static void produce(String topic, List<String[]> records) throws Exception {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        int i = 0;
        for (String[] record : records) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("h", ("header-" + i++).getBytes(StandardCharsets.UTF_8));
            out.add(new ProducerRecord<>(
                    topic,
                    null,
                    1_764_590_400_000L + i,
                    record[0] == null ? null : record[0].getBytes(StandardCharsets.UTF_8),
                    record[1] == null ? null : record[1].getBytes(StandardCharsets.UTF_8),
                    headers));
        }
        TestBroker.writeInput(out);
    }

    /** Every row of a bounded query, as {@code Row.toString()} (row kind included), in arrival order. */
    private static List<String> collect(StreamTableEnvironment tEnv, String query) throws Exception {
        return run(tEnv, query).rows;
    }

    /** A bounded query's rows and its job. */
    private static final class Result {
        final List<String> rows = new ArrayList<>();
        JobID job;
    }

    private static Result run(StreamTableEnvironment tEnv, String query) throws Exception {
        Result result = new Result();
        TableResult table = tEnv.executeSql(query);
        result.job = table.getJobClient().orElseThrow().getJobID();
        try (CloseableIterator<Row> it = table.collect()) {
            it.forEachRemaining(row -> result.rows.add(row.toString()));
        }
        return result;
    }

    /** The sum over the job's subtasks of the source counter {@code streamfusion.<name>}. */
    private static long sourceCounter(JobID job, String name) {
        Map<String, Metric> found = METRICS.reporter().findMetrics(job, "streamfusion." + name);
        assertFalse(found.isEmpty(), "no metric streamfusion." + name + " in job " + job);
        return found.values().stream().mapToLong(m -> ((Counter) m).getCount()).sum();
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        copy.sort(null);
        return copy;
    }

    private static final String APPEND_COLUMNS = "k_id BIGINT, id BIGINT, name STRING, price DECIMAL(10, 2), "
            + "score DOUBLE, flag BOOLEAN, ts TIMESTAMP(3), tags ARRAY<STRING>, attrs MAP<STRING, INT>, "
            + "pos ROW<x INT, y INT>, "
            + "`partition` INT METADATA VIRTUAL, `offset` BIGINT METADATA VIRTUAL, "
            + "record_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL, "
            + "headers MAP<STRING, BYTES> METADATA VIRTUAL, "
            + "WATERMARK FOR ts AS ts - INTERVAL '4' SECOND";

    private static String appendOptions(String connector, String topicOption) {
        return "'connector' = '" + connector + "', " + topicOption + ", "
                + "'properties.bootstrap.servers' = '" + TestBroker.bootstrapServers() + "', "
                + "'properties.group.id' = 'source-test', "
                + "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', "
                + "'key.format' = 'json', 'key.fields' = 'k_id', 'key.fields-prefix' = 'k_', "
                + "'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY', "
                + "'value.json.ignore-parse-errors' = 'true', 'key.json.ignore-parse-errors' = 'true'";
    }

    @Test
    void appendTablesReadTheStockRows() throws Exception {
        String topic = TestBroker.createTopic(admin, "source-append", 3);
        List<String[]> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String value = switch (i % 10) {
                case 0 ->
                    "{\"id\":" + i + ",\"name\":\"n" + i + "\",\"price\":\"" + i + ".255\",\"score\":1e" + (i % 7)
                            + ",\"flag\":\"TRUE\",\"ts\":\"2026-01-01 00:00:" + (10 + i % 50)
                            + ".5\",\"tags\":[\"a\",null],"
                            + "\"attrs\":{\"x\":1,\"x\":2},\"pos\":{\"y\":2,\"x\":1}}";
                case 1 -> "{\"id\":\"" + i + "\",\"unknown\":{\"deep\":[1,2,3]},\"name\":{\"nested\":true}}";
                case 2 -> "{\"id\":" + i + ",\"score\":\"NaN\",\"price\":99999999999}";
                case 3 -> "{\"id\":" + i + ",\"name\":\"broken"; // malformed: skipped under ignore-parse-errors
                case 4 -> "{\"id\":1.9,\"flag\":1,\"tags\":\"x\",\"pos\":[1]}";
                case 5 -> "";
                default -> "{\"id\":" + i + ",\"name\":\"caf\\u00e9 " + i + "\",\"ts\":\"2026-02-30 24:00:00\"}";
            };
            String key = i % 11 == 0 ? null : "{\"id\":" + (i % 13) + "}";
            records.add(new String[] {key, value});
        }
        produce(topic, records);

        StreamTableEnvironment tEnv = tableEnvironment();
        tEnv.executeSql("CREATE TEMPORARY TABLE stock (" + APPEND_COLUMNS + ") WITH ("
                + appendOptions("kafka", "'topic' = '" + topic + "'") + ")");
        tEnv.executeSql("CREATE TEMPORARY TABLE ours (" + APPEND_COLUMNS + ") WITH ("
                + appendOptions("streamfusion-kafka", "'topic' = '" + topic + "'")
                + ", 'streamfusion.batch-rows' = '64')");
        tEnv.executeSql("CREATE TEMPORARY TABLE ours_pattern (" + APPEND_COLUMNS + ") WITH ("
                + appendOptions("streamfusion-kafka", "'topic-pattern' = '" + topic + "'") + ")");
        // Partitions interleave differently from run to run: rows are compared as sorted lists (each carries its
        // partition and offset). Header values are compared as text.
        String select = "SELECT k_id, id, name, price, score, flag, ts, tags, attrs, pos, `partition`, `offset`, "
                + "record_ts, CAST(headers['h'] AS STRING) FROM ";
        List<String> stock = sorted(collect(tEnv, select + "stock"));
        assertTrue(stock.size() > 200, "the stock source read " + stock.size() + " rows");
        Result ours = run(tEnv, select + "ours");
        assertEquals(stock, sorted(ours.rows));
        assertEquals(stock, sorted(collect(tEnv, select + "ours_pattern")));
        // Values decoded natively, keys and metadata joined by Flink's record deserializer: the 30 malformed values
        // (inside a string under ignore-parse-errors) are left to Flink.
        assertEquals(
                "270 native, 30 by Flink",
                sourceCounter(ours.job, "numNativeMessages") + " native, " + sourceCounter(ours.job, "numFlinkMessages")
                        + " by Flink");
    }

    @Test
    void valueOnlyTablesAreDecodedNativelyIntoTheStockRows() throws Exception {
        String topic = TestBroker.createTopic(admin, "source-native", 3);
        List<String[]> records = new ArrayList<>();
        int leftToFlink = 0;
        for (int i = 0; i < 400; i++) {
            String value = switch (i % 8) {
                case 0 ->
                    "{\"id\":" + i + ",\"name\":\"n" + i + "\",\"price\":\"" + i + ".255\",\"score\":1e" + (i % 7)
                            + ",\"flag\":\"TRUE\",\"ts\":\"2026-01-01 00:00:" + (10 + i % 50)
                            + ".5\",\"tags\":[\"a\",null],\"attrs\":{\"x\":1,\"x\":2},\"pos\":{\"y\":2,\"x\":1}}";
                case 1 -> "{\"id\":\"" + i + "\",\"unknown\":{\"deep\":[1,2,3]},\"name\":{\"nested\":true}}";
                case 2 -> "{\"id\":" + i + ",\"score\":\"NaN\",\"price\":99999999999}";
                case 3 -> {
                    // Malformed inside a string under ignore-parse-errors: left to Flink, whose walk goes on from
                    // inside the broken value.
                    leftToFlink++;
                    yield "{\"id\":" + i + ",\"name\":\"broken";
                }
                case 4 -> "{\"id\":1.9,\"flag\":1,\"tags\":\"x\",\"pos\":[1]}";
                case 5 -> i % 16 == 5 ? "" : null; // an empty message and a tombstone: no row
                case 6 -> "[{\"id\":" + i + "},{\"id\":" + (i + 1) + "}]"; // an array root: a row per element
                default -> {
                    // A digit Java reads and the native decoder leaves to Flink (Arabic-Indic digits).
                    leftToFlink++;
                    yield "{\"id\":\"\u0661\u0662\",\"name\":\"caf\u00e9 " + i + "\",\"ts\":\"2026-02-30 24:00:00\"}";
                }
            };
            records.add(new String[] {null, value});
        }
        produce(topic, records);

        StreamTableEnvironment tEnv = tableEnvironment();
        String columns = "id BIGINT, name STRING, price DECIMAL(10, 2), score DOUBLE, flag BOOLEAN, ts TIMESTAMP(3), "
                + "tags ARRAY<STRING>, attrs MAP<STRING, INT>, pos ROW<x INT, y INT>, "
                + "WATERMARK FOR ts AS ts - INTERVAL '4' SECOND";
        String options = "'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + TestBroker.bootstrapServers() + "', 'scan.startup.mode' = 'earliest-offset', "
                + "'scan.bounded.mode' = 'latest-offset', 'format' = 'json', 'json.ignore-parse-errors' = 'true'";
        tEnv.executeSql("CREATE TEMPORARY TABLE stock (" + columns + ") WITH ('connector' = 'kafka', " + options + ")");
        tEnv.executeSql("CREATE TEMPORARY TABLE ours (" + columns + ") WITH ('connector' = 'streamfusion-kafka', "
                + options + ")");
        String select = "SELECT * FROM ";
        List<String> stock = sorted(collect(tEnv, select + "stock"));
        assertTrue(stock.size() > 300, "the stock source read " + stock.size() + " rows");
        Result ours = run(tEnv, select + "ours");
        assertEquals(stock, sorted(ours.rows));
        assertEquals(
                (records.size() - leftToFlink) + " native, " + leftToFlink + " by Flink",
                sourceCounter(ours.job, "numNativeMessages") + " native, " + sourceCounter(ours.job, "numFlinkMessages")
                        + " by Flink");
    }

    @Test
    void theDataStreamBuilderReadsTheTablesRows() throws Exception {
        String topic = TestBroker.createTopic(admin, "source-datastream", 2);
        List<String[]> records = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            records.add(new String[] {null, "{\"id\":" + i + ",\"name\":\"n" + i + "\"}"});
        }
        produce(topic, records);
        Map<String, String> options = Map.of(
                "topic", topic,
                "properties.bootstrap.servers", TestBroker.bootstrapServers(),
                "scan.startup.mode", "earliest-offset",
                "scan.bounded.mode", "latest-offset",
                "format", "json");
        StreamTableEnvironment tEnv = tableEnvironment();
        StringBuilder with = new StringBuilder("'connector' = 'streamfusion-kafka'");
        options.forEach(
                (k, v) -> with.append(", '").append(k).append("' = '").append(v).append("'"));
        tEnv.executeSql("CREATE TEMPORARY TABLE ours (id BIGINT, name STRING) WITH (" + with + ")");
        List<String> table = sorted(collect(tEnv, "SELECT * FROM ours"));
        assertEquals(100, table.size());

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        RowType rowType = RowType.of(
                new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"id", "name"});
        DataStream<RowData> rows = StreamFusionKafkaSource.builder()
                .setRowType(rowType)
                .setOptions(options)
                .setUidPrefix("bids")
                .build()
                .addTo(env);
        List<String> built = new ArrayList<>();
        try (CloseableIterator<RowData> it = rows.executeAndCollect()) {
            it.forEachRemaining(row -> built.add(Row.ofKind(
                            row.getRowKind(), row.getLong(0), row.getString(1).toString())
                    .toString()));
        }
        assertEquals(table, sorted(built));
        assertThrows(
                ValidationException.class,
                () -> StreamFusionKafkaSource.builder()
                        .setRowType(rowType)
                        .setOptions(options)
                        .setOption("scan.startup.mode", "sometime")
                        .build());
    }

    @Test
    void aMessageFlinkFailsOnFailsTheJobWithFlinksMessageNamingTheRecord() throws Exception {
        String topic = TestBroker.createTopic(admin, "source-failure", 1);
        produce(
                topic,
                List.of(
                        new String[] {null, "{\"id\":1}"},
                        new String[] {null, "{\"id\":2}"},
                        new String[] {null, "{\"id\":"},
                        new String[] {null, "{\"id\":4}"}));
        StreamTableEnvironment tEnv = tableEnvironment();
        String options = "'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + TestBroker.bootstrapServers() + "', 'scan.startup.mode' = 'earliest-offset', "
                + "'scan.bounded.mode' = 'latest-offset', 'format' = 'json'";
        tEnv.executeSql("CREATE TEMPORARY TABLE stock (id BIGINT) WITH ('connector' = 'kafka', " + options + ")");
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE ours (id BIGINT) WITH ('connector' = 'streamfusion-kafka', " + options + ")");
        for (String table : List.of("stock", "ours")) {
            String failure = causes(assertThrows(Exception.class, () -> collect(tEnv, "SELECT * FROM " + table)));
            assertTrue(failure.contains("Failed to deserialize JSON '{\"id\":'."), table + ": " + failure);
            if (table.equals("ours")) {
                String record = "Failed to deserialize the record at offset 2 of partition 0 of topic '" + topic + "'";
                assertTrue(failure.contains(record), failure);
            }
        }
    }

    /** The messages of an exception and its causes, one per line. */
    private static String causes(Throwable t) {
        StringBuilder text = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            text.append(c.getMessage()).append('\n');
        }
        return text.toString();
    }

    @Test
    void upsertTablesReadTheStockChangelog() throws Exception {
        String topic = TestBroker.createTopic(admin, "source-upsert", 1);
        List<String[]> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String key = "{\"id\":" + (i % 17) + "}";
            String value = i % 5 == 4 ? null : "{\"id\":" + (i % 17) + ",\"v\":" + i + ",\"s\":\"s" + i + "\"}";
            records.add(new String[] {key, value});
        }
        produce(topic, records);

        StreamTableEnvironment tEnv = tableEnvironment();
        String columns = "id BIGINT, v BIGINT, s STRING, PRIMARY KEY (id) NOT ENFORCED";
        String options = "'topic' = '" + topic + "', 'properties.bootstrap.servers' = '"
                + TestBroker.bootstrapServers() + "', 'scan.bounded.mode' = 'latest-offset', "
                + "'key.format' = 'json', 'value.format' = 'json'";
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE stock (" + columns + ") WITH ('connector' = 'upsert-kafka', " + options + ")");
        tEnv.executeSql("CREATE TEMPORARY TABLE ours (" + columns
                + ") WITH ('connector' = 'streamfusion-upsert-kafka', " + options + ")");
        List<String> stock = collect(tEnv, "SELECT * FROM stock");
        assertTrue(stock.stream().anyMatch(row -> row.startsWith("-D")), "tombstones are DELETEs: " + stock);
        Result ours = run(tEnv, "SELECT * FROM ours");
        assertEquals(stock, ours.rows);
        // Every value natively (a tombstone's null value too: no row, and Flink's record deserializer makes the
        // DELETE from the key).
        assertEquals(
                "200 native, 0 by Flink",
                sourceCounter(ours.job, "numNativeMessages") + " native, " + sourceCounter(ours.job, "numFlinkMessages")
                        + " by Flink");
    }
}
