package org.streamfusion.flink.connector;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;

/**
 * What the connector does differently on each Flink line it is built for, here for Flink 2.x with
 * flink-connector-kafka 4.x/5.x (one such class per line; the Maven module of a line compiles its own beside the
 * shared sources). The rest of the connector compiles unchanged on every line.
 */
final class FlinkLine {
    /** The Flink line these classes are built for: the suffix of the artifacts' versions ({@code 0.2.0-2.2}). */
    static final String LINE = "2.2";

    /** The value {@link #transactionNamingStrategy} gives when the option is not set. */
    static final String DEFAULT_TRANSACTION_NAMING_STRATEGY = TransactionNamingStrategy.DEFAULT.name();

    private FlinkLine() {}

    /**
     * @param options the table's options
     * @return {@code sink.transaction-naming-strategy} ({@code KafkaConnectorOptions.TRANSACTION_NAMING_STRATEGY},
     *     flink-connector-kafka 4.0+) as the constant's name: {@code INCREMENTING} (the default) or
     *     {@code POOLING}
     */
    static String transactionNamingStrategy(ReadableConfig options) {
        return options.get(KafkaConnectorOptions.TRANSACTION_NAMING_STRATEGY).name();
    }

    /**
     * Sets the strategy on {@code builder} as {@code KafkaDynamicSink} does.
     *
     * @param strategy from {@link #transactionNamingStrategy}
     * @throws IllegalArgumentException for a name that is no {@code TransactionNamingStrategy}
     */
    static <T> KafkaSinkBuilder<T> setTransactionNamingStrategy(KafkaSinkBuilder<T> builder, String strategy) {
        return builder.setTransactionNamingStrategy(TransactionNamingStrategy.valueOf(strategy));
    }
}
