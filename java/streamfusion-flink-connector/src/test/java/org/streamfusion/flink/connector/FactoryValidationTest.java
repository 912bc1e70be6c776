package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.junit.jupiter.api.Test;
import org.streamfusion.flink.RowDataJsonEncoder;

/**
 * Planning of {@code streamfusion-kafka} / {@code streamfusion-upsert-kafka} through Flink's own factory
 * discovery ({@code META-INF/services}): what is translated, and that each unsupported option or feature fails
 * with a {@link ValidationException} naming it and the stock connector, while Flink's own mistakes keep Flink's
 * messages. What is planned is compared as a whole {@link SinkSpec} against one built from the options by hand,
 * as flink-connector-kafka's {@code KafkaDynamicTableFactoryTest} compares whole sinks.
 */
class FactoryValidationTest {
    private static final List<Column> COLUMNS = List.of(
            Column.physical("k_id", DataTypes.BIGINT().notNull()),
            Column.physical("name", DataTypes.STRING()),
            Column.physical("price", DataTypes.DECIMAL(10, 2)));
    /** The physical row of {@link #COLUMNS} as the planner hands it over (a NOT NULL row). */
    private static final RowType ROW = (RowType) DataTypes.ROW(
                    DataTypes.FIELD("k_id", DataTypes.BIGINT().notNull()),
                    DataTypes.FIELD("name", DataTypes.STRING()),
                    DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)))
            .notNull()
            .getLogicalType();

    /**
     * The encoder options the factory writes for the json format's defaults ({@code JsonFormatOptions}) and
     * {@code streamfusion.native.min-batch-rows}'s default, with no key.
     */
    private static Map<String, String> defaultEncoderOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("timestamp-format.standard", "SQL");
        options.put("map-null-key.mode", "FAIL");
        options.put("map-null-key.literal", "null");
        options.put("encode.decimal-as-plain-number", "false");
        options.put("encode.ignore-null-fields", "false");
        options.put("native.min-batch-rows", Integer.toString(RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS));
        return options;
    }

    /** {@link #defaultEncoderOptions()} with the PRIMARY KEY {@code k_id} of {@link #upsert()} as the key. */
    private static Map<String, String> upsertEncoderOptions() {
        Map<String, String> options = defaultEncoderOptions();
        options.put("key.fields", "k_id");
        options.put("value.fields-include", "ALL");
        options.put("changelog.mode", "upsert");
        return options;
    }

    /**
     * The spec expected for {@link #kafka()} on {@code rowType}: its topic and bootstrap servers, the default
     * encoder options; everything else the builder's defaults (which {@link #defaultsAreFlinksAndOurs} checks
     * are the table options' defaults).
     */
    private static SinkSpec.Builder expectedKafka(RowType rowType) {
        Properties producer = new Properties();
        producer.setProperty("bootstrap.servers", "127.0.0.1:19092");
        return SinkSpec.builder(rowType)
                .setTopic("t")
                .setProducerProperties(producer)
                .setEncoderOptions(defaultEncoderOptions());
    }

    /** The spec expected for {@link #upsert()} on {@code rowType} (key {@code k_id}, the first field). */
    private static SinkSpec.Builder expectedUpsert(RowType rowType) {
        return expectedKafka(rowType)
                .setEncoderOptions(upsertEncoderOptions())
                .setKeyProjection(0)
                .setUpsert(true);
    }

    private static Map<String, String> kafka() {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "streamfusion-kafka");
        options.put("topic", "t");
        options.put("properties.bootstrap.servers", "127.0.0.1:19092");
        options.put("format", "json");
        return options;
    }

    private static Map<String, String> upsert() {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "streamfusion-upsert-kafka");
        options.put("topic", "t");
        options.put("properties.bootstrap.servers", "127.0.0.1:19092");
        options.put("key.format", "json");
        options.put("value.format", "json");
        return options;
    }

    private static DynamicTableSink plan(Map<String, String> options, List<Column> columns, boolean primaryKey) {
        ResolvedSchema schema = new ResolvedSchema(
                columns, List.of(), primaryKey ? UniqueConstraint.primaryKey("pk", List.of("k_id")) : null);
        CatalogTable table = CatalogTable.newBuilder()
                .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                .options(options)
                .build();
        return FactoryUtil.createDynamicTableSink(
                null,
                ObjectIdentifier.of("cat", "db", "sink_table"),
                new ResolvedCatalogTable(table, schema),
                Map.of(),
                new Configuration(),
                FactoryValidationTest.class.getClassLoader(),
                false);
    }

    private static SinkSpec spec(Map<String, String> options, boolean primaryKey) {
        DynamicTableSink sink = plan(options, COLUMNS, primaryKey);
        return assertInstanceOf(StreamFusionKafkaDynamicSink.class, sink).spec();
    }

    /** Every message of the cause chain (Flink wraps a factory's exception in its own). */
    private static String messages(Throwable thrown) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append(" | ");
        }
        return all.toString();
    }

    private static String rejected(Map<String, String> options, List<Column> columns, boolean primaryKey) {
        ValidationException e = assertThrows(ValidationException.class, () -> plan(options, columns, primaryKey));
        return messages(e);
    }

    /**
     * Plans the table and checks that it is Flink's own sink, the one the stock connector's factory plans for the
     * same table (same summary, changelog mode and writable metadata), marked with a reason that names
     * {@code named}.
     *
     * @param stock the stock connector's name
     */
    private static void assertWrittenByFlink(
            Map<String, String> options, List<Column> columns, boolean primaryKey, String named, String stock) {
        DynamicTableSink sink = plan(options, columns, primaryKey);
        assertInstanceOf(KafkaDynamicSink.class, sink);
        String reason = FlinkWrittenFormat.reasonOf(sink).orElseThrow();
        assertTrue(reason.contains(named), () -> "reason should name " + named + ": " + reason);
        Map<String, String> stockOptions = new HashMap<>(options);
        stockOptions.put("connector", stock);
        DynamicTableSink expected = plan(stockOptions, columns, primaryKey);
        assertEquals(expected.asSummaryString(), sink.asSummaryString());
        assertEquals(expected.getChangelogMode(ChangelogMode.all()), sink.getChangelogMode(ChangelogMode.all()));
        assertEquals(
                ((KafkaDynamicSink) expected).listWritableMetadata(), ((KafkaDynamicSink) sink).listWritableMetadata());
    }

    @Test
    void kafkaOptionsBecomeTheEncoderLayoutAndTheKafkaSinkSettings() {
        Map<String, String> options = kafka();
        options.remove("format");
        options.put("key.format", "json");
        options.put("value.format", "json");
        options.put("key.fields", "k_id");
        options.put("key.fields-prefix", "k_");
        options.put("value.fields-include", "EXCEPT_KEY");
        options.put("value.json.encode.decimal-as-plain-number", "true");
        options.put("key.json.encode.decimal-as-plain-number", "true");
        options.put("value.json.timestamp-format.standard", "ISO-8601");
        options.put("key.json.timestamp-format.standard", "ISO-8601");
        options.put("sink.partitioner", "fixed");
        options.put("sink.delivery-guarantee", "exactly-once");
        options.put("sink.transactional-id-prefix", "sf-test");
        options.put("streamfusion.batch-rows", "500");
        options.put("streamfusion.linger", "20 ms");
        options.put("streamfusion.native.min-batch-rows", "7");
        Map<String, String> encoder = new LinkedHashMap<>();
        encoder.put("timestamp-format.standard", "ISO-8601");
        encoder.put("map-null-key.mode", "FAIL");
        encoder.put("map-null-key.literal", "null");
        encoder.put("encode.decimal-as-plain-number", "true");
        encoder.put("encode.ignore-null-fields", "false");
        encoder.put("key.fields", "k_id");
        encoder.put("key.fields-prefix", "k_");
        encoder.put("value.fields-include", "EXCEPT_KEY");
        encoder.put("native.min-batch-rows", "7");
        SinkSpec expected = expectedKafka(ROW)
                .setEncoderOptions(encoder)
                .setKeyProjection(0)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("sf-test")
                .setFixedPartitioner(true)
                .setBatchRows(500)
                .setLingerMillis(20)
                .build();
        assertEquals(expected, spec(options, false));
        assertEquals(ChangelogMode.insertOnly(), plan(options, COLUMNS, false).getChangelogMode(ChangelogMode.all()));
    }

    @Test
    void defaultsAreFlinksAndOurs() {
        // Every setting spelled out, not left to the builder's defaults.
        Properties producer = new Properties();
        producer.setProperty("bootstrap.servers", "127.0.0.1:19092");
        SinkSpec expected = SinkSpec.builder(ROW)
                .setEncoderOptions(defaultEncoderOptions()) // json's defaults, no key.fields
                .setKeyProjection()
                .setTopic("t")
                .setProducerProperties(producer)
                // The table connector's default delivery guarantee (KafkaConnectorOptions.DELIVERY_GUARANTEE).
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setTransactionalIdPrefix(null)
                .setTransactionNamingStrategy("INCREMENTING")
                .setFixedPartitioner(false)
                .setUpsert(false)
                .setParallelism(null)
                .setBatchRows(StreamFusionOptions.DEFAULT_BATCH_ROWS)
                .setLingerMillis(StreamFusionOptions.DEFAULT_LINGER.toMillis())
                .setBufferFlush(0, 0)
                .build();
        assertEquals(expected, spec(kafka(), false));
        assertEquals(expected, expectedKafka(ROW).build(), "the builder's defaults are the table options'");
    }

    @Test
    void upsertTakesThePrimaryKeyAsKeyAndWritesTombstones() {
        Map<String, String> options = upsert();
        options.put("key.fields-prefix", "k_");
        options.put("value.fields-include", "EXCEPT_KEY");
        DynamicTableSink sink = plan(options, COLUMNS, true);
        Map<String, String> encoder = upsertEncoderOptions();
        encoder.put("key.fields-prefix", "k_");
        encoder.put("value.fields-include", "EXCEPT_KEY");
        assertEquals(
                expectedUpsert(ROW).setEncoderOptions(encoder).build(), ((StreamFusionKafkaDynamicSink) sink).spec());
        ChangelogMode mode = sink.getChangelogMode(ChangelogMode.all());
        assertTrue(mode.contains(org.apache.flink.types.RowKind.DELETE));
        assertTrue(mode.contains(org.apache.flink.types.RowKind.UPDATE_AFTER));
        assertFalse(mode.contains(org.apache.flink.types.RowKind.UPDATE_BEFORE));
    }

    @Test
    void anotherFormatIsWrittenByFlinksOwnSink() {
        Map<String, String> options = kafka();
        options.put("format", "avro");
        assertWrittenByFlink(options, COLUMNS, false, "'format' = 'avro'", "kafka");
        Map<String, String> upsert = upsert();
        upsert.put("key.format", "raw");
        assertWrittenByFlink(upsert, COLUMNS, true, "'key.format' = 'raw'", "upsert-kafka");
        // Flink's own mistakes stay Flink's: a format that does not exist.
        options.put("format", "no-such-format");
        assertTrue(rejected(options, COLUMNS, false).contains("no-such-format"));
    }

    @Test
    void topicPatternIsWrittenByFlinksOwnSink() {
        Map<String, String> options = kafka();
        options.remove("topic");
        options.put("topic-pattern", "t-.*");
        assertWrittenByFlink(options, COLUMNS, false, "'topic-pattern'", "kafka");
    }

    @Test
    void aTopicListIsPlannedWithTheStockSinksWritableTopicColumn() {
        for (boolean upsert : new boolean[] {false, true}) {
            Map<String, String> options = upsert ? upsert() : kafka();
            options.put("topic", "b;a");
            StreamFusionKafkaDynamicSink ours =
                    assertInstanceOf(StreamFusionKafkaDynamicSink.class, plan(options, COLUMNS, upsert));
            SinkSpec expected = (upsert ? expectedUpsert(ROW) : expectedKafka(ROW))
                    .setTopics(List.of("b", "a"))
                    .build();
            assertEquals(expected, ours.spec());
            options.put("connector", upsert ? "upsert-kafka" : "kafka");
            DynamicTableSink stock = plan(options, COLUMNS, upsert);
            // KafkaDynamicSink lists topic (STRING NOT NULL) first when there is more than one topic.
            assertEquals(
                    ((SupportsWritingMetadata) stock).listWritableMetadata(),
                    ours.listWritableMetadata(),
                    options.get("connector"));
            assertEquals(
                    List.of("topic", "headers", "timestamp"),
                    List.copyOf(ours.listWritableMetadata().keySet()));
            RowType consumed = (RowType) DataTypes.ROW(
                            DataTypes.FIELD("k_id", DataTypes.BIGINT().notNull()),
                            DataTypes.FIELD("name", DataTypes.STRING()),
                            DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
                            DataTypes.FIELD("topic", DataTypes.STRING().notNull()))
                    .getLogicalType();
            ours.applyWritableMetadata(List.of("topic"), TypeConversions.fromLogicalToDataType(consumed));
            assertEquals(
                    expected.toBuilder()
                            .setWritableMetadata(List.of("topic"), consumed)
                            .build(),
                    ours.spec());
            assertTrue(ours.spec().hasMetadata());
            assertTrue(
                    ours.spec().toString().contains("topicPosition=3"),
                    ours.spec().toString());
        }
    }

    @Test
    void aCustomPartitionerClassIsNative() {
        Map<String, String> options = kafka();
        options.put("sink.partitioner", FlinkFixedPartitioner.class.getName());
        assertEquals(
                expectedKafka(ROW)
                        .setPartitionerClass(FlinkFixedPartitioner.class.getName())
                        .build(),
                spec(options, false));
        // A class that does not exist, or is no partitioner, stays Flink's error.
        options.put("sink.partitioner", String.class.getName());
        assertTrue(rejected(options, COLUMNS, false).contains("should implement the required class"));
        options.put("sink.partitioner", "com.example.NoSuchPartitioner");
        assertTrue(rejected(options, COLUMNS, false).contains("com.example.NoSuchPartitioner"));
    }

    @Test
    void writableMetadataIsTheStockSinksAndLandsAfterThePhysicalFields() {
        // The same keys and types, in the same order, as Flink's KafkaDynamicSink with one topic.
        for (boolean upsert : new boolean[] {false, true}) {
            Map<String, String> options = upsert ? upsert() : kafka();
            DynamicTableSink ours = plan(options, COLUMNS, upsert);
            options.put("connector", upsert ? "upsert-kafka" : "kafka");
            DynamicTableSink stock = plan(options, COLUMNS, upsert);
            assertEquals(
                    ((SupportsWritingMetadata) stock).listWritableMetadata(),
                    ((SupportsWritingMetadata) ours).listWritableMetadata(),
                    options.get("connector"));
        }
        assertEquals(
                List.of("headers", "timestamp"),
                List.copyOf(((SupportsWritingMetadata) plan(kafka(), COLUMNS, false))
                        .listWritableMetadata()
                        .keySet()));

        // Persisted metadata columns are accepted by the factory (the planner checks the keys).
        List<Column> columns = new ArrayList<>(COLUMNS);
        columns.add(Column.metadata("ts", DataTypes.TIMESTAMP_LTZ(3), "timestamp", false));
        columns.add(Column.metadata("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()), null, false));
        StreamFusionKafkaDynamicSink sink =
                assertInstanceOf(StreamFusionKafkaDynamicSink.class, plan(kafka(), columns, false));
        assertEquals(expectedKafka(ROW).build(), sink.spec());
        assertFalse(sink.spec().hasMetadata());
        RowType consumed = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("k_id", DataTypes.BIGINT().notNull()),
                        DataTypes.FIELD("name", DataTypes.STRING()),
                        DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
                        DataTypes.FIELD("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES())),
                        DataTypes.FIELD("timestamp", DataTypes.TIMESTAMP_LTZ(3)))
                .getLogicalType();
        sink.applyWritableMetadata(List.of("headers", "timestamp"), TypeConversions.fromLogicalToDataType(consumed));
        SinkSpec expected = expectedKafka(ROW)
                .setWritableMetadata(List.of("headers", "timestamp"), consumed)
                .build();
        assertEquals(expected, sink.spec());
        assertTrue(sink.spec().hasMetadata());
        assertEquals(consumed, sink.spec().consumedRowType());
        assertEquals(3, sink.spec().rowType().getFieldCount(), "the encoder sees the physical fields only");
        assertTrue(
                sink.spec().toString().contains("timestampPosition=4, headersPosition=3"),
                sink.spec().toString());
        assertEquals(sink.spec(), ((StreamFusionKafkaDynamicSink) sink.copy()).spec(), "copy keeps the metadata");
    }

    @Test
    void nestedColumnTypesArePlannedNatively() {
        Map<String, org.apache.flink.table.types.DataType> nested = new java.util.LinkedHashMap<>();
        nested.put("tags", DataTypes.ARRAY(DataTypes.STRING()));
        nested.put("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()));
        nested.put("point", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.DOUBLE())));
        nested.put("bag", DataTypes.MULTISET(DataTypes.STRING()));
        nested.forEach((name, type) -> {
            List<Column> columns = new ArrayList<>(COLUMNS);
            columns.add(Column.physical(name, type));
            assertInstanceOf(StreamFusionKafkaDynamicSink.class, plan(kafka(), columns, false), name);
            assertInstanceOf(StreamFusionKafkaDynamicSink.class, plan(upsert(), columns, true), name);
        });
    }

    @Test
    void virtualMetadataColumnsAreNotWrittenAndAccepted() {
        List<Column> columns = new ArrayList<>(COLUMNS);
        columns.add(Column.metadata("off", DataTypes.BIGINT(), "offset", true));
        assertInstanceOf(StreamFusionKafkaDynamicSink.class, plan(kafka(), columns, false));
    }

    @Test
    void upsertBufferFlushReducesByKey() {
        Map<String, String> options = upsert();
        options.put("sink.buffer-flush.max-rows", "100");
        options.put("sink.buffer-flush.interval", "1 s");
        SinkSpec spec = spec(options, true);
        assertEquals(expectedUpsert(ROW).setBufferFlush(100, 1000).build(), spec);
        assertTrue(spec.reducesByKey());
        // Disabled (Flink's default, both 0): no reduction, as the stock sink.
        Map<String, String> disabled = upsert();
        disabled.put("sink.buffer-flush.max-rows", "0");
        disabled.put("sink.buffer-flush.interval", "0 s");
        assertEquals(expectedUpsert(ROW).build(), spec(disabled, true));
        assertFalse(spec(disabled, true).reducesByKey());
        assertEquals(expectedUpsert(ROW).build(), spec(upsert(), true));
        // Only one of the two: Flink's own check, the same message as for upsert-kafka.
        Map<String, String> half = upsert();
        half.put("sink.buffer-flush.max-rows", "100");
        String ours = rejected(half, COLUMNS, true);
        half.put("connector", "upsert-kafka");
        String stock = rejected(half, COLUMNS, true);
        assertTrue(
                ours.contains("'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to "
                        + "be greater than zero together to enable sink buffer flushing."),
                ours);
        assertTrue(
                stock.contains("'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to "
                        + "be greater than zero together to enable sink buffer flushing."),
                stock);
    }

    @Test
    void theDataStreamBuilderValidatesAsTheTableFactory() {
        RowType type = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("k_id", DataTypes.BIGINT().notNull()),
                        DataTypes.FIELD("name", DataTypes.STRING()))
                .getLogicalType();
        Map<String, String> options = upsert();
        options.put("sink.buffer-flush.max-rows", "10");
        options.put("sink.buffer-flush.interval", "1 s");
        SinkSpec spec = StreamFusionKafkaSink.builder()
                .setRowType(type)
                .setOptions(options)
                .setPrimaryKey("k_id")
                .build()
                .spec();
        // The table's physical row, as the planner derives it from the builder's columns: NOT NULL.
        RowType planned = (RowType) type.copy(false);
        assertEquals(expectedUpsert(planned).setBufferFlush(10, 1000).build(), spec);
        // Without 'connector': streamfusion-kafka.
        Map<String, String> plain = kafka();
        plain.remove("connector");
        assertEquals(
                expectedKafka(planned).build(),
                StreamFusionKafkaSink.builder()
                        .setRowType(type)
                        .setOptions(plain)
                        .build()
                        .spec());
        // A table the factory leaves to Flink's own sink is refused, naming why; and Flink's own checks.
        plain.put("format", "avro");
        String avro = messages(assertThrows(
                ValidationException.class,
                () -> StreamFusionKafkaSink.builder()
                        .setRowType(type)
                        .setOptions(plain)
                        .build()));
        assertTrue(avro.contains("'format' = 'avro'") && avro.contains("Build Flink's KafkaSink"), avro);
        String noKey = messages(assertThrows(
                ValidationException.class,
                () -> StreamFusionKafkaSink.builder()
                        .setRowType(type)
                        .setOptions(upsert())
                        .build()));
        assertTrue(noKey.contains("PRIMARY KEY"), noKey);
        options.put("connector", "kafka");
        assertThrows(
                ValidationException.class,
                () -> StreamFusionKafkaSink.builder()
                        .setRowType(type)
                        .setOptions(options)
                        .build());
    }

    @Test
    void differentKeyAndValueJsonOptionsAreNativeTheKeyWithItsOwn() {
        Map<String, String> options = kafka();
        options.put("key.format", "json");
        options.put("key.fields", "k_id");
        options.put("key.json.encode.decimal-as-plain-number", "true");
        options.put("key.json.timestamp-format.standard", "ISO-8601");
        // Given on both sides with the same value: nothing of the key's own.
        options.put("key.json.map-null-key.mode", "DROP");
        options.put("json.map-null-key.mode", "DROP");
        Map<String, String> encoder = defaultEncoderOptions();
        encoder.put("map-null-key.mode", "DROP");
        encoder.put("key.encode.decimal-as-plain-number", "true");
        encoder.put("key.timestamp-format.standard", "ISO-8601");
        encoder.put("key.fields", "k_id");
        encoder.put("value.fields-include", "ALL");
        assertEquals(
                expectedKafka(ROW)
                        .setEncoderOptions(encoder)
                        .setKeyProjection(0)
                        .build(),
                spec(options, false));

        // upsert-kafka: key.json.* beside value.json.*.
        Map<String, String> upsert = upsert();
        upsert.put("value.json.encode.ignore-null-fields", "true");
        Map<String, String> upsertEncoder = upsertEncoderOptions();
        upsertEncoder.put("encode.ignore-null-fields", "true");
        upsertEncoder.put("key.encode.ignore-null-fields", "false");
        assertEquals(expectedUpsert(ROW).setEncoderOptions(upsertEncoder).build(), spec(upsert, true));
    }

    @Test
    void ourOwnOptionsAreChecked() {
        Map<String, String> unknown = kafka();
        unknown.put("streamfusion.batch-size", "10");
        assertTrue(rejected(unknown, COLUMNS, false).contains("'streamfusion.batch-size'"));
        Map<String, String> zero = kafka();
        zero.put("streamfusion.batch-rows", "0");
        assertTrue(rejected(zero, COLUMNS, false).contains("'streamfusion.batch-rows' = '0'"));
        Map<String, String> notADuration = kafka();
        notADuration.put("streamfusion.linger", "soon");
        assertTrue(rejected(notADuration, COLUMNS, false).contains("'streamfusion.linger'"));
    }

    @Test
    void flinksOwnValidationStillApplies() {
        Map<String, String> typo = kafka();
        typo.put("sink.delivery-guarantees", "exactly-once");
        assertTrue(rejected(typo, COLUMNS, false).contains("sink.delivery-guarantees"));
        // Exactly once without a transactional-id prefix: Flink's KafkaConnectorOptionsUtil check.
        Map<String, String> noPrefix = kafka();
        noPrefix.put("sink.delivery-guarantee", "exactly-once");
        assertTrue(rejected(noPrefix, COLUMNS, false).contains("sink.transactional-id-prefix"));
        // upsert-kafka needs a PRIMARY KEY, and takes no key.fields (its key is the primary key).
        assertTrue(rejected(upsert(), COLUMNS, false).contains("PRIMARY KEY"));
        Map<String, String> keyFields = upsert();
        keyFields.put("key.fields", "k_id");
        assertTrue(rejected(keyFields, COLUMNS, true).contains("key.fields"));
        // A key field that does not exist.
        Map<String, String> missing = kafka();
        missing.put("key.format", "json");
        missing.put("key.fields", "nope");
        assertTrue(rejected(missing, COLUMNS, false).contains("nope"));
        // key.fields-prefix with value.fields-include=ALL.
        Map<String, String> prefix = kafka();
        prefix.put("key.format", "json");
        prefix.put("key.fields", "k_id");
        prefix.put("key.fields-prefix", "k_");
        assertTrue(rejected(prefix, COLUMNS, false).contains("key.fields-prefix"));
        // round-robin with key.fields.
        Map<String, String> roundRobin = kafka();
        roundRobin.put("key.format", "json");
        roundRobin.put("key.fields", "k_id");
        roundRobin.put("sink.partitioner", "round-robin");
        assertTrue(rejected(roundRobin, COLUMNS, false).contains("round-robin"));
    }

    @Test
    void aColumnTypeTheEncoderDoesNotWriteIsWrittenByFlinksOwnSink() {
        List<Column> columns = new ArrayList<>(COLUMNS);
        columns.add(Column.physical("v", DataTypes.VARIANT()));
        assertWrittenByFlink(kafka(), columns, false, "schema", "kafka");
    }
}
