package org.streamfusion.perf.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * End-to-end records per second of a Flink SQL job on a local MiniCluster writing Nexmark-bid-shaped rows
 * (auction, bidder, price BIGINT; channel, url, extra STRING; dateTime TIMESTAMP(3), from a bounded
 * {@code datagen} table) through {@code streamfusion-kafka} (keyed by {@code auction}, {@code json}, at least
 * once) to a real broker, for each {@code streamfusion.batch-rows} value, interleaved (round r runs every
 * configuration once, in a rotated order), and optionally the stock {@code kafka} connector as a reference.
 *
 * <p>A run's rate is rows divided by the job's net runtime ({@link JobExecutionResult#getNetRuntime}: from
 * submission to the end of the job, task deployment included, MiniCluster start and stop excluded); each run
 * writes to a fresh 3-partition topic, checks that the topic gained exactly {@code rows} records (end offsets),
 * and deletes it. The report gives per configuration the median, min and max over the runs, and the load
 * average ({@code /proc/loadavg}) before and after.
 *
 * <p>Usage: {@code java -cp ... org.streamfusion.perf.sql.BatchRowsBench [rows [batch-rows,... [runs
 * [with-stock [bootstrap]]]]]}, defaults {@code 300000 1024,4096,8192,16384 3 true 127.0.0.1:19092}. Exits 1 if a
 * run wrote another number of records. See {@code run.sh}.
 */
public final class BatchRowsBench {
    private static final String SOURCE_DDL = "CREATE TEMPORARY TABLE bids_gen (\n"
            + "  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3),"
            + " extra STRING\n"
            + ") WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'rows-per-second' = '1000000000',\n"
            + "  'fields.auction.min' = '1000', 'fields.auction.max' = '1100',\n"
            + "  'fields.bidder.min' = '1000', 'fields.bidder.max' = '100000',\n"
            + "  'fields.price.min' = '1', 'fields.price.max' = '100000000',\n"
            + "  'fields.channel.length' = '7', 'fields.url.length' = '60', 'fields.extra.length' = '68')";

    private static final String SINK_DDL = "CREATE TEMPORARY TABLE bids (\n"
            + "  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3),"
            + " extra STRING\n"
            + ") WITH ('connector' = '%s', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',\n"
            + "  'key.format' = 'json', 'key.fields' = 'auction', 'value.format' = 'json',\n"
            + "  'sink.delivery-guarantee' = 'at-least-once'%s)";

    private BatchRowsBench() {}

    /** One measured run: records per second and the job's net runtime. */
    record Run(String config, double recordsPerSecond, long netMillis) {}

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }

    /**
     * One job: {@code rows} rows into a fresh topic through {@code connector}, {@code batchRows} (ignored for
     * {@code kafka}).
     */
    static Run run(String config, String connector, int batchRows, int rows, String bootstrap, Admin admin, int seq)
            throws Exception {
        String topic = "sf-bench-batch-rows-" + ProcessHandle.current().pid() + "-" + seq;
        admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        try {
            Configuration conf = new Configuration();
            conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            tEnv.executeSql(String.format(SOURCE_DDL, rows));
            String own = connector.equals("kafka") ? "" : ",\n  'streamfusion.batch-rows' = '" + batchRows + "'";
            tEnv.executeSql(String.format(SINK_DDL, connector, topic, bootstrap, own));
            TableResult result = tEnv.executeSql("INSERT INTO bids SELECT * FROM bids_gen");
            result.await(10, TimeUnit.MINUTES);
            JobExecutionResult job =
                    result.getJobClient().orElseThrow().getJobExecutionResult().get(1, TimeUnit.MINUTES);
            long net = job.getNetRuntime(TimeUnit.MILLISECONDS);
            long written = written(admin, topic);
            if (written != rows) {
                throw new IllegalStateException(
                        config + ": " + written + " records in " + topic + ", expected " + rows);
            }
            return new Run(config, rows * 1000.0 / net, net);
        } finally {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static long written(Admin admin, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
        for (int p = 0; p < 3; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                .mapToLong(info -> info.offset())
                .sum();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * Runs the matrix described in the class comment and prints one line per run, then the table.
     *
     * @param args {@code [rows [batch-rows,... [runs [with-stock [bootstrap]]]]]}
     * @throws Exception if a job fails or a run wrote another number of records
     */
    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        int[] batches = Arrays.stream((args.length > 1 ? args[1] : "1024,4096,8192,16384").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        boolean withStock = args.length <= 3 || Boolean.parseBoolean(args[3]);
        String bootstrap = args.length > 4 ? args[4] : "127.0.0.1:19092";

        List<String> configs = new ArrayList<>();
        for (int b : batches) {
            configs.add("streamfusion-kafka batch-rows " + b);
        }
        if (withStock) {
            configs.add("kafka (stock)");
        }
        System.out.printf(
                "rows %d, runs %d, JDK %s, %d CPUs, load before: %s%n",
                rows, runs, Runtime.version(), Runtime.getRuntime().availableProcessors(), loadAverage());
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        Map<String, List<Run>> results = new LinkedHashMap<>();
        configs.forEach(c -> results.put(c, new ArrayList<>()));
        int seq = 0;
        try (Admin admin = Admin.create(adminProps)) {
            // Warm-up (discarded): one small job, so class loading and JIT of the first config are not measured.
            run("warm-up", "streamfusion-kafka", 4096, Math.min(rows, 50_000), bootstrap, admin, seq++);
            for (int r = 0; r < runs; r++) {
                for (int i = 0; i < configs.size(); i++) {
                    int c = (i + r) % configs.size();
                    String config = configs.get(c);
                    boolean stock = withStock && c == configs.size() - 1;
                    Run run = run(
                            config,
                            stock ? "kafka" : "streamfusion-kafka",
                            stock ? 0 : batches[c],
                            rows,
                            bootstrap,
                            admin,
                            seq++);
                    results.get(config).add(run);
                    System.out.printf(
                            "round %d  %-36s %,10.0f records/s  (net %d ms, load %s)%n",
                            r + 1, config, run.recordsPerSecond(), run.netMillis(), loadAverage());
                }
            }
        }
        System.out.printf("load after: %s%n%n", loadAverage());
        System.out.println("| configuration | median records/s | min | max | spread (max-min)/median |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (Map.Entry<String, List<Run>> e : results.entrySet()) {
            double[] rates =
                    e.getValue().stream().mapToDouble(Run::recordsPerSecond).toArray();
            double med = median(rates);
            double min = Arrays.stream(rates).min().orElse(0);
            double max = Arrays.stream(rates).max().orElse(0);
            System.out.printf(
                    "| %s | %,.0f | %,.0f | %,.0f | %.0f%% |%n", e.getKey(), med, min, max, 100 * (max - min) / med);
        }
        System.exit(0);
    }
}
