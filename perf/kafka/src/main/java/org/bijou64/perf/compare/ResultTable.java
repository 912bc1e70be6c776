package org.bijou64.perf.compare;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bijou64.perf.common.ResultsSchema;

/**
 * The results as rows of the results schema ({@link ResultsSchema}, {@code perf/common/results-schema.csv}) and as
 * the printed, aligned table.
 */
final class ResultTable {

    /** The {@code benchmark} column of this comparison's rows. */
    static final String BENCHMARK = "bijou64-producer";

    private final List<RunResult> results = new ArrayList<>();

    void add(RunResult result) {
        results.add(result);
    }

    List<RunResult> results() {
        return List.copyOf(results);
    }

    boolean allVerified() {
        return results.stream().allMatch(RunResult::verified);
    }

    /**
     * The median of this run divided by the median of its {@linkplain Mode#baseline() baseline} ({@code long} for
     * the Java modes, {@code rust-long} for the Rust modes) with the same distribution and compression measured in
     * this invocation; NaN if there is none.
     */
    double ratioVsLong(RunResult result) {
        for (RunResult other : results) {
            if (other.mode() == result.mode().baseline()
                    && other.distribution() == result.distribution()
                    && other.compression().equals(result.compression())) {
                return result.median() / other.median();
            }
        }
        return Double.NaN;
    }

    /**
     * The paired comparison of a Java mode with {@code long} over the rounds they shared (same distribution and
     * compression); null for the baseline itself, for the Rust modes (run one after the other, not interleaved) and
     * when either run has no complete set of measured rounds.
     */
    PairedRatios paired(RunResult result) {
        if (result.mode() == result.mode().baseline()) {
            return null;
        }
        for (RunResult other : results) {
            if (other.mode() == result.mode().baseline()
                    && other.distribution() == result.distribution()
                    && other.compression().equals(result.compression())) {
                return PairedRatios.of(result.rates(), other.rates());
            }
        }
        return null;
    }

    /** Appends the rows of {@code rows} to the CSV, writing the schema's header first if the file is new or empty. */
    void appendCsv(Path csv, List<RunResult> rows) throws IOException {
        ResultsSchema.append(csv, rows.stream().map(this::row).toList());
    }

    /** One run as a row of the results schema; the ratio compares with the mode's baseline in this invocation. */
    ResultsSchema.Row row(RunResult r) {
        PairedRatios paired = paired(r);
        ResultsSchema.Row row = ResultsSchema.row()
                .set("benchmark", BENCHMARK)
                .set("workload", r.distribution().cliName())
                .set("mode", r.mode().cliName())
                .set("implementation", r.implementation())
                .set("compression", r.compression())
                .set("records", r.messages())
                .set("iterations", r.iterations())
                .set("median_records_per_s", r.median())
                .set("min_records_per_s", r.min())
                .set("max_records_per_s", r.max())
                .set("median_pass_seconds", r.medianPassSeconds())
                .set("value_bytes_per_record", r.avgPayloadBytes())
                .set("broker_bytes_per_record", r.brokerBytesPerRecord())
                .set("cpu_us_per_record", r.cpuMicrosPerRecord())
                .set("verified", r.verified())
                .set("baseline", r.mode().baseline().cliName())
                .set("ratio_vs_baseline", ratioVsLong(r))
                .set("problem", r.problem());
        if (paired != null) {
            row.set("paired_ratio_median", paired.median())
                    .set("paired_ratio_min", paired.min())
                    .set("paired_ratio_max", paired.max())
                    .set("paired_faster", paired.faster())
                    .set("paired_slower", paired.slower())
                    .set("verdict", paired.verdict());
        }
        return row;
    }

    /**
     * Prints the aligned table, one block per distribution and compression in the order the runs happened, then
     * one verdict line per mode compared with {@code long}.
     */
    void print(PrintStream out) {
        String[] header = {
            "distribution",
            "compression",
            "mode",
            "impl",
            "records",
            "median msgs/s",
            "min msgs/s",
            "max msgs/s",
            "pass s",
            "CPU us/rec",
            "value B",
            "broker B",
            "vs long",
            "paired",
            "paired range",
            "faster",
            "verified"
        };
        boolean[] rightAligned = {
            false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, false
        };
        List<String[]> rows = new ArrayList<>();
        for (RunResult r : results) {
            PairedRatios paired = paired(r);
            rows.add(new String[] {
                r.distribution().cliName(),
                r.compression(),
                r.mode().cliName(),
                r.implementation(),
                grouped(r.messages()),
                grouped(r.median()),
                grouped(r.min()),
                grouped(r.max()),
                plain(r.medianPassSeconds(), 2),
                plain(r.cpuMicrosPerRecord(), 3),
                plain(r.avgPayloadBytes(), 3),
                plain(r.brokerBytesPerRecord(), 3),
                Double.isNaN(ratioVsLong(r)) ? "-" : String.format(Locale.ROOT, "%.2fx", ratioVsLong(r)),
                paired == null ? "-" : String.format(Locale.ROOT, "%.3fx", paired.median()),
                paired == null ? "-" : String.format(Locale.ROOT, "%.3f-%.3f", paired.min(), paired.max()),
                paired == null ? "-" : paired.faster() + "/" + paired.rounds(),
                r.verified() ? "true" : "FALSE",
            });
        }
        int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            widths[c] = header[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        out.println(line(header, widths, rightAligned));
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            rule.append(c == 0 ? "" : "  ").append("-".repeat(widths[c]));
        }
        out.println(rule);
        String previousGroup = null;
        for (int i = 0; i < rows.size(); i++) {
            RunResult r = results.get(i);
            String group = r.distribution() + "/" + r.compression();
            if (previousGroup != null && !group.equals(previousGroup)) {
                out.println();
            }
            previousGroup = group;
            out.println(line(rows.get(i), widths, rightAligned));
        }
        out.println();
        for (RunResult r : results) {
            PairedRatios paired = paired(r);
            if (paired != null) {
                out.println(String.format(
                        "%-10s %-4s %-12s vs long: %s",
                        r.distribution().cliName(), r.compression(), r.mode().cliName(), paired.describe()));
            }
        }
    }

    private static String line(String[] cells, int[] widths, boolean[] rightAligned) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                sb.append("  ");
            }
            String pad = " ".repeat(widths[c] - cells[c].length());
            sb.append(rightAligned[c] ? pad + cells[c] : cells[c] + (c == cells.length - 1 ? "" : pad));
        }
        return sb.toString();
    }

    private static String plain(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String grouped(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }
}
