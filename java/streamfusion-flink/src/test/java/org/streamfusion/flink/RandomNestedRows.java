package org.streamfusion.flink;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Seeded random row types, nested to depth 3 (ARRAY, MAP with STRING keys, MULTISET of STRING, ROW, over the
 * scalar types of the json format), and seeded random rows of them as Flink's {@code GenericRowData}, with nulls at
 * every level, empty arrays and maps, and awkward text.
 */
final class RandomNestedRows {
    private static final String[] TEXT = {
        "",
        "a",
        "b c",
        "caf\u00e9",
        "\u4e2d\u6587",
        "\ud83d\ude00",
        "q\"uote",
        "back\\slash",
        "tab\there",
        "new\nline",
        "k1",
        "k2",
        "k3"
    };

    private RandomNestedRows() {}

    /** A row type of 1 to 5 fields named {@code f0}, {@code f1}..., nested up to {@code depth} more levels. */
    static RowType rowType(Random r, int depth) {
        int n = 1 + r.nextInt(5);
        List<RowType.RowField> fields = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            fields.add(new RowType.RowField("f" + i, type(r, depth)));
        }
        return new RowType(fields);
    }

    private static LogicalType type(Random r, int depth) {
        int kinds = depth > 0 ? 14 : 10;
        return switch (r.nextInt(kinds)) {
            case 0 -> new BigIntType();
            case 1 -> new IntType();
            case 2 -> new VarCharType(VarCharType.MAX_LENGTH);
            case 3 -> new BooleanType();
            case 4 -> new DoubleType();
            case 5 -> new DecimalType(10, 2);
            case 6 -> new DateType();
            case 7 -> new TimestampType(3);
            case 8 -> new LocalZonedTimestampType(3);
            case 9 -> r.nextBoolean() ? new SmallIntType() : new VarBinaryType(VarBinaryType.MAX_LENGTH);
            case 10 -> new ArrayType(type(r, depth - 1));
            case 11 -> new MapType(new VarCharType(VarCharType.MAX_LENGTH), type(r, depth - 1));
            case 12 -> new MultisetType(new VarCharType(VarCharType.MAX_LENGTH));
            default -> rowType(r, depth - 1);
        };
    }

    /** A row of {@code type}: each field null one time in six. */
    static GenericRowData row(Random r, RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value(r, type.getTypeAt(i)));
        }
        return row;
    }

    private static Object value(Random r, LogicalType type) {
        if (r.nextInt(6) == 0) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BIGINT -> r.nextInt(4) == 0 ? r.nextLong() : (long) r.nextInt(1000);
            case INTEGER -> r.nextInt();
            case SMALLINT -> (short) r.nextInt();
            case VARCHAR -> StringData.fromString(text(r));
            case BOOLEAN -> r.nextBoolean();
            case DOUBLE -> r.nextGaussian() * Math.pow(10, r.nextInt(20) - 10);
            case DECIMAL -> DecimalData.fromBigDecimal(BigDecimal.valueOf(r.nextInt(2_000_000) - 1_000_000, 2), 10, 2);
            case DATE -> r.nextInt(40_000) - 10_000;
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                TimestampData.fromEpochMillis(r.nextLong() % 253_402_300_799_000L);
            case VARBINARY -> text(r).getBytes(StandardCharsets.UTF_8);
            case ARRAY -> {
                Object[] elements = new Object[r.nextInt(5)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(r, ((ArrayType) type).getElementType());
                }
                yield new GenericArrayData(elements);
            }
            case MAP -> {
                Map<Object, Object> map = new HashMap<>();
                for (int i = r.nextInt(6); i > 0; i--) {
                    map.put(StringData.fromString(text(r) + r.nextInt(30)), value(r, ((MapType) type).getValueType()));
                }
                yield new GenericMapData(map);
            }
            case MULTISET -> {
                Map<Object, Object> map = new HashMap<>();
                for (int i = r.nextInt(6); i > 0; i--) {
                    map.put(StringData.fromString(text(r)), 1 + r.nextInt(3));
                }
                yield new GenericMapData(map);
            }
            case ROW -> row(r, (RowType) type);
            default -> throw new IllegalArgumentException("no values of " + type);
        };
    }

    private static String text(Random r) {
        return TEXT[r.nextInt(TEXT.length)];
    }
}
