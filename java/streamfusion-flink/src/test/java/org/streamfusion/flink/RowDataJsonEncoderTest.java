package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.VariantType;
import org.junit.jupiter.api.Test;
import org.streamfusion.kafka.EncodedBatch;

/** The path choice, the options and the errors of {@link RowDataJsonEncoder}. */
class RowDataJsonEncoderTest {
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new TimestampType(3)},
            new String[] {"id", "name", "ts"});

    private static List<RowData> rows(int n) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(GenericRowData.of(
                    (long) i, StringData.fromString("n" + i), TimestampData.fromEpochMillis(1_795_910_400_001L + i)));
        }
        return rows;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void batchesBelowTheThresholdTakeTheJvmPathWithTheSameBytes() {
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of("native.min-batch-rows", "4"))) {
            assertEquals(4, encoder.nativeMinBatchRows());
            assertTrue(encoder.nativeAvailable());
            EncodedBatch small = encoder.encode(rows(3));
            EncodedBatch large = encoder.encode(rows(4));
            assertEquals(1, encoder.jvmBatches());
            assertEquals(1, encoder.nativeBatches());
            assertEquals(7, encoder.rows());
            for (int i = 0; i < 3; i++) {
                assertEquals(text(large.value(i)), text(small.value(i)));
            }
            assertEquals("{\"id\":0,\"name\":\"n0\",\"ts\":\"2026-11-29 00:00:00.001\"}", text(small.value(0)));
            assertEquals(small.valueBytes() + text(large.value(3)).length(), large.valueBytes());
            assertEquals(encoder.valueBytes(), small.valueBytes() + large.valueBytes());
            assertEquals(-1, small.keyLength(0));
        }
    }

    @Test
    void theDefaultThresholdIsTheMeasuredCrossover() {
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of())) {
            assertEquals(RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS, encoder.nativeMinBatchRows());
            encoder.encode(rows(RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS - 1));
            encoder.encode(rows(RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS));
            encoder.encode(Collections.emptyList());
            assertEquals(2, encoder.jvmBatches());
            assertEquals(1, encoder.nativeBatches());
        }
    }

    @Test
    void flinkVersionDefaultsToTheClasspathRelease() {
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of("flink.version", "2.2"))) {
            assertEquals("2.2", encoder.options().get("flink.version"));
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new RowDataJsonEncoder(TYPE, Map.of("flink.version", "1.20")));
        assertTrue(e.getMessage().contains("Flink 2.2 is on the classpath"), e.getMessage());
    }

    @Test
    void badOptionsNameTheOption() {
        Map<String, String> cases = new HashMap<>();
        cases.put("timestamp-format.standrd", "timestamp-format.standrd");
        cases.put("native.min-batch-rows", "native.min-batch-rows");
        cases.put("changelog.mode", "changelog.mode");
        cases.put("mode", "mode=plain");
        cases.put("changelog.row-kind-column", "changelog.mode=upsert");
        cases.put("plain.explicit-nulls", "plain.explicit-nulls");
        Map<String, String> values = Map.of(
                "native.min-batch-rows",
                "-1",
                "changelog.mode",
                "retract",
                "mode",
                "plain",
                "changelog.row-kind-column",
                "op",
                "plain.explicit-nulls",
                "true");
        cases.forEach((option, expected) -> {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> new RowDataJsonEncoder(TYPE, Map.of(option, values.getOrDefault(option, "SQL"))));
            assertTrue(e.getMessage().contains(expected), option + ": " + e.getMessage());
        });
        IllegalArgumentException upsert = assertThrows(
                IllegalArgumentException.class, () -> new RowDataJsonEncoder(TYPE, Map.of("changelog.mode", "upsert")));
        assertTrue(upsert.getMessage().contains("needs key.fields"), upsert.getMessage());
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class, () -> new RowDataJsonEncoder(TYPE, Map.of("key.fields", "nope")));
        assertTrue(missing.getMessage().contains("nope"), missing.getMessage());
    }

    @Test
    void unsupportedTypesAreRejectedNamingTheField() {
        RowType nested = RowType.of(
                new LogicalType[] {new BigIntType(), new ArrayType(new BigIntType())}, new String[] {"id", "tags"});
        // Nested columns cross as binary rows (the default handoff), not as Arrow vectors filled on the JVM.
        new RowDataJsonEncoder(nested, Map.of()).close();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new RowDataJsonEncoder(nested, Map.of(RowDataJsonEncoder.NATIVE_HANDOFF, "arrow")));
        assertTrue(e.getMessage().contains("field `tags` has type ARRAY<BIGINT>"), e.getMessage());
        RowType variant = RowType.of(new LogicalType[] {new VariantType()}, new String[] {"v"});
        IllegalArgumentException v =
                assertThrows(IllegalArgumentException.class, () -> new RowDataJsonEncoder(variant, Map.of()));
        assertTrue(v.getMessage().contains("field `v` has type VARIANT"), v.getMessage());
    }

    @Test
    void valuesAnArrowColumnCannotHoldGoThroughFlinksSerializerWhateverTheBatchSize() {
        RowType type = RowType.of(
                new LogicalType[] {
                    new TimestampType(3),
                    new TimestampType(9),
                    new org.apache.flink.table.types.logical.DecimalType(5, 2)
                },
                new String[] {"ts3", "ts9", "dec"});
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, Map.of("native.min-batch-rows", "0"))) {
            // Nanoseconds in a TIMESTAMP(3), the year 9999 in a TIMESTAMP(9), 1.5 at scale 1 in a DECIMAL(5,2):
            // Flink writes each as it is; none fits its Arrow column exactly.
            List<RowData> odd = List.of(
                    GenericRowData.of(TimestampData.fromEpochMillis(0, 5), null, null),
                    GenericRowData.of(null, TimestampData.fromEpochMillis(253_402_300_799_999L, 123_456), null),
                    GenericRowData.of(
                            null,
                            null,
                            org.apache.flink.table.data.DecimalData.fromBigDecimal(
                                    new java.math.BigDecimal("1.5"), 5, 1)));
            EncodedBatch batch = encoder.encode(odd);
            assertEquals("{\"ts3\":\"1970-01-01 00:00:00.000000005\",\"ts9\":null,\"dec\":null}", text(batch.value(0)));
            assertEquals("{\"ts3\":null,\"ts9\":\"9999-12-31 23:59:59.999123456\",\"dec\":null}", text(batch.value(1)));
            assertEquals("{\"ts3\":null,\"ts9\":null,\"dec\":1.5}", text(batch.value(2)));
            assertEquals(1, encoder.jvmBatches());
            assertEquals(0, encoder.nativeBatches());
            // Ordinary values take the native path again.
            EncodedBatch plain = encoder.encode(List.of(GenericRowData.of(
                    TimestampData.fromEpochMillis(1),
                    null,
                    org.apache.flink.table.data.DecimalData.fromBigDecimal(new java.math.BigDecimal("1.50"), 5, 2))));
            assertEquals("{\"ts3\":\"1970-01-01 00:00:00.001\",\"ts9\":null,\"dec\":1.5}", text(plain.value(0)));
            assertEquals(1, encoder.nativeBatches());
        }
    }

    @Test
    void closedEncodersThrowAndCloseIsIdempotent() {
        RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of());
        encoder.close();
        encoder.close();
        assertThrows(IllegalStateException.class, () -> encoder.encode(rows(1)));
        try (RowDataJsonEncoder open = new RowDataJsonEncoder(TYPE, Map.of())) {
            assertThrows(NullPointerException.class, () -> open.encode(null));
        }
    }
}
