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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table source of {@code streamfusion-kafka} and {@code streamfusion-upsert-kafka}: Flink's own Kafka table
 * source ({@code KafkaDynamicSource}, built by the stock factory with the stock validation), of which it forwards
 * every ability (metadata columns, watermark push-down, changelog mode, copies), and whose runtime it swaps for
 * a {@link NativeKafkaSource} over the very {@link KafkaSource} the stock source made: same name, uid, watermark
 * strategy, boundedness and parallelism, so a savepoint taken with either connector restores with the other.
 *
 * <p>Values are decoded natively when the value format is {@code json} with its default parser and the value
 * columns' types are ones the native decoder reads; the stock source's value format is then a
 * {@link NativeValueFormat}, so key fields, metadata columns and upsert tombstones are still joined to the value
 * rows by Flink's own record deserializer. Otherwise every record is decoded by the stock deserializers, in the
 * same source, and the log says why, once per table.
 */
@Internal
final class NativeKafkaTableSource implements ScanTableSource, SupportsReadingMetadata, SupportsWatermarkPushDown {
    private static final Logger LOG = LoggerFactory.getLogger(NativeKafkaTableSource.class);

    private final DynamicTableSource stock;
    private final String table;
    /** The value format in the stock source, or null: no native decoding. */
    private final NativeValueFormat valueFormat;

    private final boolean keyFormat;
    /** Why values are not decoded natively whatever the columns read, or null. */
    private final String notNative;

    private boolean readsMetadata;

    /**
     * @param stock the stock factory's source (a {@code KafkaDynamicSource})
     * @param table the table's name, for the log
     * @param valueFormat the value format put into the stock source, or null when values are not decoded natively
     * @param keyFormat whether the table has a key format (upsert-kafka tables always have one)
     * @param notNative why the table's values are not decoded natively (format, parser...), or null
     */
    NativeKafkaTableSource(
            DynamicTableSource stock,
            String table,
            NativeValueFormat valueFormat,
            boolean keyFormat,
            String notNative) {
        this.stock = stock;
        this.table = table;
        this.valueFormat = valueFormat;
        this.keyFormat = keyFormat;
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
        NativeValueDeserializer values = valueFormat == null ? null : valueFormat.takeCreated();
        if (values != null) {
            // Flink's record deserializer projects the value rows into its own when there is anything to add.
            values.projectedInto(keyFormat || readsMetadata);
        }
        if (!(provider instanceof DataStreamScanProvider)) {
            LOG.info(
                    "Table '{}' is read by Flink's own Kafka source: its runtime provider is a {}.",
                    table,
                    provider.getClass().getName());
            return provider;
        }
        DataStreamScanProvider stockProvider = (DataStreamScanProvider) provider;
        String why = notNative != null
                ? notNative
                : values == null ? "the stock source made no value decoder while planning" : values.notNative();
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
                    ours = new NativeKafkaSource(kafka, table, why == null ? values : null);
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
                new NativeKafkaTableSource(stock.copy(), table, valueFormat, keyFormat, notNative);
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
                && keyFormat == that.keyFormat
                && Objects.equals(notNative, that.notNative);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stock, readsMetadata, keyFormat, notNative);
    }
}
