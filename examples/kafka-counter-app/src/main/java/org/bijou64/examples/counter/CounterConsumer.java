package org.bijou64.examples.counter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Reads the counter updates back with the bijou deserializers and prints them.
 *
 * <pre>
 * key.deserializer=org.bijou64.perf.kafka.Bijou32Deserializer   (Bijou64Deserializer for Long ids)
 * value.deserializer=org.bijou64.perf.kafka.Bijou64Deserializer
 * </pre>
 *
 * <p>It reads the topic from the beginning (a fresh consumer group each run unless {@code --group-id} is
 * given; offsets are not committed) and stops after {@code --max-records} records or when nothing arrives
 * for {@code --idle-timeout-ms}.
 *
 * <pre>
 * usage: CounterConsumer [--bootstrap-servers HOST:PORT] [--topic T] [--key-type int|long]
 *                        [--max-records N] [--idle-timeout-ms MS] [--group-id G] [--use-java]
 * </pre>
 */
public final class CounterConsumer {
    private static final String USAGE = "usage: CounterConsumer [--bootstrap-servers HOST:PORT] [--topic T]"
            + " [--key-type int|long] [--max-records N] [--idle-timeout-ms MS] [--group-id G] [--use-java]";

    private CounterConsumer() {}

    /**
     * Reads counter updates from the beginning of {@code topic}.
     *
     * @param bootstrapServers Kafka bootstrap servers
     * @param topic the topic
     * @param keyType how the producer wrote the keys
     * @param groupId the consumer group
     * @param maxRecords stop after this many records; 0 for no limit
     * @param idleTimeout stop when no record arrives for this long
     * @param useJava use the pure-Java codec instead of the native library
     * @param onRecord called for every record read, e.g. to print it
     * @return the updates read, in partition order
     */
    public static List<CounterUpdate> consume(
            String bootstrapServers,
            String topic,
            KeyType keyType,
            String groupId,
            int maxRecords,
            Duration idleTimeout,
            boolean useJava,
            Consumer<ConsumerRecord<Number, Long>> onRecord) {
        Properties config = new Properties();
        config.put("bootstrap.servers", bootstrapServers);
        config.put("group.id", groupId);
        config.put("key.deserializer", keyType.deserializer());
        config.put("value.deserializer", "org.bijou64.perf.kafka.Bijou64Deserializer");
        config.put("bijou64.useJava", Boolean.toString(useJava));
        config.put("auto.offset.reset", "earliest");
        config.put("enable.auto.commit", "false");

        List<CounterUpdate> read = new ArrayList<>();
        try (KafkaConsumer<Number, Long> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long lastRecord = System.nanoTime();
            while (maxRecords == 0 || read.size() < maxRecords) {
                boolean any = false;
                for (ConsumerRecord<Number, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    any = true;
                    onRecord.accept(record);
                    read.add(new CounterUpdate(record.key(), record.value()));
                    if (read.size() == maxRecords) {
                        break;
                    }
                }
                if (any) {
                    lastRecord = System.nanoTime();
                } else if (System.nanoTime() - lastRecord > idleTimeout.toNanos()) {
                    break;
                }
            }
        }
        return read;
    }

    /** Runs the consumer; see the class comment for the arguments. */
    public static void main(String[] args) {
        String bootstrap;
        String topic;
        KeyType keyType;
        String groupId;
        int maxRecords;
        Duration idleTimeout;
        boolean useJava;
        try {
            Args parsed = Args.parse(
                    args,
                    Set.of(
                            "--bootstrap-servers",
                            "--topic",
                            "--key-type",
                            "--max-records",
                            "--idle-timeout-ms",
                            "--group-id"),
                    Set.of("--use-java"));
            bootstrap = parsed.get("--bootstrap-servers", CounterProducer.DEFAULT_BOOTSTRAP);
            topic = parsed.get("--topic", CounterProducer.DEFAULT_TOPIC);
            keyType = KeyType.parse(parsed.get("--key-type", "int"));
            groupId = parsed.get("--group-id", "kafka-counter-app-" + UUID.randomUUID());
            maxRecords = parsed.positiveInt("--max-records", 0);
            idleTimeout = Duration.ofMillis(parsed.positiveInt("--idle-timeout-ms", 10_000));
            useJava = parsed.flag("--use-java");
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        List<CounterUpdate> read = consume(
                bootstrap,
                topic,
                keyType,
                groupId,
                maxRecords,
                idleTimeout,
                useJava,
                record -> System.out.printf(
                        "key=%s value=%d (partition %d, offset %d; %d-byte key, %d-byte value)%n",
                        record.key(),
                        record.value(),
                        record.partition(),
                        record.offset(),
                        record.serializedKeySize(),
                        record.serializedValueSize()));
        System.out.println("read " + read.size() + " records from " + topic);
    }
}
