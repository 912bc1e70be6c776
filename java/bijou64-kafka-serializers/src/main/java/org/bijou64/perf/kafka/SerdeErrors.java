package org.bijou64.perf.kafka;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.bijou64.Bijou64Exception;

/** Bridges the codec's errors to Kafka's {@link SerializationException}, and ByteBuffer access. */
final class SerdeErrors {
    /** Bytes shown in an error's hex preview; longer records end with "...". */
    static final int PREVIEW_BYTES = 16;

    private SerdeErrors() {}

    /**
     * @return {@code Error deserializing <what> from topic '<topic>': <n> bytes [<hex>]: <reason>}
     */
    static SerializationException deserializing(
            String what, String topic, byte[] src, int offset, int length, Bijou64Exception cause) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(length, PREVIEW_BYTES); i++) {
            hex.append(i == 0 ? "" : " ").append(String.format("%02x", src[offset + i] & 0xFF));
        }
        if (length > PREVIEW_BYTES) {
            hex.append(" ...");
        }
        return new SerializationException(
                "Error deserializing " + what + " from topic '" + topic + "': " + length
                        + (length == 1 ? " byte [" : " bytes [") + hex + "]: " + cause.getMessage(),
                cause);
    }

    /**
     * The buffer's remaining bytes as a heap array, without moving its position: the backing array
     * itself when accessible (heap, writable), else a copy (direct or read-only buffers).
     *
     * @return {array, offset, length} as an {@link Slice}
     */
    static Slice remaining(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            return new Slice(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return new Slice(copy, 0, copy.length);
    }

    /** A range of an array. */
    record Slice(byte[] array, int offset, int length) {}
}
