package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.streamfusion.kafka.EncodedBatch;

/**
 * Both paths of {@link RowDataJsonEncoder} (native: RowData → binary rows or Arrow vectors → one JNI crossing;
 * JVM: Flink's serializer per row) against Flink's {@link JsonRowDataSerializationSchema} applied here directly to each row's key and
 * value projection, over seeded random rows of every supported type, under each layout and option set.
 */
class RowDataParityTest {
    private static final long SEED = Long.getLong("streamfusion.parity.seed", 20261130L);
    private static final int ROWS = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Each option set twice: through the default handoff (binary rows) and with {@code native.handoff=arrow}
     * (Arrow vectors); the reference ignores that option.
     */
    static List<Arguments> cases() {
        List<Arguments> layouts = List.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("ISO-8601, plain decimals", Map.of("timestamp-format.standard", "ISO-8601",
                        "encode.decimal-as-plain-number", "true")),
                Arguments.of("ignore nulls", Map.of("encode.ignore-null-fields", "true")),
                Arguments.of("key, all fields", Map.of("key.fields", "id;name")),
                Arguments.of("key, except key, prefix", Map.of("key.fields", "k2", "key.fields-prefix", "k",
                        "value.fields-include", "EXCEPT_KEY")),
                Arguments.of("upsert", Map.of("key.fields", "id", "changelog.mode", "upsert",
                        "encode.ignore-null-fields", "true")));
        List<Arguments> cases = new ArrayList<>();
        for (String handoff : List.of("binary-rows", "arrow")) {
            for (Arguments layout : layouts) {
                @SuppressWarnings("unchecked")
                Map<String, String> options = new java.util.HashMap<>((Map<String, String>) layout.get()[1]);
                options.put(RowDataJsonEncoder.NATIVE_HANDOFF, handoff);
                cases.add(Arguments.of(layout.get()[0] + ", " + handoff, Map.copyOf(options)));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void bothPathsWriteFlinksBytes(String name, Map<String, String> options) throws Exception {
        List<RowData> rows = RandomRows.allTypes(SEED + name.hashCode(), ROWS);
        try (RowDataJsonEncoder nativePath = encoder(options, "0");
                RowDataJsonEncoder jvmPath = encoder(options, Integer.toString(Integer.MAX_VALUE))) {
            // Two batches through the native path: the second reuses the plan and the vectors.
            nativePath.encode(rows.subList(0, ROWS / 2));
            compare(name, options, rows, nativePath.encode(rows), jvmPath.encode(rows));
            assertEquals(2, nativePath.nativeBatches());
            assertEquals(1, jvmPath.jvmBatches());
        }
    }

    private static void compare(String name, Map<String, String> options, List<RowData> rows,
            EncodedBatch nativeBatch, EncodedBatch jvmBatch) throws Exception {
        Reference reference = new Reference(RandomRows.ALL_TYPES, options);
        for (int at = 0; at < ROWS; at++) {
            final int i = at;
            RowData row = rows.get(i);
            String where = name + ", seed " + SEED + ", row " + i + " (" + row + ")";
            byte[] key = reference.key(row);
            byte[] value = reference.value(row);
            assertSame(key, nativeBatch.key(i), "native key, " + where);
            assertSame(value, nativeBatch.value(i), "native value, " + where);
            assertArrayEquals(key, jvmBatch.key(i), () -> "JVM key, " + where);
            assertArrayEquals(value, jvmBatch.value(i), () -> "JVM value, " + where);
        }
    }

    /**
     * Byte equality, except on JDK 17 and 18, whose {@code Double.toString} (which Flink's serializer calls)
     * prints other, longer digits for some doubles than JDK 19 and later, which the native encoder matches
     * ({@code docs/json-format.md}, "JDK 17"): there the two records must be the same JSON tree, numbers equal
     * by value, and differ in float digits only.
     */
    private static void assertSame(byte[] flink, byte[] ours, String where) throws Exception {
        if (Arrays.equals(flink, ours)) {
            return;
        }
        String message = where + ": ours " + text(ours) + " vs Flink " + text(flink);
        if (Runtime.version().feature() >= 19 || flink == null || ours == null) {
            throw new AssertionError(message);
        }
        assertEquals(JSON.readTree(flink), JSON.readTree(ours), message);
    }

    private static RowDataJsonEncoder encoder(Map<String, String> options, String minRows) {
        Map<String, String> all = new java.util.HashMap<>(options);
        all.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, minRows);
        return new RowDataJsonEncoder(RandomRows.ALL_TYPES, all);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Flink 2.2's serializer, built here directly, over key and value rows copied field by field. */
    private static final class Reference {
        private final JsonRowDataSerializationSchema keySchema;
        private final JsonRowDataSerializationSchema valueSchema;
        private final int[] keyPositions;
        private final int[] valuePositions;
        private final RowData.FieldGetter[] getters;
        private final boolean upsert;

        Reference(RowType type, Map<String, String> options) throws Exception {
            TimestampFormat ts = TimestampFormat.valueOf(
                    options.getOrDefault("timestamp-format.standard", "SQL").replace('-', '_'));
            boolean plain = Boolean.parseBoolean(options.getOrDefault("encode.decimal-as-plain-number", "false"));
            boolean ignoreNulls = Boolean.parseBoolean(options.getOrDefault("encode.ignore-null-fields", "false"));
            String prefix = options.getOrDefault("key.fields-prefix", "");
            List<String> keys = options.containsKey("key.fields")
                    ? List.of(options.get("key.fields").split(";")) : List.of();
            boolean exceptKey = options.getOrDefault("value.fields-include", "ALL").equals("EXCEPT_KEY");
            List<String> names = type.getFieldNames();
            keyPositions = keys.stream().mapToInt(names::indexOf).toArray();
            List<RowType.RowField> keyFields = new ArrayList<>();
            for (int k = 0; k < keyPositions.length; k++) {
                keyFields.add(new RowType.RowField(keys.get(k).substring(prefix.length()), type.getTypeAt(keyPositions[k])));
            }
            List<Integer> values = new ArrayList<>();
            List<RowType.RowField> valueFields = new ArrayList<>();
            for (int p = 0; p < names.size(); p++) {
                if (!(exceptKey && keys.contains(names.get(p)))) {
                    values.add(p);
                    valueFields.add(type.getFields().get(p));
                }
            }
            valuePositions = values.stream().mapToInt(Integer::intValue).toArray();
            getters = new RowData.FieldGetter[names.size()];
            for (int p = 0; p < names.size(); p++) {
                getters[p] = RowData.createFieldGetter(type.getTypeAt(p), p);
            }
            keySchema = keyFields.isEmpty() ? null : open(new RowType(keyFields), ts, plain, ignoreNulls);
            valueSchema = open(new RowType(valueFields), ts, plain, ignoreNulls);
            upsert = "upsert".equals(options.get("changelog.mode"));
        }

        private static JsonRowDataSerializationSchema open(RowType type, TimestampFormat ts, boolean plain,
                boolean ignoreNulls) throws Exception {
            JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(type, ts,
                    JsonFormatOptions.MapNullKeyMode.FAIL, "null", plain, ignoreNulls);
            schema.open(null);
            return schema;
        }

        byte[] key(RowData row) {
            return keySchema == null ? null : keySchema.serialize(copy(row, keyPositions));
        }

        byte[] value(RowData row) {
            RowKind kind = row.getRowKind();
            if (upsert && (kind == RowKind.UPDATE_BEFORE || kind == RowKind.DELETE)) {
                return null;
            }
            return valueSchema.serialize(copy(row, valuePositions));
        }

        private GenericRowData copy(RowData row, int[] positions) {
            GenericRowData out = new GenericRowData(positions.length);
            for (int i = 0; i < positions.length; i++) {
                out.setField(i, getters[positions[i]].getFieldOrNull(row));
            }
            return out;
        }
    }

    @org.junit.jupiter.api.Test
    void tombstonesAreNullValuesWithKeys() {
        // A sanity check on the reference itself: upsert deletes carry a key and no value.
        Map<String, String> options = Map.of("key.fields", "id", "changelog.mode", "upsert");
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(RandomRows.ALL_TYPES,
                Map.of("key.fields", "id", "changelog.mode", "upsert", RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0"))) {
            GenericRowData delete = new GenericRowData(RowKind.DELETE, RandomRows.ALL_TYPES.getFieldCount());
            delete.setField(0, 7L);
            EncodedBatch batch = encoder.encode(List.of(delete));
            assertEquals("{\"id\":7}", text(batch.key(0)));
            assertNull(batch.value(0));
            assertEquals(options.get("key.fields"), encoder.options().get("key.fields"));
        }
    }
}
