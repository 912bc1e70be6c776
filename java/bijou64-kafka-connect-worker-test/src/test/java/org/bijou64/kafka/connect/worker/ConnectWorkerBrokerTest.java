package org.bijou64.kafka.connect.worker;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.bijou64.Mapping;
import org.bijou64.Vectors;
import org.bijou64.perf.kafka.Bijou64Serdes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The converters installed the way Connect users install plugins: the plugin archive of
 * {@code bijou64-kafka-connect} unpacked into the {@code plugin.path} of a real Kafka Connect standalone worker
 * ({@link ConnectWorker}; Apache Kafka's runtime, FileStream connectors and transforms, nothing of ours on its
 * class path) against the local broker ({@code kafka.bootstrap.servers}).
 *
 * <p>Kafka's {@code LongConverter} and {@code IntegerConverter} write the same inputs in the same worker, so the
 * bytes per record are compared in one run; the format is checked against the vectors, and every value read back
 * by the worker's sinks is checked against its input.
 */
class ConnectWorkerBrokerTest {
    private static final String BIJOU64 = "org.bijou64.kafka.connect.Bijou64Converter";
    private static final String BIJOU32 = "org.bijou64.kafka.connect.Bijou32Converter";
    private static final String FILE_SOURCE = "org.apache.kafka.connect.file.FileStreamSourceConnector";
    private static final String FILE_SINK = "org.apache.kafka.connect.file.FileStreamSinkConnector";
    /** Both converters, each as a converter and a header converter: {@code "<class> <plugin type>"}. */
    private static final Set<String> PLUGINS = Set.of(
            BIJOU64 + " converter",
            BIJOU64 + " header_converter",
            BIJOU32 + " converter",
            BIJOU32 + " header_converter");

    private static final Duration PIPELINE_TIMEOUT = Duration.ofSeconds(180);
    /** The plugin folder of the unpacked archive, as {@code PluginClassLoader} names its location. */
    private static final String PLUGIN_FOLDER = "bijou64-kafka-connect-";

    private static final List<Input> LONGS = new ArrayList<>();
    private static final List<Input> INTS = new ArrayList<>();

    /**
     * One line of an input file: the value, its group (for the byte figures) and the vector row it comes from
     * (null for a generated one).
     */
    private record Input(long value, String group, Vectors.Valid vector) {
        String line() {
            return Long.toString(value);
        }
    }

    /** The input groups, in file order. */
    private static final List<String> GROUPS = List.of("vectors", "ids", "log-uniform", "uniform");

    private static String bootstrap() {
        return System.getProperty("kafka.bootstrap.servers", "127.0.0.1:19092");
    }

    /**
     * The inputs, seeded: every vector of the format (the tier edges, both mappings' rows); ids (increasing from
     * about a million by 1 to 100, as counters and database keys are); log-uniform values (a random magnitude of 0
     * to 63 bits, 0 to 31 for ints, either sign); uniform values over the whole type.
     */
    @BeforeAll
    static void inputs() {
        SplittableRandom random = new SplittableRandom(20261205L);
        for (Vectors.Valid row : Vectors.valid()) {
            if (row.isLong()) {
                LONGS.add(new Input(row.longValue(), "vectors", row));
            } else {
                INTS.add(new Input(row.intValue(), "vectors", row));
            }
        }
        long id = 1_000_000;
        for (int i = 0; i < 5_000; i++) {
            id += random.nextInt(1, 101);
            LONGS.add(new Input(id, "ids", null));
            INTS.add(new Input(id, "ids", null));
        }
        for (int i = 0; i < 10_000; i++) {
            LONGS.add(new Input(random.nextLong() >> random.nextInt(64), "log-uniform", null));
        }
        for (int i = 0; i < 2_500; i++) {
            INTS.add(new Input(random.nextInt() >> random.nextInt(32), "log-uniform", null));
        }
        for (int i = 0; i < 5_000; i++) {
            LONGS.add(new Input(random.nextLong(), "uniform", null));
        }
        for (int i = 0; i < 2_500; i++) {
            INTS.add(new Input(random.nextInt(), "uniform", null));
        }
    }

    /**
     * {@code bin/connect-plugin-path.sh list} (Kafka's {@code ConnectPluginPath}) on the plugin.path lists both
     * converters as converters and header converters, loadable by scanning and with the service manifests that
     * {@code plugin.discovery=service_load} needs, and warns about nothing.
     */
    @Test
    void connectPluginPathListsBothConvertersOfBothKinds() throws Exception {
        Path dir = Files.createDirectories(Path.of(System.getProperty("connect.work.dir"), "plugin-path-list"));
        List<String> command = ConnectWorker.java("org.apache.kafka.tools.ConnectPluginPath");
        command.addAll(
                List.of("list", "--plugin-path", ConnectWorker.pluginPath().toString()));
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process tool = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        int status = tool.waitFor();
        String errors = read(err);
        assertEquals(0, status, () -> "connect-plugin-path list failed: " + errors);
        String listing = read(out);
        System.out.println("connect-plugin-path list --plugin-path " + ConnectWorker.pluginPath() + ":\n" + listing);

        Map<String, String[]> rows = new LinkedHashMap<>();
        for (String line : listing.split("\n")) {
            String[] columns = line.split("\t");
            if (columns.length == 8 && columns[0].startsWith("org.bijou64.")) {
                rows.put(columns[0] + " " + columns[4], columns);
            }
        }
        assertEquals(PLUGINS, rows.keySet(), listing);
        for (String[] row : rows.values()) {
            // pluginName firstAlias secondAlias pluginVersion pluginType isLoadable hasManifest pluginLocation
            assertAll(
                    String.join(" ", row),
                    () -> assertTrue(row[3].matches("\\d+\\.\\d+\\.\\d+.*"), "a version from the jar"),
                    () -> assertEquals("true", row[5], "isLoadable"),
                    () -> assertEquals("true", row[6], "hasManifest"),
                    () -> assertTrue(Path.of(row[7]).getFileName().toString().startsWith(PLUGIN_FOLDER)));
        }
        assertTrue(listing.contains("Compatible plugins: \t6"), "every plugin has its manifests:\n" + listing);
        assertEquals("", errors.strip(), "no warning");
    }

    /**
     * Every {@code plugin.discovery} mode finds both converters of both kinds, with their version, and warns about
     * none of ours. The {@code only_scan} worker also runs without the native library (a path that does not
     * exist): one warning, and the converters still load, on pure Java.
     */
    @ParameterizedTest
    @ValueSource(strings = {"only_scan", "hybrid_warn", "hybrid_fail", "service_load"})
    void everyPluginDiscoveryModeFindsTheConverters(String mode) throws Exception {
        boolean withoutNative = mode.equals("only_scan");
        List<String> jvm =
                withoutNative ? List.of("-Dbijou64.native.path=/nonexistent/libkafka_serde_native.so") : List.of();
        try (ConnectWorker worker = ConnectWorker.start(
                "discovery-" + mode, bootstrap(), Map.of("plugin.discovery", mode), jvm, List.of())) {
            Set<String> found = new HashSet<>();
            for (JsonNode plugin : worker.get("/connector-plugins?connectorsOnly=false")) {
                String name = plugin.get("class").asText();
                if (name.startsWith("org.bijou64.")) {
                    found.add(name + " " + plugin.get("type").asText());
                    assertTrue(plugin.get("version").asText().matches("\\d+\\.\\d+\\.\\d+.*"), plugin::toString);
                }
            }
            assertEquals(PLUGINS, found, "plugin.discovery=" + mode);
            String log = worker.log();
            // The loader's own warning (counted below) is the one a worker without the library may log.
            List<String> ourWarnings = log.lines()
                    .filter(line -> line.contains(" WARN ") && line.contains("bijou64"))
                    .filter(line -> !line.contains("bijou64: native library unavailable"))
                    .toList();
            assertEquals(List.of(), ourWarnings, "plugin.discovery=" + mode);
            long nativeWarnings = log.lines()
                    .filter(line -> line.contains("bijou64: native library unavailable"))
                    .count();
            assertEquals(withoutNative ? 1 : 0, nativeWarnings, () -> worker.logTail());
        }
    }

    /**
     * FileStreamSource, {@code Cast$Value} to int64 (int32), our converter, a topic, our converter, FileStreamSink:
     * both mappings of {@code Bijou64Converter} (unsigned with the native library, zigzag with the default, pure
     * Java), {@code Bijou32Converter}, and {@code Bijou64Converter} as the header converter (the value copied into a
     * header by {@code HoistField}, {@code HeaderFrom} and {@code ExtractField}). Kafka's {@code LongConverter} and
     * {@code IntegerConverter} write the same inputs to topics of their own. A sink with {@code Bijou64Converter}
     * pointed at the {@code LongConverter} topic fails with the deserializer's reason, and with
     * {@code errors.tolerance=all} sends to the dead-letter queue exactly the records that are not one canonical
     * value.
     */
    @Test
    void fileToTopicToFileThroughTheConverters() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Path dir = Path.of(System.getProperty("connect.work.dir"), "pipeline-files");
        ConnectWorker.deleteRecursively(dir);
        Files.createDirectories(dir);
        Path longs = Files.write(dir.resolve("longs.txt"), lines(LONGS));
        Path ints = Files.write(dir.resolve("ints.txt"), lines(INTS));
        Topics topics = new Topics(run);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(topics.all().stream()
                            .map(topic -> new NewTopic(topic, 1, (short) 1))
                            .toList())
                    .all()
                    .get();
        }

        List<Map<String, String>> connectors = List.of(
                source(
                        "long-stock-source",
                        longs,
                        topics.longStock,
                        "int64",
                        Map.of("value.converter", "org.apache.kafka.connect.converters.LongConverter")),
                source(
                        "bijou64-source",
                        longs,
                        topics.unsigned,
                        "int64",
                        withHeader(Map.of(
                                "value.converter", BIJOU64,
                                "value.converter.bijou64.implementation", "native",
                                "header.converter", BIJOU64))),
                source(
                        "bijou64s-source",
                        longs,
                        topics.zigzag,
                        "int64",
                        Map.of("value.converter", BIJOU64, "value.converter.bijou64.mapping", "zigzag")),
                source(
                        "int-stock-source",
                        ints,
                        topics.intStock,
                        "int32",
                        Map.of("value.converter", "org.apache.kafka.connect.converters.IntegerConverter")),
                source("bijou32-source", ints, topics.int32, "int32", Map.of("value.converter", BIJOU32)),
                sink(
                        "bijou64-sink",
                        topics.unsigned,
                        dir.resolve("bijou64.out"),
                        Map.of(
                                "value.converter", BIJOU64,
                                "value.converter.bijou64.implementation", "native",
                                "header.converter", BIJOU64)),
                sink(
                        "bijou64s-sink",
                        topics.zigzag,
                        dir.resolve("bijou64s.out"),
                        Map.of("value.converter", BIJOU64, "value.converter.bijou64.mapping", "zigzag")),
                sink("bijou32-sink", topics.int32, dir.resolve("bijou32.out"), Map.of("value.converter", BIJOU32)),
                sink(
                        "wrong-topic-sink",
                        topics.longStock,
                        dir.resolve("wrong-topic.out"),
                        Map.of("value.converter", BIJOU64)),
                sink(
                        "dead-letter-sink",
                        topics.longStock,
                        dir.resolve("dead-letter.out"),
                        Map.of(
                                "value.converter", BIJOU64,
                                "errors.tolerance", "all",
                                "errors.deadletterqueue.topic.name", topics.deadLetters,
                                "errors.deadletterqueue.topic.replication.factor", "1",
                                "errors.deadletterqueue.context.headers.enable", "true")));

        try (ConnectWorker worker = ConnectWorker.start("pipeline", bootstrap(), Map.of(), List.of(), connectors)) {
            List<String> expectedLongs = lines(LONGS);
            assertEquals(expectedLongs, awaitLines(worker, dir.resolve("bijou64.out"), LONGS.size()), "unsigned");
            assertEquals(expectedLongs, awaitLines(worker, dir.resolve("bijou64s.out"), LONGS.size()), "zigzag");
            assertEquals(lines(INTS), awaitLines(worker, dir.resolve("bijou32.out"), INTS.size()), "bijou32");

            List<ConsumerRecord<byte[], byte[]>> stock = drain(topics.longStock, LONGS.size());
            List<ConsumerRecord<byte[], byte[]>> unsigned = drain(topics.unsigned, LONGS.size());
            List<ConsumerRecord<byte[], byte[]>> zigzag = drain(topics.zigzag, LONGS.size());
            List<ConsumerRecord<byte[], byte[]>> intStock = drain(topics.intStock, INTS.size());
            List<ConsumerRecord<byte[], byte[]>> int32 = drain(topics.int32, INTS.size());
            checkLongs(unsigned, Mapping.UNSIGNED, true);
            checkLongs(zigzag, Mapping.ZIGZAG, false);
            checkInts(int32);
            assertTrue(stock.stream().allMatch(r -> r.value().length == 8), "LongConverter writes 8 bytes");
            assertTrue(intStock.stream().allMatch(r -> r.value().length == 4), "IntegerConverter writes 4 bytes");
            System.out.println("value bytes per record, written by one worker (LongConverter and IntegerConverter are"
                    + " Kafka's):");
            System.out.println(String.format(
                    "%-12s %7s %14s %17s %17s %7s %17s %16s",
                    "group",
                    "longs",
                    "LongConverter",
                    "Bijou64 unsigned",
                    "Bijou64 zigzag",
                    "ints",
                    "IntegerConverter",
                    "Bijou32Converter"));
            List<String> groups = new ArrayList<>(GROUPS);
            groups.add("all");
            for (String group : groups) {
                System.out.println(String.format(
                        "%-12s %7d %14.3f %17.3f %17.3f %7d %17.3f %16.3f",
                        group,
                        count(LONGS, group),
                        meanBytes(stock, LONGS, group),
                        meanBytes(unsigned, LONGS, group),
                        meanBytes(zigzag, LONGS, group),
                        count(INTS, group),
                        meanBytes(intStock, INTS, group),
                        meanBytes(int32, INTS, group)));
            }

            String reason = "Error deserializing bijou64 Long from topic '" + topics.longStock
                    + "': 8 bytes [00 00 00 00 00 00 00 00]: trailing bytes";
            JsonNode failed = worker.awaitStatus(
                    "wrong-topic-sink",
                    status ->
                            status.path("tasks").path(0).path("state").asText().equals("FAILED"),
                    PIPELINE_TIMEOUT);
            String trace = failed.path("tasks").path(0).path("trace").asText();
            assertTrue(
                    trace.contains("org.apache.kafka.connect.errors.DataException: Failed to deserialize bijou64 Long: "
                            + reason),
                    trace);

            // The one range the format cannot tell from an 8-byte LongConverter value: a first byte of fe is a
            // complete 8-byte bijou64 value (docs/format.md). Every other record goes to the dead-letter queue.
            int readable = (int)
                    LONGS.stream().filter(input -> (input.value >>> 56) == 0xfe).count();
            List<ConsumerRecord<byte[], byte[]>> deadLetters = drain(topics.deadLetters, LONGS.size() - readable);
            List<String> accepted = awaitLines(worker, dir.resolve("dead-letter.out"), readable);
            assertEquals(readable, accepted.size());
            for (int i = 0, d = 0; i < LONGS.size(); i++) {
                if ((LONGS.get(i).value >>> 56) == 0xfe) {
                    continue;
                }
                ConsumerRecord<byte[], byte[]> letter = deadLetters.get(d++);
                assertArrayEquals(stock.get(i).value(), letter.value(), "the record as it was, at " + i);
                Header message = letter.headers().lastHeader("__connect.errors.exception.message");
                assertNotNull(message, "the dead letter says why");
                assertTrue(
                        new String(message.value(), StandardCharsets.UTF_8)
                                .startsWith("Failed to deserialize bijou64 Long: Error deserializing bijou64 Long"),
                        () -> new String(message.value(), StandardCharsets.UTF_8));
            }
            System.out.printf(
                    "LongConverter topic read with Bijou64Converter: task FAILED (%s); with errors.tolerance=all %d of"
                            + " %d records to the dead-letter queue, %d read (first byte fe)%n",
                    reason, deadLetters.size(), LONGS.size(), readable);

            String log = worker.log();
            List<String> converterLines = log.lines()
                    .filter(line -> line.contains("Converter for value: mapping"))
                    .toList();
            System.out.println("the converters' own log lines:\n" + String.join("\n", converterLines));
            assertTrue(
                    converterLines.stream()
                            .anyMatch(line -> line.contains("Bijou64Converter for value: mapping UNSIGNED,"
                                            + " implementation NATIVE (native library loaded)")
                                    && line.contains("PluginClassLoader{pluginLocation=")
                                    && line.contains(PLUGIN_FOLDER)),
                    "the native library loaded in the plugin's class loader:\n" + converterLines);
            assertTrue(
                    converterLines.stream()
                            .anyMatch(line ->
                                    line.contains("Bijou64Converter for value: mapping ZIGZAG, implementation JAVA")),
                    converterLines::toString);
        }
    }

    /** The topics of one run, named apart from every earlier run's. */
    private static final class Topics {
        final String longStock;
        final String unsigned;
        final String zigzag;
        final String intStock;
        final String int32;
        final String deadLetters;

        Topics(String run) {
            longStock = "connect-longs-LongConverter-" + run;
            unsigned = "connect-longs-bijou64-" + run;
            zigzag = "connect-longs-bijou64s-" + run;
            intStock = "connect-ints-IntegerConverter-" + run;
            int32 = "connect-ints-bijou32-" + run;
            deadLetters = "connect-dead-letters-" + run;
        }

        /** The topics the test creates (the dead-letter queue is the worker's to create). */
        List<String> all() {
            return List.of(longStock, unsigned, zigzag, intStock, int32);
        }
    }

    /** Each value as the record of one input topic: the vector's bytes where there is one, the value read back. */
    private static void checkLongs(List<ConsumerRecord<byte[], byte[]>> records, Mapping mapping, boolean header) {
        try (Deserializer<Long> deserializer = Bijou64Serdes.Long(mapping).deserializer()) {
            for (int i = 0; i < LONGS.size(); i++) {
                Input input = LONGS.get(i);
                byte[] value = records.get(i).value();
                if (input.vector != null && input.vector.mapping() == mapping) {
                    assertArrayEquals(input.vector.bytes(), value, input.vector::toString);
                }
                assertEquals(input.value, deserializer.deserialize("t", value), "record " + i);
                if (header) {
                    Header n = records.get(i).headers().lastHeader("n");
                    assertNotNull(n, "the header converter wrote header n");
                    assertArrayEquals(value, n.value(), "header n of record " + i);
                }
            }
        }
    }

    private static void checkInts(List<ConsumerRecord<byte[], byte[]>> records) {
        try (Deserializer<Integer> deserializer = Bijou64Serdes.Integer().deserializer()) {
            for (int i = 0; i < INTS.size(); i++) {
                Input input = INTS.get(i);
                byte[] value = records.get(i).value();
                if (input.vector != null && input.vector.mapping() == Mapping.UNSIGNED) {
                    assertArrayEquals(input.vector.bytes(), value, input.vector::toString);
                }
                assertEquals((int) input.value, deserializer.deserialize("t", value), "record " + i);
            }
        }
    }

    private static Map<String, String> source(
            String name, Path file, String topic, String castTo, Map<String, String> converters) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("name", name);
        config.put("connector.class", FILE_SOURCE);
        config.put("tasks.max", "1");
        config.put("file", file.toString());
        config.put("topic", topic);
        // Above the file's line count: FileStreamSourceTask keeps the lines it has read beyond a full batch in its
        // buffer until the file grows, so a batch limit the file crosses could leave its last lines unsent.
        config.put("batch.size", "1000000");
        config.put("transforms", "cast");
        config.put("transforms.cast.type", "org.apache.kafka.connect.transforms.Cast$Value");
        config.put("transforms.cast.spec", castTo);
        config.putAll(converters);
        return config;
    }

    /** The value, once cast, also copied into the header {@code n} (Kafka's transforms only). */
    private static Map<String, String> withHeader(Map<String, String> converters) {
        Map<String, String> config = new LinkedHashMap<>(converters);
        config.put("transforms", "cast,hoist,header,unhoist");
        config.put("transforms.hoist.type", "org.apache.kafka.connect.transforms.HoistField$Value");
        config.put("transforms.hoist.field", "n");
        config.put("transforms.header.type", "org.apache.kafka.connect.transforms.HeaderFrom$Value");
        config.put("transforms.header.fields", "n");
        config.put("transforms.header.headers", "n");
        config.put("transforms.header.operation", "copy");
        config.put("transforms.unhoist.type", "org.apache.kafka.connect.transforms.ExtractField$Value");
        config.put("transforms.unhoist.field", "n");
        return config;
    }

    private static Map<String, String> sink(String name, String topic, Path file, Map<String, String> converters) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("name", name);
        config.put("connector.class", FILE_SINK);
        config.put("tasks.max", "1");
        config.put("topics", topic);
        config.put("file", file.toString());
        config.putAll(converters);
        return config;
    }

    /** Waits until FileStreamSink has written {@code count} lines, and returns them. */
    private static List<String> awaitLines(ConnectWorker worker, Path file, int count)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(PIPELINE_TIMEOUT);
        List<String> lines = List.of();
        while (Instant.now().isBefore(deadline)) {
            lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
            if (lines.size() >= count) {
                return lines;
            }
            Thread.sleep(250);
        }
        throw new AssertionError(file + " has " + lines.size() + " of " + count + " lines after "
                + PIPELINE_TIMEOUT.toSeconds() + " s; the worker's log ends:\n" + worker.logTail());
    }

    /** Reads a one-partition topic from the start until {@code count} records (then checks there is no more). */
    private static List<ConsumerRecord<byte[], byte[]>> drain(String topic, int count) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            Instant deadline = Instant.now().plus(PIPELINE_TIMEOUT);
            while (consumer.listTopics().get(topic) == null && Instant.now().isBefore(deadline)) {
                sleep(250);
            }
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (records.size() < count && Instant.now().isBefore(deadline)) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
            consumer.poll(Duration.ofSeconds(1)).forEach(records::add);
        }
        assertEquals(count, records.size(), "records in " + topic);
        return records;
    }

    private static long count(List<Input> inputs, String group) {
        return inputs.stream()
                .filter(input -> group.equals("all") || input.group.equals(group))
                .count();
    }

    /** The mean value size of the records whose inputs are in {@code group} ({@code all}: every record). */
    private static double meanBytes(List<ConsumerRecord<byte[], byte[]>> records, List<Input> inputs, String group) {
        long bytes = 0;
        long count = 0;
        for (int i = 0; i < inputs.size(); i++) {
            if (group.equals("all") || inputs.get(i).group.equals(group)) {
                bytes += records.get(i).value().length;
                count++;
            }
        }
        return (double) bytes / count;
    }

    private static List<String> lines(List<Input> inputs) {
        return inputs.stream().map(Input::line).collect(Collectors.toList());
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
