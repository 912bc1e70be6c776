package org.streamfusion.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.bijou64.NativeLibrary;
import org.bijou64.perf.common.ResultsSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.streamfusion.flink.RowDataJsonEncoder;

/**
 * The end-to-end comparison, short, against the broker at {@code kafka.bootstrap.servers} (by default the local
 * one of {@code kafka/broker start}, 127.0.0.1:19092): both modes produce Nexmark bids with the benchmark's
 * idempotent producer settings, and every record read back must equal Flink's serializer's bytes. Fails, never
 * skips, when no broker answers. {@link ReferenceBrokerTest} checks that the verification notices missing, duplicated,
 * reordered and altered records.
 */
@Timeout(180)
class ProducerComparisonBrokerTest {

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

    private static Options config(int rows, int batch) {
        return new Options(
                List.of("bid"),
                rows,
                batch,
                1,
                bootstrapServers,
                "streamfusion-compare-test",
                List.of("none"),
                List.of(Mode.values()),
                42,
                null,
                false,
                null);
    }

    private static List<RunResult> run(Options config) {
        String stamp = UUID.randomUUID().toString().substring(0, 8);
        List<RunResult> results = new ProducerComparison(config, admin, System.err, stamp).runAll();
        System.out.print(ResultTable.table(results));
        return results;
    }

    private static void assertAllVerified(List<RunResult> results, int rows) {
        assertEquals(2, results.size(), "one result per mode");
        for (RunResult r : results) {
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
        RunResult flink = results.get(0);
        RunResult nat = results.get(1);
        assertEquals(Mode.FLINK_PER_ROW, flink.mode());
        assertEquals(Mode.NATIVE_BATCH, nat.mode());
        // The same rows, byte-identical records: the same bytes per pass.
        assertEquals(flink.keyBytes(), nat.keyBytes());
        assertEquals(flink.valueBytes(), nat.valueBytes());
        assertTrue(ResultTable.table(results).contains("native-batch / flink-per-row:"));
    }

    @Test
    void bidBatchesOfFullSizeAndARemainderVerify() throws IOException {
        assertTrue(NativeLibrary.isLoaded(), "the native library must be loaded for native-batch");
        int rows = 20_000; // 4 batches of 4096 and one of 3616
        List<RunResult> results = run(config(rows, 4096));
        assertAllVerified(results, rows);
        assertEquals(5, results.get(1).nativeBatches());
        assertEquals(0, results.get(1).jvmBatches());

        // The CSV is in the one results schema, figures by name.
        Path csv = Files.createTempFile("streamfusion-compare", ".csv");
        try {
            ResultTable.writeCsv(csv, results);
            List<String> lines = Files.readAllLines(csv);
            assertEquals(3, lines.size(), "header and one row per mode");
            assertEquals(ResultsSchema.header(), lines.get(0));
            Map<String, String> nat = ResultsSchema.parse(lines.get(0), lines.get(2));
            assertEquals("json-producer", nat.get("benchmark"));
            assertEquals("native-batch", nat.get("mode"));
            assertEquals("NATIVE", nat.get("implementation"));
            assertEquals(String.valueOf(rows), nat.get("records"));
            assertEquals("4096", nat.get("batch_rows"));
            assertEquals("5", nat.get("native_batches_per_pass"));
            assertEquals(String.valueOf(results.get(1).expectedRecords()), nat.get("records_read"));
            assertEquals("0", nat.get("missing"));
            assertEquals("true", nat.get("verified"));
            assertEquals("flink-per-row", nat.get("baseline"));
            assertEquals(
                    String.format(
                            java.util.Locale.ROOT,
                            "%.3f",
                            (results.get(1).keyBytes() + results.get(1).valueBytes()) / (double) rows),
                    nat.get("bytes_per_record"));
            assertTrue(Double.parseDouble(nat.get("ratio_vs_baseline")) > 0, nat.toString());
            assertEquals("JAVA", ResultsSchema.parse(lines.get(0), lines.get(1)).get("implementation"));
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    @Test
    void aLastBatchBelowTheNativeThresholdTakesTheJvmPathAndVerifies() {
        assertTrue(NativeLibrary.isLoaded(), "the native library must be loaded for native-batch");
        int rows = 2 * 4096 + 10; // the last batch: 10 rows, under native.min-batch-rows
        assertTrue(10 < RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS);
        List<RunResult> results = run(config(rows, 4096));
        assertAllVerified(results, rows);
        assertEquals(2, results.get(1).nativeBatches());
        assertEquals(1, results.get(1).jvmBatches());
    }
}
