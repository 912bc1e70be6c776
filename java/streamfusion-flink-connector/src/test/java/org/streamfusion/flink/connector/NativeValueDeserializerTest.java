package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeValueDeserializer} hands a natively decoded record's rows on as Flink's json deserializer hands on
 * its own: what the collector throws for a row (Flink's record deserializer refuses a null row outside upsert
 * mode) fails the message with Flink's message, or under {@code ignore-parse-errors} ends it. Checked against
 * Flink's own deserializer given the same message and the same collector.
 */
class NativeValueDeserializerTest {
    private static final RowType TYPE = RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

    /** Collects rows as text; throws for a null row, as {@code DynamicKafkaDeserializationSchema}'s projection. */
    private static final class RefusingNull implements Collector<RowData> {
        final List<String> rows = new ArrayList<>();

        @Override
        public void collect(RowData row) {
            if (row == null) {
                throw new IllegalStateException("Invalid null value received in non-upsert mode.");
            }
            rows.add(row.getRowKind().shortString() + "(" + row.getLong(0) + ")");
        }

        @Override
        public void close() {}
    }

    /** What a deserializer did with a message: its rows, then its failure's message or "no failure". */
    private static String outcome(DeserializationSchema<RowData> schema, byte[] message) {
        RefusingNull out = new RefusingNull();
        String failure = "no failure";
        try {
            schema.deserialize(message, out);
        } catch (Exception e) {
            failure = e.getClass().getSimpleName() + ": " + e.getMessage() + " <- "
                    + e.getCause().getMessage();
        }
        return out.rows + ", " + failure;
    }

    @Test
    void aRowTheCollectorRefusesEndsTheMessageAsInFlink() throws Exception {
        // An array root with a null element: Flink collects +I(1), then the null row, which the collector refuses.
        byte[] message = "[{\"id\":1},null,{\"id\":2}]".getBytes(StandardCharsets.UTF_8);
        GenericRowData one = GenericRowData.of(1L);
        GenericRowData two = GenericRowData.of(2L);
        ConsumerRecord<byte[], byte[]> fetched = new ConsumerRecord<>("t", 0, 7, null, message);
        for (boolean ignore : new boolean[] {false, true}) {
            Map<String, String> options = Map.of("ignore-parse-errors", String.valueOf(ignore));
            JsonParserRowDataDeserializationSchema flink = new JsonParserRowDataDeserializationSchema(
                    TYPE, InternalTypeInfo.of(TYPE), false, ignore, TimestampFormat.SQL);
            flink.open(null);
            NativeValueDeserializer ours = new NativeValueDeserializer(flink, TYPE, options);
            ours.open(null);
            ours.projectedInto(true);
            ours.next(DecodedRecord.of(fetched, new RowData[] {one, null, two}));
            String expected = ignore
                    ? "[+I(1)], no failure"
                    : "[+I(1)], IOException: Failed to deserialize JSON '[{\"id\":1},null,{\"id\":2}]'. <- Invalid null "
                            + "value received in non-upsert mode.";
            assertEquals(expected, outcome(flink, message), "Flink's, ignore-parse-errors " + ignore);
            assertEquals(expected, outcome(ours, message), "ours, ignore-parse-errors " + ignore);
        }
    }
}
