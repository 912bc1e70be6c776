package org.streamfusion.flink.connector;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

/**
 * What both StreamFusion table factories share with the stock factory they replace: the same required and
 * forwarded options, and the stock optional options plus {@link StreamFusionOptions}', so a DDL that works with
 * {@code kafka} / {@code upsert-kafka} is accepted unchanged (Flink's {@code FactoryUtil} validates option keys
 * against these sets); and the read side, which is the stock connector's.
 *
 * <p>A table read through a StreamFusion connector gets the stock factory's source, with every option and
 * format the stock connector accepts, whose JSON values are decoded natively where that gives the stock rows
 * ({@link NativeKafkaTableSource}); every other record is decoded by Flink's own deserializer.
 *
 * @param <F> the stock factory's type, a source and a sink factory
 */
@Internal
abstract class StockOptionsFactory<F extends DynamicTableSinkFactory & DynamicTableSourceFactory>
        implements DynamicTableSinkFactory, DynamicTableSourceFactory {
    private final F stock;
    private final String identifier;
    private final boolean upsert;

    /**
     * @param stock the stock factory whose options are accepted ({@code KafkaDynamicTableFactory} or
     *     {@code UpsertKafkaDynamicTableFactory})
     * @param identifier this factory's connector name in DDL
     * @param upsert whether it is the upsert connector
     */
    StockOptionsFactory(F stock, String identifier, boolean upsert) {
        this.stock = stock;
        this.identifier = identifier;
        this.upsert = upsert;
    }

    /** @return the stock factory, which validates every Flink option */
    final F stock() {
        return stock;
    }

    /**
     * Plans the read side: the stock factory's source for the same options (the {@code streamfusion.} options
     * are the sink's, accepted so that one DDL serves both sides, and left out).
     *
     * @param context the table being read
     * @return Flink's own Kafka table source, with its values decoded natively where that gives the stock rows
     *     ({@link NativeKafkaTableSource})
     * @throws org.apache.flink.table.api.ValidationException for any option the stock connector rejects (its own
     *     message), and for an unknown {@code streamfusion.} option
     */
    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        SinkPlanning planning = new SinkPlanning(identifier, stock.factoryIdentifier(), context);
        planning.rejectUnknownOwnOptions();
        DynamicTableSource source = stock.createDynamicTableSource(planning.stockContext());
        return SourcePlanning.source(source, context, upsert);
    }

    /** @return the connector name in DDL */
    @Override
    public final String factoryIdentifier() {
        return identifier;
    }

    /** @return the stock factory's required options ({@code properties.bootstrap.servers}, ...) */
    @Override
    public final Set<ConfigOption<?>> requiredOptions() {
        return stock.requiredOptions();
    }

    /** @return the stock factory's optional options plus {@link StreamFusionOptions}' */
    @Override
    public final Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(stock.optionalOptions());
        options.addAll(SinkPlanning.OWN_OPTIONS);
        return options;
    }

    /** @return the stock factory's forwarded options */
    @Override
    public final Set<ConfigOption<?>> forwardOptions() {
        return stock.forwardOptions();
    }
}
