package org.streamfusion.flink;

import java.io.IOException;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.streamfusion.kafka.DecodedRows;
import org.streamfusion.kafka.NativeJsonDecoder;

/**
 * Decodes chunks of Kafka JSON messages into Flink {@link RowData} natively, one JNI crossing per chunk, into
 * exactly the rows Flink's {@code json} format deserializer makes ({@code JsonParserRowDataDeserializationSchema},
 * the default since Flink 1.18): {@link BinaryRowData}s over one {@code byte[]} per chunk, with no Java object
 * per field. A message the native decoder leaves to Flink (one Flink fails on, or one whose result it does not
 * reproduce: {@link NativeJsonDecoder}) is handed back to be decoded by Flink's own deserializer, so the rows
 * and the failures are Flink's in every case; {@link #flinkMessages()} counts them.
 *
 * <p>Rows are emitted in message order: per message, its rows (none for a null, empty or skipped message, one
 * per element of an array root), and {@code null} where Flink collects a null row (under
 * {@code ignore-parse-errors}, a message that fails inside its object). The rows of a chunk share its array;
 * they are never written again, so a consumer may keep them.
 *
 * <p>MAP and MULTISET values hold their entries in the order their keys first appear in the message; Flink's
 * {@code GenericMapData} over a {@code HashMap} iterates in hash order. The maps are equal as maps, but their
 * binary forms may differ.
 *
 * <p>Not thread-safe: one decoder per split reader.
 */
@Internal
public final class NativeRowDataDecoder implements AutoCloseable {
    /** Receives the rows of a chunk's messages, in message order. */
    @FunctionalInterface
    public interface RowSink {
        /**
         * Message {@code message} (its index in the chunk) gave {@code row}: called once per row, so not at all
         * for a message that gives none.
         *
         * @param row the row, or null where Flink collects a null row
         */
        void row(int message, RowData row);
    }

    /** Receives each message the native decoder leaves to Flink, in message order among the rows. */
    @FunctionalInterface
    public interface LeftToFlink {
        /** Message {@code message} of the chunk is Flink's to decode (it may fail there: that is Flink's failure). */
        void message(int message) throws IOException;
    }

    private final int arity;
    private final NativeJsonDecoder decoder;
    private byte[] slab = new byte[0];
    private int[] offsets = new int[0];
    private int[] lengths = new int[0];
    private long nativeMessages;
    private long flinkMessages;

    /**
     * A decoder of rows of {@code rowType}.
     *
     * @param rowType the rows' type (the value format's produced type)
     * @param jsonOptions Flink's json decoding options ({@code fail-on-missing-field}, {@code ignore-parse-errors},
     *     {@code timestamp-format.standard}, with or without the {@code json.} prefix)
     * @throws IllegalArgumentException if a type has no Arrow mapping (naming the field), or for option errors
     * @throws org.streamfusion.kafka.StreamFusionException of kind {@code UNSUPPORTED_TYPE} for a type the native
     *     decoder does not read
     * @throws UnsupportedOperationException if the native library is not available
     */
    public NativeRowDataDecoder(RowType rowType, Map<String, String> jsonOptions) {
        this.arity = rowType.getFieldCount();
        this.decoder = new NativeJsonDecoder(FlinkArrowTypes.schema(rowType), jsonOptions);
    }

    /**
     * Decodes {@code count} messages, emitting their rows to {@code out} in order, and decoding the messages the
     * native decoder leaves to Flink with {@code flink} (class comment).
     *
     * @param messages the messages; a null element is a null message (a tombstone), which gives no row
     * @param count how many of {@code messages}, from the first, to decode
     * @param out where the rows go
     * @param flink Flink's own deserializer for the same type and options, opened
     * @throws IOException Flink's failure for the first message Flink fails on
     *     ({@code "Failed to deserialize JSON '...'."}); the rows of the messages before it are emitted
     */
    public void decode(byte[][] messages, int count, Collector<RowData> out, DeserializationSchema<RowData> flink)
            throws IOException {
        decode(
                messages,
                count,
                (message, row) -> out.collect(row),
                message -> flink.deserialize(messages[message], out));
    }

    /**
     * Decodes {@code count} messages in one native call (and one more after each message left to Flink), handing
     * each row to {@code rows} and each message the native decoder does not decode to {@code left}, in message
     * order.
     *
     * @param messages the messages; a null element is a null message (a tombstone), which gives no row
     * @param count how many of {@code messages}, from the first, to decode
     * @throws IOException what {@code left} throws
     */
    public void decode(byte[][] messages, int count, RowSink rows, LeftToFlink left) throws IOException {
        fill(messages, count);
        int next = 0;
        while (next < count) {
            DecodedRows decoded = decoder.decode(slab, offsets, lengths, next, count - next);
            emit(decoded, next, rows);
            nativeMessages += decoded.messagesDecoded();
            next += decoded.messagesDecoded();
            if (decoded.stopKind() != null) {
                flinkMessages++;
                left.message(next);
                next++;
            }
        }
    }

    /** Copies the messages into the slab, with their offsets and lengths (-1 for null). */
    private void fill(byte[][] messages, int count) {
        if (offsets.length < count) {
            offsets = new int[count];
            lengths = new int[count];
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += messages[i] == null ? 0 : messages[i].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a chunk of " + total + " bytes: at most 2^31 - 9");
        }
        if (slab.length < total) {
            slab = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(total, 2L * slab.length))];
        }
        int at = 0;
        for (int i = 0; i < count; i++) {
            byte[] message = messages[i];
            offsets[i] = at;
            if (message == null) {
                lengths[i] = -1;
            } else {
                System.arraycopy(message, 0, slab, at, message.length);
                lengths[i] = message.length;
                at += message.length;
            }
        }
    }

    /** Hands the rows of {@code decoded}, whose first message is message {@code first} of the chunk, to the sink. */
    private void emit(DecodedRows decoded, int first, RowSink rows) {
        MemorySegment segment = MemorySegmentFactory.wrap(decoded.rows());
        int[] rowOffsets = decoded.rowOffsets();
        int[] perMessage = decoded.rowsPerMessage();
        int[] nullRows = decoded.nullRows();
        int nextNull = 0;
        int r = 0;
        for (int m = 0; m < perMessage.length; m++) {
            for (int end = r + perMessage[m]; r < end; r++) {
                if (nextNull < nullRows.length && nullRows[nextNull] == r) {
                    nextNull++;
                    rows.row(first + m, null);
                    continue;
                }
                BinaryRowData row = new BinaryRowData(arity);
                row.pointTo(segment, rowOffsets[r], rowOffsets[r + 1] - rowOffsets[r]);
                rows.row(first + m, row);
            }
        }
    }

    /** @return messages decoded natively so far */
    public long nativeMessages() {
        return nativeMessages;
    }

    /** @return messages left to Flink's deserializer so far */
    public long flinkMessages() {
        return flinkMessages;
    }

    /** Frees the native decoder. */
    @Override
    public void close() {
        decoder.close();
    }

    @Override
    public String toString() {
        return "NativeRowDataDecoder[arity=" + arity + ", native=" + nativeMessages + ", flink=" + flinkMessages + ", "
                + decoder + "]";
    }
}
