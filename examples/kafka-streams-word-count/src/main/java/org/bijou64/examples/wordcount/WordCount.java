package org.bijou64.examples.wordcount;

import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.bijou64.perf.kafka.Bijou64Serdes;

/**
 * Kafka Streams' word count with bijou64 counts: lines from {@code --input} (String values), one count per word
 * in the {@code counts} store (its changelog topic) and on {@code --output}, both written by
 * {@link Bijou64Serdes#Long()} where the classic example uses {@code Serdes.Long()}. Runs until stopped
 * (Ctrl-C). Usage: {@code WordCount [--bootstrap-servers HOST:PORT] [--input TOPIC] [--output TOPIC]
 * [--application-id ID]}.
 */
public final class WordCount {
    private WordCount() {}

    /**
     * The topology: split lines on whitespace, lower-case, count per word.
     *
     * @param input the topic of lines
     * @param output the topic of (word, count) updates
     * @param counts the serde of the counts, in the store and on {@code output}
     * @return the topology
     */
    public static Topology topology(String input, String output, Serde<Long> counts) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(
                        line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                .filter((key, word) -> !word.isEmpty())
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(counts))
                .toStream()
                .to(output, Produced.with(Serdes.String(), counts));
        return builder.build();
    }

    /**
     * Runs the word count against a broker until the JVM is stopped.
     *
     * @param args see the class comment
     * @throws InterruptedException when interrupted while running
     */
    public static void main(String[] args) throws InterruptedException {
        String bootstrap = "127.0.0.1:19092";
        String input = "bijou64-lines";
        String output = "bijou64-word-counts";
        String appId = "bijou64-word-count";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--bootstrap-servers" -> bootstrap = args[i + 1];
                case "--input" -> input = args[i + 1];
                case "--output" -> output = args[i + 1];
                case "--application-id" -> appId = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // No record cache in front of the store: every update goes to the output (and the changelog) at once,
        // as in the README's measurement, instead of once per commit interval (30 s by default).
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        KafkaStreams streams = new KafkaStreams(topology(input, output, Bijou64Serdes.Long()), props);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            stopped.countDown();
        }));
        streams.start();
        System.out.println("word count running: " + input + " -> " + output + " (Ctrl-C to stop)");
        stopped.await();
    }
}
