package org.bijou64.perf.kafka;

import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.Bijou32;
import org.bijou64.Implementation;
import org.bijou64.IntCodec;
import org.bijou64.Mapping;

/**
 * Kafka {@link Serializer} for {@code Integer} keys or values in bijou32 (not bijou64: the two formats differ
 * on the wire from 248 up): 1 byte for 0..251, 2 up to 507, 5 at most, instead of
 * {@link org.apache.kafka.common.serialization.IntegerSerializer}'s 4. Drop-in:
 * {@code value.serializer=org.bijou64.perf.kafka.Bijou32Serializer}. Configured by
 * {@link Bijou64SerdeConfig} ({@code bijou64.mapping}, {@code bijou64.implementation},
 * {@code bijou64.useJava}); unconfigured it uses the
 * unsigned mapping. null serializes to null, so tombstones stay tombstones. Thread-safe once configured and
 * handed to other threads safely, as Kafka's clients do (configure, then share).
 */
public class Bijou32Serializer implements Serializer<Integer> {
    /** The mapping fixed in code ({@link Bijou64Serdes}), or null: then {@code bijou64.mapping} decides. */
    private final Mapping pinned;

    /**
     * The configured codec, for the accessors and the native path. Plain fields, not volatile: Kafka's clients call
     * {@code configure} before the serializer is shared (the producer holds it in a final field), so the hot path
     * reads them without a fence.
     */
    private IntCodec codec;

    /** The mapping of the pure-Java path, or null when {@link #codec} is native and does the work. */
    private Mapping javaMapping;

    /** Kafka instantiates serializers reflectively through this constructor. */
    public Bijou32Serializer() {
        this(null);
    }

    /** @param pinned the mapping to use whatever the configs say (they may only repeat it), or null */
    Bijou32Serializer(Mapping pinned) {
        this.pinned = pinned;
        use(Bijou32.codec(pinned == null ? Mapping.UNSIGNED : pinned, Bijou64SerdeConfig.PER_RECORD_DEFAULT));
    }

    private void use(IntCodec configured) {
        codec = configured;
        javaMapping = configured.implementation() == Implementation.NATIVE ? null : configured.mapping();
    }

    /**
     * @throws org.apache.kafka.common.config.ConfigException for a bad {@code bijou64.*} value, or a
     *     {@code bijou64.mapping} other than the one this instance was made with
     */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        use(Bijou64SerdeConfig.from(configs).intCodec(pinned));
    }

    /**
     * @param topic the topic (unused: the encoding does not depend on it)
     * @param data the value, or null for a tombstone / null key
     * @return its bijou32 (or bijou32s) encoding, or null for null; pure Java ({@link Bijou32#encode(int,
     *     Mapping)}, no dispatch) unless {@code bijou64.implementation=native}
     */
    @Override
    public byte[] serialize(String topic, Integer data) {
        if (data == null) {
            return null;
        }
        Mapping mapping = javaMapping;
        return mapping != null ? Bijou32.encode(data, mapping) : codec.encode(data);
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
