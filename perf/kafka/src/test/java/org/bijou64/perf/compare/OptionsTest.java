package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void parsesTheDocumentedExample() {
        Options o = Options.parse("--ci", "--distribution", "sequential", "50000", "2", "bijou64-benchmark-topic",
                "127.0.0.1:19092");
        assertTrue(o.ci());
        assertEquals(List.of(Distribution.SEQUENTIAL), o.distributions());
        assertEquals(Mode.javaModes(), o.modes(), "without --rust-bench the default modes are the Java ones");
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
                "zstd", "--seed", "7", "--keep-topics", "10", "1", "t", "localhost:9092");
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
        assertEquals(List.of(Mode.values()), o.modes(), "with --rust-bench the default modes are all six");
        assertEquals(Path.of("/x/streamfusion"), o.rustBench());
        assertEquals("20260101T120000", o.stamp());
        assertEquals(List.of(Mode.RUST_LONG, Mode.RUST_BIJOU),
                Options.parse("--rust-bench=s", "--modes", "rust-long,rust-bijou", "1", "1", "t", "b:1").modes());
        assertThrows(IllegalArgumentException.class,
                () -> Options.parse("--modes", "long,rust-bijou", "1", "1", "t", "b:1"),
                "a rust mode without the binary");
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--stamp", "yesterday", "1", "1", "t", "b:1"));
        assertTrue(Options.parse("1", "1", "t", "b:1").stamp().matches("\\d{8}T\\d{6}"), "default stamp");
    }

    @Test
    void rustRowsBecomeResults() {
        RunResult r = RustBench.parse("rust-bijou,zstd,mixed,50000,2,1100000,1000000,1200001,3.723,true,RUST,",
                Distribution.MIXED, Mode.RUST_BIJOU, "zstd", 0);
        assertTrue(r.verified());
        assertEquals(2, r.iterations());
        assertEquals(1_100_000.0, r.median());
        assertEquals(3.723, r.avgPayloadBytes());
        assertEquals("RUST", r.implementation());
        RunResult failed = RustBench.parse("rust-long,none,mixed,10,0,,,,,false,RUST,", Distribution.MIXED,
                Mode.RUST_LONG, "none", 3);
        assertFalse(failed.verified());
        assertTrue(Double.isNaN(failed.median()));
        assertThrows(IllegalArgumentException.class, () -> RustBench.parse("rust-long,none,mixed,10,0,,,,,false,RUST,",
                Distribution.SEQUENTIAL, Mode.RUST_LONG, "none", 0), "row of another run");
        assertThrows(IllegalArgumentException.class, () -> RustBench.parse("{\"mode\":1}", Distribution.SEQUENTIAL,
                Mode.RUST_LONG, "none", 0), "not a CSV row");
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
        assertThrows(IllegalArgumentException.class, () -> Options.parse("50000", "2", "t"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("0", "2", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("10", "2", "bad topic", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--distribution", "normal", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--compression", "brotli", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--frobnicate", "1", "1", "t", "b:1"));
        assertThrows(IllegalArgumentException.class, () -> Options.parse("1", "1", "t", "b:1", "--seed"));
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, RunResult.median(new double[] {3, 1, 2}));
        assertEquals(2.5, RunResult.median(new double[] {4, 1, 3, 2}));
        assertTrue(Double.isNaN(RunResult.median(new double[0])));
    }
}
