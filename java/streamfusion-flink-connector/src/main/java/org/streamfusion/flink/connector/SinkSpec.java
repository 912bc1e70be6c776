package org.streamfusion.flink.connector;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Everything a planned {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} sink needs at run time,
 * validated when built ({@link #builder(RowType)}): the consumed row type, the encoder options (the names
 * {@link org.streamfusion.flink.RowDataJsonEncoder} takes), the Kafka side exactly as Flink's
 * {@code KafkaDynamicSink} would build its {@code KafkaSink}, and the batching settings. Immutable and
 * serializable (it travels with the job graph). Equal specs plan the same sink ({@link #equals}); its
 * {@link #toString} shows every setting but hides the values of secret producer properties
 * ({@code SensitiveConfigs}).
 */
@Internal
public final class SinkSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The most UTF-8 bytes {@code KafkaSinkBuilder.setTransactionalIdPrefix} accepts. */
    static final int MAX_TRANSACTIONAL_ID_PREFIX_BYTES = 64000;

    final RowType rowType;
    final Map<String, String> encoderOptions;
    final int[] keyProjection;
    /** The {@code topic} option's topics, in the given order, at least one. */
    final List<String> topics;

    final Properties producerProperties;
    final DeliveryGuarantee deliveryGuarantee;
    /** Null when not set. */
    final String transactionalIdPrefix;

    /**
     * {@code sink.transaction-naming-strategy} as the name of flink-connector-kafka's
     * {@code TransactionNamingStrategy} constant ({@code INCREMENTING}, the default, or {@code POOLING});
     * {@code INCREMENTING}, the naming of their {@code KafkaSink}, on Flink lines whose connector has no such
     * option ({@link FlinkLine}).
     */
    final String transactionNamingStrategy;

    final boolean fixedPartitioner;
    /** {@code sink.partitioner} as a class name (a {@code KafkaPartitioner<RowData>}), null for none. */
    final String partitionerClass;

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

    /** From a builder whose settings {@link Builder#build()} has checked; positions as it derived them. */
    private SinkSpec(
            Builder b, RowType consumedRowType, int topicPosition, int timestampPosition, int headersPosition) {
        this.rowType = b.rowType;
        this.encoderOptions = Collections.unmodifiableMap(new LinkedHashMap<>(b.encoderOptions));
        this.keyProjection = b.keyProjection.clone();
        this.topics = List.copyOf(b.topics);
        this.producerProperties = new Properties();
        this.producerProperties.putAll(b.producerProperties);
        this.deliveryGuarantee = b.deliveryGuarantee;
        this.transactionalIdPrefix = b.transactionalIdPrefix;
        this.transactionNamingStrategy = b.transactionNamingStrategy;
        this.fixedPartitioner = b.fixedPartitioner;
        this.partitionerClass = b.partitionerClass;
        this.upsert = b.upsert;
        this.parallelism = b.parallelism;
        this.batchRows = b.batchRows;
        this.lingerMillis = b.lingerMillis;
        this.consumedRowType = consumedRowType;
        this.topicPosition = topicPosition;
        this.timestampPosition = timestampPosition;
        this.headersPosition = headersPosition;
        this.bufferFlushMaxRows = b.bufferFlushMaxRows;
        this.bufferFlushIntervalMillis = b.bufferFlushIntervalMillis;
    }

    /**
     * A builder with the defaults of the table options: no encoder options, no key, no producer properties, no
     * topic (one is required), {@code sink.delivery-guarantee} {@code AT_LEAST_ONCE} (the table connector's
     * default, not {@code KafkaSinkBuilder}'s {@code NONE}), no transactional-id prefix, naming strategy
     * {@code INCREMENTING}, Kafka's partitioner, not upsert, the input's parallelism,
     * {@link StreamFusionOptions#DEFAULT_BATCH_ROWS} rows, {@link StreamFusionOptions#DEFAULT_LINGER}, no metadata
     * columns, no {@code sink.buffer-flush}.
     *
     * @param rowType the table's physical row type (what the key and value are made of); checked by
     *     {@link Builder#build()}
     * @return a new builder
     */
    static Builder builder(RowType rowType) {
        return new Builder(rowType);
    }

    /** @return a builder holding every setting of this spec, for a changed copy */
    Builder toBuilder() {
        Builder b = new Builder(rowType)
                .setEncoderOptions(encoderOptions)
                .setKeyProjection(keyProjection)
                .setTopics(topics)
                .setProducerProperties(producerProperties)
                .setDeliveryGuarantee(deliveryGuarantee)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setTransactionNamingStrategy(transactionNamingStrategy)
                .setFixedPartitioner(fixedPartitioner)
                .setPartitionerClass(partitionerClass)
                .setUpsert(upsert)
                .setParallelism(parallelism)
                .setBatchRows(batchRows)
                .setLingerMillis(lingerMillis)
                .setBufferFlush(bufferFlushMaxRows, bufferFlushIntervalMillis);
        if (consumedRowType != rowType) {
            String[] keys = new String[consumedRowType.getFieldCount() - rowType.getFieldCount()];
            int physical = rowType.getFieldCount();
            if (topicPosition >= 0) {
                keys[topicPosition - physical] = StreamFusionKafkaDynamicSink.METADATA_TOPIC;
            }
            if (timestampPosition >= 0) {
                keys[timestampPosition - physical] = StreamFusionKafkaDynamicSink.METADATA_TIMESTAMP;
            }
            if (headersPosition >= 0) {
                keys[headersPosition - physical] = StreamFusionKafkaDynamicSink.METADATA_HEADERS;
            }
            b.setWritableMetadata(List.of(keys), consumedRowType);
        }
        return b;
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

    /** @return {@code sink.partitioner} as a class name (a {@code KafkaPartitioner<RowData>}), or null */
    public String partitionerClass() {
        return partitionerClass;
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

    /**
     * @param o another object
     * @return true for a spec with equal settings: row types and encoder options by {@code equals}, the key
     *     projection by content, the topics in order, the producer properties as maps, every other field by value
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SinkSpec)) {
            return false;
        }
        SinkSpec that = (SinkSpec) o;
        return rowType.equals(that.rowType)
                && encoderOptions.equals(that.encoderOptions)
                && Arrays.equals(keyProjection, that.keyProjection)
                && topics.equals(that.topics)
                && asMap(producerProperties).equals(asMap(that.producerProperties))
                && deliveryGuarantee == that.deliveryGuarantee
                && Objects.equals(transactionalIdPrefix, that.transactionalIdPrefix)
                && transactionNamingStrategy.equals(that.transactionNamingStrategy)
                && fixedPartitioner == that.fixedPartitioner
                && Objects.equals(partitionerClass, that.partitionerClass)
                && upsert == that.upsert
                && Objects.equals(parallelism, that.parallelism)
                && batchRows == that.batchRows
                && lingerMillis == that.lingerMillis
                && consumedRowType.equals(that.consumedRowType)
                && topicPosition == that.topicPosition
                && timestampPosition == that.timestampPosition
                && headersPosition == that.headersPosition
                && bufferFlushMaxRows == that.bufferFlushMaxRows
                && bufferFlushIntervalMillis == that.bufferFlushIntervalMillis;
    }

    /** @return a hash of every field, consistent with {@link #equals} */
    @Override
    public int hashCode() {
        int hash = Objects.hash(
                rowType,
                encoderOptions,
                topics,
                asMap(producerProperties),
                deliveryGuarantee,
                transactionalIdPrefix,
                transactionNamingStrategy,
                fixedPartitioner,
                partitionerClass,
                upsert,
                parallelism,
                batchRows,
                lingerMillis,
                consumedRowType,
                topicPosition,
                timestampPosition,
                headersPosition,
                bufferFlushMaxRows,
                bufferFlushIntervalMillis);
        return 31 * hash + Arrays.hashCode(keyProjection);
    }

    /**
     * @return every setting, for logs and test failures; the values of secret producer properties
     *     ({@code sasl.jaas.config}, passwords, {@code ssl.keystore.key}, client secrets...: the rule of
     *     {@code SensitiveConfigs}) print as {@code [hidden]}, their keys are shown
     */
    @Override
    public String toString() {
        return "SinkSpec[rowType=" + rowType + ", encoderOptions=" + encoderOptions + ", keyProjection="
                + Arrays.toString(keyProjection) + ", topics=" + topics + ", producerProperties="
                + SensitiveConfigs.redact(producerProperties) + ", deliveryGuarantee=" + deliveryGuarantee
                + ", transactionalIdPrefix=" + transactionalIdPrefix + ", transactionNamingStrategy="
                + transactionNamingStrategy + ", fixedPartitioner=" + fixedPartitioner + ", partitionerClass="
                + partitionerClass + ", upsert=" + upsert
                + ", parallelism=" + parallelism + ", batchRows=" + batchRows + ", lingerMillis=" + lingerMillis
                + ", consumedRowType=" + consumedRowType + ", topicPosition=" + topicPosition
                + ", timestampPosition=" + timestampPosition + ", headersPosition=" + headersPosition
                + ", bufferFlushMaxRows=" + bufferFlushMaxRows + ", bufferFlushIntervalMillis="
                + bufferFlushIntervalMillis + "]";
    }

    /** The properties as a plain map (a {@code Properties} compares as a map; this says so explicitly). */
    private static Map<Object, Object> asMap(Properties properties) {
        return new HashMap<>(properties);
    }

    /**
     * Collects a {@link SinkSpec}'s settings under their option names; {@link #build()} checks them together,
     * as Flink's factories and {@code KafkaSinkBuilder} check theirs. Setters take null only where they say so
     * (else {@link NullPointerException}) and copy what they are given. Not thread safe; reusable after build.
     */
    static final class Builder {
        private final RowType rowType;
        private Map<String, String> encoderOptions = Map.of();
        private int[] keyProjection = new int[0];
        private List<String> topics = List.of();
        private Properties producerProperties = new Properties();
        private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE;
        private String transactionalIdPrefix;
        private String transactionNamingStrategy = FlinkLine.DEFAULT_TRANSACTION_NAMING_STRATEGY;
        private boolean fixedPartitioner;
        private String partitionerClass;
        private boolean upsert;
        private Integer parallelism;
        private int batchRows = StreamFusionOptions.DEFAULT_BATCH_ROWS;
        private long lingerMillis = StreamFusionOptions.DEFAULT_LINGER.toMillis();
        private List<String> metadataKeys = List.of();
        /** Null: the physical row ({@link #rowType}). */
        private RowType consumedRowType;

        private int bufferFlushMaxRows;
        private long bufferFlushIntervalMillis;

        private Builder(RowType rowType) {
            this.rowType = rowType;
        }

        /**
         * @param options the {@link org.streamfusion.flink.RowDataJsonEncoder} options (json format options,
         *     {@code key.fields}..., {@code changelog.mode}, {@code native.min-batch-rows}); checked by the
         *     encoder, not here
         * @return this
         */
        Builder setEncoderOptions(Map<String, String> options) {
            this.encoderOptions = new LinkedHashMap<>(Objects.requireNonNull(options, "encoderOptions"));
            return this;
        }

        /**
         * @param positions the key fields' positions in the physical row, in key order ({@code key.fields}, or
         *     the PRIMARY KEY for upsert); none: no key
         * @return this
         */
        Builder setKeyProjection(int... positions) {
            this.keyProjection =
                    Objects.requireNonNull(positions, "keyProjection").clone();
            return this;
        }

        /**
         * @param topic the one topic of the {@code topic} option
         * @return this
         */
        Builder setTopic(String topic) {
            return setTopics(List.of(Objects.requireNonNull(topic, "topic")));
        }

        /**
         * @param topics the {@code topic} option's topics in the given order (a {@code ;}-separated list in DDL)
         * @return this
         */
        Builder setTopics(List<String> topics) {
            this.topics = List.copyOf(Objects.requireNonNull(topics, "topics"));
            return this;
        }

        /**
         * @param properties the Kafka producer properties, the {@code properties.*} options without the prefix
         *     ({@code bootstrap.servers} required)
         * @return this
         */
        Builder setProducerProperties(Properties properties) {
            Properties copy = new Properties();
            copy.putAll(Objects.requireNonNull(properties, "producerProperties"));
            this.producerProperties = copy;
            return this;
        }

        /**
         * @param guarantee {@code sink.delivery-guarantee}
         * @return this
         */
        Builder setDeliveryGuarantee(DeliveryGuarantee guarantee) {
            this.deliveryGuarantee = Objects.requireNonNull(guarantee, "deliveryGuarantee");
            return this;
        }

        /**
         * @param prefix {@code sink.transactional-id-prefix}, or null when not set (required for exactly once)
         * @return this
         */
        Builder setTransactionalIdPrefix(String prefix) {
            this.transactionalIdPrefix = prefix;
            return this;
        }

        /**
         * @param strategy {@code sink.transaction-naming-strategy}, the constant's name ({@code INCREMENTING},
         *     {@code POOLING}; checked when the sink is built, by {@link FlinkLine#setTransactionNamingStrategy})
         * @return this
         */
        Builder setTransactionNamingStrategy(String strategy) {
            this.transactionNamingStrategy = Objects.requireNonNull(strategy, "transactionNamingStrategy");
            return this;
        }

        /**
         * @param fixed true for {@code sink.partitioner=fixed} (Flink's {@code FlinkFixedPartitioner}), false to
         *     leave the partition to Kafka's producer ({@code default}, {@code round-robin})
         * @return this
         */
        Builder setFixedPartitioner(boolean fixed) {
            this.fixedPartitioner = fixed;
            return this;
        }

        /**
         * @param className {@code sink.partitioner} as the class name of a {@code KafkaPartitioner<RowData>} with a
         *     no-argument constructor (Flink's factory has checked it), or null for none; each writer subtask
         *     instantiates, opens and calls it as the stock sink does
         * @return this
         */
        Builder setPartitionerClass(String className) {
            this.partitionerClass = className;
            return this;
        }

        /**
         * @param upsert true for {@code streamfusion-upsert-kafka} (needs a key: the PRIMARY KEY)
         * @return this
         */
        Builder setUpsert(boolean upsert) {
            this.upsert = upsert;
            return this;
        }

        /**
         * @param parallelism {@code sink.parallelism}, or null for the input's parallelism
         * @return this
         */
        Builder setParallelism(Integer parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /**
         * @param rows {@code streamfusion.batch-rows}, at least 1
         * @return this
         */
        Builder setBatchRows(int rows) {
            this.batchRows = rows;
            return this;
        }

        /**
         * @param millis {@code streamfusion.linger} in milliseconds, at least 1
         * @return this
         */
        Builder setLingerMillis(long millis) {
            this.lingerMillis = millis;
            return this;
        }

        /**
         * The writable metadata columns, as {@code KafkaDynamicSink.applyWritableMetadata} takes them.
         *
         * @param metadataKeys the metadata keys in the order the planner appends them to the physical row
         *     ({@code topic} (only with more than one topic), {@code headers}, {@code timestamp}, each at most
         *     once); empty for none
         * @param consumedRowType the physical fields followed by one field per metadata key
         * @return this
         */
        Builder setWritableMetadata(List<String> metadataKeys, RowType consumedRowType) {
            this.metadataKeys = List.copyOf(Objects.requireNonNull(metadataKeys, "metadataKeys"));
            this.consumedRowType = Objects.requireNonNull(consumedRowType, "consumedRowType");
            return this;
        }

        /**
         * {@code sink.buffer-flush.*} (upsert only), as {@code SinkBufferFlushMode}: rows are reduced by key
         * (last one wins) and emitted when {@code maxRows} keys are buffered, every {@code intervalMillis} of
         * processing time, and before a checkpoint barrier and at end of input. Both 0 (the default): off.
         *
         * @param maxRows {@code sink.buffer-flush.max-rows}, distinct keys buffered before they are emitted
         * @param intervalMillis {@code sink.buffer-flush.interval} in milliseconds
         * @return this
         */
        Builder setBufferFlush(int maxRows, long intervalMillis) {
            this.bufferFlushMaxRows = maxRows;
            this.bufferFlushIntervalMillis = intervalMillis;
            return this;
        }

        /**
         * Checks the settings together and builds the spec.
         *
         * @return the spec
         * @throws NullPointerException without a row type
         * @throws IllegalArgumentException naming the option, as Flink's factories and {@code KafkaSinkBuilder}
         *     would: no topic; a key position outside the physical row; upsert without a key;
         *     {@code streamfusion.batch-rows} below 1; {@code streamfusion.linger} below 1 ms; no
         *     {@code properties.bootstrap.servers}; {@code exactly-once} without {@code sink.transactional-id-prefix},
         *     or a prefix over {@value SinkSpec#MAX_TRANSACTIONAL_ID_PREFIX_BYTES} UTF-8 bytes;
         *     {@code sink.buffer-flush.max-rows} and {@code .interval} negative, not both set or both 0, or set
         *     without upsert; metadata columns whose consumed row is not the physical fields followed by one
         *     field per key, an unknown or repeated key, {@code topic} with one topic, or a metadata column of
         *     another type than {@code KafkaDynamicSink} lists (STRING, MAP, TIMESTAMP_LTZ)
         */
        SinkSpec build() {
            Objects.requireNonNull(rowType, "rowType: the table's physical row type");
            int physical = rowType.getFieldCount();
            if (topics.isEmpty()) {
                throw new IllegalArgumentException("Option 'topic' must name at least one topic.");
            }
            for (int position : keyProjection) {
                if (position < 0 || position >= physical) {
                    throw new IllegalArgumentException(String.format(
                            "Key field position %d ('key.fields' or the "
                                    + "PRIMARY KEY) is outside the physical row of %d fields %s.",
                            position, physical, rowType.getFieldNames()));
                }
            }
            if (upsert && keyProjection.length == 0) {
                throw new IllegalArgumentException("An upsert sink needs key fields: the table's PRIMARY KEY.");
            }
            if (batchRows < 1) {
                throw new IllegalArgumentException(String.format(
                        "Option '%s' = '%d' must be at least 1 (rows).",
                        StreamFusionOptions.BATCH_ROWS.key(), batchRows));
            }
            if (lingerMillis < 1) {
                throw new IllegalArgumentException(String.format(
                        "Option '%s' = '%d ms' must be at least 1 ms.",
                        StreamFusionOptions.LINGER.key(), lingerMillis));
            }
            if (producerProperties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
                throw new IllegalArgumentException(String.format(
                        "Option '%s%s' must be set.",
                        SinkPlanning.PROPERTIES_PREFIX, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
            }
            if (deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE && transactionalIdPrefix == null) {
                // KafkaConnectorOptionsUtil.validateDeliveryGuarantee's text.
                throw new IllegalArgumentException(
                        "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
            }
            if (transactionalIdPrefix != null
                    && transactionalIdPrefix.getBytes(StandardCharsets.UTF_8).length
                            > MAX_TRANSACTIONAL_ID_PREFIX_BYTES) {
                throw new IllegalArgumentException(String.format(
                        "Option 'sink.transactional-id-prefix' is longer "
                                + "than %d UTF-8 bytes: the resulting transactional ids might exceed Kafka's size "
                                + "(KafkaSinkBuilder's limit).",
                        MAX_TRANSACTIONAL_ID_PREFIX_BYTES));
            }
            checkBufferFlush();
            RowType consumed = consumedRowType == null ? rowType : consumedRowType;
            if (consumed.getFieldCount() != physical + metadataKeys.size()) {
                throw new IllegalArgumentException("consumed row " + consumed + " is not the " + physical
                        + " physical fields followed by the metadata " + metadataKeys);
            }
            int topic = -1;
            int timestamp = -1;
            int headers = -1;
            for (int i = 0; i < metadataKeys.size(); i++) {
                String key = metadataKeys.get(i);
                int position = physical + i;
                if (metadataKeys.indexOf(key) != i) {
                    throw new IllegalArgumentException("metadata key " + key + " written twice: " + metadataKeys);
                }
                LogicalType type = consumed.getTypeAt(position);
                switch (key) {
                    case StreamFusionKafkaDynamicSink.METADATA_TOPIC -> {
                        if (topics.size() == 1) {
                            throw new IllegalArgumentException("the topic metadata is not writable with one topic");
                        }
                        checkMetadataType(key, type, type.is(LogicalTypeFamily.CHARACTER_STRING));
                        topic = position;
                    }
                    case StreamFusionKafkaDynamicSink.METADATA_TIMESTAMP -> {
                        checkMetadataType(key, type, type.is(LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE));
                        timestamp = position;
                    }
                    case StreamFusionKafkaDynamicSink.METADATA_HEADERS -> {
                        checkMetadataType(key, type, type.is(LogicalTypeRoot.MAP));
                        headers = position;
                    }
                    default -> throw new IllegalArgumentException("not a writable metadata key: " + key);
                }
            }
            return new SinkSpec(this, consumed, topic, timestamp, headers);
        }

        /** As {@code UpsertKafkaDynamicTableFactory.validateSinkBufferFlush}, plus: upsert only, none negative. */
        private void checkBufferFlush() {
            if (bufferFlushMaxRows < 0 || bufferFlushIntervalMillis < 0) {
                throw new IllegalArgumentException(String.format(
                        "Options 'sink.buffer-flush.max-rows' = '%d' and "
                                + "'sink.buffer-flush.interval' = '%d ms' must not be negative.",
                        bufferFlushMaxRows, bufferFlushIntervalMillis));
            }
            if ((bufferFlushMaxRows > 0) != (bufferFlushIntervalMillis > 0)) {
                throw new IllegalArgumentException("'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' "
                        + "must be set to be greater than zero together to enable sink buffer flushing.");
            }
            if (bufferFlushMaxRows > 0 && !upsert) {
                throw new IllegalArgumentException("Options 'sink.buffer-flush.max-rows' and "
                        + "'sink.buffer-flush.interval' apply to the upsert connector only (as to 'upsert-kafka').");
            }
        }

        private static void checkMetadataType(String key, LogicalType type, boolean expected) {
            if (!expected) {
                throw new IllegalArgumentException("metadata column " + key + " has type " + type
                        + ", not the type KafkaDynamicSink lists for it");
            }
        }
    }
}
