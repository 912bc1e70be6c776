package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.bijou64.perf.common.ResultsSchema;
import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void parsesTheDocumentedExample() {
        Options o = Options.parse("--ci", "--distribution", "sequential", "--rust-bench", "/x/streamfusion-bench",
                "50000", "2", "bijou64-benchmark-topic", "127.0.0.1:19092");
        assertTrue(o.ci());
        assertEquals(List.of(Distribution.SEQUENTIAL), o.distributions());
        assertEquals(List.of(Mode.values()), o.modes(), "the default modes are all six");
        assertEquals(List.of("none", "zstd"), o.compressions());
        assertEquals(50_000, o.messages());
        assertEquals(2, o.iterations());
        assertEquals("bijou64-benchmark-topic", o.topic());
        assertEquals("127.0.0.1:19092", o.bootstrap());
        assertFalse(o.keepTopics());
    }

    @Test
    void acceptsListsAndInlineValues() {
        Options o = Options.parse("--distribution=sequential,mixed", "--modes", "long,bijou-java", "--compression",
                "zstd", "--seed", "7", "--keep-topics", "--rust-bench=b", "10", "1", "t", "localhost:9092");
        assertEquals(List.of(Distribution.SEQUENTIAL, Distribution.MIXED), o.distributions());
        assertEquals(List.of(Mode.LONG, Mode.BIJOU_JAVA), o.modes());
        assertEquals(List.of("zstd"), o.compressions());
        assertEquals(7, o.seed());
        assertTrue(o.keepTopics());
    }

    @Test
    void rustModesComeWithTheStreamfusionBinary() {
        Options o = Options.parse("--rust-bench", "/x/streamfusion", "--stamp", "20260101T120000", "10", "1", "t",
                "b:1");
        assertEquals(Path.of("/x/streamfusion"), o.rustBench());
        assertEquals("20260101T120000", o.stamp());
        assertEquals(List.of(Mode.RUST_LONG, Mode.RUST_BIJOU),
                Options.parse("--rust-bench=s", "--modes", "rust-long,rust-bijou", "1", "1", "t", "b:1").modes());
        IllegalArgumentException noBinary = assertThrows(IllegalArgumentException.class,
                () -> Options.parse("--modes", "long", "1", "1", "t", "b:1"), "no binary");
        assertTrue(noBinary.getMessage().startsWith("--rust-bench BIN is required: the streamfusion-bench binary"
                + " generates the values"), noBinary.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Options.parse("--rust-bench=s", "--stamp", "yesterday", "1", "1", "t", "b:1"));
        assertTrue(Options.parse("--rust-bench=s", "1", "1", "t", "b:1").stamp().matches("\\d{8}T\\d{6}"),
                "default stamp");
    }

    /** A row as the Rust binary writes it: the schema's columns, by name. */
    private static String rustRow(String mode, String compression, String workload, String iterations, String median,
            String bytes, boolean verified) {
        return ResultsSchema.row().set("benchmark", "bijou64-producer").set("workload", workload).set("mode", mode)
                .set("implementation", "RUST").set("compression", compression).set("records", 50_000)
                .set("iterations", Long.parseLong(iterations))
                .set("median_records_per_s", median.isEmpty() ? Double.NaN : Double.parseDouble(median))
                .set("value_bytes_per_record", bytes.isEmpty() ? Double.NaN : Double.parseDouble(bytes))
                .set("verified", verified).csv();
    }

    @Test
    void rustRowsBecomeResults() {
        String header = ResultsSchema.header();
        RunResult r = RustBench.parse(header, rustRow("rust-bijou", "zstd", "mixed", "2", "1100000", "3.723", true),
                Distribution.MIXED, Mode.RUST_BIJOU, "zstd", 0);
        assertTrue(r.verified());
        assertEquals(2, r.iterations());
        assertEquals(50_000, r.messages());
        assertEquals(1_100_000.0, r.median());
        assertEquals(3.723, r.avgPayloadBytes());
        assertEquals("RUST", r.implementation());
        String failedRow = rustRow("rust-long", "none", "mixed", "0", "", "", false);
        RunResult failed = RustBench.parse(header, failedRow, Distribution.MIXED, Mode.RUST_LONG, "none", 3);
        assertFalse(failed.verified());
        assertTrue(Double.isNaN(failed.median()));
        assertThrows(IllegalArgumentException.class, () -> RustBench.parse(header, failedRow,
                Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", 0), "row of another run");
        assertThrows(IllegalArgumentException.class, () -> RustBench.parse(header, "{\"mode\":1}",
                Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", 0), "not a CSV row");
        assertThrows(IllegalArgumentException.class, () -> RustBench.parse("mode,compression,distribution",
                failedRow, Distribution.MIXED, Mode.RUST_LONG, "none", 0), "another header");
    }

    @Test
    void javaRowsUseTheSchemaAndTheirBaseline() {
        ResultTable table = new ResultTable();
        RunResult javaLong = RunResult.of(Distribution.SEQUENTIAL, Mode.LONG, "none", "-", 10, new double[] {100},
                8, true, null);
        RunResult javaBijou = RunResult.of(Distribution.SEQUENTIAL, Mode.BIJOU, "zstd", "NATIVE", 10,
                new double[] {50, 70}, 2.98512, false, "read 3 records, expected 4");
        table.add(javaLong);
        table.add(javaBijou);
        java.util.Map<String, String> row = ResultsSchema.parse(ResultsSchema.header(), table.row(javaBijou).csv());
        assertEquals("bijou64-producer", row.get("benchmark"));
        assertEquals("sequential", row.get("workload"));
        assertEquals("bijou", row.get("mode"));
        assertEquals("NATIVE", row.get("implementation"));
        assertEquals("zstd", row.get("compression"));
        assertEquals("10", row.get("records"));
        assertEquals("2", row.get("iterations"));
        assertEquals("60", row.get("median_records_per_s"));
        assertEquals("50", row.get("min_records_per_s"));
        assertEquals("2.985", row.get("value_bytes_per_record"));
        assertEquals("false", row.get("verified"));
        assertEquals("long", row.get("baseline"));
        assertEquals("", row.get("ratio_vs_baseline"), "no long run with zstd");
        assertEquals("read 3 records, expected 4", row.get("problem"));
        assertEquals("1.000", ResultsSchema.parse(ResultsSchema.header(), table.row(javaLong).csv())
                .get("ratio_vs_baseline"));
    }

    @Test
    void ratiosUseTheSameClientsBaseline() {
        ResultTable table = new ResultTable();
        RunResult javaLong = RunResult.of(Distribution.SEQUENTIAL, Mode.LONG, "none", "-", 10, new double[] {100},
                8, true, null);
        RunResult rustLong = RunResult.of(Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", "RUST", 10,
                new double[] {400}, 8, true, null);
        RunResult rustBijou = RunResult.of(Distribution.SEQUENTIAL, Mode.RUST_BIJOU, "none", "RUST", 10,
                new double[] {500}, 3, true, null);
        RunResult javaBijou = RunResult.of(Distribution.SEQUENTIAL, Mode.BIJOU, "none", "NATIVE", 10,
                new double[] {50}, 3, true, null);
        List.of(javaLong, rustLong, rustBijou, javaBijou).forEach(table::add);
        assertEquals(1.25, table.ratioVsLong(rustBijou), 1e-9);
        assertEquals(0.5, table.ratioVsLong(javaBijou), 1e-9);
        assertEquals(1.0, table.ratioVsLong(rustLong), 1e-9);
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "50000", "2", "t"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "0", "2", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "10", "2", "bad topic", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "--distribution", "normal", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "--compression", "brotli", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "--frobnicate", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "1", "1", "t", "b:1", "--seed"));
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, RunResult.median(new double[] {3, 1, 2}));
        assertEquals(2.5, RunResult.median(new double[] {4, 1, 3, 2}));
        assertTrue(Double.isNaN(RunResult.median(new double[0])));
    }
}
