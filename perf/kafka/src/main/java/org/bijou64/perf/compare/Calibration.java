package org.bijou64.perf.compare;

/**
 * How many records a pass needs to last at least the minimum pass time: the record count grows in proportion to
 * how much too short the round's shortest pass (its fastest mode's) was, with a margin, and is rounded up to whole
 * thousands. Calibrating on the fastest mode makes every mode's pass, not only the slowest one's, reach the minimum.
 */
final class Calibration {
    /** Aim this much above the minimum, so the next pass is not just short of it again. */
    static final double MARGIN = 1.2;
    /** The most records per pass: every worker holds its values boxed (about 24 bytes each) in a heap of 1-2 GiB. */
    static final int MAX_RECORDS = 20_000_000;

    private Calibration() {}

    /**
     * @param records the records of the pass just measured, at least 1
     * @param shortestSeconds the wall time of the round's shortest pass with that many records, above 0
     * @param minSeconds the minimum pass time, 0 for no minimum
     * @return {@code records} when the shortest pass lasted at least {@code minSeconds} (or {@code records} is already
     *     {@link #MAX_RECORDS}); otherwise {@code records * minSeconds / shortestSeconds * MARGIN} rounded up to a
     *     multiple of 1,000, at most {@link #MAX_RECORDS}
     * @throws IllegalArgumentException for records below 1, shortestSeconds not above 0, or minSeconds below 0
     */
    static int recordsFor(int records, double shortestSeconds, double minSeconds) {
        if (records < 1 || !(shortestSeconds > 0) || !(minSeconds >= 0)) {
            throw new IllegalArgumentException(
                    "records " + records + ", shortest " + shortestSeconds + " s, minimum " + minSeconds + " s");
        }
        if (shortestSeconds >= minSeconds || records >= MAX_RECORDS) {
            return records;
        }
        double wanted = records * (minSeconds / shortestSeconds) * MARGIN;
        long thousands = (long) Math.ceil(wanted / 1000);
        return (int) Math.min(MAX_RECORDS, Math.max(records + 1L, thousands * 1000));
    }
}
