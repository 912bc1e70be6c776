package org.streamfusion.parity;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonFormatOptionsUtil;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds the real {@link JsonRowDataSerializationSchema} of whatever Flink release is on the classpath. The
 * format options are parsed and validated by Flink's own {@link JsonFormatOptionsUtil} from a
 * {@link Configuration}, as the JSON format factory does. The constructor is found reflectively, so one
 * compiled harness runs against Flink 1.19 (5 arguments), 1.20 and 2.x (6 arguments).
 */
final class FlinkJson {
    /** The format option keys (without any {@code json.} / {@code key.json.} prefix). */
    static final List<String> OPTION_KEYS = List.of(
            JsonFormatOptions.TIMESTAMP_FORMAT.key(),
            JsonFormatOptions.MAP_NULL_KEY_MODE.key(),
            JsonFormatOptions.MAP_NULL_KEY_LITERAL.key(),
            JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER.key(),
            "encode.ignore-null-fields");

    private static final ConfigOption<Boolean> IGNORE_NULL_FIELDS =
            ConfigOptions.key("encode.ignore-null-fields").booleanType().defaultValue(false);

    private final Configuration conf;

    FlinkJson(Properties props) {
        Map<String, String> map = new HashMap<>();
        for (String key : OPTION_KEYS) {
            String value = props.getProperty(key);
            if (value != null) {
                map.put(key, value);
            }
        }
        conf = Configuration.fromMap(map);
        JsonFormatOptionsUtil.validateEncodingFormatOptions(conf);
    }

    /** A new, opened serializer for rows of {@code rowType}. */
    SerializationSchema<RowData> serializer(RowType rowType) throws Exception {
        TimestampFormat timestampFormat = JsonFormatOptionsUtil.getTimestampFormat(conf);
        JsonFormatOptions.MapNullKeyMode mapNullKeyMode = JsonFormatOptionsUtil.getMapNullKeyMode(conf);
        String literal = conf.get(JsonFormatOptions.MAP_NULL_KEY_LITERAL);
        boolean plainDecimal = conf.get(JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER);
        // Declared here by name: the option constant does not exist before Flink 1.20.
        boolean ignoreNull = conf.get(IGNORE_NULL_FIELDS);

        Constructor<?> ctor = null;
        for (Constructor<?> c : JsonRowDataSerializationSchema.class.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length > 0 && p[0] == RowType.class && (ctor == null || p.length > ctor.getParameterCount())) {
                ctor = c;
            }
        }
        if (ctor == null) {
            throw new IllegalStateException("no JsonRowDataSerializationSchema(RowType, ...) constructor found");
        }
        List<Boolean> booleans = new ArrayList<>(List.of(plainDecimal, ignoreNull));
        Class<?>[] params = ctor.getParameterTypes();
        Object[] args = new Object[params.length];
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
        if (ignoreNull && booleans.contains(Boolean.TRUE)) {
            throw new UnsupportedOperationException(
                    "encode.ignore-null-fields is not supported by this Flink release (constructor " + ctor + ")");
        }
        @SuppressWarnings("unchecked")
        SerializationSchema<RowData> schema = (SerializationSchema<RowData>) ctor.newInstance(args);
        schema.open(null);
        return schema;
    }
}
