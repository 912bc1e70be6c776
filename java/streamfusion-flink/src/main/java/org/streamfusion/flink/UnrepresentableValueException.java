package org.streamfusion.flink;

import org.apache.flink.annotation.Internal;

/**
 * A row value that Flink accepts but its Arrow column cannot hold exactly (a timestamp with more digits than
 * its column's precision, or outside Arrow's 64-bit nanoseconds; a decimal of another scale than its column).
 * Thrown by {@link RowDataArrowWriter#write}; {@link RowDataJsonEncoder} catches it and encodes the batch with
 * Flink's serializer instead, so the records are Flink's either way: it never reaches a caller of the encoder.
 */
@Internal
public class UnrepresentableValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message the field, the row and why the value does not fit its column
     */
    public UnrepresentableValueException(String message) {
        super(message);
    }
}
