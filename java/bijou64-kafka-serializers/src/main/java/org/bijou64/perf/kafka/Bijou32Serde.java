package org.bijou64.perf.kafka;

import org.apache.kafka.common.serialization.Serdes;
import org.bijou64.Mapping;

/**
 * A Kafka {@link org.apache.kafka.common.serialization.Serde Serde&lt;Integer&gt;} over {@link Bijou32Serializer}
 * and {@link Bijou32Deserializer} (bijou32, not bijou64: the formats differ on the wire from 248 up): what Kafka
 * Streams takes where it takes {@code Serdes.Integer()}, e.g.
 * {@code default.value.serde=org.bijou64.perf.kafka.Bijou32Serde} (or {@link Bijou64Serdes#Integer()}). Configured
 * and failing as {@link Bijou64Serde}.
 */
public class Bijou32Serde extends Serdes.WrapperSerde<Integer> {
    /** The unconfigured serde (unsigned mapping until configured), for Streams' reflective instantiation. */
    public Bijou32Serde() {
        this(null);
    }

    /** @param pinned the mapping to use whatever the configs say, or null for {@code bijou64.mapping} */
    Bijou32Serde(Mapping pinned) {
        super(new Bijou32Serializer(pinned), new Bijou32Deserializer(pinned));
    }
}
