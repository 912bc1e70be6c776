package org.streamfusion.flink.connector;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.table.types.logical.RowType;

/**
 * Everything a planned {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} sink needs at run time,
 * already validated by the factory: the consumed row type, the encoder options (the names
 * {@link org.streamfusion.flink.RowDataJsonEncoder} takes), the Kafka side exactly as Flink's
 * {@code KafkaDynamicSink} would build its {@code KafkaSink}, and the batching settings. Immutable and
 * serializable (it travels with the job graph).
 */
public final class SinkSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    final RowType rowType;
    final Map<String, String> encoderOptions;
    final int[] keyProjection;
    /** The {@code topic} option's topics, in the given order, at least one. */
    final List<String> topics;
    final Properties producerProperties;
    final DeliveryGuarantee deliveryGuarantee;
    /** Null when not set. */
    final String transactionalIdPrefix;
    final TransactionNamingStrategy transactionNamingStrategy;
    final boolean fixedPartitioner;
    final boolean upsert;
    /** Null: the input's parallelism. */
    final Integer parallelism;
    final int batchRows;
    final long lingerMillis;
    /** The rows the sink consumes: {@link #rowType}'s fields, then the writable metadata columns. */
    final RowType consumedRowType;
    /** Position of the {@code topic} metadata (STRING) in the consumed row, -1 for none (only with several topics). */
    final int topicPosition;
    /** Position of the {@code timestamp} metadata (TIMESTAMP_LTZ(3)) in the consumed row, -1 for none. */
    final int timestampPosition;
    /** Position of the {@code headers} metadata (MAP&lt;STRING, BYTES&gt;) in the consumed row, -1 for none. */
    final int headersPosition;
    /** {@code sink.buffer-flush.max-rows} (distinct keys buffered), 0: no reduction by key. */
    final int bufferFlushMaxRows;
    /** {@code sink.buffer-flush.interval} in milliseconds, 0 when {@link #bufferFlushMaxRows} is 0. */
    final long bufferFlushIntervalMillis;

    SinkSpec(RowType rowType, Map<String, String> encoderOptions, int[] keyProjection, String topic,
            Properties producerProperties, DeliveryGuarantee deliveryGuarantee, String transactionalIdPrefix,
            TransactionNamingStrategy transactionNamingStrategy, boolean fixedPartitioner, boolean upsert,
            Integer parallelism, int batchRows, long lingerMillis) {
        this(rowType, encoderOptions, keyProjection, List.of(topic), producerProperties, deliveryGuarantee,
                transactionalIdPrefix, transactionNamingStrategy, fixedPartitioner, upsert, parallelism, batchRows,
                lingerMillis);
    }

    SinkSpec(RowType rowType, Map<String, String> encoderOptions, int[] keyProjection, List<String> topics,
            Properties producerProperties, DeliveryGuarantee deliveryGuarantee, String transactionalIdPrefix,
            TransactionNamingStrategy transactionNamingStrategy, boolean fixedPartitioner, boolean upsert,
            Integer parallelism, int batchRows, long lingerMillis) {
        this(rowType, encoderOptions, keyProjection, topics, producerProperties, deliveryGuarantee,
                transactionalIdPrefix, transactionNamingStrategy, fixedPartitioner, upsert, parallelism, batchRows,
                lingerMillis, rowType, -1, -1, -1, 0, 0);
    }

    private SinkSpec(RowType rowType, Map<String, String> encoderOptions, int[] keyProjection, List<String> topics,
            Properties producerProperties, DeliveryGuarantee deliveryGuarantee, String transactionalIdPrefix,
            TransactionNamingStrategy transactionNamingStrategy, boolean fixedPartitioner, boolean upsert,
            Integer parallelism, int batchRows, long lingerMillis, RowType consumedRowType, int topicPosition,
            int timestampPosition,
            int headersPosition, int bufferFlushMaxRows, long bufferFlushIntervalMillis) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.encoderOptions = Collections.unmodifiableMap(new LinkedHashMap<>(encoderOptions));
        this.keyProjection = keyProjection.clone();
        this.topics = List.copyOf(topics);
        if (this.topics.isEmpty()) {
            throw new IllegalArgumentException("no topic");
        }
        this.producerProperties = new Properties();
        this.producerProperties.putAll(producerProperties);
        this.deliveryGuarantee = Objects.requireNonNull(deliveryGuarantee, "deliveryGuarantee");
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.transactionNamingStrategy = Objects.requireNonNull(transactionNamingStrategy, "transactionNamingStrategy");
        this.fixedPartitioner = fixedPartitioner;
        this.upsert = upsert;
        this.parallelism = parallelism;
        this.batchRows = batchRows;
        this.lingerMillis = lingerMillis;
        this.consumedRowType = Objects.requireNonNull(consumedRowType, "consumedRowType");
        this.topicPosition = topicPosition;
        this.timestampPosition = timestampPosition;
        this.headersPosition = headersPosition;
        this.bufferFlushMaxRows = bufferFlushMaxRows;
        this.bufferFlushIntervalMillis = bufferFlushIntervalMillis;
    }

    /**
     * This spec with {@code sink.buffer-flush.*} enabled (upsert only), as {@code SinkBufferFlushMode}: rows are
     * reduced by key (last one wins) and emitted when {@code maxRows} keys are buffered, every
     * {@code intervalMillis} of processing time, and before a checkpoint barrier and at end of input.
     *
     * @param maxRows distinct keys buffered before the buffer is emitted, at least 1
     * @param intervalMillis the flush interval in milliseconds, at least 1
     * @return the new spec
     * @throws IllegalArgumentException if this spec is not upsert, or a value is below 1
     */
    SinkSpec withBufferFlush(int maxRows, long intervalMillis) {
        if (!upsert || maxRows < 1 || intervalMillis < 1) {
            throw new IllegalArgumentException("sink.buffer-flush needs upsert and max-rows, interval >= 1: upsert="
                    + upsert + ", max-rows=" + maxRows + ", interval=" + intervalMillis + " ms");
        }
        return new SinkSpec(rowType, encoderOptions, keyProjection, topics, producerProperties, deliveryGuarantee,
                transactionalIdPrefix, transactionNamingStrategy, fixedPartitioner, upsert, parallelism, batchRows,
                lingerMillis, consumedRowType, topicPosition, timestampPosition, headersPosition, maxRows,
                intervalMillis);
    }

    /** @return true when rows are reduced by key before encoding ({@code sink.buffer-flush.*} enabled) */
    public boolean reducesByKey() {
        return bufferFlushMaxRows > 0;
    }

    /** @return {@code sink.buffer-flush.max-rows}, 0 when disabled */
    public int bufferFlushMaxRows() {
        return bufferFlushMaxRows;
    }

    /** @return {@code sink.buffer-flush.interval} in milliseconds, 0 when disabled */
    public long bufferFlushIntervalMillis() {
        return bufferFlushIntervalMillis;
    }

    /**
     * This spec with writable metadata columns, as {@code KafkaDynamicSink.applyWritableMetadata} takes them.
     *
     * @param metadataKeys the metadata keys in the order the planner appends them to the physical row
     *     ({@code topic} (only with more than one topic), {@code headers}, {@code timestamp}, each at most once)
     * @param consumedRowType the physical fields followed by one field per metadata key
     * @return the new spec
     * @throws IllegalArgumentException for another key, or a consumed row that is not physical + metadata
     */
    SinkSpec withMetadata(List<String> metadataKeys, RowType consumedRowType) {
        int physical = rowType.getFieldCount();
        if (consumedRowType.getFieldCount() != physical + metadataKeys.size()) {
            throw new IllegalArgumentException("consumed row " + consumedRowType + " is not the " + physical
                    + " physical fields followed by the metadata " + metadataKeys);
        }
        int topic = -1;
        int timestamp = -1;
        int headers = -1;
        for (int i = 0; i < metadataKeys.size(); i++) {
            switch (metadataKeys.get(i)) {
                case StreamFusionKafkaDynamicSink.METADATA_TOPIC -> {
                    if (topics.size() == 1) {
                        throw new IllegalArgumentException("the topic metadata is not writable with one topic");
                    }
                    topic = physical + i;
                }
                case StreamFusionKafkaDynamicSink.METADATA_TIMESTAMP -> timestamp = physical + i;
                case StreamFusionKafkaDynamicSink.METADATA_HEADERS -> headers = physical + i;
                default -> throw new IllegalArgumentException("not a writable metadata key: " + metadataKeys.get(i));
            }
        }
        return new SinkSpec(rowType, encoderOptions, keyProjection, topics, producerProperties, deliveryGuarantee,
                transactionalIdPrefix, transactionNamingStrategy, fixedPartitioner, upsert, parallelism, batchRows,
                lingerMillis, consumedRowType, topic, timestamp, headers, bufferFlushMaxRows,
                bufferFlushIntervalMillis);
    }

    /** @return the row type the sink's input has: the physical fields, then the metadata columns */
    public RowType consumedRowType() {
        return consumedRowType;
    }

    /** @return true when a {@code topic}, {@code timestamp} or {@code headers} metadata column is written */
    public boolean hasMetadata() {
        return topicPosition >= 0 || timestampPosition >= 0 || headersPosition >= 0;
    }

    /** @return the table's physical columns (what the json key and value are made of) */
    public RowType rowType() {
        return rowType;
    }

    /** @return the options handed to {@link org.streamfusion.flink.RowDataJsonEncoder} (unmodifiable) */
    public Map<String, String> encoderOptions() {
        return encoderOptions;
    }

    /** @return the first (with one topic: the) topic of the {@code topic} option */
    public String topic() {
        return topics.get(0);
    }

    /**
     * @return the {@code topic} option's topics in the given order (unmodifiable, at least one); with more than
     *     one, each row's {@code topic} metadata column picks one of them, as in {@code KafkaDynamicSink}
     */
    public List<String> topics() {
        return topics;
    }

    /** @return the delivery guarantee of the {@code KafkaSink} ({@code sink.delivery-guarantee}) */
    public DeliveryGuarantee deliveryGuarantee() {
        return deliveryGuarantee;
    }

    /** @return true for {@code sink.partitioner=fixed} (Flink's {@code FlinkFixedPartitioner}) */
    public boolean fixedPartitioner() {
        return fixedPartitioner;
    }

    /** @return true for the upsert connector (DELETE and UPDATE_BEFORE become tombstones) */
    public boolean upsert() {
        return upsert;
    }

    /** @return {@code streamfusion.batch-rows} */
    public int batchRows() {
        return batchRows;
    }

    /** @return {@code streamfusion.linger} in milliseconds */
    public long lingerMillis() {
        return lingerMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SinkSpec)) {
            return false;
        }
        SinkSpec that = (SinkSpec) o;
        return fixedPartitioner == that.fixedPartitioner && upsert == that.upsert && batchRows == that.batchRows
                && lingerMillis == that.lingerMillis && rowType.equals(that.rowType)
                && encoderOptions.equals(that.encoderOptions) && java.util.Arrays.equals(keyProjection, that.keyProjection)
                && topics.equals(that.topics) && producerProperties.equals(that.producerProperties)
                && deliveryGuarantee == that.deliveryGuarantee
                && Objects.equals(transactionalIdPrefix, that.transactionalIdPrefix)
                && transactionNamingStrategy == that.transactionNamingStrategy
                && Objects.equals(parallelism, that.parallelism) && consumedRowType.equals(that.consumedRowType)
                && topicPosition == that.topicPosition && timestampPosition == that.timestampPosition && headersPosition == that.headersPosition
                && bufferFlushMaxRows == that.bufferFlushMaxRows
                && bufferFlushIntervalMillis == that.bufferFlushIntervalMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowType, encoderOptions, topics, deliveryGuarantee, upsert, batchRows);
    }

    @Override
    public String toString() {
        return "SinkSpec[topics=" + topics + ", upsert=" + upsert + ", deliveryGuarantee=" + deliveryGuarantee
                + ", fixedPartitioner=" + fixedPartitioner + ", batchRows=" + batchRows + ", lingerMillis="
                + lingerMillis + ", topicPosition=" + topicPosition + ", timestampPosition=" + timestampPosition + ", headersPosition=" + headersPosition
                + ", bufferFlushMaxRows=" + bufferFlushMaxRows + ", bufferFlushIntervalMillis=" + bufferFlushIntervalMillis
                + ", encoderOptions=" + encoderOptions + "]";
    }
}
