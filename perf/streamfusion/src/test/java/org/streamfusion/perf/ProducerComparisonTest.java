package org.streamfusion.perf;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.perf.ProducerComparison.Config;
import org.streamfusion.perf.ProducerComparison.Mode;
import org.streamfusion.perf.ProducerComparison.Result;
import org.streamfusion.perf.ProducerComparison.Verification;

/**
 * The end-to-end comparison, short, against the broker at {@code kafka.bootstrap.servers} (by default the local
 * one of {@code kafka/broker start}, 127.0.0.1:19092): both modes produce Nexmark bids with the benchmark's
 * idempotent producer settings, and every record read back must equal Flink's serializer's bytes. Also checks
 * that the verification notices missing, duplicated, reordered and altered records. Fails, never skips, when no
 * broker answers.
 */
@Timeout(180)
class ProducerComparisonTest {

    private static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:19092";

    private static String bootstrapServers;
    private static Admin admin;

    @BeforeAll
    static void brokerAnswers() throws InterruptedException {
        bootstrapServers = bootstrapServers();
        admin = ProducerComparison.admin(bootstrapServers);
        try {
            admin.describeCluster().clusterId().get(15, SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            admin.close(Duration.ZERO);
            admin = null;
            fail("No Kafka broker answers at " + bootstrapServers + " (system property kafka.bootstrap.servers). "
                    + "Start the local one with `kafka/broker start`, or point the tests at your own cluster with "
                    + "-Dkafka.bootstrap.servers=host:port.", e);
        }
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    private static String bootstrapServers() {
        String value = System.getProperty("kafka.bootstrap.servers");
        return value == null || value.isBlank() || value.startsWith("${") ? DEFAULT_BOOTSTRAP_SERVERS : value.trim();
    }

    private static Config config(int rows, int batch) {
        return new Config(List.of("bid"), rows, batch, 1, bootstrapServers, "streamfusion-compare-test", List.of("none"),
                List.of(Mode.values()), 42, null, false, null);
    }

    private static List<Result> run(Config config) {
        String stamp = UUID.randomUUID().toString().substring(0, 8);
        List<Result> results = new ProducerComparison(config, admin, System.err, stamp).runAll();
        System.out.print(ProducerComparison.table(results));
        return results;
    }

    private static void assertAllVerified(List<Result> results, int rows) {
        assertEquals(2, results.size(), "one result per mode");
        for (Result r : results) {
            String what = r.mode().cliName() + ": " + r.problem();
            assertEquals(2L * rows, r.expectedRecords(), what); // warm-up + 1 measured pass
            assertEquals(r.expectedRecords(), r.recordsRead(), what);
            assertEquals(0, r.missing(), what);
            assertEquals(0, r.duplicates(), what);
            assertEquals(0, r.outOfOrder(), what);
            assertEquals(0, r.mismatches(), what);
            assertTrue(r.verified(), what);
            assertEquals(1, r.rates().length, what);
            assertTrue(r.medianRate() > 0 && r.medianEncodeRate() > 0, what);
        }
        Result flink = results.get(0);
        Result nat = results.get(1);
        assertEquals(Mode.FLINK_PER_ROW, flink.mode());
        assertEquals(Mode.NATIVE_BATCH, nat.mode());
        // The same rows, byte-identical records: the same bytes per pass.
        assertEquals(flink.keyBytes(), nat.keyBytes());
        assertEquals(flink.valueBytes(), nat.valueBytes());
        assertTrue(ProducerComparison.table(results).contains("native-batch / flink-per-row:"));
    }

    @Test
    void bidBatchesOfFullSizeAndARemainderVerify() {
        assertTrue(NativeLibrary.isLoaded(), "the native library must be loaded for native-batch");
        int rows = 20_000; // 4 batches of 4096 and one of 3616
        List<Result> results = run(config(rows, 4096));
        assertAllVerified(results, rows);
        assertEquals(5, results.get(1).nativeBatches());
        assertEquals(0, results.get(1).jvmBatches());
    }

    @Test
    void aLastBatchBelowTheNativeThresholdTakesTheJvmPathAndVerifies() {
        assertTrue(NativeLibrary.isLoaded(), "the native library must be loaded for native-batch");
        int rows = 2 * 4096 + 10; // the last batch: 10 rows, under native.min-batch-rows
        assertTrue(10 < RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS);
        List<Result> results = run(config(rows, 4096));
        assertAllVerified(results, rows);
        assertEquals(2, results.get(1).nativeBatches());
        assertEquals(1, results.get(1).jvmBatches());
    }

    /** The checker itself: a topic with a row missing, one duplicated, one altered and two swapped. */
    @Test
    void verificationCountsMissingDuplicateReorderedAndAlteredRecords() throws Exception {
        int n = 20;
        List<RowData> rows = NexmarkRows.rows("bid", 7, 0, n);
        ProducerComparison.Reference reference =
                new ProducerComparison.Reference(NexmarkRows.BID, List.of("auction"), rows);
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

        ProducerComparison comparison = new ProducerComparison(config(n, 4096), admin, System.err, "checker");
        String topic = "streamfusion-compare-test-checker-" + UUID.randomUUID();
        comparison.createTopic(topic);
        try {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                    ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int row : order) {
                    byte[] value = reference.value(row);
                    if (row == 7) {
                        value = new String(value, StandardCharsets.UTF_8).replace("\"auction\":", "\"auction\": ")
                                .getBytes(StandardCharsets.UTF_8);
                    }
                    producer.send(new ProducerRecord<>(topic, reference.key(row), value)).get();
                }
            }
            Verification check = comparison.verify(topic, "checker", reference, 1);
            assertEquals(n, check.read());
            assertEquals(2, check.missing(), "row 3 and the altered row 7");
            assertEquals(1, check.duplicates(), "row 5");
            assertEquals(1, check.mismatches(), "row 7");
            assertEquals(4, check.outOfOrder(), "4 and 5 one place early, 9 and 8 swapped");
            assertNotNull(check.problem());
            assertTrue(check.problem().contains("holds row 4, expected row 3"), check.problem());

            // Expecting two passes: every row once short, rows 3 and 7 twice, row 5 (read twice) complete.
            Verification twice = comparison.verify(topic, "checker", reference, 2);
            assertEquals(n, twice.read());
            assertEquals((n - 3) + 2 + 2, twice.missing());
            assertEquals(0, twice.duplicates());
            assertNotNull(twice.problem());
        } finally {
            comparison.deleteTopic(topic);
        }
    }
}
