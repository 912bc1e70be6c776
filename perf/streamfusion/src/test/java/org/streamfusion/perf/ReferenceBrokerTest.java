package org.streamfusion.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The read-back verification against the broker at {@code kafka.bootstrap.servers} (by default the local one of
 * {@code kafka/broker start}, 127.0.0.1:19092): it notices missing, duplicated, reordered and altered records.
 * Fails, never skips, when no broker answers.
 */
@Timeout(180)
class ReferenceBrokerTest {

    private static String bootstrapServers;
    private static Admin admin;

    @BeforeAll
    static void brokerAnswers() throws InterruptedException {
        bootstrapServers = TestBroker.bootstrapServers();
        admin = TestBroker.admin(bootstrapServers);
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    /** The checker itself: a topic with a row missing, one duplicated, one altered and two swapped. */
    @Test
    void verificationCountsMissingDuplicateReorderedAndAlteredRecords() throws Exception {
        int n = 20;
        List<RowData> rows = NexmarkRows.rows("bid", 7, 0, n);
        Reference reference = new Reference(NexmarkRows.BID, List.of("auction"), rows);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        // sent: 0 1 2 4 5 5 6 7' 9 8 10 ... 19   (3 missing, 5 twice, 7 altered, 8 and 9 swapped)
        order.remove(Integer.valueOf(3));
        order.add(order.indexOf(5), 5);
        int eight = order.indexOf(8);
        order.set(eight, 9);
        order.set(eight + 1, 8);

        String topic = "streamfusion-compare-test-checker-" + UUID.randomUUID();
        Topics.create(admin, topic);
        try {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                            ProducerConfig.ACKS_CONFIG, "all"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int row : order) {
                    byte[] value = reference.value(row);
                    if (row == 7) {
                        value = new String(value, StandardCharsets.UTF_8)
                                .replace("\"auction\":", "\"auction\": ")
                                .getBytes(StandardCharsets.UTF_8);
                    }
                    producer.send(new ProducerRecord<>(topic, reference.key(row), value))
                            .get();
                }
            }
            Reference.Verification check = reference.verify(admin, bootstrapServers, topic, "checker", 1);
            assertEquals(n, check.read());
            assertEquals(2, check.missing(), "row 3 and the altered row 7");
            assertEquals(1, check.duplicates(), "row 5");
            assertEquals(1, check.mismatches(), "row 7");
            assertEquals(4, check.outOfOrder(), "4 and 5 one place early, 9 and 8 swapped");
            assertNotNull(check.problem());
            assertTrue(check.problem().contains("holds row 4, expected row 3"), check.problem());

            // Expecting two passes: every row once short, rows 3 and 7 twice, row 5 (read twice) complete.
            Reference.Verification twice = reference.verify(admin, bootstrapServers, topic, "checker", 2);
            assertEquals(n, twice.read());
            assertEquals((n - 3) + 2 + 2, twice.missing());
            assertEquals(0, twice.duplicates());
            assertNotNull(twice.problem());
        } finally {
            Topics.delete(admin, topic, System.err);
        }
    }
}
