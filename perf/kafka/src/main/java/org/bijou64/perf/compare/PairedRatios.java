package org.bijou64.perf.compare;

import java.util.Locale;

/**
 * The paired comparison of a mode with its baseline: in every interleaved round both ran one pass, back to back,
 * so the ratio of their two rates in that round cancels what the round shared (broker load, the machine's other
 * work). Over the rounds: the median ratio, its range, and how many rounds the mode was faster or slower.
 *
 * <p>The verdict: {@code faster} when the mode was faster in every round, {@code slower} when slower in every
 * round, {@code equal within noise} otherwise; no verdict below {@link #MIN_ROUNDS} rounds. With 5 rounds,
 * "every round" is what a sign test would call significant at 1/32 one-sided for a mode that is really equal.
 *
 * @param median the median per-round ratio (mean of the two middle ones for an even count)
 * @param min the lowest per-round ratio
 * @param max the highest per-round ratio
 * @param faster rounds with a ratio above 1
 * @param slower rounds with a ratio below 1
 * @param rounds the rounds compared
 */
record PairedRatios(double median, double min, double max, int faster, int slower, int rounds) {
    /** The fewest rounds that give a verdict. */
    static final int MIN_ROUNDS = 5;

    /**
     * Pairs the per-round rates of a mode and its baseline.
     *
     * @param rates the mode's rate in each measured round, msgs/s
     * @param baselineRates the baseline's rate in the same rounds, same length
     * @return the paired ratios, or null when the lengths differ or there are no rounds (a run that failed)
     */
    static PairedRatios of(double[] rates, double[] baselineRates) {
        if (rates.length != baselineRates.length || rates.length == 0) {
            return null;
        }
        double[] ratios = new double[rates.length];
        int faster = 0;
        int slower = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < rates.length; i++) {
            ratios[i] = rates[i] / baselineRates[i];
            faster += ratios[i] > 1 ? 1 : 0;
            slower += ratios[i] < 1 ? 1 : 0;
            min = Math.min(min, ratios[i]);
            max = Math.max(max, ratios[i]);
        }
        return new PairedRatios(RunResult.median(ratios), min, max, faster, slower, rates.length);
    }

    /** @return {@code faster}, {@code slower}, {@code equal within noise}, or {@code too few rounds} */
    String verdict() {
        if (rounds < MIN_ROUNDS) {
            return "too few rounds";
        }
        if (faster == rounds) {
            return "faster";
        }
        if (slower == rounds) {
            return "slower";
        }
        return "equal within noise";
    }

    /** @return e.g. {@code equal within noise (paired ratios 0.97-1.04, median 1.01, 3 of 5 faster)} */
    String describe() {
        return String.format(
                Locale.ROOT,
                "%s (paired ratios %.2f-%.2f, median %.2f, %d of %d faster)",
                verdict(),
                min,
                max,
                median,
                faster,
                rounds);
    }
}
