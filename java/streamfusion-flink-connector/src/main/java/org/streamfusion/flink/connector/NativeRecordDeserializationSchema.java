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
 * The deserializer Flink's record emitter calls for every record of a {@link NativeKafkaSource}: a record the
 * split reader decoded natively ({@link DecodedRecord}) gives its rows; any other record (every record of a table
 * that is not decoded natively, and a message the native decoder left to Flink) goes to the table's own stock
 * deserializer, on the task thread as in the stock source, so its rows, its failures and their timing are Flink's.
 */
@Internal
final class NativeRecordDeserializationSchema implements KafkaRecordDeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;

    private final KafkaRecordDeserializationSchema<RowData> stock;
    private transient Counter flinkMessages;

    NativeRecordDeserializationSchema(KafkaRecordDeserializationSchema<RowData> stock) {
        this.stock = stock;
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
        if (record instanceof DecodedRecord) {
            ((DecodedRecord) record).emit(out);
            return;
        }
        if (flinkMessages != null) {
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
        }
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return stock.getProducedType();
    }
}
