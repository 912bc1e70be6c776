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
     * Null map keys in a nested map, a multiset and a map inside an array (one whose literal collides with a
     * real key: Flink's {@code ObjectNode} keeps the key's first place and takes its last value), as binary
     * rows: the native encoder applies {@code map-null-key.mode} as it reads them, every batch native and
     * Flink's bytes (LITERAL and DROP, whole batches and rows appended one by one), FAIL failing with Flink's
     * message naming the map and row. A key row with a mode of its own leaves such a batch to Flink's serializer.
     */
    @Test
    void aNullMapKeyIsWrittenAsFlinkWritesItNatively() throws Exception {
        Assumptions.assumeTrue(NativeLibrary.isLoaded(), "the native library is not loaded");
        RowType type = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("id", DataTypes.BIGINT()),
                        DataTypes.FIELD(
                                "nested",
                                DataTypes.ROW(DataTypes.FIELD(
                                        "attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())))),
                        DataTypes.FIELD("bag", DataTypes.MULTISET(DataTypes.STRING())),
                        DataTypes.FIELD("maps", DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()))))
                .getLogicalType();
        Map<StringData, Long> attrs = new LinkedHashMap<>();
        attrs.put(null, 1L);
        attrs.put(StringData.fromString("k"), 2L);
        Map<StringData, Integer> bag = new LinkedHashMap<>();
        bag.put(StringData.fromString("x"), 1);
        bag.put(null, 2);
        Map<StringData, StringData> colliding = new LinkedHashMap<>();
        colliding.put(StringData.fromString("nil"), StringData.fromString("a"));
        colliding.put(null, StringData.fromString("b"));
        colliding.put(StringData.fromString("z"), null);
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 20; id++) {
            rows.add(GenericRowData.of(
                    id,
                    GenericRowData.of(new GenericMapData(id == 7 ? attrs : Map.of())),
                    new GenericMapData(id == 9 ? bag : Map.of()),
                    new GenericArrayData(new Object[] {new GenericMapData(id == 11 ? colliding : Map.of())})));
        }
        RowDataSerializer toBinary = new RowDataSerializer(type);
        List<RowData> binaryRows = new ArrayList<>();
        for (RowData row : rows) {
            binaryRows.add(toBinary.toBinaryRow(row).copy());
        }
        for (String mode : List.of("LITERAL", "drop")) {
            Map<String, String> options = Map.of("map-null-key.mode", mode, "map-null-key.literal", "nil");
            FlinkReference flink = new FlinkReference(type, options);
            Map<String, String> encoderOptions = new HashMap<>(options);
            encoderOptions.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0");
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, encoderOptions)) {
                for (List<RowData> batch : List.of(rows, binaryRows)) {
                    assertFlinksBytes(flink, batch, encoder.encode(batch), mode);
                }
                for (RowData row : binaryRows) {
                    encoder.append(row);
                }
                assertFlinksBytes(flink, binaryRows, encoder.flush(), mode + ", appended");
                assertEquals(3, encoder.nativeBatches(), mode);
                assertEquals(0, encoder.jvmBatches(), mode);
            }
        }
        // A key row with a mode of its own: a map read once cannot serve both, Flink's serializer writes it. A key
        // row that states the value's mode (and literal) is native: the native encoder's rule decides.
        Map<Map<String, String>, Integer> keyModes = Map.of(
                Map.of("map-null-key.mode", "LITERAL", "key.fields", "id", "key.map-null-key.mode", "DROP"),
                0,
                Map.of(
                        "map-null-key.mode", "LITERAL",
                        "map-null-key.literal", "nil",
                        "key.fields", "id",
                        "key.map-null-key.mode", "LITERAL",
                        "key.map-null-key.literal", "nil"),
                1);
        for (Map.Entry<Map<String, String>, Integer> keyMode : keyModes.entrySet()) {
            Map<String, String> encoderOptions = new HashMap<>(keyMode.getKey());
            encoderOptions.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0");
            String where = "key row's options " + keyMode.getKey();
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, encoderOptions)) {
                EncodedBatch encoded = encoder.encode(binaryRows);
                FlinkReference flink = new FlinkReference(type, keyMode.getKey());
                for (int i = 0; i < binaryRows.size(); i++) {
                    FlinkReference.assertSame(flink.key(binaryRows.get(i)), encoded.key(i), where + ", key " + i);
                    FlinkReference.assertSame(flink.value(binaryRows.get(i)), encoded.value(i), where + ", value " + i);
                }
                assertEquals((long) keyMode.getValue(), encoder.nativeBatches(), where);
                assertEquals(1L - keyMode.getValue(), encoder.jvmBatches(), where);
            }
        }
        // FAIL (the default): the batch fails with Flink's message, naming the first map and row at fault.
        for (List<RowData> batch : List.of(rows, binaryRows)) {
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, Map.of("native.min-batch-rows", "0"))) {
                RuntimeException failure = assertThrows(RuntimeException.class, () -> encoder.encode(batch));
                StringBuilder chain = new StringBuilder();
                for (Throwable t = failure; t != null; t = t.getCause()) {
                    chain.append(t).append(" | ");
                }
                assertTrue(
                        chain.toString()
                                .contains("field `nested.attrs`, row 7: JSON format doesn't support to "
                                        + "serialize map data with null keys. You can drop null key entries or encode "
                                        + "null in literals by specifying map-null-key.mode option."),
                        chain::toString);
            }
        }
    }

    private static void assertFlinksBytes(
            FlinkReference flink, List<RowData> rows, EncodedBatch encoded, String where) {
        assertEquals(rows.size(), encoded.size(), where);
        for (int i = 0; i < rows.size(); i++) {
            FlinkReference.assertSame(flink.value(rows.get(i)), encoded.value(i), where + ", row " + i);
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
