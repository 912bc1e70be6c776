package org.bijou64.perf.compare;

import java.util.Arrays;

/**
 * The outcome of one run: one (distribution, mode, compression) with its measured iterations.
 *
 * @param distribution the values sent
 * @param mode the value serializer
 * @param compression the producer {@code compression.type}
 * @param implementation {@code NATIVE} or {@code JAVA} as reported by the serializer instance, {@code -} for long,
 *     {@code RUST} for the Rust modes
 * @param messages records per iteration
 * @param iterations measured iterations (the warm-up is not included); 0 if the run failed before measuring
 * @param median the median rate in msgs/s (mean of the two middle rates for an even count), NaN if none
 * @param min the lowest rate, NaN if none
 * @param max the highest rate, NaN if none
 * @param avgPayloadBytes mean serialized value size of the records read back, NaN if unknown
 * @param verified every record was read back, in order, equal to what was sent
 * @param problem why the run is not verified, or null
 */
public record RunResult(
        Distribution distribution,
        Mode mode,
        String compression,
        String implementation,
        int messages,
        int iterations,
        double median,
        double min,
        double max,
        double avgPayloadBytes,
        boolean verified,
        String problem) {

    /**
     * A result from the rates of its measured iterations.
     *
     * @param ratesMsgsPerSecond one rate per measured iteration; empty if the run failed before measuring
     */
    public static RunResult of(Distribution distribution, Mode mode, String compression, String implementation,
            int messages, double[] ratesMsgsPerSecond, double avgPayloadBytes, boolean verified, String problem) {
        return new RunResult(distribution, mode, compression, implementation, messages, ratesMsgsPerSecond.length,
                median(ratesMsgsPerSecond),
                Arrays.stream(ratesMsgsPerSecond).min().orElse(Double.NaN),
                Arrays.stream(ratesMsgsPerSecond).max().orElse(Double.NaN),
                avgPayloadBytes, verified, problem);
    }

    /** The median of the values (mean of the two middle values for an even count), NaN if empty. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }
}
