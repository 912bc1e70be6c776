package org.streamfusion.flink.connector;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table source of {@code streamfusion-kafka} and {@code streamfusion-upsert-kafka}: Flink's own Kafka table
 * source ({@code KafkaDynamicSource}, built by the stock factory with the stock validation), of which it forwards
 * every ability (metadata columns, watermark push-down, changelog mode, copies), and whose runtime it swaps for
 * a {@link NativeKafkaSource} over the very {@link KafkaSource} the stock source made: same name, uid, watermark
 * strategy, boundedness and parallelism, so a savepoint taken with either connector restores with the other.
 *
 * <p>Values are decoded natively when Flink's deserializer would hand the value format's rows straight through
 * ({@code DynamicKafkaDeserializationSchema}'s shortcut: no key format, no metadata column) and the value format
 * is {@code json} with its default parser; otherwise every record is decoded by the stock deserializer, in the
 * same source, and the log says why, once per table.
 */
@Internal
final class NativeKafkaTableSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    private static final Logger LOG = LoggerFactory.getLogger(NativeKafkaTableSource.class);

    private final DynamicTableSource stock;
    private final String table;
    private final RowType valueType;
    private final Map<String, String> jsonOptions;
    /** Why values are not decoded natively whatever the columns read, or null. */
    private final String notNative;

    private boolean readsMetadata;

    /**
     * @param stock the stock factory's source (a {@code KafkaDynamicSource})
     * @param table the table's name, for the log
     * @param valueType the value format's row type (the physical row when native decoding applies)
     * @param jsonOptions the value format's json decoding options, Flink's names without prefix
     * @param notNative why the table's values are not decoded natively (key format, format...), or null
     */
    NativeKafkaTableSource(
            DynamicTableSource stock,
            String table,
            RowType valueType,
            Map<String, String> jsonOptions,
            String notNative) {
        this.stock = stock;
        this.table = table;
        this.valueType = valueType;
        this.jsonOptions = jsonOptions;
        this.notNative = notNative;
    }

    private ScanTableSource scan() {
        return (ScanTableSource) stock;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return scan().getChangelogMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        ScanRuntimeProvider provider = scan().getScanRuntimeProvider(context);
        if (!(provider instanceof DataStreamScanProvider)) {
            LOG.info(
                    "Table '{}' is read by Flink's own Kafka source: its runtime provider is a {}.",
                    table,
                    provider.getClass().getName());
            return provider;
        }
        DataStreamScanProvider stockProvider = (DataStreamScanProvider) provider;
        String why = notNative != null ? notNative : readsMetadata ? "it reads metadata columns" : null;
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment execEnv) {
                DataStream<RowData> stockStream = stockProvider.produceDataStream(providerContext, execEnv);
                Transformation<RowData> transformation = stockStream.getTransformation();
                if (!(transformation instanceof SourceTransformation)
                        || !(((SourceTransformation<?, ?, ?>) transformation).getSource() instanceof KafkaSource)) {
                    LOG.info(
                            "Table '{}' is read by Flink's own Kafka source: its stream is a {}.",
                            table,
                            transformation.getClass().getName());
                    return stockStream;
                }
                @SuppressWarnings("unchecked")
                SourceTransformation<RowData, ?, ?> source = (SourceTransformation<RowData, ?, ?>) transformation;
                @SuppressWarnings("unchecked")
                KafkaSource<RowData> kafka = (KafkaSource<RowData>) source.getSource();
                NativeKafkaSource ours;
                try {
                    ours = new NativeKafkaSource(kafka, table, why == null ? valueType : null, jsonOptions);
                } catch (IllegalStateException e) {
                    LOG.warn(
                            "Table '{}' is read by Flink's own Kafka source and deserializer: {}",
                            table,
                            e.getMessage());
                    return stockStream;
                }
                if (why != null) {
                    LOG.info(
                            "Table '{}': the values are decoded by Flink's json deserializer, not natively, because "
                                    + "{}.",
                            table,
                            why);
                }
                @SuppressWarnings("unchecked")
                WatermarkStrategy<RowData> watermarks = (WatermarkStrategy<RowData>) source.getWatermarkStrategy();
                DataStreamSource<RowData> stream = execEnv.fromSource(ours, watermarks, source.getName());
                if (source.getUid() != null) {
                    stream.uid(source.getUid());
                }
                return stream;
            }

            @Override
            public boolean isBounded() {
                return stockProvider.isBounded();
            }

            @Override
            public Optional<Integer> getParallelism() {
                return stockProvider.getParallelism();
            }
        };
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return ((SupportsReadingMetadata) stock).listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        ((SupportsReadingMetadata) stock).applyReadableMetadata(metadataKeys, producedDataType);
        readsMetadata = !metadataKeys.isEmpty();
    }

    @Override
    public boolean supportsMetadataProjection() {
        return ((SupportsReadingMetadata) stock).supportsMetadataProjection();
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        ((SupportsWatermarkPushDown) stock).applyWatermark(watermarkStrategy);
    }

    @Override
    public DynamicTableSource copy() {
        NativeKafkaTableSource copy =
                new NativeKafkaTableSource(stock.copy(), table, valueType, jsonOptions, notNative);
        copy.readsMetadata = readsMetadata;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "StreamFusion Kafka table source";
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof NativeKafkaTableSource)) {
            return false;
        }
        NativeKafkaTableSource that = (NativeKafkaTableSource) o;
        return stock.equals(that.stock)
                && readsMetadata == that.readsMetadata
                && Objects.equals(jsonOptions, that.jsonOptions)
                && Objects.equals(notNative, that.notNative);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stock, readsMetadata, jsonOptions, notNative);
    }
}
