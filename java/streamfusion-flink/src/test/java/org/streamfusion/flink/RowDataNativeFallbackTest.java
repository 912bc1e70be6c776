package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.bijou64.WithoutTheLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streamfusion.kafka.EncodedBatch;

/**
 * StreamFusion without its native library (the StreamFusion half of the fallback test): from a
 * kafka-serde-native jar without {@code native/}, as on a platform the jar does not cover, {@link RowDataJsonEncoder} loads, warns once, and
 * writes every batch with Flink's serializer, byte for byte what Flink's {@link JsonRowDataSerializationSchema}
 * writes. The bijou64 codec's half is {@code org.bijou64.NativeFallbackTest}.
 */
class RowDataNativeFallbackTest {
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {
                new IntType(),
                new BigIntType(),
                new VarCharType(VarCharType.MAX_LENGTH),
                new DecimalType(10, 2),
                new TimestampType(3),
                new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "count", "name", "price", "ts", "note"});

    /** A handful of rows: ints, strings that need escapes, a decimal, a timestamp, nulls. */
    private static List<RowData> rows() {
        return List.of(
                GenericRowData.of(
                        1,
                        9_007_199_254_740_993L,
                        StringData.fromString("plain"),
                        DecimalData.fromBigDecimal(new BigDecimal("12.30"), 10, 2),
                        TimestampData.fromEpochMillis(1_795_910_400_001L),
                        StringData.fromString("note")),
                GenericRowData.of(
                        -2_147_483_648,
                        -1L,
                        StringData.fromString("quote \" backslash \\ tab \t newline \n"),
                        DecimalData.fromBigDecimal(new BigDecimal("-0.05"), 10, 2),
                        TimestampData.fromEpochMillis(0L),
                        null),
                GenericRowData.of(
                        3,
                        0L,
                        StringData.fromString("control \u0001, é, 😀, </script>"),
                        DecimalData.fromBigDecimal(new BigDecimal("99999999.99"), 10, 2),
                        TimestampData.fromEpochMillis(-1L),
                        StringData.fromString("")));
    }

    /**
     * Run in the child JVM: encodes {@link #rows()} through {@link RowDataJsonEncoder} with
     * {@code native.min-batch-rows=0} (every batch native, when there is a library) and prints the path taken
     * and each record's value in hex.
     */
    public static void main(String[] args) {
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of("native.min-batch-rows", "0"))) {
            EncodedBatch batch = encoder.encode(rows());
            System.out.println("native=" + encoder.nativeAvailable());
            System.out.println("batches=" + encoder.nativeBatches() + " native, " + encoder.jvmBatches() + " flink");
            for (int i = 0; i < batch.size(); i++) {
                System.out.println(
                        "key=" + (batch.key(i) == null ? "null" : HexFormat.of().formatHex(batch.key(i))));
                System.out.println("value=" + HexFormat.of().formatHex(batch.value(i)));
            }
        }
    }

    /** What the child must print for the records: Flink's own serializer over the same rows, in this JVM. */
    private static List<String> flinksRecords() throws Exception {
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(
                TYPE, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        List<String> lines = new ArrayList<>();
        for (RowData row : rows()) {
            lines.add("key=null");
            lines.add("value=" + HexFormat.of().formatHex(flink.serialize(row)));
        }
        return lines;
    }

    @Test
    void aJarWithoutTheLibraryEncodesWithFlinksSerializerAndSaysWhatItCovers(@TempDir Path dir) throws Exception {
        String output = WithoutTheLibrary.run(
                WithoutTheLibrary.classPath(dir),
                List.of("--add-opens=java.base/java.nio=ALL-UNNAMED"),
                RowDataNativeFallbackTest.class);
        WithoutTheLibrary.assertOneWarningNamingCoverage(output);
        assertTrue(output.contains("native=false\n"), output);
        assertTrue(output.contains("batches=0 native, 1 flink\n"), output);
        List<String> records = output.lines()
                .filter(line -> line.startsWith("key=") || line.startsWith("value="))
                .toList();
        assertEquals(flinksRecords(), records, output);
    }
}
