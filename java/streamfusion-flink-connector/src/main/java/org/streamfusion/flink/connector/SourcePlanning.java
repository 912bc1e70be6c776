package org.streamfusion.flink.connector;

import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.KEY_FORMAT;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.VALUE_FORMAT;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.streamfusion.flink.FlinkArrowTypes;

/**
 * Plans the read side of a table: which source reads it ({@link NativeKafkaTableSource} over the stock factory's
 * source, always) and whether its values can be decoded natively, from the table's options and columns.
 */
@Internal
final class SourcePlanning {
    /** The json format options that change decoding, which the native decoder takes (Flink's names). */
    static final List<ConfigOption<?>> JSON_DECODE_OPTIONS = List.of(
            JsonFormatOptions.FAIL_ON_MISSING_FIELD,
            JsonFormatOptions.IGNORE_PARSE_ERRORS,
            JsonFormatOptions.TIMESTAMP_FORMAT);

    private SourcePlanning() {}

    /**
     * The table source of a StreamFusion table: the stock factory's source, its values decoded natively where
     * that gives the stock rows.
     *
     * @param stock the stock factory's source for the table
     * @param context the table being read
     * @param upsert whether the table is an {@code upsert-kafka} one
     */
    static NativeKafkaTableSource source(
            DynamicTableSource stock, DynamicTableFactory.Context context, boolean upsert) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        boolean plainFormat = options.containsKey(FactoryUtil.FORMAT.key());
        String formatKey = plainFormat ? FactoryUtil.FORMAT.key() : VALUE_FORMAT.key();
        String prefix = plainFormat ? "json." : "value.json.";
        RowType physical = (RowType) context.getPhysicalRowDataType().getLogicalType();
        Map<String, String> json = new LinkedHashMap<>();
        for (ConfigOption<?> option : JSON_DECODE_OPTIONS) {
            String value = options.get(prefix + option.key());
            if (value != null) {
                json.put(option.key(), value);
            }
        }
        return new NativeKafkaTableSource(
                stock,
                context.getObjectIdentifier().asSummaryString(),
                physical,
                json,
                notNative(options, formatKey, prefix, physical, upsert));
    }

    /** Why the values of a table with these options and columns are not decoded natively, or null. */
    private static String notNative(
            Map<String, String> options, String formatKey, String prefix, RowType physical, boolean upsert) {
        if (upsert) {
            return "upsert-kafka rows carry their key fields, decoded from the record key";
        }
        if (options.containsKey(KEY_FORMAT.key())) {
            return "the table has a key format (key fields are decoded from the record key into each row)";
        }
        String format = options.get(formatKey);
        if (!"json".equals(format)) {
            return "its value format is '" + format + "', not 'json'";
        }
        String parser = prefix + JsonFormatOptions.DECODE_JSON_PARSER_ENABLED.key();
        if ("false".equalsIgnoreCase(options.getOrDefault(parser, "true").trim())) {
            return "'" + parser + "' = 'false' selects Flink's tree parser, which converts otherwise";
        }
        try {
            FlinkArrowTypes.schema(physical);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return null;
    }
}
