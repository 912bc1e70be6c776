package org.bijou64.perf.compare;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * The runs of one (distribution, compression): one per mode, each with its own topic. The Java modes run as
 * described below, each in a JVM of its own ({@link ModeWorker}); the Rust modes run afterwards, one
 * {@code streamfusion-bench bench} process each ({@link RustBench}), with the same N, rounds, settings, timed region
 * and verification.
 *
 * <h2>Order</h2>
 * This process (the coordinator) starts one worker JVM per Java mode, with its own classpath and
 * {@link Options#workerJavaOptions()}; each worker creates its topic and producer up front and then waits for
 * commands ({@link WorkerProtocol}). The coordinator asks for one pass at a time, so only one worker runs at a time:
 * a warm-up round (one pass per mode, discarded); then, while the round's shortest pass (its fastest mode's) lasted
 * less than {@link Options#minPassSeconds()}, N is raised ({@link Calibration}), the values regenerated with the new N and
 * another warm-up round run (at most {@value #MAX_CALIBRATIONS} times); then {@link Options#rounds()} measured
 * rounds, one pass per mode each, the first mode rotating from round to round. A round's passes run back to back,
 * which is what the paired ratios ({@link PairedRatios}) compare.
 *
 * <h2>What is measured</h2>
 * Per pass, the worker's wall time and process CPU time (see {@link ModeWorker}). After every pass the worker
 * verifies its topic; then the partition's log size on the broker ({@code Admin.describeLogDirs}: record batch
 * headers and compression included) is divided by the records in the log (its end offset; every pass, warm-up
 * included, holds the same kind of records).
 */
final class ProducerComparison {

    /**
     * The most calibration steps. Each multiplies N by the shortfall and a margin, but a warm-up pass at a small N
     * is slower per record than a warm pass (JIT, connections), so the first steps undershoot.
     */
    static final int MAX_CALIBRATIONS = 6;

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /** A pass, a values file or a verification taking longer than this stops the worker. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

    private final Options options;
    private final Admin admin;
    private final Progress progress;
    private final String stamp;
    private final ValueGenerator generator;
    private final RustBench rustBench;
    /** Topics of this invocation that may exist on the broker and are to be deleted (empty with --keep-topics). */
    private final Set<String> undeleted = ConcurrentHashMap.newKeySet();

    ProducerComparison(Options options, Admin admin, Progress progress, String stamp, ValueGenerator generator) {
        this.options = options;
        this.admin = admin;
        this.progress = progress;
        this.stamp = stamp;
        this.generator = generator;
        this.rustBench = new RustBench(options, progress);
    }

    /** The topic of one run: {@code TOPIC-<distribution>-<mode>-<compression>-<UTC stamp>}. */
    String topicName(Distribution distribution, Mode mode, String compression) {
        return options.topic() + "-" + distribution.cliName() + "-" + mode.cliName() + "-" + compression + "-" + stamp;
    }

    /**
     * The command line of a Java mode's worker JVM: this JVM's {@code java}, {@link Options#workerJavaOptions()},
     * this JVM's classpath, {@link ModeWorker} and its four arguments.
     */
    List<String> workerCommand(Mode mode, String compression, String topic) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options.workerJavaOptions());
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                ModeWorker.class.getName(),
                mode.cliName(),
                compression,
                topic,
                options.bootstrap()));
        return command;
    }

    /** The state of one Java mode's run while the rounds go on. */
    private static final class Lane {
        final Mode mode;
        final String topic;
        final String label;
        final WorkerProtocol.PassReply[] passes;
        WorkerProcess worker;
        String implementation = "?";
        boolean topicCreated;
        long valueBytes;
        long records;
        String problem;

        Lane(Mode mode, String topic, String label, int rounds) {
            this.mode = mode;
            this.topic = topic;
            this.label = label;
            this.passes = new WorkerProtocol.PassReply[rounds];
        }
    }

    /**
     * Runs every mode for one (distribution, compression): first the Java modes, interleaved, then each Rust mode
     * with {@link RustBench} at the N the Java modes were calibrated to. Never throws for a failure of a run itself:
     * that run's result is then not verified and names the problem.
     *
     * @return one result per mode, in the order of {@code modes}
     * @throws IOException when the values cannot be generated or written
     */
    List<RunResult> runAll(Distribution distribution, List<Mode> modes, String compression)
            throws IOException, InterruptedException {
        Map<Mode, RunResult> byMode = new EnumMap<>(Mode.class);
        List<Mode> javaModes = modes.stream().filter(m -> !m.isRust()).toList();
        int messages = options.messages();
        if (!javaModes.isEmpty()) {
            List<RunResult> java = runJava(distribution, javaModes, compression);
            java.forEach(r -> byMode.put(r.mode(), r));
            messages = java.get(0).messages();
        }
        for (Mode mode : modes) {
            if (mode.isRust()) {
                String topic = topicName(distribution, mode, compression);
                expectTopic(topic);
                RunResult result = rustBench.run(distribution, mode, compression, topic, messages, options.rounds());
                byMode.put(mode, result.withBrokerBytesPerRecord(brokerBytesPerRecord(topic)));
                if (!options.keepTopics()) {
                    deleteTopic(topic);
                }
            }
        }
        return modes.stream().map(byMode::get).toList();
    }

    /** The Java modes of {@link #runAll}, one worker JVM each, their passes interleaved (see the class comment). */
    private List<RunResult> runJava(Distribution distribution, List<Mode> modes, String compression)
            throws IOException, InterruptedException {
        List<Lane> lanes = new ArrayList<>();
        for (Mode mode : modes) {
            lanes.add(new Lane(
                    mode,
                    topicName(distribution, mode, compression),
                    String.format("[%s %s %s]", distribution.cliName(), compression, mode.cliName()),
                    options.rounds()));
        }
        Path dir = Files.createTempDirectory("bijou64-compare-");
        int messages = options.messages();
        try {
            for (Lane lane : lanes) {
                try {
                    expectTopic(lane.topic);
                    lane.worker =
                            WorkerProcess.start(lane.mode.cliName(), workerCommand(lane.mode, compression, lane.topic));
                } catch (IOException e) {
                    fail(lane, e);
                }
            }
            for (Lane lane : lanes) {
                if (lane.problem == null) {
                    try {
                        lane.implementation = WorkerProtocol.parseReady(lane.worker.reply(START_TIMEOUT));
                        lane.topicCreated = true;
                    } catch (IOException | RuntimeException e) {
                        fail(lane, e);
                    }
                }
            }
            int turn = 0;
            sendValues(lanes, dir, generator.generate(distribution, messages, options.seed()));
            double shortest = round(lanes, turn++, "warm-up", null);
            for (int step = 1; options.minPassSeconds() > 0 && step <= MAX_CALIBRATIONS && shortest > 0; step++) {
                int next = Calibration.recordsFor(messages, shortest, options.minPassSeconds());
                if (next == messages) {
                    break;
                }
                progress.message(String.format(
                        "[%s %s] shortest pass %.3f s < %s s: %,d records per pass",
                        distribution.cliName(), compression, shortest, options.minPassSeconds(), next));
                messages = next;
                sendValues(lanes, dir, generator.generate(distribution, messages, options.seed()));
                shortest = round(lanes, turn++, String.format("warm-up %d (%,d records)", step + 1, messages), null);
            }
            for (int r = 0; r < options.rounds(); r++) {
                round(lanes, turn++, "round " + (r + 1) + "/" + options.rounds(), r);
            }
            List<RunResult> results = new ArrayList<>();
            for (Lane lane : lanes) {
                results.add(finish(lane, distribution, compression, messages));
            }
            return results;
        } finally {
            for (Lane lane : lanes) {
                if (lane.worker != null) {
                    lane.worker.close();
                }
                if (!options.keepTopics()) {
                    if (lane.topicCreated) {
                        deleteTopic(lane.topic);
                    } else {
                        undeleted.remove(lane.topic); // its worker never created it
                    }
                }
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** Writes the values to a file of {@code dir} and has every running worker load it. */
    private void sendValues(List<Lane> lanes, Path dir, long[] values) throws IOException, InterruptedException {
        Path file = dir.resolve("values-" + values.length + ".bin");
        try (OutputStream raw = Files.newOutputStream(file);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            for (long v : values) {
                out.writeLong(v);
            }
        }
        for (Lane lane : lanes) {
            if (lane.problem == null) {
                try {
                    WorkerProtocol.parseOk(
                            lane.worker.request(
                                    WorkerProtocol.valuesCommand(file.toString(), values.length), COMMAND_TIMEOUT),
                            WorkerProtocol.VALUES);
                } catch (IOException | RuntimeException e) {
                    fail(lane, e);
                }
            }
        }
    }

    /**
     * One pass per running mode, the first mode rotating with {@code turn}.
     *
     * @param measured the measured round's index, or null for a warm-up round
     * @return the shortest pass of the round in seconds, 0 if no mode ran
     */
    private double round(List<Lane> lanes, int turn, String what, Integer measured) throws InterruptedException {
        double shortest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < lanes.size(); k++) {
            Lane lane = lanes.get((k + turn) % lanes.size());
            if (lane.problem != null) {
                continue;
            }
            try {
                WorkerProtocol.PassReply pass =
                        WorkerProtocol.PassReply.parse(lane.worker.request(WorkerProtocol.PASS, COMMAND_TIMEOUT));
                lane.valueBytes += pass.valueBytes();
                lane.records += pass.records();
                if (measured != null) {
                    lane.passes[measured] = pass;
                }
                shortest = Math.min(shortest, pass.wallNanos() / 1e9);
                progress.pass(lane.label, what, pass.rate(), pass.wallNanos() / 1e9, pass.cpuMicrosPerRecord());
            } catch (IOException | RuntimeException e) {
                fail(lane, e);
            }
        }
        return Double.isInfinite(shortest) ? 0 : shortest;
    }

    private void fail(Lane lane, Exception e) {
        lane.problem = describe(e);
        progress.message(lane.label + " FAILED: " + lane.problem);
    }

    /** Verifies a lane's topic (unless it already failed), measures its log and makes its result. */
    private RunResult finish(Lane lane, Distribution distribution, String compression, int messages)
            throws InterruptedException {
        if (lane.problem == null) {
            try {
                WorkerProtocol.Verified check =
                        WorkerProtocol.Verified.parse(lane.worker.request(WorkerProtocol.VERIFY, COMMAND_TIMEOUT));
                if (check.records() != lane.records || check.valueBytes() != lane.valueBytes) {
                    lane.problem = "worker verified " + check.records() + " records of " + check.valueBytes()
                            + " value bytes, its passes reported " + lane.records + " of " + lane.valueBytes;
                }
            } catch (IOException | RuntimeException e) {
                lane.problem = describe(e);
            }
        }
        double brokerBytes = lane.topicCreated ? brokerBytesPerRecord(lane.topic) : Double.NaN;
        double avgBytes = lane.records == 0 ? Double.NaN : (double) lane.valueBytes / lane.records;
        WorkerProtocol.PassReply[] measured =
                Stream.of(lane.passes).anyMatch(p -> p == null) ? new WorkerProtocol.PassReply[0] : lane.passes;
        RunResult result = RunResult.ofPasses(
                distribution,
                lane.mode,
                compression,
                lane.implementation,
                messages,
                measured,
                avgBytes,
                brokerBytes,
                lane.problem == null,
                lane.problem);
        progress.done(String.format(
                "%s verified=%s, %.3f value bytes, %.3f broker bytes per record, median %,.0f" + " msgs/s%s",
                lane.label,
                result.verified(),
                avgBytes,
                brokerBytes,
                result.median(),
                lane.problem == null ? "" : ": " + lane.problem));
        return result;
    }

    /**
     * The bytes the broker stores per record of a topic's partition 0: the log size in every log directory of every
     * broker ({@code describeLogDirs}) divided by the partition's end offset. NaN (with a warning) when either
     * cannot be read or the log is empty.
     */
    double brokerBytesPerRecord(String topic) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try {
            long records = admin.listOffsets(Map.of(partition, OffsetSpec.latest()))
                    .partitionResult(partition)
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
            Collection<Node> nodes =
                    admin.describeCluster().nodes().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(nodes.stream()
                            .map(Node::id)
                            .sorted(Comparator.naturalOrder())
                            .toList())
                    .allDescriptions()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long bytes = 0;
            for (Map<String, LogDirDescription> byDir : dirs.values()) {
                for (LogDirDescription dir : byDir.values()) {
                    ReplicaInfo replica = dir.replicaInfos().get(partition);
                    if (replica != null) {
                        bytes += replica.size();
                    }
                }
            }
            return records == 0 ? Double.NaN : (double) bytes / records;
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            progress.message("warning: could not measure topic " + topic + " on the broker: " + describe(e));
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** Notes a topic that a worker or the Rust binary is about to create, for {@link #deleteLeftTopics()}. */
    private void expectTopic(String topic) {
        if (!options.keepTopics()) {
            undeleted.add(topic);
        }
    }

    private void deleteTopic(String topic) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            undeleted.remove(topic);
        } catch (Exception e) {
            progress.message("warning: could not delete topic " + topic + ": " + describe(e));
        }
    }

    /**
     * Deletes the topics of this invocation that are still on the broker: those of a run interrupted by a signal
     * (the coordinator's shutdown hook calls this). Waits at most 10 s; never throws.
     *
     * @return the topics it asked the broker to delete (empty after a normal end, or with {@code --keep-topics})
     */
    List<String> deleteLeftTopics() {
        List<String> topics = List.copyOf(undeleted);
        if (!topics.isEmpty()) {
            try {
                admin.deleteTopics(topics).all().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // a topic its worker never created, or the broker is gone: nothing more to do at exit
            }
            undeleted.removeAll(topics);
        }
        return topics;
    }

    /** The innermost meaningful cause of {@code e} as {@code SimpleName: message}. */
    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getMessage() == null) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
