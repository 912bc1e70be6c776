package org.streamfusion.flink.connector;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
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
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncodedBatch;

/**
 * The operator in front of Flink's {@code KafkaSink}: buffers rows, encodes them in batches with one
 * {@link RowDataJsonEncoder} per task (one JNI crossing per batch, or Flink's serializer without the native
 * library or below {@code streamfusion.native.min-batch-rows}), and emits one {@link EncodedRecord} per row, in
 * row order.
 *
 * <p><b>When a batch is encoded.</b> When {@code streamfusion.batch-rows} rows are buffered; when the linger
 * timer fires ({@code streamfusion.linger} after the batch's first row, processing time, on the mailbox thread);
 * in {@link #prepareSnapshotPreBarrier} (so every row that arrived before a checkpoint barrier is handed to the
 * {@code KafkaSink} before the sink, chained after this operator, flushes and snapshots: no row is ever held
 * across a barrier, and buffered rows are never state); before a watermark is forwarded; and at end of input
 * ({@link #endInput}, {@link #finish}). Rows are copied on arrival only when object reuse is enabled (the
 * upstream operator may then reuse the instance), as Flink's {@code ReducingUpsertSink} does.
 *
 * <p><b>Metadata.</b> With {@code timestamp} / {@code headers} metadata columns (after the physical fields of
 * the consumed row) each record carries them as {@code KafkaDynamicSink}'s converters read them: the timestamp
 * as {@code getTimestamp(pos, 3).getMillisecond()} (null stays null: the producer's clock), the headers as the
 * map's entries in its order, skipping an entry whose key or value is null (a null map: no headers). They apply
 * to tombstones too. The encoder sees only the physical fields.
 *
 * <p><b>Metrics</b> (group {@code streamfusion} of the operator's metric group, per task): counters
 * {@code numBatches}, {@code numNativeBatches}, {@code numRows}, {@code numKeyBytes}, {@code numValueBytes},
 * {@code encodeTimeNanos} (wall-clock time inside the encoder, filling Arrow vectors included).
 *
 * <p><b>Errors.</b> A value the encoder rejects fails the task (the exception propagates from
 * {@code processElement} or the trigger that encoded the batch); the job's restart strategy applies and, exactly
 * once, the open transaction is aborted, so no partial batch is committed.
 */
public final class BatchingEncoderOperator extends AbstractStreamOperator<EncodedRecord>
        implements OneInputStreamOperator<RowData, EncodedRecord>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final SinkSpec spec;

    private transient RowDataJsonEncoder encoder;
    private transient RowDataSerializer copier;
    private transient List<RowData> buffer;
    /** Null without metadata columns; else the physical field positions, for the encoder's view of a row. */
    private transient int[] physicalFields;
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
        physicalFields = spec.hasMetadata() ? IntStream.range(0, spec.rowType.getFieldCount()).toArray() : null;
        buffer = new ArrayList<>(Math.min(spec.batchRows, 1 << 16));
        MetricGroup group = getMetricGroup().addGroup("streamfusion");
        batches = group.counter("numBatches");
        nativeBatches = group.counter("numNativeBatches");
        rows = group.counter("numRows");
        keyBytes = group.counter("numKeyBytes");
        valueBytes = group.counter("numValueBytes");
        encodeNanos = group.counter("encodeTimeNanos");
    }

    /** Buffers the row (a copy under object reuse); encodes the batch when it is full. */
    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        buffer.add(copier == null ? row : copier.copy(row));
        if (buffer.size() >= spec.batchRows) {
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
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    /** Encodes the buffered rows at end of input. */
    @Override
    public void endInput() throws Exception {
        flush();
    }

    /** Encodes the buffered rows (also after {@link #endInput}, which makes it a no-op). */
    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    /** Frees the encoder; buffered rows are dropped (the source replays them after a failure). */
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

    /** Encodes and emits the buffered rows, if any, and cancels the linger timer. */
    private void flush() {
        if (lingerTimer != null) {
            lingerTimer.cancel(false);
            lingerTimer = null;
        }
        if (buffer.isEmpty()) {
            return;
        }
        long nativeBefore = encoder.nativeBatches();
        long start = System.nanoTime();
        EncodedBatch batch = encoder.encode(physicalFields == null ? buffer : physicalViews());
        encodeNanos.inc(System.nanoTime() - start);
        batches.inc();
        nativeBatches.inc(encoder.nativeBatches() - nativeBefore);
        rows.inc(batch.size());
        keyBytes.inc(batch.keyBytes());
        valueBytes.inc(batch.valueBytes());
        StreamRecord<EncodedRecord> out = new StreamRecord<>(null);
        for (int i = 0; i < batch.size(); i++) {
            EncodedRecord record = physicalFields == null ? new EncodedRecord(batch, i)
                    : new EncodedRecord(batch, i, timestamp(buffer.get(i)), headers(buffer.get(i)));
            output.collect(out.replace(record));
        }
        buffer.clear();
    }

    private List<RowData> physicalViews() {
        List<RowData> views = new ArrayList<>(buffer.size());
        for (RowData row : buffer) {
            views.add(ProjectedRowData.from(physicalFields).replaceRow(row));
        }
        return views;
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
