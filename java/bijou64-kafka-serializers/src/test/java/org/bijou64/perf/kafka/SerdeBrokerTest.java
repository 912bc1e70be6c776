package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.Implementation;
import org.bijou64.Implementations;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The serdes against the real local broker ({@code kafka/broker start}; address from the system property
 * {@code kafka.bootstrap.servers}): configured by class name exactly as a user would.
 */
class SerdeBrokerTest {
    private static final long[] VALUES = {
        1, 2, 247, 248, 503, 504, 66_039, 66_040, 1_700_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE, -1, 0
    };

    static List<Implementation> implementations() {
        return Implementations.all();
    }

    private static String bootstrap() {
        return System.getProperty("kafka.bootstrap.servers", "127.0.0.1:19092");
    }

    private static <V> void produce(
            String topic, Class<? extends Serializer<V>> serializer, Map<String, Object> extra, List<V> values)
            throws Exception {
        Map<String, Object> configs = new HashMap<>(extra);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, Bijou64Serializer.class.getName());
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, serializer.getName());
        configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        try (KafkaProducer<Long, V> producer = new KafkaProducer<>(configs)) {
            long key = 0;
            for (V value : values) {
                producer.send(new ProducerRecord<>(topic, key++, value)).get();
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new AssertionError("no broker at " + bootstrap() + ": run `kafka/broker start`", e);
        }
    }

    private static KafkaConsumer<Long, Long> consumer(String topic, Map<String, Object> extra) {
        Properties props = new Properties();
        props.putAll(extra);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "bijou64-test-" + UUID.randomUUID());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, Bijou64Deserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, Bijou64Deserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        KafkaConsumer<Long, Long> consumer = new KafkaConsumer<>(props);
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        consumer.seekToBeginning(consumer.assignment());
        return consumer;
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void valuesAndTombstonesRoundTrip(Implementation impl) throws Exception {
        String topic = "bijou64-serde-" + impl.name().toLowerCase() + "-" + UUID.randomUUID();
        Map<String, Object> configs =
                new java.util.HashMap<>(SerdeVectorsTest.configs(impl, org.bijou64.Mapping.ZIGZAG));
        List<Long> sent = new ArrayList<>();
        Arrays.stream(VALUES).forEach(sent::add);
        sent.add(null); // a tombstone
        produce(topic, Bijou64Serializer.class, configs, sent);

        List<Long> keys = new ArrayList<>();
        List<Long> received = new ArrayList<>();
        try (KafkaConsumer<Long, Long> consumer = consumer(topic, configs)) {
            long deadline = System.currentTimeMillis() + 30_000;
            while (received.size() < sent.size() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<Long, Long> record : consumer.poll(Duration.ofMillis(200))) {
                    keys.add(record.key());
                    received.add(record.value());
                }
            }
        }
        assertEquals(sent, received);
        assertEquals(13, keys.get(13));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void aTopicWrittenByLongSerializerFailsClearly(Implementation impl) throws Exception {
        String topic = "bijou64-wrong-serde-" + UUID.randomUUID();
        produce(topic, LongSerializer.class, Map.of(), List.of(42L, 1_700_000_000_000L));
        try (KafkaConsumer<Long, Long> consumer =
                consumer(topic, SerdeVectorsTest.configs(impl, org.bijou64.Mapping.UNSIGNED))) {
            RecordDeserializationException e = assertThrows(RecordDeserializationException.class, () -> {
                long deadline = System.currentTimeMillis() + 30_000;
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(200));
                }
            });
            assertEquals(0, e.offset());
            SerializationException cause = assertInstanceOf(SerializationException.class, e.getCause());
            assertTrue(
                    cause.getMessage()
                            .contains("from topic '" + topic + "': 8 bytes [00 00 00 00 00 00 00 2a]: "
                                    + "trailing bytes"),
                    cause::getMessage);
        }
    }
}
