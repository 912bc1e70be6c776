package org.streamfusion.flink.connector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.connector.source.ScanRuntimeProviderContext;
import org.apache.flink.table.types.logical.RowType;

/**
 * The DataStream API entry to the read side of {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} for
 * jobs outside SQL: a {@link RowType} and the same option map a {@code CREATE TABLE ... WITH (...)} would carry,
 * validated by the same factories (Flink's own {@code KafkaDynamicTableFactory} / {@code
 * UpsertKafkaDynamicTableFactory} checks included), and the same runtime as the table: Flink's Kafka source,
 * whose JSON values are decoded natively where that gives the stock rows ({@link NativeKafkaSource}). The rows
 * are those of the table of that type and options ({@code RowData}: {@code BinaryRowData} when decoded natively).
 *
 * <pre>{@code
 * DataStream<RowData> bids = StreamFusionKafkaSource.builder()
 *         .setRowType(rowType)                                  // the rows' physical type
 *         .setOption("topic", "bids")
 *         .setOption("properties.bootstrap.servers", "127.0.0.1:19092")
 *         .setOption("scan.startup.mode", "earliest-offset")
 *         .setOption("format", "json")
 *         .setWatermarkStrategy(strategy)                       // optional: per-partition watermarks
 *         .build()                                              // ValidationException on a bad option
 *         .addTo(env);
 * }</pre>
 *
 * <p>The connector is {@code streamfusion-kafka} unless the options say {@code 'connector' =
 * 'streamfusion-upsert-kafka'}, which needs {@link Builder#setPrimaryKey} and gives a changelog stream (INSERT,
 * UPDATE_AFTER, DELETE). Metadata columns are table-only (declare the table in SQL for them).
 */
@PublicEvolving
public final class StreamFusionKafkaSource {
    private final ScanTableSource source;
    private final String uidPrefix;

    private StreamFusionKafkaSource(ScanTableSource source, String uidPrefix) {
        this.source = source;
        this.uidPrefix = uidPrefix;
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Adds the source to {@code env}: Flink's Kafka source (named {@code KafkaSource-<table>} as the table's),
     * at the environment's parallelism or {@code scan.parallelism}; with a uid prefix, the source gets the uid
     * {@code prefix-kafka}.
     *
     * @param env the job's environment
     * @return the rows
     */
    public DataStream<RowData> addTo(StreamExecutionEnvironment env) {
        DataStreamScanProvider provider =
                (DataStreamScanProvider) source.getScanRuntimeProvider(ScanRuntimeProviderContext.INSTANCE);
        DataStream<RowData> rows = provider.produceDataStream(
                name -> uidPrefix == null ? Optional.empty() : Optional.of(uidPrefix + "-" + name),
                Objects.requireNonNull(env, "env"));
        provider.getParallelism().ifPresent(p -> rows.getTransformation().setParallelism(p));
        return rows;
    }

    /** Collects the row type, the options, the primary key and the watermark strategy. Not thread safe. */
    @PublicEvolving
    public static final class Builder {
        private RowType rowType;
        private final Map<String, String> options = new LinkedHashMap<>();
        private List<String> primaryKey = List.of();
        private WatermarkStrategy<RowData> watermarks;
        private String uidPrefix;

        private Builder() {}

        /**
         * @param rowType the physical row type of the rows (field names are the JSON names)
         * @return this
         */
        public Builder setRowType(RowType rowType) {
            this.rowType = Objects.requireNonNull(rowType, "rowType");
            return this;
        }

        /**
         * @param options table options as in a {@code WITH} clause ({@code topic} or {@code topic-pattern},
         *     {@code properties.*}, {@code scan.*}, {@code format}, ...); added to those set before
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
         * @param fields the primary key's fields (required by {@code streamfusion-upsert-kafka}: the record key)
         * @return this
         */
        public Builder setPrimaryKey(String... fields) {
            this.primaryKey = List.of(fields);
            return this;
        }

        /**
         * @param strategy the watermarks the source generates per Kafka partition (as {@code WATERMARK FOR} does for
         *     a table), or null for none
         * @return this
         */
        public Builder setWatermarkStrategy(WatermarkStrategy<RowData> strategy) {
            this.watermarks = strategy;
            return this;
        }

        /**
         * @param prefix a prefix for the source's uid, or null for Flink's generated one
         * @return this
         */
        public Builder setUidPrefix(String prefix) {
            this.uidPrefix = prefix;
            return this;
        }

        /**
         * Validates the options as the table factory does for a table of this row type.
         *
         * @return the source
         * @throws NullPointerException without a row type
         * @throws ValidationException for any option the table source rejects (Flink's message, wrapped by Flink's
         *     {@code FactoryUtil} in a {@code ValidationException} naming the table {@code streamfusion_kafka_source})
         */
        public StreamFusionKafkaSource build() {
            DynamicTableSource planned = FactoryUtil.createDynamicTableSource(
                    null,
                    BuilderTables.identifier("streamfusion_kafka_source"),
                    BuilderTables.table("StreamFusionKafkaSource reads", rowType, options, primaryKey),
                    Map.of(),
                    new Configuration(),
                    StreamFusionKafkaSource.class.getClassLoader(),
                    true);
            NativeKafkaTableSource source = (NativeKafkaTableSource) planned;
            if (watermarks != null) {
                source.applyWatermark(watermarks);
            }
            return new StreamFusionKafkaSource(source, uidPrefix);
        }
    }
}
