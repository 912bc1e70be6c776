package org.streamfusion.flink;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The reference of the parity and property tests: Flink 2.2's {@link JsonRowDataSerializationSchema}, built here
 * directly with the options a Kafka table's {@code json} format passes it (the key row's {@code key.*} ones
 * where given), applied to each row's key and value
 * projection (rows copied field by field), with the Kafka connector's layout ({@code key.fields},
 * {@code key.fields-prefix}, {@code value.fields-include}) and upsert's tombstones.
 */
final class FlinkReference {

    private final JsonRowDataSerializationSchema keySchema;
    private final JsonRowDataSerializationSchema valueSchema;
    private final int[] keyPositions;
    private final int[] valuePositions;
    private final RowData.FieldGetter[] getters;
    private final boolean upsert;

    FlinkReference(RowType type, Map<String, String> options) throws Exception {
        TimestampFormat ts = TimestampFormat.valueOf(
                options.getOrDefault("timestamp-format.standard", "SQL").replace('-', '_'));
        boolean plain = Boolean.parseBoolean(options.getOrDefault("encode.decimal-as-plain-number", "false"));
        boolean ignoreNulls = Boolean.parseBoolean(options.getOrDefault("encode.ignore-null-fields", "false"));
        // The key row's own (the encoder's key.* options), as a table's key.json.* beside value.json.*.
        TimestampFormat keyTs = options.containsKey("key.timestamp-format.standard")
                ? TimestampFormat.valueOf(
                        options.get("key.timestamp-format.standard").replace('-', '_'))
                : ts;
        boolean keyPlain = options.containsKey("key.encode.decimal-as-plain-number")
                ? Boolean.parseBoolean(options.get("key.encode.decimal-as-plain-number"))
                : plain;
        boolean keyIgnoreNulls = options.containsKey("key.encode.ignore-null-fields")
                ? Boolean.parseBoolean(options.get("key.encode.ignore-null-fields"))
                : ignoreNulls;
        NullKeys nullKeys = new NullKeys(
                options.getOrDefault("map-null-key.mode", "FAIL"),
                options.getOrDefault("map-null-key.literal", "null"));
        NullKeys keyNullKeys = new NullKeys(
                options.getOrDefault("key.map-null-key.mode", nullKeys.mode.name()),
                options.getOrDefault("key.map-null-key.literal", nullKeys.literal));
        String prefix = options.getOrDefault("key.fields-prefix", "");
        List<String> keys = options.containsKey("key.fields")
                ? List.of(options.get("key.fields").split(";"))
                : List.of();
        boolean exceptKey = options.getOrDefault("value.fields-include", "ALL").equals("EXCEPT_KEY");
        List<String> names = type.getFieldNames();
        keyPositions = keys.stream().mapToInt(names::indexOf).toArray();
        List<RowType.RowField> keyFields = new ArrayList<>();
        for (int k = 0; k < keyPositions.length; k++) {
            keyFields.add(
                    new RowType.RowField(keys.get(k).substring(prefix.length()), type.getTypeAt(keyPositions[k])));
        }
        List<Integer> values = new ArrayList<>();
        List<RowType.RowField> valueFields = new ArrayList<>();
        for (int p = 0; p < names.size(); p++) {
            if (!(exceptKey && keys.contains(names.get(p)))) {
                values.add(p);
                valueFields.add(type.getFields().get(p));
            }
        }
        valuePositions = values.stream().mapToInt(Integer::intValue).toArray();
        getters = new RowData.FieldGetter[names.size()];
        for (int p = 0; p < names.size(); p++) {
            getters[p] = RowData.createFieldGetter(type.getTypeAt(p), p);
        }
        keySchema =
                keyFields.isEmpty() ? null : open(new RowType(keyFields), keyTs, keyNullKeys, keyPlain, keyIgnoreNulls);
        valueSchema = open(new RowType(valueFields), ts, nullKeys, plain, ignoreNulls);
        upsert = "upsert".equals(options.get("changelog.mode"));
    }

    /** A row's {@code map-null-key.mode} (any case, as the json format takes it) and literal. */
    private static final class NullKeys {
        final JsonFormatOptions.MapNullKeyMode mode;
        final String literal;

        NullKeys(String mode, String literal) {
            this.mode = JsonFormatOptions.MapNullKeyMode.valueOf(mode.toUpperCase(Locale.ROOT));
            this.literal = literal;
        }
    }

    private static JsonRowDataSerializationSchema open(
            RowType type, TimestampFormat ts, NullKeys nullKeys, boolean plain, boolean ignoreNulls) throws Exception {
        JsonRowDataSerializationSchema schema =
                new JsonRowDataSerializationSchema(type, ts, nullKeys.mode, nullKeys.literal, plain, ignoreNulls);
        schema.open(null);
        return schema;
    }

    byte[] key(RowData row) {
        return keySchema == null ? null : keySchema.serialize(copy(row, keyPositions));
    }

    byte[] value(RowData row) {
        // Only upsert looks at the row kind (a binary row's header byte), as the Kafka connector does.
        if (upsert && (row.getRowKind() == RowKind.UPDATE_BEFORE || row.getRowKind() == RowKind.DELETE)) {
            return null;
        }
        return valueSchema.serialize(copy(row, valuePositions));
    }

    private GenericRowData copy(RowData row, int[] positions) {
        GenericRowData out = new GenericRowData(positions.length);
        for (int i = 0; i < positions.length; i++) {
            out.setField(i, getters[positions[i]].getFieldOrNull(row));
        }
        return out;
    }

    /**
     * Byte equality, on every JDK: FLOAT and DOUBLE too, whose digits the encoder takes from the running JVM
     * ({@code float.java-digits}, {@code docs/json-format.md}, "Floats and the JDK").
     */
    static void assertSame(byte[] flink, byte[] ours, String where) {
        if (!Arrays.equals(flink, ours)) {
            throw new AssertionError(where + ": ours " + text(ours) + " vs Flink " + text(flink));
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
