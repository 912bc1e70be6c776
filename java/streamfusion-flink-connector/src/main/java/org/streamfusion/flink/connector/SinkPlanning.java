package org.streamfusion.flink.connector;

import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.DELIVERY_GUARANTEE;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.KEY_FIELDS_PREFIX;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.KEY_FORMAT;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.SINK_BUFFER_FLUSH_INTERVAL;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.SINK_BUFFER_FLUSH_MAX_ROWS;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.SINK_PARALLELISM;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.SINK_PARTITIONER;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.TOPIC;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.TOPIC_PATTERN;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.TRANSACTIONAL_ID_PREFIX;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.VALUE_FIELDS_INCLUDE;
import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.VALUE_FORMAT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.ValueFieldsStrategy;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.EncoderOptions;

/**
 * The planning shared by {@link StreamFusionKafkaTableFactory} and {@link StreamFusionUpsertKafkaTableFactory}:
 * lets Flink's own factory ({@code KafkaDynamicTableFactory} / {@code UpsertKafkaDynamicTableFactory}) validate
 * every Flink option exactly as it would for the stock connector, decides whether StreamFusion writes the table
 * natively ({@link #notNative}) and translates the options into a {@link SinkSpec}. A table it does not write
 * natively is written by the stock sink ({@link #flinkWritten}): never refused where the stock connector takes
 * it.
 */
@Internal
final class SinkPlanning {
    private static final Logger LOG = LoggerFactory.getLogger(SinkPlanning.class);
    /** The {@code json} encode options, by their names without a {@code json.} prefix. */
    static final List<ConfigOption<?>> JSON_ENCODE_OPTIONS = List.of(
            JsonFormatOptions.TIMESTAMP_FORMAT,
            JsonFormatOptions.MAP_NULL_KEY_MODE,
            JsonFormatOptions.MAP_NULL_KEY_LITERAL,
            JsonFormatOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
            JsonFormatOptions.ENCODE_IGNORE_NULL_FIELDS);

    static final Set<ConfigOption<?>> OWN_OPTIONS = Set.of(
            StreamFusionOptions.BATCH_ROWS, StreamFusionOptions.LINGER, StreamFusionOptions.NATIVE_MIN_BATCH_ROWS);

    private static final String JSON = "json";
    /** The prefix of the Kafka client properties ({@code KafkaConnectorOptionsUtil.PROPERTIES_PREFIX}). */
    static final String PROPERTIES_PREFIX = "properties.";
    /** The values of {@code sink.partitioner} other than a class name, as Flink spells them. */
    static final String PARTITIONER_DEFAULT = "default";

    static final String PARTITIONER_FIXED = "fixed";
    static final String PARTITIONER_ROUND_ROBIN = "round-robin";

    private final String identifier;
    private final String stockIdentifier;
    private final DynamicTableFactory.Context context;
    private final Map<String, String> options;

    /**
     * @throws org.apache.flink.table.api.ValidationException on a Flink line these classes are not built for
     *     ({@link FlinkLineCheck})
     */
    SinkPlanning(String identifier, String stockIdentifier, DynamicTableFactory.Context context) {
        FlinkLineCheck.requireBuiltLine(identifier);
        this.identifier = identifier;
        this.stockIdentifier = stockIdentifier;
        this.context = context;
        this.options = context.getCatalogTable().getOptions();
    }

    /**
     * Why StreamFusion does not write this table natively, or empty when it does. Called after Flink's factory
     * has validated the table. Not native: a key or value format other than {@code json}; {@code topic-pattern};
     * a column type or layout the encoder does not write ({@link RowDataJsonEncoder}). (A list of topics is native, as the stock sink takes
     * it: the {@code topic} metadata column picks each row's topic; metadata columns are checked by the planner
     * against {@link StreamFusionKafkaDynamicSink#listWritableMetadata()}.)
     *
     * @param keyProjection positions of the key fields in the physical row, in key order (empty: no key)
     * @param upsert the upsert connector
     * @return the reason, as a phrase that follows "because"
     */
    Optional<String> notNative(int[] keyProjection, boolean upsert) {
        boolean plainFormat = options.containsKey(FactoryUtil.FORMAT.key());
        String valueFormatKey = plainFormat ? FactoryUtil.FORMAT.key() : VALUE_FORMAT.key();
        String valueFormat = options.get(valueFormatKey);
        if (valueFormat != null && !valueFormat.equals(JSON)) {
            return Optional.of(String.format("'%s' = '%s' (StreamFusion writes 'json')", valueFormatKey, valueFormat));
        }
        String keyFormat = options.get(KEY_FORMAT.key());
        if (keyFormat != null && !keyFormat.equals(JSON)) {
            return Optional.of(String.format("'%s' = '%s' (StreamFusion writes 'json')", KEY_FORMAT.key(), keyFormat));
        }
        if (options.containsKey(TOPIC_PATTERN.key())) {
            return Optional.of(String.format("of '%s'", TOPIC_PATTERN.key()));
        }
        // The encoder checks the layout against the row type and every column type.
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        try (RowDataJsonEncoder check = new RowDataJsonEncoder(rowType, encoderOptions(keyProjection, upsert))) {
            check.nativeAvailable();
        } catch (IllegalArgumentException e) {
            return Optional.of("the encoder does not write the table's schema or layout: " + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * The stock factory's sink for a table StreamFusion does not write natively, with a log line that says why and
     * the {@code numFlinkRows} metric ({@link FlinkWrittenFormat}).
     *
     * @param stock the sink Flink's factory made of {@link #stockContext()}
     * @param reason from {@link #notNative}
     * @return {@code stock}
     */
    DynamicTableSink flinkWritten(DynamicTableSink stock, String reason) {
        String table = context.getObjectIdentifier().asSummaryString();
        LOG.info(
                "Table '{}' is written by Flink's own '{}' sink, not natively by '{}', because {}.",
                table,
                stockIdentifier,
                identifier,
                reason);
        return FlinkWrittenFormat.countValuesOf(stock, table, reason);
    }

    /** Rejects a {@code streamfusion.} option that is none of {@link #OWN_OPTIONS} (a typo, in Flink's words). */
    void rejectUnknownOwnOptions() {
        for (String key : options.keySet()) {
            if (key.startsWith(StreamFusionOptions.PREFIX)
                    && OWN_OPTIONS.stream().noneMatch(option -> option.key().equals(key))) {
                throw new ValidationException(String.format(
                        "Unsupported option '%s' for the '%s' connector. "
                                + "Supported options starting with '%s': %s.",
                        key,
                        identifier,
                        StreamFusionOptions.PREFIX,
                        OWN_OPTIONS.stream().map(ConfigOption::key).sorted().toList()));
            }
        }
    }

    /**
     * A copy of the factory context without the {@code streamfusion.} options, for Flink's own factory, whose
     * option check would reject them.
     */
    DynamicTableFactory.Context stockContext() {
        Map<String, String> stock = new HashMap<>();
        options.forEach((key, value) -> {
            if (!key.startsWith(StreamFusionOptions.PREFIX)) {
                stock.put(key, value);
            }
        });
        stock.put(FactoryUtil.CONNECTOR.key(), stockIdentifier);
        ResolvedCatalogTable table = context.getCatalogTable().copy(stock);
        return new FactoryUtil.DefaultDynamicTableContext(
                context.getObjectIdentifier(),
                table,
                context.getEnrichmentOptions(),
                context.getConfiguration(),
                context.getClassLoader(),
                context.isTemporary());
    }

    private String valueJsonPrefix() {
        return options.containsKey(FactoryUtil.FORMAT.key()) ? "json." : "value.json.";
    }

    /**
     * The encoder options of a table written natively: the value format's json options, each key format json
     * option that differs from the value format's under its {@code key.} name (the encoder writes the key row
     * with its own), the key layout, upsert, and {@code streamfusion.native.min-batch-rows}.
     */
    private Map<String, String> encoderOptions(int[] keyProjection, boolean upsert) {
        Configuration conf = Configuration.fromMap(options);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        Map<String, String> value = formatOptions(valueJsonPrefix());
        Map<String, String> encoder = new LinkedHashMap<>(value);
        if (options.containsKey(KEY_FORMAT.key())) {
            formatOptions("key.json.").forEach((name, setting) -> {
                if (!setting.equals(value.get(name))) {
                    encoder.put("key." + name, setting);
                }
            });
        }
        List<String> keyFields = new ArrayList<>();
        for (int position : keyProjection) {
            keyFields.add(rowType.getFieldNames().get(position));
        }
        if (!keyFields.isEmpty()) {
            encoder.put(EncoderOptions.KEY_FIELDS, String.join(";", keyFields));
            conf.getOptional(KEY_FIELDS_PREFIX)
                    .ifPresent(prefix -> encoder.put(EncoderOptions.KEY_FIELDS_PREFIX, prefix));
            encoder.put(
                    EncoderOptions.VALUE_FIELDS_INCLUDE,
                    conf.get(VALUE_FIELDS_INCLUDE) == ValueFieldsStrategy.EXCEPT_KEY ? "EXCEPT_KEY" : "ALL");
        }
        if (upsert) {
            encoder.put(RowDataJsonEncoder.CHANGELOG_MODE, "upsert");
        }
        encoder.put(
                RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS,
                Integer.toString(ownOption(conf, StreamFusionOptions.NATIVE_MIN_BATCH_ROWS)));
        return encoder;
    }

    /**
     * Checks the values of the {@code streamfusion.} options, whether or not the table is written natively.
     *
     * @throws ValidationException for a value out of range or not of the option's type
     */
    void checkOwnOptions() {
        Configuration conf = Configuration.fromMap(options);
        int batchRows = ownOption(conf, StreamFusionOptions.BATCH_ROWS);
        if (batchRows < 1) {
            throw new ValidationException(String.format(
                    "Option '%s' = '%d' must be at least 1 (rows).", StreamFusionOptions.BATCH_ROWS.key(), batchRows));
        }
        Duration linger = ownOption(conf, StreamFusionOptions.LINGER);
        if (linger.toMillis() < 1) {
            throw new ValidationException(String.format(
                    "Option '%s' = '%s' must be at least 1 ms.", StreamFusionOptions.LINGER.key(), linger));
        }
        int minNative = ownOption(conf, StreamFusionOptions.NATIVE_MIN_BATCH_ROWS);
        if (minNative < 0) {
            throw new ValidationException(String.format(
                    "Option '%s' = '%d' must be at least 0 (rows).",
                    StreamFusionOptions.NATIVE_MIN_BATCH_ROWS.key(), minNative));
        }
    }

    /** The effective value (given or default) of each json encode option under {@code prefix}, as text. */
    private Map<String, String> formatOptions(String prefix) {
        Map<String, String> given = new HashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                given.put(key.substring(prefix.length()), value);
            }
        });
        Configuration conf = Configuration.fromMap(given);
        Map<String, String> effective = new LinkedHashMap<>();
        for (ConfigOption<?> option : JSON_ENCODE_OPTIONS) {
            effective.put(option.key(), String.valueOf(conf.get(option)));
        }
        return effective;
    }

    /**
     * Builds the spec of a table written natively ({@link #notNative} empty, {@link #checkOwnOptions} passed);
     * Flink's factory has validated every Flink option before this is called. For upsert,
     * {@code sink.buffer-flush.max-rows} / {@code .interval} reduce by key when both are greater than zero.
     *
     * @param keyProjection positions of the key fields in the physical row, in key order (empty: no key)
     * @param fixedPartitioner {@code sink.partitioner=fixed}; a class name there becomes the spec's
     *     {@link SinkSpec#partitionerClass()}
     * @param upsert the upsert connector
     * @return the spec
     */
    SinkSpec spec(int[] keyProjection, boolean fixedPartitioner, boolean upsert) {
        Configuration conf = Configuration.fromMap(options);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        int batchRows = ownOption(conf, StreamFusionOptions.BATCH_ROWS);
        Duration linger = ownOption(conf, StreamFusionOptions.LINGER);
        SinkSpec.Builder spec = SinkSpec.builder(rowType)
                .setEncoderOptions(encoderOptions(keyProjection, upsert))
                .setKeyProjection(keyProjection)
                .setTopics(conf.get(TOPIC))
                .setProducerProperties(producerProperties(options))
                .setDeliveryGuarantee(conf.get(DELIVERY_GUARANTEE))
                .setTransactionalIdPrefix(conf.get(TRANSACTIONAL_ID_PREFIX))
                .setTransactionNamingStrategy(FlinkLine.transactionNamingStrategy(conf))
                .setFixedPartitioner(fixedPartitioner)
                .setPartitionerClass(partitionerClass(conf))
                .setUpsert(upsert)
                .setParallelism(conf.getOptional(SINK_PARALLELISM).orElse(null))
                .setBatchRows(batchRows)
                .setLingerMillis(linger.toMillis());
        if (upsert) {
            // Flink's factory has checked that both are set or both zero; a sub-millisecond interval is off.
            int maxRows = conf.get(SINK_BUFFER_FLUSH_MAX_ROWS);
            long intervalMillis = conf.get(SINK_BUFFER_FLUSH_INTERVAL).toMillis();
            if (maxRows > 0 && intervalMillis > 0) {
                spec.setBufferFlush(maxRows, intervalMillis);
            }
        }
        return spec.build();
    }

    /**
     * {@code sink.partitioner} when it names a class (not {@code default}, {@code fixed} or {@code round-robin}),
     * as {@code KafkaConnectorOptionsUtil.getFlinkKafkaPartitioner} reads it; null otherwise.
     */
    private static String partitionerClass(Configuration conf) {
        return conf.getOptional(SINK_PARTITIONER)
                .filter(value -> !value.equals(PARTITIONER_DEFAULT)
                        && !value.equals(PARTITIONER_FIXED)
                        && !value.equals(PARTITIONER_ROUND_ROBIN))
                .orElse(null);
    }

    /** The {@code properties.*} options without the prefix, as {@code KafkaConnectorOptionsUtil} builds them. */
    static Properties producerProperties(Map<String, String> options) {
        Properties properties = new Properties();
        options.forEach((key, value) -> {
            if (key.startsWith(PROPERTIES_PREFIX)) {
                properties.put(key.substring(PROPERTIES_PREFIX.length()), value);
            }
        });
        return properties;
    }

    /**
     * The positions of {@code keyFields} in the physical row, in key order (Flink's factory has checked that
     * each exists and carries {@code key.fields-prefix}).
     */
    static int[] keyProjection(List<String> keyFields, DataType physical) {
        List<String> names = ((RowType) physical.getLogicalType()).getFieldNames();
        return keyFields.stream().mapToInt(names::indexOf).toArray();
    }

    private <T> T ownOption(Configuration conf, ConfigOption<T> option) {
        try {
            return conf.get(option);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format("Invalid value for option '%s': %s", option.key(), e.getMessage()), e);
        }
    }
}
