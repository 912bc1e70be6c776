package org.bijou64.perf.kafka;

import org.apache.kafka.common.serialization.Serdes;
import org.bijou64.Mapping;

/**
 * A Kafka {@link org.apache.kafka.common.serialization.Serde Serde&lt;Long&gt;} over {@link Bijou64Serializer} and
 * {@link Bijou64Deserializer}: what Kafka Streams takes where it takes {@code Serdes.Long()}, e.g.
 * {@code default.value.serde=org.bijou64.perf.kafka.Bijou64Serde}, {@code Materialized.with(...)},
 * {@code Produced.with(...)}, {@code Grouped.with(...)} (or {@link Bijou64Serdes#Long()}). Configured by
 * {@link Bijou64SerdeConfig} through {@code configure(configs, isKey)}, as {@code Serdes.WrapperSerde} passes the
 * configs on to both halves. null stays null; bytes that are not exactly one canonical bijou64 value fail with a
 * {@link org.apache.kafka.common.errors.SerializationException} naming the topic, the byte count, the reason and
 * a hex preview, which Streams hands to the application's {@code deserialization.exception.handler}.
 */
public class Bijou64Serde extends Serdes.WrapperSerde<Long> {
    /** The unconfigured serde (unsigned mapping until configured), for Streams' reflective instantiation. */
    public Bijou64Serde() {
        this(null);
    }

    /** @param pinned the mapping to use whatever the configs say, or null for {@code bijou64.mapping} */
    Bijou64Serde(Mapping pinned) {
        super(new Bijou64Serializer(pinned), new Bijou64Deserializer(pinned));
    }
}
