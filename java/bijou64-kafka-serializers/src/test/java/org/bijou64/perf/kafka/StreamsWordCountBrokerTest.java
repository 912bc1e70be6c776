package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kafka Streams on the real local broker ({@code kafka/broker start}; address from the system property
 * {@code kafka.bootstrap.servers}): the same word count, counted with {@code Serdes.Long()} and with
 * {@link Bijou64Serdes#Long()}, gives the counts computed here from the input, and the broker stores fewer bytes
 * for the bijou64 output and changelog topics (partition sizes from {@code Admin.describeLogDirs}, record and
 * batch framing included). A bad record reaches the application's {@code deserialization.exception.handler} as
 * the serde's {@link SerializationException}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamsWordCountBrokerTest {
    /** Zipf-like words over a vocabulary of {@value #VOCABULARY}: a few words count into the hundreds. */
    private static final int VOCABULARY = 400;

    private static final int LINES = 2_000;
    private static final int WORDS_PER_LINE = 10;

    private static Admin admin;
    private static String input;
    private static Map<String, Long> expected;

    private static String bootstrap() {
        return System.getProperty("kafka.bootstrap.servers", "127.0.0.1:19092");
    }

    /** The sizes the broker reports for one run's topics. */
    record Run(Map<String, Long> counts, long outputRecords, long outputBytes, long changelogBytes) {
        double outputBytesPerRecord() {
            return (double) outputBytes / outputRecords;
        }

        double changelogBytesPerRecord() {
            return (double) changelogBytes / outputRecords;
        }
    }

    @BeforeAll
    static void writeTheInput() throws Exception {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        input = "bijou64-wordcount-input-" + UUID.randomUUID();
        createTopic(input);
        SplittableRandom random = new SplittableRandom(64);
        double[] cumulative = new double[VOCABULARY];
        double total = 0;
        for (int i = 0; i < VOCABULARY; i++) {
            total += 1.0 / (i + 1);
            cumulative[i] = total;
        }
        expected = new HashMap<>();
        Map<String, Object> configs = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(configs, new StringSerializer(), new StringSerializer())) {
            for (int line = 0; line < LINES; line++) {
                List<String> words = new ArrayList<>();
                for (int w = 0; w < WORDS_PER_LINE; w++) {
                    int at = Arrays.binarySearch(cumulative, random.nextDouble(total));
                    String word = "w" + (at < 0 ? -at - 1 : at);
                    words.add(word);
                    expected.merge(word, 1L, Long::sum);
                }
                producer.send(new ProducerRecord<>(input, String.join(" ", words)));
            }
            producer.flush();
        }
        assertTrue(expected.values().stream().anyMatch(c -> c > 503), "some count needs three bijou64 bytes");
    }

    @AfterAll
    static void close() {
        if (admin != null) {
            admin.deleteTopics(List.of(input));
            admin.close();
        }
    }

    private static void createTopic(String name) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    private static Properties streamsProps(String appId, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // Every update is forwarded and logged: the output and the changelog hold one record per word read.
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return props;
    }

    /** Counts the input's words with {@code countSerde} for the store and the output topic. */
    private static Run wordCount(String label, Serde<Long> countSerde) throws Exception {
        String appId = "bijou64-wordcount-" + label + "-" + UUID.randomUUID();
        String output = appId + "-output";
        createTopic(output);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(countSerde))
                .toStream()
                .to(output, Produced.with(Serdes.String(), countSerde));
        Path stateDir = Files.createTempDirectory("bijou64-streams");
        long words = (long) LINES * WORDS_PER_LINE;
        Map<String, Long> counts = new HashMap<>();
        try (KafkaStreams streams = new KafkaStreams(builder.build(), streamsProps(appId, stateDir))) {
            streams.start();
            counts.putAll(readCounts(output, countSerde, words));
            streams.close(Duration.ofSeconds(30));
            streams.cleanUp();
        }
        String changelog = appId + "-counts-changelog";
        Map<String, Long> sizes = partitionSizes();
        Run run = new Run(counts, words, sizes.getOrDefault(output, -1L), sizes.getOrDefault(changelog, -1L));
        admin.deleteTopics(List.of(output, changelog, appId + "-counts-repartition"));
        return run;
    }

    /** The last count per word of the first {@code records} output records. */
    private static Map<String, Long> readCounts(String topic, Serde<Long> serde, long records) {
        Map<String, Object> configs = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "bijou64-wordcount-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        Map<String, Long> last = new LinkedHashMap<>();
        long read = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (KafkaConsumer<String, Long> consumer =
                new KafkaConsumer<>(configs, new StringDeserializer(), serde.deserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            while (read < records && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(500))) {
                    last.put(record.key(), record.value());
                    read++;
                }
            }
        }
        assertEquals(records, read, "output records of " + topic);
        return last;
    }

    /** Bytes of every partition's log, summed per topic, as the broker reports them. */
    private static Map<String, Long> partitionSizes() throws Exception {
        List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                .map(Node::id)
                .toList();
        Map<String, Long> sizes = new HashMap<>();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers)
                .allDescriptions()
                .get(30, TimeUnit.SECONDS)
                .values()) {
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> replica :
                        dir.replicaInfos().entrySet()) {
                    sizes.merge(replica.getKey().topic(), replica.getValue().size(), Long::sum);
                }
            }
        }
        return sizes;
    }

    @Test
    void bijou64CountsTheSameAndStoresLess() throws Exception {
        Run stock = wordCount("long", Serdes.Long());
        Run bijou = wordCount("bijou", Bijou64Serdes.Long());
        assertEquals(expected, stock.counts(), "Serdes.Long()");
        assertEquals(expected, bijou.counts(), "Bijou64Serdes.Long()");
        System.out.printf(
                Locale.ROOT,
                "word count, %d words, %d distinct: output %d -> %d bytes (%.2f -> %.2f per "
                        + "record, %.1f%% less), changelog %d -> %d bytes (%.2f -> %.2f per record, %.1f%% less)%n",
                stock.outputRecords(),
                expected.size(),
                stock.outputBytes(),
                bijou.outputBytes(),
                stock.outputBytesPerRecord(),
                bijou.outputBytesPerRecord(),
                100.0 * (1 - (double) bijou.outputBytes() / stock.outputBytes()),
                stock.changelogBytes(),
                bijou.changelogBytes(),
                stock.changelogBytesPerRecord(),
                bijou.changelogBytesPerRecord(),
                100.0 * (1 - (double) bijou.changelogBytes() / stock.changelogBytes()));
        assertTrue(stock.outputBytes() > 0 && stock.changelogBytes() > 0, "the broker reported both topics");
        // 8-byte counts against 1-3 bytes: at least 5 bytes per record fewer, framing included.
        assertTrue(
                stock.outputBytes() - bijou.outputBytes() >= 5L * stock.outputRecords(),
                stock.outputBytes() + " -> " + bijou.outputBytes());
        assertTrue(
                stock.changelogBytes() - bijou.changelogBytes() >= 5L * stock.outputRecords(),
                stock.changelogBytes() + " -> " + bijou.changelogBytes());
    }

    /** Records the exceptions Streams hands to the handler, then continues as its parent does. */
    public static final class RecordingHandler extends LogAndContinueExceptionHandler {
        static final List<Exception> SEEN = new CopyOnWriteArrayList<>();

        /** Streams instantiates handlers reflectively. */
        public RecordingHandler() {}

        @Override
        public DeserializationExceptionHandler.Response handleError(
                ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
            SEEN.add(exception);
            return super.handleError(context, record, exception);
        }
    }

    @Test
    void aBadRecordReachesTheDeserializationExceptionHandler() throws Exception {
        String appId = "bijou64-handler-" + UUID.randomUUID();
        String source = appId + "-in";
        String sink = appId + "-out";
        createTopic(source);
        createTopic(sink);
        Map<String, Object> configs = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                configs, new StringSerializer(), new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(source, "a", new byte[] {(byte) 0xf8, 0x00})); // 248
            producer.send(new ProducerRecord<>(source, "b", new LongSerializer().serialize(source, 42L)));
            producer.send(new ProducerRecord<>(source, "c", new byte[] {0x07})); // 7
            producer.flush();
        }
        RecordingHandler.SEEN.clear();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(source, Consumed.with(Serdes.String(), Bijou64Serdes.Long()))
                .mapValues(v -> v + 1)
                .to(sink, Produced.with(Serdes.String(), Bijou64Serdes.Long()));
        Properties props = streamsProps(appId, Files.createTempDirectory("bijou64-streams"));
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RecordingHandler.class.getName());
        Map<String, Long> out;
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.start();
            out = readCounts(sink, Bijou64Serdes.Long(), 2);
            streams.close(Duration.ofSeconds(30));
            streams.cleanUp();
        } finally {
            admin.deleteTopics(List.of(source, sink));
        }
        assertEquals(Map.of("a", 249L, "c", 8L), out, "the good records, each plus one");
        assertEquals(1, RecordingHandler.SEEN.size(), RecordingHandler.SEEN.toString());
        Exception seen = RecordingHandler.SEEN.get(0);
        assertTrue(seen instanceof SerializationException, seen.toString());
        assertTrue(
                seen.getMessage()
                        .startsWith("Error deserializing bijou64 Long from topic '" + source
                                + "': 8 bytes [00 00 00 00 00 00 00 2a]: "),
                seen.getMessage());
    }
}
