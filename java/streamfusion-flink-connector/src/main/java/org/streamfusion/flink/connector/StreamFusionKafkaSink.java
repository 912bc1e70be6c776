package org.streamfusion.flink.connector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The DataStream API entry to {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} for jobs outside
 * SQL: a {@link RowType} and the same option map a {@code CREATE TABLE ... WITH (...)} would carry, validated
 * by the same factories (so by Flink's own {@code KafkaDynamicTableFactory} / {@code UpsertKafkaDynamicTableFactory}
 * checks too), and the same runtime: {@link BatchingEncoderOperator} chained to Flink's stock {@code KafkaSink}.
 * It matches what Flink's {@code KafkaDynamicSink} would attach for that table; where a user of Flink's
 * DataStream API would build a {@code KafkaSink} with a {@code KafkaRecordSerializationSchema} over
 * {@code JsonRowDataSerializationSchema}, this writes the records the {@code kafka} table sink writes.
 *
 * <pre>{@code
 * StreamFusionKafkaSink sink = StreamFusionKafkaSink.builder()
 *         .setRowType(rowType)                                  // the rows' physical type
 *         .setOption("topic", "bids")
 *         .setOption("properties.bootstrap.servers", "127.0.0.1:19092")
 *         .setOption("format", "json")
 *         .build();                                             // ValidationException on a bad option
 * sink.addTo(rows);                                             // rows: DataStream<RowData>
 * }</pre>
 *
 * <p>The connector is {@code streamfusion-kafka} unless the options say {@code 'connector' =
 * 'streamfusion-upsert-kafka'}, which needs {@link Builder#setPrimaryKey} and a changelog stream (INSERT,
 * UPDATE_AFTER, DELETE row kinds). Metadata columns are table-only (declare the table in SQL for them). A sink is
 * attached through {@link #addTo}, not {@code sinkTo}: the encoder is an operator in front of the
 * {@code KafkaSink}.
 */
@PublicEvolving
public final class StreamFusionKafkaSink {
    private final StreamFusionKafkaDynamicSink sink;
    private final String uidPrefix;

    private StreamFusionKafkaSink(StreamFusionKafkaDynamicSink sink, String uidPrefix) {
        this.sink = sink;
        this.uidPrefix = uidPrefix;
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Not API: for tests and tools of this project ({@link SinkSpec} is internal and may change in any release).
     *
     * @return the validated settings (row type, encoder options, Kafka side, batching)
     */
    @Internal
    public SinkSpec spec() {
        return sink.spec();
    }

    /**
     * Attaches the encoder and Flink's {@code KafkaSink} to {@code input}, at the input's parallelism or
     * {@code sink.parallelism}; with a uid prefix, the operators get the uids {@code prefix-streamfusion-encoder}
     * and {@code prefix-kafka-sink} (needed to restore from a savepoint after a change of the job's graph).
     *
     * @param input rows of the builder's row type (any row kind for upsert; INSERT for {@code streamfusion-kafka})
     * @return the sink of the job graph (for {@code name}, {@code setParallelism}...)
     */
    public DataStreamSink<?> addTo(DataStream<RowData> input) {
        return sink.attach(
                name -> uidPrefix == null ? Optional.empty() : Optional.of(uidPrefix + "-" + name),
                Objects.requireNonNull(input, "input"),
                null);
    }

    /** Collects the row type, the options and the primary key. Not thread safe; reusable after build. */
    @PublicEvolving
    public static final class Builder {
        private RowType rowType;
        private final Map<String, String> options = new LinkedHashMap<>();
        private List<String> primaryKey = List.of();
        private String uidPrefix;

        private Builder() {}

        /**
         * @param rowType the physical row type of the stream's {@code RowData} (field names are the JSON names)
         * @return this
         */
        public Builder setRowType(RowType rowType) {
            this.rowType = Objects.requireNonNull(rowType, "rowType");
            return this;
        }

        /**
         * @param options table options as in a {@code WITH} clause ({@code topic}, {@code properties.*},
         *     {@code format}, ..., {@code streamfusion.*}); added to those set before
         * @return this
         */
        public Builder setOptions(Map<String, String> options) {
            this.options.putAll(options);
            return this;
        }

        /**
         * @param key an option name as in a {@code WITH} clause
         * @param value its value
         * @return this
         */
        public Builder setOption(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * @param fields the primary key's fields (required by {@code streamfusion-upsert-kafka}, the record key)
         * @return this
         */
        public Builder setPrimaryKey(String... fields) {
            this.primaryKey = List.of(fields);
            return this;
        }

        /**
         * @param prefix a prefix for the operators' uids, or null for Flink's generated ones
         * @return this
         */
        public Builder setUidPrefix(String prefix) {
            this.uidPrefix = prefix;
            return this;
        }

        /**
         * Validates the options as the table factory does for a table of this row type.
         *
         * @return the sink
         * @throws NullPointerException without a row type
         * @throws ValidationException for any option the table sink rejects (Flink's message, wrapped by Flink's
         *     {@code FactoryUtil} in a {@code ValidationException} naming the table {@code streamfusion_kafka_sink}),
         *     and for options the table factory leaves to Flink's own sink (another format, {@code topic-pattern},
         *     a column type the encoder does not write: the message names which)
         */
        public StreamFusionKafkaSink build() {
            DynamicTableSink planned = FactoryUtil.createDynamicTableSink(
                    null,
                    BuilderTables.identifier("streamfusion_kafka_sink"),
                    BuilderTables.table("StreamFusionKafkaSink writes", rowType, options, primaryKey),
                    Map.of(),
                    new Configuration(),
                    StreamFusionKafkaSink.class.getClassLoader(),
                    true);
            if (!(planned instanceof StreamFusionKafkaDynamicSink sink)) {
                // The table factory plans Flink's own sink for such a table; a DataStream job builds Flink's
                // KafkaSink itself.
                throw new ValidationException(String.format(
                        "StreamFusionKafkaSink writes only rows it encodes natively, and these options are "
                                + "written by Flink's own Kafka sink because %s. Build Flink's KafkaSink (with "
                                + "JsonRowDataSerializationSchema) for this stream.",
                        FlinkWrittenFormat.reasonOf(planned).orElse("the table is not native")));
            }
            return new StreamFusionKafkaSink(sink, uidPrefix);
        }
    }
}
