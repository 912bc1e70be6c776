package org.streamfusion.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Writes a batch of Flink {@link RowData} into Arrow Java vectors: the columnar form the native encoder reads
 * ({@code RowDataJsonEncoder} with {@code native.handoff=arrow}; by default it hands over binary rows instead,
 * {@link RowDataBinaryWriter}, which the native side decodes into the same columns). One writer owns one {@link VectorSchemaRoot}
 * and refills it for every batch, so buffers are allocated once and grow to the largest batch. A batch is
 * written all at once ({@link #write}) or row by row as rows arrive ({@link #reset}, {@link #append},
 * {@link #finish}).
 *
 * <p><b>Types.</b> Each Flink type becomes the Arrow type the native encoder writes as that Flink type
 * ({@code docs/json-format.md}): BOOLEAN → Bool; TINYINT, SMALLINT, INT, BIGINT → Int8..Int64; FLOAT →
 * Float32; DOUBLE → Float64; CHAR, VARCHAR → Utf8; BINARY, VARBINARY → Binary; DECIMAL(p,s) → Decimal128(p,s);
 * DATE → Date32; TIME → Time32(ms) (Flink keeps milliseconds); TIMESTAMP(p) → Timestamp(ms, µs or ns for
 * p ≤ 3, ≤ 6, ≤ 9); TIMESTAMP_LTZ(p) → the same with zone {@code UTC}; INTERVAL YEAR TO MONTH → Interval(YearMonth);
 * INTERVAL DAY TO SECOND → Duration(ms). ARRAY, MAP, MULTISET, ROW and the other types are rejected by the
 * constructor (fill an Arrow root yourself and use {@code NativeJsonEncoder} for those). Every Arrow field is
 * nullable; a null field becomes a null slot.
 *
 * <p><b>Values.</b> Values are written at their column's precision and scale. A value the column cannot
 * hold exactly is rejected with {@link UnrepresentableValueException} naming the column and row, never
 * truncated: a {@link TimestampData} with finer digits than its column declares, a TIMESTAMP(7..9) outside the
 * years 1677..2262 (Arrow's 64-bit nanoseconds), a {@link DecimalData} whose scale is not its column's (the
 * last two are legal in Flink, which serializes them as they are; {@link RowDataJsonEncoder} then encodes that
 * batch with Flink's serializer).
 *
 * <p>Not thread-safe: one writer per task.
 */
@Internal
public final class RowDataArrowWriter implements AutoCloseable {
    /** Writes field {@code pos} of {@code row} (known non-null) into slot {@code index} of its vector. */
    @FunctionalInterface
    private interface ValueWriter {
        void write(RowData row, int pos, int index);
    }

    private final RowType rowType;
    private final VectorSchemaRoot root;
    private final FieldVector[] vectors;
    private final ValueWriter[] writers;
    private final TinyIntVector rowKinds;
    private final List<BaseVariableWidthVector> variableWidth = new ArrayList<>();
    /** Rows of the current batch written so far. */
    private int appended;

    /**
     * A writer for rows of {@code rowType}, its vectors allocated from {@code allocator}.
     *
     * @param rowType the rows' type (field names become the Arrow field names)
     * @param allocator the allocator of the root's buffers; the caller closes it after this writer
     * @param rowKindColumn the name of an extra Int8 column holding each row's {@code RowKind} byte value
     *     (0 {@code +I}, 1 {@code -U}, 2 {@code +U}, 3 {@code -D}), appended after the row's fields; or null
     *     for none
     * @throws IllegalArgumentException for a type listed above as rejected (naming the field and type), or a
     *     {@code rowKindColumn} that is also a field name
     */
    public RowDataArrowWriter(RowType rowType, BufferAllocator allocator, String rowKindColumn) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        Objects.requireNonNull(allocator, "allocator");
        List<RowType.RowField> fields = rowType.getFields();
        this.root = VectorSchemaRoot.create(schema(rowType, rowKindColumn), allocator);
        this.vectors = new FieldVector[fields.size()];
        this.writers = new ValueWriter[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            vectors[i] = root.getVector(i);
            writers[i] = writer(fields.get(i), vectors[i]);
        }
        this.rowKinds = rowKindColumn == null ? null : (TinyIntVector) root.getVector(fields.size());
        for (FieldVector vector : vectors) {
            if (vector instanceof BaseVariableWidthVector) {
                variableWidth.add((BaseVariableWidthVector) vector);
            }
        }
    }

    /** @return the root the batches are written into (owned by this writer; read it, do not close it) */
    public VectorSchemaRoot root() {
        return root;
    }

    /** @return the Flink row type this writer was built for */
    public RowType rowType() {
        return rowType;
    }

    /**
     * Replaces the root's contents with {@code rows}, in order: row {@code i} of the list is row {@code i} of
     * the root. Buffers are reused and grow as needed. The same as {@link #reset()}, {@link #append} of each row,
     * then {@link #finish()}.
     *
     * @param rows the batch; every row has {@code rowType}'s arity
     * @return the root, holding exactly {@code rows.size()} rows
     * @throws NullPointerException if {@code rows} or one of its rows is null
     * @throws UnrepresentableValueException for a value its column cannot hold exactly (see the class comment)
     */
    public VectorSchemaRoot write(List<? extends RowData> rows) {
        Objects.requireNonNull(rows, "rows");
        reset();
        int n = rows.size();
        for (int index = 0; index < n; index++) {
            append(rows.get(index));
        }
        return finish();
    }

    /**
     * Starts a new batch: the next {@link #append} writes row 0. Buffers are kept (not zeroed: every slot below
     * the next row count is written, value and validity bit or the validity bit cleared, and the row count hides
     * the rest; a variable-width vector only forgets its last written slot so its offsets restart at 0).
     */
    public void reset() {
        for (BaseVariableWidthVector vector : variableWidth) {
            vector.setLastSet(-1);
        }
        appended = 0;
    }

    /**
     * Writes {@code row} into the vectors as row {@link #appended()} of the current batch, now: the writer keeps
     * no reference to it, so the caller may reuse or mutate the instance afterwards (Flink's object reuse).
     * Buffers grow as needed.
     *
     * @param row a row of {@code rowType}'s arity
     * @throws NullPointerException if {@code row} is null
     * @throws UnrepresentableValueException for a value its column cannot hold exactly (see the class comment);
     *     the row is then not appended ({@link #appended()} is unchanged) and the batch so far stays valid
     */
    public void append(RowData row) {
        Objects.requireNonNull(row, "row");
        int index = appended;
        for (int pos = 0; pos < writers.length; pos++) {
            if (row.isNullAt(pos)) {
                vectors[pos].setNull(index);
            } else {
                writers[pos].write(row, pos, index);
            }
        }
        if (rowKinds != null) {
            rowKinds.setSafe(index, row.getRowKind().toByteValue());
        }
        appended = index + 1;
    }

    /** @return rows appended to the current batch since the last {@link #reset()} */
    public int appended() {
        return appended;
    }

    /**
     * Ends the current batch: sets the root's row count to {@link #appended()}. Call {@link #reset()} before the
     * next batch's first {@link #append}.
     *
     * @return the root, holding the appended rows in order
     */
    public VectorSchemaRoot finish() {
        root.setRowCount(appended);
        return root;
    }

    /** Closes the root (frees its buffers). */
    @Override
    public void close() {
        root.close();
    }

    /**
     * The Arrow schema of {@code rowType}'s rows: one nullable field per Flink field, of the type the class
     * comment gives it, and the Int8 row-kind column last when {@code rowKindColumn} is not null. The schema
     * of this writer's root: {@link FlinkArrowTypes#schema(RowType, String)} of a row type without nested
     * fields, which {@link RowDataBinaryWriter} sends with its binary rows.
     *
     * @param rowType the rows' type (field names become the Arrow field names)
     * @param rowKindColumn the name of the row-kind column, or null for none
     * @return the schema
     * @throws IllegalArgumentException for a type without an Arrow mapping (naming the field and type), or a
     *     {@code rowKindColumn} that is also a field name
     */
    static Schema schema(RowType rowType, String rowKindColumn) {
        checkSupported(rowType);
        return FlinkArrowTypes.schema(rowType, rowKindColumn);
    }

    /**
     * Checks that every field of {@code rowType} has an Arrow mapping, as the constructor does.
     *
     * @param rowType the rows' type
     * @throws IllegalArgumentException naming the first field whose type has none
     */
    public static void checkSupported(RowType rowType) {
        rowType.getFields().forEach(RowDataArrowWriter::arrowType);
    }

    private static ArrowType arrowType(RowType.RowField field) {
        LogicalType type = field.getType();
        switch (type.getTypeRoot()) {
            case ARRAY:
            case MAP:
            case MULTISET:
            case ROW:
                throw new IllegalArgumentException("field `" + field.getName() + "` has type " + type
                        + ", which the RowData Arrow writer does not support (supported: BOOLEAN, TINYINT.."
                        + "BIGINT, FLOAT, DOUBLE, CHAR, VARCHAR, BINARY, VARBINARY, DECIMAL, DATE, TIME, "
                        + "TIMESTAMP, TIMESTAMP_LTZ, INTERVAL); fill an Arrow root and use NativeJsonEncoder");
            default:
                return FlinkArrowTypes.flatType(field.getName(), type);
        }
    }

    private static ValueWriter writer(RowType.RowField field, FieldVector vector) {
        LogicalType type = field.getType();
        switch (type.getTypeRoot()) {
            case BOOLEAN: {
                BitVector v = (BitVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getBoolean(pos) ? 1 : 0);
            }
            case TINYINT: {
                TinyIntVector v = (TinyIntVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getByte(pos));
            }
            case SMALLINT: {
                SmallIntVector v = (SmallIntVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getShort(pos));
            }
            case INTEGER: {
                IntVector v = (IntVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getInt(pos));
            }
            case BIGINT: {
                BigIntVector v = (BigIntVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getLong(pos));
            }
            case FLOAT: {
                Float4Vector v = (Float4Vector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getFloat(pos));
            }
            case DOUBLE: {
                Float8Vector v = (Float8Vector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getDouble(pos));
            }
            case CHAR:
            case VARCHAR: {
                VarCharVector v = (VarCharVector) vector;
                return (row, pos, i) -> writeString(v, i, row.getString(pos));
            }
            case BINARY:
            case VARBINARY: {
                VarBinaryVector v = (VarBinaryVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getBinary(pos));
            }
            case DECIMAL: {
                DecimalVector v = (DecimalVector) vector;
                DecimalType decimal = (DecimalType) type;
                int precision = decimal.getPrecision();
                int scale = decimal.getScale();
                return (row, pos, i) -> {
                    DecimalData d = row.getDecimal(pos, precision, scale);
                    if (d.scale() != scale) {
                        throw new UnrepresentableValueException("field `" + field.getName() + "` row " + i
                                + ": " + d + " has scale " + d.scale() + ", its column DECIMAL(" + precision + ", "
                                + scale + ")");
                    }
                    if (d.isCompact()) {
                        v.setSafe(i, d.toUnscaledLong());
                    } else {
                        v.setSafe(i, d.toBigDecimal());
                    }
                };
            }
            case DATE: {
                DateDayVector v = (DateDayVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getInt(pos));
            }
            case TIME_WITHOUT_TIME_ZONE: {
                TimeMilliVector v = (TimeMilliVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getInt(pos));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(field.getName(), (TimeStampVector) vector, ((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(
                        field.getName(), (TimeStampVector) vector, ((LocalZonedTimestampType) type).getPrecision());
            case INTERVAL_YEAR_MONTH: {
                IntervalYearVector v = (IntervalYearVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getInt(pos));
            }
            case INTERVAL_DAY_TIME: {
                DurationVector v = (DurationVector) vector;
                return (row, pos, i) -> v.setSafe(i, row.getLong(pos));
            }
            default:
                throw new AssertionError("arrowType accepted " + type);
        }
    }

    /**
     * Copies the UTF-8 bytes straight from a {@link BinaryStringData}'s heap segment when it has one (the
     * form rows take in Flink's network stack); otherwise from {@link StringData#toBytes()}.
     */
    private static void writeString(VarCharVector v, int index, StringData s) {
        if (s instanceof BinaryStringData) {
            BinaryStringData b = (BinaryStringData) s;
            MemorySegment[] segments = b.getSegments();
            if (segments.length == 1 && !segments[0].isOffHeap()) {
                v.setSafe(index, segments[0].getArray(), b.getOffset(), b.getSizeInBytes());
                return;
            }
        }
        byte[] bytes = s.toBytes();
        v.setSafe(index, bytes, 0, bytes.length);
    }

    private static ValueWriter timestamp(String name, TimeStampVector v, int precision) {
        long perMilli = precision <= 3 ? 1 : precision <= 6 ? 1_000 : 1_000_000;
        int nanosPerUnit = (int) (1_000_000 / perMilli);
        return (row, pos, i) -> {
            TimestampData t = row.getTimestamp(pos, precision);
            int nanoOfMilli = t.getNanoOfMillisecond();
            if (nanoOfMilli % nanosPerUnit != 0) {
                throw new UnrepresentableValueException("field `" + name + "` row " + i + ": " + t
                        + " has digits beyond the column's precision " + precision);
            }
            long value;
            try {
                value = Math.addExact(Math.multiplyExact(t.getMillisecond(), perMilli), nanoOfMilli / nanosPerUnit);
            } catch (ArithmeticException e) {
                throw new UnrepresentableValueException(
                        "field `" + name + "` row " + i + ": " + t + " is outside the range of 64-bit "
                                + (perMilli == 1_000_000 ? "nanoseconds" : "microseconds"));
            }
            v.setSafe(i, value);
        };
    }
}
