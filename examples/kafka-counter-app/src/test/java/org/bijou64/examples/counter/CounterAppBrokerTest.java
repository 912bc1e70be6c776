package org.bijou64.examples.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs {@link CounterProducer} and then {@link CounterConsumer} against the broker at the system property
 * {@code kafka.bootstrap.servers} (surefire sets it; default the local broker, {@code kafka/broker start})
 * and checks that exactly the updates sent are read back, in order, with bijou-sized records.
 */
class CounterAppBrokerTest {
    private static final String BOOTSTRAP =
            System.getProperty("kafka.bootstrap.servers", CounterProducer.DEFAULT_BOOTSTRAP);
    private static final int COUNT = 500;

    private static Admin admin;
    private static final List<String> topics = new ArrayList<>();

    @BeforeAll
    static void connect() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP));
        try {
            admin.describeCluster().clusterId().get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            fail(
                    "no Kafka broker at " + BOOTSTRAP + " (start the local one with kafka/broker start, or set"
                            + " -Dkafka.bootstrap.servers): " + e,
                    e);
        }
    }

    @AfterAll
    static void cleanUp() throws Exception {
        if (admin != null) {
            if (!topics.isEmpty()) {
                admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
            }
            admin.close();
        }
    }

    /** A fresh one-partition topic, so the order read back is the order sent. */
    private static String newTopic(String name) throws Exception {
        String topic = "counter-app-it-" + name + "-" + UUID.randomUUID();
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        topics.add(topic);
        return topic;
    }

    @ParameterizedTest(name = "keys {0}, useJava={1}")
    @CsvSource({"int, false", "long, false", "int, true"})
    void readsBackExactlyWhatWasSent(String keyTypeName, boolean useJava) throws Exception {
        KeyType keyType = KeyType.parse(keyTypeName);
        String topic = newTopic(keyTypeName + (useJava ? "-java" : ""));
        List<CounterUpdate> sent = CounterProducer.produce(BOOTSTRAP, topic, keyType, COUNT, 7, useJava);
        assertEquals(COUNT, sent.size(), "updates sent");

        List<ConsumerRecord<Number, Long>> records = new ArrayList<>();
        List<CounterUpdate> read = CounterConsumer.consume(
                BOOTSTRAP,
                topic,
                keyType,
                "it-" + UUID.randomUUID(),
                COUNT,
                Duration.ofSeconds(30),
                useJava,
                records::add);

        assertEquals(sent, read, "updates read back (key type and value, in order)");
        Class<?> expectedKeyClass = keyType == KeyType.INT ? Integer.class : Long.class;
        for (ConsumerRecord<Number, Long> record : records) {
            assertEquals(expectedKeyClass, record.key().getClass(), "key class at offset " + record.offset());
            assertEquals(1, record.serializedKeySize(), "ids 1..7 take one byte, offset " + record.offset());
            // counts up to ceil(500 / 7) = 72 fit bijou64's one-byte tier (0..247)
            assertEquals(1, record.serializedValueSize(), "small counts take one byte, offset " + record.offset());
        }
        assertTrue(read.contains(new CounterUpdate(keyType.key(7), 71)), "counter 7 reached 71");
    }
}
