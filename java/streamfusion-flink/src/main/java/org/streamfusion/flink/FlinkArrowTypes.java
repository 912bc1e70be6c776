package org.streamfusion.flink;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The one mapping from Flink logical types to the Arrow types the native encoder and decoder read as those
 * Flink types ({@code docs/json-format.md}): BOOLEAN → Bool; TINYINT, SMALLINT, INT, BIGINT → Int8..Int64;
 * FLOAT → Float32; DOUBLE → Float64; CHAR, VARCHAR → Utf8; BINARY, VARBINARY → Binary; DECIMAL(p,s) →
 * Decimal128(p,s); DATE → Date32; TIME → Time32(ms) (Flink keeps milliseconds); TIMESTAMP(p) → Timestamp(ms,
 * µs or ns for p ≤ 3, ≤ 6, ≤ 9); TIMESTAMP_LTZ(p) → the same with zone {@code UTC}; INTERVAL YEAR TO MONTH →
 * Interval(YearMonth); INTERVAL DAY TO SECOND → Duration(ms); ARRAY&lt;T&gt; → List of a nullable
 * {@code element}; MAP&lt;K, V&gt; → Map (unsorted) of {@code entries} with a non-null {@code key} and a
 * nullable {@code value}; MULTISET&lt;T&gt; → the Map of T to INT counts (Flink's own representation); ROW →
 * Struct. Every field is nullable: Flink's json format reads null for a missing or null field whatever the
 * declared nullability.
 */
@Internal
public final class FlinkArrowTypes {
    private FlinkArrowTypes() {}

    /**
     * The Arrow schema of {@code rowType}: one field per Flink field, named as it.
     *
     * @throws IllegalArgumentException naming the first field (dotted path) whose type has no Arrow mapping
     */
    public static Schema schema(RowType rowType) {
        return new Schema(fields(rowType, ""));
    }

    /**
     * The Arrow schema of {@code rowType} ({@link #schema(RowType)}), with a nullable Int8 row-kind column last
     * when {@code rowKindColumn} is not null (the encoder's {@code changelog.row-kind-column}).
     *
     * @throws IllegalArgumentException naming the first field whose type has no Arrow mapping, or for a
     *     {@code rowKindColumn} that is also a field name
     */
    public static Schema schema(RowType rowType, String rowKindColumn) {
        List<Field> fields = fields(rowType, "");
        if (rowKindColumn != null) {
            if (rowType.getFieldNames().contains(rowKindColumn)) {
                throw new IllegalArgumentException(
                        "the row-kind column name `" + rowKindColumn + "` is also a field of " + rowType);
            }
            fields.add(new Field(rowKindColumn, FieldType.nullable(new ArrowType.Int(8, true)), null));
        }
        return new Schema(fields);
    }

    /**
     * The Arrow type of a type that is not nested (no ARRAY, MAP, MULTISET or ROW).
     *
     * @throws IllegalArgumentException for a type without a mapping, or a nested one
     */
    static ArrowType flatType(String path, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
                return new ArrowType.Int(32, true);
            case BIGINT:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case CHAR:
            case VARCHAR:
                return ArrowType.Utf8.INSTANCE;
            case BINARY:
            case VARBINARY:
                return ArrowType.Binary.INSTANCE;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE:
                return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new ArrowType.Timestamp(unit(((TimestampType) type).getPrecision()), null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowType.Timestamp(unit(((LocalZonedTimestampType) type).getPrecision()), "UTC");
            case INTERVAL_YEAR_MONTH:
                return new ArrowType.Interval(IntervalUnit.YEAR_MONTH);
            case INTERVAL_DAY_TIME:
                return new ArrowType.Duration(TimeUnit.MILLISECOND);
            default:
                throw new IllegalArgumentException("field `" + path + "` has type " + type
                        + ", which has no Arrow mapping here (supported: BOOLEAN, TINYINT..BIGINT, FLOAT, DOUBLE, "
                        + "CHAR, VARCHAR, BINARY, VARBINARY, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, "
                        + "INTERVAL, and ARRAY, MAP, MULTISET, ROW of them)");
        }
    }

    private static List<Field> fields(RowType rowType, String parent) {
        List<Field> fields = new ArrayList<>(rowType.getFieldCount());
        for (RowType.RowField field : rowType.getFields()) {
            fields.add(field(field.getName(), parent + field.getName(), field.getType()));
        }
        return fields;
    }

    private static Field field(String name, String path, LogicalType type) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return nested(
                        name,
                        ArrowType.List.INSTANCE,
                        field("element", path + "[]", ((ArrayType) type).getElementType()));
            case MAP:
                MapType map = (MapType) type;
                return mapField(name, path, map.getKeyType(), map.getValueType());
            case MULTISET:
                return mapField(
                        name,
                        path,
                        ((MultisetType) type).getElementType(),
                        new org.apache.flink.table.types.logical.IntType());
            case ROW:
                return new Field(
                        name, FieldType.nullable(ArrowType.Struct.INSTANCE), fields((RowType) type, path + "."));
            default:
                return new Field(name, FieldType.nullable(flatType(path, type)), null);
        }
    }

    private static Field mapField(String name, String path, LogicalType key, LogicalType value) {
        Field keyField = field("key", path + "{}", key);
        Field entries = new Field(
                "entries",
                FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(
                        new Field("key", FieldType.notNullable(keyField.getType()), keyField.getChildren()),
                        field("value", path + "{}", value)));
        return nested(name, new ArrowType.Map(false), entries);
    }

    private static Field nested(String name, ArrowType type, Field child) {
        return new Field(name, FieldType.nullable(type), List.of(child));
    }

    private static TimeUnit unit(int precision) {
        return precision <= 3 ? TimeUnit.MILLISECOND : precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }
}
