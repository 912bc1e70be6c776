package org.streamfusion.perf.nexmark;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bijou64.perf.common.ProducerSettings;

/**
 * The Nexmark corpus on the broker: events {@code 0 .. N-1} of a {@link NexmarkGenerator} as
 * {@link NexmarkJson} records (null key) in a topic of P partitions, event {@code n} in partition
 * {@code n mod P} (so every partition advances through event time alike, and the content of each partition is
 * fixed by N, P, seed, base time and rate), record timestamps the producer's clock, written once by one idempotent producer with the benchmarks'
 * producer settings ({@link ProducerSettings}: 512 KiB batches, 20 ms linger, acks all).
 *
 * <p>{@link #ensure} writes the corpus only when the topic does not exist; a topic that already holds exactly
 * N records in P partitions, from offset 0, is reused as it is (the name carries every input, see
 * {@link #topicName}); any other existing topic is an error, never overwritten.
 *
 * <p>Usage: {@code java -cp ... org.streamfusion.perf.nexmark.Corpus [events [partitions [seed [bootstrap
 * [rate]]]]]}, defaults {@code 2000000 2 1 127.0.0.1:19092 10000000}; prints the topic name.
 */
public final class Corpus {
    private Corpus() {}

    /**
     * What fixes a corpus.
     *
     * @param events N, at least 1
     * @param partitions P, at least 1
     * @param seed the generator's seed
     * @param baseTimeMs event time of event 0, Unix milliseconds
     * @param rate events per second of event time
     */
    public record Spec(long events, int partitions, long seed, long baseTimeMs, long rate) {
        /** Checks the ranges; throws {@link IllegalArgumentException} for N or P below 1 or a rate below 1. */
        public Spec {
            if (events < 1 || partitions < 1 || rate < 1) {
                throw new IllegalArgumentException(
                        "events, partitions and rate must be at least 1: " + events + ", " + partitions + ", " + rate);
            }
        }

        /** A fresh generator of this corpus' events, from event 0. */
        public NexmarkGenerator generator() {
            return new NexmarkGenerator(seed, baseTimeMs, rate);
        }
    }

    /**
     * The topic name of a corpus, e.g. {@code nexmark-corpus-n2000000-p2-s1-r10000000-t1767225600000}: clearly
     * a reusable corpus, and two different corpora never share a name.
     */
    public static String topicName(Spec spec) {
        return "nexmark-corpus-n" + spec.events() + "-p" + spec.partitions() + "-s" + spec.seed() + "-r" + spec.rate()
                + "-t" + spec.baseTimeMs();
    }

    /**
     * Makes sure the corpus is on the broker: creates and fills {@link #topicName} when it is missing, reuses it
     * when it holds exactly the corpus' record count in its partition count.
     *
     * @return the topic name
     * @throws IllegalStateException when the topic exists with another partition count or record count (for
     *     example a write that was interrupted: delete the topic and run again)
     * @throws Exception when the broker cannot be reached or a send fails
     */
    public static String ensure(Admin admin, String bootstrap, Spec spec) throws Exception {
        String topic = topicName(spec);
        Long held = recordCount(admin, topic, spec.partitions());
        if (held != null) {
            if (held != spec.events()) {
                throw new IllegalStateException(topic + " holds " + held + " records, expected " + spec.events()
                        + ": an interrupted write? delete the topic and run again");
            }
            return topic;
        }
        admin.createTopics(List.of(new NewTopic(topic, spec.partitions(), (short) 1)))
                .all()
                .get(60, TimeUnit.SECONDS);
        long start = System.nanoTime();
        write(bootstrap, topic, spec);
        long written = recordCount(admin, topic, spec.partitions());
        if (written != spec.events()) {
            throw new IllegalStateException(
                    topic + " holds " + written + " records after the write, expected " + spec.events());
        }
        System.out.printf(
                "corpus %s: %,d events written in %.1f s%n", topic, spec.events(), (System.nanoTime() - start) / 1e9);
        return topic;
    }

    /**
     * The records in {@code topic} (sum over partitions of end offset minus start offset), or null when the
     * topic does not exist.
     *
     * @throws IllegalStateException when it has another partition count than {@code partitions}, or a partition
     *     does not start at offset 0
     */
    static Long recordCount(Admin admin, String topic, int partitions) throws Exception {
        TopicDescription description;
        try {
            description = admin.describeTopics(Set.of(topic))
                    .allTopicNames()
                    .get(60, TimeUnit.SECONDS)
                    .get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
        if (description.partitions().size() != partitions) {
            throw new IllegalStateException(
                    topic + " has " + description.partitions().size() + " partitions, expected " + partitions);
        }
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        long total = 0;
        var starts = admin.listOffsets(earliest).all().get(60, TimeUnit.SECONDS);
        var ends = admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS);
        for (var e : ends.entrySet()) {
            long from = starts.get(e.getKey()).offset();
            if (from != 0) {
                throw new IllegalStateException(e.getKey() + " starts at offset " + from + ", not 0");
            }
            total += e.getValue().offset();
        }
        return total;
    }

    private static void write(String bootstrap, String topic, Spec spec) throws Exception {
        Properties props = new Properties();
        props.putAll(ProducerSettings.get());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        AtomicReference<Exception> failure = new AtomicReference<>();
        NexmarkGenerator generator = spec.generator();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long n = 0; n < spec.events(); n++) {
                NexmarkGenerator.Event event = generator.next();
                byte[] value = NexmarkJson.toJson(event).getBytes(StandardCharsets.UTF_8);
                int partition = (int) (n % spec.partitions());
                // No record timestamp: the producer's clock. The event times (2026-01-01 by default) would put the
                // records past the topic's retention and let the broker delete the corpus.
                producer.send(new ProducerRecord<byte[], byte[]>(topic, partition, null, value), (m, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                if (failure.get() != null) {
                    break;
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /**
     * Writes (or finds) the corpus and prints its topic name.
     *
     * @param args {@code [events [partitions [seed [bootstrap [rate]]]]]}
     * @throws Exception as {@link #ensure}
     */
    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1L;
        String bootstrap = args.length > 3 ? args[3] : "127.0.0.1:19092";
        long rate = args.length > 4 ? Long.parseLong(args[4]) : NexmarkGenerator.DEFAULT_RATE;
        Spec spec = new Spec(events, partitions, seed, NexmarkGenerator.DEFAULT_BASE_TIME_MS, rate);
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(adminProps)) {
            System.out.println(ensure(admin, bootstrap, spec));
        }
    }
}
