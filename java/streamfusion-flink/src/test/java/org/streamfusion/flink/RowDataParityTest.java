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
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.LogicalType;
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

    /**
     * FLOAT and DOUBLE through both handoffs, against Flink's serializer on the JVM the
     * test runs on (JDK 17 or JDK 25: the encoder picks that JVM's digits): values whose text differs between
     * JDK 17 and JDK 19+, edges, subnormals, integers near 2^62 and random bit patterns.
     */
    @org.junit.jupiter.api.Test
    void floatsAndDoublesHaveTheRunningJdksDigits() throws Exception {
        RowType type = RowType.of(
                new LogicalType[] {new FloatType(), new DoubleType(), new DoubleType()}, new String[] {"f", "d", "m"});
        List<Double> doubles = new ArrayList<>(List.of(
                2.0e23,
                1.0e23,
                9.007199254740993e15,
                9.5e21,
                8.41e21,
                0x1p62,
                0x1.fffffffffffffp62,
                5.0e-324,
                1.0e-323,
                Double.MIN_NORMAL,
                Math.nextDown(Double.MIN_NORMAL),
                Double.MAX_VALUE,
                -Double.MIN_VALUE,
                1.0e7,
                Math.nextDown(1.0e7),
                1.0e-3,
                Math.nextDown(1.0e-3),
                0.1 + 0.2,
                -0.0,
                Double.NaN,
                Double.NEGATIVE_INFINITY));
        java.util.Random r = new java.util.Random(SEED);
        for (int i = 0; i < 3000; i++) {
            doubles.add(Double.longBitsToDouble(r.nextLong()));
            doubles.add((double) (r.nextLong() >>> r.nextInt(64)));
            doubles.add(Double.parseDouble((1 + r.nextInt(9999)) + "E" + (r.nextInt(640) - 325)));
        }
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < doubles.size(); i++) {
            double d = doubles.get(i);
            float f = i % 2 == 0 ? (float) d : Float.intBitsToFloat(r.nextInt());
            rows.add(GenericRowData.of(f, d, -d));
        }
        FlinkReference reference = new FlinkReference(type, Map.of());
        for (String handoff : List.of("binary-rows", "arrow")) {
            try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(
                    type,
                    Map.of(
                            RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS,
                            "0",
                            RowDataJsonEncoder.NATIVE_HANDOFF,
                            handoff))) {
                assertEquals(
                        Runtime.version().feature() < 19 ? "jdk17" : "jdk19",
                        RowDataJsonEncoder.floatDigits(Runtime.version().feature()));
                EncodedBatch batch = encoder.encode(rows);
                assertEquals(1, encoder.nativeBatches(), "the native path wrote the batch");
                for (int i = 0; i < rows.size(); i++) {
                    FlinkReference.assertSame(
                            reference.value(rows.get(i)),
                            batch.value(i),
                            "JDK " + Runtime.version().feature() + ", " + handoff + ", row " + i + " (" + rows.get(i)
                                    + ")");
                }
            }
        }
    }

    @org.junit.jupiter.api.Test
    void floatDigitsFollowTheJvmAndRefuseAnotherJdks() {
        assertEquals("jdk17", RowDataJsonEncoder.floatDigits(17));
        assertEquals("jdk17", RowDataJsonEncoder.floatDigits(18));
        assertEquals("jdk19", RowDataJsonEncoder.floatDigits(19));
        assertEquals("jdk19", RowDataJsonEncoder.floatDigits(25));
        Map<String, String> options = new java.util.HashMap<>();
        RowDataJsonEncoder.checkFloatDigits(options, 17);
        assertEquals(Map.of("float.java-digits", "jdk17"), options);
        RowDataJsonEncoder.checkFloatDigits(options, 17);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> RowDataJsonEncoder.checkFloatDigits(options, 21));
        assertEquals(
                "option float.java-digits=jdk17 but this JVM (JDK 21) prints jdk19 digits, and Flink's serializer "
                        + "writes the batches smaller than native.min-batch-rows with them: leave float.java-digits "
                        + "out (it defaults to jdk19)",
                e.getMessage());
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
