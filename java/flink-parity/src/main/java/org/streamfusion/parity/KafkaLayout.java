package org.streamfusion.parity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.types.RowKind;

/**
 * The key/value layout of Flink's Kafka SQL connector ({@code DynamicKafkaRecordSerializationSchema} and
 * {@code KafkaConnectorOptionsUtil} of apache/flink-connector-kafka, which is not on the classpath): which
 * columns form the key row (in {@code key.fields} order, the {@code key.fields-prefix} stripped from the
 * field names), which form the value row, and the upsert rule for the row kind. It only selects columns and
 * decides null-ness; the bytes always come from Flink's JSON serializer.
 */
final class KafkaLayout {
    enum ValueFieldsStrategy {
        ALL,
        EXCEPT_KEY
    }

    // Declared like the connector's options so Flink's own Configuration parses the values
    // (';'-separated list, case-insensitive enum).
    static final ConfigOption<List<String>> KEY_FIELDS =
            ConfigOptions.key("key.fields").stringType().asList().defaultValues();
    static final ConfigOption<String> KEY_FIELDS_PREFIX =
            ConfigOptions.key("key.fields-prefix").stringType().defaultValue("");
    static final ConfigOption<ValueFieldsStrategy> VALUE_FIELDS_INCLUDE = ConfigOptions.key("value.fields-include")
            .enumType(ValueFieldsStrategy.class)
            .defaultValue(ValueFieldsStrategy.ALL);
    static final String ROW_KIND_COLUMN = "changelog.row-kind-column";

    /** Positions (in the Arrow schema) of the key columns, in key order; empty = no key format. */
    final int[] keyPositions;
    /** Key row field names (prefix stripped). */
    final List<String> keyNames;
    /** Positions of the value columns, table order. */
    final int[] valuePositions;
    /** Position of the row-kind column, or -1 (insert-only). */
    final int rowKindPosition;

    KafkaLayout(Properties props, List<String> columns) {
        Map<String, String> map = new HashMap<>();
        for (String key : List.of(KEY_FIELDS.key(), KEY_FIELDS_PREFIX.key(), VALUE_FIELDS_INCLUDE.key())) {
            String value = props.getProperty(key);
            if (value != null) {
                map.put(key, value);
            }
        }
        Configuration conf = Configuration.fromMap(map);
        List<String> keyFields = conf.get(KEY_FIELDS);
        String prefix = conf.get(KEY_FIELDS_PREFIX);
        ValueFieldsStrategy strategy = conf.get(VALUE_FIELDS_INCLUDE);

        String rowKindColumn = props.getProperty(ROW_KIND_COLUMN, "");
        if (rowKindColumn.isEmpty()) {
            rowKindPosition = -1;
        } else {
            rowKindPosition = columns.indexOf(rowKindColumn);
            if (rowKindPosition < 0) {
                throw new IllegalArgumentException(
                        "row-kind column '" + rowKindColumn + "' is not in the schema " + columns);
            }
        }
        List<String> physical = new ArrayList<>(columns);
        if (rowKindPosition >= 0) {
            physical.remove(rowKindPosition);
        }

        keyPositions = new int[keyFields.size()];
        keyNames = new ArrayList<>();
        for (int k = 0; k < keyFields.size(); k++) {
            String keyField = keyFields.get(k);
            if (!physical.contains(keyField)) {
                throw new ValidationException(String.format(
                        "Could not find the field '%s' in the table schema for usage in the key format. A key field must be a"
                                + " regular, physical column. The following columns can be selected in the '%s' option:%n%s",
                        keyField, KEY_FIELDS.key(), physical));
            }
            if (!keyField.startsWith(prefix)) {
                throw new ValidationException(String.format(
                        "All fields in '%s' must be prefixed with '%s' when option '%s' is set but field '%s' is not prefixed.",
                        KEY_FIELDS.key(), prefix, KEY_FIELDS_PREFIX.key(), keyField));
            }
            keyPositions[k] = columns.indexOf(keyField);
            keyNames.add(keyField.substring(prefix.length()));
        }

        if (strategy == ValueFieldsStrategy.ALL && !prefix.isEmpty()) {
            throw new ValidationException(String.format(
                    "A key prefix is not allowed when option '%s' is set to '%s'. Set it to '%s' instead to avoid field overlaps.",
                    VALUE_FIELDS_INCLUDE.key(), ValueFieldsStrategy.ALL, ValueFieldsStrategy.EXCEPT_KEY));
        }
        List<Integer> values = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            if (c == rowKindPosition) {
                continue;
            }
            if (strategy == ValueFieldsStrategy.EXCEPT_KEY && keyFields.contains(columns.get(c))) {
                continue;
            }
            values.add(c);
        }
        valuePositions = values.stream().mapToInt(Integer::intValue).toArray();
    }

    boolean hasKey() {
        return keyPositions.length > 0;
    }

    boolean upsert() {
        return rowKindPosition >= 0;
    }

    /**
     * Upsert rule of {@code DynamicKafkaRecordSerializationSchema}: DELETE and UPDATE_BEFORE become a
     * tombstone (null value, key kept); INSERT and UPDATE_AFTER write the value row.
     */
    static boolean isTombstone(RowKind kind) {
        return kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
    }
}
