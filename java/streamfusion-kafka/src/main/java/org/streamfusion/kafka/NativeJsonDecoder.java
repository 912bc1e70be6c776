package org.streamfusion.kafka;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decodes chunks of Kafka JSON messages into Apache Flink's binary rows ({@code BinaryRowData}) with the
 * native StreamFusion decoder, one JNI crossing per chunk, with the semantics of Flink's {@code json} format
 * deserializer ({@code JsonParserRowDataDeserializationSchema}): the rules are in {@code docs/json-format.md}
 * ("Decoding"), the binary layout in the Rust crate's {@code decode::binary} module.
 *
 * <p><b>Row type.</b> Given as the Arrow schema the Flink row type maps to (one field per column, every field
 * nullable; the Flink connector builds it from a {@code RowType}). It crosses once, through the Arrow C Data
 * Interface, at construction.
 *
 * <p><b>Options</b> are Flink's json format options, with or without the {@code json.} prefix:
 * {@code fail-on-missing-field}, {@code ignore-parse-errors}, {@code timestamp-format.standard}.
 *
 * <p><b>Stops.</b> A chunk is decoded up to the first message the native decoder leaves to Flink: one Flink
 * fails on ({@link StreamFusionException.Kind#DECODE}), one whose result it does not reproduce
 * ({@link StreamFusionException.Kind#NOT_EXACT}), or one whose rows would take the chunk past 2^31 - 1 bytes
 * ({@link StreamFusionException.Kind#SLAB_TOO_LARGE}). The result then holds the rows of the messages before it
 * and says what stopped it ({@link DecodedRows#stopKind()}): the caller decodes that message with Flink and
 * goes on natively from the next.
 *
 * <p><b>Memory.</b> The chunk's slab and offsets are copied in; the rows come back as fresh JVM arrays
 * ({@link DecodedRows}) that nothing native refers to. The native decoder keeps its row type and one reusable
 * buffer of rows (as large as the largest chunk's rows) until {@link #close()}.
 *
 * <p><b>Threads.</b> One decoder per split reader is the intended use; concurrent calls are serialised.
 * {@link #close()} waits for a decode in flight; any later {@code decode} throws
 * {@link IllegalStateException}.
 *
 * <p><b>Loading.</b> As {@link NativeJsonEncoder}: the constructor throws {@link UnsupportedOperationException}
 * when the native library is not loaded.
 */
public final class NativeJsonDecoder implements AutoCloseable {
    /** The memory of the exported schema struct and the exporter's bookkeeping. */
    private static final BufferAllocator EXPORTS = new RootAllocator();

    private final Schema schema;
    private final Map<String, String> options;
    private final long handle;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;

    /**
     * A decoder of rows of {@code schema} with {@code options}, both checked here.
     *
     * @param schema the Arrow form of the Flink row type
     * @param options Flink's json decoding options; empty for Flink's defaults
     * @throws NullPointerException if an argument, option name or value is null
     * @throws IllegalArgumentException for an unknown option, a bad value, or {@code fail-on-missing-field}
     *     and {@code ignore-parse-errors} both true (refused by Flink too)
     * @throws StreamFusionException of kind {@link StreamFusionException.Kind#UNSUPPORTED_TYPE} for a column
     *     type the decoder does not read (the message names the field)
     * @throws UnsupportedOperationException if the native library is not available (the cause says why)
     */
    public NativeJsonDecoder(Schema schema, Map<String, String> options) {
        this.schema = Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(options, "options");
        Map<String, String> copy = new LinkedHashMap<>();
        options.forEach((key, value) -> copy.put(
                Objects.requireNonNull(key, "option name"),
                Objects.requireNonNull(value, () -> "option " + key + " is null")));
        NativeJsonEncoder.requireNative();
        this.options = Collections.unmodifiableMap(copy);
        try (ArrowSchema struct = ArrowSchema.allocateNew(EXPORTS)) {
            Data.exportSchema(EXPORTS, schema, null, struct);
            try {
                this.handle = open(
                        copy.keySet().toArray(new String[0]),
                        copy.values().toArray(new String[0]),
                        struct.memoryAddress());
            } finally {
                struct.release(); // a no-op once the native side took it
            }
        }
    }

    /** @return the row type's Arrow schema */
    public Schema schema() {
        return schema;
    }

    /** @return the options this decoder was created with (unmodifiable) */
    public Map<String, String> options() {
        return options;
    }

    /**
     * Decodes messages {@code first .. first + count - 1} of a chunk, up to the first one left to Flink
     * (class comment, "Stops").
     *
     * @param slab the messages' bytes
     * @param offsets where each message starts in {@code slab}
     * @param lengths each message's length; negative for a null message (a tombstone), which gives no row
     * @param first the first message to decode
     * @param count how many to decode
     * @return the rows of the messages decoded, and what stopped the chunk, if anything
     * @throws NullPointerException if an array is null
     * @throws IndexOutOfBoundsException if {@code first} or {@code count} is negative, the messages go past
     *     either array, or a message lies outside the slab
     * @throws IllegalStateException if this decoder is closed
     */
    public DecodedRows decode(byte[] slab, int[] offsets, int[] lengths, int first, int count) {
        Objects.requireNonNull(slab, "slab");
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(lengths, "lengths");
        ReentrantReadWriteLock.ReadLock lock = lifecycle.readLock();
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("this NativeJsonDecoder is closed");
            }
            return new DecodedRows(decode(handle, slab, offsets, lengths, first, count));
        } finally {
            lock.unlock();
        }
    }

    /** Frees the native decoder. Waits for a decode in flight. Idempotent. */
    @Override
    public void close() {
        ReentrantReadWriteLock.WriteLock lock = lifecycle.writeLock();
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                close(handle);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "NativeJsonDecoder[" + (closed ? "closed" : "open") + ", options=" + options + "]";
    }

    // JNI entry points: rust/kafka-serde-native/src/decoder.rs. docs/jni.md lists ownership and exceptions.

    private static native long open(String[] optionKeys, String[] optionValues, long arrowSchemaAddress);

    private static native Object[] decode(long handle, byte[] slab, int[] offsets, int[] lengths, int first, int count);

    private static native void close(long handle);
}
