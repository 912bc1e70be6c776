package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streamfusion.kafka.Vectors.keys;
import static org.streamfusion.kafka.Vectors.longs;
import static org.streamfusion.kafka.Vectors.root;
import static org.streamfusion.kafka.Vectors.strings;
import static org.streamfusion.kafka.Vectors.utf8;
import static org.streamfusion.kafka.Vectors.values;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hand-built roots through the native encoder. Expected bytes are the real Flink outputs quoted in
 * docs/json-format.md (floats, decimals, temporals, binaries): Flink's {@code JsonRowDataSerializationSchema}, not our
 * encoder. The allocator is closed after each test, which fails on any buffer the export did not release.
 */
class RoundTripTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        allocator.close(); // throws IllegalStateException if an exported buffer was never released
    }

    private List<String> encodeValues(Map<String, String> options, VectorSchemaRoot root) {
        try (root;
                NativeJsonEncoder encoder = new NativeJsonEncoder(options)) {
            return values(encoder.encode(root));
        }
    }

    @Test
    void stringsWithEveryEscapeClass() {
        String[] in = {
            "a\u0001b",
            "\u001F\u007F",
            "q\"q",
            "b\\s",
            "sl/ash",
            "\b\t\n\f\r",
            "\u0000",
            "café",
            "emoji\uD83D\uDE00",
            "ls\u2028ps\u2029",
            null
        };
        String[] flink = {
            "{\"v\":\"a\\u0001b\"}",
            "{\"v\":\"\\u001F\u007F\"}",
            "{\"v\":\"q\\\"q\"}",
            "{\"v\":\"b\\\\s\"}",
            "{\"v\":\"sl/ash\"}",
            "{\"v\":\"\\b\\t\\n\\f\\r\"}",
            "{\"v\":\"\\u0000\"}",
            "{\"v\":\"café\"}",
            "{\"v\":\"emoji\\uD83D\\uDE00\"}",
            "{\"v\":\"ls\u2028ps\u2029\"}",
            "{\"v\":null}"
        };
        assertEquals(Arrays.asList(flink), encodeValues(Map.of(), root(strings(allocator, "v", in))));
    }

    @Test
    void multiFieldRowKeepsDeclaredOrderAndEscapesNames() {
        IntVector zeta = new IntVector("zeta", allocator);
        zeta.allocateNew(1);
        zeta.set(0, 1);
        zeta.setValueCount(1);
        IntVector alpha = new IntVector("Alpha", allocator);
        alpha.allocateNew(1);
        alpha.setNull(0);
        alpha.setValueCount(1);
        Float8Vector weird = new Float8Vector("we\"ird\u0001", allocator);
        weird.allocateNew(1);
        weird.set(0, 2.5);
        weird.setValueCount(1);
        assertEquals(
                List.of("{\"zeta\":1,\"Alpha\":null,\"we\\\"ird\\u0001\":2.5}"),
                encodeValues(Map.of(), root(zeta, alpha, weird)));
    }

    @Test
    void integersAndNulls() {
        assertEquals(
                List.of("{\"v\":-9223372036854775808}", "{\"v\":null}", "{\"v\":9223372036854775807}"),
                encodeValues(Map.of(), root(longs(allocator, "v", Long.MIN_VALUE, null, Long.MAX_VALUE))));
    }

    private static long micros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1_000;
    }

    @Test
    void timestampsSqlAndIsoWithAndWithoutZone() {
        LocalDateTime t = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000);
        for (String standard : List.of("SQL", "ISO-8601")) {
            TimeStampMicroVector ts = new TimeStampMicroVector("ts", allocator);
            ts.allocateNew(1);
            ts.set(0, micros(t));
            ts.setValueCount(1);
            // The zone does not matter: TIMESTAMP_LTZ is the UTC instant plus Z.
            TimeStampMicroTZVector ltz = new TimeStampMicroTZVector("ltz", allocator, "Asia/Tokyo");
            ltz.allocateNew(1);
            ltz.set(0, micros(t));
            ltz.setValueCount(1);
            String sep = standard.equals("SQL") ? " " : "T";
            assertEquals(
                    List.of("{\"ts\":\"2024-01-02" + sep + "03:04:05.123456\",\"ltz\":\"2024-01-02" + sep
                            + "03:04:05.123456Z\"}"),
                    encodeValues(Map.of("timestamp-format.standard", standard), root(ts, ltz)),
                    standard);
        }
        TimeStampMilliVector ms = new TimeStampMilliVector("v", allocator);
        ms.allocateNew(3);
        ms.set(
                0,
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 500_000_000)
                        .toInstant(ZoneOffset.UTC)
                        .toEpochMilli());
        ms.set(
                1,
                LocalDateTime.of(2024, 1, 2, 3, 4, 5).toInstant(ZoneOffset.UTC).toEpochMilli());
        ms.set(2, -1500);
        ms.setValueCount(3);
        assertEquals(
                List.of(
                        "{\"v\":\"2024-01-02 03:04:05.5\"}",
                        "{\"v\":\"2024-01-02 03:04:05\"}",
                        "{\"v\":\"1969-12-31 23:59:58.5\"}"),
                encodeValues(Map.of(), root(ms)));
    }

    private DecimalVector decimals(int precision, int scale, String... values) {
        DecimalVector v = new DecimalVector("v", allocator, precision, scale);
        v.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            v.set(i, new BigDecimal(values[i]));
        }
        v.setValueCount(values.length);
        return v;
    }

    @Test
    void decimalsDefaultAndPlainOnFlink2() {
        assertEquals(
                List.of("{\"v\":1.5}", "{\"v\":0}", "{\"v\":1E+2}", "{\"v\":-0.5}"),
                encodeValues(Map.of(), root(decimals(10, 2, "1.50", "0.00", "100.00", "-0.50"))));
        assertEquals(
                List.of("{\"v\":1.50}", "{\"v\":0.00}", "{\"v\":100.00}", "{\"v\":-0.50}"),
                encodeValues(
                        Map.of("encode.decimal-as-plain-number", "true", "flink.version", "2.2"),
                        root(decimals(10, 2, "1.50", "0.00", "100.00", "-0.50"))));
        assertEquals(
                List.of("{\"v\":1E-7}", "{\"v\":0.000001}"),
                encodeValues(Map.of(), root(decimals(10, 7, "0.0000001", "0.0000010"))));
    }

    @Test
    void nestedStructListAndMap() {
        // ROW<q INT>: a row, a null row
        StructVector row = StructVector.empty("r", allocator);
        IntVector q = row.addOrGet("q", FieldType.nullable(MinorType.INT.getType()), IntVector.class);
        row.allocateNew();
        q.setSafe(0, 1);
        row.setIndexDefined(0);
        q.setNull(1);
        row.setNull(1);
        row.setValueCount(2);
        q.setValueCount(2);
        // ARRAY<INT>: [1,null,3], null
        ListVector list = ListVector.empty("a", allocator);
        list.addOrGetVector(FieldType.nullable(MinorType.INT.getType()));
        IntVector element = (IntVector) list.getDataVector();
        list.allocateNew();
        int start = list.startNewValue(0);
        element.setSafe(start, 1);
        element.setNull(start + 1);
        element.setSafe(start + 2, 3);
        element.setValueCount(3);
        list.endValue(0, 3);
        list.setNull(1);
        list.setValueCount(2);
        // MAP<STRING, INT>: a repeated key keeps its first position and takes its last value; {}
        MapVector map = MapVector.empty("m", allocator, false);
        UnionMapWriter w = map.getWriter();
        w.setPosition(0);
        w.startMap();
        for (Object[] entry : new Object[][] {{"a", 1}, {"b", null}, {"a", 3}}) {
            w.startEntry();
            w.key().varChar().writeVarChar((String) entry[0]);
            if (entry[1] == null) {
                w.value().integer().writeNull();
            } else {
                w.value().integer().writeInt((Integer) entry[1]);
            }
            w.endEntry();
        }
        w.endMap();
        w.setPosition(1);
        w.startMap();
        w.endMap();
        map.setValueCount(2);
        assertEquals(
                List.of(
                        "{\"r\":{\"q\":1},\"a\":[1,null,3],\"m\":{\"a\":3,\"b\":null}}",
                        "{\"r\":null,\"a\":null,\"m\":{}}"),
                encodeValues(Map.of(), root(row, list, map)));
    }

    @Test
    void keyFieldsAndUpsertTombstones() {
        try (VectorSchemaRoot root = root(
                        longs(allocator, "id", 1L, 2L, null),
                        strings(allocator, "name", "x", "y", "z"),
                        strings(allocator, "op", "+I", "-D", "+U"));
                NativeJsonEncoder encoder =
                        new NativeJsonEncoder(Map.of("key.fields", "id", "changelog.row-kind-column", "op"))) {
            EncodedBatch batch = encoder.encode(root);
            assertEquals(3, batch.size());
            assertEquals(Arrays.asList("{\"id\":1}", "{\"id\":2}", "{\"id\":null}"), keys(batch));
            assertEquals(
                    Arrays.asList("{\"id\":1,\"name\":\"x\"}", null, "{\"id\":null,\"name\":\"z\"}"), values(batch));
            assertEquals(-1, batch.valueLength(1));
            assertNull(batch.value(1));
            assertNull(batch.valueView(1));
            assertEquals(8, batch.keyLength(0));
            ByteBuffer view = batch.keyView(1);
            assertTrue(view.isReadOnly());
            assertEquals(0, view.position());
            byte[] viewed = new byte[view.remaining()];
            view.get(viewed);
            assertArrayEquals(utf8("{\"id\":2}"), viewed);
            assertEquals(batch.keys().length, batch.keyBytes());
            assertEquals(3, encoder.rows());
            assertEquals(1, encoder.batches());
            assertEquals(batch.valueBytes(), encoder.valueBytes());
            assertTrue(batch.encodeNanos() > 0 && encoder.encodeNanos() == batch.encodeNanos());
        }
    }

    @Test
    void nullKeysWithoutKeyFieldsAndEmptyBatches() {
        try (VectorSchemaRoot root = root(longs(allocator, "id", 7L));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            EncodedBatch batch = encoder.encode(root);
            assertEquals(-1, batch.keyLength(0));
            assertNull(batch.key(0));
            assertNull(batch.keyView(0));
            root.setRowCount(0);
            EncodedBatch empty = encoder.encode(root);
            assertTrue(empty.isEmpty());
            assertEquals(0, empty.valueBytes());
            assertEquals(2, encoder.batches());
            assertEquals(1, encoder.rows());
        }
    }

    @Test
    void batchesAreIndependentOfTheReusedNativeScratch() {
        try (VectorSchemaRoot first = root(strings(allocator, "v", "first-batch-value"));
                VectorSchemaRoot second = root(strings(allocator, "v", "2nd"));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            EncodedBatch a = encoder.encode(first);
            byte[] before = a.values().clone();
            EncodedBatch b = encoder.encode(second);
            assertArrayEquals(before, a.values(), "an earlier batch must not change when the encoder is reused");
            assertEquals(List.of("{\"v\":\"2nd\"}"), values(b));
        }
    }
}
