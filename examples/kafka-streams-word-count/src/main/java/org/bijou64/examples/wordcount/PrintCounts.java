package org.bijou64.examples.wordcount;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.bijou64.perf.kafka.Bijou64Deserializer;

/**
 * Reads the word counts that {@link WordCount} writes, with {@link Bijou64Deserializer} for the values, and prints
 * each update with its value's size. Reads from the beginning (a fresh consumer group, no offsets committed) and
 * stops after {@code --max-records} updates or when nothing arrives for {@code --idle-timeout-ms}. Usage:
 * {@code PrintCounts [--bootstrap-servers HOST:PORT] [--topic TOPIC] [--max-records N] [--idle-timeout-ms MS]}.
 */
public final class PrintCounts {
    private PrintCounts() {}

    /**
     * Prints the updates on the counts topic.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) {
        String bootstrap = "127.0.0.1:19092";
        String topic = "bijou64-word-counts";
        int maxRecords = 0;
        long idleTimeoutMs = 10_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--bootstrap-servers" -> bootstrap = args[i + 1];
                case "--topic" -> topic = args[i + 1];
                case "--max-records" -> maxRecords = Integer.parseInt(args[i + 1]);
                case "--idle-timeout-ms" -> idleTimeoutMs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Properties config = new Properties();
        config.put("bootstrap.servers", bootstrap);
        config.put("group.id", "bijou64-print-counts-" + UUID.randomUUID());
        config.put("auto.offset.reset", "earliest");
        config.put("enable.auto.commit", "false");
        config.put("key.deserializer", StringDeserializer.class.getName());
        config.put("value.deserializer", Bijou64Deserializer.class.getName());
        int read = 0;
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long lastRecord = System.nanoTime();
            while (maxRecords == 0 || read < maxRecords) {
                boolean any = false;
                for (ConsumerRecord<String, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    any = true;
                    read++;
                    System.out.printf(
                            "%s=%d (%d-byte value)%n", record.key(), record.value(), record.serializedValueSize());
                }
                if (any) {
                    lastRecord = System.nanoTime();
                } else if (System.nanoTime() - lastRecord
                        > Duration.ofMillis(idleTimeoutMs).toNanos()) {
                    break;
                }
            }
        }
        System.out.println("read " + read + " count updates from " + topic);
    }
}
