package org.streamfusion.perf.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streamfusion.perf.nexmark.StageProfile.Stage;

class StageProfileTest {
    private static final String TASK = "[Source: nexmark_kafka[1] -> Calc[2] -> Sink (1/2)#0 tid=41];"
            + "java/lang/Thread.run;org/apache/flink/runtime/taskmanager/Task.run;"
            + "org/apache/flink/streaming/runtime/tasks/StreamTask.invoke;";

    @Test
    void theDeepestMarkedFrameNamesTheStage() {
        // Jackson under the stock sink's serializer is sink encode; under the source's deserializer, source.
        assertEquals(
                Stage.SINK_ENCODE,
                StageProfile.stageOf(
                        TASK
                                + "org/apache/flink/connector/kafka/sink/KafkaWriter.write;"
                                + "org/apache/flink/streaming/connectors/kafka/table/DynamicKafkaRecordSerializationSchema.serialize;"
                                + "org/apache/flink/formats/json/JsonRowDataSerializationSchema.serialize;"
                                + "org/apache/flink/shaded/jackson2/com/fasterxml/jackson/core/json/UTF8JsonGenerator.writeString"));
        assertEquals(
                Stage.SOURCE,
                StageProfile.stageOf(
                        TASK
                                + "org/apache/flink/connector/base/source/reader/SourceReaderBase.pollNext;"
                                + "org/apache/flink/formats/json/JsonRowDataDeserializationSchema.deserialize;"
                                + "org/apache/flink/shaded/jackson2/com/fasterxml/jackson/core/json/UTF8StreamJsonParser.nextToken"));
        // The sink writer's send is the producer, not the operator chain around it.
        assertEquals(
                Stage.PRODUCER,
                StageProfile.stageOf(TASK
                        + "org/apache/flink/connector/kafka/sink/KafkaWriter.write;"
                        + "org/apache/kafka/clients/producer/KafkaProducer.send;"
                        + "org/apache/kafka/clients/producer/internals/RecordAccumulator.append"));
        // Ours: the connector's operator, the JNI call and the Rust frames below it.
        assertEquals(
                Stage.SINK_ENCODE,
                StageProfile.stageOf(TASK
                        + "org/streamfusion/flink/connector/BatchingEncoderOperator.processElement;"
                        + "org/streamfusion/flink/RowDataJsonEncoder.flush;"
                        + "Java_org_streamfusion_flink_NativeJson_encode;"
                        + "streamfusion_json::flink::write_batch;__memmove_avx_unaligned_erms"));
        // Our source: the split reader on the fetcher thread, the JNI call and the Rust decoder below it.
        assertEquals(
                Stage.SOURCE,
                StageProfile.stageOf("[Source Data Fetcher for Source: nexmark_kafka[1] tid=52];"
                        + "org/apache/flink/connector/base/source/reader/fetcher/FetchTask.run;"
                        + "org/streamfusion/flink/connector/NativeDecodingSplitReader.fetch;"
                        + "org/streamfusion/flink/NativeRowDataDecoder.decode;"
                        + "org/streamfusion/kafka/NativeJsonDecoder.decode;"
                        + "Java_org_streamfusion_kafka_NativeJsonDecoder_decode;"
                        + "streamfusion_json::decode::lexer::Lexer::scan_string;__memmove_avx_unaligned_erms"));
        assertEquals(
                Stage.OPERATORS,
                StageProfile.stageOf(TASK
                        + "org/apache/flink/table/runtime/operators/rank/AppendOnlyTopNFunction.processElement;"
                        + "org/apache/flink/runtime/state/heap/CopyOnWriteStateMap.get"));
        assertEquals(
                Stage.CHECKPOINTS,
                StageProfile.stageOf(TASK
                        + "org/apache/flink/streaming/runtime/tasks/SubtaskCheckpointCoordinatorImpl.checkpointState;"
                        + "org/apache/flink/runtime/state/heap/HeapSnapshotStrategy.asyncSnapshot"));
    }

    @Test
    void threadsThatDoOneThingAreTakenByName() {
        assertEquals(
                Stage.PRODUCER,
                StageProfile.stageOf(
                        "[kafka-producer-network-thread | producer-nexmark-q0-ours-0-1 tid=77];java/lang/Thread.run;"
                                + "sun/nio/ch/EPoll.wait"));
        assertEquals(Stage.JVM, StageProfile.stageOf("[C2 CompilerThre tid=12];Compile::Optimize"));
        assertEquals(Stage.JVM, StageProfile.stageOf("[GC Thread#0 tid=9];G1ParTask::work"));
        assertEquals(
                Stage.PLANNING,
                StageProfile.stageOf("[main tid=1];org/streamfusion/perf/nexmark/NexmarkBench.main;"
                        + "org/apache/flink/table/api/internal/TableEnvironmentImpl.executeSql"));
        assertEquals(
                Stage.OTHER,
                StageProfile.stageOf("[flink-pekko.actor.default-dispatcher-4 tid=30];"
                        + "java/util/concurrent/ForkJoinWorkerThread.run"));
        assertEquals(Stage.OTHER, StageProfile.stageOf("no thread;libc.so.6"));
    }

    @Test
    void collapsedOutputIsSummedPerStageAndShared() {
        String collapsed = TASK + "org/apache/flink/formats/json/JsonRowDataSerializationSchema.serialize 30\n"
                + TASK + "org/apache/kafka/clients/producer/KafkaProducer.send 10\n"
                + "[kafka-producer-network-thread | p tid=5];x 10\n"
                + TASK + "org/apache/flink/table/runtime/operators/sink/SinkOperator.processElement 40\n"
                + "[flink-metrics-2 tid=31];y 10\n\n";
        Map<Stage, Long> samples = StageProfile.samplesPerStage(collapsed);
        assertEquals(30L, samples.get(Stage.SINK_ENCODE));
        assertEquals(20L, samples.get(Stage.PRODUCER));
        assertEquals(40L, samples.get(Stage.OPERATORS));
        assertEquals(10L, samples.get(Stage.OTHER));
        assertEquals(0L, samples.get(Stage.SOURCE));
        Map<Stage, Double> shares = StageProfile.shares(samples);
        assertEquals(0.3, shares.get(Stage.SINK_ENCODE), 1e-12);
        assertEquals(0.2, shares.get(Stage.PRODUCER), 1e-12);
        assertEquals(
                "source: fetch and JSON decode 0.0%, operators and runtime 40.0%, sink: encode 30.0%,"
                        + " sink: producer 20.0%, checkpoints 0.0%, JVM: GC and JIT 0.0%, planning and submission 0.0%,"
                        + " other 10.0%",
                StageProfile.format(shares));
        assertEquals(0.0, StageProfile.shares(StageProfile.samplesPerStage("")).get(Stage.OTHER));
        assertThrows(IllegalArgumentException.class, () -> StageProfile.samplesPerStage("[main tid=1];x"));
    }
}
