package org.bijou64.perf.kafka;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.bijou64.Bijou64;
import org.bijou64.Bijou64Exception;
import org.bijou64.Implementation;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;

/**
 * Kafka {@link Deserializer} for {@code Long} keys or values written by {@link Bijou64Serializer}.
 * Strict: a record must be exactly one canonical value, so bytes written by another serializer (Kafka's
 * {@code LongSerializer} writes 42 as {@code 00 00 00 00 00 00 00 2a}) fail with a
 * {@link SerializationException} naming the topic, the byte count, the reason and a hex preview instead
 * of reading as a wrong value. null (a tombstone) deserializes to null in every overload; an empty array is
 * an error. The {@link ByteBuffer} overload leaves the buffer's position unchanged.
 */
public class Bijou64Deserializer implements Deserializer<Long> {
    /** The mapping fixed in code ({@link Bijou64Serdes}), or null: then {@code bijou64.mapping} decides. */
    private final Mapping pinned;

    /**
     * The configured codec, for the accessors and the native path. Plain fields, not volatile: Kafka's clients call
     * {@code configure} before the deserializer is shared (the consumer holds it in a final field), so the hot path
     * reads them without a fence.
     */
    private LongCodec codec;

    /** The mapping of the pure-Java path, or null when {@link #codec} is native and does the work. */
    private Mapping javaMapping;

    /** Kafka instantiates deserializers reflectively through this constructor. */
    public Bijou64Deserializer() {
        this(null);
    }

    /** @param pinned the mapping to use whatever the configs say (they may only repeat it), or null */
    Bijou64Deserializer(Mapping pinned) {
        this.pinned = pinned;
        use(Bijou64.codec(pinned == null ? Mapping.UNSIGNED : pinned, Bijou64SerdeConfig.PER_RECORD_DEFAULT));
    }

    private void use(LongCodec configured) {
        codec = configured;
        javaMapping = configured.implementation() == Implementation.NATIVE ? null : configured.mapping();
    }

    /**
     * @throws org.apache.kafka.common.config.ConfigException for a bad {@code bijou64.*} value, or a
     *     {@code bijou64.mapping} other than the one this instance was made with
     */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        use(Bijou64SerdeConfig.from(configs).longCodec(pinned));
    }

    /**
     * @throws SerializationException when {@code data} is not exactly one bijou64 value
     */
    @Override
    public Long deserialize(String topic, byte[] data) {
        return data == null ? null : decode(topic, data, 0, data.length);
    }

    /**
     * @throws SerializationException when the remaining bytes are not exactly one bijou64 value
     */
    @Override
    public Long deserialize(String topic, Headers headers, ByteBuffer data) {
        if (data == null) {
            return null;
        }
        SerdeErrors.Slice slice = SerdeErrors.remaining(data);
        return decode(topic, slice.array(), slice.offset(), slice.length());
    }

    private long decode(String topic, byte[] src, int offset, int length) {
        Mapping mapping = javaMapping;
        try {
            return mapping != null ? Bijou64.decode(src, offset, length, mapping) : codec.decode(src, offset, length);
        } catch (Bijou64Exception e) {
            throw SerdeErrors.deserializing(
                    codec.mapping() == Mapping.ZIGZAG ? "bijou64s Long" : "bijou64 Long",
                    topic,
                    src,
                    offset,
                    length,
                    e);
        }
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
