package org.streamfusion.flink.connector;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.connectors.kafka.table.UpsertKafkaDynamicTableFactory;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

/**
 * The {@code streamfusion-upsert-kafka} table sink: a drop-in for Flink's {@code upsert-kafka} connector
 * ({@code UpsertKafkaDynamicTableFactory}) with {@code key.format} and {@code value.format} {@code json}. Flink's
 * own factory validates the options (PRIMARY KEY required; it becomes the key, in its column order). Changelog
 * mode {INSERT, UPDATE_AFTER, DELETE} as upsert-kafka's; DELETE (and UPDATE_BEFORE, should one arrive) becomes
 * a tombstone with the row's key, every other row is written as an INSERT, as
 * {@code DynamicKafkaRecordSerializationSchema} does in upsert mode. The partition is Kafka's producer's (the
 * key's hash), as upsert-kafka leaves it.
 *
 * <p><b>Not supported (yet)</b>, each a {@link org.apache.flink.table.api.ValidationException} naming it and
 * saying to use {@code 'connector' = 'upsert-kafka'}: {@code sink.buffer-flush.max-rows} /
 * {@code sink.buffer-flush.interval} enabled, and everything {@link StreamFusionKafkaTableFactory} lists as
 * unsupported (another format, {@code topic-pattern}, several topics, persisted metadata columns...).
 */
public final class StreamFusionUpsertKafkaTableFactory implements DynamicTableSinkFactory {
    /** The connector name in DDL: {@code 'connector' = 'streamfusion-upsert-kafka'}. */
    public static final String IDENTIFIER = "streamfusion-upsert-kafka";

    private static final UpsertKafkaDynamicTableFactory STOCK = new UpsertKafkaDynamicTableFactory();

    /**
     * Plans the sink.
     *
     * @param context the table being written
     * @return the sink
     * @throws org.apache.flink.table.api.ValidationException for any option Flink's {@code upsert-kafka} sink
     *     rejects (its own message, e.g. a missing PRIMARY KEY), and for what StreamFusion does not support
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        SinkPlanning planning = new SinkPlanning(IDENTIFIER, STOCK.factoryIdentifier(), context);
        planning.rejectCommonUnsupported();
        planning.rejectBufferFlush();
        // Flink's own validation of every Flink option, exactly as for 'upsert-kafka'.
        STOCK.createDynamicTableSink(planning.stockContext());

        // As UpsertKafkaDynamicTableFactory.createKeyValueProjections: the primary key is the key.fields.
        int[] keyProjection = SinkPlanning.keyProjection(
                context.getCatalogTable().getResolvedSchema().getPrimaryKey().orElseThrow().getColumns(),
                context.getPhysicalRowDataType());
        return new StreamFusionKafkaDynamicSink(planning.spec(keyProjection, false, true), IDENTIFIER);
    }

    /** @return {@value #IDENTIFIER} */
    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    /** @return the stock {@code upsert-kafka} factory's required options */
    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return STOCK.requiredOptions();
    }

    /** @return the stock {@code upsert-kafka} factory's optional options plus {@link StreamFusionOptions}' */
    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(STOCK.optionalOptions());
        options.addAll(SinkPlanning.OWN_OPTIONS);
        return options;
    }

    /** @return the stock {@code upsert-kafka} factory's forwarded options */
    @Override
    public Set<ConfigOption<?>> forwardOptions() {
        return STOCK.forwardOptions();
    }
}
