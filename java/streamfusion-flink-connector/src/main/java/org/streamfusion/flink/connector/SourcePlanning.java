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

/**
 * Plans the read side of a table: which source reads it ({@link NativeKafkaTableSource} over the stock factory's
 * source, always) and whether its values can be decoded natively, from the table's value format and its options
 * (the value columns' types are checked when the source makes its decoders, {@link NativeValueDeserializer}).
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
     * that gives the stock rows (value format {@code json} with its default parser), its value format then
     * replaced by a {@link NativeValueFormat}.
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
        Map<String, String> json = new LinkedHashMap<>();
        for (ConfigOption<?> option : JSON_DECODE_OPTIONS) {
            String value = options.get(prefix + option.key());
            if (value != null) {
                json.put(option.key(), value);
            }
        }
        String notNative = notNative(options, formatKey, prefix);
        NativeValueFormat format = null;
        if (notNative == null) {
            try {
                format = NativeValueFormat.replaceValueFormatOf(stock, json);
            } catch (IllegalStateException e) {
                notNative = e.getMessage();
            }
        }
        return new NativeKafkaTableSource(
                stock,
                context.getObjectIdentifier().asSummaryString(),
                format,
                upsert || options.containsKey(KEY_FORMAT.key()),
                notNative);
    }

    /** Why the values of a table with these options are not decoded natively, or null. */
    private static String notNative(Map<String, String> options, String formatKey, String prefix) {
        String format = options.get(formatKey);
        if (!"json".equals(format)) {
            return "its value format is '" + format + "', not 'json'";
        }
        String parser = prefix + JsonFormatOptions.DECODE_JSON_PARSER_ENABLED.key();
        if ("false".equalsIgnoreCase(options.getOrDefault(parser, "true").trim())) {
            return "'" + parser + "' = 'false' selects Flink's tree parser, which converts otherwise";
        }
        return null;
    }
}
