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
    /** A Java result whose measured passes ran at the given rates, 1,000 records each, 2 us CPU per record. */
    static RunResult javaResult(
            Mode mode,
            String compression,
            String implementation,
            double valueBytes,
            boolean verified,
            String problem,
            double... rates) {
        WorkerProtocol.PassReply[] passes = new WorkerProtocol.PassReply[rates.length];
        for (int i = 0; i < rates.length; i++) {
            passes[i] = new WorkerProtocol.PassReply(
                    Math.round(1000 / rates[i] * 1e9), 2_000_000, 1000, Math.round(valueBytes * 1000));
        }
        return RunResult.ofPasses(
                Distribution.SEQUENTIAL,
                mode,
                compression,
                implementation,
                1000,
                passes,
                valueBytes,
                valueBytes + 1.5,
                verified,
                problem);
    }

    @Test
    void parsesTheDocumentedExample() {
        Options o = Options.parse(
                "--ci",
                "--distribution",
                "sequential",
                "--rust-bench",
                "/x/streamfusion-bench",
                "50000",
                "2",
                "bijou64-benchmark-topic",
                "127.0.0.1:19092");
        assertTrue(o.ci());
        assertEquals(List.of(Distribution.SEQUENTIAL), o.distributions());
        assertEquals(List.of(Mode.values()), o.modes(), "the default modes are all six");
        assertEquals(List.of("none", "zstd"), o.compressions());
        assertEquals(50_000, o.messages());
        assertEquals(2, o.iterations());
        assertEquals("bijou64-benchmark-topic", o.topic());
        assertEquals("127.0.0.1:19092", o.bootstrap());
        assertFalse(o.keepTopics());
        assertEquals(2.0, o.minPassSeconds(), "long enough to measure by default");
        assertEquals(5, o.rounds(), "at least 5 rounds by default whatever ITERATIONS says");
        assertEquals(List.of(), o.workerJavaOptions());
    }

    @Test
    void aShortRunStaysShort() {
        Options o = Options.parse(
                "--min-pass-seconds",
                "0",
                "--min-rounds=1",
                "--worker-java-opts",
                " -Xms1g  -Xmx2g ",
                "--rust-bench=b",
                "2000",
                "1",
                "t",
                "b:1");
        assertEquals(0.0, o.minPassSeconds());
        assertEquals(1, o.rounds());
        assertEquals(List.of("-Xms1g", "-Xmx2g"), o.workerJavaOptions());
        assertEquals(7, Options.parse("--rust-bench=b", "1", "7", "t", "b:1").rounds(), "ITERATIONS above the floor");
        assertEquals(
                0.5,
                Options.parse("--min-pass-seconds=0.5", "--rust-bench=b", "1", "7", "t", "b:1")
                        .minPassSeconds());
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--min-pass-seconds=-1", "--rust-bench=b", "1", "1", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--min-pass-seconds=soon", "--rust-bench=b", "1", "1", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--min-rounds=0", "--rust-bench=b", "1", "1", "t", "b:1"));
    }

    @Test
    void acceptsListsAndInlineValues() {
        Options o = Options.parse(
                "--distribution=sequential,mixed",
                "--modes",
                "long,bijou-java",
                "--compression",
                "zstd",
                "--seed",
                "7",
                "--keep-topics",
                "--rust-bench=b",
                "10",
                "1",
                "t",
                "localhost:9092");
        assertEquals(List.of(Distribution.SEQUENTIAL, Distribution.MIXED), o.distributions());
        assertEquals(List.of(Mode.LONG, Mode.BIJOU_JAVA), o.modes());
        assertEquals(List.of("zstd"), o.compressions());
        assertEquals(7, o.seed());
        assertTrue(o.keepTopics());
    }

    @Test
    void rustModesComeWithTheStreamfusionBinary() {
        Options o =
                Options.parse("--rust-bench", "/x/streamfusion", "--stamp", "20260101T120000", "10", "1", "t", "b:1");
        assertEquals(Path.of("/x/streamfusion"), o.rustBench());
        assertEquals("20260101T120000", o.stamp());
        assertEquals(
                List.of(Mode.RUST_LONG, Mode.RUST_BIJOU),
                Options.parse("--rust-bench=s", "--modes", "rust-long,rust-bijou", "1", "1", "t", "b:1")
                        .modes());
        IllegalArgumentException noBinary = assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--modes", "long", "1", "1", "t", "b:1"),
                "no binary");
        assertTrue(
                noBinary.getMessage()
                        .startsWith("--rust-bench BIN is required: the streamfusion-bench binary"
                                + " generates the values"),
                noBinary.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--rust-bench=s", "--stamp", "yesterday", "1", "1", "t", "b:1"));
        assertTrue(
                Options.parse("--rust-bench=s", "1", "1", "t", "b:1").stamp().matches("\\d{8}T\\d{6}"),
                "default stamp");
    }

    /** A row as the Rust binary writes it: the schema's columns, by name. */
    private static String rustRow(
            String mode,
            String compression,
            String workload,
            String iterations,
            String median,
            String bytes,
            boolean verified) {
        return ResultsSchema.row()
                .set("benchmark", "bijou64-producer")
                .set("workload", workload)
                .set("mode", mode)
                .set("implementation", "RUST")
                .set("compression", compression)
                .set("records", 50_000)
                .set("iterations", Long.parseLong(iterations))
                .set("median_records_per_s", median.isEmpty() ? Double.NaN : Double.parseDouble(median))
                .set("value_bytes_per_record", bytes.isEmpty() ? Double.NaN : Double.parseDouble(bytes))
                .set("verified", verified)
                .csv();
    }

    @Test
    void rustRowsBecomeResults() {
        String header = ResultsSchema.header();
        RunResult r = RustBench.parse(
                header,
                rustRow("rust-bijou", "zstd", "mixed", "2", "1100000", "3.723", true),
                Distribution.MIXED,
                Mode.RUST_BIJOU,
                "zstd",
                0);
        assertTrue(r.verified());
        assertEquals(2, r.iterations());
        assertEquals(50_000, r.messages());
        assertEquals(1_100_000.0, r.median());
        assertEquals(3.723, r.avgPayloadBytes());
        assertEquals("RUST", r.implementation());
        assertEquals(0, r.rates().length, "the binary reports no per-round rates");
        assertTrue(Double.isNaN(r.brokerBytesPerRecord()), "measured by the coordinator afterwards");
        assertEquals(4.5, r.withBrokerBytesPerRecord(4.5).brokerBytesPerRecord());
        String failedRow = rustRow("rust-long", "none", "mixed", "0", "", "", false);
        RunResult failed = RustBench.parse(header, failedRow, Distribution.MIXED, Mode.RUST_LONG, "none", 3);
        assertFalse(failed.verified());
        assertTrue(Double.isNaN(failed.median()));
        assertThrows(
                IllegalArgumentException.class,
                () -> RustBench.parse(header, failedRow, Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", 0),
                "row of another run");
        assertThrows(
                IllegalArgumentException.class,
                () -> RustBench.parse(header, "{\"mode\":1}", Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", 0),
                "not a CSV row");
        assertThrows(
                IllegalArgumentException.class,
                () -> RustBench.parse(
                        "mode,compression,distribution", failedRow, Distribution.MIXED, Mode.RUST_LONG, "none", 0),
                "another header");
    }

    @Test
    void javaRowsUseTheSchemaAndTheirBaseline() {
        ResultTable table = new ResultTable();
        RunResult javaLong = javaResult(Mode.LONG, "none", "-", 8, true, null, 100);
        RunResult javaBijou =
                javaResult(Mode.BIJOU, "zstd", "NATIVE", 2.98512, false, "read 3 records, expected 4", 50, 70);
        table.add(javaLong);
        table.add(javaBijou);
        java.util.Map<String, String> row =
                ResultsSchema.parse(ResultsSchema.header(), table.row(javaBijou).csv());
        assertEquals("bijou64-producer", row.get("benchmark"));
        assertEquals("sequential", row.get("workload"));
        assertEquals("bijou", row.get("mode"));
        assertEquals("NATIVE", row.get("implementation"));
        assertEquals("zstd", row.get("compression"));
        assertEquals("1000", row.get("records"));
        assertEquals("2", row.get("iterations"));
        assertEquals("60", row.get("median_records_per_s"));
        assertEquals("50", row.get("min_records_per_s"));
        assertEquals("2.985", row.get("value_bytes_per_record"));
        assertEquals("4.485", row.get("broker_bytes_per_record"));
        assertEquals("2.000", row.get("cpu_us_per_record"));
        assertEquals("17.143", row.get("median_pass_seconds"), "median of 20 s and 14.286 s");
        assertEquals("", row.get("paired_ratio_median"), "no long run with zstd to pair with");
        assertEquals("false", row.get("verified"));
        assertEquals("long", row.get("baseline"));
        assertEquals("", row.get("ratio_vs_baseline"), "no long run with zstd");
        assertEquals("read 3 records, expected 4", row.get("problem"));
        assertEquals(
                "1.000",
                ResultsSchema.parse(ResultsSchema.header(), table.row(javaLong).csv())
                        .get("ratio_vs_baseline"));
    }

    @Test
    void ratiosUseTheSameClientsBaseline() {
        ResultTable table = new ResultTable();
        RunResult javaLong = javaResult(Mode.LONG, "none", "-", 8, true, null, 100);
        RunResult rustLong = javaResult(Mode.RUST_LONG, "none", "RUST", 8, true, null, 400);
        RunResult rustBijou = javaResult(Mode.RUST_BIJOU, "none", "RUST", 3, true, null, 500);
        RunResult javaBijou = javaResult(Mode.BIJOU, "none", "NATIVE", 3, true, null, 50);
        List.of(javaLong, rustLong, rustBijou, javaBijou).forEach(table::add);
        assertEquals(1.25, table.ratioVsLong(rustBijou), 1e-9);
        assertEquals(0.5, table.ratioVsLong(javaBijou), 1e-9);
        assertEquals(1.0, table.ratioVsLong(rustLong), 1e-9);
    }

    @Test
    void pairedRatiosCompareRoundByRound() {
        ResultTable table = new ResultTable();
        // long drifts down over the rounds; bijou is 2% faster in every round but slower than long's best round.
        RunResult javaLong = javaResult(Mode.LONG, "none", "-", 8, true, null, 100, 90, 80, 70, 60);
        RunResult javaBijou = javaResult(Mode.BIJOU_JAVA, "none", "JAVA", 3, true, null, 102, 91.8, 81.6, 71.4, 61.2);
        RunResult zigzag = javaResult(Mode.BIJOU_ZIGZAG, "none", "NATIVE", 3, true, null, 110, 85, 80, 72, 59);
        List.of(javaLong, javaBijou, zigzag).forEach(table::add);
        assertEquals(null, table.paired(javaLong), "no paired ratio for the baseline itself");
        PairedRatios bijou = table.paired(javaBijou);
        assertEquals(1.02, bijou.median(), 1e-6);
        assertEquals(1.02, bijou.min(), 1e-6);
        assertEquals(5, bijou.faster());
        assertEquals("faster", bijou.verdict());
        PairedRatios z = table.paired(zigzag);
        assertEquals(1.0, z.median(), 1e-9, "ratios 1.1, 0.944, 1.0, 1.029, 0.983");
        assertEquals(0.9444, z.min(), 1e-4);
        assertEquals(1.1, z.max(), 1e-9);
        assertEquals(2, z.faster());
        assertEquals(2, z.slower(), "the tied round counts as neither");
        assertEquals("equal within noise (paired ratios 0.94-1.10, median 1.00, 2 of 5 faster)", z.describe());
        java.util.Map<String, String> row =
                ResultsSchema.parse(ResultsSchema.header(), table.row(javaBijou).csv());
        assertEquals("1.020", row.get("paired_ratio_median"));
        assertEquals("5", row.get("paired_faster"));
        assertEquals("0", row.get("paired_slower"));
        assertEquals("faster", row.get("verdict"));
    }

    @Test
    void theVerdictNeedsEveryRoundAndFiveOfThem() {
        assertEquals(
                "slower",
                PairedRatios.of(new double[] {9, 9, 9, 9, 9}, new double[] {10, 10, 10, 10, 10})
                        .verdict());
        assertEquals(
                "too few rounds",
                PairedRatios.of(new double[] {20, 20, 20, 20}, new double[] {10, 10, 10, 10})
                        .verdict(),
                "4 rounds all faster are not yet a verdict");
        assertEquals(
                "equal within noise",
                PairedRatios.of(new double[] {20, 20, 20, 20, 10}, new double[] {10, 10, 10, 10, 10})
                        .verdict(),
                "one tied round");
        assertEquals(null, PairedRatios.of(new double[] {1, 2}, new double[] {1}), "a failed run has fewer rounds");
        assertEquals(null, PairedRatios.of(new double[0], new double[0]));
    }

    @Test
    void calibrationScalesTheShortfallWithAMargin() {
        assertEquals(50_000, Calibration.recordsFor(50_000, 2.5, 2), "long enough already");
        assertEquals(50_000, Calibration.recordsFor(50_000, 0.1, 0), "no minimum");
        // 50,000 records in 0.1 s need 20x for 2 s, 24x with the margin.
        assertEquals(1_200_000, Calibration.recordsFor(50_000, 0.1, 2));
        assertEquals(3_000, Calibration.recordsFor(2_000, 0.9, 1), "2,666.7 rounded up to whole thousands");
        assertEquals(Calibration.MAX_RECORDS, Calibration.recordsFor(1_000_000, 0.001, 2), "capped");
        assertEquals(Calibration.MAX_RECORDS, Calibration.recordsFor(Calibration.MAX_RECORDS, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> Calibration.recordsFor(0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> Calibration.recordsFor(10, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> Calibration.recordsFor(10, 1, -1));
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "50000", "2", "t"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "0", "2", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "10", "2", "bad topic", "b:1"));
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--rust-bench=s", "--distribution", "normal", "1", "1", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--rust-bench=s", "--compression", "brotli", "1", "1", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class,
                () -> Options.parse("--rust-bench=s", "--frobnicate", "1", "1", "t", "b:1"));
        assertThrows(
                IllegalArgumentException.class, () -> Options.parse("--rust-bench=s", "1", "1", "t", "b:1", "--seed"));
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, RunResult.median(new double[] {3, 1, 2}));
        assertEquals(2.5, RunResult.median(new double[] {4, 1, 3, 2}));
        assertTrue(Double.isNaN(RunResult.median(new double[0])));
    }
}
