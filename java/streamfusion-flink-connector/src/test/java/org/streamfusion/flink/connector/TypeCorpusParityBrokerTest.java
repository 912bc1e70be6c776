package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Parity over the type corpus and the layout options, in one job: every column type the connector supports
 * (TINYINT..BIGINT with their extremes, FLOAT and DOUBLE with digits that differ between JDKs, NaN and
 * infinities, DECIMAL of three shapes, BOOLEAN, CHAR/VARCHAR/STRING with every JSON escape class and non-ASCII
 * text, BINARY/VARBINARY/BYTES, DATE, TIME(0)/(3), TIMESTAMP(0/3/6/9), TIMESTAMP_LTZ(0/3/6/9); a null in every
 * nullable column at its own rows) written by the same {@code INSERT INTO} through the stock {@code kafka} /
 * {@code upsert-kafka} + {@code json} and through ours, once per layout variant ({@link #VARIANTS}), all
 * variants as sinks of one statement set (one MiniCluster job, checkpoints every 500 ms for the exactly-once
 * sinks). Each pair of topics (3 partitions) is compared record by record per partition: key bytes, value bytes,
 * partition and order (the job runs at parallelism 1, so the order per partition, and so per key, is
 * deterministic). The corpus has nested columns too ({@link #NESTED}: ARRAY, MAP and ROW inside each other, a MULTISET,
 * with null and empty arrays, null elements, map values, rows and fields, FLOAT, DOUBLE, DECIMAL and TIMESTAMP
 * inside them), which every option of a variant touches (timestamps, decimals, ignore-null-fields inside nested
 * rows); the connector's metrics must show every batch of ours written natively. The test runs on JDK 25 and
 * on JDK 17 ({@code make test} runs both), whose FLOAT/DOUBLE digits differ. Headers and timestamps, deletes
 * and {@code sink.buffer-flush} are compared in {@link SinkParityBrokerTest}; maps with a null key (under
 * {@code json.map-null-key.mode} LITERAL, natively) there too.
 */
class TypeCorpusParityBrokerTest {
    private static final int PARTITIONS = 3;
    private static final int ROWS = 1000;

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .build());

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

    /** The corpus's scalar columns, cast from the rows of {@link #corpusRow}. */
    static final String FLAT_COLUMNS = "k_id BIGINT, k_name STRING, id BIGINT, tiny TINYINT, small SMALLINT, num INT, "
            + "big BIGINT, flt FLOAT, dbl DOUBLE, dec2 DECIMAL(10, 2), dec38 DECIMAL(38, 18), "
            + "dec_small DECIMAL(20, 14), flag BOOLEAN, chr CHAR(5), str STRING, vchr VARCHAR(20), bin BINARY(3), "
            + "vbin VARBINARY(10), byts BYTES, dte DATE, tme0 TIME(0), tme3 TIME(3), ts0 TIMESTAMP(0), "
            + "ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz0 TIMESTAMP_LTZ(0), ltz3 TIMESTAMP_LTZ(3), "
            + "ltz6 TIMESTAMP_LTZ(6), ltz9 TIMESTAMP_LTZ(9)";

    /**
     * The corpus's nested columns: each a column type and the expression over the scalar columns that makes it.
     * Nulls at every level (a null array, map and row; a null element, map value, nested row and nested field)
     * fall on their own rows, an empty array on others; the map keys are never null.
     */
    static final List<String[]> NESTED = List.of(
            new String[] {
                "arr_int ARRAY<INT>",
                "CASE WHEN id % 9 = 0 THEN CAST(NULL AS ARRAY<INT>) WHEN id % 9 = 1 THEN ARRAY_REMOVE(ARRAY[1], 1) "
                        + "ELSE ARRAY[num, CAST(NULL AS INT), CAST(tiny AS INT)] END"
            },
            new String[] {
                "arr_row ARRAY<ROW<a INT, s STRING, d DECIMAL(10, 2)>>",
                "ARRAY[ROW(num, str, dec2), CAST(NULL AS ROW<a INT, s STRING, d DECIMAL(10, 2)>), "
                        + "ROW(CAST(NULL AS INT), chr, CAST(NULL AS DECIMAL(10, 2)))]"
            },
            new String[] {
                "map_arr MAP<STRING, ARRAY<BIGINT>>",
                "CASE WHEN id % 7 = 0 THEN CAST(NULL AS MAP<STRING, ARRAY<BIGINT>>) ELSE MAP['big', ARRAY[big, id], "
                        + "'none', CAST(NULL AS ARRAY<BIGINT>), k_name, ARRAY[id, CAST(NULL AS BIGINT)]] END"
            },
            new String[] {
                "map_row MAP<STRING, ROW<x DOUBLE, y FLOAT, t TIMESTAMP(3), l TIMESTAMP_LTZ(6)>>",
                "MAP['a', ROW(dbl, flt, ts3, ltz6), 'b', CAST(NULL AS ROW<x DOUBLE, y FLOAT, t TIMESTAMP(3), "
                        + "l TIMESTAMP_LTZ(6)>)]"
            },
            new String[] {
                "row_row ROW<sub ROW<n INT, s STRING, b BYTES>, f FLOAT, dd DECIMAL(38, 18)>",
                "CASE WHEN id % 11 = 0 THEN CAST(NULL AS ROW<sub ROW<n INT, s STRING, b BYTES>, f FLOAT, "
                        + "dd DECIMAL(38, 18)>) WHEN id % 11 = 1 THEN ROW(CAST(NULL AS ROW<n INT, s STRING, b BYTES>), "
                        + "flt, dec38) ELSE ROW(ROW(num, vchr, byts), flt, dec38) END"
            },
            new String[] {
                // Flink SQL has no multiset constructor for one row: the function below makes one (a tag twice
                // on some rows, so counts above one).
                "tags MULTISET<STRING>",
                "CASE WHEN id % 13 = 0 THEN CAST(NULL AS MULTISET<STRING>) WHEN id % 13 = 1 THEN TO_MULTISET() "
                        + "ELSE TO_MULTISET(k_name, COALESCE(vchr, 'none'), CASE WHEN id % 2 = 0 THEN k_name "
                        + "ELSE 'odd' END) END"
            });

    /**
     * {@code TO_MULTISET(s, ...)}: the multiset of its arguments, each counted as often as it is given; the
     * {@code MULTISET<STRING>} column of {@link #NESTED}.
     */
    public static class ToMultiset extends ScalarFunction {
        /**
         * @param elements the elements, none null
         * @return each element with its count, in the order first given
         */
        public @DataTypeHint("MULTISET<STRING>") Map<String, Integer> eval(String... elements) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String element : elements) {
                counts.merge(element, 1, Integer::sum);
            }
            return counts;
        }
    }

    /** The corpus columns (the view {@code corpus} and every sink table have them). */
    static final String COLUMNS = FLAT_COLUMNS + ", "
            + String.join(", ", NESTED.stream().map(c -> c[0]).toList());

    /** The names of a column list's columns (its top-level commas separate them; nested types have commas). */
    static List<String> columnNames(String columns) {
        List<String> names = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= columns.length(); i++) {
            char c = i < columns.length() ? columns.charAt(i) : ',';
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String column = columns.substring(start, i).trim();
                if (!column.startsWith("PRIMARY KEY")) {
                    names.add(column.split(" ", 2)[0]);
                }
                start = i + 1;
            }
        }
        return names;
    }

    /**
     * One layout variant: a pair of sinks (stock and ours) over the same rows.
     *
     * @param name short name (topics, table names, messages)
     * @param stock the stock connector
     * @param ours our connector
     * @param columns the sink tables' columns
     * @param options the {@code WITH} options after connector, topic and bootstrap servers
     * @param exactlyOnce whether the pair writes exactly once (each sink gets its own transactional-id prefix)
     */
    record Variant(String name, String stock, String ours, String columns, String options, boolean exactlyOnce) {
        /** The {@code SELECT} of this variant's columns from the view {@code corpus}. */
        String select() {
            return "SELECT " + String.join(", ", columnNames(columns)) + " FROM corpus";
        }
    }

    static final List<Variant> VARIANTS = List.of(
            // Flink's defaults: SQL timestamps, decimals as Jackson prints them, nulls written; no key.
            new Variant(
                    "defaults-alo",
                    "kafka",
                    "streamfusion-kafka",
                    COLUMNS,
                    ", 'format' = 'json', 'sink.partitioner' = 'fixed', 'sink.delivery-guarantee' = 'at-least-once'",
                    false),
            // Every value option changed; map-null-key options accepted (no MAP column to act on).
            new Variant(
                    "iso-plain-ignorenull-eo",
                    "kafka",
                    "streamfusion-kafka",
                    COLUMNS,
                    ", 'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601', "
                            + "'json.encode.decimal-as-plain-number' = 'true', 'json.encode.ignore-null-fields' = 'true', "
                            + "'json.map-null-key.mode' = 'LITERAL', 'json.map-null-key.literal' = 'null-key', "
                            + "'sink.partitioner' = 'fixed', 'sink.delivery-guarantee' = 'exactly-once'",
                    true),
            // Key fields with a prefix, EXCEPT_KEY, Kafka's default partitioner over the key bytes.
            new Variant(
                    "prefix-exceptkey-alo",
                    "kafka",
                    "streamfusion-kafka",
                    COLUMNS,
                    ", 'key.format' = 'json', 'key.fields' = 'k_id;k_name', 'key.fields-prefix' = 'k_', "
                            + "'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY', "
                            + "'sink.delivery-guarantee' = 'at-least-once'",
                    false),
            // Key fields of many types (nulls in the key), value ALL, ISO-8601 in key and value.
            new Variant(
                    "typedkey-all-iso-eo",
                    "kafka",
                    "streamfusion-kafka",
                    COLUMNS,
                    ", 'key.format' = 'json', 'key.fields' = 'id;dec2;ts3;str;byts', "
                            + "'key.json.timestamp-format.standard' = 'ISO-8601', 'value.format' = 'json', "
                            + "'value.json.timestamp-format.standard' = 'ISO-8601', 'value.fields-include' = 'ALL', "
                            + "'sink.delivery-guarantee' = 'exactly-once'",
                    true),
            // Upsert, primary key with prefix, EXCEPT_KEY, plain decimals, ignore-null-fields.
            new Variant(
                    "upsert-prefix-plain-eo",
                    "upsert-kafka",
                    "streamfusion-upsert-kafka",
                    COLUMNS.replace("k_id BIGINT", "k_id BIGINT NOT NULL") + ", PRIMARY KEY (k_id) NOT ENFORCED",
                    ", 'key.format' = 'json', 'key.fields-prefix' = 'k_', 'value.format' = 'json', "
                            + "'value.fields-include' = 'EXCEPT_KEY', 'key.json.encode.decimal-as-plain-number' = 'true', "
                            + "'value.json.encode.decimal-as-plain-number' = 'true', "
                            + "'key.json.encode.ignore-null-fields' = 'true', 'value.json.encode.ignore-null-fields' = 'true', "
                            + "'sink.delivery-guarantee' = 'exactly-once'",
                    true),
            // Upsert at least once with the defaults and value ALL, the corpus with FLOAT/DOUBLE.
            new Variant(
                    "upsert-all-alo",
                    "upsert-kafka",
                    "streamfusion-upsert-kafka",
                    COLUMNS.replace("k_id BIGINT", "k_id BIGINT NOT NULL") + ", PRIMARY KEY (k_id) NOT ENFORCED",
                    ", 'key.format' = 'json', 'value.format' = 'json', 'sink.delivery-guarantee' = 'at-least-once'",
                    false));

    private static final String[] STRINGS = {
        "plain",
        "quote \" backslash \\ slash /",
        "tab\tnewline\ncr\r",
        "ctrl \u0001\u0008\u000c\u001f del \u007f",
        "caf\u00e9 \u4e2d\u6587 \ud83d\ude00",
        "sep \u2028\u2029 <b>&</b>",
        "",
        "   "
    };

    /** Row {@code i} (1-based) of the corpus; the nullable columns' nulls fall on different rows. */
    static Row corpusRow(int i) {
        Object[] f = new Object[30];
        f[0] = (long) (i % 17);
        f[1] = "k" + (i % 5);
        f[2] = (long) i;
        f[3] = (byte) (i % 256 - 128);
        f[4] = (short) (i * 37 % 65536 - 32768);
        f[5] = (int) (i * 2654435761L);
        f[6] = i == 1 ? Long.MIN_VALUE : i == 2 ? Long.MAX_VALUE : i * 1_000_000_007L * (i % 2 == 0 ? -1 : 1);
        f[7] = switch (i % 10) {
            case 3 -> Float.NaN;
            case 6 -> i % 20 == 6 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            case 9 -> 1.0f / i;
            default -> (float) (i * 1.1e9);
        };
        f[8] = switch (i % 10) {
            case 4 -> Double.NaN;
            case 7 -> i % 20 == 7 ? Double.POSITIVE_INFINITY : -0.0;
            case 8 -> i / 7.0 * 1e-3;
            case 1 -> Double.MIN_VALUE * i;
            default -> i * 1.0e20;
        };
        f[9] = new BigDecimal(i * 25L * (i % 3 == 0 ? -1 : 1)).movePointLeft(2);
        f[10] = new BigDecimal(i).pow(7).movePointLeft(i % 19);
        f[11] = new BigDecimal(i).movePointLeft(12);
        f[12] = i % 2 == 0;
        f[13] = "c" + (i % 100);
        f[14] = STRINGS[i % STRINGS.length] + " #" + i;
        f[15] = STRINGS[(i / 3) % STRINGS.length];
        f[16] = new byte[] {(byte) i, 0, (byte) 0xff};
        f[17] = new byte[] {(byte) (i >> 8), (byte) i, (byte) 0x80};
        f[18] = ("b" + i + "\u0000\u00ff").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        f[19] = LocalDate.of(1969, 12, 31).plusDays(i * 37L - 20_000);
        LocalTime time = LocalTime.ofNanoOfDay((i * 43_210_987_654_321L) % 86_400_000_000_000L);
        f[20] = time;
        f[21] = time;
        LocalDateTime ts = LocalDateTime.of(2026, 1, 1, 0, 0)
                .plusSeconds(i * 7919L - 5_000_000)
                .plusNanos(fraction(i * 123_456_789L));
        for (int p = 22; p <= 25; p++) {
            f[p] = ts;
        }
        Instant ltz = Instant.ofEpochSecond(1_764_590_400L + i * 104_729L - 100_000_000L, fraction(i * 987_654_321L));
        for (int p = 26; p <= 29; p++) {
            f[p] = ltz;
        }
        // Nulls: column j (past the keys k_id, k_name, id) is null on rows where (i + j) % 13 == 0.
        for (int j = 3; j < f.length; j++) {
            if ((i + j) % 13 == 0) {
                f[j] = null;
            }
        }
        return Row.of(f);
    }

    /**
     * A nanosecond fraction from {@code seed}, at least 1 ms: Flink's CAST to a lower timestamp precision
     * ({@code DateTimeUtils.truncate}) keeps a fraction of fewer digits than the precision as it is (it compares
     * the length of the fraction's text), so {@code 0.000000001} stays in a TIMESTAMP_LTZ(3); Flink's serializer
     * then writes nine digits, and the connector leaves such a batch to it (the digits do not fit the column's
     * unit; pinned by {@code RowDataJsonEncoderTest}). The corpus keeps clear of that quirk, so that every batch
     * here is native.
     */
    private static long fraction(long seed) {
        long nanos = seed % 1_000_000_000L;
        return nanos < 1_000_000 ? nanos + 1_000_000 : nanos;
    }

    private static final TypeInformation<Row> CORPUS_TYPE = Types.ROW(
            Types.LONG,
            Types.STRING,
            Types.LONG,
            Types.BYTE,
            Types.SHORT,
            Types.INT,
            Types.LONG,
            Types.FLOAT,
            Types.DOUBLE,
            Types.BIG_DEC,
            Types.BIG_DEC,
            Types.BIG_DEC,
            Types.BOOLEAN,
            Types.STRING,
            Types.STRING,
            Types.STRING,
            Types.PRIMITIVE_ARRAY(Types.BYTE),
            Types.PRIMITIVE_ARRAY(Types.BYTE),
            Types.PRIMITIVE_ARRAY(Types.BYTE),
            Types.LOCAL_DATE,
            Types.LOCAL_TIME,
            Types.LOCAL_TIME,
            Types.LOCAL_DATE_TIME,
            Types.LOCAL_DATE_TIME,
            Types.LOCAL_DATE_TIME,
            Types.LOCAL_DATE_TIME,
            Types.INSTANT,
            Types.INSTANT,
            Types.INSTANT,
            Types.INSTANT);

    /** The view {@code corpus}: {@link #ROWS} rows cast to the corpus column types. */
    private static void createCorpus(StreamExecutionEnvironment env, StreamTableEnvironment tEnv) {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= ROWS; i++) {
            rows.add(corpusRow(i));
        }
        tEnv.createTemporaryView("corpus_raw", tEnv.fromDataStream(env.fromData(rows, CORPUS_TYPE)));
        tEnv.createTemporarySystemFunction("TO_MULTISET", ToMultiset.class);
        StringBuilder select = new StringBuilder("CREATE TEMPORARY VIEW corpus_flat AS SELECT ");
        String[] columns = FLAT_COLUMNS.split(",\\s*(?=[a-z])");
        for (int j = 0; j < columns.length; j++) {
            String[] nameAndType = columns[j].split(" ", 2);
            select.append(j == 0 ? "" : ", ")
                    .append("CAST(f")
                    .append(j)
                    .append(" AS ")
                    .append(nameAndType[1])
                    .append(") AS ")
                    .append(nameAndType[0]);
        }
        tEnv.executeSql(select.append(" FROM corpus_raw").toString());
        StringBuilder nested = new StringBuilder("CREATE TEMPORARY VIEW corpus AS SELECT *");
        for (String[] column : NESTED) {
            nested.append(", ")
                    .append(column[1])
                    .append(" AS ")
                    .append(column[0].split(" ", 2)[0]);
        }
        tEnv.executeSql(nested.append(" FROM corpus_flat").toString());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyTypeUnderEveryLayoutOptionAndGuarantee() throws Exception {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        createCorpus(env, tEnv);

        StatementSet set = tEnv.createStatementSet();
        List<String[]> topics = new ArrayList<>();
        for (Variant v : VARIANTS) {
            String stockTopic = TestBroker.createTopic(admin, "corpus-" + v.name() + "-stock", PARTITIONS);
            String oursTopic = TestBroker.createTopic(admin, "corpus-" + v.name() + "-ours", PARTITIONS);
            topics.add(new String[] {stockTopic, oursTopic});
            String table = v.name().replace('-', '_');
            createTable(tEnv, table + "_stock", v, v.stock(), stockTopic, "");
            // Small batches, several per checkpoint; every one native, even the short one a checkpoint cuts.
            createTable(
                    tEnv,
                    table + "_ours",
                    v,
                    v.ours(),
                    oursTopic,
                    ", 'streamfusion.batch-rows' = '128', 'streamfusion.native.min-batch-rows' = '0'");
            set.addInsertSql("INSERT INTO " + table + "_stock " + v.select());
            set.addInsertSql("INSERT INTO " + table + "_ours " + v.select());
        }
        long start = System.nanoTime();
        TableResult result = set.execute();
        result.await(100, TimeUnit.SECONDS);
        long jobMillis = (System.nanoTime() - start) / 1_000_000;
        JobID job = result.getJobClient().orElseThrow().getJobID();
        long batches = JobMetrics.counter(METRICS, job, "numBatches");
        assertTrue(batches >= (long) VARIANTS.size() * ROWS / 128, "batches: " + batches);
        assertEquals(batches, JobMetrics.counter(METRICS, job, "numNativeBatches"), "every batch of ours native");
        assertEquals(0, JobMetrics.counter(METRICS, job, "numFlinkRows"), "no row written by Flink's serializer");

        int compared = 0;
        for (int k = 0; k < VARIANTS.size(); k++) {
            Variant v = VARIANTS.get(k);
            Map<Integer, List<String>> stock = TestBroker.read(topics.get(k)[0], PARTITIONS);
            Map<Integer, List<String>> ours = TestBroker.read(topics.get(k)[1], PARTITIONS);
            int total = stock.values().stream().mapToInt(List::size).sum();
            assertEquals(ROWS, total, v.name() + ": records the stock connector wrote");
            for (int p = 0; p < PARTITIONS; p++) {
                List<String> s = stock.get(p);
                List<String> o = ours.get(p);
                assertEquals(s.size(), o.size(), v.name() + ": records in partition " + p);
                for (int i = 0; i < s.size(); i++) {
                    assertEquals(s.get(i), o.get(i), v.name() + ": partition " + p + ", record " + i);
                }
            }
            compared += total;
            if (k == 0) {
                System.out.println("TypeCorpusParityBrokerTest: " + v.name() + " records 3 and 4: "
                        + stock.get(0).get(2) + "\n" + stock.get(0).get(3));
            }
            if (!v.options().contains("'fixed'")) {
                assertTrue(
                        stock.values().stream().filter(list -> !list.isEmpty()).count() > 1,
                        v.name() + ": keyed records spread over the partitions");
            }
        }
        System.out.printf(
                "TypeCorpusParityBrokerTest: %d variants x %d rows, %d records compared per connector, %d batches "
                        + "of ours, all native (JDK %d; job %d ms, reading and comparing %d ms)%n",
                VARIANTS.size(),
                ROWS,
                compared,
                batches,
                Runtime.version().feature(),
                jobMillis,
                (System.nanoTime() - start) / 1_000_000 - jobMillis);
    }

    private static void createTable(
            StreamTableEnvironment tEnv, String name, Variant v, String connector, String topic, String extra) {
        String txn = v.exactlyOnce() ? ", 'sink.transactional-id-prefix' = '" + topic + "'" : "";
        tEnv.executeSql("CREATE TEMPORARY TABLE " + name + " (" + v.columns() + ") WITH ('connector' = '" + connector
                + "', 'topic' = '" + topic + "', 'properties.bootstrap.servers' = '" + TestBroker.bootstrapServers()
                + "'" + v.options() + txn + extra + ")");
    }
}
