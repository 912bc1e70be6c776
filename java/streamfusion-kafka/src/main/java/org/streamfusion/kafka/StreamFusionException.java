package org.streamfusion.kafka;

import java.util.Objects;

/**
 * The native JSON encoder rejected a batch: its schema differs from the one the encoder planned for, a
 * column has a type Flink's {@code json} format cannot write, a value Flink's types cannot hold, or the
 * exported Arrow data could not be imported. The message is the native error's text and names the field
 * (and row, for values); {@link #kind()} tells the cause apart without parsing it.
 *
 * <p>Option errors are not reported this way: they are {@link IllegalArgumentException}s thrown by the
 * {@link NativeJsonEncoder} constructor. A batch that fails leaves the encoder usable for the next batch.
 */
public class StreamFusionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why a batch was rejected (the variants of the Rust crate's {@code streamfusion_json::Error}). */
    public enum Kind {
        /** The key/value layout does not fit the schema ({@code key.fields} naming a missing column...). */
        INVALID_LAYOUT,
        /** A blank or repeated field name, which Flink's {@code RowType} rejects. */
        INVALID_FIELD_NAME,
        /** A column type with no Flink JSON encoding (Null, UInt64, unions, non-string map keys...). */
        UNSUPPORTED_TYPE,
        /** The batch's schema differs from the schema of the encoder's first batch. */
        SCHEMA_MISMATCH,
        /** A null map key with {@code map-null-key.mode=FAIL}. */
        NULL_MAP_KEY,
        /** A value Flink's types cannot hold (a TIME outside one day, an unknown row kind...). */
        INVALID_VALUE,
        /** A key or value slab would exceed 2^31 - 1 bytes: encode smaller batches. */
        SLAB_TOO_LARGE,
        /** An error raised by Arrow inside the encoder. */
        ARROW,
        /** The batch exported through the Arrow C Data Interface could not be imported natively. */
        ARROW_IMPORT,
        /** A message Flink's {@code json} deserializer fails on ({@link NativeJsonDecoder}). */
        DECODE,
        /** A message whose result the native decoder does not reproduce: Flink decodes it. */
        NOT_EXACT,
        /** A cause this version of the Java API does not know by name. */
        OTHER
    }

    private final Kind kind;

    /**
     * @param kind why the batch was rejected
     * @param message what exactly failed (field, row, types)
     */
    public StreamFusionException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** Called by the native library with the kind's name; an unknown name becomes {@link Kind#OTHER}. */
    StreamFusionException(String kind, String message) {
        this(parse(kind), message);
    }

    static Kind parse(String kind) {
        try {
            return Kind.valueOf(kind);
        } catch (IllegalArgumentException | NullPointerException e) {
            return Kind.OTHER;
        }
    }

    /** @return why the batch was rejected */
    public Kind kind() {
        return kind;
    }
}
