package org.bijou64.perf.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bijou64.perf.common.ResultsSchema;

/**
 * Runs the Rust modes: one {@code streamfusion-bench bench} process (rdkafka, built from {@code perf/rust}) per run, with
 * the Java modes' calibrated N and rounds, and this comparison's distribution, seed, compression, topic name and
 * bootstrap servers. The topic is always kept by the binary ({@code --keep-topic}), so that
 * {@link ProducerComparison} can measure its size on the broker before deleting it. The binary
 * uses the same producer settings, timed region and read-back verification as {@link ProducerComparison}; its
 * progress goes straight to this process's stderr, and it prints the results schema's header and one row on stdout
 * ({@link ResultsSchema}, the schema this comparison writes too), which becomes the run's {@link RunResult}.
 *
 * <p>Exit status of the binary: 0 verified, 3 not verified (the row says {@code verified=false}), anything else an
 * error before a result (e.g. no broker), which makes the run not verified here.
 */
final class RustBench {
    /** A run that takes longer than this is stopped. */
    private static final long TIMEOUT_MINUTES = 30;

    private final Options options;
    private final Progress progress;

    RustBench(Options options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * The command line of one run.
     *
     * @param messages records per pass
     * @param iterations measured passes
     */
    List<String> command(
            Distribution distribution, Mode mode, String compression, String topic, int messages, int iterations) {
        List<String> command = new ArrayList<>(List.of(
                String.valueOf(options.rustBench()),
                "bench",
                "--mode",
                mode.rustBenchMode(),
                "--distribution",
                distribution.cliName(),
                "--messages",
                Integer.toString(messages),
                "--iterations",
                Integer.toString(iterations),
                "--compression",
                compression,
                "--topic",
                topic,
                "--bootstrap-servers",
                options.bootstrap(),
                "--seed",
                Long.toString(options.seed()),
                "--format",
                "csv",
                "--keep-topic"));
        if (options.ci()) {
            command.add("--ci");
        }
        return command;
    }

    /**
     * Runs one Rust mode; never throws for a failed run (its result is then not verified).
     *
     * @param messages records per pass
     * @param iterations measured passes
     */
    RunResult run(
            Distribution distribution, Mode mode, String compression, String topic, int messages, int iterations) {
        String label = String.format("[%s %s %s]", distribution.cliName(), compression, mode.cliName());
        List<String> command = command(distribution, mode, compression, topic, messages, iterations);
        progress.message(label + " " + String.join(" ", command));
        List<String> lines = new ArrayList<>();
        int status;
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            process.getOutputStream().close();
            try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (!line.isBlank()) {
                        lines.add(line.trim());
                    }
                }
            }
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return failed(
                        distribution,
                        mode,
                        compression,
                        messages,
                        "streamfusion-bench bench did not finish within " + TIMEOUT_MINUTES + " minutes");
            }
            status = process.exitValue();
        } catch (IOException e) {
            return failed(
                    distribution,
                    mode,
                    compression,
                    messages,
                    "cannot run " + options.rustBench() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(distribution, mode, compression, messages, "interrupted");
        }
        if (lines.size() != 2 || (status != 0 && status != CompareBenchmarks.EXIT_NOT_VERIFIED)) {
            return failed(
                    distribution,
                    mode,
                    compression,
                    messages,
                    "streamfusion-bench bench exited with status " + status
                            + (lines.size() != 2 ? " without a header and a result row (its error is above)" : ""));
        }
        try {
            return parse(lines.get(0), lines.get(1), distribution, mode, compression, status);
        } catch (IllegalArgumentException e) {
            return failed(distribution, mode, compression, messages, e.getMessage());
        }
    }

    /**
     * A result from the binary's header and row.
     *
     * @throws IllegalArgumentException when they are not the results schema's, or the row is not one run of
     *     {@code mode}
     */
    static RunResult parse(
            String header, String row, Distribution distribution, Mode mode, String compression, int status) {
        Map<String, String> f = ResultsSchema.parse(header, row);
        if (!f.get("mode").equals(mode.cliName())
                || !f.get("compression").equals(compression)
                || !f.get("workload").equals(distribution.cliName())) {
            throw new IllegalArgumentException("streamfusion-bench bench reported " + f.get("mode") + "/"
                    + f.get("compression") + "/" + f.get("workload") + ", expected " + mode.cliName() + "/"
                    + compression + "/" + distribution.cliName());
        }
        try {
            boolean verified = Boolean.parseBoolean(f.get("verified")) && status == 0;
            return new RunResult(
                    distribution,
                    mode,
                    compression,
                    f.get("implementation"),
                    Integer.parseInt(f.get("records")),
                    Integer.parseInt(f.get("iterations")),
                    new double[0],
                    number(f.get("median_records_per_s")),
                    number(f.get("min_records_per_s")),
                    number(f.get("max_records_per_s")),
                    number(f.get("median_pass_seconds")),
                    number(f.get("cpu_us_per_record")),
                    number(f.get("value_bytes_per_record")),
                    number(f.get("broker_bytes_per_record")),
                    verified,
                    verified ? null : "streamfusion-bench bench: not verified (the reason is in its output above)");
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("streamfusion-bench bench printed '" + row + "': " + e.getMessage());
        }
    }

    private static double number(String text) {
        return text.isEmpty() ? Double.NaN : Double.parseDouble(text);
    }

    private RunResult failed(Distribution distribution, Mode mode, String compression, int messages, String problem) {
        progress.message(
                String.format("[%s %s %s] FAILED: %s", distribution.cliName(), compression, mode.cliName(), problem));
        return new RunResult(
                distribution,
                mode,
                compression,
                Mode.RUST,
                messages,
                0,
                new double[0],
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                false,
                problem);
    }
}
