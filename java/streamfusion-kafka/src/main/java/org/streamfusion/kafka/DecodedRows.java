package org.streamfusion.kafka;

/**
 * The rows of one {@link NativeJsonDecoder#decode} call: Flink binary rows ({@code BinaryRowData}) back to
 * back in one array, with their offsets, how many rows each message gave, which rows stand for a null row,
 * and what stopped the chunk early, if anything. Plain JVM arrays, owned by the caller.
 */
public final class DecodedRows {
    private final byte[] rows;
    private final int[] rowOffsets;
    private final int[] rowsPerMessage;
    private final int[] nullRows;
    private final StreamFusionException.Kind stopKind;
    private final String stopReason;

    /** From the native decoder's six results (rust/kafka-serde-native/src/decoder.rs). */
    DecodedRows(Object[] six) {
        this.rows = (byte[]) six[0];
        this.rowOffsets = (int[]) six[1];
        this.rowsPerMessage = (int[]) six[2];
        this.nullRows = (int[]) six[3];
        this.stopKind = six[4] == null ? null : StreamFusionException.parse((String) six[4]);
        this.stopReason = (String) six[5];
    }

    /** @return the rows, back to back; row {@code i} spans {@code rowOffsets()[i] .. rowOffsets()[i + 1]} */
    public byte[] rows() {
        return rows;
    }

    /** @return {@code rowCount() + 1} offsets into {@link #rows()} */
    public int[] rowOffsets() {
        return rowOffsets;
    }

    /** @return the number of rows */
    public int rowCount() {
        return rowOffsets.length - 1;
    }

    /**
     * @return rows per message decoded, one entry per message from the first one asked for; fewer entries
     *     than messages asked for when a message stopped the chunk (it is the one after the last entry)
     */
    public int[] rowsPerMessage() {
        return rowsPerMessage;
    }

    /** @return the messages decoded (the length of {@link #rowsPerMessage()}) */
    public int messagesDecoded() {
        return rowsPerMessage.length;
    }

    /**
     * @return the rows (ascending) that stand for a null row: under {@code ignore-parse-errors}, Flink's
     *     deserializer collects null for a message that fails inside its object; written as rows whose fields
     *     are all null
     */
    public int[] nullRows() {
        return nullRows;
    }

    /**
     * @return why the message after the last one decoded was left to Flink ({@code DECODE}, {@code NOT_EXACT}
     *     or {@code SLAB_TOO_LARGE}), or null when every message asked for was decoded
     */
    public StreamFusionException.Kind stopKind() {
        return stopKind;
    }

    /** @return the native decoder's reason for the stop, or null */
    public String stopReason() {
        return stopReason;
    }
}
