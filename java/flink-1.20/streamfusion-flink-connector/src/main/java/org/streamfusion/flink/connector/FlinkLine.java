package org.streamfusion.flink.connector;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

/**
 * What the connector does differently on each Flink line it is built for, here for Flink 1.20 with
 * flink-connector-kafka 3.4.0-1.20 (one such class per line; the Maven module of a line compiles its own beside
 * the shared sources of {@code java/streamfusion-flink-connector}). The rest of the connector compiles unchanged
 * on every line.
 */
final class FlinkLine {
    /** The Flink line these classes are built for: the suffix of the artifacts' versions ({@code 0.2.0-1.20}). */
    static final String LINE = "1.20";

    /**
     * The transactional-id naming of flink-connector-kafka 3.x's {@code KafkaSink}, which has no
     * {@code sink.transaction-naming-strategy}: the one 4.x calls {@code INCREMENTING}, its default.
     */
    static final String DEFAULT_TRANSACTION_NAMING_STRATEGY = "INCREMENTING";

    private FlinkLine() {}

    /**
     * @param options the table's options (flink-connector-kafka 3.x's factory rejects
     *     {@code sink.transaction-naming-strategy}, so a table cannot choose another)
     * @return {@link #DEFAULT_TRANSACTION_NAMING_STRATEGY}
     */
    static String transactionNamingStrategy(ReadableConfig options) {
        return DEFAULT_TRANSACTION_NAMING_STRATEGY;
    }

    /**
     * @param strategy from {@link #transactionNamingStrategy}
     * @return {@code builder}, unchanged: its naming is {@code INCREMENTING}'s
     * @throws IllegalArgumentException for any other strategy
     */
    static <T> KafkaSinkBuilder<T> setTransactionNamingStrategy(KafkaSinkBuilder<T> builder, String strategy) {
        if (!DEFAULT_TRANSACTION_NAMING_STRATEGY.equals(strategy)) {
            throw new IllegalArgumentException("flink-connector-kafka 3.x names transactions one way only ("
                    + DEFAULT_TRANSACTION_NAMING_STRATEGY + "), not " + strategy);
        }
        return builder;
    }
}
