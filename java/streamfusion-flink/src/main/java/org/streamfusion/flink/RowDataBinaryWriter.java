package org.streamfusion.flink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.NativeJsonEncoder;

/**
 * Copies a batch of Flink {@link RowData} into one growing native buffer (an {@link ArrowBuf} of the
 * allocator it is given) in Flink's own binary row format ({@link BinaryRowData}), with per-row offsets: what
 * {@link NativeJsonEncoder#encodeBinaryRows(Schema, int, ArrowBuf, int, int[], int)} decodes natively, in place,
 * so no Arrow vector is filled on the JVM and the batch is not copied again on its way in. Each row is
 * serialized by {@link RowDataSerializer#toBinaryRow} (a {@code BinaryRowData} is taken as it is) and its bytes
 * copied at once; the buffers are allocated once and grow (doubling) to the largest batch, and are freed by
 * {@link #close()}. A batch is written all at once ({@link #write}) or row by row as rows arrive
 * ({@link #reset}, {@link #append}), then encoded ({@link #encode}).
 *
 * <p><b>Types.</b> Those of {@link RowDataArrowWriter}, with the same Arrow schema, and ARRAY, MAP, MULTISET
 * and ROW of them to any depth ({@link FlinkArrowTypes}), so the native encoder writes the same bytes from
 * either handoff: the native side reads each binary field, nested arrays, maps and rows included, as its Arrow
 * type says (the layout: {@code streamfusion_json::ffi}, module {@code binary_row}). The row kind is the binary
 * row's header byte; with a row-kind column it fills that column natively.
 *
 * <p><b>Values.</b> Binary rows hold every value at its declared precision, but {@code toBinaryRow} drops what
 * its type does not declare, and an Arrow column is narrower than Flink's non-compact timestamps, so the
 * values {@link RowDataArrowWriter} refuses are refused here too, with {@link UnrepresentableValueException}
 * naming the column and row, never truncated: a {@link TimestampData} with finer digits than its column (for a
 * TIMESTAMP(0..3) only in rows that are not already binary, whose compact form holds milliseconds only), a
 * TIMESTAMP(4..9) outside the 64-bit range of its column's unit (Arrow's 64-bit nanoseconds: the years
 * 1677..2262), and, in rows that are not already binary, a {@link DecimalData} whose precision or scale is not
 * its column's (the binary form would reinterpret its unscaled value at the declared scale). The same values
 * inside nested columns are refused the same way, in binary rows too. A null map key (which an Arrow map
 * cannot hold) is refused too, unless the native encoder applies {@code map-null-key.mode} to it as it reads the
 * map ({@code nullMapKeysNative}: the encoder's key and value rows share one mode), as Flink's serializer would.
 *
 * <p>Not thread-safe: one writer per task.
 */
@Internal
public final class RowDataBinaryWriter implements AutoCloseable {
    /** Checks that field {@code pos} of {@code row} (known non-null) has a binary form that loses nothing. */
    @FunctionalInterface
    private interface ValueCheck {
        void check(RowData row, int pos, int index);
    }

    private final RowType rowType;
    private final Schema schema;
    private final int arity;
    private final RowDataSerializer serializer;
    /** Fields whose values need {@link ValueCheck}s, and those checks, in field order. */
    private final int[] checked;

    private final ValueCheck[] checks;
    /** For each checked field, whether a {@link BinaryRowData} needs the check too. */
    private final boolean[] checkBinary;

    private final BufferAllocator allocator;
    /** The batch's rows, {@link #length} bytes from byte 0; null once closed. */
    private ArrowBuf bytes;
    /** A row whose bytes are not in one heap segment is gathered here first. */
    private byte[] gather = new byte[0];

    private int length;
    /** Row {@code i} of the batch spans {@code offsets[i]..offsets[i + 1]} of {@link #bytes}. */
    private int[] offsets = new int[65];
    /** Rows of the current batch copied so far. */
    private int appended;

    /**
     * A writer for rows of {@code rowType}, whose buffer comes from {@code allocator}.
     *
     * @param rowType the rows' type (field names become the Arrow field names)
     * @param allocator the allocator of the rows' buffer (4 KiB at first, then as large as the largest batch);
     *     it must outlive this writer
     * @param rowKindColumn the name of the Int8 column that receives each row's {@code RowKind} byte natively
     *     (as {@link RowDataArrowWriter}'s), or null for none
     * @param nullMapKeysNative true when the encoder the rows go to applies {@code map-null-key.mode} to null
     *     map keys itself ({@link org.streamfusion.kafka.NativeJsonEncoder#appliesNullMapKeys()}): maps are then
     *     not looked at here; false to refuse a null map key with
     *     {@link UnrepresentableValueException}, as the Arrow handoff must
     * @throws IllegalArgumentException for a type without an Arrow mapping ({@link FlinkArrowTypes}, naming the
     *     field and type), or a {@code rowKindColumn} that is also a field name
     */
    public RowDataBinaryWriter(
            RowType rowType, BufferAllocator allocator, String rowKindColumn, boolean nullMapKeysNative) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.schema = FlinkArrowTypes.schema(rowType, rowKindColumn);
        this.arity = rowType.getFieldCount();
        this.serializer = new RowDataSerializer(rowType);
        List<Integer> fields = new ArrayList<>();
        List<ValueCheck> valueChecks = new ArrayList<>();
        List<Boolean> binary = new ArrayList<>();
        for (int pos = 0; pos < arity; pos++) {
            RowType.RowField field = rowType.getFields().get(pos);
            LogicalType type = field.getType();
            switch (type.getTypeRoot()) {
                case DECIMAL:
                    fields.add(pos);
                    valueChecks.add(decimal(field.getName(), (DecimalType) type));
                    binary.add(false);
                    break;
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    int precision = type instanceof TimestampType
                            ? ((TimestampType) type).getPrecision()
                            : ((LocalZonedTimestampType) type).getPrecision();
                    fields.add(pos);
                    valueChecks.add(timestamp(field.getName(), precision));
                    binary.add(precision > 3);
                    break;
                case ARRAY:
                case MAP:
                case MULTISET:
                case ROW:
                    NestedCheck nested = nestedCheck(field.getName(), type, nullMapKeysNative);
                    if (nested != null) {
                        RowData.FieldGetter getter = RowData.createFieldGetter(type, pos);
                        fields.add(pos);
                        valueChecks.add((row, at, index) -> nested.check(getter.getFieldOrNull(row), index));
                        binary.add(true);
                    }
                    break;
                default:
                    break;
            }
        }
        this.checked = fields.stream().mapToInt(Integer::intValue).toArray();
        this.checks = valueChecks.toArray(new ValueCheck[0]);
        this.checkBinary = new boolean[binary.size()];
        for (int i = 0; i < checkBinary.length; i++) {
            checkBinary[i] = binary.get(i);
        }
        this.bytes = allocator.buffer(4096);
    }

    /** @return the Flink row type this writer was built for */
    public RowType rowType() {
        return rowType;
    }

    /** @return the Arrow schema sent with the rows (the same object for every batch) */
    public Schema schema() {
        return schema;
    }

    /**
     * Replaces the batch with {@code rows}, in order; the same as {@link #reset()} then {@link #append} of each.
     *
     * @param rows the batch; every row has {@code rowType}'s arity
     * @return this writer, holding exactly {@code rows.size()} rows
     * @throws NullPointerException if {@code rows} or one of its rows is null
     * @throws UnrepresentableValueException for a value its column cannot hold exactly (see the class comment)
     */
    public RowDataBinaryWriter write(List<? extends RowData> rows) {
        Objects.requireNonNull(rows, "rows");
        reset();
        int n = rows.size();
        for (int index = 0; index < n; index++) {
            append(rows.get(index));
        }
        return this;
    }

    /** Starts a new batch: the next {@link #append} copies row 0 (the buffers are kept). */
    public void reset() {
        appended = 0;
        length = 0;
    }

    /**
     * Copies {@code row}'s binary form as row {@link #appended()} of the current batch, now: the writer keeps
     * no reference to it, so the caller may reuse or mutate the instance afterwards (Flink's object reuse).
     *
     * @param row a row of {@code rowType}'s arity
     * @throws NullPointerException if {@code row} is null
     * @throws UnrepresentableValueException for a value its column cannot hold exactly (see the class comment);
     *     the row is then not appended ({@link #appended()} is unchanged) and the batch so far stays valid
     * @throws IllegalStateException if the batch's rows would pass 2^31 - 1 bytes (the limit of the offsets), or
     *     this writer is closed
     */
    public void append(RowData row) {
        Objects.requireNonNull(row, "row");
        ensureOpen();
        boolean binary = row instanceof BinaryRowData;
        for (int c = 0; c < checked.length; c++) {
            int pos = checked[c];
            if ((!binary || checkBinary[c]) && !row.isNullAt(pos)) {
                checks[c].check(row, pos, appended);
            }
        }
        BinaryRowData form = serializer.toBinaryRow(row);
        int size = form.getSizeInBytes();
        if (size > Integer.MAX_VALUE - 8 - length) {
            throw new IllegalStateException(
                    "binary rows: the batch would pass 2^31 - 1 bytes at row " + appended + "; flush smaller batches");
        }
        if (length + size > bytes.capacity()) {
            grow(Math.min(Integer.MAX_VALUE - 8, Math.max(2L * bytes.capacity(), (long) length + size)));
        }
        copy(form.getSegments(), form.getOffset(), size);
        if (appended + 2 > offsets.length) {
            offsets = Arrays.copyOf(offsets, 2 * offsets.length);
        }
        offsets[appended] = length;
        length += size;
        appended++;
        offsets[appended] = length;
    }

    /** @return rows copied into the current batch since the last {@link #reset()} */
    public int appended() {
        return appended;
    }

    /**
     * Encodes the current batch with {@code encoder} in one JNI crossing, the rows read in place
     * ({@link NativeJsonEncoder#encodeBinaryRows(Schema, int, ArrowBuf, int, int[], int)}). The batch stays in
     * this writer until the next {@link #reset()}.
     *
     * @param encoder an open native encoder
     * @return the records, one per appended row, in order
     * @throws IllegalStateException if this writer is closed
     * @throws org.streamfusion.kafka.StreamFusionException as {@code encodeBinaryRows} throws
     */
    public EncodedBatch encode(NativeJsonEncoder encoder) {
        ensureOpen();
        offsets[appended] = length;
        return encoder.encodeBinaryRows(schema, arity, bytes, length, offsets, appended);
    }

    /** Frees the rows' buffer; the writer is unusable afterwards. Idempotent. */
    @Override
    public void close() {
        if (bytes != null) {
            bytes.close();
            bytes = null;
        }
    }

    private void ensureOpen() {
        if (bytes == null) {
            throw new IllegalStateException("RowDataBinaryWriter is closed");
        }
    }

    /** Replaces the buffer with one of {@code capacity} bytes holding the batch so far. */
    private void grow(long capacity) {
        ArrowBuf larger = allocator.buffer(capacity);
        larger.setBytes(0, bytes, 0, length);
        bytes.close();
        bytes = larger;
    }

    /**
     * Copies the {@code size} bytes at {@code offset} of {@code segments} (Flink's view of a row, which may span
     * segments) to byte {@link #length} of the buffer: straight from a heap segment's array, else gathered
     * first ({@link BinarySegmentUtils#copyToBytes}).
     */
    private void copy(MemorySegment[] segments, int offset, int size) {
        MemorySegment first = segments[0];
        if (!first.isOffHeap() && offset + size <= first.size()) {
            bytes.setBytes(length, first.getArray(), offset, size);
            return;
        }
        if (gather.length < size) {
            gather = new byte[Math.max(size, 2 * gather.length)];
        }
        BinarySegmentUtils.copyToBytes(segments, offset, gather, 0, size);
        bytes.setBytes(length, gather, 0, size);
    }

    private static ValueCheck decimal(String name, DecimalType type) {
        int precision = type.getPrecision();
        int scale = type.getScale();
        return (row, pos, i) -> checkDecimal(row.getDecimal(pos, precision, scale), name, type, i);
    }

    private static void checkDecimal(DecimalData d, String name, DecimalType type, int index) {
        if (d.scale() != type.getScale() || d.precision() != type.getPrecision()) {
            throw new UnrepresentableValueException("field `" + name + "` row " + index + ": " + d + " is a DECIMAL("
                    + d.precision() + ", " + d.scale() + "), its column DECIMAL(" + type.getPrecision() + ", "
                    + type.getScale() + ")");
        }
    }

    private static ValueCheck timestamp(String name, int precision) {
        return (row, pos, i) -> checkTimestamp(row.getTimestamp(pos, precision), name, precision, i);
    }

    private static void checkTimestamp(TimestampData t, String name, int precision, int index) {
        long perMilli = precision <= 3 ? 1 : precision <= 6 ? 1_000 : 1_000_000;
        int nanosPerUnit = (int) (1_000_000 / perMilli);
        if (t.getNanoOfMillisecond() % nanosPerUnit != 0) {
            throw new UnrepresentableValueException("field `" + name + "` row " + index + ": " + t
                    + " has digits beyond the column's precision " + precision);
        }
        try {
            Math.addExact(Math.multiplyExact(t.getMillisecond(), perMilli), t.getNanoOfMillisecond() / nanosPerUnit);
        } catch (ArithmeticException e) {
            throw new UnrepresentableValueException("field `" + name + "` row " + index + ": " + t
                    + " is outside the range of 64-bit " + (perMilli == 1_000_000 ? "nanoseconds" : "microseconds"));
        }
    }

    /** Checks a non-null value of a nested column's type, or a part of it, for what the binary form cannot carry. */
    @FunctionalInterface
    private interface NestedCheck {
        void check(Object value, int index);
    }

    /**
     * The check of the values of {@code type} at {@code path} (a dotted path: {@code tags[]}, {@code attrs{}},
     * {@code point.x}), or null when none of its values needs one: the decimal and timestamp checks of flat
     * columns, anywhere inside, and, unless {@code nullKeysNative}, no null key in any map or multiset.
     */
    private static NestedCheck nestedCheck(String path, LogicalType type, boolean nullKeysNative) {
        switch (type.getTypeRoot()) {
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return (value, index) -> checkDecimal((DecimalData) value, path, decimal, index);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int precision = type instanceof TimestampType
                        ? ((TimestampType) type).getPrecision()
                        : ((LocalZonedTimestampType) type).getPrecision();
                return (value, index) -> checkTimestamp((TimestampData) value, path, precision, index);
            case ARRAY:
                LogicalType elementType = ((ArrayType) type).getElementType();
                NestedCheck element = nestedCheck(path + "[]", elementType, nullKeysNative);
                if (element == null) {
                    return null;
                }
                ArrayData.ElementGetter elements = ArrayData.createElementGetter(elementType);
                return (value, index) -> {
                    ArrayData array = (ArrayData) value;
                    for (int i = 0, n = array.size(); i < n; i++) {
                        Object e = elements.getElementOrNull(array, i);
                        if (e != null) {
                            element.check(e, index);
                        }
                    }
                };
            case MAP:
            case MULTISET:
                LogicalType keyType = type instanceof MapType
                        ? ((MapType) type).getKeyType()
                        : ((MultisetType) type).getElementType();
                LogicalType valueType = type instanceof MapType ? ((MapType) type).getValueType() : new IntType();
                NestedCheck key = nestedCheck(path + "{}", keyType, nullKeysNative);
                NestedCheck entry = nestedCheck(path + "{}", valueType, nullKeysNative);
                if (nullKeysNative && key == null && entry == null) {
                    return null;
                }
                ArrayData.ElementGetter keys = ArrayData.createElementGetter(keyType);
                ArrayData.ElementGetter values = ArrayData.createElementGetter(valueType);
                return (value, index) -> {
                    MapData map = (MapData) value;
                    ArrayData keyArray = map.keyArray();
                    ArrayData valueArray = map.valueArray();
                    for (int i = 0, n = map.size(); i < n; i++) {
                        if (keyArray.isNullAt(i)) {
                            if (!nullKeysNative) {
                                throw new UnrepresentableValueException("field `" + path + "` row " + index
                                        + ": a null map key, which an Arrow map cannot hold (Flink's serializer "
                                        + "applies map-null-key.mode to it)");
                            }
                        } else if (key != null) {
                            key.check(keys.getElementOrNull(keyArray, i), index);
                        }
                        Object v = entry == null ? null : values.getElementOrNull(valueArray, i);
                        if (v != null) {
                            entry.check(v, index);
                        }
                    }
                };
            case ROW:
                RowType rowType = (RowType) type;
                List<NestedCheck> checks = new ArrayList<>();
                List<RowData.FieldGetter> getters = new ArrayList<>();
                for (int f = 0; f < rowType.getFieldCount(); f++) {
                    NestedCheck field = nestedCheck(
                            path + "." + rowType.getFieldNames().get(f), rowType.getTypeAt(f), nullKeysNative);
                    if (field != null) {
                        checks.add(field);
                        getters.add(RowData.createFieldGetter(rowType.getTypeAt(f), f));
                    }
                }
                if (checks.isEmpty()) {
                    return null;
                }
                return (value, index) -> {
                    RowData row = (RowData) value;
                    for (int c = 0; c < checks.size(); c++) {
                        Object v = getters.get(c).getFieldOrNull(row);
                        if (v != null) {
                            checks.get(c).check(v, index);
                        }
                    }
                };
            default:
                return null;
        }
    }
}
