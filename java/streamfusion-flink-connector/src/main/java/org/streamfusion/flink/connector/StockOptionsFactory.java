package org.streamfusion.flink.connector;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

/**
 * What both StreamFusion table sinks share with the stock factory they replace: the same required and forwarded
 * options, and the stock optional options plus {@link StreamFusionOptions}', so a DDL that works with
 * {@code kafka} / {@code upsert-kafka} is accepted unchanged (Flink's {@code FactoryUtil} validates option keys
 * against these sets).
 */
@Internal
abstract class StockOptionsFactory implements DynamicTableSinkFactory {
    private final DynamicTableSinkFactory stock;
    private final String identifier;

    /**
     * @param stock the stock factory whose options are accepted ({@code KafkaDynamicTableFactory} or
     *     {@code UpsertKafkaDynamicTableFactory})
     * @param identifier this factory's connector name in DDL
     */
    StockOptionsFactory(DynamicTableSinkFactory stock, String identifier) {
        this.stock = stock;
        this.identifier = identifier;
    }

    /** @return the stock factory, which validates every Flink option */
    final DynamicTableSinkFactory stock() {
        return stock;
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
