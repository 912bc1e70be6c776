package org.bijou64.perf.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The value distributions the producer comparison sends. Every generator is deterministic: the same
 * {@code (n, seed)} gives the same values in the same order, on any JVM ({@link SplittableRandom} is
 * specified bit for bit).
 *
 * <table>
 *   <caption>Distributions</caption>
 *   <tr><th>name</th><th>values</th><th>bijou64 bytes per value</th></tr>
 *   <tr><td>sequential</td><td>1, 2, ..., n (the seed is unused)</td><td>2.985 for n = 50,000</td></tr>
 *   <tr><td>uniform</td><td>random longs over the full 64-bit range, negatives included</td><td>about 9</td></tr>
 *   <tr><td>boundary</td><td>{@link #TIER_EDGES}, cycled to n (the seed is unused)</td><td>5.4 per cycle</td></tr>
 *   <tr><td>mixed</td><td>50% in [0, 1,000), 30% in [0, 10^7), 20% epoch milliseconds in
 *       [{@link #EPOCH_MILLIS_LOW}, {@link #EPOCH_MILLIS_HIGH})</td><td>about 3.72</td></tr>
 * </table>
 */
public enum Distribution {
    /** 1..n: ids from a sequence. */
    SEQUENTIAL {
        @Override
        public long[] generate(int n, long seed) {
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = i + 1L;
            }
            return values;
        }
    },
    /** Random longs over the full 64-bit range: the worst case for every varint. */
    UNIFORM {
        @Override
        public long[] generate(int n, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextLong();
            }
            return values;
        }
    },
    /** Every bijou64 tier edge ({@link #TIER_EDGES}), repeated until there are n values. */
    BOUNDARY {
        @Override
        public long[] generate(int n, long seed) {
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = TIER_EDGES[i % TIER_EDGES.length];
            }
            return values;
        }
    },
    /** A workload of small counters, mid-sized ids and timestamps, drawn per value. */
    MIXED {
        @Override
        public long[] generate(int n, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                int bucket = random.nextInt(100);
                if (bucket < 50) {
                    values[i] = random.nextLong(SMALL_BOUND);
                } else if (bucket < 80) {
                    values[i] = random.nextLong(MEDIUM_BOUND);
                } else {
                    values[i] = random.nextLong(EPOCH_MILLIS_LOW, EPOCH_MILLIS_HIGH);
                }
            }
            return values;
        }
    };

    /** The seed used when none is given on the command line. */
    public static final long DEFAULT_SEED = 0x5EED_B10_64L;

    /** mixed: half of the values are below this (small counters). */
    public static final long SMALL_BOUND = 1_000L;
    /** mixed: 30% of the values are below this (ids). */
    public static final long MEDIUM_BOUND = 10_000_000L;
    /** mixed: the lowest epoch millisecond drawn, 2023-11-14T22:13:20Z (1.7e12). */
    public static final long EPOCH_MILLIS_LOW = 1_700_000_000_000L;
    /**
     * mixed: the epoch millisecond bound (exclusive), 2026-01-01T00:00:00Z. Fixed rather than "now", so a
     * seed reproduces the same values next year; every value in the range encodes to 7 bytes anyway.
     */
    public static final long EPOCH_MILLIS_HIGH = 1_767_225_600_000L;

    /**
     * The first and last value of every bijou64 tier ({@code docs/format.md}), ascending as unsigned 64-bit
     * numbers: tier t starts at OFFSET[t] with OFFSET[1] = 248 and OFFSET[n] = OFFSET[n-1] + 256^(n-1).
     * Under the default {@code unsigned} mapping the encoded length is the comment's byte count; the last
     * three (Long.MAX_VALUE, Long.MIN_VALUE = 2^63, -1 = u64::MAX) are all 9 bytes.
     */
    static final long[] TIER_EDGES = {
        0L, 247L,                                       // 1 byte
        248L, 503L,                                     // 2 bytes
        504L, 66_039L,                                  // 3 bytes
        66_040L, 16_843_255L,                           // 4 bytes
        16_843_256L, 4_311_810_551L,                    // 5 bytes
        4_311_810_552L, 1_103_823_438_327L,             // 6 bytes
        1_103_823_438_328L, 282_578_800_148_983L,       // 7 bytes
        282_578_800_148_984L, 72_340_172_838_076_919L,  // 8 bytes
        72_340_172_838_076_920L, Long.MAX_VALUE,        // 9 bytes
        Long.MIN_VALUE, -1L,                            // 9 bytes (negative: 2^63 and u64::MAX unsigned)
    };

    /**
     * The values of this distribution.
     *
     * @param n how many values, at least 1
     * @param seed the random seed (unused by {@link #SEQUENTIAL} and {@link #BOUNDARY})
     * @return n values, the same for the same arguments
     */
    public abstract long[] generate(int n, long seed);

    /** The command-line name, e.g. {@code sequential}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a command-line name.
     *
     * @throws IllegalArgumentException naming the valid choices
     */
    public static Distribution parse(String name) {
        for (Distribution d : values()) {
            if (d.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown distribution '" + name + "' (choose from "
                + String.join(", ", Arrays.stream(values()).map(Distribution::cliName).toList()) + ")");
    }
}
