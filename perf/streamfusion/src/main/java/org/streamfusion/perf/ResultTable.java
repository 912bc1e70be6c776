package org.streamfusion.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The results as the printed, aligned table and as CSV ({@link #CSV_HEADER}). */
final class ResultTable {

    private ResultTable() {
    }

    /**
     * The results as a table: one row per shape, compression and mode, and per shape and compression a line
     * with the ratios native-batch / flink-per-row; problems and warnings below.
     */
    public static String table(List<RunResult> results) {
        String[] head = {"shape", "compression", "mode", "rows", "batch", "median rows/s", "min rows/s",
            "max rows/s", "MB/s", "encode-only rows/s", "bytes/row", "native/JVM batches", "verified"};
        List<String[]> lines = new ArrayList<>();
        for (RunResult r : results) {
            lines.add(new String[] {r.shape(), r.compression(), r.mode().cliName(), String.format(Locale.ROOT, "%,d", r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? String.format(Locale.ROOT, "%,d", r.batch()) : "-", rate(r.medianRate()),
                rate(min(r.rates())), rate(max(r.rates())), String.format(Locale.ROOT, "%.1f", r.medianMegabytesPerSecond()),
                rate(r.medianEncodeRate()),
                String.format(Locale.ROOT, "%.1f", (double) (r.keyBytes() + r.valueBytes()) / r.rows()),
                r.mode() == Mode.NATIVE_BATCH ? r.nativeBatches() + "/" + r.jvmBatches() : "-",
                r.verified() ? "true" : "FALSE"});
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
        for (String g : results.stream().map(r -> r.shape() + "/" + r.compression()).distinct().toList()) {
            RunResult flink = find(results, g, Mode.FLINK_PER_ROW);
            RunResult nat = find(results, g, Mode.NATIVE_BATCH);
            if (flink != null && nat != null) {
                out.append(String.format(Locale.ROOT, "%s, compression %s: native-batch / flink-per-row: %.2fx end to end, "
                        + "%.2fx encoding%s%n", nat.shape(), nat.compression(), nat.medianRate() / flink.medianRate(),
                        nat.medianEncodeRate() / flink.medianEncodeRate(),
                        flink.verified() && nat.verified() ? "" : " (NOT verified)"));
            }
        }
        for (RunResult r : results) {
            if (!r.verified()) {
                out.append(String.format("NOT VERIFIED %s %s %s: %s%n", r.shape(), r.compression(),
                        r.mode().cliName(), r.problem() == null ? "see the counts" : r.problem()));
            }
            if (r.mode() == Mode.NATIVE_BATCH && r.nativeBatches() == 0 && r.jvmBatches() > 0) {
                out.append(String.format("warning: %s %s native-batch encoded no batch natively (native library not "
                        + "loaded?): it measured Flink's serializer%n", r.shape(), r.compression()));
            }
        }
        return out.toString();
    }

    private static RunResult find(List<RunResult> results, String group, Mode mode) {
        return results.stream().filter(r -> (r.shape() + "/" + r.compression()).equals(group) && r.mode() == mode)
                .findFirst().orElse(null);
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

    /** The CSV columns, one row per shape, compression and mode. */
    static final String CSV_HEADER = "shape,compression,mode,rows,batch_rows,iterations,median_rows_per_s,"
            + "min_rows_per_s,max_rows_per_s,median_mb_per_s,median_encode_rows_per_s,key_bytes_per_pass,"
            + "value_bytes_per_pass,native_batches_per_pass,jvm_batches_per_pass,records_expected,records_read,"
            + "missing,duplicates,out_of_order,mismatches,verified,ratio_vs_flink_per_row,encode_ratio_vs_flink_per_row";

    /** Writes {@code results} as CSV to {@code csv}, creating its directory. */
    public static void writeCsv(Path csv, List<RunResult> results) {
        StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
        for (RunResult r : results) {
            RunResult flink = find(results, r.shape() + "/" + r.compression(), Mode.FLINK_PER_ROW);
            out.append(String.join(",", r.shape(), r.compression(), r.mode().cliName(), String.valueOf(r.rows()),
                    String.valueOf(r.batch()), String.valueOf(r.rates().length), plain(r.medianRate()),
                    plain(min(r.rates())), plain(max(r.rates())),
                    String.format(Locale.ROOT, "%.3f", r.medianMegabytesPerSecond()), plain(r.medianEncodeRate()),
                    String.valueOf(r.keyBytes()), String.valueOf(r.valueBytes()), String.valueOf(r.nativeBatches()),
                    String.valueOf(r.jvmBatches()), String.valueOf(r.expectedRecords()),
                    String.valueOf(r.recordsRead()), String.valueOf(r.missing()), String.valueOf(r.duplicates()),
                    String.valueOf(r.outOfOrder()), String.valueOf(r.mismatches()), String.valueOf(r.verified()),
                    flink == null ? "" : String.format(Locale.ROOT, "%.3f", r.medianRate() / flink.medianRate()),
                    flink == null ? "" : String.format(Locale.ROOT, "%.3f",
                            r.medianEncodeRate() / flink.medianEncodeRate())));
            out.append('\n');
        }
        try {
            Path dir = csv.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.writeString(csv, out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv, e);
        }
    }

    private static String plain(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }
}
