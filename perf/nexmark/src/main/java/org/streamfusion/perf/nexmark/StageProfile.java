package org.streamfusion.perf.nexmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import one.profiler.AsyncProfiler;
import one.profiler.Counter;

/**
 * A CPU profile of one job run (async-profiler, {@code tools.profiler:async-profiler} from Maven Central, in
 * this JVM, which hosts the MiniCluster and so every task, producer and checkpoint thread), its samples
 * attributed to the stages of a Nexmark job: source, operators, sink encode, producer, checkpoints, JVM,
 * planning, other.
 *
 * <p>Sampling: {@code event=cpu} (perf_events' CPU clock, one sample per 1 ms of CPU time of any thread), or
 * {@code itimer} where perf_events are not allowed; Java, JNI and native (Rust) frames alike, one stack per
 * sample with the thread's name at its root. {@link #stageOf} attributes a stack by its deepest frame that
 * names a stage (so a Jackson frame under Flink's {@code JsonRowDataSerializationSchema} is sink encode, under
 * {@code JsonRowDataDeserializationSchema} source), whole threads by name where the thread does one thing
 * (producer I/O, GC, JIT, the harness' main thread). The collapsed stacks are written beside the results for a flame graph
 * ({@code java -cp async-profiler.jar one.profiler.converter.Main file.collapsed out.html} or any
 * collapsed-stack viewer).
 */
final class StageProfile {
    /** Where a CPU sample's time went. */
    enum Stage {
        /**
         * The Kafka source: fetching (the consumer) and decoding the corpus, by Flink's {@code json} format or by
         * our native decoder.
         */
        SOURCE("source: fetch and JSON decode", "source_cpu_share"),
        /** The query's operators and Flink's runtime around them: calc, join, rank, shuffles, mailbox. */
        OPERATORS("operators and runtime", "operators_cpu_share"),
        /** Rows to bytes: Flink's {@code json} serialization schema, or StreamFusion's batch encoder. */
        SINK_ENCODE("sink: encode", "encode_cpu_share"),
        /**
         * Flink's {@code KafkaSink} writer and committer (both sinks use them) and the Kafka producer:
         * {@code send} (record accumulator), its I/O thread, transactions, flush.
         */
        PRODUCER("sink: producer", "producer_cpu_share"),
        /** Checkpoint barriers, state snapshots and the checkpoint coordinator. */
        CHECKPOINTS("checkpoints", "checkpoints_cpu_share"),
        /** Garbage collection and the JIT compilers. */
        JVM("JVM: GC and JIT", "jvm_cpu_share"),
        /** The harness' main thread: planning the query, building and submitting the job, waiting for it. */
        PLANNING("planning and submission", "planning_cpu_share"),
        /** Everything else: deployment, RPC, metrics, the cluster's own threads. */
        OTHER("other", "other_cpu_share");

        private final String label;
        private final String column;

        Stage(String label, String column) {
            this.label = label;
            this.column = column;
        }

        /** The printed name. */
        String label() {
            return label;
        }

        /** The results schema column of this stage's share. */
        String column() {
            return column;
        }
    }

    /** Frame markers, most specific first within a stack (checked from the leaf down). */
    private static final List<Map.Entry<String, Stage>> MARKERS = List.of(
            // Sink encode: the stock json serializer and the connector's record serializer around it ...
            Map.entry("org.apache.flink.formats.json.JsonRowDataSerializationSchema", Stage.SINK_ENCODE),
            Map.entry("org.apache.flink.formats.json.RowDataToJsonConverters", Stage.SINK_ENCODE),
            Map.entry(
                    "org.apache.flink.streaming.connectors.kafka.table.DynamicKafkaRecordSerializationSchema",
                    Stage.SINK_ENCODE),
            // Our source's decoding (before the markers of our encoder, which share their prefixes): the split
            // reader, the record it hands on and its deserializer, the JNI front end, the Rust decoder.
            Map.entry("org.streamfusion.flink.connector.NativeDecodingSplitReader", Stage.SOURCE),
            Map.entry("org.streamfusion.flink.connector.NativeRecordDeserializationSchema", Stage.SOURCE),
            Map.entry("org.streamfusion.flink.connector.DecodedRecord", Stage.SOURCE),
            Map.entry("org.streamfusion.flink.NativeRowDataDecoder", Stage.SOURCE),
            Map.entry("org.streamfusion.kafka.NativeJsonDecoder", Stage.SOURCE),
            Map.entry("org.streamfusion.kafka.DecodedRows", Stage.SOURCE),
            Map.entry("Java_org_streamfusion_kafka_NativeJsonDecoder", Stage.SOURCE),
            Map.entry("kafka_serde_native::decoder", Stage.SOURCE),
            Map.entry("streamfusion_json::decode::", Stage.SOURCE),
            // ... and ours: the connector, the JNI front end, Arrow Java's vectors, the Rust encoder.
            Map.entry("org.streamfusion.flink", Stage.SINK_ENCODE),
            Map.entry("org.apache.arrow.", Stage.SINK_ENCODE),
            Map.entry("Java_org_streamfusion", Stage.SINK_ENCODE),
            Map.entry("streamfusion_json::", Stage.SINK_ENCODE),
            Map.entry("kafka_serde_native::", Stage.SINK_ENCODE),
            Map.entry("arrow_array::", Stage.SINK_ENCODE),
            Map.entry("arrow_buffer::", Stage.SINK_ENCODE),
            Map.entry("arrow_data::", Stage.SINK_ENCODE),
            Map.entry("arrow_json::", Stage.SINK_ENCODE),
            // The sink writer and committer of Flink's KafkaSink (both sinks use it) and the producer they call
            // (send, flush, transactions).
            Map.entry("org.apache.flink.connector.kafka.sink.", Stage.PRODUCER),
            Map.entry("org.apache.kafka.clients.producer.", Stage.PRODUCER),
            // The source.
            Map.entry("org.apache.flink.formats.json.JsonRowDataDeserializationSchema", Stage.SOURCE),
            Map.entry("org.apache.flink.formats.json.JsonParserToRowDataConverters", Stage.SOURCE),
            Map.entry("org.apache.flink.formats.json.JsonToRowDataConverters", Stage.SOURCE),
            Map.entry("org.apache.flink.connector.kafka.source.", Stage.SOURCE),
            Map.entry("org.apache.flink.connector.base.source.reader.", Stage.SOURCE),
            Map.entry("org.apache.kafka.clients.consumer.", Stage.SOURCE),
            // Checkpoints.
            Map.entry("org.apache.flink.runtime.checkpoint.", Stage.CHECKPOINTS),
            Map.entry("org.apache.flink.streaming.runtime.tasks.SubtaskCheckpointCoordinatorImpl", Stage.CHECKPOINTS),
            Map.entry("org.apache.flink.streaming.runtime.tasks.AsyncCheckpointRunnable", Stage.CHECKPOINTS),
            Map.entry("org.apache.flink.runtime.state.filesystem.", Stage.CHECKPOINTS),
            Map.entry(".snapshotState", Stage.CHECKPOINTS),
            // The operators and the task runtime around them.
            Map.entry("org.apache.flink.table.runtime.", Stage.OPERATORS),
            Map.entry("org.apache.flink.streaming.api.operators.", Stage.OPERATORS),
            Map.entry("org.apache.flink.streaming.runtime.", Stage.OPERATORS),
            Map.entry("org.apache.flink.runtime.io.network.", Stage.OPERATORS),
            Map.entry("StreamExecCalc$", Stage.OPERATORS));

    private static AsyncProfiler profiler;

    private StageProfile() {}

    /**
     * Attributes one collapsed stack ({@code [thread name tid=N];root;...;leaf}, frames with {@code /} or
     * {@code .} as package separator) to a stage: by thread for the producer's I/O thread, GC and JIT threads
     * and the harness' main thread, else by its deepest frame that matches a marker, else {@link Stage#OTHER}.
     */
    static Stage stageOf(String stack) {
        String[] frames = stack.replace('/', '.').split(";");
        String thread = frames.length > 0 && frames[0].startsWith("[") ? frames[0] : "";
        if (thread.contains("kafka-producer-network-thread")) {
            return Stage.PRODUCER;
        }
        // Linux keeps 15 characters of a thread's name: "C2 CompilerThre".
        if (thread.contains("GC Thread")
                || thread.contains("G1 ")
                || thread.contains("CompilerThre")
                || thread.contains("VM Thread")
                || thread.contains("VM Periodic")
                || thread.contains("Sweeper")) {
            return Stage.JVM;
        }
        if (thread.startsWith("[main ")) {
            return Stage.PLANNING;
        }
        for (int i = frames.length - 1; i >= 0; i--) {
            String frame = frames[i];
            for (Map.Entry<String, Stage> m : MARKERS) {
                if (frame.contains(m.getKey())) {
                    return m.getValue();
                }
            }
        }
        return Stage.OTHER;
    }

    /**
     * Sums the samples of async-profiler's collapsed output ({@code stack count} per line) per stage.
     *
     * @throws IllegalArgumentException for a line without a trailing count
     */
    static Map<Stage, Long> samplesPerStage(String collapsed) {
        Map<Stage, Long> out = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) {
            out.put(s, 0L);
        }
        for (String line : collapsed.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String count = space < 0 ? "" : line.substring(space + 1).trim();
            if (count.isEmpty() || !count.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("not a collapsed stack line (no trailing count): " + line);
            }
            out.merge(stageOf(line.substring(0, space)), Long.parseLong(count), Long::sum);
        }
        return out;
    }

    /** The shares (0 to 1) of {@code samples}, in stage order; all zero when there are no samples. */
    static Map<Stage, Double> shares(Map<Stage, Long> samples) {
        long total = samples.values().stream().mapToLong(Long::longValue).sum();
        Map<Stage, Double> out = new EnumMap<>(Stage.class);
        samples.forEach((s, n) -> out.put(s, total == 0 ? 0.0 : (double) n / total));
        return out;
    }

    /**
     * Starts sampling every thread of this JVM.
     *
     * @return the sampling event used ({@code cpu}, or {@code itimer} where perf_events are refused)
     * @throws IllegalStateException when async-profiler's library cannot be loaded on this platform
     * @throws IOException when neither event can be started (the profiler's message says why)
     */
    static String start() throws IOException {
        if (profiler == null) {
            profiler = AsyncProfiler.getInstance();
        }
        try {
            profiler.execute("start,event=cpu,interval=1000000,threads");
            return "cpu";
        } catch (IllegalStateException | IOException e) {
            profiler.execute("start,event=itimer,interval=1000000,threads");
            return "itimer";
        }
    }

    /**
     * Stops sampling, writes the collapsed stacks to {@code collapsedFile} and returns the samples per stage.
     *
     * @throws IOException when the file cannot be written
     */
    static Map<Stage, Long> stop(Path collapsedFile) throws IOException {
        profiler.execute("stop");
        String collapsed = profiler.dumpCollapsed(Counter.SAMPLES);
        Files.createDirectories(collapsedFile.toAbsolutePath().getParent());
        Files.writeString(collapsedFile, collapsed);
        return samplesPerStage(collapsed);
    }

    /** {@code stage 12.3%, ...} in stage order. */
    static String format(Map<Stage, Double> shares) {
        StringBuilder b = new StringBuilder();
        shares.forEach((s, v) -> b.append(b.isEmpty() ? "" : ", ")
                .append(s.label())
                .append(' ')
                .append(String.format(Locale.ROOT, "%.1f%%", v * 100)));
        return b.toString();
    }
}
