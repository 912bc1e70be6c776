package org.streamfusion.perf.nexmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.bijou64.NativeLibrary;
import org.bijou64.perf.common.ResultsSchema;

/**
 * Nexmark q0, q9 or q19 on a local Flink MiniCluster, three variants of the same job in turns, every other
 * setting equal ({@link Queries}): Flink's stock {@code kafka} source and stock sink ({@code kafka} /
 * {@code upsert-kafka} + {@code json}), the stock source and our sink ({@code streamfusion-kafka} /
 * {@code streamfusion-upsert-kafka}), and our source ({@code streamfusion-kafka}, values decoded natively) and
 * our sink ({@link Variant}). Exactly once, checkpoints every 1 s, the {@code hashmap} (heap) state backend with
 * checkpoints in a temporary directory, parallelism and output partitions 2 by default, mini-batch off unless
 * asked for (then upstream's {@code allow-latency 2 s}, {@code size 50000}), no restarts.
 *
 * <p>One warm-up run per variant (checked, not counted), then {@code runs} rounds of one run per variant, the
 * order rotating from round to round. Per run: a fresh output topic; job wall time = the job's net
 * runtime ({@link JobExecutionResult#getNetRuntime}: from submission to the job's end, which with an exactly-once
 * sink and a bounded source comes after the final checkpoint's commit), events/s = corpus events / wall time;
 * process CPU (the harness JVM, which hosts the MiniCluster: {@code OperatingSystemMXBean.getProcessCpuTime})
 * from before planning to the job's end, per corpus event, so planning and cluster start are in it for both
 * variants alike; then the topic is read back {@code read_committed} and checked ({@link OutputCheck}) against the
 * answer computed from the corpus ({@link Expected}), and against the stock variant of the round (q0: the same
 * multiset of value bytes, or the run fails; q9/q19: the same final bytes per key, or ties taken
 * differently), and deleted. A check that fails fails the run: the harness exits 1 after the report.
 *
 * <p>Replay ({@code --source memory}): the same events from memory ({@link MemorySource}) instead of the
 * corpus topic, to isolate the sink (so two variants: the stock sink and ours); everything else, the checks
 * included, is the same. The CSV's workload then ends in {@code -memory}.
 *
 * <p>Profile ({@code --profile true}, the default): after the measured rounds, one more run per variant under
 * {@link StageProfile} (async-profiler in this JVM), checked like the others but not counted in the medians;
 * its CPU samples per stage (source, operators, sink encode, producer, checkpoints, JVM, other) are printed, go
 * into the CSV's {@code *_cpu_share} columns, and the collapsed stacks are written beside the CSV.
 *
 * <p>Printed: the settings, one line per run, then per variant the median events/s, median wall time, median
 * CPU per event, the ratio of medians against the stock variant, per-round ratios. Appended to the CSV (the
 * shared results schema, {@link ResultsSchema}): one row per variant, benchmark {@code nexmark-flink}, workload
 * the query, mode {@code source -> sink}.
 *
 * <p>Usage: {@code java -cp ... org.streamfusion.perf.nexmark.NexmarkBench [--query q19] [--events 200000]
 * [--partitions 2] [--parallelism 2] [--runs 3] [--seed 1] [--rate 10000000] [--mini-batch false]
 * [--profile true] [--source kafka] [--bootstrap 127.0.0.1:19092] [--csv perf/nexmark/results/nexmark-UTC.csv]};
 * {@code --query} takes a comma-separated list ({@code q0,q9,q19}), run one after the other over the same corpus
 * into the same CSV. See {@code run.sh}.
 */
public final class NexmarkBench {
    private NexmarkBench() {}

    /**
     * The harness' settings.
     *
     * @param query the query
     * @param spec the corpus
     * @param parallelism job parallelism
     * @param runs measured rounds
     * @param miniBatch table.exec.mini-batch.enabled
     * @param bootstrap the broker
     * @param csv where the rows are appended
     * @param profile whether each variant gets one more, profiled run after the measured ones
     * @param memory whether the events are replayed from memory ({@link MemorySource}) instead of read from the
     *     corpus topic
     */
    record Settings(
            Queries.Query query,
            Corpus.Spec spec,
            int parallelism,
            int runs,
            boolean miniBatch,
            String bootstrap,
            Path csv,
            boolean profile,
            boolean memory) {
        /** The CSV's workload: the query, {@code -memory} and {@code -mini-batch} appended when set. */
        String workload() {
            return query.id() + (memory ? "-memory" : "") + (miniBatch ? "-mini-batch" : "");
        }

        /** Where a profiled run's collapsed stacks go: beside the CSV, named after it, the query and the variant. */
        Path collapsedFile(Variant variant) {
            String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
            return csv.resolveSibling(name + "-" + workload() + "-" + variant.tag() + ".collapsed");
        }

        /** The variants compared: all three over the corpus topic; with the events in memory, the two sinks. */
        List<Variant> variants() {
            return memory ? List.of(Variant.STOCK, Variant.OUR_SINK) : List.of(Variant.values());
        }
    }

    /** Which connectors a run reads the corpus and writes the output with. */
    enum Variant {
        /** Flink's {@code kafka} source and stock sink: the baseline. */
        STOCK(false, false, "stock"),
        /** Flink's {@code kafka} source, our sink. */
        OUR_SINK(false, true, "ours-sink"),
        /** Our source ({@code streamfusion-kafka}, values decoded natively) and our sink. */
        OURS(true, true, "ours");

        private final boolean oursSource;
        private final boolean oursSink;
        private final String tag;

        Variant(boolean oursSource, boolean oursSink, String tag) {
            this.oursSource = oursSource;
            this.oursSink = oursSink;
            this.tag = tag;
        }

        boolean oursSource() {
            return oursSource;
        }

        boolean oursSink() {
            return oursSink;
        }

        /** Short name, for file names. */
        String tag() {
            return tag;
        }

        /** {@code source -> sink} connectors, as printed and in the CSV's {@code mode}. */
        String label(Queries.Query query, boolean memory) {
            String source = memory ? "memory" : oursSource ? "streamfusion-kafka" : "kafka";
            return source + " -> " + (oursSink ? query.oursConnector() : query.stockConnector());
        }
    }

    /**
     * One run.
     *
     * @param variant which source and sink
     * @param netMillis the job's net runtime
     * @param cpuNanos process CPU from planning to the job's end
     * @param check the output check
     * @param output the output (kept for the round's comparison)
     * @param samples CPU samples per stage of a profiled run, else null
     */
    record Run(
            Variant variant,
            long netMillis,
            long cpuNanos,
            OutputCheck.Result check,
            Output output,
            Map<StageProfile.Stage, Long> samples) {
        double eventsPerSecond(long events) {
            return events * 1000.0 / netMillis;
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Map<String, String> jobConfig(Settings s, Path checkpoints) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("parallelism.default", Integer.toString(s.parallelism()));
        conf.put("restart-strategy.type", "none");
        conf.put("execution.checkpointing.interval", "1 s");
        conf.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        conf.put("state.backend.type", "hashmap");
        conf.put("execution.checkpointing.storage", "filesystem");
        conf.put("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.put("table.exec.mini-batch.enabled", Boolean.toString(s.miniBatch()));
        if (s.miniBatch()) {
            conf.put("table.exec.mini-batch.allow-latency", "2 s");
            conf.put("table.exec.mini-batch.size", "50000");
        }
        return conf;
    }

    /**
     * One job of {@code s.query()} through one sink into a fresh topic, checked, the topic deleted; profiled
     * from planning to the job's end when {@code profiled}.
     */
    static Run run(
            Settings s, String corpus, Variant variant, Expected expected, Admin admin, int seq, boolean profiled)
            throws Exception {
        String tag = s.query().id() + "-" + variant.tag() + "-"
                + ProcessHandle.current().pid() + "-" + seq;
        String topic = "nexmark-out-" + tag;
        admin.createTopics(List.of(new NewTopic(topic, s.spec().partitions(), (short) 1)))
                .all()
                .get(60, TimeUnit.SECONDS);
        Path checkpoints = Files.createTempDirectory("nexmark-checkpoints-");
        try {
            if (profiled) {
                StageProfile.start();
            }
            long cpu0 = processCpuNanos();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                    Configuration.fromMap(jobConfig(s, checkpoints)));
            env.setParallelism(s.parallelism());
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            if (s.memory()) {
                MemorySource.register(env, tEnv);
            } else {
                tEnv.executeSql(Queries.sourceDdl(variant.oursSource(), corpus, s.bootstrap(), "nexmark-" + tag));
            }
            Queries.viewDdls().forEach(tEnv::executeSql);
            tEnv.executeSql(Queries.sinkDdl(s.query(), variant.oursSink(), topic, s.bootstrap(), "nexmark-" + tag));
            TableResult result = tEnv.executeSql(Queries.insert(s.query()));
            result.await(30, TimeUnit.MINUTES);
            JobExecutionResult job =
                    result.getJobClient().orElseThrow().getJobExecutionResult().get(1, TimeUnit.MINUTES);
            long cpu = processCpuNanos() - cpu0;
            Map<StageProfile.Stage, Long> samples = profiled ? StageProfile.stop(s.collapsedFile(variant)) : null;
            long net = job.getNetRuntime(TimeUnit.MILLISECONDS);
            Output output = Output.read(s.bootstrap(), topic, s.query());
            OutputCheck.Result check = OutputCheck.check(expected, output);
            return new Run(variant, net, cpu, check, output, samples);
        } finally {
            admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
            deleteTree(checkpoints);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }

    private static Map<String, String> parseArgs(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
            }
            out.put(args[i].substring(2), args[++i]);
        }
        return out;
    }

    /**
     * Runs the comparison described in the class comment.
     *
     * @param args {@code --name value} pairs, see the class comment
     * @throws Exception when a job fails or the broker cannot be reached; a failed output check exits 1
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = parseArgs(args);
        List<Queries.Query> queries = Arrays.stream(
                        a.getOrDefault("query", "q19").split(","))
                .map(String::trim)
                .map(Queries.Query::of)
                .toList();
        long events = Long.parseLong(a.getOrDefault("events", "200000"));
        int partitions = Integer.parseInt(a.getOrDefault("partitions", "2"));
        int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
        int runs = Integer.parseInt(a.getOrDefault("runs", "3"));
        long seed = Long.parseLong(a.getOrDefault("seed", "1"));
        long rate = Long.parseLong(a.getOrDefault("rate", Long.toString(NexmarkGenerator.DEFAULT_RATE)));
        boolean miniBatch = Boolean.parseBoolean(a.getOrDefault("mini-batch", "false"));
        String bootstrap = a.getOrDefault("bootstrap", "127.0.0.1:19092");
        String utc = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC)
                .format(Instant.now());
        Path csv = Path.of(a.getOrDefault("csv", "perf/nexmark/results/nexmark-" + utc + ".csv"));
        Corpus.Spec spec = new Corpus.Spec(events, partitions, seed, NexmarkGenerator.DEFAULT_BASE_TIME_MS, rate);
        boolean profile = Boolean.parseBoolean(a.getOrDefault("profile", "true"));
        String source = a.getOrDefault("source", "kafka");
        if (!source.equals("kafka") && !source.equals("memory")) {
            throw new IllegalArgumentException("--source must be kafka or memory, got " + source);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
        }

        System.out.printf(
                "nexmark %s: %,d events (seed %d, rate %,d/s) from %s, %d partitions, parallelism %d,"
                        + " %d runs, mini-batch %s, profile %s; JDK %s, %d CPUs, native library %s, load %s%n",
                queries.stream().map(Queries.Query::id).toList(),
                events,
                seed,
                rate,
                source,
                partitions,
                parallelism,
                runs,
                miniBatch,
                profile,
                Runtime.version(),
                Runtime.getRuntime().availableProcessors(),
                NativeLibrary.isLoaded() ? "loaded" : "NOT loaded",
                loadAverage());
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        boolean failed = false;
        try (Admin admin = Admin.create(adminProps)) {
            long t0 = System.nanoTime();
            String corpus;
            if (source.equals("memory")) {
                MemorySource.load(spec);
                corpus = "in memory";
            } else {
                corpus = Corpus.ensure(admin, bootstrap, spec);
            }
            System.out.printf("corpus %s (%.1f s)%n", corpus, (System.nanoTime() - t0) / 1e9);
            for (Queries.Query query : queries) {
                Settings s = new Settings(
                        query, spec, parallelism, runs, miniBatch, bootstrap, csv, profile, source.equals("memory"));
                failed |= !compare(s, corpus, admin);
            }
        }
        System.out.println("results appended to " + csv);
        System.exit(failed ? 1 : 0);
    }

    /** One query: warm-up, the measured rounds, the profiled runs, the report; true when every check passed. */
    private static boolean compare(Settings s, String corpus, Admin admin) throws Exception {
        Queries.Query query = s.query();
        List<Variant> variants = s.variants();
        System.out.printf("%n== %s%njob: %s%n", s.workload(), jobConfig(s, Path.of("/tmp/nexmark-checkpoints-RUN")));
        System.out.println("sinks: sink.delivery-guarantee=exactly-once properties.batch.size=524288"
                + " properties.linger.ms=20; variants "
                + variants.stream().map(v -> v.label(query, s.memory())).toList());
        Map<Variant, List<Run>> runs = new EnumMap<>(Variant.class);
        Map<Variant, List<String>> sameBytes = new EnumMap<>(Variant.class);
        for (Variant v : variants) {
            runs.put(v, new ArrayList<>());
            sameBytes.put(v, new ArrayList<>());
        }
        Map<Variant, Map<StageProfile.Stage, Long>> profiles = new EnumMap<>(Variant.class);
        boolean failed = false;
        long t0 = System.nanoTime();
        Expected expected = Expected.of(s.spec(), query);
        System.out.printf(
                "answer computed in %.1f s: %,d output records expected%n",
                (System.nanoTime() - t0) / 1e9, expected.outputRecords());
        int seq = 0;
        for (int r = -1; r < s.runs(); r++) {
            // Interleaved, the order rotating from round to round (the warm-up in the order listed).
            int shift = r < 0 ? 0 : r % variants.size();
            Map<Variant, Run> round = new EnumMap<>(Variant.class);
            for (int k = 0; k < variants.size(); k++) {
                Variant variant = variants.get((k + shift) % variants.size());
                Run run = run(s, corpus, variant, expected, admin, seq++, false);
                round.put(variant, run);
                failed |= !run.check().verified();
                printRun(s, r < 0 ? "warm-up" : "round " + (r + 1), run);
            }
            // q0 leaves nothing open: every variant's output must be the stock one's multiset of value bytes.
            boolean mustBeSame = !query.upsert();
            for (Variant v : variants) {
                if (v == Variant.STOCK) {
                    continue;
                }
                boolean same = OutputCheck.sameAs(
                        round.get(Variant.STOCK).output(), round.get(v).output());
                failed |= mustBeSame && !same;
                System.out.println("  stock and " + v.tag() + ": "
                        + (same
                                ? "the same bytes"
                                : mustBeSame
                                        ? "FAILED: different value bytes"
                                        : "different bytes (ties taken differently; both checked against the answer)"));
                if (r >= 0) {
                    sameBytes.get(v).add(same ? "same" : mustBeSame ? "DIFFERENT" : "ties");
                }
            }
            if (r >= 0) {
                round.forEach((v, run) -> runs.get(v).add(stripOutput(run)));
            }
        }
        if (s.profile()) {
            for (Variant variant : variants) {
                Run run = run(s, corpus, variant, expected, admin, seq++, true);
                failed |= !run.check().verified();
                printRun(s, "profiled", run);
                System.out.println("  CPU samples: " + StageProfile.format(StageProfile.shares(run.samples()))
                        + "; stacks in " + s.collapsedFile(variant));
                profiles.put(variant, run.samples());
            }
        }
        report(s, runs, sameBytes, profiles);
        return !failed;
    }

    private static Run stripOutput(Run r) {
        return new Run(r.variant(), r.netMillis(), r.cpuNanos(), r.check(), null, null);
    }

    private static void printRun(Settings s, String label, Run run) {
        long events = s.spec().events();
        System.out.printf(
                "%s %-46s %,10.0f events/s  wall %,6d ms  cpu %.3f us/event  read %,d (expected %,d,"
                        + " ties %d) %s  load %s%n",
                label,
                run.variant().label(s.query(), s.memory()),
                run.eventsPerSecond(events),
                run.netMillis(),
                run.cpuNanos() / 1000.0 / events,
                run.check().read(),
                run.check().expected(),
                run.check().ties(),
                run.check().verified() ? "verified" : "FAILED: " + run.check().problem(),
                loadAverage());
    }

    private static void report(
            Settings s,
            Map<Variant, List<Run>> runs,
            Map<Variant, List<String>> sameBytes,
            Map<Variant, Map<StageProfile.Stage, Long>> profiles)
            throws IOException {
        long events = s.spec().events();
        Queries.Query query = s.query();
        List<Run> stock = runs.get(Variant.STOCK);
        double[] stockRates =
                stock.stream().mapToDouble(r -> r.eventsPerSecond(events)).toArray();
        double stockCpu = median(stock.stream().mapToDouble(r -> r.cpuNanos()).toArray());
        System.out.printf(
                "%n| %s, %,d events | median events/s | min | max | median wall s | CPU us/event | vs stock |"
                        + " verified |%n|---|---:|---:|---:|---:|---:|---:|---|%n",
                query.id(), events);
        for (Map.Entry<Variant, List<Run>> e : runs.entrySet()) {
            double[] rates = e.getValue().stream()
                    .mapToDouble(r -> r.eventsPerSecond(events))
                    .toArray();
            System.out.printf(
                    "| %s | %,.0f | %,.0f | %,.0f | %.3f | %.3f | %.3fx | %s |%n",
                    e.getKey().label(query, s.memory()),
                    median(rates),
                    Arrays.stream(rates).min().orElse(0),
                    Arrays.stream(rates).max().orElse(0),
                    median(e.getValue().stream()
                            .mapToDouble(r -> r.netMillis() / 1000.0)
                            .toArray()),
                    median(e.getValue().stream()
                            .mapToDouble(r -> r.cpuNanos() / 1000.0 / events)
                            .toArray()),
                    median(rates) / median(stockRates),
                    e.getValue().stream().allMatch(r -> r.check().verified()));
        }
        Map<Variant, double[]> pairedByVariant = new EnumMap<>(Variant.class);
        for (Map.Entry<Variant, List<Run>> e : runs.entrySet()) {
            if (e.getKey() == Variant.STOCK) {
                continue;
            }
            double[] rates = e.getValue().stream()
                    .mapToDouble(r -> r.eventsPerSecond(events))
                    .toArray();
            double[] paired = new double[stock.size()];
            for (int i = 0; i < paired.length; i++) {
                paired[i] = rates[i] / stockRates[i];
            }
            pairedByVariant.put(e.getKey(), paired);
            double cpu =
                    median(e.getValue().stream().mapToDouble(r -> r.cpuNanos()).toArray());
            System.out.printf(
                    "%s / stock: ratio of medians %.3f; per round %s; events per CPU second %.3f; outputs per round:"
                            + " %s%n",
                    e.getKey().tag(),
                    median(rates) / median(stockRates),
                    Arrays.toString(Arrays.stream(paired)
                            .mapToObj(p -> String.format("%.3f", p))
                            .toArray()),
                    stockCpu / cpu,
                    sameBytes.get(e.getKey()));
        }

        if (!profiles.isEmpty()) {
            StringBuilder head = new StringBuilder("%n| %s: share of CPU samples (profiled run) |");
            StringBuilder rule = new StringBuilder("|---|");
            for (StageProfile.Stage stage : StageProfile.Stage.values()) {
                head.append(' ').append(stage.label()).append(" |");
                rule.append("---:|");
            }
            System.out.printf(head + "%n" + rule + "%n", query.id());
            profiles.forEach((variant, samples) -> {
                StringBuilder line = new StringBuilder("| ")
                        .append(variant.label(query, s.memory()))
                        .append(" |");
                StageProfile.shares(samples).values().forEach(v -> line.append(String.format(" %.1f%% |", v * 100)));
                System.out.println(line);
            });
        }

        List<ResultsSchema.Row> rows = new ArrayList<>();
        for (Map.Entry<Variant, List<Run>> e : runs.entrySet()) {
            Variant variant = e.getKey();
            List<Run> variantRuns = e.getValue();
            double[] rates = variantRuns.stream()
                    .mapToDouble(r -> r.eventsPerSecond(events))
                    .toArray();
            OutputCheck.Result last = variantRuns.get(variantRuns.size() - 1).check();
            List<String> problems = new ArrayList<>(variantRuns.stream()
                    .map(r -> r.check().problem())
                    .filter(p -> !p.isEmpty())
                    .toList());
            if (sameBytes.get(variant).contains("DIFFERENT")) {
                problems.add("value bytes differ from the stock connectors': " + sameBytes.get(variant));
            }
            ResultsSchema.Row row = ResultsSchema.row()
                    .set("benchmark", "nexmark-flink")
                    .set("workload", s.workload())
                    .set("mode", variant.label(query, s.memory()))
                    .set(
                            "implementation",
                            variant == Variant.STOCK ? "-" : NativeLibrary.isLoaded() ? "NATIVE" : "JAVA")
                    .set("compression", "none")
                    .set("guarantee", "exactly-once")
                    .set("records", events)
                    .set("iterations", (long) variantRuns.size())
                    .set("median_records_per_s", median(rates))
                    .set("min_records_per_s", Arrays.stream(rates).min().orElse(Double.NaN))
                    .set("max_records_per_s", Arrays.stream(rates).max().orElse(Double.NaN))
                    .set(
                            "median_pass_seconds",
                            median(variantRuns.stream()
                                    .mapToDouble(r -> r.netMillis() / 1000.0)
                                    .toArray()))
                    .set(
                            "cpu_us_per_record",
                            median(variantRuns.stream()
                                    .mapToDouble(r -> r.cpuNanos() / 1000.0 / events)
                                    .toArray()))
                    .set("records_expected", last.expected())
                    .set("records_read", last.read())
                    .set(
                            "missing",
                            variantRuns.stream()
                                    .mapToLong(r -> r.check().missing())
                                    .sum())
                    .set(
                            "duplicates",
                            variantRuns.stream()
                                    .mapToLong(r -> r.check().duplicates())
                                    .sum())
                    .set(
                            "mismatches",
                            variantRuns.stream()
                                    .mapToLong(r -> r.check().mismatches())
                                    .sum())
                    .set("verified", problems.isEmpty())
                    .set("problem", String.join(" | ", problems));
            Map<StageProfile.Stage, Long> samples = profiles.get(variant);
            if (samples != null) {
                StageProfile.shares(samples).forEach((stage, share) -> row.set(stage.column(), share));
            }
            double[] paired = pairedByVariant.get(variant);
            if (paired != null) {
                long faster = Arrays.stream(paired).filter(p -> p > 1).count();
                long slower = Arrays.stream(paired).filter(p -> p < 1).count();
                row.set("baseline", Variant.STOCK.label(query, s.memory()))
                        .set("ratio_vs_baseline", median(rates) / median(stockRates))
                        .set("paired_ratio_median", median(paired))
                        .set("paired_ratio_min", Arrays.stream(paired).min().orElse(Double.NaN))
                        .set("paired_ratio_max", Arrays.stream(paired).max().orElse(Double.NaN))
                        .set("paired_faster", faster)
                        .set("paired_slower", slower)
                        .set(
                                "verdict",
                                paired.length >= 5 && faster == paired.length
                                        ? "faster"
                                        : paired.length >= 5 && slower == paired.length
                                                ? "slower"
                                                : "equal within noise");
            }
            rows.add(row);
        }
        ResultsSchema.append(s.csv(), rows);
    }
}
