package org.streamfusion.flink.connector;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.streamfusion.flink.NativeRowDataDecoder;

/**
 * Flink's Kafka split reader, which fetches exactly as the stock one does (same consumer, offsets, stopping
 * offsets, finished splits), and then, on the split-fetcher thread, decodes each split's records of the fetch in
 * one native call ({@link NativeRowDataDecoder}): each record is handed on as a {@link DecodedRecord} carrying its
 * rows, or as fetched when the native decoder leaves it to Flink (the task thread then decodes it with the table's
 * stock deserializer, {@link NativeRecordDeserializationSchema}). A subclass, because Flink's
 * {@code KafkaSourceFetcherManager} casts its split reader to {@link KafkaPartitionSplitReader} to commit offsets.
 *
 * <p>One difference in what Flink reports: the per-partition {@code currentOffset} gauge, which the stock reader
 * sets as the task thread takes each record, reaches the fetch's last offset as the fetch is decoded, up to one
 * fetch ({@code max.poll.records}) ahead of emission.
 */
@Internal
final class NativeDecodingSplitReader extends KafkaPartitionSplitReader {
    private static final Logger LOG = LoggerFactory.getLogger(NativeDecodingSplitReader.class);

    private final NativeRowDataDecoder decoder;
    private final Counter nativeMessages;
    private final Counter decodeNanos;
    private byte[][] messages = new byte[0][];
    /** One split's records of the fetch being decoded (reused: a fetch holds up to {@code max.poll.records}). */
    private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();

    NativeDecodingSplitReader(
            Properties props,
            SourceReaderContext context,
            KafkaSourceReaderMetrics kafkaMetrics,
            String rackId,
            NativeRowDataDecoder decoder,
            Counter nativeMessages,
            Counter decodeNanos) {
        super(props, context, kafkaMetrics, rackId);
        this.decoder = decoder;
        this.nativeMessages = nativeMessages;
        this.decodeNanos = decodeNanos;
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetched = super.fetch();
        DecodedFetch decoded = new DecodedFetch(fetched.finishedSplits());
        String split;
        while ((split = fetched.nextSplit()) != null) {
            ConsumerRecord<byte[], byte[]> record;
            while ((record = fetched.nextRecordFromSplit()) != null) {
                records.add(record);
            }
            decoded.add(split, decode(records));
            records.clear();
        }
        fetched.recycle();
        return decoded;
    }

    /** The split's records with their rows: one native call for the lot, and one more after each left to Flink. */
    private List<ConsumerRecord<byte[], byte[]>> decode(List<ConsumerRecord<byte[], byte[]>> records)
            throws IOException {
        int n = records.size();
        if (messages.length < n) {
            messages = new byte[n][];
        }
        for (int i = 0; i < n; i++) {
            messages[i] = records.get(i).value();
        }
        Object[] rows = new Object[n];
        boolean[] leftToFlink = new boolean[n];
        long start = System.nanoTime();
        long before = decoder.nativeMessages();
        try {
            decoder.decode(messages, n, (message, row) -> rows[message] = add(rows[message], row), message -> {
                leftToFlink[message] = true;
            });
        } catch (RuntimeException e) {
            // Not a message's failure (those are Flink's to report): a fault of the native decoder. The records
            // still get Flink's rows.
            LOG.warn("The native decoder failed on a chunk of {} records; Flink's deserializer decodes them", n, e);
            java.util.Arrays.fill(messages, 0, n, null);
            return new ArrayList<>(records);
        }
        decodeNanos.inc(System.nanoTime() - start);
        nativeMessages.inc(decoder.nativeMessages() - before);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(leftToFlink[i] ? records.get(i) : DecodedRecord.of(records.get(i), rows[i]));
            messages[i] = null;
        }
        return out;
    }

    /** One more row of a message: the first row alone, a second turns it into an array (a null row always is one). */
    private static Object add(Object rows, RowData row) {
        if (rows == null) {
            return row == null ? new RowData[] {null} : row;
        }
        RowData[] before = rows instanceof RowData ? new RowData[] {(RowData) rows} : (RowData[]) rows;
        RowData[] after = java.util.Arrays.copyOf(before, before.length + 1);
        after[before.length] = row;
        return after;
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            decoder.close();
            LOG.debug("closed {}", decoder);
        }
    }

    /** The decoded records of one fetch, split by split in the fetch's order, with its finished splits. */
    private static final class DecodedFetch implements RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> {
        private final Map<String, List<ConsumerRecord<byte[], byte[]>>> splits = new LinkedHashMap<>();
        private final Set<String> finishedSplits;
        private Iterator<Map.Entry<String, List<ConsumerRecord<byte[], byte[]>>>> splitIterator;
        private Iterator<ConsumerRecord<byte[], byte[]>> records;

        DecodedFetch(Set<String> finishedSplits) {
            this.finishedSplits = finishedSplits;
        }

        void add(String split, List<ConsumerRecord<byte[], byte[]>> records) {
            splits.put(split, records);
        }

        @Override
        public String nextSplit() {
            if (splitIterator == null) {
                splitIterator = splits.entrySet().iterator();
            }
            if (!splitIterator.hasNext()) {
                records = null;
                return null;
            }
            Map.Entry<String, List<ConsumerRecord<byte[], byte[]>>> next = splitIterator.next();
            records = next.getValue().iterator();
            return next.getKey();
        }

        @Override
        public ConsumerRecord<byte[], byte[]> nextRecordFromSplit() {
            if (records == null) {
                throw new IllegalStateException("nextSplit() must return a split before its records are read");
            }
            return records.hasNext() ? records.next() : null;
        }

        @Override
        public Set<String> finishedSplits() {
            return finishedSplits;
        }
    }
}
