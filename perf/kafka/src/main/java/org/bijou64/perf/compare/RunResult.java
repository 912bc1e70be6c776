package org.bijou64.perf.compare;

import java.util.Arrays;

/**
 * The outcome of one run: one (distribution, mode, compression) with its measured rounds.
 *
 * @param distribution the values sent
 * @param mode the value serializer
 * @param compression the producer {@code compression.type}
 * @param implementation {@code NATIVE} or {@code JAVA} as reported by the serializer instance, {@code -} for long,
 *     {@code RUST} for the Rust modes
 * @param messages records per pass (after calibration)
 * @param iterations measured passes (the warm-up is not included); 0 if the run failed before measuring
 * @param rates msgs/s of each measured pass in round order (Java modes: round r of every mode ran back to back);
 *     empty for the Rust modes, whose binary reports only the summary
 * @param median the median rate in msgs/s (mean of the two middle rates for an even count), NaN if none
 * @param min the lowest rate, NaN if none
 * @param max the highest rate, NaN if none
 * @param medianPassSeconds the median wall time of a measured pass, NaN if unknown
 * @param cpuMicrosPerRecord the median over the measured passes of the producer process's CPU time per record, in
 *     microseconds, NaN if unknown
 * @param avgPayloadBytes mean serialized value size as the producer reported it, NaN if unknown
 * @param brokerBytesPerRecord the partition's log size after the run divided by the records in it, NaN if unknown
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
        double[] rates,
        double median,
        double min,
        double max,
        double medianPassSeconds,
        double cpuMicrosPerRecord,
        double avgPayloadBytes,
        double brokerBytesPerRecord,
        boolean verified,
        String problem) {

    /**
     * A result from the measured passes of a Java mode.
     *
     * @param passes one reply per measured round, in round order; empty if the run failed before measuring
     */
    static RunResult ofPasses(
            Distribution distribution,
            Mode mode,
            String compression,
            String implementation,
            int messages,
            WorkerProtocol.PassReply[] passes,
            double avgPayloadBytes,
            double brokerBytesPerRecord,
            boolean verified,
            String problem) {
        double[] rates = Arrays.stream(passes)
                .mapToDouble(WorkerProtocol.PassReply::rate)
                .toArray();
        return new RunResult(
                distribution,
                mode,
                compression,
                implementation,
                messages,
                passes.length,
                rates,
                median(rates),
                Arrays.stream(rates).min().orElse(Double.NaN),
                Arrays.stream(rates).max().orElse(Double.NaN),
                median(Arrays.stream(passes)
                        .mapToDouble(p -> p.wallNanos() / 1e9)
                        .toArray()),
                median(Arrays.stream(passes)
                        .mapToDouble(WorkerProtocol.PassReply::cpuMicrosPerRecord)
                        .toArray()),
                avgPayloadBytes,
                brokerBytesPerRecord,
                verified,
                problem);
    }

    /** The same result with the broker's bytes per record. */
    RunResult withBrokerBytesPerRecord(double bytes) {
        return new RunResult(
                distribution,
                mode,
                compression,
                implementation,
                messages,
                iterations,
                rates,
                median,
                min,
                max,
                medianPassSeconds,
                cpuMicrosPerRecord,
                avgPayloadBytes,
                bytes,
                verified,
                problem);
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
