package org.bijou64.perf.compare;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.AppInfoParser;
import org.bijou64.Bijou64;
import org.bijou64.perf.common.ProducerSettings;

/**
 * The producer comparison: Kafka's {@code LongSerializer} against the bijou64 serializers,
 * every run verified by reading it back. Normally started by {@code perf/kafka/compare-benchmarks.sh}, which
 * builds the classpath; the arguments are the script's ({@link Options#USAGE}) plus {@code --results-dir}.
 *
 * <p>For each distribution and each compression, {@link ProducerComparison} runs every mode, each producing
 * to its own topic from a JVM of its own ({@link ModeWorker}), with the modes' passes interleaved and long enough
 * to measure ({@code --min-pass-seconds}). The results go to stdout as a table and to {@code results-<UTC>.csv};
 * progress goes to stderr.
 *
 * <p>Exit status: 0 all runs verified; 1 an error stopped the benchmark (e.g. no broker); 2 bad arguments;
 * 3 at least one run was not verified (the table is printed first).
 */
public final class CompareBenchmarks {
    /** Exit status when some run was not verified. */
    static final int EXIT_NOT_VERIFIED = 3;

    private static final int BROKER_WAIT_SECONDS = 15;

    private CompareBenchmarks() {}

    /** Entry point; see the class comment for the exit status. */
    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.err.print(Options.HELP);
            System.exit(2);
            return;
        }
        try {
            System.exit(run(options, System.out, System.err));
        } catch (Exception e) {
            System.err.println("error: " + ProducerComparison.describe(e));
            System.exit(1);
        }
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        String stamp = options.stamp();
        Path csv = options.resultsDir().resolve("results-" + stamp + ".csv");
        printHeader(options, out);
        Map<String, Object> adminConfigs = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                options.bootstrap(),
                AdminClientConfig.CLIENT_ID_CONFIG,
                "compare-admin");
        ResultTable table = new ResultTable();
        Progress progress = new Progress(err, options.ci() || System.console() == null);
        try (Admin admin = Admin.create(adminConfigs)) {
            try {
                String clusterId = admin.describeCluster().clusterId().get(BROKER_WAIT_SECONDS, TimeUnit.SECONDS);
                out.println("  cluster     " + clusterId);
            } catch (TimeoutException e) {
                err.println("error: no Kafka broker answered at " + options.bootstrap() + " within "
                        + BROKER_WAIT_SECONDS + " s. Start the local one with kafka/broker start.");
                admin.close(java.time.Duration.ZERO); // fail the pending request now, not after its 60 s timeout
                return 1;
            } catch (ExecutionException e) {
                err.println("error: the Kafka broker at " + options.bootstrap() + " failed to describe the cluster ("
                        + ProducerComparison.describe(e) + ")");
                return 1;
            }
            out.println();
            out.flush();
            ProducerComparison comparison =
                    new ProducerComparison(options, admin, progress, stamp, new ValueGenerator(options.rustBench()));
            // Interrupted (Ctrl-C, kill): the workers go (WorkerProcess's hook), and so do the topics they made.
            Thread cleanup = new Thread(
                    () -> comparison
                            .deleteLeftTopics()
                            .forEach(t -> err.println("deleted topic " + t + " of the interrupted run")),
                    "delete-left-topics");
            Runtime.getRuntime().addShutdownHook(cleanup);
            try {
                for (Distribution distribution : options.distributions()) {
                    List<RunResult> rows = new ArrayList<>();
                    for (String compression : options.compressions()) {
                        rows.addAll(comparison.runAll(distribution, options.modes(), compression));
                    }
                    rows.forEach(table::add);
                    table.appendCsv(csv, rows);
                }
            } finally {
                comparison.deleteLeftTopics();
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // the JVM is already shutting down: the hook runs (and finds nothing left to delete)
                }
            }
        }
        out.println();
        table.print(out);
        out.println();
        out.println("msgs/s: records per second of one producer thread, median (min, max) of " + options.rounds()
                + " measured round(s) of `records` records after the warm-up; pass s: median wall time of a pass;"
                + " CPU us/rec: median process CPU of the mode's JVM per record; value B: value bytes per record as"
                + " the producer reported them; broker B: partition log size after the run / records in it (batch"
                + " headers and compression included); vs long: median / median of long (rust-long for the rust-*"
                + " modes); paired: median over the rounds of (mode / long in the same round), its range, and the"
                + " rounds the mode was faster. Verdict: faster or slower only when every one of at least "
                + PairedRatios.MIN_ROUNDS + " rounds agrees.");
        Set<String> warnings = new LinkedHashSet<>();
        for (RunResult r : table.results()) {
            if (!r.verified()) {
                out.println("NOT VERIFIED " + r.distribution().cliName() + " " + r.compression() + " "
                        + r.mode().cliName() + ": " + r.problem());
            } else if (!r.implementation().equals(r.mode().expectedImplementation())) {
                warnings.add("warning: mode " + r.mode().cliName() + " ran on " + r.implementation() + ", not "
                        + r.mode().expectedImplementation() + " (did the native library load?)");
            }
        }
        warnings.forEach(out::println);
        out.println("results: " + csv.toAbsolutePath().normalize());
        return table.allVerified() ? 0 : EXIT_NOT_VERIFIED;
    }

    private static void printHeader(Options options, PrintStream out) {
        Runtime runtime = Runtime.getRuntime();
        out.println("bijou64 Kafka producer comparison");
        out.println("  jvm         " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.vendor")
                + "), max heap " + runtime.maxMemory() / (1 << 20) + " MiB");
        out.println("  machine     " + machine() + ", " + runtime.availableProcessors() + " cores" + cpuModel());
        out.println("  kafka       clients " + AppInfoParser.getVersion() + ", broker " + options.bootstrap());
        out.println("  bijou64     default implementation " + Bijou64.implementation()
                + Bijou64.nativeVersion()
                        .map(v -> ", native library " + v)
                        .orElse(Bijou64.nativeLoadError()
                                .map(e -> ", native library not loaded: " + e)
                                .orElse("")));
        out.println("  workload    at least " + options.messages() + " records per pass"
                + (options.minPassSeconds() > 0
                        ? ", raised until every mode's warm-up pass lasts " + options.minPassSeconds() + " s"
                        : "")
                + "; warm-up + " + options.rounds()
                + " measured rounds per run, seed " + options.seed() + ", distributions "
                + options.distributions().stream().map(Distribution::cliName).collect(Collectors.joining(",")));
        out.println("  values      " + options.rustBench() + " values: the one generator of every mode");
        out.println("  producer    " + ProducerSettings.line() + " compression.type="
                + String.join("|", options.compressions()) + ", key=null, 1 partition RF 1");
        out.println("  timing      one producer per run, created and given metadata before the clock; clock runs from"
                + " the first send() until flush() returned and every callback completed without error");
        out.println("  jvms        one worker JVM per Java mode (" + ModeWorker.class.getSimpleName()
                + ", this classpath"
                + (options.workerJavaOptions().isEmpty() ? "" : ", " + String.join(" ", options.workerJavaOptions()))
                + "), driven one pass at a time: only one mode runs at a time");
        out.println(
                "  order       per distribution and compression: a warm-up round (one discarded pass per mode; again"
                        + " after each calibration of N), then " + options.rounds()
                        + " measured rounds; the modes take turns,"
                        + " rotating who goes first");
        if (options.modes().stream().anyMatch(Mode::isRust)) {
            out.println("  rust        " + options.rustBench() + ": after the Java modes of each distribution and"
                    + " compression, one process per rust-* mode (rdkafka) with the same producer settings (plus"
                    + " librdkafka's queue.buffering.max.messages=10000000 batch.num.messages=10000), timed region"
                    + " and verification; their vs long divides by rust-long");
        }
        for (Mode mode : options.modes()) {
            out.println("  mode        " + String.format("%-13s", mode.cliName()) + mode.serializerClassName()
                    + (mode.serdeConfigs().isEmpty()
                            ? ""
                            : " "
                                    + mode.serdeConfigs().entrySet().stream()
                                            .sorted(Map.Entry.comparingByKey())
                                            .map(e -> e.getKey() + "=" + e.getValue())
                                            .collect(Collectors.joining(" "))));
        }
        out.println("  topics      " + options.topic() + "-<distribution>-<mode>-<compression>-<UTC>"
                + (options.keepTopics() ? " (kept)" : " (deleted after each run)"));
    }

    /** {@code uname -m}, or the JVM's {@code os.arch} if that fails. */
    private static String machine() {
        try {
            Process p =
                    new ProcessBuilder("uname", "-m").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 && !text.isEmpty()) {
                return text;
            }
        } catch (IOException e) {
            // fall through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.getProperty("os.arch");
    }

    /** ", <model name>" from /proc/cpuinfo, or nothing. */
    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return ", " + line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the architecture and core count must do
        }
        return "";
    }
}
