package org.streamfusion.flink.connector;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The deserializer Flink's record emitter calls for every record of a {@link NativeKafkaSource}: the table's own
 * stock record deserializer (Flink's {@code DynamicKafkaDeserializationSchema}: key fields, metadata columns, upsert
 * tombstones), on the task thread as in the stock source, whose value deserializer is a
 * {@link NativeValueDeserializer}. For a record the split reader decoded natively ({@link DecodedRecord}) it is told
 * to collect the rows the record carries; any other record (every record of a table that is not decoded natively,
 * and a message the native decoder left to Flink) is decoded by Flink's deserializers, so its rows, its failures and
 * their timing are Flink's.
 */
@Internal
final class NativeRecordDeserializationSchema implements KafkaRecordDeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;

    private final KafkaRecordDeserializationSchema<RowData> stock;
    private final NativeValueDeserializer values;
    private transient Counter flinkMessages;

    /**
     * @param stock the table's stock record deserializer
     * @param values the value deserializer inside it, or null when the table's values are never decoded natively
     */
    NativeRecordDeserializationSchema(KafkaRecordDeserializationSchema<RowData> stock, NativeValueDeserializer values) {
        this.stock = stock;
        this.values = values;
    }

    /** Opens the stock deserializer, as Flink's {@code KafkaSource.createReader} does. */
    @Override
    public void open(DeserializationSchema.InitializationContext context) throws Exception {
        stock.open(context);
    }

    /** Where the records decoded by the stock deserializer are counted. */
    void countFlinkMessagesIn(Counter counter) {
        this.flinkMessages = counter;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RowData> out) throws IOException {
        boolean decoded = record instanceof DecodedRecord;
        if (decoded) {
            values.next((DecodedRecord) record);
        } else if (flinkMessages != null) {
            flinkMessages.inc();
        }
        try {
            stock.deserialize(record, out);
        } catch (IOException | RuntimeException e) {
            // Flink's own failure, as the cause; the record it failed on, which Flink's message leaves out.
            throw new IOException(
                    String.format(
                            "Failed to deserialize the record at offset %d of partition %d of topic '%s'",
                            record.offset(), record.partition(), record.topic()),
                    e);
        } finally {
            if (decoded) {
                values.next(null);
            }
        }
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return stock.getProducedType();
    }
}
