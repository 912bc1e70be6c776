package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueGeneratorTest {
    /** 1 and -2 as the generator writes them: 8 big-endian bytes each (its own tests pin the same bytes). */
    private static final byte[] ONE_MINUS_TWO = {0, 0, 0, 0, 0, 0, 0, 1, -1, -1, -1, -1, -1, -1, -1, -2};

    @Test
    void readsBigEndianLongs() throws IOException {
        assertArrayEquals(new long[] {1, -2}, ValueGenerator.read(new ByteArrayInputStream(ONE_MINUS_TWO), 2));
    }

    @Test
    void refusesAShortALongOrATruncatedStream() {
        IOException shortStream =
                assertThrows(IOException.class, () -> ValueGenerator.read(new ByteArrayInputStream(ONE_MINUS_TWO), 3));
        assertEquals("the generator wrote 2 complete values, expected 3", shortStream.getMessage());
        IOException longStream =
                assertThrows(IOException.class, () -> ValueGenerator.read(new ByteArrayInputStream(ONE_MINUS_TWO), 1));
        assertEquals("the generator wrote more than the 1 values asked for", longStream.getMessage());
        byte[] truncated = java.util.Arrays.copyOf(ONE_MINUS_TWO, 12);
        IOException midValue =
                assertThrows(IOException.class, () -> ValueGenerator.read(new ByteArrayInputStream(truncated), 2));
        assertEquals("the generator wrote 1 complete values, expected 2", midValue.getMessage());
    }

    @Test
    void runsTheBinaryWithTheComparisonsArguments() {
        assertEquals(
                List.of(
                        "/x/streamfusion-bench",
                        "values",
                        "--distribution",
                        "mixed",
                        "--messages",
                        "50000",
                        "--seed",
                        "-7"),
                new ValueGenerator(Path.of("/x/streamfusion-bench")).command(Distribution.MIXED, 50_000, -7));
    }

    @Test
    void aMissingBinaryIsAnError() {
        IOException e = assertThrows(
                IOException.class,
                () -> new ValueGenerator(Path.of("/nonexistent/streamfusion-bench"))
                        .generate(Distribution.MIXED, 1, 1));
        assertTrue(e.getMessage().contains("/nonexistent/streamfusion-bench"), e.getMessage());
    }

    @Test
    void parsesCommandLineNames() {
        assertEquals(Distribution.MIXED, Distribution.parse("mixed"));
        assertEquals(Distribution.SEQUENTIAL, Distribution.parse(" Sequential "));
        assertThrows(IllegalArgumentException.class, () -> Distribution.parse("normal"));
    }
}
