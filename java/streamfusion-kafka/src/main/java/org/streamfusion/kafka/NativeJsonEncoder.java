package org.streamfusion.kafka;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.bijou64.NativeLibrary;

/**
 * Encodes Arrow Java batches ({@link VectorSchemaRoot}) into Kafka JSON records with the native StreamFusion
 * encoder, one JNI crossing per batch. Output is byte-identical to Apache Flink's {@code json} format
 * ({@code JsonRowDataSerializationSchema}) with the Kafka SQL connector's key/value layout, or to arrow-json's
 * writer in {@code mode=plain}.
 *
 * <p><b>Options</b> keep Flink's names (without the {@code json.}/{@code key.json.}/{@code value.json.}
 * prefixes): {@code timestamp-format.standard}, {@code map-null-key.mode}, {@code map-null-key.literal},
 * {@code encode.decimal-as-plain-number}, {@code encode.ignore-null-fields}, {@code key.fields},
 * {@code key.fields-prefix}, {@code value.fields-include}, plus {@code mode}, {@code flink.version},
 * {@code float.java-digits}, {@code changelog.row-kind-column} and {@code plain.explicit-nulls}
 * ({@code docs/json-format.md}); their names are the constants of {@link EncoderOptions}. They are parsed once, by
 * the constructor; an unknown name or a bad value throws there.
 *
 * <p><b>Plan.</b> The first batch's schema fixes the plan (field encoders, key/value projections); every
 * later batch must have the same schema, else {@link StreamFusionException} of kind
 * {@link StreamFusionException.Kind#SCHEMA_MISMATCH}. A failed batch leaves the encoder usable.
 *
 * <p><b>Memory.</b> {@link #encode} exports each column of the root through the Arrow C Data Interface
 * ({@code Data.exportVector}) into structs this encoder keeps for reuse, and the root's schema
 * ({@code Data.exportSchema}) only when it is not the {@link Schema} object that crossed last (roots keep
 * theirs across batches) or dictionaries are given. The native side takes the exported structs over and
 * releases them (dropping its references to the root's buffers) before {@code encode} returns or throws. The
 * root stays the caller's, unchanged, and may be refilled right after. The result is six fresh JVM arrays
 * ({@link EncodedBatch}). The native encoder keeps one reusable scratch of records, and the last schema that
 * crossed, until {@link #close()}.
 *
 * <p><b>Threads.</b> One encoder per task is the intended use. Concurrent {@code encode} calls on one
 * encoder are safe: they are serialised and each returns its own batch's records.
 * {@link #close()} waits for encodes in flight; any later {@code encode} throws
 * {@link IllegalStateException}. Counters may be read from any thread.
 *
 * <p><b>Loading.</b> The native library is the one bundled in {@code org.bijou64:kafka-serde-native} and
 * loaded by its loader ({@link NativeLibrary#isLoaded()}); {@code -Dbijou64.useJava=true} disables it, and
 * then the constructor throws {@link UnsupportedOperationException}.
 */
public final class NativeJsonEncoder implements AutoCloseable {
    /**
     * The memory of the exported structs and of the exporter's own bookkeeping (the column buffers are the
     * root's, retained by the export and released by the native side).
     */
    private static final BufferAllocator EXPORTS = new RootAllocator();

    private final Map<String, String> options;
    private final long handle;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private volatile boolean closed;
    /** Serialises encodes: the export structs below are reused by every batch. */
    private final ReentrantLock exporting = new ReentrantLock();
    /** The last schema whose field names were checked (roots reuse their Schema object across batches). */
    private Schema checkedSchema;
    /** The schema the native side holds for this handle (the last one that crossed), or null. */
    private Schema crossedSchema;

    private final ArrowSchema schemaStruct = ArrowSchema.allocateNew(EXPORTS);
    private ArrowArray[] arrayStructs = new ArrowArray[0];
    private long[] arrayAddresses = new long[0];
    /** Whether {@link #checkedSchema}'s columns can all take the flat handoff. */
    private boolean checkedSchemaIsFlat;

    private long[] flatWords = new long[0];
    private ArrowBuf[] held = new ArrowBuf[0];
    /**
     * Buffers described per column of the flat handoff: the validity buffer, then the first and the second
     * buffer of the type's layout. Equal to the native constant (checked by {@code LayoutTest}).
     */
    static final int FLAT_BUFFERS = 3;
    /**
     * Words per column of the flat handoff: the value count, then address and capacity of each of the
     * {@value #FLAT_BUFFERS} buffers. Equal to the native constant (checked by {@code LayoutTest}).
     */
    static final int FLAT_WORDS = 1 + 2 * FLAT_BUFFERS;

    private final LongAdder batches = new LongAdder();
    private final LongAdder rows = new LongAdder();
    private final LongAdder keyBytes = new LongAdder();
    private final LongAdder valueBytes = new LongAdder();
    private final LongAdder encodeNanos = new LongAdder();

    /**
     * An encoder with {@code options}, parsed and checked once, here.
     *
     * @param options Flink-style option names and values; an empty map gives Flink's defaults (null keys,
     *     the whole row as value)
     * @throws NullPointerException if {@code options} or any of its keys or values is null
     * @throws IllegalArgumentException for an unknown option name (a typo), a value outside the accepted set,
     *     or a combination Flink rejects ({@code key.fields-prefix} without
     *     {@code value.fields-include=EXCEPT_KEY}...); the message names the option
     * @throws UnsupportedOperationException if the native library is not available (the cause says why)
     */
    public NativeJsonEncoder(Map<String, String> options) {
        Objects.requireNonNull(options, "options");
        Map<String, String> copy = new LinkedHashMap<>();
        options.forEach((key, value) -> copy.put(
                Objects.requireNonNull(key, "option name"),
                Objects.requireNonNull(value, () -> "option " + key + " is null")));
        requireNative();
        this.options = Collections.unmodifiableMap(copy);
        this.handle = open(copy.keySet().toArray(new String[0]), copy.values().toArray(new String[0]));
    }

    /** Throws {@link UnsupportedOperationException} (the cause says why) unless the native library is loaded. */
    static void requireNative() {
        if (!NativeLibrary.isLoaded()) {
            Throwable cause = NativeLibrary.loadError().orElse(null);
            throw new UnsupportedOperationException(
                    "the StreamFusion native library is not loaded: "
                            + (cause == null ? "unknown reason" : cause.getMessage()),
                    cause);
        }
    }

    /** @return the options this encoder was created with (unmodifiable) */
    public Map<String, String> options() {
        return options;
    }

    /**
     * Encodes one batch; equivalent to {@code encode(root, null)}.
     *
     * @param root the batch; not modified, still the caller's afterwards
     * @return the batch's records, one per row
     * @throws NullPointerException if {@code root} is null
     * @throws IllegalStateException if this encoder is closed
     * @throws StreamFusionException if the native encoder rejects the batch (schema mismatch, unsupported
     *     type, invalid value, import error); the encoder stays usable
     */
    public EncodedBatch encode(VectorSchemaRoot root) {
        return encode(root, null);
    }

    /**
     * Encodes one batch whose dictionary-encoded columns take their dictionaries from {@code dictionaries}.
     * One JNI crossing: the root is exported through the Arrow C Data Interface, encoded natively, and the
     * records come back as six fresh arrays. Adds to this encoder's counters.
     *
     * @param root the batch; not modified, still the caller's afterwards
     * @param dictionaries the dictionaries of dictionary-encoded columns, or null when there are none
     * @return the batch's records, one per row
     * @throws NullPointerException if {@code root} is null
     * @throws IllegalStateException if this encoder is closed (checked before any native call)
     * @throws IllegalArgumentException if a vector is not what the root's schema says it is (call
     *     {@code root.syncSchema()} after changing vectors), a dictionary-encoded column's dictionary is not in
     *     {@code dictionaries}, the vectors' value counts differ from the root's row count, or a buffer is too
     *     small for its values (a corrupt vector); the encoder stays usable
     * @throws StreamFusionException if the native encoder rejects the batch (a string that is not valid
     *     UTF-8 is {@link StreamFusionException.Kind#INVALID_VALUE}; before any native call, a field name
     *     containing U+0000, which the C Data Interface cannot carry); the encoder stays usable
     */
    public EncodedBatch encode(VectorSchemaRoot root, DictionaryProvider dictionaries) {
        Objects.requireNonNull(root, "root is null: pass a VectorSchemaRoot to encode");
        return crossing(() -> crossOnce(root, dictionaries));
    }

    /**
     * Encodes one batch of Flink binary rows ({@code BinaryRowData}: header byte with the row kind, null bits,
     * one 8-byte slot per field, the variable-length part; Flink's {@code BinaryRowWriter} writes them, as
     * {@code RowDataSerializer.toBinaryRow} does), decoded natively into Arrow columns and encoded in one JNI
     * crossing, so no Arrow vector is filled on the JVM. The bytes and offsets are copied into native memory
     * for the call; both arrays stay the caller's and may be reused right after. {@code schema} crosses
     * (through the C Data Interface) only when it is not the object that crossed last. Adds to this encoder's
     * counters.
     *
     * @param schema the Arrow schema of the rows: its first {@code arity} fields type the rows' fields in
     *     order, with the Arrow type {@code RowDataArrowWriter} (module streamfusion-flink) gives each Flink type
     *     (Bool, Int 8..64, FloatingPoint, Utf8, Binary, Decimal 128, Date(DAY), Time(ms, 32), Timestamp,
     *     Interval(YEAR_MONTH), Duration(ms)); one more field, if present, is an Int8 column that receives each
     *     row's kind byte (for {@code changelog.row-kind-column})
     * @param arity the fields of each binary row
     * @param rows the rows, concatenated from byte 0; only the first {@code length} bytes are read
     * @param length bytes of {@code rows} holding the batch
     * @param rowOffsets row {@code i} spans bytes {@code rowOffsets[i]} to {@code rowOffsets[i + 1]} of
     *     {@code rows}; the first {@code rowCount + 1} entries are read
     * @param rowCount rows in the batch
     * @return the batch's records, one per row
     * @throws NullPointerException if an array or {@code schema} is null
     * @throws IllegalStateException if this encoder is closed (checked before any native call)
     * @throws IndexOutOfBoundsException if {@code length} or {@code rowCount + 1} is negative or exceeds its
     *     array
     * @throws IllegalArgumentException if the rows disagree with the schema (offsets out of order or range, a
     *     row shorter than its fixed part, a value outside its row; the message names the field and row) or a
     *     field type has no binary-row reading; the encoder stays usable
     * @throws StreamFusionException as for {@link #encode(VectorSchemaRoot, DictionaryProvider)} (a string
     *     that is not valid UTF-8, a timestamp its column cannot hold: {@code INVALID_VALUE}); the encoder
     *     stays usable
     */
    public EncodedBatch encodeBinaryRows(
            Schema schema, int arity, byte[] rows, int length, int[] rowOffsets, int rowCount) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(rowOffsets, "rowOffsets");
        return crossing(() -> withSchema(
                schema, null, address -> encodeBinaryRows(handle, rows, length, rowOffsets, rowCount, arity, address)));
    }

    /**
     * Encodes one batch of Flink binary rows as {@link #encodeBinaryRows(Schema, int, byte[], int, int[], int)}
     * does, read in place from {@code rows}' native memory: the batch is not copied on its way in (for a batch of
     * several MiB, one pass over memory less). A reference on {@code rows} is held until the call returns, so
     * closing it meanwhile cannot free it; the caller must not write it during the call, and may reuse it right
     * after.
     *
     * @param schema as for the {@code byte[]} overload
     * @param arity the fields of each binary row
     * @param rows the rows, concatenated from byte 0; only the first {@code length} bytes are read
     * @param length bytes of {@code rows} holding the batch
     * @param rowOffsets row {@code i} spans bytes {@code rowOffsets[i]} to {@code rowOffsets[i + 1]} of
     *     {@code rows}; the first {@code rowCount + 1} entries are read
     * @param rowCount rows in the batch
     * @return the batch's records, one per row
     * @throws NullPointerException if {@code rows}, {@code rowOffsets} or {@code schema} is null
     * @throws IllegalStateException if this encoder is closed (checked before any native call), or {@code rows}
     *     is already released
     * @throws IndexOutOfBoundsException if {@code length} is negative or exceeds {@code rows.capacity()}, or
     *     {@code rowCount + 1} is negative or exceeds {@code rowOffsets}
     * @throws IllegalArgumentException as for the {@code byte[]} overload; the encoder stays usable
     * @throws StreamFusionException as for the {@code byte[]} overload; the encoder stays usable
     */
    public EncodedBatch encodeBinaryRows(
            Schema schema, int arity, ArrowBuf rows, int length, int[] rowOffsets, int rowCount) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(rowOffsets, "rowOffsets");
        Objects.checkFromIndexSize(0, length, rows.capacity());
        return crossing(() -> withSchema(schema, null, address -> {
            if (rows.getReferenceManager().getRefCount() < 1) {
                throw new IllegalStateException("rows: the ArrowBuf is released; its memory may be freed");
            }
            rows.getReferenceManager().retain();
            try {
                return encodeBinaryRowsAt(
                        handle, rows.memoryAddress(), rows.capacity(), length, rowOffsets, rowCount, arity, address);
            } finally {
                rows.getReferenceManager().release();
            }
        }));
    }

    /**
     * Runs one native crossing while the encoder is open and no other encode runs (the export structs are
     * reused), and counts its batch.
     */
    private EncodedBatch crossing(Supplier<Object[]> cross) {
        ReentrantReadWriteLock.ReadLock lock = lifecycle.readLock();
        lock.lock();
        try {
            ensureOpen();
            exporting.lock();
            try {
                long start = System.nanoTime();
                Object[] six = cross.get();
                EncodedBatch batch = EncodedBatch.fromNative(six, System.nanoTime() - start);
                batches.increment();
                rows.add(batch.size());
                keyBytes.add(batch.keyBytes());
                valueBytes.add(batch.valueBytes());
                encodeNanos.add(batch.encodeNanos());
                return batch;
            } finally {
                exporting.unlock();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes the one native call: the flat handoff when every column has a flat type and no dictionary
     * (the common case, and Flink's rows), else one C Data Interface export per column. The schema crosses
     * (through the C Data Interface) only when it is not the one that crossed last.
     */
    private Object[] crossOnce(VectorSchemaRoot root, DictionaryProvider dictionaries) {
        Schema rootSchema = root.getSchema();
        boolean flat = checkNames(rootSchema);
        requireVectorsMatch(root, rootSchema, dictionaries);
        return withSchema(
                rootSchema,
                dictionaries,
                schemaAddress -> flat && dictionaries == null
                        ? crossFlat(root, schemaAddress)
                        : crossExported(root, dictionaries, schemaAddress));
    }

    /**
     * Checks the field names of a schema not seen last time (U+0000 cannot cross) and returns whether all its
     * columns can take the flat handoff.
     */
    private boolean checkNames(Schema schema) {
        if (schema != checkedSchema) {
            requireCarriableNames(schema.getFields(), "");
            checkedSchema = schema;
            checkedSchemaIsFlat = schema.getFields().stream().allMatch(NativeJsonEncoder::isFlat);
        }
        return checkedSchemaIsFlat;
    }

    /**
     * Calls {@code call} with the address of {@code schema}'s export (with {@code dictionaries}), or 0 when the
     * native side holds that schema already (it crossed last) and no dictionaries are given; remembers it as
     * crossed once the call returns.
     */
    private Object[] withSchema(Schema schema, DictionaryProvider dictionaries, LongFunction<Object[]> call) {
        checkNames(schema);
        boolean sendSchema = schema != crossedSchema || dictionaries != null;
        crossedSchema = null; // until the native side has it
        try {
            if (sendSchema) {
                Data.exportSchema(EXPORTS, schema, dictionaries, schemaStruct);
            }
            Object[] six = call.apply(sendSchema ? schemaStruct.memoryAddress() : 0);
            crossedSchema = schema;
            return six;
        } finally {
            schemaStruct.release(); // a no-op once the native side took it
        }
    }

    /**
     * The flat handoff: each column's buffers are described in place (address and capacity of the validity
     * buffer and of the layout's one or two buffers, {@value #FLAT_WORDS} words per column) and read natively
     * during the call, which checks their sizes; a reference on each buffer is held until the call returns,
     * so closing the root meanwhile cannot free them.
     */
    private Object[] crossFlat(VectorSchemaRoot root, long schemaAddress) {
        List<FieldVector> vectors = root.getFieldVectors();
        int columns = vectors.size();
        if (flatWords.length != columns * FLAT_WORDS) {
            flatWords = new long[columns * FLAT_WORDS];
            held = new ArrowBuf[columns * FLAT_BUFFERS];
        }
        int buffers = 0;
        try {
            for (int c = 0; c < columns; c++) {
                FieldVector vector = vectors.get(c);
                List<ArrowBuf> fieldBuffers = vector.getFieldBuffers();
                if (fieldBuffers.size() < 2 || fieldBuffers.size() > 3) {
                    throw new IllegalStateException("a " + vector.getClass().getSimpleName() + " has "
                            + fieldBuffers.size() + " buffers, not a flat vector");
                }
                int at = c * FLAT_WORDS;
                flatWords[at] = vector.getValueCount();
                for (int b = 0; b < FLAT_BUFFERS; b++) {
                    ArrowBuf buf = b < fieldBuffers.size() ? fieldBuffers.get(b) : null;
                    if (buf != null) {
                        buf.getReferenceManager().retain();
                        held[buffers++] = buf;
                    }
                    flatWords[at + 1 + 2 * b] = buf == null ? 0 : buf.memoryAddress();
                    flatWords[at + 2 + 2 * b] = buf == null ? 0 : buf.capacity();
                }
            }
            return encodeFlat(handle, flatWords, schemaAddress, root.getRowCount());
        } finally {
            for (int b = 0; b < buffers; b++) {
                held[b].getReferenceManager().release();
                held[b] = null;
            }
        }
    }

    /**
     * The native side reads every column as the root's schema types it, so a vector that is not what the
     * schema says (a root built with a stale or made-up {@code Schema}, children added to a struct without
     * {@code syncSchema()}) would be read as another type: refused here, as is a dictionary-encoded column
     * whose dictionary is not in {@code dictionaries}.
     */
    private static void requireVectorsMatch(VectorSchemaRoot root, Schema schema, DictionaryProvider dictionaries) {
        List<Field> fields = schema.getFields();
        List<FieldVector> vectors = root.getFieldVectors();
        if (vectors.size() != fields.size()) {
            throw new IllegalArgumentException(
                    "the root has " + vectors.size() + " vectors but its schema " + fields.size() + " fields");
        }
        for (int i = 0; i < fields.size(); i++) {
            Field expected = fields.get(i);
            Field actual = vectors.get(i).getField();
            if (actual != expected && !sameLayout(expected, actual)) {
                throw new IllegalArgumentException("column `" + expected.getName() + "`: the root's schema says "
                        + expected + " but its vector is " + actual
                        + " (after changing a root's vectors, call root.syncSchema())");
            }
            if (expected.getDictionary() != null
                    && (dictionaries == null
                            || dictionaries.lookup(expected.getDictionary().getId()) == null)) {
                throw new IllegalArgumentException("column `" + expected.getName() + "` is dictionary-encoded "
                        + "(dictionary " + expected.getDictionary().getId() + "): pass the DictionaryProvider "
                        + "that holds it to encode(root, dictionaries)");
            }
        }
    }

    /**
     * Whether two fields describe the same physical data: equal types and dictionary encodings, children
     * alike in number and, recursively, layout. Names and nullability are not compared: Arrow Java names a
     * list's child {@code $data$} in {@code ListVector.getField()} whatever the schema calls it, and the
     * native import checks nulls against nullability itself.
     */
    private static boolean sameLayout(Field expected, Field actual) {
        if (!expected.getType().equals(actual.getType())
                || !Objects.equals(expected.getDictionary(), actual.getDictionary())
                || expected.getChildren().size() != actual.getChildren().size()) {
            return false;
        }
        for (int i = 0; i < expected.getChildren().size(); i++) {
            if (!sameLayout(expected.getChildren().get(i), actual.getChildren().get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Flat types: one validity bitmap and one or two buffers, no children (see {@code encodeFlat}). */
    private static boolean isFlat(Field field) {
        if (field.getDictionary() != null || !field.getChildren().isEmpty()) {
            return false;
        }
        switch (field.getType().getTypeID()) {
            case Int:
            case FloatingPoint:
            case Bool:
            case Utf8:
            case Binary:
            case LargeUtf8:
            case LargeBinary:
            case FixedSizeBinary:
            case Decimal:
            case Date:
            case Time:
            case Timestamp:
            case Duration:
            case Interval:
                return true;
            default:
                return false;
        }
    }

    /** One C Data Interface export per column. */
    private Object[] crossExported(VectorSchemaRoot root, DictionaryProvider dictionaries, long schemaAddress) {
        List<FieldVector> vectors = root.getFieldVectors();
        int columns = vectors.size();
        if (arrayStructs.length != columns) {
            ArrowArray[] resized = Arrays.copyOf(arrayStructs, columns);
            for (int i = arrayStructs.length; i < columns; i++) {
                resized[i] = ArrowArray.allocateNew(EXPORTS);
            }
            for (int i = columns; i < arrayStructs.length; i++) {
                arrayStructs[i].close();
            }
            arrayStructs = resized;
            arrayAddresses = new long[columns];
        }
        try {
            for (int i = 0; i < columns; i++) {
                Data.exportVector(EXPORTS, vectors.get(i), dictionaries, arrayStructs[i]);
                arrayAddresses[i] = arrayStructs[i].memoryAddress();
            }
            // The native side moves every struct out (leaving it released here) and releases them all
            // before returning, even when it throws.
            return encode(handle, arrayAddresses, schemaAddress, root.getRowCount());
        } finally {
            // No-ops for the structs the native side took; frees an export that never got there.
            for (int i = 0; i < columns; i++) {
                arrayStructs[i].release();
            }
        }
    }

    /**
     * The C Data Interface carries field names as NUL-terminated strings, so a name containing U+0000 would
     * arrive truncated (and the record would silently get another name). Such a schema is rejected instead.
     */
    private static void requireCarriableNames(List<Field> fields, String parent) {
        for (Field field : fields) {
            String path = parent.isEmpty() ? field.getName() : parent + "." + field.getName();
            if (field.getName().indexOf(0) >= 0) {
                throw new StreamFusionException(
                        StreamFusionException.Kind.INVALID_FIELD_NAME,
                        "field `"
                                + path.replace("\0", "\\u0000") + "`: the name contains U+0000, which the Arrow C "
                                + "Data Interface cannot carry (names cross as NUL-terminated strings)");
            }
            requireCarriableNames(field.getChildren(), path);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("NativeJsonEncoder is closed");
        }
    }

    /**
     * Whether this encoder applies {@code map-null-key.mode} itself to a null map or multiset key in Flink binary
     * rows ({@link #encodeBinaryRows}): true when one mode applies to every map (the records have no key, or the
     * key's {@code key.map-null-key.*} options equal the value's); false when such a row is refused with
     * {@link StreamFusionException.Kind#INVALID_VALUE}, since a map is read once for both rows. The Flink front
     * end asks once and, when false, checks the maps itself and leaves a batch with a null key to Flink's
     * serializer. Arrow handoffs never carry a null key (an Arrow map cannot hold one).
     *
     * @return as described; the native encoder's own rule, so the two never disagree
     * @throws IllegalStateException if this encoder is closed
     */
    public boolean appliesNullMapKeys() {
        ensureOpen();
        return appliesNullMapKeys(handle);
    }

    /** @return true once {@link #close()} has been called */
    public boolean isClosed() {
        return closed;
    }

    /** @return batches encoded successfully so far */
    public long batches() {
        return batches.sum();
    }

    /** @return rows (records) encoded successfully so far */
    public long rows() {
        return rows.sum();
    }

    /** @return key bytes produced so far (null keys count 0) */
    public long keyBytes() {
        return keyBytes.sum();
    }

    /** @return value bytes produced so far (tombstones count 0) */
    public long valueBytes() {
        return valueBytes.sum();
    }

    /** @return total {@link EncodedBatch#encodeNanos()} of the successful batches so far */
    public long encodeNanos() {
        return encodeNanos.sum();
    }

    /**
     * Frees the native encoder (its plan and scratch). Waits for
     * encodes in flight. Idempotent: later calls do nothing. Batches already returned stay valid (they are
     * plain JVM arrays).
     */
    @Override
    public void close() {
        ReentrantReadWriteLock.WriteLock lock = lifecycle.writeLock();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            close(handle);
            exporting.lock();
            try {
                for (ArrowArray struct : arrayStructs) {
                    struct.close();
                }
                schemaStruct.close();
            } finally {
                exporting.unlock();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "NativeJsonEncoder[" + (closed ? "closed" : "open") + ", batches=" + batches() + ", rows=" + rows()
                + ", options=" + options + "]";
    }

    // JNI entry points: rust/kafka-serde-native/src/streamfusion.rs. docs/jni.md lists ownership and exceptions.

    /** Parses the options once and returns a new handle; IllegalArgumentException for option errors. */
    private static native long open(String[] optionKeys, String[] optionValues);

    /** Whether the encoder applies map-null-key.mode to binary rows' null map keys; IllegalStateException if closed. */
    private static native boolean appliesNullMapKeys(long handle);

    /**
     * Takes over and releases the exported structs (one ArrowArray per column, and the ArrowSchema unless its
     * address is 0: the schema that crossed last), encodes the batch, returns {@code byte[] keys,
     * byte[] values, int[] keyOffsets, int[] keyLengths, int[] valueOffsets, int[] valueLengths}.
     * IllegalStateException for a closed handle, StreamFusionException for encoder errors.
     */
    private static native Object[] encode(
            long handle, long[] arrowArrayAddresses, long arrowSchemaAddress, int rowCount);

    /**
     * The flat handoff: reads each column's buffers in place from {@code columnWords} ({@value #FLAT_WORDS} per
     * column: value count, then address and capacity of the validity, first and second buffer), checking
     * their sizes and offsets; the schema as for {@link #encode(long, long[], long, int)}. Returns the same
     * six arrays. IllegalArgumentException for a buffer too small or offsets outside their data.
     */
    private static native Object[] encodeFlat(long handle, long[] columnWords, long arrowSchemaAddress, int rowCount);

    /**
     * Copies the first {@code length} bytes of {@code rows} and {@code rowCount + 1} offsets in, decodes the
     * Flink binary rows of {@code arity} fields natively into the schema's columns (the schema as for
     * {@link #encode(long, long[], long, int)}), encodes them and returns the same six arrays.
     * IndexOutOfBoundsException for a length or count past its array, IllegalArgumentException for rows that
     * disagree with the schema.
     */
    private static native Object[] encodeBinaryRows(
            long handle, byte[] rows, int length, int[] rowOffsets, int rowCount, int arity, long arrowSchemaAddress);

    /**
     * As {@link #encodeBinaryRows(long, byte[], int, int[], int, int, long)}, with the rows read in place from
     * the first {@code length} of the {@code capacity} bytes at {@code address}, which the caller holds until
     * this returns. IllegalArgumentException for a zero address or a length past the capacity.
     */
    private static native Object[] encodeBinaryRowsAt(
            long handle,
            long address,
            long capacity,
            int length,
            int[] rowOffsets,
            int rowCount,
            int arity,
            long arrowSchemaAddress);

    /** Unregisters the handle; IllegalStateException if it is not open. */
    private static native void close(long handle);

    /**
     * The native side's values of the layout constants this package mirrors, in order: {@link #FLAT_WORDS},
     * {@link #FLAT_BUFFERS} and {@code EncodedBatch.NATIVE_ARRAYS}. For {@code LayoutTest}, which fails when
     * they differ; needs the native library loaded.
     */
    static native int[] layout();

    /**
     * The names of the native encoder's options, in the order of its table ({@code streamfusion_json::OPTIONS}).
     * For {@code EncoderOptionsTest}, which fails when {@link EncoderOptions#NAMES} differs; needs the native
     * library loaded.
     */
    static native String[] optionNames();
}
