package org.bijou64.kafka.connect;

import org.apache.kafka.connect.data.Schema;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.bijou64.perf.kafka.Bijou64Serializer;

/**
 * Kafka Connect {@link org.apache.kafka.connect.storage.Converter} and
 * {@link org.apache.kafka.connect.storage.HeaderConverter} for INT64 values in bijou64: drop-in where
 * {@code org.apache.kafka.connect.converters.LongConverter} is used
 * ({@code value.converter=org.bijou64.kafka.connect.Bijou64Converter}), 1 to 9 bytes instead of 8. Values read get
 * {@code Schema.OPTIONAL_INT64_SCHEMA}; a value to write must be a {@code Long} (any schema, or none) or null, which
 * stays null (a tombstone). Options: {@code bijou64.mapping} ({@code unsigned} or {@code zigzag}; producer and
 * consumer must agree), {@code bijou64.implementation}, {@code bijou64.useJava}, as for
 * {@link org.bijou64.perf.kafka.Bijou64Serializer}. Bytes that are not exactly one canonical value give a
 * {@link org.apache.kafka.connect.errors.DataException} naming the topic, the byte count, a hex preview and the
 * reason, which the connector's {@code errors.tolerance} then handles; never a wrong number.
 */
public class Bijou64Converter extends BijouNumberConverter<Long> {
    /** Connect instantiates converters reflectively through this constructor. */
    public Bijou64Converter() {
        super(
                Long.class,
                "bijou64 Long",
                Schema.OPTIONAL_INT64_SCHEMA,
                new Bijou64Serializer(),
                new Bijou64Deserializer());
    }
}
