package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * When {@link BatchingEncoderOperator} encodes and emits its buffer (full batch, linger timer, before the
 * checkpoint barrier, before a watermark, at end of input), that no row waits past those points, the copy under
 * object reuse, and the upsert tombstones; driven by Flink's operator test harness.
 */
class BatchingEncoderOperatorTest {
    private static final RowType TYPE = RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "name"});

    private static SinkSpec spec(int batchRows, long lingerMillis, boolean upsert) {
        Map<String, String> options = new LinkedHashMap<>();
        if (upsert) {
            options.put("key.fields", "id");
            options.put("changelog.mode", "upsert");
        }
        return SinkSpec.builder(TYPE)
                .setEncoderOptions(options)
                .setKeyProjection(upsert ? new int[] {0} : new int[0])
                .setTopic("t")
                .setProducerProperties(producerProperties())
                .setUpsert(upsert)
                .setBatchRows(batchRows)
                .setLingerMillis(lingerMillis)
                .build();
    }

    /** The one producer property a spec needs (the harness starts no producer). */
    private static Properties producerProperties() {
        Properties properties = new Properties();
        properties.setProperty("bootstrap.servers", "127.0.0.1:19092");
        return properties;
    }

    private static OneInputStreamOperatorTestHarness<RowData, EncodedRecord> harness(SinkSpec spec) throws Exception {
        OneInputStreamOperatorTestHarness<RowData, EncodedRecord> harness =
                new OneInputStreamOperatorTestHarness<>(new BatchingEncoderOperator(spec));
        harness.setup(EncodedRecordSerializer.INSTANCE);
        return harness;
    }

    private static RowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name));
    }

    /** The output so far: each record as {@code key => value}, each watermark as {@code W<timestamp>}. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, EncodedRecord> harness) {
        List<String> out = new ArrayList<>();
        for (Object element : harness.getOutput()) {
            if (element instanceof Watermark) {
                out.add("W" + ((Watermark) element).getTimestamp());
            } else {
                EncodedRecord record = (EncodedRecord)
                        assertInstanceOf(StreamRecord.class, element).getValue();
                out.add(text(record.key()) + " => " + text(record.value()));
            }
        }
        return out;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * FLOAT and DOUBLE are encoded natively on every JDK, with the running JVM's digits: the records
     * are what Flink's {@link JsonRowDataSerializationSchema} writes on this JVM (JDK 17 or JDK 25), values whose
     * text differs between the two JDKs included.
     */
    @Test
    void floatsAndDoublesAreEncodedNativelyWithFlinksBytesOnThisJdk() throws Exception {
        RowType type = RowType.of(
                new LogicalType[] {new BigIntType(false), new DoubleType(), new FloatType()},
                new String[] {"id", "score", "f"});
        SinkSpec spec = SinkSpec.builder(type)
                .setEncoderOptions(Map.of("native.min-batch-rows", "1"))
                .setTopic("t")
                .setProducerProperties(producerProperties())
                .setBatchRows(64)
                .setLingerMillis(60_000)
                .build();
        double[] doubles = {2.0e23, 1.0e23, 9.007199254740993e15, 9.5e21, 0x1p62, 5.0e-324, 1.0e-323, 0.1, 1.0e7};
        java.util.Random random = new java.util.Random(20261206L);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            double d = i < doubles.length ? doubles[i] : Double.longBitsToDouble(random.nextLong());
            float f = i % 2 == 0 ? (float) d : Float.intBitsToFloat(random.nextInt());
            rows.add(GenericRowData.of((long) i, d, f));
        }
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        List<String> expected = new ArrayList<>();
        for (RowData row : rows) {
            expected.add("null => " + text(flink.serialize(row)));
        }
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec)) {
            h.open();
            for (RowData row : rows) {
                h.processElement(row, 0);
            }
            assertEquals(expected, output(h), "JDK " + Runtime.version().feature());
            assertEquals(1, ((BatchingEncoderOperator) h.getOneInputOperator()).nativeBatches(), "native path");
        }
    }

    @Test
    void aFullBatchIsEmittedAtOnceInRowOrder() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(3, 60_000, false))) {
            h.open();
            h.processElement(row(1, "a"), 0);
            h.processElement(row(2, "b"), 0);
            assertEquals(List.of(), output(h));
            h.processElement(row(3, "c"), 0);
            assertEquals(
                    List.of(
                            "null => {\"id\":1,\"name\":\"a\"}",
                            "null => {\"id\":2,\"name\":\"b\"}",
                            "null => {\"id\":3,\"name\":\"c\"}"),
                    output(h));
        }
    }

    @Test
    void theBufferIsEmittedBeforeTheCheckpointBarrier() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 60_000, false))) {
            h.open();
            h.processElement(row(1, "a"), 0);
            h.processElement(row(2, "b"), 0);
            assertEquals(List.of(), output(h));
            h.prepareSnapshotPreBarrier(1);
            assertEquals(List.of("null => {\"id\":1,\"name\":\"a\"}", "null => {\"id\":2,\"name\":\"b\"}"), output(h));
            // Nothing is buffered across the barrier, so the snapshot holds no rows.
            h.snapshot(1, 1);
            h.prepareSnapshotPreBarrier(2);
            assertEquals(2, output(h).size());
        }
    }

    @Test
    void theBufferIsEmittedBeforeAWatermarkIsForwarded() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 60_000, false))) {
            h.open();
            h.processElement(row(1, "a"), 0);
            h.processWatermark(new Watermark(5));
            h.processElement(row(2, "b"), 0);
            assertEquals(List.of("null => {\"id\":1,\"name\":\"a\"}", "W5"), output(h));
        }
    }

    @Test
    void theLingerTimerEmitsAPartialBatch() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 50, false))) {
            h.open();
            h.setProcessingTime(1_000);
            h.processElement(row(1, "a"), 0);
            h.setProcessingTime(1_020);
            h.processElement(row(2, "b"), 0);
            h.setProcessingTime(1_049);
            assertEquals(List.of(), output(h));
            // 50 ms after the batch's first row.
            h.setProcessingTime(1_050);
            assertEquals(2, output(h).size());
            // A new batch starts a new timer.
            h.processElement(row(3, "c"), 0);
            h.setProcessingTime(1_099);
            assertEquals(2, output(h).size());
            h.setProcessingTime(1_100);
            assertEquals(3, output(h).size());
        }
    }

    @Test
    void endOfInputEmitsTheRest() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 60_000, false))) {
            h.open();
            h.processElement(row(7, "z"), 0);
            h.endInput();
            assertEquals(List.of("null => {\"id\":7,\"name\":\"z\"}"), output(h));
        }
    }

    @Test
    void rowsAreCopiedWhenObjectReuseIsOn() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 60_000, false))) {
            h.getExecutionConfig().enableObjectReuse();
            h.open();
            GenericRowData reused = new GenericRowData(2);
            reused.setField(0, 1L);
            reused.setField(1, StringData.fromString("a"));
            h.processElement(reused, 0);
            reused.setField(0, 2L);
            reused.setField(1, StringData.fromString("b"));
            h.processElement(reused, 0);
            h.endInput();
            assertEquals(List.of("null => {\"id\":1,\"name\":\"a\"}", "null => {\"id\":2,\"name\":\"b\"}"), output(h));
        }
    }

    @Test
    void rowsWrittenIntoTheVectorsOnArrivalNeedNoCopyUnderObjectReuse() throws Exception {
        // Batches of 32: one native batch (above native.min-batch-rows 16, rows written into Arrow on arrival),
        // then 8 rows below it (kept as copies for Flink's serializer), all through one mutated instance.
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(32, 60_000, false))) {
            h.getExecutionConfig().enableObjectReuse();
            h.open();
            GenericRowData reused = new GenericRowData(2);
            List<String> expected = new ArrayList<>();
            for (long i = 0; i < 40; i++) {
                reused.setField(0, i);
                reused.setField(1, StringData.fromString("n\"" + i));
                h.processElement(reused, 0);
                expected.add("null => {\"id\":" + i + ",\"name\":\"n\\\"" + i + "\"}");
            }
            assertEquals(32, output(h).size(), "the full batch is emitted on arrival of its last row");
            h.endInput();
            assertEquals(expected, output(h));
        }
    }

    @Test
    void upsertDeletesBecomeTombstonesWithTheirKey() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h = harness(spec(1000, 60_000, true))) {
            h.open();
            h.processElement(row(1, "a"), 0);
            RowData update = row(1, "b");
            update.setRowKind(RowKind.UPDATE_AFTER);
            h.processElement(update, 0);
            RowData delete = row(1, "b");
            delete.setRowKind(RowKind.DELETE);
            h.processElement(delete, 0);
            h.endInput();
            assertEquals(
                    List.of(
                            "{\"id\":1} => {\"id\":1,\"name\":\"a\"}",
                            "{\"id\":1} => {\"id\":1,\"name\":\"b\"}",
                            "{\"id\":1} => null"),
                    output(h));
            EncodedRecord tombstone =
                    (EncodedRecord) ((StreamRecord<?>) new ArrayList<>(h.getOutput()).get(2)).getValue();
            assertNull(tombstone.value());
            assertEquals(-1, tombstone.valueLength());
        }
    }

    @Test
    void bufferFlushReducesByKeyAndEmitsOnSizeTimerAndBarrier() throws Exception {
        // sink.buffer-flush.max-rows = 3, .interval = 100 ms; batches of 2 rows.
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> h =
                harness(spec(2, 60_000, true).toBuilder().setBufferFlush(3, 100).build())) {
            h.open();
            h.processElement(row(1, "a"), 0);
            h.processElement(row(2, "b"), 0);
            h.processElement(row(1, "c"), 0);
            h.processWatermark(new Watermark(5));
            assertEquals(List.of("W5"), output(h), "two keys buffered; a watermark does not emit them");
            // The third key: the map is emitted, the last row of each key, keys in first-arrival order.
            h.processElement(row(3, "d"), 0);
            assertEquals(
                    List.of(
                            "W5",
                            "{\"id\":1} => {\"id\":1,\"name\":\"c\"}",
                            "{\"id\":2} => {\"id\":2,\"name\":\"b\"}",
                            "{\"id\":3} => {\"id\":3,\"name\":\"d\"}"),
                    output(h));
            h.getOutput().clear();
            // The interval timer (100 ms after the last emission).
            h.processElement(row(1, "x"), 0);
            h.setProcessingTime(99);
            assertEquals(List.of(), output(h));
            h.setProcessingTime(100);
            assertEquals(List.of("{\"id\":1} => {\"id\":1,\"name\":\"x\"}"), output(h));
            h.getOutput().clear();
            // Before the checkpoint barrier: an update then a delete of key 2 leave its tombstone only.
            h.processElement(row(2, "y"), 0);
            RowData delete = row(2, "y");
            delete.setRowKind(RowKind.DELETE);
            h.processElement(delete, 0);
            h.prepareSnapshotPreBarrier(1);
            assertEquals(List.of("{\"id\":2} => null"), output(h));
            h.getOutput().clear();
            // The timer re-registered itself; and end of input emits the rest.
            h.processElement(row(4, "e"), 0);
            h.setProcessingTime(250);
            assertEquals(List.of("{\"id\":4} => {\"id\":4,\"name\":\"e\"}"), output(h));
            h.getOutput().clear();
            h.processElement(row(5, "f"), 0);
            h.endInput();
            assertEquals(List.of("{\"id\":5} => {\"id\":5,\"name\":\"f\"}"), output(h));
        }
    }

    @Test
    void theSerializerRoundTripsNullKeysAndTombstones() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        EncodedRecord record = EncodedRecord.of(null, "{}".getBytes(StandardCharsets.UTF_8));
        EncodedRecord tombstone = EncodedRecord.of("{\"id\":1}".getBytes(StandardCharsets.UTF_8), null);
        EncodedRecordSerializer.INSTANCE.serialize(record, out);
        EncodedRecordSerializer.INSTANCE.serialize(tombstone, out);
        org.apache.flink.core.memory.DataInputDeserializer in =
                new org.apache.flink.core.memory.DataInputDeserializer(out.getCopyOfBuffer());
        assertEquals(record, EncodedRecordSerializer.INSTANCE.deserialize(in));
        EncodedRecord back = EncodedRecordSerializer.INSTANCE.deserialize(in);
        assertEquals("{\"id\":1}", text(back.key()));
        assertNull(back.value());
        assertTrue(EncodedRecordSerializer.INSTANCE.copy(record) == record, "copy is the identity (immutable)");
    }

    @Test
    void theSerializerRoundTripsThePartitionACustomPartitionerChose() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
        EncodedRecord placed = EncodedRecord.of(null, value, null, 2, null, null);
        EncodedRecord unplaced = EncodedRecord.of(null, value, null, null, null, null);
        EncodedRecordSerializer.INSTANCE.serialize(placed, out);
        EncodedRecordSerializer.INSTANCE.serialize(unplaced, out);
        org.apache.flink.core.memory.DataInputDeserializer in =
                new org.apache.flink.core.memory.DataInputDeserializer(out.getCopyOfBuffer());
        assertEquals(
                Integer.valueOf(2),
                EncodedRecordSerializer.INSTANCE.deserialize(in).partition());
        assertNull(EncodedRecordSerializer.INSTANCE.deserialize(in).partition());
        assertTrue(!placed.equals(unplaced), "the partition is part of a record's equality");
    }

    @Test
    void theSerializerRoundTripsTheTopic() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        EncodedRecord routed = EncodedRecord.of(null, "{}".getBytes(StandardCharsets.UTF_8), "bids-\u00e9", 7L, null);
        EncodedRecord none = EncodedRecord.of(null, "{}".getBytes(StandardCharsets.UTF_8));
        EncodedRecordSerializer.INSTANCE.serialize(routed, out);
        EncodedRecordSerializer.INSTANCE.serialize(none, out);
        org.apache.flink.core.memory.DataInputDeserializer in =
                new org.apache.flink.core.memory.DataInputDeserializer(out.getCopyOfBuffer());
        EncodedRecord back = EncodedRecordSerializer.INSTANCE.deserialize(in);
        assertEquals("bids-\u00e9", back.topic());
        assertEquals(routed, back);
        assertNull(EncodedRecordSerializer.INSTANCE.deserialize(in).topic());
    }

    @Test
    void theSerializerRoundTripsTimestampAndHeaders() throws Exception {
        org.apache.flink.core.memory.DataOutputSerializer out =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        EncodedRecord record = EncodedRecord.of(
                null,
                "{}".getBytes(StandardCharsets.UTF_8),
                1764590401001L,
                List.of(
                        new org.apache.kafka.common.header.internals.RecordHeader("a", new byte[] {1, 2}),
                        new org.apache.kafka.common.header.internals.RecordHeader("b\u00e9", new byte[0])));
        EncodedRecordSerializer.INSTANCE.serialize(record, out);
        org.apache.flink.core.memory.DataOutputSerializer copied =
                new org.apache.flink.core.memory.DataOutputSerializer(64);
        EncodedRecordSerializer.INSTANCE.copy(
                new org.apache.flink.core.memory.DataInputDeserializer(out.getCopyOfBuffer()), copied);
        EncodedRecord back = EncodedRecordSerializer.INSTANCE.deserialize(
                new org.apache.flink.core.memory.DataInputDeserializer(copied.getCopyOfBuffer()));
        assertEquals(record, back);
        assertEquals(1764590401001L, back.timestamp());
        assertEquals("b\u00e9", back.headers().get(1).key());
        assertNull(EncodedRecord.of(null, null).headers());
    }

    @Test
    void metadataColumnsTravelWithTheirRecordAndStayOutOfTheJson() throws Exception {
        RowType consumed = RowType.of(
                new LogicalType[] {
                    new BigIntType(false),
                    new VarCharType(VarCharType.MAX_LENGTH),
                    new org.apache.flink.table.types.logical.MapType(
                            new VarCharType(VarCharType.MAX_LENGTH),
                            new org.apache.flink.table.types.logical.VarBinaryType(
                                    org.apache.flink.table.types.logical.VarBinaryType.MAX_LENGTH)),
                    new org.apache.flink.table.types.logical.LocalZonedTimestampType(3)
                },
                new String[] {"id", "name", "headers", "timestamp"});
        SinkSpec spec = spec(4, 1000, false).toBuilder()
                .setWritableMetadata(List.of("headers", "timestamp"), consumed)
                .build();
        try (OneInputStreamOperatorTestHarness<RowData, EncodedRecord> harness = harness(spec)) {
            harness.open();
            Map<StringData, byte[]> headers = new LinkedHashMap<>();
            headers.put(StringData.fromString("h"), "v".getBytes(StandardCharsets.UTF_8));
            headers.put(StringData.fromString("gone"), null);
            harness.processElement(new StreamRecord<>(GenericRowData.of(
                    1L,
                    StringData.fromString("a"),
                    new org.apache.flink.table.data.GenericMapData(headers),
                    org.apache.flink.table.data.TimestampData.fromEpochMillis(1764590401001L))));
            harness.processElement(new StreamRecord<>(GenericRowData.of(2L, StringData.fromString("b"), null, null)));
            harness.endInput();
            List<EncodedRecord> records = new ArrayList<>();
            harness.getOutput().forEach(e -> records.add((EncodedRecord) ((StreamRecord<?>) e).getValue()));
            assertEquals(2, records.size());
            assertEquals("{\"id\":1,\"name\":\"a\"}", text(records.get(0).value()));
            assertEquals(1764590401001L, records.get(0).timestamp());
            assertEquals(1, records.get(0).headers().size(), "the entry with a null value is skipped");
            assertEquals("h", records.get(0).headers().get(0).key());
            assertEquals("v", text(records.get(0).headers().get(0).value()));
            assertNull(records.get(1).timestamp());
            assertNull(records.get(1).headers());
        }
    }
}
