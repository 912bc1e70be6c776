package org.streamfusion.perf;

import java.util.Arrays;
import org.streamfusion.flink.RowDataJsonEncoder;

/**
 * The outcome of one mode's run.
 *
 * @param rates end-to-end rows/s of each measured pass
 * @param encodeRates encode-only rows/s of each measured pass
 * @param keyBytes key bytes of one pass
 * @param valueBytes value bytes of one pass
 * @param nativeBatches batches the native encoder wrote in one pass (0 for {@code flink-per-row})
 * @param jvmBatches batches Flink's serializer wrote in one pass through {@link RowDataJsonEncoder}'s small-batch
 *     path (0 for {@code flink-per-row}, which does not batch)
 * @param expectedRecords records sent (passes x rows)
 * @param recordsRead records read back
 * @param problem why the run is not verified, or null
 */
public record RunResult(
        String shape,
        String compression,
        Mode mode,
        int rows,
        int batch,
        double[] rates,
        double[] encodeRates,
        long keyBytes,
        long valueBytes,
        long nativeBatches,
        long jvmBatches,
        long expectedRecords,
        long recordsRead,
        long missing,
        long duplicates,
        long outOfOrder,
        long mismatches,
        String problem) {

    /** @return true when every record was read back exactly once, in order, equal to Flink's bytes */
    public boolean verified() {
        return problem == null
                && expectedRecords > 0
                && recordsRead == expectedRecords
                && missing == 0
                && duplicates == 0
                && outOfOrder == 0
                && mismatches == 0;
    }

    /** @return median end-to-end rows/s over the measured passes (NaN if none) */
    public double medianRate() {
        return median(rates);
    }

    /** @return median encode-only rows/s over the measured passes (NaN if none) */
    public double medianEncodeRate() {
        return median(encodeRates);
    }

    /** @return median end-to-end MB/s (10^6 bytes of keys and values) */
    public double medianMegabytesPerSecond() {
        return medianRate() * (keyBytes + valueBytes) / rows / 1e6;
    }

    /** @return the median of {@code values} (NaN if there are none) */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
