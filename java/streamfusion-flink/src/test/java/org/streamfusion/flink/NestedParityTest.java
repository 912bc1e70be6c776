package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.streamfusion.kafka.EncodedBatch;

/**
 * Nested columns (ARRAY, MAP, MULTISET and ROW to depth 3 over the json format's scalar types, nulls at every
 * level, empty arrays and maps: {@link RandomNestedRows}) through {@link RowDataJsonEncoder}'s native binary-row
 * path, against Flink's {@link JsonRowDataSerializationSchema} on the same rows, as {@code GenericRowData} and as
 * the {@code BinaryRowData} a sink receives; and the values the native path leaves to Flink's serializer.
 */
class NestedParityTest {
    private static final long SEED = Long.getLong("streamfusion.parity.seed", 20261206L);
    private static final int TYPES = 150;
    private static final int ROWS = 40;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"defaults", "ignore-nulls", "iso-plain", "key-except-key", "key-own-options"})
    void randomNestedRowsAreFlinksBytes(String variant) throws Exception {
        Assumptions.assumeTrue(NativeLibrary.isLoaded(), "the native library is not loaded");
        Random random = new Random(SEED + variant.hashCode());
        int rows = 0;
        for (int t = 0; t < TYPES; t++) {
            RowType type = RandomNestedRows.rowType(random, 3);
            Map<String, String> options = new HashMap<>();
            switch (variant) {
                case "ignore-nulls" -> options.put("encode.ignore-null-fields", "true");
                case "iso-plain" -> {
                    options.put("timestamp-format.standard", "ISO-8601");
                    options.put("encode.decimal-as-plain-number", "true");
                }
                case "key-except-key" -> {
                    options.put("key.fields", type.getFieldNames().get(0));
                    options.put("value.fields-include", "EXCEPT_KEY");
                }
                case "key-own-options" -> {
                    // The key row with json options of its own, the value row with the defaults.
                    options.put("key.fields", type.getFieldNames().get(0));
                    options.put("key.timestamp-format.standard", "ISO-8601");
                    options.put("key.encode.decimal-as-plain-number", "true");
                    options.put("key.encode.ignore-null-fields", "true");
                }
                default -> {}
            }
            if (variant.equals("key-except-key") && type.getFieldCount() < 2) {
                continue;
            }
            List<RowData> generic = new ArrayList<>();
            List<RowData> binary = new ArrayList<>();
            RowDataSerializer serializer = new RowDataSerializer(type);
            for (int i = 0; i < ROWS; i++) {
                GenericRowData row = RandomNestedRows.row(random, type);
                generic.add(row);
                binary.add(serializer.toBinaryRow(row).copy());
            }
            FlinkReference reference = new FlinkReference(type, options);
            Map<String, String> encoderOptions = new HashMap<>(options);
            encoderOptions.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0");
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, encoderOptions)) {
                for (List<RowData> batch : List.of(generic, binary)) {
                    EncodedBatch encoded = encoder.encode(batch);
                    for (int i = 0; i < ROWS; i++) {
                        String where = variant + ", seed " + SEED + ", type " + t + " " + type + ", row " + i + " ("
                                + generic.get(i) + ")";
                        FlinkReference.assertSame(reference.key(batch.get(i)), encoded.key(i), "key, " + where);
                        FlinkReference.assertSame(reference.value(batch.get(i)), encoded.value(i), "value, " + where);
                    }
                    rows += ROWS;
                }
                assertEquals(2, encoder.nativeBatches(), () -> "every batch native: " + type);
                assertEquals(0, encoder.jvmBatches());
            }
        }
        assertTrue(rows >= TYPES * ROWS, "rows compared: " + rows);
    }

    /**
     * A null map key, which an Arrow map cannot hold: the batch is Flink's serializer's, so
     * {@code map-null-key.mode} is Flink's (LITERAL writes the literal, FAIL fails with Flink's message).
     */
    @Test
    void aNullMapKeyLeavesTheBatchToFlinksSerializer() throws Exception {
        Assumptions.assumeTrue(NativeLibrary.isLoaded(), "the native library is not loaded");
        RowType type = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                        DataTypes.FIELD(
                                "nested",
                                DataTypes.ROW(DataTypes.FIELD(
                                        "attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())))))
                .getLogicalType();
        Map<StringData, Long> attrs = new LinkedHashMap<>();
        attrs.put(null, 1L);
        attrs.put(StringData.fromString("k"), 2L);
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 20; id++) {
            rows.add(GenericRowData.of(
                    id, GenericRowData.of(id == 7 ? new GenericMapData(attrs) : new GenericMapData(Map.of()))));
        }
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.LITERAL, "nil", false, false);
        flink.open(null);
        Map<String, String> literal = Map.of(
                "map-null-key.mode",
                "LITERAL",
                "map-null-key.literal",
                "nil",
                RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS,
                "0");
        // As generic rows and as the binary rows a sink receives (whose key arrays are checked from their null bits).
        RowDataSerializer toBinary = new RowDataSerializer(type);
        List<RowData> binaryRows = new ArrayList<>();
        for (RowData row : rows) {
            binaryRows.add(toBinary.toBinaryRow(row).copy());
        }
        for (List<RowData> batch : List.of(rows, binaryRows)) {
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, literal)) {
                EncodedBatch encoded = encoder.encode(batch);
                for (int i = 0; i < batch.size(); i++) {
                    FlinkReference.assertSame(flink.serialize(batch.get(i)), encoded.value(i), "row " + i);
                }
                assertEquals(0, encoder.nativeBatches());
                assertEquals(1, encoder.jvmBatches());
            }
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, Map.of("native.min-batch-rows", "0"))) {
                RuntimeException failure = assertThrows(RuntimeException.class, () -> encoder.encode(batch));
                StringBuilder chain = new StringBuilder();
                for (Throwable t = failure; t != null; t = t.getCause()) {
                    chain.append(t).append(" | ");
                }
                assertTrue(
                        chain.toString().contains("doesn't support to serialize map data with null keys"),
                        chain::toString);
            }
        }
    }

    /** A TIMESTAMP(9) inside an array beyond Arrow's 64-bit nanoseconds: Flink's serializer writes that batch. */
    @Test
    void aNestedTimestampBeyondArrowsRangeLeavesTheBatchToFlinksSerializer() throws Exception {
        Assumptions.assumeTrue(NativeLibrary.isLoaded(), "the native library is not loaded");
        RowType type = (RowType) DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.ARRAY(DataTypes.TIMESTAMP(9))))
                .getLogicalType();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long millis = i == 3 ? 9_000_000_000_000_000L : 1_700_000_000_000L + i;
            rows.add(GenericRowData.of(new GenericArrayData(new Object[] {TimestampData.fromEpochMillis(millis, 5)})));
        }
        FlinkReference reference = new FlinkReference(type, Map.of());
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, Map.of("native.min-batch-rows", "0"))) {
            EncodedBatch encoded = encoder.encode(rows);
            for (int i = 0; i < rows.size(); i++) {
                FlinkReference.assertSame(reference.value(rows.get(i)), encoded.value(i), "row " + i);
            }
            assertEquals(0, encoder.nativeBatches());
            // Without the far timestamp, the batch is native.
            rows.remove(3);
            encoder.encode(rows);
            assertEquals(1, encoder.nativeBatches());
        }
    }
}
