package org.streamfusion.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.bijou64.NativeLibrary;
import org.bijou64.perf.common.ProducerSettings;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.KafkaRecords;

/**
 * End to end on a real broker: Nexmark-shaped Flink rows ({@link NexmarkRows}) produced as Kafka JSON records,
 * once with Flink's own {@link JsonRowDataSerializationSchema} per row ({@code flink-per-row}) and once with
 * StreamFusion's batch encoder {@link RowDataJsonEncoder} ({@code native-batch}), both through the same
 * idempotent producer settings; every record is read back and its key and value bytes compared with Flink's
 * serializer applied to the same row. {@code perf/streamfusion/README.md} describes the options and the output;
 * {@code perf/streamfusion/compare.sh} builds and runs it.
 *
 * <p>This class is the entry point and the run loop (topics, producers and passes per mode, in rounds). The
 * command line is {@link Options}, the two modes' senders are {@link Senders}, Flink's reference records and the
 * read-back are {@link Reference}, the topics {@link Topics}, the outcome {@link RunResult}, the table and the CSV
 * {@link ResultTable}.
 *
 * <h2>What is timed</h2>
 * Every mode has its own topic ({@code TOPIC-<shape>-<mode>-<compression>-<UTC>}, one partition, so the
 * topic's order is the send order) and its own producer, created and given the topic's metadata before any
 * clock starts. The rows are generated before any clock starts too. A pass sends all {@code rows} rows: it is
 * timed from the first encode to {@code producer.flush()} returning. Encoding alone is timed as well: per row
 * around the two {@code serialize} calls (key, value) in {@code flink-per-row}; per batch around
 * {@link RowDataJsonEncoder#encode} (Arrow vectors, the JNI crossing, the six result arrays) in
 * {@code native-batch}. Copying each record out of the batch slabs for its {@code ProducerRecord} belongs to
 * sending ({@link KafkaRecords#send}), not to encoding.
 *
 * <h2>Order</h2>
 * For each shape and compression both modes' producers are open at once; round 0 is one warm-up pass per mode
 * (discarded), then every measured round runs one pass per mode, starting with a different mode each round.
 *
 * <h2>What is verified</h2>
 * After the producers are closed, each topic's end offset is read ({@code read_committed}) and a
 * {@code read_committed} consumer reads from the beginning up to it. The topic must hold the rows once per
 * pass, warm-up included, in order. The reference is Flink's serializer (a separate instance from the one
 * {@code flink-per-row} sends with), not StreamFusion. A record equal to the reference at its position counts
 * for that row; one that is not is looked up among all rows' references (then it counts for that row and as
 * out of order) or counts as a mismatch. Afterwards a row seen fewer times than there were passes is missing
 * that many times, one seen more often is duplicated. Verified means: as many records as sent, none missing,
 * duplicated, out of order or mismatching.
 */
public final class ProducerComparison {

    private final Options config;
    private final Admin admin;
    private final PrintStream progress;
    private final String stamp;

    /**
     * @param config the settings
     * @param admin an admin client of the broker (topics, end offsets)
     * @param progress where progress lines go
     * @param stamp the UTC stamp in topic names
     */
    public ProducerComparison(Options config, Admin admin, PrintStream progress, String stamp) {
        this.config = config;
        this.admin = admin;
        this.progress = progress;
        this.stamp = stamp;
    }

    // ------------------------------------------------------------------------------------------------------
    // Command line

    /**
     * Runs the comparison: header and table on stdout, progress on stderr, the CSV in the results directory.
     * Exit status 0 when every run verified, 1 on an error, 2 on bad arguments, 3 when a run did not verify.
     */
    public static void main(String[] args) {
        Options config;
        try {
            config = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ProducerComparison: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (config == null) {
            System.out.println(Options.USAGE);
            return;
        }
        int status;
        try {
            status = runMain(config);
        } catch (Exception e) {
            System.err.println("ProducerComparison: " + describe(e));
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static int runMain(Options config) throws Exception {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        try (Admin admin = Topics.admin(config.bootstrap())) {
            String clusterId;
            try {
                clusterId = admin.describeCluster().clusterId().get(15, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                System.err.println("ProducerComparison: no Kafka broker answers at " + config.bootstrap()
                        + " (start the local one with kafka/broker start): " + describe(e));
                return 1;
            }
            printHeader(System.out, config, clusterId);
            List<RunResult> results = new ProducerComparison(config, admin, System.err, stamp).runAll();
            System.out.println();
            System.out.print(ResultTable.table(results));
            if (config.resultsDir() != null) {
                Path csv = config.resultsDir().resolve("results-" + stamp + ".csv");
                ResultTable.writeCsv(csv, results);
                System.out.println("csv: " + csv.toAbsolutePath().normalize());
            }
            return results.stream().allMatch(RunResult::verified) ? 0 : 3;
        }
    }

    private static void printHeader(PrintStream out, Options config, String clusterId) {
        Runtime rt = Runtime.getRuntime();
        out.println("StreamFusion producer comparison: Flink JsonRowDataSerializationSchema per row vs "
                + "RowDataJsonEncoder batches, same broker, same producer settings");
        out.printf(
                "jvm:      %s %s (%s), max heap %d MiB%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"),
                rt.maxMemory() >> 20);
        out.printf("machine:  %s, %d cores, %s%n", System.getProperty("os.arch"), rt.availableProcessors(), cpuModel());
        out.printf(
                "clients:  kafka-clients %s, Flink %s, native library %s%n",
                AppInfoParser.getVersion(),
                EnvironmentInformation.getVersion(),
                NativeLibrary.isLoaded()
                        ? "loaded"
                        : "NOT loaded ("
                                + NativeLibrary.loadError()
                                        .map(Throwable::getMessage)
                                        .orElse("?") + ")");
        out.printf("broker:   %s (cluster %s), 1 partition per topic%n", config.bootstrap(), clusterId);
        out.printf(
                "producer: %s, compression.type %s, ByteArraySerializer keys and values%n",
                ProducerSettings.line(), String.join(",", config.compressions()));
        out.printf(
                Locale.ROOT,
                "rows:     %,d per pass, shapes %s, seed %d, native batches of %,d rows (native.min-batch-rows %d), "
                        + "%d measured pass%s per mode after 1 warm-up%n",
                config.rows(),
                String.join(",", config.shapes()),
                config.seed(),
                config.batch(),
                RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS,
                config.iterations(),
                config.iterations() == 1 ? "" : "es");
        for (String shape : config.shapes()) {
            List<String> keys = config.keyFieldsOf(shape);
            out.printf("keys:     %s: %s%n", shape, keys.isEmpty() ? "null" : "key.fields=" + String.join(";", keys));
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "unknown CPU";
    }

    // ------------------------------------------------------------------------------------------------------
    // Runs

    /**
     * Runs every shape x compression, both modes each. Never throws for the failure of one run: that run's
     * result is then not verified and names the problem.
     *
     * @return one result per shape, compression and mode, in that order
     */
    public List<RunResult> runAll() {
        List<RunResult> results = new ArrayList<>();
        for (String shape : config.shapes()) {
            progress.printf(
                    Locale.ROOT,
                    "generating %,d %s rows (seed %d) and Flink's reference records...%n",
                    config.rows(),
                    shape,
                    config.seed());
            List<RowData> rows = NexmarkRows.rows(shape, config.seed(), 0, config.rows());
            Reference reference = new Reference(NexmarkRows.type(shape), config.keyFieldsOf(shape), rows);
            for (String compression : config.compressions()) {
                results.addAll(run(shape, compression, rows, reference));
            }
        }
        return results;
    }

    /** The state of one mode's run while the rounds go on. */
    private final class Lane {
        final Mode mode;
        final String shape;
        final String compression;
        final String topic;
        final String label;
        final double[] rates = new double[config.iterations()];
        final double[] encodeRates = new double[config.iterations()];
        KafkaProducer<byte[], byte[]> producer;
        Senders.Sender sender;
        boolean topicCreated;
        int passesDone;
        Senders.Pass lastPass;
        String problem;

        Lane(Mode mode, String shape, String compression) {
            this.mode = mode;
            this.shape = shape;
            this.compression = compression;
            this.topic = config.topic() + "-" + shape + "-" + mode.cliName() + "-" + compression + "-" + stamp;
            this.label = "[" + shape + " " + compression + " " + mode.cliName() + "]";
        }
    }

    private List<RunResult> run(String shape, String compression, List<RowData> rows, Reference reference) {
        List<Lane> lanes = new ArrayList<>();
        for (Mode mode : config.modes()) {
            lanes.add(new Lane(mode, shape, compression));
        }
        try {
            for (Lane lane : lanes) {
                try {
                    Topics.create(admin, lane.topic);
                    lane.topicCreated = true;
                    lane.producer = new KafkaProducer<>(
                            producerConfigs(lane), new ByteArraySerializer(), new ByteArraySerializer());
                    lane.producer.partitionsFor(lane.topic); // metadata before the clock starts
                    RowType type = NexmarkRows.type(shape);
                    List<String> keys = config.keyFieldsOf(shape);
                    lane.sender = Senders.of(lane.mode, type, keys, config.batch());
                } catch (Exception e) {
                    fail(lane, e);
                }
            }
            for (int round = 0; round <= config.iterations(); round++) {
                for (int k = 0; k < lanes.size(); k++) {
                    Lane lane = lanes.get((k + round) % lanes.size());
                    if (lane.problem != null) {
                        continue;
                    }
                    try {
                        System.gc();
                        Senders.Pass pass = lane.sender.pass(lane.producer, lane.topic, rows);
                        lane.passesDone++;
                        lane.lastPass = pass;
                        double rate = rows.size() / (pass.nanos() / 1e9);
                        double encodeRate = rows.size() / (pass.encodeNanos() / 1e9);
                        if (round > 0) {
                            lane.rates[round - 1] = rate;
                            lane.encodeRates[round - 1] = encodeRate;
                        }
                        progress.printf(
                                Locale.ROOT,
                                "%s %s: %,.0f rows/s end to end (%.3f s), encode-only %,.0f rows/s%n",
                                lane.label,
                                round == 0 ? "warm-up" : "pass " + round + "/" + config.iterations(),
                                rate,
                                pass.nanos() / 1e9,
                                encodeRate);
                    } catch (Exception e) {
                        fail(lane, e);
                    }
                }
            }
            for (Lane lane : lanes) {
                close(lane);
            }
            List<RunResult> results = new ArrayList<>();
            for (Lane lane : lanes) {
                results.add(finish(lane, rows.size(), reference));
            }
            return results;
        } finally {
            for (Lane lane : lanes) {
                close(lane);
                if (lane.topicCreated && !config.keepTopics()) {
                    Topics.delete(admin, lane.topic, progress);
                }
            }
        }
    }

    private void fail(Lane lane, Exception e) {
        lane.problem = describe(e);
        progress.println(lane.label + " FAILED: " + lane.problem);
    }

    private void close(Lane lane) {
        if (lane.producer != null) {
            try {
                lane.producer.close(Topics.ADMIN_TIMEOUT);
            } catch (RuntimeException e) {
                if (lane.problem == null) {
                    fail(lane, e);
                }
            }
            lane.producer = null;
        }
        if (lane.sender != null) {
            lane.sender.close();
            lane.sender = null;
        }
    }

    private Map<String, Object> producerConfigs(Lane lane) {
        Map<String, Object> configs = new LinkedHashMap<>(ProducerSettings.get());
        configs.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, lane.compression);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, "streamfusion-compare-" + lane.mode.cliName());
        return configs;
    }

    private RunResult finish(Lane lane, int rows, Reference reference) {
        boolean measured = lane.passesDone == config.iterations() + 1;
        long expected = (long) lane.passesDone * rows;
        Reference.Verification check = null;
        if (lane.problem == null) {
            try {
                check = reference.verify(admin, config.bootstrap(), lane.topic, lane.mode.cliName(), lane.passesDone);
                lane.problem = check.problem();
            } catch (Exception e) {
                lane.problem = "verification failed: " + describe(e);
            }
        }
        Senders.Pass pass = lane.lastPass;
        RunResult result = new RunResult(
                lane.shape,
                lane.compression,
                lane.mode,
                rows,
                config.batch(),
                measured ? lane.rates : new double[0],
                measured ? lane.encodeRates : new double[0],
                pass == null ? 0 : pass.keyBytes(),
                pass == null ? 0 : pass.valueBytes(),
                pass == null ? 0 : pass.nativeBatches(),
                pass == null ? 0 : pass.jvmBatches(),
                expected,
                check == null ? 0 : check.read(),
                check == null ? 0 : check.missing(),
                check == null ? 0 : check.duplicates(),
                check == null ? 0 : check.outOfOrder(),
                check == null ? 0 : check.mismatches(),
                lane.problem);
        progress.printf(
                Locale.ROOT,
                "%s verified=%s: read %,d of %,d records, %d missing, %d duplicates, "
                        + "%d out of order, %d mismatching; median %,.0f rows/s%s%n",
                lane.label,
                result.verified(),
                result.recordsRead(),
                expected,
                result.missing(),
                result.duplicates(),
                result.outOfOrder(),
                result.mismatches(),
                result.medianRate(),
                lane.problem == null ? "" : ": " + lane.problem);
        return result;
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getMessage() == null) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
