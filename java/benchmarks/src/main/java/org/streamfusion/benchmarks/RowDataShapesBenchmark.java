package org.streamfusion.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
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
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.perf.NexmarkRows;

/**
 * The sink's shapes beyond flat Nexmark rows, one batch of {@code BinaryRowData} (as a sink receives them) to
 * Kafka JSON values: Flink's {@link JsonRowDataSerializationSchema} per row (the baseline, what the stock sink
 * pays) against {@link RowDataJsonEncoder}'s native path with its default binary-row handoff (what the
 * connector runs). Shapes:
 *
 * <ul>
 *   <li>{@code bid-nested}: a Nexmark bid ({@link NexmarkRows#BID}) plus {@code tags ARRAY<STRING>} (0 to 4 tags)
 *       and {@code attrs MAP<STRING, STRING>} (0 to 3 entries);</li>
 *   <li>{@code doubles}: {@code id BIGINT} and eight DOUBLE columns (prices with two decimals, ratios in [0, 1),
 *       Gaussian and wide-ranging values, one null in ten), whose text is the running JDK's
 *       {@code Double.toString} on both paths (JDK 17's digits on JDK 17, {@code float.java-digits}).</li>
 * </ul>
 *
 * Setup checks that both paths give Flink's bytes for every row. Scores are nanoseconds per batch.
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
            // The heap's pages touched at start, as a long-running TaskManager's are: otherwise each fork pays
            // first-touch page faults while the young generation grows (a third of the spread, no change of the
            // ratios in interleaved runs).
            "-XX:+AlwaysPreTouch",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED"
        })
@State(Scope.Thread)
public class RowDataShapesBenchmark {
    /** The row shape: {@code bid-nested} or {@code doubles} (class comment). */
    @Param({"bid-nested", "doubles"})
    public String shape;

    /** Rows per batch (the connector's default {@code streamfusion.batch-rows} is 4096). */
    @Param({"4096"})
    public int batch;

    private List<RowData> rows;
    private JsonRowDataSerializationSchema flink;
    private RowDataJsonEncoder encoder;

    private static final String[] WORDS = {"sale", "new", "vintage", "red", "xl", "gift", "bundle", "eu"};

    static RowType type(String shape) {
        switch (shape) {
            case "bid-nested":
                List<RowType.RowField> fields = new ArrayList<>(NexmarkRows.BID.getFields());
                fields.add(new RowType.RowField(
                        "tags", DataTypes.ARRAY(DataTypes.STRING()).getLogicalType()));
                fields.add(new RowType.RowField(
                        "attrs",
                        DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()).getLogicalType()));
                return new RowType(fields);
            case "doubles":
                List<RowType.RowField> doubles = new ArrayList<>();
                doubles.add(new RowType.RowField("id", DataTypes.BIGINT().getLogicalType()));
                for (int i = 0; i < 8; i++) {
                    doubles.add(new RowType.RowField("d" + i, DataTypes.DOUBLE().getLogicalType()));
                }
                return new RowType(doubles);
            default:
                throw new IllegalArgumentException("unknown shape " + shape + ": expected bid-nested or doubles");
        }
    }

    static List<RowData> rows(String shape, long seed, int n) {
        RowType type = type(shape);
        RowDataSerializer binary = new RowDataSerializer(type);
        SplittableRandom r = new SplittableRandom(seed);
        List<RowData> bids = shape.equals("bid-nested") ? NexmarkRows.rows("bid", seed, 0, n) : null;
        List<RowData> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            if (bids != null) {
                RowData bid = bids.get(i);
                List<LogicalType> bidTypes = NexmarkRows.BID.getChildren();
                for (int f = 0; f < bidTypes.size(); f++) {
                    row.setField(
                            f, RowData.createFieldGetter(bidTypes.get(f), f).getFieldOrNull(bid));
                }
                Object[] tags = new Object[r.nextInt(5)];
                for (int t = 0; t < tags.length; t++) {
                    tags[t] = StringData.fromString(WORDS[r.nextInt(WORDS.length)]);
                }
                Map<Object, Object> attrs = new LinkedHashMap<>();
                for (int a = r.nextInt(4); a > 0; a--) {
                    attrs.put(
                            StringData.fromString("k" + r.nextInt(10)),
                            StringData.fromString(WORDS[r.nextInt(WORDS.length)]));
                }
                row.setField(7, new GenericArrayData(tags));
                row.setField(8, new GenericMapData(attrs));
            } else {
                row.setField(0, (long) i);
                for (int d = 1; d <= 8; d++) {
                    row.setField(d, r.nextInt(10) == 0 ? null : doubleValue(r, d));
                }
            }
            out.add(binary.toBinaryRow(row).copy());
        }
        return out;
    }

    private static double doubleValue(SplittableRandom r, int column) {
        switch (column % 4) {
            case 0:
                return r.nextInt(10_000_000) / 100.0;
            case 1:
                return r.nextDouble();
            case 2:
                return r.nextDouble() * 2 - 1 + r.nextInt(1000);
            default:
                return Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL) * (r.nextBoolean() ? 1 : -1);
        }
    }

    /** Generates the rows, opens both paths and checks that they agree. */
    @Setup(Level.Trial)
    public void setup() throws Exception {
        RowType type = type(shape);
        rows = rows(shape, 42, batch);
        flink = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        encoder = new RowDataJsonEncoder(type, Map.of(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0"));
        EncodedBatch encoded = encoder.encode(rows);
        for (int i = 0; i < rows.size(); i++) {
            if (!Arrays.equals(flink.serialize(rows.get(i)), encoded.value(i))) {
                throw new IllegalStateException(shape + " row " + i + " differs from Flink's bytes: "
                        + new String(encoded.value(i), StandardCharsets.UTF_8));
            }
        }
        if (encoder.nativeBatches() != 1) {
            throw new IllegalStateException(shape + ": the batch was not encoded natively");
        }
    }

    /** Frees the encoder. */
    @TearDown(Level.Trial)
    public void tearDown() {
        encoder.close();
    }

    /** Flink's serializer, row by row: one {@code byte[]} per row. */
    @Benchmark
    public void flinkPerRow(Blackhole bh) {
        for (RowData row : rows) {
            bh.consume(flink.serialize(row));
        }
    }

    /** The connector's path: each row's binary form copied into one buffer, then one crossing. */
    @Benchmark
    public EncodedBatch nativeFromBinaryRows() {
        return encoder.encode(rows);
    }
}
