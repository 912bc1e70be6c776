package org.streamfusion.parity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.holders.NullableIntervalDayHolder;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.NullType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;

/**
 * Turns Arrow vectors into Flink's internal data structures ({@code GenericRowData}, {@code StringData},
 * {@code DecimalData}, {@code TimestampData}, ...) plus the matching Flink {@link LogicalType}. This is
 * value conversion only: no JSON is produced here. Every type is nullable, as in a Flink table without NOT
 * NULL constraints.
 */
final class ArrowColumns {
    private ArrowColumns() {}

    private static final long MILLIS_PER_DAY = 86_400_000L;

    /** One Arrow vector bound to its Flink type; {@link #get} returns Flink internal data or null. */
    abstract static class Column {
        final String name;
        final LogicalType type;

        Column(String name, LogicalType type) {
            this.name = name;
            this.type = type;
        }

        abstract Object get(int index);
    }

    /** A column whose Arrow type has no mapping; it fails when the schema is built. */
    static final class UnsupportedTypeException extends UnsupportedOperationException {
        private static final long serialVersionUID = 1L;

        UnsupportedTypeException(Field field) {
            super("Arrow type " + field.getType() + " of field '" + field.getName() + "' has no Flink mapping in the"
                    + " golden harness");
        }
    }

    interface Getter {
        Object get(int index);
    }

    private static Column column(FieldVector vector, LogicalType type, Getter getter) {
        return new Column(vector.getName(), type) {
            @Override
            Object get(int index) {
                return vector.isNull(index) ? null : getter.get(index);
            }
        };
    }

    static Column of(FieldVector v) {
        Field field = v.getField();
        if (field.getDictionary() != null) {
            throw new UnsupportedOperationException("field '" + field.getName() + "' is dictionary-encoded; the golden"
                    + " harness takes plain arrays only (Flink SQL has no dictionary type)");
        }
        ArrowType t = field.getType();
        switch (t.getTypeID()) {
            case Null: {
                // Flink's NULL type: Flink itself rejects it when the serializer is built.
                NullVector n = (NullVector) v;
                return new Column(n.getName(), new NullType()) {
                    @Override
                    Object get(int index) {
                        return null;
                    }
                };
            }
            case Bool: {
                BitVector b = (BitVector) v;
                return column(v, new BooleanType(), i -> b.get(i) != 0);
            }
            case Int: {
                ArrowType.Int it = (ArrowType.Int) t;
                if (it.getIsSigned()) {
                    switch (it.getBitWidth()) {
                        case 8:
                            return column(v, new TinyIntType(), ((TinyIntVector) v)::get);
                        case 16:
                            return column(v, new SmallIntType(), ((SmallIntVector) v)::get);
                        case 32:
                            return column(v, new IntType(), ((IntVector) v)::get);
                        case 64:
                            return column(v, new BigIntType(), ((BigIntVector) v)::get);
                        default:
                            throw new UnsupportedTypeException(field);
                    }
                }
                switch (it.getBitWidth()) {
                    case 8: {
                        UInt1Vector u = (UInt1Vector) v;
                        return column(v, new SmallIntType(), i -> (short) (u.get(i) & 0xFF));
                    }
                    case 16: {
                        UInt2Vector u = (UInt2Vector) v;
                        return column(v, new IntType(), i -> (int) u.get(i));
                    }
                    case 32: {
                        UInt4Vector u = (UInt4Vector) v;
                        return column(v, new BigIntType(), i -> u.get(i) & 0xFFFF_FFFFL);
                    }
                    default:
                        throw new UnsupportedTypeException(field);
                }
            }
            case FloatingPoint: {
                switch (((ArrowType.FloatingPoint) t).getPrecision()) {
                    case HALF:
                        return column(v, new FloatType(), ((Float2Vector) v)::getValueAsFloat);
                    case SINGLE:
                        return column(v, new FloatType(), ((Float4Vector) v)::get);
                    case DOUBLE:
                        return column(v, new DoubleType(), ((Float8Vector) v)::get);
                    default:
                        throw new UnsupportedTypeException(field);
                }
            }
            case Decimal: {
                ArrowType.Decimal d = (ArrowType.Decimal) t;
                if (d.getBitWidth() != 128) {
                    throw new UnsupportedTypeException(field);
                }
                int p = d.getPrecision();
                int s = d.getScale();
                DecimalType type = new DecimalType(p, s);
                DecimalVector dv = (DecimalVector) v;
                return column(v, type, i -> {
                    BigDecimal bd = dv.getObject(i);
                    DecimalData data = DecimalData.fromBigDecimal(bd, p, s);
                    if (data == null) {
                        throw new ArithmeticException("value " + bd + " of field '" + field.getName()
                                + "' does not fit DECIMAL(" + p + ", " + s + ")");
                    }
                    return data;
                });
            }
            case Utf8: {
                VarCharVector s = (VarCharVector) v;
                return column(v, VarCharType.STRING_TYPE, i -> StringData.fromBytes(s.get(i)));
            }
            case LargeUtf8: {
                LargeVarCharVector s = (LargeVarCharVector) v;
                return column(v, VarCharType.STRING_TYPE, i -> StringData.fromBytes(s.get(i)));
            }
            case Utf8View: {
                ViewVarCharVector s = (ViewVarCharVector) v;
                return column(v, VarCharType.STRING_TYPE, i -> StringData.fromBytes(s.get(i)));
            }
            case Binary:
                return column(v, bytesType(), ((VarBinaryVector) v)::get);
            case LargeBinary:
                return column(v, bytesType(), ((LargeVarBinaryVector) v)::get);
            case BinaryView:
                return column(v, bytesType(), ((ViewVarBinaryVector) v)::get);
            case FixedSizeBinary:
                return column(v, bytesType(), ((FixedSizeBinaryVector) v)::get);
            case Date: {
                switch (((ArrowType.Date) t).getUnit()) {
                    case DAY:
                        return column(v, new DateType(), ((DateDayVector) v)::get);
                    case MILLISECOND: {
                        DateMilliVector dm = (DateMilliVector) v;
                        return column(
                                v, new DateType(), i -> Math.toIntExact(Math.floorDiv(dm.get(i), MILLIS_PER_DAY)));
                    }
                    default:
                        throw new UnsupportedTypeException(field);
                }
            }
            case Time: {
                switch (((ArrowType.Time) t).getUnit()) {
                    case SECOND: {
                        TimeSecVector tv = (TimeSecVector) v;
                        return column(v, new TimeType(0), i -> Math.multiplyExact(tv.get(i), 1000));
                    }
                    case MILLISECOND:
                        return column(v, new TimeType(3), ((TimeMilliVector) v)::get);
                    case MICROSECOND: {
                        TimeMicroVector tv = (TimeMicroVector) v;
                        return column(v, new TimeType(6), i -> Math.toIntExact(Math.floorDiv(tv.get(i), 1_000L)));
                    }
                    case NANOSECOND: {
                        TimeNanoVector tv = (TimeNanoVector) v;
                        return column(v, new TimeType(9), i -> Math.toIntExact(Math.floorDiv(tv.get(i), 1_000_000L)));
                    }
                    default:
                        throw new UnsupportedTypeException(field);
                }
            }
            case Timestamp: {
                ArrowType.Timestamp ts = (ArrowType.Timestamp) t;
                TimeStampVector tv = (TimeStampVector) v;
                final int precision;
                final Getter g;
                switch (ts.getUnit()) {
                    case SECOND:
                        precision = 0;
                        g = i -> TimestampData.fromEpochMillis(Math.multiplyExact(tv.get(i), 1000L), 0);
                        break;
                    case MILLISECOND:
                        precision = 3;
                        g = i -> TimestampData.fromEpochMillis(tv.get(i), 0);
                        break;
                    case MICROSECOND:
                        precision = 6;
                        g = i -> {
                            long x = tv.get(i);
                            return TimestampData.fromEpochMillis(
                                    Math.floorDiv(x, 1_000L), (int) Math.floorMod(x, 1_000L) * 1_000);
                        };
                        break;
                    case NANOSECOND:
                        precision = 9;
                        g = i -> {
                            long x = tv.get(i);
                            return TimestampData.fromEpochMillis(
                                    Math.floorDiv(x, 1_000_000L), (int) Math.floorMod(x, 1_000_000L));
                        };
                        break;
                    default:
                        throw new UnsupportedTypeException(field);
                }
                LogicalType type = ts.getTimezone() == null
                        ? new TimestampType(precision)
                        : new LocalZonedTimestampType(precision);
                return column(v, type, g);
            }
            case Duration: {
                DurationVector dv = (DurationVector) v;
                final long perMilli;
                final long millisPer;
                switch (((ArrowType.Duration) t).getUnit()) {
                    case SECOND:
                        millisPer = 1000L;
                        perMilli = 1L;
                        break;
                    case MILLISECOND:
                        millisPer = 1L;
                        perMilli = 1L;
                        break;
                    case MICROSECOND:
                        millisPer = 1L;
                        perMilli = 1_000L;
                        break;
                    case NANOSECOND:
                        millisPer = 1L;
                        perMilli = 1_000_000L;
                        break;
                    default:
                        throw new UnsupportedTypeException(field);
                }
                return column(v, dayToSecond(), i -> {
                    long x = DurationVector.get(dv.getDataBuffer(), i);
                    return Math.multiplyExact(Math.floorDiv(x, perMilli), millisPer);
                });
            }
            case Interval: {
                switch (((ArrowType.Interval) t).getUnit()) {
                    case YEAR_MONTH:
                        return column(
                                v,
                                new YearMonthIntervalType(YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH),
                                ((IntervalYearVector) v)::get);
                    case DAY_TIME: {
                        IntervalDayVector iv = (IntervalDayVector) v;
                        NullableIntervalDayHolder h = new NullableIntervalDayHolder();
                        return column(v, dayToSecond(), i -> {
                            iv.get(i, h);
                            return Math.addExact(Math.multiplyExact((long) h.days, MILLIS_PER_DAY), h.milliseconds);
                        });
                    }
                    default:
                        throw new UnsupportedTypeException(field);
                }
            }
            case List:
            case LargeList:
            case FixedSizeList: {
                Column element = of((FieldVector) dataVector(v));
                ArrayType type = new ArrayType(element.type);
                return column(v, type, i -> {
                    long start = start(v, i);
                    long end = end(v, i);
                    return array(element, start, end);
                });
            }
            case Map: {
                MapVector mv = (MapVector) v;
                StructVector entries = (StructVector) mv.getDataVector();
                List<FieldVector> kv = entries.getChildrenFromFields();
                if (kv.size() != 2) {
                    throw new UnsupportedTypeException(field);
                }
                Column key = of(kv.get(0));
                Column value = of(kv.get(1));
                MapType type = new MapType(key.type, value.type);
                return column(v, type, i -> {
                    int start = mv.getElementStartIndex(i);
                    int end = mv.getElementEndIndex(i);
                    return new OrderedMapData(array(key, start, end), array(value, start, end));
                });
            }
            case Struct: {
                StructVector sv = (StructVector) v;
                List<Column> children = new ArrayList<>();
                for (FieldVector child : sv.getChildrenFromFields()) {
                    children.add(of(child));
                }
                RowType type = rowType(children);
                return column(v, type, i -> row(children, i));
            }
            default:
                throw new UnsupportedTypeException(field);
        }
    }

    static RowType rowType(List<Column> columns) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (Column c : columns) {
            fields.add(new RowType.RowField(c.name, c.type));
        }
        return new RowType(fields);
    }

    static GenericRowData row(List<Column> columns, int index) {
        GenericRowData row = new GenericRowData(columns.size());
        for (int f = 0; f < columns.size(); f++) {
            row.setField(f, columns.get(f).get(index));
        }
        return row;
    }

    private static ArrayData array(Column element, long start, long end) {
        Object[] values = new Object[Math.toIntExact(end - start)];
        for (int k = 0; k < values.length; k++) {
            values[k] = element.get(Math.toIntExact(start + k));
        }
        return new GenericArrayData(values);
    }

    private static Object dataVector(FieldVector v) {
        if (v instanceof ListVector) {
            return ((ListVector) v).getDataVector();
        } else if (v instanceof LargeListVector) {
            return ((LargeListVector) v).getDataVector();
        } else {
            return ((FixedSizeListVector) v).getDataVector();
        }
    }

    private static long start(FieldVector v, int i) {
        if (v instanceof ListVector) {
            return ((ListVector) v).getElementStartIndex(i);
        } else if (v instanceof LargeListVector) {
            return ((LargeListVector) v).getElementStartIndex(i);
        } else {
            return ((FixedSizeListVector) v).getElementStartIndex(i);
        }
    }

    private static long end(FieldVector v, int i) {
        if (v instanceof ListVector) {
            return ((ListVector) v).getElementEndIndex(i);
        } else if (v instanceof LargeListVector) {
            return ((LargeListVector) v).getElementEndIndex(i);
        } else {
            return ((FixedSizeListVector) v).getElementEndIndex(i);
        }
    }

    private static LogicalType bytesType() {
        return new VarBinaryType(VarBinaryType.MAX_LENGTH);
    }

    /** INTERVAL DAY TO SECOND(3), held by Flink as a long of milliseconds. */
    private static LogicalType dayToSecond() {
        return new DayTimeIntervalType(
                DayTimeIntervalType.DayTimeResolution.DAY_TO_SECOND, DayTimeIntervalType.DEFAULT_DAY_PRECISION, 3);
    }
}
