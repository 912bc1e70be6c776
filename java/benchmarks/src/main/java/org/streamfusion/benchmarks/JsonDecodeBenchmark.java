package org.streamfusion.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.streamfusion.flink.NativeRowDataDecoder;
import org.streamfusion.perf.NexmarkRows;

/**
 * One chunk of Kafka JSON messages (Nexmark-shaped rows, {@link NexmarkRows}: bid and q9, written by Flink's
 * own {@link JsonRowDataSerializationSchema}) into Flink {@link RowData}, each way:
 * <ul>
 *   <li>{@code flinkPerMessage}: Flink 2.2's {@link JsonParserRowDataDeserializationSchema} (the default
 *       {@code json} deserializer), once per message: what the stock Kafka source pays;</li>
 *   <li>{@code nativeChunk}: {@link NativeRowDataDecoder#decode}: the messages copied into one slab, one JNI
 *       crossing, the rows back as {@code BinaryRowData} over one array.</li>
 * </ul>
 * Scores are nanoseconds per chunk of {@code chunk} messages; setup checks that both give the same rows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Xms2g",
            "-Xmx2g",
            "-XX:G1HeapRegionSize=16m",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED"
        })
@State(Scope.Thread)
public class JsonDecodeBenchmark {
    /**
     * The row shape: {@code bid} (7 columns, 245 bytes of JSON on average), {@code auction} (10 columns, 474
     * bytes), {@code person} (8 columns, 326 bytes) or {@code q9} (17 columns, 747 bytes).
     */
    @Param({"bid", "auction", "person", "q9"})
    public String shape;

    /** Messages per chunk (a Kafka fetch per split holds up to {@code max.poll.records}, 500 by default). */
    @Param({"500", "8192"})
    public int chunk;

    private byte[][] messages;
    private JsonParserRowDataDeserializationSchema flink;
    private NativeRowDataDecoder decoder;

    /** Writes the messages with Flink's serializer, opens both deserializers and checks they agree. */
    @Setup(Level.Trial)
    public void setup() throws Exception {
        RowType type = NexmarkRows.type(shape);
        JsonRowDataSerializationSchema writer = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        writer.open(null);
        List<RowData> rows = NexmarkRows.rows(shape, 42, 0, chunk);
        messages = new byte[chunk][];
        for (int i = 0; i < chunk; i++) {
            messages[i] = writer.serialize(rows.get(i));
        }
        flink = new JsonParserRowDataDeserializationSchema(
                type, InternalTypeInfo.of(type), false, false, TimestampFormat.SQL);
        flink.open(null);
        decoder = new NativeRowDataDecoder(type, Map.of());
        check(type);
    }

    /** Both ways must give the same rows (byte for byte in binary form), or the timings compare different work. */
    private void check(RowType type) throws IOException {
        List<RowData> ours = new ArrayList<>();
        decoder.decode(messages, chunk, collect(ours), flink);
        if (ours.size() != chunk || decoder.flinkMessages() != 0) {
            throw new IllegalStateException(
                    shape + ": " + ours.size() + " rows, " + decoder.flinkMessages() + " messages left to Flink");
        }
        for (int i = 0; i < chunk; i++) {
            byte[] expected = bytes(new RowDataSerializer(type).toBinaryRow(flink.deserialize(messages[i])));
            byte[] actual = bytes(new RowDataSerializer(type).toBinaryRow(ours.get(i)));
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException(shape + " message " + i + " decodes differently from Flink");
            }
        }
    }

    private static byte[] bytes(org.apache.flink.table.data.binary.BinaryRowData row) {
        byte[] bytes = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), bytes, 0, bytes.length);
        return bytes;
    }

    /** Frees the native decoder. */
    @TearDown(Level.Trial)
    public void tearDown() {
        decoder.close();
    }

    /** The baseline: Flink's deserializer once per message. */
    @Benchmark
    public void flinkPerMessage(Blackhole bh) throws IOException {
        for (byte[] message : messages) {
            bh.consume(flink.deserialize(message));
        }
    }

    /** The whole chunk in one native call, rows as {@code BinaryRowData}. */
    @Benchmark
    public void nativeChunk(Blackhole bh) throws IOException {
        decoder.decode(messages, chunk, collect(bh), flink);
    }

    private static Collector<RowData> collect(List<RowData> into) {
        return new Collector<RowData>() {
            @Override
            public void collect(RowData record) {
                into.add(record);
            }

            @Override
            public void close() {}
        };
    }

    private static Collector<RowData> collect(Blackhole bh) {
        return new Collector<RowData>() {
            @Override
            public void collect(RowData record) {
                bh.consume(record);
            }

            @Override
            public void close() {}
        };
    }
}
