package org.streamfusion.examples;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Flink SQL job on a local MiniCluster (started by the program; no Flink installation) that writes a bounded
 * {@code datagen} table of bids to Kafka through {@code streamfusion-kafka} (or, with one word changed, Flink's
 * {@code kafka}), then reads the topic back and prints how many records the job wrote and a sample record.
 *
 * <p>Usage: {@code java -cp CLASSPATH org.streamfusion.examples.FlinkSqlKafkaJson [rows [topic [connector
 * [bootstrap-servers]]]]}, defaults 10000, {@code flink-sql-kafka-json}, {@code streamfusion-kafka},
 * {@code 127.0.0.1:19092}. Exits 1 when fewer records than rows were read back.
 */
public final class FlinkSqlKafkaJson {
    /** The DDL of the generated bids: {@code auction} is a sequence 1..rows, so every row is distinct. */
    static final String SOURCE_DDL = "CREATE TEMPORARY TABLE bids_gen (\n"
            + "  auction BIGINT,\n"
            + "  bidder  BIGINT,\n"
            + "  price   DECIMAL(10, 2),\n"
            + "  channel STRING,\n"
            + "  ts      TIMESTAMP(3)\n"
            + ") WITH (\n"
            + "  'connector' = 'datagen',\n"
            + "  'number-of-rows' = '%d',\n"
            + "  'fields.auction.kind' = 'sequence', 'fields.auction.start' = '1', 'fields.auction.end' = '%d',\n"
            + "  'fields.bidder.min' = '1', 'fields.bidder.max' = '1000',\n"
            + "  'fields.price.min' = '1', 'fields.price.max' = '10000',\n"
            + "  'fields.channel.length' = '8'\n"
            + ")";

    /** The DDL of the Kafka sink: the one line to change is {@code 'connector'}. */
    static final String SINK_DDL = "CREATE TEMPORARY TABLE bids (\n"
            + "  auction BIGINT,\n"
            + "  bidder  BIGINT,\n"
            + "  price   DECIMAL(10, 2),\n"
            + "  channel STRING,\n"
            + "  ts      TIMESTAMP(3)\n"
            + ") WITH (\n"
            + "  'connector' = '%s',\n"
            + "  'topic' = '%s',\n"
            + "  'properties.bootstrap.servers' = '%s',\n"
            + "  'key.format' = 'json',\n"
            + "  'key.fields' = 'auction',\n"
            + "  'value.format' = 'json',\n"
            + "  'sink.delivery-guarantee' = 'at-least-once'\n"
            + ")";

    private FlinkSqlKafkaJson() {}

    /**
     * What a run wrote.
     *
     * @param records records read back from the topic (from the end offsets before the job to the end)
     * @param sample the first of them as {@code key => value}, or null when none
     * @param jobMillis wall-clock milliseconds of the Flink job (cluster start and stop included)
     */
    public record Result(int records, String sample, long jobMillis) {}

    /**
     * Runs the job and reads back what it wrote.
     *
     * @param rows rows to generate, at least 1
     * @param topic the topic (created with 3 partitions if it does not exist)
     * @param connector {@code streamfusion-kafka}, or {@code kafka} for Flink's stock connector
     * @param bootstrapServers the Kafka cluster
     * @return the records read back
     * @throws Exception if the job fails (no restarts) or Kafka does not answer
     */
    public static Result run(int rows, String topic, String connector, String bootstrapServers) throws Exception {
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(adminProps)) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        Map<TopicPartition, Long> before = endOffsets(topic, bootstrapServers);

        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // A plain main() gets a local environment: a MiniCluster in this JVM, for the job's lifetime.
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(String.format(SOURCE_DDL, rows, rows));
        tEnv.executeSql(String.format(SINK_DDL, connector, topic, bootstrapServers));
        long start = System.nanoTime();
        tEnv.executeSql("INSERT INTO bids SELECT * FROM bids_gen").await(5, TimeUnit.MINUTES);
        long jobMillis = (System.nanoTime() - start) / 1_000_000;

        List<String> records = readFrom(topic, bootstrapServers, before);
        return new Result(records.size(), records.isEmpty() ? null : records.get(0), jobMillis);
    }

    private static Properties consumerProps(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    private static Map<TopicPartition, Long> endOffsets(String topic, String bootstrapServers) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(bootstrapServers))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            return consumer.endOffsets(partitions);
        }
    }

    /** The records after {@code from}, up to the end offsets now, as {@code key => value}. */
    private static List<String> readFrom(String topic, String bootstrapServers, Map<TopicPartition, Long> from) {
        List<String> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(bootstrapServers))) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            Map<TopicPartition, Long> end = consumer.endOffsets(from.keySet());
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (from.keySet().stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    records.add(text(r.key()) + " => " + text(r.value()));
                }
            }
        }
        return records;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Runs the job with the arguments described in the class comment and prints the result.
     *
     * @param args {@code [rows [topic [connector [bootstrap-servers]]]]}
     * @throws Exception if the job fails
     */
    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        String topic = args.length > 1 ? args[1] : "flink-sql-kafka-json";
        String connector = args.length > 2 ? args[2] : "streamfusion-kafka";
        String bootstrap = args.length > 3 ? args[3] : "127.0.0.1:19092";
        Result result = run(rows, topic, connector, bootstrap);
        System.out.printf(
                "'connector' = '%s': %d rows generated, %d records written to %s (job %d ms)%n",
                connector, rows, result.records(), topic, result.jobMillis());
        System.out.println("sample record: " + result.sample());
        if (result.records() < rows) {
            System.exit(1);
        }
    }
}
