package org.streamfusion.flink.connector;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The table sink of {@code streamfusion-kafka} and {@code streamfusion-upsert-kafka}. Where Flink's
 * {@code KafkaDynamicSink} hands rows to a {@code KafkaSink} through {@code DynamicKafkaRecordSerializationSchema},
 * this one puts a {@link BatchingEncoderOperator} in front of the same {@code KafkaSink} (built with the same
 * delivery guarantee, producer properties, transactional-id prefix and naming strategy), chained to it, and hands
 * it finished records through {@link PreEncodedRecordSerializationSchema}.
 *
 * <p>Changelog mode: insert-only for {@code streamfusion-kafka} (the {@code json} format's), {INSERT,
 * UPDATE_AFTER, DELETE} for {@code streamfusion-upsert-kafka} (upsert-kafka's). Parallelism: the input's, or
 * {@code sink.parallelism}; in upsert mode a differing {@code sink.parallelism} hashes rows by key first, so the
 * records of one key keep their order.
 *
 * <p>Writable metadata ({@link SupportsWritingMetadata}), as {@code KafkaDynamicSink} lists it: with a list of
 * more than one topic {@code topic} ({@code STRING NOT NULL}, the row's topic, which must be one of the list),
 * then {@code headers} ({@code MAP<STRING, BYTES>}, entries with a null key or value skipped) and
 * {@code timestamp} ({@code TIMESTAMP_LTZ(3)}, the record timestamp; null or no column: the producer's clock).
 * With one topic, {@code topic} is not writable, as in the stock sink, and the planner rejects it; with several
 * and no {@code topic} column, every row fails the task as in the stock sink (see
 * {@link PreEncodedRecordSerializationSchema}).
 */
@Internal
public final class StreamFusionKafkaDynamicSink implements DynamicTableSink, SupportsWritingMetadata {
    /** The {@code topic} metadata key (writable with more than one topic only). */
    public static final String METADATA_TOPIC = "topic";
    /** The {@code headers} metadata key. */
    public static final String METADATA_HEADERS = "headers";
    /** The {@code timestamp} metadata key. */
    public static final String METADATA_TIMESTAMP = "timestamp";

    /** The encoder operator's name (after the table's name and {@code ": "} in a table's job). */
    static final String ENCODER_NAME = "StreamFusion JSON encoder";

    private static final ChangelogMode UPSERT_MODE = ChangelogMode.newBuilder()
            .addContainedKind(RowKind.INSERT)
            .addContainedKind(RowKind.UPDATE_AFTER)
            .addContainedKind(RowKind.DELETE)
            .build();

    /** Replaced by {@link #applyWritableMetadata} (the planner's protocol, as in {@code KafkaDynamicSink}). */
    private SinkSpec spec;

    private final String identifier;

    /** The table's name, for the operators' names; {@code null} for {@link StreamFusionKafkaSink}. */
    private final String tableName;

    /**
     * @param spec the validated sink settings
     * @param identifier the connector's name, for {@link #asSummaryString()}
     * @param tableName the table's name ({@code ObjectIdentifier.getObjectName()}), which prefixes the operators'
     *     names as the planner's table name prefixes the stock sink's ({@code name: Writer}); {@code null} for the
     *     DataStream builder's default names ({@code StreamFusion JSON encoder}, {@code Sink: Writer})
     */
    public StreamFusionKafkaDynamicSink(SinkSpec spec, String identifier, String tableName) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.identifier = Objects.requireNonNull(identifier, "identifier");
        this.tableName = tableName;
    }

    /** @return the settings this sink was planned with */
    public SinkSpec spec() {
        return spec;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return spec.upsert ? UPSERT_MODE : ChangelogMode.insertOnly();
    }

    /** @return a provider that attaches the encoder operator and Flink's {@code KafkaSink} to the input */
    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext providerContext, DataStream<RowData> input) {
                return attach(providerContext, input, tableName);
            }
        };
    }

    /**
     * Attaches the encoder and the {@code KafkaSink} to {@code input} (the table provider and
     * {@link StreamFusionKafkaSink}). Both run at one parallelism ({@code sink.parallelism} or the input's), so
     * the edge between them is a forward edge and Flink chains the encoder to the writer: one task, no network
     * hop. (Flink chains the writer to nothing before it behind a legacy {@code SourceFunction}, such as the
     * {@code datagen} table's, as it does not for the stock sink: {@code SinkWriterOperator} yields to its
     * mailbox, see {@code StreamingJobGraphGenerator.areOperatorsChainable}.)
     *
     * @param name the operators' name prefix ({@code name: StreamFusion JSON encoder}, {@code name: Writer},
     *     {@code name: Committer}), or {@code null} for Flink's DataStream defaults
     */
    DataStreamSink<?> attach(ProviderContext providerContext, DataStream<RowData> input, String name) {
        int parallelism = spec.parallelism != null ? spec.parallelism : input.getParallelism();
        DataStream<RowData> rows = input;
        if (spec.upsert && spec.parallelism != null && spec.parallelism != input.getParallelism()) {
            rows = input.keyBy(new KeyFieldsSelector(spec.rowType, spec.keyProjection), Types.INT);
        }
        SingleOutputStreamOperator<EncodedRecord> encoded = rows.transform(
                name == null ? ENCODER_NAME : name + ": " + ENCODER_NAME,
                EncodedRecordTypeInfo.INSTANCE,
                new BatchingEncoderOperator(spec));
        // Flink 2.x chains an operator by default; Flink 1.x starts a chain at it (AbstractStreamOperator's HEAD).
        ((PhysicalTransformation<EncodedRecord>) encoded.getTransformation())
                .setChainingStrategy(ChainingStrategy.ALWAYS);
        providerContext.generateUid("streamfusion-encoder").ifPresent(encoded::uid);
        DataStreamSink<EncodedRecord> end = encoded.sinkTo(kafkaSink());
        if (name != null) {
            end.name(name);
        }
        providerContext.generateUid("kafka-sink").ifPresent(end::uid);
        if (parallelism > 0) {
            encoded.setParallelism(parallelism);
            end.setParallelism(parallelism);
        }
        return end;
    }

    /** Flink's {@code KafkaSink}, configured as {@code KafkaDynamicSink.getSinkRuntimeProvider} configures it. */
    KafkaSink<EncodedRecord> kafkaSink() {
        KafkaSinkBuilder<EncodedRecord> builder = KafkaSink.builder();
        if (spec.transactionalIdPrefix != null) {
            builder.setTransactionalIdPrefix(spec.transactionalIdPrefix);
        }
        builder.setDeliveryGuarantee(spec.deliveryGuarantee)
                .setBootstrapServers(spec.producerProperties
                        .get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
                        .toString())
                .setKafkaProducerConfig(spec.producerProperties)
                .setRecordSerializer(new PreEncodedRecordSerializationSchema(spec.topics, spec.fixedPartitioner));
        return FlinkLine.setTransactionNamingStrategy(builder, spec.transactionNamingStrategy)
                .build();
    }

    /**
     * @return with more than one topic {@code topic} ({@code STRING NOT NULL}), then {@code headers}
     *     ({@code MAP<STRING NULL, BYTES NULL> NULL}) and {@code timestamp} ({@code TIMESTAMP_LTZ(3) NULL}): the
     *     keys and types {@code KafkaDynamicSink.listWritableMetadata} lists (it leaves out {@code topic} for a
     *     single topic), in its order (the planner appends the metadata columns in this order)
     */
    @Override
    public Map<String, DataType> listWritableMetadata() {
        Map<String, DataType> metadata = new LinkedHashMap<>();
        if (spec.topics.size() > 1) {
            metadata.put(METADATA_TOPIC, DataTypes.STRING().notNull());
        }
        metadata.put(
                METADATA_HEADERS,
                DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable())
                        .nullable());
        metadata.put(
                METADATA_TIMESTAMP, DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3).nullable());
        return metadata;
    }

    /**
     * @param metadataKeys the metadata columns written, in the order of {@link #listWritableMetadata()}
     * @param consumedDataType the physical row followed by those columns
     * @throws IllegalArgumentException for another key, or a consumed row that is not physical + metadata (see
     *     {@code SinkSpec.Builder.build})
     */
    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {
        spec = spec.toBuilder()
                .setWritableMetadata(metadataKeys, (RowType) consumedDataType.getLogicalType())
                .build();
    }

    @Override
    public DynamicTableSink copy() {
        return new StreamFusionKafkaDynamicSink(spec, identifier, tableName);
    }

    @Override
    public String asSummaryString() {
        return identifier + " table sink";
    }

    /**
     * The hash of a row's key fields, for sending all rows of one key to one subtask. Computed from the fields'
     * contents only ({@code BinaryStringData}, {@code DecimalData}, {@code TimestampData}, boxed primitives and
     * {@code byte[]} hash their contents), so every sender JVM agrees; {@code GenericRowData.hashCode} would not
     * do, as it mixes in the row kind's identity hash.
     */
    static final class KeyFieldsSelector implements KeySelector<RowData, Integer> {
        private static final long serialVersionUID = 1L;
        private final RowData.FieldGetter[] getters;

        KeyFieldsSelector(RowType rowType, int[] keyProjection) {
            getters = new RowData.FieldGetter[keyProjection.length];
            for (int i = 0; i < keyProjection.length; i++) {
                getters[i] = RowData.createFieldGetter(rowType.getTypeAt(keyProjection[i]), keyProjection[i]);
            }
        }

        @Override
        public Integer getKey(RowData row) {
            Object[] fields = new Object[getters.length];
            for (int i = 0; i < getters.length; i++) {
                fields[i] = getters[i].getFieldOrNull(row);
            }
            return Arrays.deepHashCode(fields);
        }
    }
}
