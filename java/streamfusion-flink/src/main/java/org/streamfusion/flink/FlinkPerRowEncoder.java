package org.streamfusion.flink;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonFormatOptionsUtil;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.EncoderOptions;

/**
 * The pure-JVM path: Flink's own {@link JsonRowDataSerializationSchema}, once per row, with the Kafka SQL
 * connector's key/value layout ({@code DynamicKafkaRecordSerializationSchema}: the key row is the
 * {@code key.fields} projection with {@code key.fields-prefix} stripped from the names, the value row the whole
 * row or, with {@code EXCEPT_KEY}, the other fields; in upsert mode {@code -U}/{@code -D} rows are tombstones).
 * Used for batches too small to pay for a JNI crossing. The options were already validated by the native
 * encoder's constructor, so only their values are read here.
 */
@Internal
final class FlinkPerRowEncoder {
    private final SerializationSchema<RowData> keySerializer;
    private final SerializationSchema<RowData> valueSerializer;
    private final ProjectedRowData keyRow;
    private final ProjectedRowData valueRow;
    private final boolean upsert;

    FlinkPerRowEncoder(
            RowType rowType,
            Map<String, String> options,
            List<String> keyFields,
            String keyPrefix,
            boolean exceptKey,
            boolean upsert) {
        Map<String, String> valueFormat = formatOptions(options, "");
        // The key row's: the value row's, with the key's own where given (EncoderOptions.KEY_*).
        Map<String, String> keyFormat = new HashMap<>(valueFormat);
        keyFormat.putAll(formatOptions(options, "key."));
        List<String> names = rowType.getFieldNames();
        int[] keyPositions = keyFields.stream().mapToInt(names::indexOf).toArray();
        List<RowType.RowField> keyRowFields = new ArrayList<>();
        for (int k = 0; k < keyPositions.length; k++) {
            keyRowFields.add(new RowType.RowField(
                    keyFields.get(k).substring(keyPrefix.length()), rowType.getTypeAt(keyPositions[k])));
        }
        List<Integer> values = new ArrayList<>();
        List<RowType.RowField> valueRowFields = new ArrayList<>();
        for (int pos = 0; pos < names.size(); pos++) {
            if (!(exceptKey && keyFields.contains(names.get(pos)))) {
                values.add(pos);
                valueRowFields.add(rowType.getFields().get(pos));
            }
        }
        this.keySerializer = keyPositions.length == 0 ? null : serializer(new RowType(keyRowFields), keyFormat);
        this.keyRow = keyPositions.length == 0 ? null : ProjectedRowData.from(keyPositions);
        this.valueSerializer = serializer(new RowType(valueRowFields), valueFormat);
        this.valueRow = values.size() == names.size()
                ? null
                : ProjectedRowData.from(
                        values.stream().mapToInt(Integer::intValue).toArray());
        this.upsert = upsert;
    }

    /** Encodes {@code rows} one by one; the slabs are the records concatenated. */
    EncodedBatch encode(List<? extends RowData> rows) {
        long start = System.nanoTime();
        int n = rows.size();
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            RowData row = rows.get(i);
            if (keyRow != null) {
                keys[i] = keySerializer.serialize(keyRow.replaceRow(row));
            }
            RowKind kind = row.getRowKind();
            if (!(upsert && (kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE))) {
                values[i] = valueSerializer.serialize(valueRow == null ? row : valueRow.replaceRow(row));
            }
        }
        return EncodedBatch.ofRecords(keys, values, System.nanoTime() - start);
    }

    /**
     * The json format options among the encoder options {@code options}, under {@code prefix} ({@code ""} for
     * the value row's, {@code "key."} for the key row's own), without the prefix; the options not given are
     * absent.
     */
    private static Map<String, String> formatOptions(Map<String, String> options, String prefix) {
        Map<String, String> format = new HashMap<>();
        for (String key : List.of(
                JsonFormatOptions.TIMESTAMP_FORMAT.key(),
                JsonFormatOptions.MAP_NULL_KEY_MODE.key(),
                JsonFormatOptions.MAP_NULL_KEY_LITERAL.key(),
                JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER.key(),
                EncoderOptions.ENCODE_IGNORE_NULL_FIELDS)) {
            String value = options.get(prefix + key);
            if (value != null && !(value.isEmpty() && !prefix.isEmpty())) {
                format.put(key, value);
            }
        }
        return format;
    }

    /**
     * A new, opened {@link JsonRowDataSerializationSchema} of whatever Flink release is on the classpath, from
     * the format options {@code format} (names without a prefix) as the JSON format factory reads them. Its
     * constructor is found by its parameter types: Flink 1.19 has five parameters, 1.20 and 2.x six (with
     * {@code encode.ignore-null-fields}).
     */
    private static SerializationSchema<RowData> serializer(RowType rowType, Map<String, String> format) {
        Configuration conf = Configuration.fromMap(format);
        boolean ignoreNulls =
                Boolean.parseBoolean(format.getOrDefault(EncoderOptions.ENCODE_IGNORE_NULL_FIELDS, "false"));
        TimestampFormat timestampFormat = JsonFormatOptionsUtil.getTimestampFormat(conf);
        JsonFormatOptions.MapNullKeyMode mapNullKeyMode = JsonFormatOptionsUtil.getMapNullKeyMode(conf);
        String literal = conf.get(JsonFormatOptions.MAP_NULL_KEY_LITERAL);
        boolean plainDecimal = conf.get(JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER);
        Constructor<?> ctor = null;
        for (Constructor<?> c : JsonRowDataSerializationSchema.class.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length > 0 && p[0] == RowType.class && (ctor == null || p.length > ctor.getParameterCount())) {
                ctor = c;
            }
        }
        if (ctor == null) {
            throw new IllegalStateException(
                    "no JsonRowDataSerializationSchema(RowType, ...) constructor on the classpath");
        }
        List<Boolean> booleans = new ArrayList<>(List.of(plainDecimal, ignoreNulls));
        Object[] args = new Object[ctor.getParameterCount()];
        Class<?>[] params = ctor.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            Class<?> p = params[i];
            if (p == RowType.class) {
                args[i] = rowType;
            } else if (p == TimestampFormat.class) {
                args[i] = timestampFormat;
            } else if (p == JsonFormatOptions.MapNullKeyMode.class) {
                args[i] = mapNullKeyMode;
            } else if (p == String.class) {
                args[i] = literal;
            } else if (p == boolean.class && !booleans.isEmpty()) {
                args[i] = booleans.remove(0);
            } else {
                throw new IllegalStateException("unexpected JsonRowDataSerializationSchema constructor " + ctor);
            }
        }
        if (booleans.contains(Boolean.TRUE)) {
            throw new IllegalArgumentException(EncoderOptions.ENCODE_IGNORE_NULL_FIELDS
                    + " is not supported by the Flink release on the classpath (constructor " + ctor + ")");
        }
        try {
            @SuppressWarnings("unchecked")
            SerializationSchema<RowData> schema = (SerializationSchema<RowData>) ctor.newInstance(args);
            schema.open(null);
            return schema;
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(
                    "JsonRowDataSerializationSchema failed to start: " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException("JsonRowDataSerializationSchema could not be created: " + e, e);
        }
    }
}
