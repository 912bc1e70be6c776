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
    /** The mapping fixed in code ({@link Bijou64Serdes}), or null: then {@code bijou64.mapping} decides. */
    private final Mapping pinned;

    private volatile LongCodec codec;

    /** Kafka instantiates serializers reflectively through this constructor. */
    public Bijou64Serializer() {
        this(null);
    }

    /** @param pinned the mapping to use whatever the configs say (they may only repeat it), or null */
    Bijou64Serializer(Mapping pinned) {
        this.pinned = pinned;
        this.codec = Bijou64.codec(pinned == null ? Mapping.UNSIGNED : pinned, Bijou64SerdeConfig.PER_RECORD_DEFAULT);
    }

    /**
     * @throws org.apache.kafka.common.config.ConfigException for a bad {@code bijou64.*} value, or a
     *     {@code bijou64.mapping} other than the one this instance was made with
     */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        codec = Bijou64SerdeConfig.from(configs).longCodec(pinned);
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
