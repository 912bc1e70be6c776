package org.streamfusion.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.bijou64.NativeLibrary;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.KafkaRecords;

/**
 * End to end on a real broker: Nexmark-shaped Flink rows ({@link NexmarkRows}) produced as Kafka JSON records,
 * once with Flink's own {@link JsonRowDataSerializationSchema} per row ({@code flink-per-row}) and once with
 * StreamFusion's batch encoder {@link RowDataJsonEncoder} ({@code native-batch}), both through the same
 * idempotent producer settings; every record is read back and its key and value bytes compared with Flink's
 * serializer applied to the same row. {@code perf/streamfusion/README.md} describes the options and the output;
 * {@code perf/streamfusion/compare.sh} builds and runs it.
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

    /** The two ways of producing the same rows. */
    public enum Mode {
        /** Flink's {@code JsonRowDataSerializationSchema}: one {@code serialize} for the key, one for the value. */
        FLINK_PER_ROW("flink-per-row"),
        /** {@link RowDataJsonEncoder} over batches of {@code batch} rows, sent with {@link KafkaRecords#send}. */
        NATIVE_BATCH("native-batch");

        private final String cliName;

        Mode(String cliName) {
            this.cliName = cliName;
        }

        /** @return the name on the command line and in the output */
        public String cliName() {
            return cliName;
        }

        static Mode parse(String name) {
            for (Mode mode : values()) {
                if (mode.cliName.equals(name)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("unknown mode " + name + ": expected flink-per-row or native-batch");
        }
    }

    /** Producer settings shared by both modes (those of {@code perf/kafka}); {@code compression.type} per run. */
    public static final Map<String, String> PRODUCER_SETTINGS = Map.of(
            ProducerConfig.BATCH_SIZE_CONFIG, "524288",
            ProducerConfig.LINGER_MS_CONFIG, "20",
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    /** A verification that receives nothing for this long gives up. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    private static final String DEFAULT_BOOTSTRAP = "127.0.0.1:19092";

    /**
     * One invocation's settings.
     *
     * @param shapes {@code bid} and/or {@code q9}
     * @param rows rows per pass
     * @param batch rows per {@link RowDataJsonEncoder#encode} call in {@code native-batch}
     * @param iterations measured passes per mode (one warm-up pass runs first)
     * @param bootstrap Kafka bootstrap servers
     * @param topic base name of the per-run topics
     * @param compressions producer {@code compression.type} values
     * @param modes the modes to run
     * @param seed the rows' seed
     * @param keyFields the key fields ({@code ;}-separated, Flink's {@code key.fields} syntax); null for the
     *     shape's default ({@code auction} for bid, {@code id} for q9); empty for null keys
     * @param keepTopics do not delete the topics afterwards
     * @param resultsDir where {@code results-<UTC>.csv} goes; null for no CSV
     */
    public record Config(List<String> shapes, int rows, int batch, int iterations, String bootstrap, String topic,
            List<String> compressions, List<Mode> modes, long seed, String keyFields, boolean keepTopics,
            Path resultsDir) {

        /** The defaults of the command line. */
        public static Config defaults() {
            return new Config(List.of("bid"), 200_000, 4096, 3, DEFAULT_BOOTSTRAP, "streamfusion-benchmark-topic",
                    List.of("none"), List.of(Mode.values()), 42, null, false, Path.of("perf/streamfusion/results"));
        }

        /** @return the key fields of {@code shape}: the option, or the shape's default */
        public List<String> keyFieldsOf(String shape) {
            String fields = keyFields != null ? keyFields : shape.equals("q9") ? "id" : "auction";
            return Arrays.stream(fields.split(";")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        }
    }

    /**
     * The outcome of one mode's run.
     *
     * @param rates end-to-end rows/s of each measured pass
     * @param encodeRates encode-only rows/s of each measured pass
     * @param keyBytes key bytes of one pass
     * @param valueBytes value bytes of one pass
     * @param nativeBatches batches the native encoder wrote in one pass (0 for {@code flink-per-row})
     * @param jvmBatches batches Flink's serializer wrote in one pass through {@link RowDataJsonEncoder}'s small-batch
     *     path (0 for {@code flink-per-row}, which does not batch)
     * @param expectedRecords records sent (passes x rows)
     * @param recordsRead records read back
     * @param problem why the run is not verified, or null
     */
    public record Result(String shape, String compression, Mode mode, int rows, int batch, double[] rates,
            double[] encodeRates, long keyBytes, long valueBytes, long nativeBatches, long jvmBatches,
            long expectedRecords, long recordsRead, long missing, long duplicates, long outOfOrder, long mismatches,
            String problem) {

        /** @return true when every record was read back exactly once, in order, equal to Flink's bytes */
        public boolean verified() {
            return problem == null && expectedRecords > 0 && recordsRead == expectedRecords && missing == 0
                    && duplicates == 0 && outOfOrder == 0 && mismatches == 0;
        }

        /** @return median end-to-end rows/s over the measured passes (NaN if none) */
        public double medianRate() {
            return median(rates);
        }

        /** @return median encode-only rows/s over the measured passes (NaN if none) */
        public double medianEncodeRate() {
            return median(encodeRates);
        }

        /** @return median end-to-end MB/s (10^6 bytes of keys and values) */
        public double medianMegabytesPerSecond() {
            return medianRate() * (keyBytes + valueBytes) / rows / 1e6;
        }
    }

    private final Config config;
    private final Admin admin;
    private final PrintStream progress;
    private final String stamp;

    /**
     * @param config the settings
     * @param admin an admin client of the broker (topics, end offsets)
     * @param progress where progress lines go
     * @param stamp the UTC stamp in topic names
     */
    public ProducerComparison(Config config, Admin admin, PrintStream progress, String stamp) {
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
        Config config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ProducerComparison: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        if (config == null) {
            System.out.println(USAGE);
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

    static final String USAGE = """
            usage: ProducerComparison [--rows N] [--batch N] [--shape bid|q9[,..]] [--iterations N]
                                      [--bootstrap HOST:PORT] [--topic BASE] [--compression C[,C..]]
                                      [--modes flink-per-row,native-batch] [--seed S] [--key-fields F[;F..]]
                                      [--keep-topics] [--results-dir DIR | --no-csv]
              --rows         rows per pass (default 200000)
              --batch        rows per native encode call (default 4096; the last batch may be smaller)
              --shape        bid (default), q9, or both comma-separated
              --iterations   measured passes per mode, after one warm-up pass (default 3; the median is reported)
              --bootstrap    Kafka bootstrap servers (default 127.0.0.1:19092)
              --topic        topic base name: TOPIC-<shape>-<mode>-<compression>-<UTC> (default streamfusion-benchmark-topic)
              --compression  producer compression.type, comma-separated for several (default none)
              --modes        flink-per-row, native-batch (default both)
              --seed         seed of the rows (default 42)
              --key-fields   Flink key.fields (default auction for bid, id for q9; '' for null keys)
              --keep-topics  do not delete the topics after the run
              --results-dir  where results-<UTC>.csv goes (default perf/streamfusion/results)
              --no-csv       write no CSV""";

    /**
     * @return the configuration of the command line, or null when it asks for help
     * @throws IllegalArgumentException for an unknown option or a bad value
     */
    static Config parse(String[] args) {
        Config d = Config.defaults();
        List<String> shapes = d.shapes();
        int rows = d.rows();
        int batch = d.batch();
        int iterations = d.iterations();
        String bootstrap = d.bootstrap();
        String topic = d.topic();
        List<String> compressions = d.compressions();
        List<Mode> modes = d.modes();
        long seed = d.seed();
        String keyFields = d.keyFields();
        boolean keepTopics = d.keepTopics();
        Path resultsDir = d.resultsDir();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--keep-topics" -> keepTopics = true;
                case "--no-csv" -> resultsDir = null;
                default -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(arg + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (arg) {
                        case "--rows" -> rows = positive(arg, value);
                        case "--batch" -> batch = positive(arg, value);
                        case "--iterations" -> iterations = positive(arg, value);
                        case "--shape", "--shapes" -> {
                            shapes = list(value);
                            shapes.forEach(NexmarkRows::type);
                        }
                        case "--bootstrap" -> bootstrap = value;
                        case "--topic" -> topic = value;
                        case "--compression", "--compressions" -> compressions = list(value);
                        case "--modes", "--mode" -> modes = list(value).stream().map(Mode::parse).toList();
                        case "--seed" -> {
                            try {
                                seed = Long.parseLong(value);
                            } catch (NumberFormatException e) {
                                throw new IllegalArgumentException("--seed: not a number: " + value);
                            }
                        }
                        case "--key-fields" -> keyFields = value;
                        case "--results-dir" -> resultsDir = Path.of(value);
                        default -> throw new IllegalArgumentException("unknown option " + arg);
                    }
                }
            }
        }
        if (bootstrap.isBlank() || topic.isBlank()) {
            throw new IllegalArgumentException("--bootstrap and --topic must not be empty");
        }
        return new Config(shapes, rows, batch, iterations, bootstrap, topic, compressions, modes, seed, keyFields,
                keepTopics, resultsDir);
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": expected a positive integer, got '" + value + "'");
    }

    private static List<String> list(String value) {
        List<String> items = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (items.isEmpty()) {
            throw new IllegalArgumentException("empty list: '" + value + "'");
        }
        return items;
    }

    private static int runMain(Config config) throws Exception {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC));
        try (Admin admin = admin(config.bootstrap())) {
            String clusterId;
            try {
                clusterId = admin.describeCluster().clusterId().get(15, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                System.err.println("ProducerComparison: no Kafka broker answers at " + config.bootstrap()
                        + " (start the local one with kafka/broker start): " + describe(e));
                return 1;
            }
            printHeader(System.out, config, clusterId);
            List<Result> results = new ProducerComparison(config, admin, System.err, stamp).runAll();
            System.out.println();
            System.out.print(table(results));
            if (config.resultsDir() != null) {
                Path csv = config.resultsDir().resolve("results-" + stamp + ".csv");
                writeCsv(csv, results);
                System.out.println("csv: " + csv.toAbsolutePath().normalize());
            }
            return results.stream().allMatch(Result::verified) ? 0 : 3;
        }
    }

    /** @return an admin client for {@code bootstrap} with short timeouts */
    public static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    private static void printHeader(PrintStream out, Config config, String clusterId) {
        Runtime rt = Runtime.getRuntime();
        out.println("StreamFusion producer comparison: Flink JsonRowDataSerializationSchema per row vs "
                + "RowDataJsonEncoder batches, same broker, same producer settings");
        out.printf("jvm:      %s %s (%s), max heap %d MiB%n", System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"),
                rt.maxMemory() >> 20);
        out.printf("machine:  %s, %d cores, %s%n", System.getProperty("os.arch"), rt.availableProcessors(),
                cpuModel());
        out.printf("clients:  kafka-clients %s, Flink %s, native library %s%n", AppInfoParser.getVersion(),
                EnvironmentInformation.getVersion(), NativeLibrary.isLoaded() ? "loaded"
                        : "NOT loaded (" + NativeLibrary.loadError().map(Throwable::getMessage).orElse("?") + ")");
        out.printf("broker:   %s (cluster %s), 1 partition per topic%n", config.bootstrap(), clusterId);
        out.printf("producer: %s, compression.type %s, ByteArraySerializer keys and values%n",
                new java.util.TreeMap<>(PRODUCER_SETTINGS), String.join(",", config.compressions()));
        out.printf(Locale.ROOT, "rows:     %,d per pass, shapes %s, seed %d, native batches of %,d rows (native.min-batch-rows %d), "
                + "%d measured pass%s per mode after 1 warm-up%n", config.rows(), String.join(",", config.shapes()),
                config.seed(), config.batch(), RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS, config.iterations(),
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
    public List<Result> runAll() {
        List<Result> results = new ArrayList<>();
        for (String shape : config.shapes()) {
            progress.printf(Locale.ROOT, "generating %,d %s rows (seed %d) and Flink's reference records...%n", config.rows(),
                    shape, config.seed());
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
        Sender sender;
        boolean topicCreated;
        int passesDone;
        Pass lastPass;
        String problem;

        Lane(Mode mode, String shape, String compression) {
            this.mode = mode;
            this.shape = shape;
            this.compression = compression;
            this.topic = config.topic() + "-" + shape + "-" + mode.cliName() + "-" + compression + "-" + stamp;
            this.label = "[" + shape + " " + compression + " " + mode.cliName() + "]";
        }
    }

    private List<Result> run(String shape, String compression, List<RowData> rows, Reference reference) {
        List<Lane> lanes = new ArrayList<>();
        for (Mode mode : config.modes()) {
            lanes.add(new Lane(mode, shape, compression));
        }
        try {
            for (Lane lane : lanes) {
                try {
                    createTopic(lane.topic);
                    lane.topicCreated = true;
                    lane.producer = new KafkaProducer<>(producerConfigs(lane), new ByteArraySerializer(),
                            new ByteArraySerializer());
                    lane.producer.partitionsFor(lane.topic); // metadata before the clock starts
                    RowType type = NexmarkRows.type(shape);
                    List<String> keys = config.keyFieldsOf(shape);
                    lane.sender = lane.mode == Mode.FLINK_PER_ROW ? new FlinkPerRow(type, keys)
                            : new NativeBatch(type, keys, config.batch());
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
                        Pass pass = lane.sender.pass(lane.producer, lane.topic, rows);
                        lane.passesDone++;
                        lane.lastPass = pass;
                        double rate = rows.size() / (pass.nanos() / 1e9);
                        double encodeRate = rows.size() / (pass.encodeNanos() / 1e9);
                        if (round > 0) {
                            lane.rates[round - 1] = rate;
                            lane.encodeRates[round - 1] = encodeRate;
                        }
                        progress.printf(Locale.ROOT, "%s %s: %,.0f rows/s end to end (%.3f s), encode-only %,.0f rows/s%n",
                                lane.label, round == 0 ? "warm-up" : "pass " + round + "/" + config.iterations(),
                                rate, pass.nanos() / 1e9, encodeRate);
                    } catch (Exception e) {
                        fail(lane, e);
                    }
                }
            }
            for (Lane lane : lanes) {
                close(lane);
            }
            List<Result> results = new ArrayList<>();
            for (Lane lane : lanes) {
                results.add(finish(lane, rows.size(), reference));
            }
            return results;
        } finally {
            for (Lane lane : lanes) {
                close(lane);
                if (lane.topicCreated && !config.keepTopics()) {
                    deleteTopic(lane.topic);
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
                lane.producer.close(ADMIN_TIMEOUT);
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
        Map<String, Object> configs = new LinkedHashMap<>(PRODUCER_SETTINGS);
        configs.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, lane.compression);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, "streamfusion-compare-" + lane.mode.cliName());
        return configs;
    }

    private Result finish(Lane lane, int rows, Reference reference) {
        boolean measured = lane.passesDone == config.iterations() + 1;
        long expected = (long) lane.passesDone * rows;
        Verification check = null;
        if (lane.problem == null) {
            try {
                check = verify(lane.topic, lane.mode.cliName(), reference, lane.passesDone);
                lane.problem = check.problem();
            } catch (Exception e) {
                lane.problem = "verification failed: " + describe(e);
            }
        }
        Pass pass = lane.lastPass;
        Result result = new Result(lane.shape, lane.compression, lane.mode, rows, config.batch(),
                measured ? lane.rates : new double[0], measured ? lane.encodeRates : new double[0],
                pass == null ? 0 : pass.keyBytes(), pass == null ? 0 : pass.valueBytes(),
                pass == null ? 0 : pass.nativeBatches(), pass == null ? 0 : pass.jvmBatches(), expected,
                check == null ? 0 : check.read(), check == null ? 0 : check.missing(),
                check == null ? 0 : check.duplicates(), check == null ? 0 : check.outOfOrder(),
                check == null ? 0 : check.mismatches(), lane.problem);
        progress.printf(Locale.ROOT, "%s verified=%s: read %,d of %,d records, %d missing, %d duplicates, "
                + "%d out of order, %d mismatching; median %,.0f rows/s%s%n", lane.label, result.verified(),
                result.recordsRead(), expected, result.missing(), result.duplicates(), result.outOfOrder(),
                result.mismatches(), result.medianRate(), lane.problem == null ? "" : ": " + lane.problem);
        return result;
    }

    // ------------------------------------------------------------------------------------------------------
    // The two modes

    /** What one pass did. */
    private record Pass(long nanos, long encodeNanos, long keyBytes, long valueBytes, long nativeBatches,
            long jvmBatches) {}

    /** One mode: sends every row once per pass. */
    private interface Sender extends AutoCloseable {
        Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows) throws Exception;

        @Override
        default void close() {
        }
    }

    /**
     * Flink's serializer once per row for the key row (the {@code key.fields} projection) and once for the value
     * row (the whole row), each record sent right after it is serialized, as Flink's Kafka sink does.
     */
    private static final class FlinkPerRow implements Sender {
        private final JsonRowDataSerializationSchema keySerializer;
        private final JsonRowDataSerializationSchema valueSerializer;
        private final ProjectedRowData keyRow;

        FlinkPerRow(RowType type, List<String> keyFields) {
            KeyProjection key = KeyProjection.of(type, keyFields);
            this.keySerializer = key == null ? null : flinkSerializer(key.type());
            this.keyRow = key == null ? null : ProjectedRowData.from(key.positions());
            this.valueSerializer = flinkSerializer(type);
        }

        @Override
        public Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows)
                throws InterruptedException {
            SendTracker tracker = new SendTracker(rows.size());
            long encodeNanos = 0;
            long keyBytes = 0;
            long valueBytes = 0;
            long start = System.nanoTime();
            for (RowData row : rows) {
                long t0 = System.nanoTime();
                byte[] key = keyRow == null ? null : keySerializer.serialize(keyRow.replaceRow(row));
                byte[] value = valueSerializer.serialize(row);
                encodeNanos += System.nanoTime() - t0;
                keyBytes += key == null ? 0 : key.length;
                valueBytes += value.length;
                producer.send(new ProducerRecord<>(topic, key, value), tracker);
            }
            producer.flush();
            long nanos = System.nanoTime() - start;
            tracker.await();
            return new Pass(nanos, encodeNanos, keyBytes, valueBytes, 0, 0);
        }
    }

    /**
     * {@link RowDataJsonEncoder} with {@code key.fields}, one {@code encode} per {@code batch} rows (the last
     * batch holds the remainder; under {@code native.min-batch-rows} rows it goes through Flink's serializer),
     * each batch's records then sent with {@link KafkaRecords#send}.
     */
    private static final class NativeBatch implements Sender {
        private final RowDataJsonEncoder encoder;
        private final int batch;

        NativeBatch(RowType type, List<String> keyFields, int batch) {
            Map<String, String> options = new LinkedHashMap<>();
            if (!keyFields.isEmpty()) {
                options.put("key.fields", String.join(";", keyFields));
            }
            this.encoder = new RowDataJsonEncoder(type, options);
            this.batch = batch;
        }

        @Override
        public Pass pass(KafkaProducer<byte[], byte[]> producer, String topic, List<RowData> rows)
                throws InterruptedException {
            SendTracker tracker = new SendTracker(rows.size());
            long nativeBefore = encoder.nativeBatches();
            long jvmBefore = encoder.jvmBatches();
            long encodeNanos = 0;
            long keyBytes = 0;
            long valueBytes = 0;
            long start = System.nanoTime();
            for (int from = 0; from < rows.size(); from += batch) {
                List<RowData> slice = rows.subList(from, Math.min(rows.size(), from + batch));
                long t0 = System.nanoTime();
                EncodedBatch encoded = encoder.encode(slice);
                encodeNanos += System.nanoTime() - t0;
                keyBytes += encoded.keyBytes();
                valueBytes += encoded.valueBytes();
                KafkaRecords.send(producer, topic, encoded, tracker);
            }
            producer.flush();
            long nanos = System.nanoTime() - start;
            tracker.await();
            return new Pass(nanos, encodeNanos, keyBytes, valueBytes, encoder.nativeBatches() - nativeBefore,
                    encoder.jvmBatches() - jvmBefore);
        }

        @Override
        public void close() {
            encoder.close();
        }
    }

    /** One callback for a whole pass: counts completions, keeps the first error. */
    private static final class SendTracker implements Callback {
        private final CountDownLatch pending;
        private final AtomicReference<Exception> firstError = new AtomicReference<>();

        SendTracker(int count) {
            this.pending = new CountDownLatch(count);
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                firstError.compareAndSet(null, exception);
            }
            pending.countDown();
        }

        /** After {@code flush()}: every send completed (flush guarantees it; the bound guards a bug), none failed. */
        void await() throws InterruptedException {
            if (!pending.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException(pending.getCount() + " sends still incomplete after flush()");
            }
            Exception error = firstError.get();
            if (error != null) {
                throw new IllegalStateException("send failed: " + describe(error), error);
            }
        }
    }

    /** The key row of the Kafka connector's layout: the {@code key.fields} projection, names as in the row. */
    private record KeyProjection(RowType type, int[] positions) {
        static KeyProjection of(RowType type, List<String> keyFields) {
            if (keyFields.isEmpty()) {
                return null;
            }
            List<RowType.RowField> fields = new ArrayList<>();
            int[] positions = new int[keyFields.size()];
            for (int k = 0; k < positions.length; k++) {
                positions[k] = type.getFieldIndex(keyFields.get(k));
                if (positions[k] < 0) {
                    throw new IllegalArgumentException("key field " + keyFields.get(k) + " is not a field of "
                            + type);
                }
                fields.add(new RowType.RowField(keyFields.get(k), type.getTypeAt(positions[k])));
            }
            return new KeyProjection(new RowType(fields), positions);
        }
    }

    /**
     * Flink 2.2's serializer with the json format's defaults: {@code timestamp-format.standard=SQL},
     * {@code map-null-key.mode=FAIL}, literal {@code "null"}, decimals not as plain numbers, nulls written.
     */
    static JsonRowDataSerializationSchema flinkSerializer(RowType type) {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(type, TimestampFormat.SQL,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException("JsonRowDataSerializationSchema failed to open: " + e, e);
        }
        return schema;
    }

    // ------------------------------------------------------------------------------------------------------
    // Verification

    /** Flink's records of every row, made once per shape by serializer instances of their own. */
    static final class Reference {
        private final byte[][] keys;
        private final byte[][] values;
        private Map<Record, int[]> index;

        Reference(RowType type, List<String> keyFields, List<RowData> rows) {
            KeyProjection key = KeyProjection.of(type, keyFields);
            JsonRowDataSerializationSchema keySerializer = key == null ? null : flinkSerializer(key.type());
            ProjectedRowData keyRow = key == null ? null : ProjectedRowData.from(key.positions());
            JsonRowDataSerializationSchema valueSerializer = flinkSerializer(type);
            keys = new byte[rows.size()][];
            values = new byte[rows.size()][];
            for (int i = 0; i < rows.size(); i++) {
                keys[i] = keyRow == null ? null : keySerializer.serialize(keyRow.replaceRow(rows.get(i)));
                values[i] = valueSerializer.serialize(rows.get(i));
            }
        }

        int size() {
            return values.length;
        }

        /** @return Flink's key of {@code row} (not a copy), null without key fields */
        byte[] key(int row) {
            return keys[row];
        }

        /** @return Flink's value of {@code row} (not a copy) */
        byte[] value(int row) {
            return values[row];
        }

        boolean matches(int row, byte[] key, byte[] value) {
            return Arrays.equals(keys[row], key) && Arrays.equals(values[row], value);
        }

        /** The rows whose records are exactly {@code key} and {@code value}, or null; the index is built on first use. */
        int[] rowsOf(byte[] key, byte[] value) {
            if (index == null) {
                index = new HashMap<>();
                for (int i = 0; i < values.length; i++) {
                    index.merge(new Record(keys[i], values[i]), new int[] {i}, (a, b) -> {
                        int[] both = Arrays.copyOf(a, a.length + 1);
                        both[a.length] = b[0];
                        return both;
                    });
                }
            }
            return index.get(new Record(key, value));
        }

        /** One record's bytes as a map key. */
        private record Record(byte[] key, byte[] value) {
            @Override
            public boolean equals(Object o) {
                return o instanceof Record r && Arrays.equals(key, r.key) && Arrays.equals(value, r.value);
            }

            @Override
            public int hashCode() {
                return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
            }
        }
    }

    /** What {@link #verify} found; {@code problem} is the first problem, or null when there was none. */
    record Verification(long read, long missing, long duplicates, long outOfOrder, long mismatches,
            String problem) {}

    /**
     * Reads partition 0 of {@code topic} from the beginning to its {@code read_committed} end offset and checks it
     * holds {@code reference}'s records {@code passes} times over, in order (see the class comment).
     */
    Verification verify(String topic, String clientSuffix, Reference reference, int passes) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        long end = admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(partition).get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).offset();
        int n = reference.size();
        long expected = (long) n * passes;
        int[] seen = new int[n];
        long read = 0;
        long outOfOrder = 0;
        long mismatches = 0;
        String firstProblem = null;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "streamfusion-compare-verify-" + clientSuffix);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20000");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long lastData = System.nanoTime();
            while (consumer.position(partition) < end) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (System.nanoTime() - lastData > IDLE_TIMEOUT.toNanos()) {
                        firstProblem = "no records for " + IDLE_TIMEOUT.toSeconds() + " s at offset "
                                + consumer.position(partition) + " of " + end;
                        break;
                    }
                    continue;
                }
                lastData = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    int row = (int) (read % n);
                    read++;
                    if (reference.matches(row, record.key(), record.value())) {
                        seen[row]++;
                        continue;
                    }
                    int[] candidates = reference.rowsOf(record.key(), record.value());
                    if (candidates == null) {
                        mismatches++;
                        if (firstProblem == null) {
                            firstProblem = "offset " + record.offset() + ": no row's Flink record matches key "
                                    + preview(record.key()) + ", value " + preview(record.value())
                                    + "; expected row " + row + ": key " + preview(reference.keys[row])
                                    + ", value " + preview(reference.values[row]);
                        }
                        continue;
                    }
                    int pick = candidates[0];
                    for (int c : candidates) {
                        if (seen[c] < passes) {
                            pick = c;
                            break;
                        }
                    }
                    seen[pick]++;
                    outOfOrder++;
                    if (firstProblem == null) {
                        firstProblem = "offset " + record.offset() + " holds row " + pick + ", expected row " + row;
                    }
                }
            }
        }
        long missing = 0;
        long duplicates = 0;
        for (int count : seen) {
            if (count < passes) {
                missing += passes - count;
            } else {
                duplicates += count - passes;
            }
        }
        if (firstProblem == null && read != expected) {
            firstProblem = "read " + read + " records up to end offset " + end + ", sent " + expected;
        }
        if (firstProblem == null && (missing > 0 || duplicates > 0)) {
            firstProblem = missing + " records missing, " + duplicates + " duplicated";
        }
        return new Verification(read, missing, duplicates, outOfOrder, mismatches, firstProblem);
    }

    private static String preview(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return bytes.length + " bytes `" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "`";
    }

    // ------------------------------------------------------------------------------------------------------
    // Topics

    void createTopic(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                .all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        // Wait until the partition has a leader, so the producer's first metadata request finds it.
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
                if (!description.partitions().isEmpty() && description.partitions().get(0).leader() != null) {
                    return;
                }
            } catch (ExecutionException e) {
                // Not yet known to the broker's metadata cache: retry until the deadline.
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topic " + topic + " has no leader after " + ADMIN_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }

    void deleteTopic(String topic) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            progress.println("warning: could not delete topic " + topic + ": " + describe(e));
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // Output

    /**
     * The results as a table: one row per shape, compression and mode, and per shape and compression a line
     * with the ratios native-batch / flink-per-row; problems and warnings below.
     */
    public static String table(List<Result> results) {
        String[] head = {"shape", "compression", "mode", "rows", "batch", "median rows/s", "min rows/s",
            "max rows/s", "MB/s", "encode-only rows/s", "bytes/row", "native/JVM batches", "verified"};
        List<String[]> lines = new ArrayList<>();
        for (Result r : results) {
            lines.add(new String[] {r.shape(), r.compression(), r.mode().cliName(), String.format(Locale.ROOT, "%,d", r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? String.format(Locale.ROOT, "%,d", r.batch()) : "-", rate(r.medianRate()),
                rate(min(r.rates())), rate(max(r.rates())), String.format(Locale.ROOT, "%.1f", r.medianMegabytesPerSecond()),
                rate(r.medianEncodeRate()),
                String.format(Locale.ROOT, "%.1f", (double) (r.keyBytes() + r.valueBytes()) / r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? r.nativeBatches() + "/" + r.jvmBatches() : "-",
                r.verified() ? "true" : "FALSE"});
        }
        int[] width = new int[head.length];
        for (int c = 0; c < head.length; c++) {
            width[c] = head[c].length();
            for (String[] line : lines) {
                width[c] = Math.max(width[c], line[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        appendRow(out, head, width);
        String[] rule = new String[head.length];
        for (int c = 0; c < head.length; c++) {
            rule[c] = "-".repeat(width[c]);
        }
        appendRow(out, rule, width);
        String group = null;
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            String g = r.shape() + "/" + r.compression();
            if (group != null && !group.equals(g)) {
                out.append('\n');
            }
            group = g;
            appendRow(out, lines.get(i), width);
        }
        out.append('\n');
        for (String g : results.stream().map(r -> r.shape() + "/" + r.compression()).distinct().toList()) {
            Result flink = find(results, g, Mode.FLINK_PER_ROW);
            Result nat = find(results, g, Mode.NATIVE_BATCH);
            if (flink != null && nat != null) {
                out.append(String.format(Locale.ROOT, "%s, compression %s: native-batch / flink-per-row: %.2fx end to end, "
                        + "%.2fx encoding%s%n", nat.shape(), nat.compression(), nat.medianRate() / flink.medianRate(),
                        nat.medianEncodeRate() / flink.medianEncodeRate(),
                        flink.verified() && nat.verified() ? "" : " (NOT verified)"));
            }
        }
        for (Result r : results) {
            if (!r.verified()) {
                out.append(String.format("NOT VERIFIED %s %s %s: %s%n", r.shape(), r.compression(),
                        r.mode().cliName(), r.problem() == null ? "see the counts" : r.problem()));
            }
            if (r.mode() == Mode.NATIVE_BATCH && r.nativeBatches() == 0 && r.jvmBatches() > 0) {
                out.append(String.format("warning: %s %s native-batch encoded no batch natively (native library not "
                        + "loaded?): it measured Flink's serializer%n", r.shape(), r.compression()));
            }
        }
        return out.toString();
    }

    private static Result find(List<Result> results, String group, Mode mode) {
        return results.stream().filter(r -> (r.shape() + "/" + r.compression()).equals(group) && r.mode() == mode)
                .findFirst().orElse(null);
    }

    private static void appendRow(StringBuilder out, String[] cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                line.append("  ");
            }
            boolean left = c <= 2;
            String cell = cells[c];
            String pad = " ".repeat(width[c] - cell.length());
            line.append(left ? cell + pad : pad + cell);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String rate(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    /** The CSV columns, one row per shape, compression and mode. */
    static final String CSV_HEADER = "shape,compression,mode,rows,batch_rows,iterations,median_rows_per_s,"
            + "min_rows_per_s,max_rows_per_s,median_mb_per_s,median_encode_rows_per_s,key_bytes_per_pass,"
            + "value_bytes_per_pass,native_batches_per_pass,jvm_batches_per_pass,records_expected,records_read,"
            + "missing,duplicates,out_of_order,mismatches,verified,ratio_vs_flink_per_row,encode_ratio_vs_flink_per_row";

    /** Writes {@code results} as CSV to {@code csv}, creating its directory. */
    public static void writeCsv(Path csv, List<Result> results) {
        StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
        for (Result r : results) {
            Result flink = find(results, r.shape() + "/" + r.compression(), Mode.FLINK_PER_ROW);
            out.append(String.join(",", r.shape(), r.compression(), r.mode().cliName(), String.valueOf(r.rows()),
                    String.valueOf(r.batch()), String.valueOf(r.rates().length), plain(r.medianRate()),
                    plain(min(r.rates())), plain(max(r.rates())),
                    String.format(Locale.ROOT, "%.3f", r.medianMegabytesPerSecond()), plain(r.medianEncodeRate()),
                    String.valueOf(r.keyBytes()), String.valueOf(r.valueBytes()), String.valueOf(r.nativeBatches()),
                    String.valueOf(r.jvmBatches()), String.valueOf(r.expectedRecords()),
                    String.valueOf(r.recordsRead()), String.valueOf(r.missing()), String.valueOf(r.duplicates()),
                    String.valueOf(r.outOfOrder()), String.valueOf(r.mismatches()), String.valueOf(r.verified()),
                    flink == null ? "" : String.format(Locale.ROOT, "%.3f", r.medianRate() / flink.medianRate()),
                    flink == null ? "" : String.format(Locale.ROOT, "%.3f",
                            r.medianEncodeRate() / flink.medianEncodeRate())));
            out.append('\n');
        }
        try {
            Path dir = csv.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.writeString(csv, out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv, e);
        }
    }

    private static String plain(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.0f", value);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getMessage() == null) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
