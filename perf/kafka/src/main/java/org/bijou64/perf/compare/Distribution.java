package org.bijou64.perf.compare;

import java.util.Arrays;
import java.util.Locale;

/**
 * The value distributions the producer comparison sends, by name. The values themselves come from one generator,
 * {@code streamfusion-bench values} ({@code perf/rust}), which the Rust modes call in-process: every mode, Java or
 * Rust, sends the same values in the same order for the same {@code (distribution, n, seed)}
 * ({@link ValueGenerator}).
 *
 * <table>
 *   <caption>Distributions</caption>
 *   <tr><th>name</th><th>values</th><th>bijou64 bytes per value</th></tr>
 *   <tr><td>sequential</td><td>1, 2, ..., n (the seed is unused)</td><td>2.985 for n = 50,000</td></tr>
 *   <tr><td>uniform</td><td>random longs over the full 64-bit range, negatives included</td><td>about 9</td></tr>
 *   <tr><td>boundary</td><td>the first and last value of every bijou64 tier, cycled to n (the seed is unused)</td>
 *       <td>5.4 per cycle</td></tr>
 *   <tr><td>mixed</td><td>50% in [0, 1,000), 30% in [0, 10^7), 20% epoch milliseconds in 2023-11-14 to
 *       2026-01-01</td><td>about 3.73</td></tr>
 * </table>
 */
public enum Distribution {
    /** 1..n: ids from a sequence. */
    SEQUENTIAL,
    /** Random longs over the full 64-bit range: the worst case for every varint. */
    UNIFORM,
    /** Every bijou64 tier edge, repeated until there are n values. */
    BOUNDARY,
    /** A workload of small counters, mid-sized ids and timestamps, drawn per value. */
    MIXED;

    /** The seed used when none is given on the command line (the generator's default too). */
    public static final long DEFAULT_SEED = 0x5EED_B10_64L;

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
                + String.join(
                        ", ", Arrays.stream(values()).map(Distribution::cliName).toList()) + ")");
    }
}
