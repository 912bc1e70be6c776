package org.bijou64.examples.counter;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends counter updates to Kafka with bijou64 values and bijou32 (or bijou64) keys.
 *
 * <p>The serializers are chosen the way any Kafka application chooses them, by class name in the producer
 * configuration:
 *
 * <pre>
 * key.serializer=org.bijou64.perf.kafka.Bijou32Serializer     (Integer ids; Bijou64Serializer for Long ids)
 * value.serializer=org.bijou64.perf.kafka.Bijou64Serializer
 * bijou64.implementation=auto                                 (default; native: JNI per record; java)
 * </pre>
 *
 * <p>Record i updates counter {@code i % counters + 1}; its value is that counter's new count (1, 2, 3, ...).
 * A small count takes one byte on the wire instead of Kafka's 8-byte {@code LongSerializer}.
 *
 * <pre>
 * usage: CounterProducer [--bootstrap-servers HOST:PORT] [--topic T] [--count N] [--counters K]
 *                        [--key-type int|long] [--use-java]
 * </pre>
 */
public final class CounterProducer {
    /** The local broker started by {@code kafka/broker start}. */
    public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:19092";
    /** The topic both programs use unless told otherwise. */
    public static final String DEFAULT_TOPIC = "bijou64-counters";

    private static final String USAGE = "usage: CounterProducer [--bootstrap-servers HOST:PORT] [--topic T]"
            + " [--count N] [--counters K] [--key-type int|long] [--use-java]";

    private CounterProducer() {}

    /**
     * Sends {@code count} counter updates and waits until Kafka acknowledged all of them.
     *
     * @param bootstrapServers Kafka bootstrap servers
     * @param topic the topic (created by the broker on first use if it allows that)
     * @param keyType Integer (bijou32) or Long (bijou64) counter ids
     * @param count how many updates to send
     * @param counters how many distinct counters (ids 1..counters)
     * @param useJava use the pure-Java codec instead of the native library
     * @return the updates sent, in send order
     * @throws ExecutionException if Kafka rejected a record
     */
    public static List<CounterUpdate> produce(
            String bootstrapServers, String topic, KeyType keyType, int count, int counters, boolean useJava)
            throws ExecutionException, InterruptedException {
        Properties config = new Properties();
        config.put("bootstrap.servers", bootstrapServers);
        config.put("key.serializer", keyType.serializer());
        config.put("value.serializer", "org.bijou64.perf.kafka.Bijou64Serializer");
        config.put("bijou64.useJava", Boolean.toString(useJava));
        config.put("acks", "all");

        List<CounterUpdate> sent = new ArrayList<>(count);
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        long[] totals = new long[Math.max(1, counters)];
        try (Producer<Number, Long> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < count; i++) {
                int id = i % totals.length;
                CounterUpdate update = new CounterUpdate(keyType.key(id + 1), ++totals[id]);
                acks.add(producer.send(new ProducerRecord<>(topic, update.id(), update.value())));
                sent.add(update);
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(); // throws if this record was not written
            }
        }
        return sent;
    }

    /** Runs the producer; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        String bootstrap;
        String topic;
        KeyType keyType;
        int count;
        int counters;
        boolean useJava;
        try {
            Args parsed = Args.parse(
                    args,
                    Set.of("--bootstrap-servers", "--topic", "--count", "--counters", "--key-type"),
                    Set.of("--use-java"));
            bootstrap = parsed.get("--bootstrap-servers", DEFAULT_BOOTSTRAP);
            topic = parsed.get("--topic", DEFAULT_TOPIC);
            keyType = KeyType.parse(parsed.get("--key-type", "int"));
            count = parsed.positiveInt("--count", 10);
            counters = parsed.positiveInt("--counters", 3);
            useJava = parsed.flag("--use-java");
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        List<CounterUpdate> sent = produce(bootstrap, topic, keyType, count, counters, useJava);
        for (CounterUpdate update : sent) {
            System.out.println("sent key=" + update.id() + " value=" + update.value());
        }
        System.out.println("sent " + sent.size() + " records to " + topic + " at " + bootstrap);
    }
}
