package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.NativeJsonEncoder;

/**
 * {@link RowDataBinaryWriter} and the native binary-row handoff it feeds: the copied bytes are Flink's own
 * binary rows, corrupt rows are errors naming the field and row, and values a binary row holds but an Arrow
 * column cannot go through Flink's serializer. Parity over every type is {@link RowDataParityTest}'s.
 */
class RowDataBinaryWriterTest {
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new TimestampType(6)},
            new String[] {"id", "name", "ts6"});

    private static GenericRowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name), TimestampData.fromEpochMillis(id, 1000));
    }

    @Test
    void theBufferHoldsEachRowsBinaryFormInOrder() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataBinaryWriter writer = new RowDataBinaryWriter(TYPE, allocator, null, false)) {
            theBufferHoldsEachRowsBinaryFormInOrder(writer);
        }
    }

    private static void theBufferHoldsEachRowsBinaryFormInOrder(RowDataBinaryWriter writer) throws Exception {
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        List<byte[]> expected = new ArrayList<>();
        // One instance reused for every row (Flink's object reuse), 3000 rows to make both buffers grow.
        GenericRowData reused = new GenericRowData(3);
        writer.reset();
        for (int i = 0; i < 3000; i++) {
            GenericRowData fresh = row(i, "name number " + i);
            expected.add(bytes(serializer.toBinaryRow(fresh)));
            for (int f = 0; f < 3; f++) {
                reused.setField(f, fresh.getField(f));
            }
            writer.append(i % 2 == 0 ? reused : serializer.toBinaryRow(fresh).copy());
        }
        assertEquals(3000, writer.appended());
        java.lang.reflect.Field bytesField = RowDataBinaryWriter.class.getDeclaredField("bytes");
        java.lang.reflect.Field offsetsField = RowDataBinaryWriter.class.getDeclaredField("offsets");
        bytesField.setAccessible(true);
        offsetsField.setAccessible(true);
        ArrowBuf bytes = (ArrowBuf) bytesField.get(writer);
        int[] offsets = (int[]) offsetsField.get(writer);
        for (int i = 0; i < 3000; i++) {
            byte[] row = new byte[offsets[i + 1] - offsets[i]];
            bytes.getBytes(offsets[i], row);
            assertArrayEquals(expected.get(i), row, "row " + i);
        }
        // 3000 rows of about 60 bytes: the native side decodes and encodes them in more than one run.
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(
                TYPE, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            EncodedBatch batch = writer.encode(encoder);
            assertEquals(3000, batch.size());
            assertEquals(
                    "{\"id\":2999,\"name\":\"name number 2999\",\"ts6\":\"1970-01-01 00:00:02.999001\"}",
                    new String(batch.value(2999), StandardCharsets.UTF_8));
            for (int i = 0; i < 3000; i++) {
                assertArrayEquals(flink.serialize(row(i, "name number " + i)), batch.value(i), "row " + i);
            }
        }
    }

    private static byte[] bytes(BinaryRowData row) {
        byte[] out = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), out, 0, out.length);
        return out;
    }

    @Test
    void corruptRowsAreErrorsNamingTheFieldAndRow() {
        Schema schema = RowDataArrowWriter.schema(TYPE, null);
        byte[] good = bytes(new RowDataSerializer(TYPE).toBinaryRow(row(1, "a name longer than 7")));
        byte[] bad = good.clone();
        // Field 1's slot (after 8 bytes of header and null bits, and field 0's 8): a length past the row.
        bad[16] = 100;
        byte[] rows = new byte[good.length + bad.length];
        System.arraycopy(good, 0, rows, 0, good.length);
        System.arraycopy(bad, 0, rows, good.length, bad.length);
        int[] offsets = {0, good.length, rows.length};
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            IllegalArgumentException outside = assertThrows(
                    IllegalArgumentException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, rows.length, offsets, 2));
            assertTrue(outside.getMessage().contains("field `name`, binary row 1"), outside.getMessage());
            IllegalArgumentException order = assertThrows(
                    IllegalArgumentException.class,
                    () -> encoder.encodeBinaryRows(
                            schema, 3, rows, rows.length, new int[] {0, rows.length, good.length}, 2));
            assertTrue(order.getMessage().contains("binary row 1"), order.getMessage());
            IllegalArgumentException shortRow = assertThrows(
                    IllegalArgumentException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, 20, new int[] {0, 20}, 1));
            assertTrue(shortRow.getMessage().contains("shorter than"), shortRow.getMessage());
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, rows.length + 1, offsets, 2));
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, rows.length, offsets, 3));
            // The encoder stays usable.
            assertEquals(
                    1,
                    encoder.encodeBinaryRows(schema, 3, rows, good.length, offsets, 1)
                            .size());
        }
    }

    @Test
    void rowsInNativeMemoryAreReadInPlaceWithTheSameChecks() {
        Schema schema = RowDataArrowWriter.schema(TYPE, null);
        byte[] good = bytes(new RowDataSerializer(TYPE).toBinaryRow(row(1, "a name longer than 7")));
        byte[] bad = good.clone();
        bad[16] = 100; // field 1's length, past the row
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            ArrowBuf rows = allocator.buffer(2L * good.length);
            rows.setBytes(0, good);
            rows.setBytes(good.length, bad);
            int[] offsets = {0, good.length, 2 * good.length};
            IllegalArgumentException outside = assertThrows(
                    IllegalArgumentException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, 2 * good.length, offsets, 2));
            assertTrue(outside.getMessage().contains("field `name`, binary row 1"), outside.getMessage());
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, (int) rows.capacity() + 1, offsets, 2));
            assertThrows(
                    IndexOutOfBoundsException.class, () -> encoder.encodeBinaryRows(schema, 3, rows, -1, offsets, 2));
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, good.length, offsets, 3));
            EncodedBatch one = encoder.encodeBinaryRows(schema, 3, rows, good.length, offsets, 1);
            assertEquals(
                    "{\"id\":1,\"name\":\"a name longer than 7\",\"ts6\":\"1970-01-01 00:00:00.001001\"}",
                    new String(one.value(0), StandardCharsets.UTF_8));
            rows.close();
            // A released buffer is refused before its (freed) memory could be read.
            assertThrows(
                    IllegalStateException.class,
                    () -> encoder.encodeBinaryRows(schema, 3, rows, good.length, offsets, 1));
            assertEquals(
                    1,
                    encoder.encodeBinaryRows(schema, 3, good, good.length, offsets, 1)
                            .size());
        }
    }

    @Test
    void aClosedWriterRefusesRowsAndFreesItsBuffer() {
        try (BufferAllocator allocator = new RootAllocator()) {
            RowDataBinaryWriter writer = new RowDataBinaryWriter(TYPE, allocator, null, false);
            writer.append(row(1, "x"));
            assertTrue(allocator.getAllocatedMemory() > 0);
            writer.close();
            writer.close();
            assertEquals(0, allocator.getAllocatedMemory());
            assertThrows(IllegalStateException.class, () -> writer.append(row(2, "y")));
        }
    }

    @Test
    void aBinaryTimestampFinerThanItsArrowColumnGoesThroughFlinksSerializer() {
        // A TIMESTAMP(6) binary row holds nanoseconds of the millisecond (Flink writes them as they are); its
        // Arrow column is microseconds, so the batch is Flink's, whatever its size.
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        GenericRowData fine = GenericRowData.of(1L, StringData.fromString("x"), TimestampData.fromEpochMillis(0, 7));
        List<RowData> rows = List.of(
                serializer.toBinaryRow(fine).copy(),
                serializer.toBinaryRow(row(2, "y")).copy());
        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(TYPE, Map.of("native.min-batch-rows", "0"))) {
            EncodedBatch batch = encoder.encode(rows);
            assertEquals(
                    "{\"id\":1,\"name\":\"x\",\"ts6\":\"1970-01-01 00:00:00.000000007\"}",
                    new String(batch.value(0), StandardCharsets.UTF_8));
            assertEquals(1, encoder.jvmBatches());
            assertEquals(0, encoder.nativeBatches());
            assertEquals(1, encoder.encode(rows.subList(1, 2)).size());
            assertEquals(1, encoder.nativeBatches());
        }
    }

    @Test
    void theHandoffOptionIsChecked() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new RowDataJsonEncoder(TYPE, Map.of(RowDataJsonEncoder.NATIVE_HANDOFF, "vectors")));
        assertTrue(e.getMessage().contains("native.handoff=vectors: expected binary-rows or arrow"), e.getMessage());
    }
}
