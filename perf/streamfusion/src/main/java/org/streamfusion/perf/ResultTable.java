package org.streamfusion.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.bijou64.perf.common.ResultsSchema;

/** The results as the printed, aligned table and as rows of the results schema ({@link ResultsSchema}). */
final class ResultTable {

    private ResultTable() {}

    /**
     * The results as a table: one row per shape, compression and mode, and per shape and compression a line
     * with the ratios native-batch / flink-per-row; problems and warnings below.
     */
    public static String table(List<RunResult> results) {
        String[] head = {
            "shape",
            "compression",
            "mode",
            "rows",
            "batch",
            "median rows/s",
            "min rows/s",
            "max rows/s",
            "MB/s",
            "encode-only rows/s",
            "bytes/row",
            "native/JVM batches",
            "verified"
        };
        List<String[]> lines = new ArrayList<>();
        for (RunResult r : results) {
            lines.add(new String[] {
                r.shape(),
                r.compression(),
                r.mode().cliName(),
                String.format(Locale.ROOT, "%,d", r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? String.format(Locale.ROOT, "%,d", r.batch()) : "-",
                rate(r.medianRate()),
                rate(min(r.rates())),
                rate(max(r.rates())),
                String.format(Locale.ROOT, "%.1f", r.medianMegabytesPerSecond()),
                rate(r.medianEncodeRate()),
                String.format(Locale.ROOT, "%.1f", (double) (r.keyBytes() + r.valueBytes()) / r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? r.nativeBatches() + "/" + r.jvmBatches() : "-",
                r.verified() ? "true" : "FALSE"
            });
        }
        int[] width = new int[head.length];
        for (int c = 0; c < head.length; c++) {
            width[c] = head[c].length();
            for (String[] line : lines) {
                width[c] = Math.max(width[c], line[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        appendRow(out, head, width);
        String[] rule = new String[head.length];
        for (int c = 0; c < head.length; c++) {
            rule[c] = "-".repeat(width[c]);
        }
        appendRow(out, rule, width);
        String group = null;
        for (int i = 0; i < results.size(); i++) {
            RunResult r = results.get(i);
            String g = r.shape() + "/" + r.compression();
            if (group != null && !group.equals(g)) {
                out.append('\n');
            }
            group = g;
            appendRow(out, lines.get(i), width);
        }
        out.append('\n');
        for (String g : results.stream()
                .map(r -> r.shape() + "/" + r.compression())
                .distinct()
                .toList()) {
            RunResult flink = find(results, g, Mode.FLINK_PER_ROW);
            RunResult nat = find(results, g, Mode.NATIVE_BATCH);
            if (flink != null && nat != null) {
                out.append(String.format(
                        Locale.ROOT,
                        "%s, compression %s: native-batch / flink-per-row: %.2fx end to end, " + "%.2fx encoding%s%n",
                        nat.shape(),
                        nat.compression(),
                        nat.medianRate() / flink.medianRate(),
                        nat.medianEncodeRate() / flink.medianEncodeRate(),
                        flink.verified() && nat.verified() ? "" : " (NOT verified)"));
            }
        }
        for (RunResult r : results) {
            if (!r.verified()) {
                out.append(String.format(
                        "NOT VERIFIED %s %s %s: %s%n",
                        r.shape(),
                        r.compression(),
                        r.mode().cliName(),
                        r.problem() == null ? "see the counts" : r.problem()));
            }
            if (r.mode() == Mode.NATIVE_BATCH && r.nativeBatches() == 0 && r.jvmBatches() > 0) {
                out.append(String.format(
                        "warning: %s %s native-batch encoded no batch natively (native library not "
                                + "loaded?): it measured Flink's serializer%n",
                        r.shape(), r.compression()));
            }
        }
        return out.toString();
    }

    private static RunResult find(List<RunResult> results, String group, Mode mode) {
        return results.stream()
                .filter(r -> (r.shape() + "/" + r.compression()).equals(group) && r.mode() == mode)
                .findFirst()
                .orElse(null);
    }

    private static void appendRow(StringBuilder out, String[] cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                line.append("  ");
            }
            boolean left = c <= 2;
            String cell = cells[c];
            String pad = " ".repeat(width[c] - cell.length());
            line.append(left ? cell + pad : pad + cell);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String rate(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    /** The {@code benchmark} column of this comparison's rows. */
    static final String BENCHMARK = "json-producer";

    /**
     * One run as a row of the results schema ({@link ResultsSchema}, {@code perf/common/results-schema.csv}); the
     * ratios compare with {@code flink-per-row} of the same shape and compression in {@code results}.
     */
    static ResultsSchema.Row row(List<RunResult> results, RunResult r) {
        RunResult flink = find(results, r.shape() + "/" + r.compression(), Mode.FLINK_PER_ROW);
        double perRecord = r.rows();
        return ResultsSchema.row()
                .set("benchmark", BENCHMARK)
                .set("workload", r.shape())
                .set("mode", r.mode().cliName())
                .set("implementation", r.nativeBatches() > 0 ? "NATIVE" : "JAVA")
                .set("compression", r.compression())
                .set("records", r.rows())
                .set("batch_rows", r.batch())
                .set("iterations", r.rates().length)
                .set("median_records_per_s", r.medianRate())
                .set("min_records_per_s", min(r.rates()))
                .set("max_records_per_s", max(r.rates()))
                .set("median_mb_per_s", r.medianMegabytesPerSecond())
                .set("median_encode_records_per_s", r.medianEncodeRate())
                .set("key_bytes_per_record", r.keyBytes() / perRecord)
                .set("value_bytes_per_record", r.valueBytes() / perRecord)
                .set("bytes_per_record", (r.keyBytes() + r.valueBytes()) / perRecord)
                .set("native_batches_per_pass", r.nativeBatches())
                .set("jvm_batches_per_pass", r.jvmBatches())
                .set("records_expected", r.expectedRecords())
                .set("records_read", r.recordsRead())
                .set("missing", r.missing())
                .set("duplicates", r.duplicates())
                .set("out_of_order", r.outOfOrder())
                .set("mismatches", r.mismatches())
                .set("verified", r.verified())
                .set("baseline", Mode.FLINK_PER_ROW.cliName())
                .set("ratio_vs_baseline", flink == null ? Double.NaN : r.medianRate() / flink.medianRate())
                .set(
                        "encode_ratio_vs_baseline",
                        flink == null ? Double.NaN : r.medianEncodeRate() / flink.medianEncodeRate())
                .set("problem", r.problem());
    }

    /** Writes {@code results} as a results-schema CSV to {@code csv}, creating its directory. */
    public static void writeCsv(Path csv, List<RunResult> results) {
        try {
            Files.deleteIfExists(csv);
            ResultsSchema.append(csv, results.stream().map(r -> row(results, r)).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv, e);
        }
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }
}
