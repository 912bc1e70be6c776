package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DistributionTest {
    private static final long SEED = Distribution.DEFAULT_SEED;

    /**
     * OFFSET[t] of the format ({@code docs/format.md}), computed independently of {@link Distribution#TIER_EDGES}: OFFSET[0] = 0,
     * OFFSET[1] = 248, OFFSET[n] = OFFSET[n-1] + 256^(n-1).
     */
    private static final long[] OFFSET = new long[9];

    static {
        OFFSET[1] = 248;
        for (int t = 2; t <= 8; t++) {
            OFFSET[t] = OFFSET[t - 1] + (1L << (8 * (t - 1)));
        }
    }

    /** The bijou64 length of a long under the unsigned mapping: 1 + the tier (as unsigned 64-bit). */
    static int bijou64Length(long value) {
        for (int t = 8; t >= 1; t--) {
            if (Long.compareUnsigned(value, OFFSET[t]) >= 0) {
                return t + 1;
            }
        }
        return 1;
    }

    static double meanBijou64Length(long[] values) {
        long total = 0;
        for (long v : values) {
            total += bijou64Length(v);
        }
        return (double) total / values.length;
    }

    @Nested
    class Sequential {
        @Test
        void yieldsExactlyOneToN() {
            long[] values = Distribution.SEQUENTIAL.generate(50_000, SEED);
            assertEquals(50_000, values.length);
            for (int i = 0; i < values.length; i++) {
                assertEquals(i + 1L, values[i], "sequential value at index " + i);
            }
        }

        @Test
        void averagesThePublished2985BytesForFiftyThousand() {
            double mean = meanBijou64Length(Distribution.SEQUENTIAL.generate(50_000, SEED));
            assertEquals("2.985", String.format(java.util.Locale.ROOT, "%.3f", mean), "mean bijou64 bytes of 1..50,000");
        }
    }

    @Nested
    class Boundary {
        @Test
        void tierEdgesAreTheFirstAndLastValueOfEveryTier() {
            List<Long> expected = new ArrayList<>();
            expected.add(0L);
            for (int t = 1; t <= 8; t++) {
                expected.add(OFFSET[t] - 1); // last of tier t-1
                expected.add(OFFSET[t]);     // first of tier t
            }
            expected.add(Long.MAX_VALUE);
            expected.add(Long.MIN_VALUE);
            expected.add(-1L);
            assertEquals(expected, Arrays.stream(Distribution.TIER_EDGES).boxed().toList(), "TIER_EDGES");
        }

        @Test
        void eachTierEdgeChangesTheEncodedLength() {
            long[] edges = Distribution.TIER_EDGES;
            for (int i = 1; i + 1 < 17; i += 2) {
                // edges[i] is the last value of a tier, edges[i + 1] the first of the next
                assertEquals(bijou64Length(edges[i]) + 1, bijou64Length(edges[i + 1]),
                        "length step between " + Long.toUnsignedString(edges[i]) + " and "
                                + Long.toUnsignedString(edges[i + 1]));
            }
            for (int length = 1; length <= 9; length++) {
                final int l = length;
                assertTrue(Arrays.stream(edges).anyMatch(v -> bijou64Length(v) == l), "some edge has length " + l);
            }
        }

        @Test
        void cyclesTheEdgesToN() {
            int n = Distribution.TIER_EDGES.length * 3 + 5;
            long[] values = Distribution.BOUNDARY.generate(n, SEED);
            assertEquals(n, values.length);
            for (int i = 0; i < n; i++) {
                assertEquals(Distribution.TIER_EDGES[i % Distribution.TIER_EDGES.length], values[i], "index " + i);
            }
            Set<Long> seen = new HashSet<>();
            Arrays.stream(Distribution.BOUNDARY.generate(Distribution.TIER_EDGES.length, SEED)).forEach(seen::add);
            for (long edge : Distribution.TIER_EDGES) {
                assertTrue(seen.contains(edge), "boundary covers " + Long.toUnsignedString(edge));
            }
        }

        /** Cross-check against the shared test vectors, when surefire points at them. */
        @Test
        void lengthsAgreeWithTheSharedVectors() throws IOException {
            String dir = System.getProperty("bijou64.vectors.dir");
            Path csv = dir == null ? null : Path.of(dir, "bijou.csv");
            assumeTrue(csv != null && Files.exists(csv), "shared vectors not found (bijou64.vectors.dir=" + dir + ")");
            int rows = 0;
            for (String line : Files.readAllLines(csv)) {
                String[] f = line.split(",");
                if (f.length == 3 && f[0].equals("bijou64")) {
                    long value = Long.parseUnsignedLong(f[1]);
                    assertEquals(f[2].length() / 2, bijou64Length(value), "vector " + line);
                    rows++;
                }
            }
            assertTrue(rows > 10, "found bijou64 rows in " + csv);
        }
    }

    @Nested
    class Mixed {
        private static final int N = 200_000;

        @Test
        void hasTheStatedProportions() {
            long[] values = Distribution.MIXED.generate(N, SEED);
            int small = 0;
            int medium = 0;
            int epoch = 0;
            for (long v : values) {
                if (v >= 0 && v < Distribution.SMALL_BOUND) {
                    small++;
                } else if (v >= Distribution.SMALL_BOUND && v < Distribution.MEDIUM_BOUND) {
                    medium++;
                } else if (v >= Distribution.EPOCH_MILLIS_LOW && v < Distribution.EPOCH_MILLIS_HIGH) {
                    epoch++;
                } else {
                    throw new AssertionError("value outside every bucket: " + v);
                }
            }
            // The 30% bucket [0, 10^7) puts 0.01% of its values below 1,000.
            assertEquals(0.50, (double) small / N, 0.005, "share below 1,000");
            assertEquals(0.30, (double) medium / N, 0.005, "share in [1,000, 10^7)");
            assertEquals(0.20, (double) epoch / N, 0.005, "share of epoch millis");
        }

        @Test
        void averagesAbout3Point72Bytes() {
            assertEquals(3.721, meanBijou64Length(Distribution.MIXED.generate(N, SEED)), 0.01,
                    "mean bijou64 bytes of mixed");
        }
    }

    @Nested
    class Uniform {
        @Test
        void spansTheFullRange() {
            long[] values = Distribution.UNIFORM.generate(100_000, SEED);
            long negatives = Arrays.stream(values).filter(v -> v < 0).count();
            assertEquals(0.5, negatives / 100_000.0, 0.01, "share of negative longs");
            assertTrue(meanBijou64Length(values) > 8.9, "uniform longs are nearly all 9 bytes");
        }
    }

    @Test
    void sameSeedGivesSameValues() {
        for (Distribution d : Distribution.values()) {
            assertArrayEquals(d.generate(10_000, 7), d.generate(10_000, 7), d + " with seed 7");
        }
    }

    @Test
    void otherSeedGivesOtherValues() {
        assertFalse(Arrays.equals(Distribution.UNIFORM.generate(1_000, 1), Distribution.UNIFORM.generate(1_000, 2)));
        assertFalse(Arrays.equals(Distribution.MIXED.generate(1_000, 1), Distribution.MIXED.generate(1_000, 2)));
    }

    @Test
    void parsesCommandLineNames() {
        assertEquals(Distribution.MIXED, Distribution.parse("mixed"));
        assertEquals(Distribution.SEQUENTIAL, Distribution.parse(" Sequential "));
        assertThrows(IllegalArgumentException.class, () -> Distribution.parse("normal"));
    }
}
