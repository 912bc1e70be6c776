package org.bijou64.perf.kafka;

import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.Bijou64;
import org.bijou64.Implementation;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;

/**
 * Kafka {@link Serializer} for {@code Long} keys or values in bijou64: 1 to 9 bytes (about 3 for typical
 * counters and ids) instead of {@link org.apache.kafka.common.serialization.LongSerializer}'s 8. Drop-in:
 * {@code value.serializer=org.bijou64.perf.kafka.Bijou64Serializer}. Configured by
 * {@link Bijou64SerdeConfig} ({@code bijou64.mapping}, {@code bijou64.implementation},
 * {@code bijou64.useJava}); unconfigured it uses the
 * unsigned mapping. null serializes to null, so tombstones stay tombstones. Thread-safe once configured.
 */
public class Bijou64Serializer implements Serializer<Long> {
    private volatile LongCodec codec = Bijou64.codec(Mapping.UNSIGNED, Bijou64SerdeConfig.PER_RECORD_DEFAULT);

    /** Kafka instantiates serializers reflectively through this constructor. */
    public Bijou64Serializer() {
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        codec = Bijou64SerdeConfig.from(configs).longCodec();
    }

    /**
     * @param topic the topic (unused: the encoding does not depend on it)
     * @param data the value, or null for a tombstone / null key
     * @return its bijou64 (or bijou64s) encoding, or null for null
     */
    @Override
    public byte[] serialize(String topic, Long data) {
        return data == null ? null : codec.encode(data);
    }

    /** @return the implementation this instance uses */
    public Implementation implementation() {
        return codec.implementation();
    }

    /** @return the mapping this instance uses */
    public Mapping mapping() {
        return codec.mapping();
    }
}
