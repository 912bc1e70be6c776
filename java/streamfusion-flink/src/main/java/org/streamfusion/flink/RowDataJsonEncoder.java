package org.streamfusion.flink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.bijou64.NativeLibrary;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.EncoderOptions;
import org.streamfusion.kafka.NativeJsonEncoder;

/**
 * Encodes batches of Flink {@link RowData} into Kafka JSON records, byte-identical to Flink's {@code json}
 * format ({@code JsonRowDataSerializationSchema}) with the Kafka SQL connector's key/value layout: what a Flink
 * sink operator holding a buffer of rows calls once per batch. Every type of {@link FlinkArrowTypes}, flat and
 * nested (ARRAY, MAP, MULTISET, ROW to any depth, with nulls at every level), is encoded natively through the
 * default handoff.
 *
 * <p><b>Two paths, chosen per batch.</b> A batch of at least {@code native.min-batch-rows} rows is encoded by
 * the native encoder in one JNI crossing ({@link NativeJsonEncoder}): by default each row's Flink binary form
 * ({@code BinaryRowData}, from {@code RowDataSerializer.toBinaryRow}) is copied into one buffer as it arrives
 * ({@link RowDataBinaryWriter}) and decoded natively, so no Arrow vector is filled on the JVM; with
 * {@code native.handoff=arrow} the rows are written into Arrow vectors instead ({@link RowDataArrowWriter}),
 * with the same records. A smaller batch goes through Flink's own serializer row by row
 * ({@code FlinkPerRowEncoder}), because below that size the fixed cost of filling vectors and crossing JNI is
 * more than the per-row work it saves. The default threshold, {@value #DEFAULT_NATIVE_MIN_BATCH_ROWS}, is
 * the crossover measured by the JMH benchmark {@code RowDataJsonBenchmark} ({@code docs/benchmarks.md}). Both
 * paths give Flink's bytes (the test suite checks each against Flink's serializer, on JDK 17 and on JDK 25:
 * FLOAT and DOUBLE get the digits of the running JVM's {@code Float.toString} / {@code Double.toString}, see
 * {@code float.java-digits} below); a batch holding a value an Arrow column cannot hold exactly
 * ({@link UnrepresentableValueException}) is written by Flink's serializer whatever its size. Known differences,
 * whatever the path: a string that is not valid UTF-8 is rejected natively ({@code INVALID_VALUE}) where Flink
 * writes U+FFFD; a lone UTF-16 surrogate built with {@code StringData.fromString} becomes {@code ?} natively (Flink's UTF-8 encoding) where
 * Flink's serializer escapes it. When the native library is not available every batch takes the JVM path.
 *
 * <p><b>Options.</b> Flink's names, as for {@link NativeJsonEncoder} ({@link EncoderOptions},
 * {@code docs/json-format.md}): {@code timestamp-format.standard}, {@code map-null-key.mode},
 * {@code map-null-key.literal}, {@code encode.decimal-as-plain-number}, {@code encode.ignore-null-fields},
 * {@code key.fields}, {@code key.fields-prefix}, {@code value.fields-include}, {@code flink.version},
 * {@code float.java-digits}; plus
 * <ul>
 *   <li>{@code changelog.mode}: {@code insert-only} (default; the row kind is ignored, as the {@code kafka}
 *       connector does) or {@code upsert} (as {@code upsert-kafka} writes: {@code -U} and {@code -D} rows become
 *       tombstones with their key; needs {@code key.fields});</li>
 *   <li>{@code native.min-batch-rows}: the smallest batch encoded natively, an integer ≥ 0 (0: always
 *       native);</li>
 *   <li>{@code native.handoff}: {@code binary-rows} (default) or {@code arrow}, how a native batch crosses
 *       ({@link #NATIVE_HANDOFF}).</li>
 * </ul>
 * {@code flink.version} defaults to the release of the Flink on the classpath, and may only be set to that
 * release, since small batches are written by that Flink's serializer. For the same reason
 * {@code float.java-digits} defaults to the digits of the running JVM, whose {@code Double.toString} Flink's
 * serializer calls ({@code jdk17} below JDK 19, whose digits differ for some values, JDK-4511638; {@code jdk19}
 * from JDK 19 on), and may only be set to that. {@code mode=plain} and
 * {@code changelog.row-kind-column} do not apply to RowData (use {@code changelog.mode}) and are rejected.
 *
 * <p><b>Two ways to call it.</b> {@link #encode(List)} takes a whole batch of rows the caller holds.
 * {@link #append(RowData)} and {@link #flush()} build a batch as rows arrive: each appended row is copied (its
 * binary form, or into the Arrow vectors) at once and not referenced afterwards, so the caller may reuse the
 * instance (Flink's object reuse) and need not buffer rows; {@code flush()} then encodes the batch in one JNI crossing. The same rules
 * choose the path, with the same bytes: a batch of fewer than {@code native.min-batch-rows} rows, or every batch
 * when the native library is missing or {@code native.min-batch-rows} is {@code Integer.MAX_VALUE}, is written
 * by Flink's serializer. For that, the encoder keeps copies ({@code RowDataSerializer.copy}) of exactly the rows it may have to give Flink's
 * serializer: the first {@code native.min-batch-rows} - 1 rows of each batch (dropped once the batch reaches the
 * threshold); every row when the native path is off; and, after a value an Arrow column cannot hold
 * ({@link UnrepresentableValueException}, raised by either handoff: the columns are Arrow's either way), that
 * row and the rest of its batch: the rows already in the native batch are then encoded natively and the rest by Flink's serializer, in order (or all of them by Flink's serializer if
 * the batch was still below the threshold), which writes the same bytes as one Flink-serialized batch.
 *
 * <p><b>Threads.</b> One encoder per task. Calls are serialised ({@code synchronized}), so sharing one is
 * safe but gains nothing. Not usable after {@link #close()}.
 */
@PublicEvolving
public final class RowDataJsonEncoder implements AutoCloseable {
    /** Option: the smallest batch (rows) that is encoded natively; smaller ones use Flink's serializer. */
    public static final String NATIVE_MIN_BATCH_ROWS = "native.min-batch-rows";
    /**
     * Option: how a native batch crosses, {@code binary-rows} (default: each row's Flink binary form is copied
     * into one buffer as it arrives, {@link RowDataBinaryWriter}, and decoded natively) or {@code arrow} (the
     * rows are written into Arrow vectors, {@link RowDataArrowWriter}). Both give the same records; the binary
     * rows also carry ARRAY, MAP, MULTISET and ROW columns, to any depth, which {@code arrow} refuses (it is there
     * to compare the two and as a way back for flat tables).
     */
    public static final String NATIVE_HANDOFF = "native.handoff";
    /** Option: {@code insert-only} or {@code upsert}. */
    public static final String CHANGELOG_MODE = "changelog.mode";
    /**
     * The default of {@code native.min-batch-rows}: the batch size from which the native path is faster than
     * Flink's serializer per row on Nexmark bid and q9 rows (JMH, {@code docs/benchmarks.md}).
     */
    public static final int DEFAULT_NATIVE_MIN_BATCH_ROWS = 16;

    /** The Arrow column that carries each row's {@code RowKind} to the native encoder in upsert mode. */
    static final String ROW_KIND_COLUMN = "$streamfusion.row_kind";

    /**
     * The encoder options ({@link EncoderOptions#NAMES}) RowData input does not take: the row kinds are the rows'
     * own ({@code changelog.mode}; {@code changelog.row-kind-column} is set internally), and plain mode does not
     * apply.
     */
    private static final List<String> NOT_FOR_ROW_DATA =
            List.of(EncoderOptions.CHANGELOG_ROW_KIND_COLUMN, EncoderOptions.PLAIN_EXPLICIT_NULLS);

    private static final ConfigOption<List<String>> KEY_FIELDS =
            ConfigOptions.key(EncoderOptions.KEY_FIELDS).stringType().asList().defaultValues();
    private static final ConfigOption<String> KEY_FIELDS_PREFIX =
            ConfigOptions.key(EncoderOptions.KEY_FIELDS_PREFIX).stringType().defaultValue("");
    private static final ConfigOption<String> VALUE_FIELDS_INCLUDE =
            ConfigOptions.key(EncoderOptions.VALUE_FIELDS_INCLUDE).stringType().defaultValue("ALL");

    private final RowType rowType;
    private final Map<String, String> options;
    private final int nativeMinBatchRows;
    private final FlinkPerRowEncoder jvm;
    private final BufferAllocator allocator;
    /** The native handoff chosen at open ({@code native.handoff}), or null without the native library. */
    private final NativeBatch writer;

    private final NativeJsonEncoder nativeEncoder;
    private boolean closed;

    /** Copies rows kept for Flink's serializer by the incremental API (see the class comment). */
    private final RowDataSerializer copier;
    /** The incremental batch: rows appended since the last {@link #flush()}. */
    private int pending;
    /** Copies of rows of the incremental batch that Flink's serializer may have to write (see {@link #append}). */
    private final List<RowData> kept = new ArrayList<>();
    /**
     * True once the incremental batch has left the native batch (binary rows or Arrow vectors): rows from then on
     * are only kept. With
     * {@link #keptFromStart}, all of the batch goes to Flink's serializer; without, the rows in the vectors are
     * encoded natively and the kept ones after them by Flink's serializer.
     */
    private boolean leftArrow;
    /** True while {@link #kept} holds every row of the incremental batch from its first. */
    private boolean keptFromStart = true;

    private long nativeBatches;
    private long jvmBatches;
    private long rows;
    private long keyBytes;
    private long valueBytes;
    private long encodeNanos;

    /**
     * An encoder for rows of {@code rowType} with {@code options}, all checked here.
     *
     * @param rowType the rows' type; its field names are the JSON field names
     * @param options option names and values (see the class comment); empty gives Flink's defaults
     * @throws NullPointerException if an argument, an option name or an option value is null
     * @throws IllegalArgumentException for an unknown option, a bad value, a layout that does not fit
     *     {@code rowType} ({@code key.fields} naming a missing field...) or a field type the Arrow writer does
     *     not support; the message names the option or field
     */
    public RowDataJsonEncoder(RowType rowType, Map<String, String> options) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        Objects.requireNonNull(options, "options");
        Map<String, String> copy = new LinkedHashMap<>();
        options.forEach((key, value) -> copy.put(
                Objects.requireNonNull(key, "option name"),
                Objects.requireNonNull(value, () -> "option " + key + " is null")));
        this.options = Collections.unmodifiableMap(new LinkedHashMap<>(copy));

        this.nativeMinBatchRows = parseMinRows(copy.remove(NATIVE_MIN_BATCH_ROWS));
        Handoff handoff = Handoff.parse(copy.remove(NATIVE_HANDOFF));
        boolean upsert = parseChangelogMode(copy.remove(CHANGELOG_MODE));
        for (String rejected : NOT_FOR_ROW_DATA) {
            if (copy.containsKey(rejected)) {
                throw new IllegalArgumentException("option " + rejected + " does not apply to RowData input"
                        + (rejected.equals(EncoderOptions.CHANGELOG_ROW_KIND_COLUMN)
                                ? ": use " + CHANGELOG_MODE + "=upsert"
                                : ""));
            }
        }
        String mode = copy.get(EncoderOptions.MODE);
        if (mode != null && !mode.equals("flink")) {
            throw new IllegalArgumentException("option " + EncoderOptions.MODE + "=" + mode
                    + " does not apply to RowData input: RowDataJsonEncoder writes Flink's json format "
                    + "(mode=flink)");
        }
        checkFlinkVersion(copy);
        checkFloatDigits(copy, Runtime.version().feature());

        Configuration layout = Configuration.fromMap(copy);
        List<String> keyFields = layout.get(KEY_FIELDS);
        String keyPrefix = layout.get(KEY_FIELDS_PREFIX);
        boolean exceptKey = layout.get(VALUE_FIELDS_INCLUDE).equalsIgnoreCase("EXCEPT_KEY");
        if (upsert) {
            if (keyFields.isEmpty()) {
                throw new IllegalArgumentException("changelog.mode=upsert needs key.fields: a tombstone is "
                        + "only meaningful with the key of the row it deletes");
            }
            copy.put(EncoderOptions.CHANGELOG_ROW_KIND_COLUMN, ROW_KIND_COLUMN);
        }

        if (NativeLibrary.isLoaded()) {
            // The options are checked by the native parser, the layout against the schema by planning an
            // empty batch now, so every mistake surfaces here, with the native encoder's message.
            allocator = new RootAllocator();
            NativeBatch w = null;
            NativeJsonEncoder e = null;
            try {
                String rowKinds = upsert ? ROW_KIND_COLUMN : null;
                e = new NativeJsonEncoder(copy);
                // Whether null map keys in binary rows are left to the native encoder, by its own rule; if not,
                // RowDataBinaryWriter checks the maps and such a batch goes to Flink's serializer.
                w = handoff == Handoff.ARROW
                        ? new ArrowBatch(new RowDataArrowWriter(rowType, allocator, rowKinds))
                        : new BinaryBatch(
                                new RowDataBinaryWriter(rowType, allocator, rowKinds, e.appliesNullMapKeys()));
                w.reset();
                w.encode(e);
            } catch (RuntimeException failure) {
                closeAll(e, w, allocator);
                if (failure instanceof IllegalArgumentException) {
                    throw failure;
                }
                throw new IllegalArgumentException(failure.getMessage(), failure);
            }
            writer = w;
            nativeEncoder = e;
        } else {
            allocator = null;
            writer = null;
            nativeEncoder = null;
            checkWithoutNative(copy, keyFields, keyPrefix, exceptKey, handoff);
        }
        copier = new RowDataSerializer(rowType);
        try {
            jvm = new FlinkPerRowEncoder(rowType, copy, keyFields, keyPrefix, exceptKey, upsert);
        } catch (IllegalArgumentException e) {
            closeAll(nativeEncoder, writer, allocator);
            throw e;
        } catch (RuntimeException e) {
            // Flink's own option checks (a bad timestamp-format.standard...) throw its TableException.
            closeAll(nativeEncoder, writer, allocator);
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static int parseMinRows(String value) {
        if (value == null) {
            return DEFAULT_NATIVE_MIN_BATCH_ROWS;
        }
        try {
            int rows = Integer.parseInt(value.trim());
            if (rows >= 0) {
                return rows;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "option " + NATIVE_MIN_BATCH_ROWS + "=" + value + ": expected an integer >= 0 (rows)");
    }

    private static boolean parseChangelogMode(String value) {
        if (value == null || value.equals("insert-only")) {
            return false;
        }
        if (value.equals("upsert")) {
            return true;
        }
        throw new IllegalArgumentException(
                "option " + CHANGELOG_MODE + "=" + value + ": expected insert-only or upsert");
    }

    /** {@code flink.version} must name the Flink on the classpath, whose serializer writes small batches. */
    private static void checkFlinkVersion(Map<String, String> options) {
        String runtime = runtimeFlinkVersion();
        String requested = options.get(EncoderOptions.FLINK_VERSION);
        if (runtime == null) {
            return;
        }
        if (requested == null) {
            options.put(EncoderOptions.FLINK_VERSION, runtime);
        } else if (!requested.equals(runtime)) {
            throw new IllegalArgumentException("option flink.version=" + requested + " but Flink " + runtime
                    + " is on the classpath, and its serializer writes the batches smaller than "
                    + NATIVE_MIN_BATCH_ROWS + ": leave flink.version out (it defaults to " + runtime + ")");
        }
    }

    /** The first JDK whose {@code Double.toString} prints the shortest digits that round back (JDK-4511638). */
    static final int FIRST_JDK_WITH_SHORTEST_DIGITS = 19;

    /**
     * @param jdkFeature a JVM's feature release, as {@code Runtime.version().feature()} (17, 21, 25...)
     * @return the {@code float.java-digits} value of that JVM's {@code Float}/{@code Double.toString}:
     *     {@code jdk17} before JDK 19 ({@code FloatingDecimal}), else {@code jdk19}
     */
    static String floatDigits(int jdkFeature) {
        return jdkFeature < FIRST_JDK_WITH_SHORTEST_DIGITS ? "jdk17" : "jdk19";
    }

    /**
     * {@code float.java-digits} must be the running JVM's ({@link #floatDigits}), whose {@code Double.toString}
     * Flink's serializer calls for small batches: set when absent, refused when it names another JDK's.
     */
    static void checkFloatDigits(Map<String, String> options, int jdkFeature) {
        String runtime = floatDigits(jdkFeature);
        String requested = options.putIfAbsent(EncoderOptions.FLOAT_JAVA_DIGITS, runtime);
        if (requested != null && !requested.equals(runtime)) {
            throw new IllegalArgumentException("option " + EncoderOptions.FLOAT_JAVA_DIGITS + "=" + requested
                    + " but this JVM (JDK " + jdkFeature + ") prints " + runtime + " digits, and Flink's serializer "
                    + "writes the batches smaller than " + NATIVE_MIN_BATCH_ROWS + " with them: leave "
                    + EncoderOptions.FLOAT_JAVA_DIGITS + " out (it defaults to " + runtime + ")");
        }
    }

    /** The major.minor of the Flink on the classpath, or null when it cannot be told. */
    private static String runtimeFlinkVersion() {
        String version = EnvironmentInformation.getVersion();
        String[] parts = version == null ? new String[0] : version.split("\\.");
        if (parts.length < 2
                || !parts[0].chars().allMatch(Character::isDigit)
                || !parts[1].chars().allMatch(Character::isDigit)) {
            return null;
        }
        return parts[0] + "." + parts[1];
    }

    /** The option names and layout rules the native encoder checks, for when there is no native library. */
    private void checkWithoutNative(
            Map<String, String> options, List<String> keyFields, String keyPrefix, boolean exceptKey, Handoff handoff) {
        if (handoff == Handoff.ARROW) {
            RowDataArrowWriter.checkSupported(rowType);
        } else {
            FlinkArrowTypes.schema(rowType);
        }
        String include = options.getOrDefault(EncoderOptions.VALUE_FIELDS_INCLUDE, "ALL");
        if (!include.equalsIgnoreCase("ALL") && !include.equalsIgnoreCase("EXCEPT_KEY")) {
            throw new IllegalArgumentException(
                    "option " + EncoderOptions.VALUE_FIELDS_INCLUDE + "=" + include + ": expected ALL or EXCEPT_KEY");
        }
        for (String name : options.keySet()) {
            // changelog.row-kind-column is set internally (upsert); plain.explicit-nulls was refused above.
            if (!EncoderOptions.NAMES.contains(name)) {
                List<String> known = new ArrayList<>(EncoderOptions.NAMES);
                known.removeAll(NOT_FOR_ROW_DATA);
                throw new IllegalArgumentException("unknown option " + name + "; known: " + known + ", "
                        + CHANGELOG_MODE + ", " + NATIVE_MIN_BATCH_ROWS + ", " + NATIVE_HANDOFF);
            }
        }
        for (String key : keyFields) {
            if (!rowType.getFieldNames().contains(key)) {
                throw new IllegalArgumentException(
                        "key.fields names `" + key + "`, which is not a field of " + rowType);
            }
            if (!key.startsWith(keyPrefix)) {
                throw new IllegalArgumentException(
                        "key field `" + key + "` does not start with key.fields-prefix `" + keyPrefix + "`");
            }
        }
        if (!keyPrefix.isEmpty() && !exceptKey) {
            throw new IllegalArgumentException("key.fields-prefix needs value.fields-include=EXCEPT_KEY");
        }
    }

    /** @return the options this encoder was created with (unmodifiable) */
    public Map<String, String> options() {
        return options;
    }

    /** @return the smallest batch encoded natively ({@code native.min-batch-rows}) */
    public int nativeMinBatchRows() {
        return nativeMinBatchRows;
    }

    /** @return true when the native library is loaded and batches of {@link #nativeMinBatchRows()} rows use it */
    public boolean nativeAvailable() {
        return nativeEncoder != null;
    }

    /**
     * Encodes one batch: one record per row, in order.
     *
     * @param rows the batch; each row has the encoder's row type (arity and field types)
     * @return the records
     * @throws NullPointerException if {@code rows} or a row is null
     * @throws IllegalStateException if this encoder is closed, or rows were {@link #append}ed and not yet
     *     flushed (the two share the vectors)
     * @throws org.streamfusion.kafka.StreamFusionException if the native encoder rejects a value (a string
     *     that is not valid UTF-8, which Flink would write as U+FFFD...); the encoder stays usable
     */
    public synchronized EncodedBatch encode(List<? extends RowData> rows) {
        Objects.requireNonNull(rows, "rows");
        if (closed) {
            throw new IllegalStateException("RowDataJsonEncoder is closed");
        }
        if (pending > 0) {
            throw new IllegalStateException(pending + " appended rows are not flushed: call flush() first");
        }
        long start = System.nanoTime();
        EncodedBatch batch;
        EncodedBatch encoded = null;
        if (nativeEncoder != null && rows.size() >= nativeMinBatchRows) {
            try {
                writer.reset();
                for (int i = 0, n = rows.size(); i < n; i++) {
                    writer.append(rows.get(i));
                }
                encoded = writer.encode(nativeEncoder);
                nativeBatches++;
            } catch (UnrepresentableValueException e) {
                // A value Flink serializes as it is but an Arrow column cannot hold: Flink's serializer
                // writes this batch, so the records do not depend on the batch size.
                encoded = null;
            }
        }
        if (encoded == null) {
            encoded = jvm.encode(rows);
            jvmBatches++;
        }
        batch = encoded;
        encodeNanos += System.nanoTime() - start;
        this.rows += batch.size();
        keyBytes += batch.keyBytes();
        valueBytes += batch.valueBytes();
        return batch;
    }

    /** True when an incremental batch can be encoded natively at all (library loaded, threshold reachable). */
    private boolean nativePossible() {
        return nativeEncoder != null && nativeMinBatchRows < Integer.MAX_VALUE;
    }

    /**
     * Adds one row to the batch being built: copied into the native batch now (when the native path is
     * possible), and copied only if Flink's serializer may have to write it (see the class comment). The encoder
     * keeps no reference to {@code row}: the caller may mutate or reuse it as soon as this returns.
     *
     * @param row a row of the encoder's row type (arity and field types); its row kind matters in upsert mode
     * @throws NullPointerException if {@code row} is null
     * @throws IllegalStateException if this encoder is closed
     */
    public synchronized void append(RowData row) {
        Objects.requireNonNull(row, "row");
        if (closed) {
            throw new IllegalStateException("RowDataJsonEncoder is closed");
        }
        long start = System.nanoTime();
        if (!nativePossible() || leftArrow) {
            kept.add(copier.copy(row));
        } else {
            if (pending == 0) {
                writer.reset();
            }
            try {
                writer.append(row);
                if (pending < nativeMinBatchRows - 1) {
                    kept.add(copier.copy(row));
                } else if (keptFromStart && !kept.isEmpty()) {
                    // The batch reaches native.min-batch-rows with this row: it will be encoded natively.
                    kept.clear();
                }
                if (pending >= nativeMinBatchRows - 1) {
                    keptFromStart = false;
                }
            } catch (UnrepresentableValueException e) {
                // A value Flink serializes as it is but an Arrow column cannot hold: this row and the rest of
                // the batch go to Flink's serializer (all of it while the copies still cover the whole batch).
                leftArrow = true;
                kept.add(copier.copy(row));
            }
        }
        pending++;
        encodeNanos += System.nanoTime() - start;
    }

    /** @return rows appended since the last {@link #flush()} */
    public synchronized int pendingRows() {
        return pending;
    }

    /**
     * Encodes the rows appended since the last flush, in order, and starts a new batch: natively in one JNI
     * crossing when the batch has at least {@code native.min-batch-rows} rows, else (or without the native
     * library) by Flink's serializer from the kept copies; after an unrepresentable value, as the class comment
     * says. With nothing appended, returns an empty batch and counts no batch.
     *
     * @return the records, one per appended row, in order
     * @throws IllegalStateException if this encoder is closed
     * @throws org.streamfusion.kafka.StreamFusionException if the native encoder rejects a value; the batch is
     *     dropped and the encoder stays usable
     */
    public synchronized EncodedBatch flush() {
        if (closed) {
            throw new IllegalStateException("RowDataJsonEncoder is closed");
        }
        if (pending == 0) {
            return EncodedBatch.ofRecords(new byte[0][], new byte[0][], 0);
        }
        long start = System.nanoTime();
        EncodedBatch batch;
        try {
            if (!nativePossible() || (keptFromStart && (leftArrow || pending < nativeMinBatchRows))) {
                batch = jvm.encode(kept);
                jvmBatches++;
            } else if (!leftArrow) {
                batch = writer.encode(nativeEncoder);
                nativeBatches++;
            } else {
                EncodedBatch head = writer.encode(nativeEncoder);
                EncodedBatch tail = jvm.encode(kept);
                nativeBatches++;
                jvmBatches++;
                batch = concat(head, tail);
            }
        } finally {
            pending = 0;
            kept.clear();
            leftArrow = false;
            keptFromStart = true;
        }
        encodeNanos += System.nanoTime() - start;
        rows += batch.size();
        keyBytes += batch.keyBytes();
        valueBytes += batch.valueBytes();
        return batch;
    }

    /** The records of {@code head} then {@code tail}, in one batch (copied: only after an unrepresentable value). */
    private static EncodedBatch concat(EncodedBatch head, EncodedBatch tail) {
        int n = head.size() + tail.size();
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        for (int i = 0; i < head.size(); i++) {
            keys[i] = head.key(i);
            values[i] = head.value(i);
        }
        for (int i = 0; i < tail.size(); i++) {
            keys[head.size() + i] = tail.key(i);
            values[head.size() + i] = tail.value(i);
        }
        return EncodedBatch.ofRecords(keys, values, head.encodeNanos() + tail.encodeNanos());
    }

    /** @return batches encoded natively so far */
    public synchronized long nativeBatches() {
        return nativeBatches;
    }

    /** @return batches encoded row by row by Flink's serializer so far */
    public synchronized long jvmBatches() {
        return jvmBatches;
    }

    /** @return rows (records) encoded so far */
    public synchronized long rows() {
        return rows;
    }

    /** @return key bytes written so far (null keys count 0) */
    public synchronized long keyBytes() {
        return keyBytes;
    }

    /** @return value bytes written so far (tombstones count 0) */
    public synchronized long valueBytes() {
        return valueBytes;
    }

    /**
     * @return wall-clock nanoseconds spent in {@link #encode}, {@link #append} and {@link #flush} so far, filling
     *     vectors and copying kept rows included
     */
    public synchronized long encodeNanos() {
        return encodeNanos;
    }

    /** Frees the native encoder and the Arrow vectors. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            closeAll(nativeEncoder, writer, allocator);
        }
    }

    private static void closeAll(AutoCloseable... resources) {
        RuntimeException first = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The values of {@code native.handoff}. */
    private enum Handoff {
        BINARY_ROWS,
        ARROW;

        static Handoff parse(String value) {
            if (value == null || value.equals("binary-rows")) {
                return BINARY_ROWS;
            }
            if (value.equals("arrow")) {
                return ARROW;
            }
            throw new IllegalArgumentException(
                    "option " + NATIVE_HANDOFF + "=" + value + ": expected binary-rows or arrow");
        }
    }

    /**
     * One native batch being filled, whichever the handoff: rows are appended as they come (not referenced
     * afterwards), then the batch crosses once.
     */
    private interface NativeBatch extends AutoCloseable {
        /** Starts a new batch. */
        void reset();

        /** Adds a row; {@link UnrepresentableValueException} leaves the batch as it was. */
        void append(RowData row);

        /** Encodes the rows appended since {@link #reset()}. */
        EncodedBatch encode(NativeJsonEncoder encoder);

        @Override
        void close();
    }

    /** The Arrow handoff: the rows are written into vectors and the root crosses flat. */
    private static final class ArrowBatch implements NativeBatch {
        private final RowDataArrowWriter writer;

        ArrowBatch(RowDataArrowWriter writer) {
            this.writer = writer;
        }

        @Override
        public void reset() {
            writer.reset();
        }

        @Override
        public void append(RowData row) {
            writer.append(row);
        }

        @Override
        public EncodedBatch encode(NativeJsonEncoder encoder) {
            return encoder.encode(writer.finish());
        }

        @Override
        public void close() {
            writer.close();
        }
    }

    /** The binary-row handoff: each row's binary form is copied into one buffer and decoded natively. */
    private static final class BinaryBatch implements NativeBatch {
        private final RowDataBinaryWriter writer;

        BinaryBatch(RowDataBinaryWriter writer) {
            this.writer = writer;
        }

        @Override
        public void reset() {
            writer.reset();
        }

        @Override
        public void append(RowData row) {
            writer.append(row);
        }

        @Override
        public EncodedBatch encode(NativeJsonEncoder encoder) {
            return writer.encode(encoder);
        }

        @Override
        public void close() {
            writer.close();
        }
    }

    @Override
    public String toString() {
        return "RowDataJsonEncoder[" + rowType + ", native batches=" + nativeBatches() + ", JVM batches=" + jvmBatches()
                + ", options=" + options + "]";
    }
}
