package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.streamfusion.kafka.EncodedBatch;

/**
 * The topic choice of {@link PreEncodedRecordSerializationSchema} against the stock
 * {@code DynamicKafkaRecordSerializationSchema} (package-private, built by reflection exactly as
 * {@code KafkaDynamicSink} builds it for a value-only table with a {@code topic} metadata column): the same
 * target topic for each row, and for a row without a topic or with one outside the list the same exception type
 * and text. No broker, no cluster.
 */
class PreEncodedRecordSerializationSchemaTest {
    private static final KafkaRecordSerializationSchema.KafkaSinkContext CONTEXT =
            new KafkaRecordSerializationSchema.KafkaSinkContext() {
                @Override
                public int getParallelInstanceId() {
                    return 0;
                }

                @Override
                public int getNumberOfParallelInstances() {
                    return 1;
                }

                @Override
                public int[] getPartitionsForTopic(String topic) {
                    return new int[] {0, 1, 2};
                }
            };

    /** The stock schema over rows (value STRING, topic STRING metadata at position 1). */
    private static KafkaRecordSerializationSchema<RowData> stock(List<String> topics) throws Exception {
        return stock(topics, null);
    }

    /**
     * The stock schema over rows whose field 0 (STRING) is the value and, with a {@code partitioner}, the key too
     * (no topic column then); without one, field 1 is the {@code topic} metadata column.
     */
    @SuppressWarnings("unchecked")
    private static KafkaRecordSerializationSchema<RowData> stock(
            List<String> topics, KafkaPartitioner<RowData> partitioner) throws Exception {
        Class<?> type = Class.forName(
                "org.apache.flink.streaming.connectors.kafka.table.DynamicKafkaRecordSerializationSchema");
        Constructor<?> constructor = type.getDeclaredConstructor(
                List.class,
                Pattern.class,
                KafkaPartitioner.class,
                SerializationSchema.class,
                SerializationSchema.class,
                RowData.FieldGetter[].class,
                RowData.FieldGetter[].class,
                boolean.class,
                int[].class,
                boolean.class);
        constructor.setAccessible(true);
        SerializationSchema<RowData> value = row -> row.getString(0).toBytes();
        RowData.FieldGetter[] valueGetters = {RowData.createFieldGetter(new VarCharType(VarCharType.MAX_LENGTH), 0)};
        boolean keyed = partitioner != null;
        // metadataPositions by KafkaDynamicSink.WritableMetadata ordinal: TOPIC, HEADERS, TIMESTAMP.
        return (KafkaRecordSerializationSchema<RowData>) constructor.newInstance(
                topics,
                null,
                partitioner,
                keyed ? value : null,
                value,
                keyed ? valueGetters : new RowData.FieldGetter[0],
                valueGetters,
                !keyed,
                new int[] {keyed ? -1 : 1, -1, -1},
                false);
    }

    private static RowData row(String value, String topic) {
        return GenericRowData.of(StringData.fromString(value), topic == null ? null : StringData.fromString(topic));
    }

    private static EncodedRecord record(String value, String topic) {
        return EncodedRecord.of(null, value.getBytes(StandardCharsets.UTF_8), topic, null, null);
    }

    /** The stock schema's result for {@code row}: its topic, or its exception's class and message. */
    private static String stockOutcome(KafkaRecordSerializationSchema<RowData> stock, RowData row) {
        try {
            return stock.serialize(row, CONTEXT, null).topic();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static String oursOutcome(PreEncodedRecordSerializationSchema ours, EncodedRecord record) {
        try {
            ProducerRecord<byte[], byte[]> produced = ours.serialize(record, CONTEXT, null);
            return produced.topic();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    @Test
    void topicChoiceAndErrorsAreTheStockSchemas() throws Exception {
        List<List<String>> lists = List.of(List.of("only"), List.of("a", "b"), List.of("c", "b", "a"));
        List<String> given = java.util.Arrays.asList("a", "b", "c", "only", "other", null);
        for (List<String> topics : lists) {
            KafkaRecordSerializationSchema<RowData> stock = stock(topics);
            PreEncodedRecordSerializationSchema ours = new PreEncodedRecordSerializationSchema(topics, false);
            for (String topic : given) {
                assertEquals(
                        stockOutcome(stock, row("v", topic)),
                        oursOutcome(ours, record("v", topic)),
                        "topics " + topics + ", row topic " + topic);
            }
        }
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> new PreEncodedRecordSerializationSchema(List.of("a", "b"), false)
                        .serialize(record("v", null), CONTEXT, null));
        assertEquals(
                "The topic of the sink record is not valid. Expected a single topic but no topic is set.",
                missing.getMessage());
    }

    @Test
    void theFixedPartitionerUsesTheRecordsTopic() throws Exception {
        PreEncodedRecordSerializationSchema ours = new PreEncodedRecordSerializationSchema(List.of("a", "b"), true);
        ours.open(null, CONTEXT);
        ProducerRecord<byte[], byte[]> produced = ours.serialize(record("v", "b"), CONTEXT, null);
        assertEquals("b", produced.topic());
        assertEquals(0, produced.partition());
    }

    /**
     * With a custom partitioner the stock schema gives the partitioner and the producer record the same key and
     * value arrays; ours does too for a record the operator made with {@link EncodedRecord#partitioned}: one copy
     * of the bytes per record, not two. A record without one still gets a fresh copy.
     */
    @Test
    void aCustomPartitionersArraysAreTheProducerRecordsAsInTheStockSchema() throws Exception {
        byte[][] seen = new byte[2][];
        KafkaPartitioner<RowData> capturing = new KafkaPartitioner<>() {
            @Override
            public int partition(RowData record, byte[] key, byte[] value, String targetTopic, int[] partitions) {
                seen[0] = key;
                seen[1] = value;
                return 2;
            }
        };
        KafkaRecordSerializationSchema<RowData> stock = stock(List.of("t"), capturing);
        stock.open(null, CONTEXT);
        ProducerRecord<byte[], byte[]> fromStock = stock.serialize(row("v", null), CONTEXT, null);
        assertEquals(2, fromStock.partition());
        assertSame(seen[0], fromStock.key(), "the stock schema: the partitioner's key array is the record's");
        assertSame(seen[1], fromStock.value(), "the stock schema: the partitioner's value array is the record's");

        EncodedBatch batch = EncodedBatch.ofRecords(new byte[][] {bytes("k")}, new byte[][] {bytes("{\"v\":1}")}, 0);
        byte[] key = batch.key(0);
        byte[] recordValue = batch.value(0);
        EncodedRecord partitioned = EncodedRecord.partitioned(batch, 0, null, 2, null, null, key, recordValue);
        PreEncodedRecordSerializationSchema ours = new PreEncodedRecordSerializationSchema(List.of("t"), false);
        ours.open(null, CONTEXT);
        ProducerRecord<byte[], byte[]> fromOurs = ours.serialize(partitioned, CONTEXT, null);
        assertEquals(2, fromOurs.partition());
        assertSame(key, fromOurs.key(), "ours: the partitioner's key array is the record's");
        assertSame(recordValue, fromOurs.value(), "ours: the partitioner's value array is the record's");

        ProducerRecord<byte[], byte[]> plain = ours.serialize(new EncodedRecord(batch, 0), CONTEXT, null);
        assertArrayEquals(recordValue, plain.value());
        assertNotSame(recordValue, plain.value(), "without a partitioner, a fresh copy");
        assertThrows(
                IllegalArgumentException.class,
                () -> EncodedRecord.partitioned(batch, 0, null, 2, null, null, key, bytes("{}")),
                "arrays that are not the record's bytes are refused");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
