package org.streamfusion.flink.connector;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;
import org.apache.flink.table.connector.sink.DynamicTableSink;

/**
 * The {@code streamfusion-upsert-kafka} table connector: a drop-in for Flink's {@code upsert-kafka} connector
 * ({@code UpsertKafkaDynamicTableFactory}) with {@code key.format} and {@code value.format} {@code json}. Flink's
 * own factory validates the options (PRIMARY KEY required; it becomes the key, in its column order). Changelog
 * mode {INSERT, UPDATE_AFTER, DELETE} as upsert-kafka's; DELETE (and UPDATE_BEFORE, should one arrive) becomes
 * a tombstone with the row's key, every other row is written as an INSERT, as
 * {@code DynamicKafkaRecordSerializationSchema} does in upsert mode. The partition is Kafka's producer's (the
 * key's hash), as upsert-kafka leaves it.
 *
 * <p>{@code sink.buffer-flush.max-rows} / {@code sink.buffer-flush.interval} (both greater than zero) reduce
 * rows by key before encoding as upsert-kafka's {@code ReducingUpsertWriter} does: the last row per key wins,
 * emitted on size, on a processing-time timer, before a checkpoint barrier and at end of input (see
 * {@link BatchingEncoderOperator}); only the final value per key matches the stock sink's order-wise.
 *
 * <p><b>Written by Flink's own {@code upsert-kafka} sink</b>, with the stock records, a log line and the
 * {@code numFlinkRows} metric: every table {@link StreamFusionKafkaTableFactory} lists as not native (another
 * format, {@code topic-pattern}...). The {@code topic} (with a list of topics),
 * {@code timestamp} and {@code headers} metadata columns are written as upsert-kafka writes them (tombstones
 * included). A table read through {@code streamfusion-upsert-kafka} is read by the stock {@code upsert-kafka} source
 * (its changelog, tombstones as DELETEs), with every option it accepts ({@link StockOptionsFactory}).
 *
 * <p>Found by Flink's {@code FactoryUtil} through {@code META-INF/services}, not called by users (as Flink's
 * {@code UpsertKafkaDynamicTableFactory}, internal); the connector name {@link #IDENTIFIER} is the API.
 */
@Internal
public final class StreamFusionUpsertKafkaTableFactory extends StockOptionsFactory<UpsertKafkaDynamicTableFactory> {
    /** The connector name in DDL: {@code 'connector' = 'streamfusion-upsert-kafka'}. */
    @PublicEvolving
    public static final String IDENTIFIER = "streamfusion-upsert-kafka";

    /** A factory for Flink's {@code FactoryUtil} (found through {@code META-INF/services}). */
    public StreamFusionUpsertKafkaTableFactory() {
        super(new UpsertKafkaDynamicTableFactory(), IDENTIFIER, true);
    }

    /**
     * Plans the sink.
     *
     * @param context the table being written
     * @return the sink
     * @throws org.apache.flink.table.api.ValidationException for any option Flink's {@code upsert-kafka} sink
     *     rejects (its own message, e.g. a missing PRIMARY KEY), and for an unknown or bad {@code streamfusion.}
     *     option
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        SinkPlanning planning = new SinkPlanning(IDENTIFIER, stock().factoryIdentifier(), context);
        planning.rejectUnknownOwnOptions();
        planning.checkOwnOptions();
        // Flink's own validation of every Flink option, exactly as for 'upsert-kafka'.
        DynamicTableSink stock = stock().createDynamicTableSink(planning.stockContext());

        // As UpsertKafkaDynamicTableFactory.createKeyValueProjections: the primary key is the key.fields.
        int[] keyProjection = SinkPlanning.keyProjection(
                context.getCatalogTable()
                        .getResolvedSchema()
                        .getPrimaryKey()
                        .orElseThrow()
                        .getColumns(),
                context.getPhysicalRowDataType());
        Optional<String> notNative = planning.notNative(keyProjection, true);
        if (notNative.isPresent()) {
            return planning.flinkWritten(stock, notNative.get());
        }
        return new StreamFusionKafkaDynamicSink(
                planning.spec(keyProjection, false, true),
                IDENTIFIER,
                context.getObjectIdentifier().getObjectName());
    }
}
