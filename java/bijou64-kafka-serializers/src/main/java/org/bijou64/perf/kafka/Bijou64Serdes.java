package org.bijou64.perf.kafka;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.bijou64.Mapping;

/**
 * Factory of the bijou serdes, in the spirit of Kafka's {@link org.apache.kafka.common.serialization.Serdes}:
 * {@code Bijou64Serdes.Long()} where an application writes {@code Serdes.Long()}, {@code Bijou64Serdes.Integer()}
 * for {@code Serdes.Integer()}.
 *
 * <pre>{@code
 * KTable<String, Long> counts = words.groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
 *         .count(Materialized.with(Serdes.String(), Bijou64Serdes.Long()));
 * counts.toStream().to("word-counts", Produced.with(Serdes.String(), Bijou64Serdes.Long()));
 * }</pre>
 *
 * <p>The no-argument serdes use {@code bijou64.mapping} when configured (unsigned by default); the ones taking a
 * {@link Mapping} always use it, and refuse at {@code configure} a {@code bijou64.mapping} that says otherwise.
 * Producer and consumer of a topic must use the same mapping.
 */
public final class Bijou64Serdes {
    private Bijou64Serdes() {}

    /** @return a {@code Serde<Long>} in bijou64 (unsigned mapping unless configured otherwise) */
    public static Serde<Long> Long() {
        return new Bijou64Serde();
    }

    /**
     * @param mapping {@link Mapping#UNSIGNED} (bijou64) or {@link Mapping#ZIGZAG} (bijou64s: small negatives stay
     *     short)
     * @return a {@code Serde<Long>} with that mapping
     */
    public static Serde<Long> Long(Mapping mapping) {
        return new Bijou64Serde(Objects.requireNonNull(mapping, "mapping"));
    }

    /** @return a {@code Serde<Integer>} in bijou32 (unsigned mapping unless configured otherwise) */
    public static Serde<Integer> Integer() {
        return new Bijou32Serde();
    }

    /**
     * @param mapping {@link Mapping#UNSIGNED} (bijou32) or {@link Mapping#ZIGZAG} (bijou32s)
     * @return a {@code Serde<Integer>} with that mapping
     */
    public static Serde<Integer> Integer(Mapping mapping) {
        return new Bijou32Serde(Objects.requireNonNull(mapping, "mapping"));
    }
}
