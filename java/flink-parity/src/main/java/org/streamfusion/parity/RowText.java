package org.streamfusion.parity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The one-line text form of Flink's internal row data that the decode goldens ({@code .rows} files) use and
 * that the Rust side reproduces. The output is pure ASCII.
 *
 * <p>A top-level row is {@code <RowKind short string>(<field>,<field>,...)}, e.g. {@code +I(1,"a",null)}, or
 * {@code null} when Flink hands the collector a null row (an array root's element that is JSON null, or one
 * that fails under ignore-parse-errors).
 *
 * <p>Each field (and each element, key or value inside one) is written by its logical type:
 *
 * <ul>
 *   <li>null (any type): {@code null}
 *   <li>BOOLEAN: {@code true} / {@code false}
 *   <li>TINYINT, SMALLINT, INTEGER, BIGINT, INTERVAL YEAR TO MONTH (int months), INTERVAL DAY TO SECOND (long
 *       millis): the decimal number
 *   <li>FLOAT: {@code f} + the 8 lowercase hex digits of {@code Float.floatToRawIntBits} ({@code 1.0f} →
 *       {@code f3f800000})
 *   <li>DOUBLE: {@code d} + the 16 lowercase hex digits (zero-padded) of {@code Double.doubleToRawLongBits}
 *   <li>DECIMAL: {@code DecimalData.toBigDecimal().toPlainString()}
 *   <li>CHAR, VARCHAR: {@code "} + the escaped bytes of {@code StringData.toBytes()} (the UTF-8 bytes Flink
 *       stores) + {@code "}; see {@link #escape(byte[])}
 *   <li>BINARY, VARBINARY: {@code x'} + lowercase hex + {@code '}
 *   <li>DATE: the int of epoch days; TIME: the int of milliseconds of the day
 *   <li>TIMESTAMP, TIMESTAMP_LTZ: {@code ts(<getMillisecond()>,<getNanoOfMillisecond()>)}
 *   <li>ARRAY: {@code [} + the elements joined by {@code ,} + {@code ]}
 *   <li>MAP: <code>&#123;</code> + entries {@code <key>=<value>} sorted by their text (Java {@code String}
 *       order, which is byte order for this ASCII text) and joined by {@code ,} + <code>&#125;</code>;
 *       MULTISET: the same with {@code <element>=<count>}
 *   <li>ROW (nested): {@code (} + the fields joined by {@code ,} + {@code )}
 * </ul>
 */
public final class RowText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RowText() {}

    /** A top-level row: its row kind's short string, then the fields in parentheses; {@code null} for null. */
    public static String row(RowData row, RowType type) {
        if (row == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(row.getRowKind().shortString());
        appendFields(sb, row, type);
        return sb.toString();
    }

    /**
     * Escapes bytes for one line of ASCII text: a byte 0x20..0x7e other than {@code "} (0x22) and {@code \}
     * (0x5c) is written as is; every other byte as {@code \x} and two lowercase hex digits.
     */
    public static String escape(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length);
        appendEscaped(sb, bytes);
        return sb.toString();
    }

    /** {@link #escape(byte[])} of the UTF-8 bytes of {@code text} (Java's encoder: a lone surrogate is {@code ?}). */
    public static String escape(String text) {
        return escape(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void appendEscaped(StringBuilder sb, byte[] bytes) {
        for (byte b : bytes) {
            int v = b & 0xff;
            if (v >= 0x20 && v <= 0x7e && v != '"' && v != '\\') {
                sb.append((char) v);
            } else {
                sb.append("\\x").append(HEX[v >>> 4]).append(HEX[v & 0xf]);
            }
        }
    }

    private static void appendFields(StringBuilder sb, RowData row, RowType type) {
        List<LogicalType> types = type.getChildren();
        if (row.getArity() != types.size()) {
            throw new IllegalArgumentException(
                    "row of arity " + row.getArity() + " for type " + type.asSummaryString());
        }
        sb.append('(');
        for (int i = 0; i < types.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            appendValue(sb, RowData.createFieldGetter(types.get(i), i).getFieldOrNull(row), types.get(i));
        }
        sb.append(')');
    }

    private static void appendValue(StringBuilder sb, Object value, LogicalType type) {
        if (value == null) {
            sb.append("null");
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
            case INTERVAL_DAY_TIME:
                sb.append(value);
                break;
            case FLOAT:
                sb.append('f').append(String.format("%08x", Float.floatToRawIntBits((Float) value)));
                break;
            case DOUBLE:
                sb.append('d').append(String.format("%016x", Double.doubleToRawLongBits((Double) value)));
                break;
            case DECIMAL:
                sb.append(((DecimalData) value).toBigDecimal().toPlainString());
                break;
            case CHAR:
            case VARCHAR:
                sb.append('"');
                appendEscaped(sb, ((StringData) value).toBytes());
                sb.append('"');
                break;
            case BINARY:
            case VARBINARY:
                sb.append("x'");
                for (byte b : (byte[]) value) {
                    sb.append(HEX[(b >>> 4) & 0xf]).append(HEX[b & 0xf]);
                }
                sb.append('\'');
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampData ts = (TimestampData) value;
                sb.append("ts(")
                        .append(ts.getMillisecond())
                        .append(',')
                        .append(ts.getNanoOfMillisecond())
                        .append(')');
                break;
            case ARRAY:
                appendArray(sb, (ArrayData) value, ((ArrayType) type).getElementType());
                break;
            case MAP:
                MapType map = (MapType) type;
                appendMap(sb, (MapData) value, map.getKeyType(), map.getValueType());
                break;
            case MULTISET:
                appendMap(sb, (MapData) value, ((MultisetType) type).getElementType(), new IntType(false));
                break;
            case ROW:
                RowType rowType = (RowType) type;
                appendFields(sb, (RowData) value, rowType);
                break;
            default:
                throw new IllegalArgumentException("no text form for type " + type.asSummaryString());
        }
    }

    private static void appendArray(StringBuilder sb, ArrayData array, LogicalType elementType) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        sb.append('[');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            appendValue(sb, getter.getElementOrNull(array, i), elementType);
        }
        sb.append(']');
    }

    private static void appendMap(StringBuilder sb, MapData map, LogicalType keyType, LogicalType valueType) {
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(keyType);
        ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(valueType);
        List<String> entries = new ArrayList<>(map.size());
        for (int i = 0; i < map.size(); i++) {
            StringBuilder entry = new StringBuilder();
            appendValue(entry, keyGetter.getElementOrNull(keys, i), keyType);
            entry.append('=');
            appendValue(entry, valueGetter.getElementOrNull(values, i), valueType);
            entries.add(entry.toString());
        }
        Collections.sort(entries);
        sb.append('{').append(String.join(",", entries)).append('}');
    }
}
