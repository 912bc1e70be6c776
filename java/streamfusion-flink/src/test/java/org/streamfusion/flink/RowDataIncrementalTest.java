package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.streamfusion.kafka.EncodedBatch;

/**
 * {@link RowDataJsonEncoder#append} / {@link RowDataJsonEncoder#flush()} under object reuse: every row is
 * appended through one {@link GenericRowData} instance that is overwritten before the next append, and the
 * records must equal {@link RowDataJsonEncoder#encode(List)} of the distinct rows through Flink's serializer
 * (native.min-batch-rows = Integer.MAX_VALUE: {@code JsonRowDataSerializationSchema}, whose parity with the
 * native path {@link RowDataParityTest} checks) and through the native path, byte for byte; below the
 * threshold, and around a value an Arrow column cannot hold.
 */
class RowDataIncrementalTest {
    private static final long SEED = 20261201L;
    private static final int ROWS = 300;

    static List<Object[]> cases() {
        List<Object[]> cases = new ArrayList<>();
        for (var arguments : RowDataParityTest.cases()) {
            cases.add(arguments.get());
        }
        return cases;
    }

    private static RowDataJsonEncoder encoder(RowType type, Map<String, String> options, int minRows) {
        Map<String, String> all = new HashMap<>(options);
        all.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, Integer.toString(minRows));
        return new RowDataJsonEncoder(type, all);
    }

    /** Appends {@code rows} through one reused instance, overwritten field by field (and row kind) each time. */
    private static void appendReusing(RowDataJsonEncoder encoder, RowType type, List<RowData> rows) {
        RowData.FieldGetter[] getters = new RowData.FieldGetter[type.getFieldCount()];
        for (int p = 0; p < getters.length; p++) {
            getters[p] = RowData.createFieldGetter(type.getTypeAt(p), p);
        }
        GenericRowData reused = new GenericRowData(type.getFieldCount());
        for (RowData row : rows) {
            reused.setRowKind(row.getRowKind());
            for (int p = 0; p < getters.length; p++) {
                reused.setField(p, getters[p].getFieldOrNull(row));
            }
            encoder.append(reused);
        }
    }

    private static void assertSameRecords(EncodedBatch expected, EncodedBatch actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": records");
        for (int i = 0; i < expected.size(); i++) {
            final int row = i;
            assertArrayEquals(expected.key(i), actual.key(i), () -> what + ": key of row " + row);
            assertArrayEquals(expected.value(i), actual.value(i), () -> what + ": value of row " + row);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void appendedRowsUnderObjectReuseAreEncodedAsTheRowsAre(String name, Map<String, String> options) {
        List<RowData> rows = RandomRows.allTypes(SEED + name.hashCode(), ROWS);
        try (RowDataJsonEncoder incremental = encoder(RandomRows.ALL_TYPES, options, 16);
                RowDataJsonEncoder nativeList = encoder(RandomRows.ALL_TYPES, options, 0);
                RowDataJsonEncoder flink = encoder(RandomRows.ALL_TYPES, options, Integer.MAX_VALUE);
                RowDataJsonEncoder flinkIncremental = encoder(RandomRows.ALL_TYPES, options, Integer.MAX_VALUE)) {
            // Two native batches (the second reuses the vectors), then one below the threshold.
            List<RowData> first = rows.subList(0, 200);
            List<RowData> second = rows.subList(200, 290);
            List<RowData> small = rows.subList(290, ROWS);
            appendReusing(incremental, RandomRows.ALL_TYPES, first);
            assertEquals(200, incremental.pendingRows());
            assertSameRecords(nativeList.encode(first), incremental.flush(), name + ", native batch 1");
            appendReusing(incremental, RandomRows.ALL_TYPES, second);
            assertSameRecords(nativeList.encode(second), incremental.flush(), name + ", native batch 2");
            appendReusing(incremental, RandomRows.ALL_TYPES, small);
            EncodedBatch smallBatch = incremental.flush();
            assertSameRecords(flink.encode(small), smallBatch, name + ", 10 rows, below the threshold");
            assertEquals(2, incremental.nativeBatches());
            assertEquals(1, incremental.jvmBatches());
            assertEquals(ROWS, incremental.rows());

            // Flink's serializer only (as for FLOAT/DOUBLE on JDK 17): every row kept, copied.
            appendReusing(flinkIncremental, RandomRows.ALL_TYPES, rows);
            assertSameRecords(flink.encode(rows), flinkIncremental.flush(), name + ", Flink's serializer");
            assertEquals(0, flinkIncremental.nativeBatches());
        }
    }

    private static final RowType PRICES = RowType.of(
            new LogicalType[] {new BigIntType(), new DecimalType(10, 2), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "price", "note"});

    /** Rows of {@link #PRICES}; row {@code odd} has a DECIMAL of scale 3 in its DECIMAL(10, 2) column. */
    private static List<RowData> prices(int n, int odd) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DecimalData price = i == odd
                    ? DecimalData.fromBigDecimal(new BigDecimal("1.234"), 10, 3)
                    : DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 25L, 2), 10, 2);
            rows.add(GenericRowData.of((long) i, price, StringData.fromString("n\"" + i)));
        }
        return rows;
    }

    @Test
    void anUnrepresentableValueSendsTheRestOfItsBatchToFlinksSerializer() {
        Map<String, String> keyed = Map.of("key.fields", "id");
        for (int odd : new int[] {5, 15, 16, 30, 49}) {
            List<RowData> rows = prices(50, odd);
            try (RowDataJsonEncoder incremental = encoder(PRICES, keyed, 16);
                    RowDataJsonEncoder flink = encoder(PRICES, keyed, Integer.MAX_VALUE)) {
                appendReusing(incremental, PRICES, rows);
                EncodedBatch batch = incremental.flush();
                String what = "scale-3 decimal at row " + odd;
                assertSameRecords(flink.encode(rows), batch, what);
                assertTrue(
                        new String(batch.value(odd), java.nio.charset.StandardCharsets.UTF_8)
                                .contains("\"price\":1.234"),
                        what);
                // Below the threshold the copies cover the batch: all of it is Flink's; from it on, the rows
                // already in the vectors are encoded natively and the rest by Flink's serializer.
                assertEquals(odd < 16 ? 0 : 1, incremental.nativeBatches(), what);
                assertEquals(1, incremental.jvmBatches(), what);
                // The next batch is native again.
                List<RowData> clean = prices(20, -1);
                appendReusing(incremental, PRICES, clean);
                assertSameRecords(flink.encode(clean), incremental.flush(), what + ", next batch");
                assertEquals(odd < 16 ? 1 : 2, incremental.nativeBatches(), what);
            }
        }
    }

    @Test
    void flushWithoutRowsIsEmptyAndEncodeWaitsForAFlush() {
        try (RowDataJsonEncoder encoder = encoder(PRICES, Map.of(), 0)) {
            assertEquals(0, encoder.flush().size());
            assertEquals(0, encoder.nativeBatches() + encoder.jvmBatches());
            encoder.append(prices(1, -1).get(0));
            assertThrows(IllegalStateException.class, () -> encoder.encode(prices(2, -1)));
            assertEquals(1, encoder.flush().size());
            assertEquals(2, encoder.encode(prices(2, -1)).size());
        }
        RowDataJsonEncoder closed = encoder(PRICES, Map.of(), 0);
        closed.close();
        assertThrows(
                IllegalStateException.class, () -> closed.append(prices(1, -1).get(0)));
        assertThrows(IllegalStateException.class, closed::flush);
    }
}
