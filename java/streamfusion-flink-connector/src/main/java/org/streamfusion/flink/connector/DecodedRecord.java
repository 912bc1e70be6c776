package org.streamfusion.flink.connector;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A fetched Kafka record together with the rows the native decoder made of its value on the split-fetcher thread,
 * for {@link NativeValueDeserializer} to collect on the task thread instead of decoding the value again. The
 * record itself (topic, partition, offset, timestamp, key, value, headers, leader epoch) is the fetched one's, so
 * Flink's record emitter and everything that reads the record see what they would have seen.
 */
@Internal
final class DecodedRecord extends ConsumerRecord<byte[], byte[]> {
    /** No row (a null or empty message, or one skipped under {@code ignore-parse-errors}). */
    private static final RowData[] NO_ROWS = new RowData[0];

    /** The one row ({@link RowData}) or the rows ({@code RowData[]}, null elements for Flink's null rows). */
    private final Object rows;

    private DecodedRecord(ConsumerRecord<byte[], byte[]> fetched, Object rows) {
        super(
                fetched.topic(),
                fetched.partition(),
                fetched.offset(),
                fetched.timestamp(),
                fetched.timestampType(),
                fetched.serializedKeySize(),
                fetched.serializedValueSize(),
                fetched.key(),
                fetched.value(),
                fetched.headers(),
                fetched.leaderEpoch());
        this.rows = rows;
    }

    /**
     * The record carrying what the native decoder made of it.
     *
     * @param rows null for no row, a {@link RowData} for one row, a {@code RowData[]} for several or for one null
     *     row
     */
    static DecodedRecord of(ConsumerRecord<byte[], byte[]> fetched, Object rows) {
        return new DecodedRecord(fetched, rows == null ? NO_ROWS : rows);
    }

    /** The rows in order, as Flink's deserializer would have collected them. */
    void emit(org.apache.flink.util.Collector<RowData> out) {
        if (rows instanceof RowData) {
            out.collect((RowData) rows);
            return;
        }
        for (RowData row : (RowData[]) rows) {
            out.collect(row);
        }
    }
}
