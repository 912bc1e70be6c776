package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void parsesTheDocumentedExample() {
        Options o = Options.parse("--ci", "--distribution", "sequential", "50000", "2", "bijou64-benchmark-topic",
                "127.0.0.1:19092");
        assertTrue(o.ci());
        assertEquals(List.of(Distribution.SEQUENTIAL), o.distributions());
        assertEquals(List.of(Mode.values()), o.modes());
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
