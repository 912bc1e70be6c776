package org.bijou64.kafka.connect;

import org.apache.kafka.connect.data.Schema;
import org.bijou64.perf.kafka.Bijou32Deserializer;
import org.bijou64.perf.kafka.Bijou32Serializer;

/**
 * Kafka Connect {@link org.apache.kafka.connect.storage.Converter} and
 * {@link org.apache.kafka.connect.storage.HeaderConverter} for INT32 values in bijou32: drop-in where
 * {@code org.apache.kafka.connect.converters.IntegerConverter} is used, 1 to 5 bytes instead of 4. Values read get
 * {@code Schema.OPTIONAL_INT32_SCHEMA}; a value to write must be an {@code Integer} or null. Options and errors as
 * {@link Bijou64Converter}.
 */
public class Bijou32Converter extends BijouNumberConverter<Integer> {
    /** Connect instantiates converters reflectively through this constructor. */
    public Bijou32Converter() {
        super(
                Integer.class,
                "bijou32 Integer",
                Schema.OPTIONAL_INT32_SCHEMA,
                new Bijou32Serializer(),
                new Bijou32Deserializer());
    }
}
