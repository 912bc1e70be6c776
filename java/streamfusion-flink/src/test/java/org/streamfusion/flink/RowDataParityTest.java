package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
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

    /**
     * Each option set twice: through the default handoff (binary rows) and with {@code native.handoff=arrow}
     * (Arrow vectors); the reference ignores that option.
     */
    static List<Arguments> cases() {
        List<Arguments> layouts = List.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of(
                        "ISO-8601, plain decimals",
                        Map.of("timestamp-format.standard", "ISO-8601", "encode.decimal-as-plain-number", "true")),
                Arguments.of("ignore nulls", Map.of("encode.ignore-null-fields", "true")),
                Arguments.of("key, all fields", Map.of("key.fields", "id;name")),
                Arguments.of(
                        "key, except key, prefix",
                        Map.of("key.fields", "k2", "key.fields-prefix", "k", "value.fields-include", "EXCEPT_KEY")),
                Arguments.of(
                        "upsert",
                        Map.of("key.fields", "id", "changelog.mode", "upsert", "encode.ignore-null-fields", "true")));
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

    private static void compare(
            String name,
            Map<String, String> options,
            List<RowData> rows,
            EncodedBatch nativeBatch,
            EncodedBatch jvmBatch)
            throws Exception {
        FlinkReference reference = new FlinkReference(RandomRows.ALL_TYPES, options);
        for (int at = 0; at < ROWS; at++) {
            final int i = at;
            RowData row = rows.get(i);
            String where = name + ", seed " + SEED + ", row " + i + " (" + row + ")";
            byte[] key = reference.key(row);
            byte[] value = reference.value(row);
            FlinkReference.assertSame(key, nativeBatch.key(i), "native key, " + where);
            FlinkReference.assertSame(value, nativeBatch.value(i), "native value, " + where);
            assertArrayEquals(key, jvmBatch.key(i), () -> "JVM key, " + where);
            assertArrayEquals(value, jvmBatch.value(i), () -> "JVM value, " + where);
        }
    }

    private static RowDataJsonEncoder encoder(Map<String, String> options, String minRows) {
        Map<String, String> all = new java.util.HashMap<>(options);
        all.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, minRows);
        return new RowDataJsonEncoder(RandomRows.ALL_TYPES, all);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    @org.junit.jupiter.api.Test
    void tombstonesAreNullValuesWithKeys() {
        // A sanity check on the reference itself: upsert deletes carry a key and no value.
        Map<String, String> options = Map.of("key.fields", "id", "changelog.mode", "upsert");
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(
                RandomRows.ALL_TYPES,
                Map.of(
                        "key.fields",
                        "id",
                        "changelog.mode",
                        "upsert",
                        RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS,
                        "0"))) {
            GenericRowData delete = new GenericRowData(RowKind.DELETE, RandomRows.ALL_TYPES.getFieldCount());
            delete.setField(0, 7L);
            EncodedBatch batch = encoder.encode(List.of(delete));
            assertEquals("{\"id\":7}", text(batch.key(0)));
            assertNull(batch.value(0));
            assertEquals(options.get("key.fields"), encoder.options().get("key.fields"));
        }
    }
}
