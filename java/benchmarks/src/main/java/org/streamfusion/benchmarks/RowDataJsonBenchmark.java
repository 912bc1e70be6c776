package org.streamfusion.benchmarks;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
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
import org.streamfusion.flink.RowDataArrowWriter;
import org.streamfusion.flink.RowDataBinaryWriter;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.NativeJsonEncoder;
import org.streamfusion.perf.NexmarkRows;

/**
 * One batch of Nexmark-shaped Flink rows ({@link NexmarkRows}: bid, q9) to Kafka JSON records, Flink's
 * {@code json} format, value only (no key fields), each way a JVM engine could do it:
 * <ul>
 *   <li>{@code flinkPerRow}: Flink 2.2's {@link JsonRowDataSerializationSchema}, once per {@code RowData}: the
 *       baseline;</li>
 *   <li>{@code nativeFromArrow}: {@link NativeJsonEncoder#encode} of a batch already in Arrow vectors (filled
 *       once, in setup): the StreamFusion case, one JNI crossing, six arrays back;</li>
 *   <li>{@code nativeFromRowData}: {@link RowDataJsonEncoder} forced native ({@code native.min-batch-rows=0})
 *       through Arrow vectors ({@code native.handoff=arrow}): filling the vectors from the rows, then the
 *       crossing;</li>
 *   <li>{@code nativeFromBinaryBuffer}: {@link NativeJsonEncoder#encodeBinaryRows} of a batch already copied
 *       into a {@link RowDataBinaryWriter}'s buffer (once, in setup): the crossing and the native decoding of
 *       Flink's binary rows;</li>
 *   <li>{@code nativeFromBinaryRows}: {@link RowDataJsonEncoder} forced native with its default handoff,
 *       binary rows: each row's binary form copied into one buffer, then the crossing: what a Flink sink
 *       operator pays;</li>
 *   <li>{@code auto}: {@link RowDataJsonEncoder} with its defaults (binary rows), which encodes batches below
 *       {@link RowDataJsonEncoder#DEFAULT_NATIVE_MIN_BATCH_ROWS} rows with Flink's serializer.</li>
 * </ul>
 * Scores are nanoseconds per batch of {@code batch} rows; {@code Summary} prints them per row, as speed-ups
 * over {@code flinkPerRow} of the same run, and the crossover batch size; {@link CrossingBenchmark} gives the
 * fixed cost of one crossing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
// 16 MiB G1 regions: the slabs of the large batches (up to 5 MB for 8192 q9 rows) are then ordinary
// allocations, as in a task manager with a larger heap, not humongous ones.
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
public class RowDataJsonBenchmark {
    /** The row shape: {@code bid} (7 columns, ~190 bytes of JSON) or {@code q9} (17 columns, ~600 bytes). */
    @Param({"bid", "q9"})
    public String shape;

    /** Rows per batch: 1 to 8192, with 32, 64 and 128 to place the crossover. */
    @Param({"1", "16", "32", "64", "128", "256", "4096", "8192"})
    public int batch;

    private List<RowData> rows;
    private JsonRowDataSerializationSchema flink;
    private BufferAllocator allocator;
    private RowDataArrowWriter arrow;
    private NativeJsonEncoder nativeEncoder;
    private RowDataJsonEncoder forcedNative;
    private RowDataBinaryWriter binary;
    private NativeJsonEncoder binaryEncoder;
    private RowDataJsonEncoder forcedBinary;
    private RowDataJsonEncoder auto;

    /** Generates the rows, fills the Arrow batch once and opens every encoder. */
    @Setup(Level.Trial)
    public void setup() throws Exception {
        RowType type = NexmarkRows.type(shape);
        rows = NexmarkRows.rows(shape, 42, 0, batch);
        flink = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        allocator = new RootAllocator();
        arrow = new RowDataArrowWriter(type, allocator, null);
        arrow.write(rows);
        nativeEncoder = new NativeJsonEncoder(Map.of());
        forcedNative = new RowDataJsonEncoder(
                type,
                Map.of(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0", RowDataJsonEncoder.NATIVE_HANDOFF, "arrow"));
        binary = new RowDataBinaryWriter(type, allocator, null, false);
        binary.write(rows);
        binaryEncoder = new NativeJsonEncoder(Map.of());
        forcedBinary = new RowDataJsonEncoder(type, Map.of(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0"));
        auto = new RowDataJsonEncoder(type, Map.of());
        check();
    }

    /** Every path must give Flink's bytes, or the timings compare different work. */
    private void check() {
        EncodedBatch[] batches = {
            nativeEncoder.encode(arrow.root()),
            forcedNative.encode(rows),
            binary.encode(binaryEncoder),
            forcedBinary.encode(rows),
            auto.encode(rows)
        };
        for (int i = 0; i < rows.size(); i++) {
            byte[] expected = flink.serialize(rows.get(i));
            for (EncodedBatch b : batches) {
                if (!java.util.Arrays.equals(expected, b.value(i))) {
                    throw new IllegalStateException(shape + " row " + i + " differs from Flink's bytes: "
                            + new String(b.value(i), java.nio.charset.StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** Frees the encoders and vectors. */
    @TearDown(Level.Trial)
    public void tearDown() {
        auto.close();
        forcedBinary.close();
        binaryEncoder.close();
        forcedNative.close();
        nativeEncoder.close();
        binary.close();
        arrow.close();
        allocator.close();
    }

    /** Flink's serializer, row by row: one {@code byte[]} per row. */
    @Benchmark
    public void flinkPerRow(Blackhole bh) {
        for (RowData row : rows) {
            bh.consume(flink.serialize(row));
        }
    }

    /** The batch already in Arrow vectors: one crossing. */
    @Benchmark
    public EncodedBatch nativeFromArrow() {
        return nativeEncoder.encode(arrow.root());
    }

    /** Rows written into Arrow vectors, then one crossing. */
    @Benchmark
    public EncodedBatch nativeFromRowData() {
        return forcedNative.encode(rows);
    }

    /** The batch already in one buffer of Flink binary rows: one crossing, decoded natively. */
    @Benchmark
    public EncodedBatch nativeFromBinaryBuffer() {
        return binary.encode(binaryEncoder);
    }

    /** Each row's binary form copied into one buffer, then one crossing. */
    @Benchmark
    public EncodedBatch nativeFromBinaryRows() {
        return forcedBinary.encode(rows);
    }

    /** The default path choice. */
    @Benchmark
    public EncodedBatch auto() {
        return auto.encode(rows);
    }
}
