package org.streamfusion.flink;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
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
 * reproduce: {@link NativeJsonDecoder}) is decoded by the Flink deserializer given here, so the rows and the
 * failures are Flink's in every case; {@link #flinkMessages()} counts them.
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
    private final int arity;
    private final NativeJsonDecoder decoder;
    private final DeserializationSchema<RowData> flink;
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
     * @param flink Flink's own deserializer for the same type and options, opened: it decodes the messages the
     *     native decoder leaves to it
     * @throws IllegalArgumentException if a type has no Arrow mapping (naming the field), or for option errors
     * @throws org.streamfusion.kafka.StreamFusionException of kind {@code UNSUPPORTED_TYPE} for a type the native
     *     decoder does not read
     * @throws UnsupportedOperationException if the native library is not available
     */
    public NativeRowDataDecoder(
            RowType rowType, Map<String, String> jsonOptions, DeserializationSchema<RowData> flink) {
        this.arity = rowType.getFieldCount();
        this.flink = Objects.requireNonNull(flink, "flink");
        this.decoder = new NativeJsonDecoder(FlinkArrowTypes.schema(rowType), jsonOptions);
    }

    /**
     * Decodes {@code count} messages, emitting their rows to {@code out} in order (class comment).
     *
     * @param messages the messages; a null element is a null message (a tombstone), which gives no row
     * @param count how many of {@code messages}, from the first, to decode
     * @param out where the rows go
     * @throws IOException Flink's failure for the first message Flink fails on
     *     ({@code "Failed to deserialize JSON '...'."}); the rows of the messages before it are emitted
     */
    public void decode(byte[][] messages, int count, Collector<RowData> out) throws IOException {
        fill(messages, count);
        int next = 0;
        while (next < count) {
            DecodedRows rows = decoder.decode(slab, offsets, lengths, next, count - next);
            emit(rows, out);
            nativeMessages += rows.messagesDecoded();
            next += rows.messagesDecoded();
            if (rows.stopKind() != null) {
                flinkMessages++;
                flink.deserialize(messages[next], out);
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

    private void emit(DecodedRows rows, Collector<RowData> out) {
        MemorySegment segment = MemorySegmentFactory.wrap(rows.rows());
        int[] rowOffsets = rows.rowOffsets();
        int[] nullRows = rows.nullRows();
        int nextNull = 0;
        for (int r = 0; r < rows.rowCount(); r++) {
            if (nextNull < nullRows.length && nullRows[nextNull] == r) {
                nextNull++;
                out.collect(null);
                continue;
            }
            BinaryRowData row = new BinaryRowData(arity);
            row.pointTo(segment, rowOffsets[r], rowOffsets[r + 1] - rowOffsets[r]);
            out.collect(row);
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
