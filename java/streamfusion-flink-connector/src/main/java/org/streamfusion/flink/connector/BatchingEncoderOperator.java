package org.streamfusion.flink.connector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ScheduledFuture;
import java.util.stream.IntStream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.DefaultKafkaSinkContext;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;

/**
 * The operator in front of Flink's {@code KafkaSink}: writes each row into the Arrow vectors of one
 * {@link RowDataJsonEncoder} per task as it arrives ({@link RowDataJsonEncoder#append}), encodes the batch in
 * one JNI crossing ({@link RowDataJsonEncoder#flush()}; Flink's serializer without the native library or below
 * {@code streamfusion.native.min-batch-rows}), and emits one {@link EncodedRecord} per row, in row order.
 *
 * <p><b>When a batch is encoded.</b> When {@code streamfusion.batch-rows} rows are buffered; when the linger
 * timer fires ({@code streamfusion.linger} after the batch's first row, processing time, on the mailbox thread);
 * in {@link #prepareSnapshotPreBarrier} (so every row that arrived before a checkpoint barrier is handed to the
 * {@code KafkaSink} before the sink, chained after this operator, flushes and snapshots: no row is ever held
 * across a barrier, and buffered rows are never state); before a watermark is forwarded; and at end of input
 * ({@link #endInput}, {@link #finish}). The operator holds no rows: the encoder keeps no reference to an
 * appended row, so the upstream operator may reuse the instance (object reuse) without a copy here; the encoder
 * itself copies only the rows Flink's serializer may have to write (the first {@code native.min-batch-rows} - 1
 * of a batch, all of them when the native path is off, and the rest of a batch after a value an Arrow column
 * cannot hold: see {@link RowDataJsonEncoder}). The metadata columns are read on arrival too.
 *
 * <p><b>Reducing by key</b> ({@code sink.buffer-flush.max-rows} / {@code .interval}, upsert only), as Flink's
 * {@code ReducingUpsertWriter}: rows go into a map by key (the primary key's field values), the last row of a key
 * replacing the earlier one; the map is emitted (encoded in batches of {@code streamfusion.batch-rows}) when it
 * holds {@code max-rows} keys, when a processing-time timer finds {@code interval} elapsed since the last
 * emission (the timer re-registers itself), in {@link #prepareSnapshotPreBarrier} and at end of input. Emission
 * order is the map's, so only the last value per key is comparable with the stock sink; the linger timer and
 * watermarks do not emit the map (the stock writer ignores watermarks too). The map holds rows, copied on
 * arrival when object reuse is enabled, as Flink's {@code ReducingUpsertSink} does.
 *
 * <p><b>A custom partitioner</b> ({@code sink.partitioner} naming a {@code KafkaPartitioner<RowData>} class): the
 * operator instantiates it and opens it with its subtask index and parallelism (the writer's: the operator runs
 * at the writer's parallelism, forward-connected), keeps a copy of each row of the batch, and once the batch is
 * encoded calls it per record as {@code DynamicKafkaRecordSerializationSchema} does: the consumed row, the key and
 * value bytes, the target topic and its partitions (from a {@code DefaultKafkaSinkContext}, as the writer's:
 * fetched once per topic); the record carries the partition to {@link PreEncodedRecordSerializationSchema}.
 *
 * <p><b>Metadata.</b> With {@code topic} / {@code timestamp} / {@code headers} metadata columns (after the
 * physical fields of the consumed row) each record carries them as {@code KafkaDynamicSink}'s converters read
 * them: the topic as the string (null stays null; {@link PreEncodedRecordSerializationSchema} checks it), the timestamp
 * as {@code getTimestamp(pos, 3).getMillisecond()} (null stays null: the producer's clock), the headers as the
 * map's entries in its order, skipping an entry whose key or value is null (a null map: no headers). They apply
 * to tombstones too. The encoder sees only the physical fields.
 *
 * <p><b>FLOAT and DOUBLE</b> get the digits of the task JVM's {@code Float.toString} / {@code Double.toString},
 * as Flink's serializer writes them there, on the native path too: {@link RowDataJsonEncoder} sets
 * {@code float.java-digits} from the JVM it runs on (JDK 17's {@code FloatingDecimal} digits below JDK 19, e.g.
 * {@code 2.0E23} is written {@code 1.9999999999999998E23} on JDK 17, as the stock sink writes it).
 *
 * <p><b>Metrics</b> (group {@code streamfusion} of the operator's metric group, per task): counters
 * {@code numBatches}, {@code numNativeBatches}, {@code numRows}, {@code numKeyBytes}, {@code numValueBytes},
 * {@code encodeTimeNanos} (wall-clock time inside the encoder, filling Arrow vectors included).
 *
 * <p><b>Errors.</b> A value the encoder rejects fails the task (the exception propagates from
 * {@code processElement} or the trigger that encoded the batch); the job's restart strategy applies and, exactly
 * once, the open transaction is aborted, so no partial batch is committed.
 */
@Internal
public final class BatchingEncoderOperator extends AbstractStreamOperator<EncodedRecord>
        implements OneInputStreamOperator<RowData, EncodedRecord>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private final SinkSpec spec;

    private transient RowDataJsonEncoder encoder;
    /** Copies rows into {@link #reduced} under object reuse; null otherwise. */
    private transient RowDataSerializer copier;
    /** Null without metadata columns; else the view of a row's physical fields handed to the encoder. */
    private transient ProjectedRowData physicalView;
    /** Null without metadata columns; else per appended row of the batch, in order: topic, timestamp, headers. */
    private transient List<String> topics;

    private transient List<Long> timestamps;
    private transient List<List<Header>> headerLists;
    /** Null without a custom {@code sink.partitioner} class; else the instance this subtask opened. */
    private transient KafkaPartitioner<RowData> partitioner;
    /** With {@link #partitioner}: a copy of each appended row of the batch, in order (what the partitioner sees). */
    private transient List<RowData> partitionedRows;
    /** With {@link #partitioner}: the consumed row's serializer, for {@link #partitionedRows}' copies. */
    private transient RowDataSerializer partitionedRowCopier;
    /** With {@link #partitioner}: the writer's context as {@code KafkaWriter} makes it (each topic's partitions). */
    private transient DefaultKafkaSinkContext sinkContext;
    /** Null unless reducing by key: the last row per key, in first-arrival order of the keys. */
    private transient Map<Key, RowData> reduced;

    private transient RowData.FieldGetter[] keyGetters;
    private transient long lastReducedFlush;
    private transient ScheduledFuture<?> lingerTimer;
    private transient Counter batches;
    private transient Counter nativeBatches;
    private transient Counter rows;
    private transient Counter keyBytes;
    private transient Counter valueBytes;
    private transient Counter encodeNanos;

    /** @param spec the planned sink (row type, encoder options, batching) */
    public BatchingEncoderOperator(SinkSpec spec) {
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    /** Opens the encoder (options parsed once per task) and registers the metrics. */
    @Override
    public void open() throws Exception {
        super.open();
        encoder = new RowDataJsonEncoder(spec.rowType, spec.encoderOptions);
        copier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.consumedRowType) : null;
        if (spec.hasMetadata()) {
            physicalView = ProjectedRowData.from(
                    IntStream.range(0, spec.rowType.getFieldCount()).toArray());
            int capacity = Math.min(spec.batchRows, 1 << 16);
            topics = new ArrayList<>(capacity);
            timestamps = new ArrayList<>(capacity);
            headerLists = new ArrayList<>(capacity);
        }
        if (spec.partitionerClass != null) {
            // As the stock sink: KafkaConnectorOptionsUtil instantiates the class (no-argument constructor) and
            // DynamicKafkaRecordSerializationSchema.open opens it with the writer subtask's index and parallelism
            // (this operator runs at the writer's parallelism, forward-connected to it).
            @SuppressWarnings("unchecked")
            KafkaPartitioner<RowData> instance = InstantiationUtil.instantiate(
                    spec.partitionerClass, KafkaPartitioner.class, getUserCodeClassloader());
            partitioner = instance;
            // KafkaWriter's context, over the producer properties as KafkaSinkBuilder completes them.
            Properties properties = new Properties();
            properties.putAll(spec.producerProperties);
            properties.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
            properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            sinkContext = new DefaultKafkaSinkContext(
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
                    properties);
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
            partitionedRows = new ArrayList<>(Math.min(spec.batchRows, 1 << 16));
            partitionedRowCopier = new RowDataSerializer(spec.consumedRowType);
        }
        if (spec.reducesByKey()) {
            reduced = new LinkedHashMap<>();
            keyGetters = new RowData.FieldGetter[spec.keyProjection.length];
            for (int i = 0; i < keyGetters.length; i++) {
                int pos = spec.keyProjection[i];
                keyGetters[i] = RowData.createFieldGetter(spec.rowType.getTypeAt(pos), pos);
            }
            lastReducedFlush = getProcessingTimeService().getCurrentProcessingTime();
            registerReducedFlush();
        }
        MetricGroup group = getMetricGroup().addGroup("streamfusion");
        batches = group.counter("numBatches");
        nativeBatches = group.counter("numNativeBatches");
        rows = group.counter("numRows");
        keyBytes = group.counter("numKeyBytes");
        valueBytes = group.counter("numValueBytes");
        encodeNanos = group.counter("encodeTimeNanos");
    }

    /** @return the batches this task encoded natively so far (the {@code numNativeBatches} counter) */
    long nativeBatches() {
        return nativeBatches.getCount();
    }

    /**
     * Appends the row to the encoder's batch (or, reducing by key, puts it in the map: a copy under object
     * reuse); encodes the batch when it is full.
     */
    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        if (reduced != null) {
            RowData kept = copier == null ? row : copier.copy(row);
            reduced.put(key(kept), kept);
            if (reduced.size() >= spec.bufferFlushMaxRows) {
                flushReduced();
            }
            return;
        }
        append(row);
        if (encoder.pendingRows() >= spec.batchRows) {
            flush();
        } else if (lingerTimer == null) {
            long now = getProcessingTimeService().getCurrentProcessingTime();
            lingerTimer = getProcessingTimeService().registerTimer(now + spec.lingerMillis, time -> {
                lingerTimer = null;
                flush();
            });
        }
    }

    /** Encodes the buffered rows, then forwards the watermark (records stay before it). */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    /** Encodes the buffered rows before the barrier reaches the chained {@code KafkaSink} writer. */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flushReduced();
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    /** Encodes the buffered rows at end of input. */
    @Override
    public void endInput() throws Exception {
        flushReduced();
        flush();
    }

    /** Encodes the buffered rows (also after {@link #endInput}, which makes it a no-op). */
    @Override
    public void finish() throws Exception {
        flushReduced();
        flush();
        super.finish();
    }

    /** Frees the encoder; appended rows not yet flushed are dropped (the source replays them after a failure). */
    @Override
    public void close() throws Exception {
        try {
            if (encoder != null) {
                encoder.close();
            }
        } finally {
            super.close();
        }
    }

    /** Writes the row into the encoder's vectors now, and its metadata (if any) into the lists. */
    private void append(RowData row) {
        if (partitioner != null) {
            partitionedRows.add(partitionedRowCopier.copy(row));
        }
        long before = encoder.encodeNanos();
        if (physicalView == null) {
            encoder.append(row);
        } else {
            encoder.append(physicalView.replaceRow(row));
            topics.add(topic(row));
            timestamps.add(timestamp(row));
            headerLists.add(headers(row));
        }
        encodeNanos.inc(encoder.encodeNanos() - before);
    }

    /** Encodes and emits the appended rows, if any, and cancels the linger timer. */
    private void flush() {
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
            lingerTimer = null;
        }
        if (encoder.pendingRows() == 0) {
            return;
        }
        long nativeBefore = encoder.nativeBatches();
        long before = encoder.encodeNanos();
        EncodedBatch batch = encoder.flush();
        encodeNanos.inc(encoder.encodeNanos() - before);
        batches.inc();
        nativeBatches.inc(encoder.nativeBatches() - nativeBefore);
        rows.inc(batch.size());
        keyBytes.inc(batch.keyBytes());
        valueBytes.inc(batch.valueBytes());
        StreamRecord<EncodedRecord> out = new StreamRecord<>(null);
        for (int i = 0; i < batch.size(); i++) {
            String topic = physicalView == null ? null : topics.get(i);
            Long timestamp = physicalView == null ? null : timestamps.get(i);
            List<Header> headers = physicalView == null ? null : headerLists.get(i);
            EncodedRecord record;
            if (partitioner != null) {
                // One copy of the record's bytes, for the partitioner and then the producer record.
                byte[] key = batch.key(i);
                byte[] value = batch.value(i);
                record = EncodedRecord.partitioned(
                        batch, i, topic, partition(i, topic, key, value), timestamp, headers, key, value);
            } else if (physicalView == null) {
                record = new EncodedRecord(batch, i);
            } else {
                record = new EncodedRecord(batch, i, topic, null, timestamp, headers);
            }
            output.collect(out.replace(record));
        }
        if (physicalView != null) {
            topics.clear();
            timestamps.clear();
            headerLists.clear();
        }
        if (partitioner != null) {
            partitionedRows.clear();
        }
    }

    /**
     * The partition the custom partitioner chooses for record {@code i} of the batch, called as
     * {@code DynamicKafkaRecordSerializationSchema.serialize} calls it: the consumed row, the key and value bytes
     * (the arrays the producer record gets), the target topic and its partitions. Null when the record's topic is
     * not valid (no topic, or one not in the list): {@link PreEncodedRecordSerializationSchema} then fails it with
     * the stock sink's error.
     */
    private Integer partition(int i, String recordTopic, byte[] key, byte[] value) {
        String topic = spec.topics.size() == 1 ? spec.topics.get(0) : recordTopic;
        if (topic == null || !spec.topics.contains(topic)) {
            return null;
        }
        return partitioner.partition(
                partitionedRows.get(i), key, value, topic, sinkContext.getPartitionsForTopic(topic));
    }

    /** As {@code ReducingUpsertWriter.registerFlush}: a timer at the last emission plus the interval. */
    private void registerReducedFlush() {
        getProcessingTimeService().registerTimer(lastReducedFlush + spec.bufferFlushIntervalMillis, time -> {
            if (time >= lastReducedFlush + spec.bufferFlushIntervalMillis) {
                flushReduced();
            }
            registerReducedFlush();
        });
    }

    /** Emits the reduced rows (if reducing by key), in batches of {@code streamfusion.batch-rows}. */
    private void flushReduced() {
        if (reduced == null) {
            return;
        }
        for (RowData row : reduced.values()) {
            append(row);
            if (encoder.pendingRows() >= spec.batchRows) {
                flush();
            }
        }
        flush();
        reduced.clear();
        lastReducedFlush = getProcessingTimeService().getCurrentProcessingTime();
    }

    private Key key(RowData row) {
        Object[] fields = new Object[keyGetters.length];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = keyGetters[i].getFieldOrNull(row);
        }
        return new Key(fields);
    }

    /** A key's field values, compared by content ({@code byte[]} included), as a projected GenericRowData is. */
    private static final class Key {
        private final Object[] fields;
        private final int hash;

        Key(Object[] fields) {
            this.fields = fields;
            this.hash = Arrays.deepHashCode(fields);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && Arrays.deepEquals(fields, ((Key) o).fields);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** As {@code KafkaDynamicSink.WritableMetadata.TOPIC}: the string, or null. */
    private String topic(RowData row) {
        int pos = spec.topicPosition;
        return pos < 0 || row.isNullAt(pos) ? null : row.getString(pos).toString();
    }

    /** As {@code KafkaDynamicSink.WritableMetadata.TIMESTAMP}: epoch milliseconds, or null. */
    private Long timestamp(RowData row) {
        int pos = spec.timestampPosition;
        return pos < 0 || row.isNullAt(pos) ? null : row.getTimestamp(pos, 3).getMillisecond();
    }

    /** As {@code KafkaDynamicSink.WritableMetadata.HEADERS}: entries with a null key or value are skipped. */
    private List<Header> headers(RowData row) {
        int pos = spec.headersPosition;
        if (pos < 0 || row.isNullAt(pos)) {
            return null;
        }
        MapData map = row.getMap(pos);
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        List<Header> headers = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.isNullAt(i) && !values.isNullAt(i)) {
                headers.add(new RecordHeader(keys.getString(i).toString(), values.getBinary(i)));
            }
        }
        return headers;
    }
}
