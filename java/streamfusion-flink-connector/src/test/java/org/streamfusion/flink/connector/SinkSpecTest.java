package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * {@link SinkSpec}'s builder (defaults, each check and its message), {@code equals}/{@code hashCode} over every
 * field, and a {@code toString} that shows every setting but no secret ({@link SensitiveConfigs}).
 */
class SinkSpecTest {
    private static final RowType ROW = (RowType) DataTypes.ROW(
                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()), DataTypes.FIELD("name", DataTypes.STRING()))
            .notNull()
            .getLogicalType();
    private static final RowType CONSUMED = (RowType) DataTypes.ROW(
                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                    DataTypes.FIELD("name", DataTypes.STRING()),
                    DataTypes.FIELD("topic", DataTypes.STRING().notNull()),
                    DataTypes.FIELD("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES())),
                    DataTypes.FIELD("timestamp", DataTypes.TIMESTAMP_LTZ(3)))
            .getLogicalType();

    private static Properties bootstrap() {
        Properties properties = new Properties();
        properties.setProperty("bootstrap.servers", "127.0.0.1:19092");
        return properties;
    }

    /** The least a spec needs: a row type, a topic, the bootstrap servers. */
    private static SinkSpec.Builder minimal() {
        return SinkSpec.builder(ROW).setTopic("t").setProducerProperties(bootstrap());
    }

    /** A spec with every field away from its default. */
    private static SinkSpec.Builder everything() {
        Map<String, String> encoder = new LinkedHashMap<>();
        encoder.put("key.fields", "id");
        encoder.put("changelog.mode", "upsert");
        Properties producer = bootstrap();
        producer.setProperty("linger.ms", "5");
        return SinkSpec.builder(ROW)
                .setEncoderOptions(encoder)
                .setKeyProjection(0)
                .setTopics(List.of("a", "b"))
                .setProducerProperties(producer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("tx")
                .setTransactionNamingStrategy("POOLING")
                .setFixedPartitioner(true)
                .setUpsert(true)
                .setParallelism(3)
                .setBatchRows(7)
                .setLingerMillis(9)
                .setWritableMetadata(List.of("topic", "headers", "timestamp"), CONSUMED)
                .setBufferFlush(11, 13);
    }

    private static String rejected(SinkSpec.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void theDefaultsAreTheTableOptionsDefaults() {
        SinkSpec spec = minimal().build();
        assertEquals(Map.of(), spec.encoderOptions());
        assertEquals(0, spec.keyProjection.length);
        assertEquals(List.of("t"), spec.topics());
        assertEquals(bootstrap(), spec.producerProperties);
        assertEquals(DeliveryGuarantee.AT_LEAST_ONCE, spec.deliveryGuarantee());
        assertEquals(null, spec.transactionalIdPrefix);
        assertEquals("INCREMENTING", spec.transactionNamingStrategy);
        assertFalse(spec.fixedPartitioner());
        assertFalse(spec.upsert());
        assertEquals(null, spec.parallelism);
        assertEquals(StreamFusionOptions.DEFAULT_BATCH_ROWS, spec.batchRows());
        assertEquals(StreamFusionOptions.DEFAULT_LINGER.toMillis(), spec.lingerMillis());
        assertEquals(ROW, spec.consumedRowType());
        assertFalse(spec.hasMetadata());
        assertFalse(spec.reducesByKey());
    }

    @Test
    void metadataPositionsFollowThePhysicalFieldsInTheGivenOrder() {
        SinkSpec spec = everything().build();
        assertEquals(2, spec.topicPosition);
        assertEquals(3, spec.headersPosition);
        assertEquals(4, spec.timestampPosition);
        SinkSpec reordered = everything()
                .setWritableMetadata(List.of("timestamp"), (RowType) DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                DataTypes.FIELD("name", DataTypes.STRING()),
                                DataTypes.FIELD("timestamp", DataTypes.TIMESTAMP_LTZ(3)))
                        .getLogicalType())
                .build();
        assertEquals(-1, reordered.topicPosition);
        assertEquals(-1, reordered.headersPosition);
        assertEquals(2, reordered.timestampPosition);
    }

    @Test
    void toBuilderAndSerializationKeepEverySetting() throws Exception {
        for (SinkSpec spec : List.of(minimal().build(), everything().build())) {
            assertEquals(spec, spec.toBuilder().build());
            assertEquals(spec.hashCode(), spec.toBuilder().build().hashCode());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(spec);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                SinkSpec back = (SinkSpec) in.readObject();
                assertEquals(spec, back);
                assertEquals(spec.hashCode(), back.hashCode());
            }
        }
    }

    @Test
    void equalsAndHashCodeCoverEveryField() {
        SinkSpec base = everything().build();
        // Equal content in other instances: properties as maps (another insertion order), arrays by content.
        Properties producer = new Properties();
        producer.setProperty("linger.ms", "5");
        producer.setProperty("bootstrap.servers", "127.0.0.1:19092");
        SinkSpec same = everything()
                .setProducerProperties(producer)
                .setKeyProjection(new int[] {0})
                .setEncoderOptions(Map.of("changelog.mode", "upsert", "key.fields", "id"))
                .build();
        assertEquals(base, same);
        assertEquals(base.hashCode(), same.hashCode());
        assertNotEquals(base, null);
        assertNotEquals(base, "a string");

        RowType otherRow = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                        DataTypes.FIELD("label", DataTypes.STRING()))
                .notNull()
                .getLogicalType();
        RowType otherConsumed = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                        DataTypes.FIELD("label", DataTypes.STRING()),
                        DataTypes.FIELD("topic", DataTypes.STRING().notNull()),
                        DataTypes.FIELD("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES())),
                        DataTypes.FIELD("timestamp", DataTypes.TIMESTAMP_LTZ(3)))
                .getLogicalType();
        Properties moreProducer = bootstrap();
        moreProducer.setProperty("linger.ms", "6");
        Map<String, UnaryOperator<SinkSpec.Builder>> changes = new LinkedHashMap<>();
        changes.put("rowType", b -> copyWithRow(b.build(), otherRow, otherConsumed));
        changes.put(
                "encoderOptions",
                b -> b.setEncoderOptions(
                        Map.of("key.fields", "id", "changelog.mode", "upsert", "encode.ignore-null-fields", "true")));
        changes.put("keyProjection", b -> b.setKeyProjection(1));
        changes.put("topics", b -> b.setTopics(List.of("b", "a")));
        changes.put("producerProperties", b -> b.setProducerProperties(moreProducer));
        changes.put(
                "deliveryGuarantee",
                b -> b.setTransactionalIdPrefix("tx").setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE));
        changes.put("transactionalIdPrefix", b -> b.setTransactionalIdPrefix("tx2"));
        changes.put("transactionNamingStrategy", b -> b.setTransactionNamingStrategy("INCREMENTING"));
        changes.put("fixedPartitioner", b -> b.setFixedPartitioner(false));
        changes.put("upsert", b -> b.setUpsert(false).setBufferFlush(0, 0));
        changes.put("parallelism", b -> b.setParallelism(null));
        changes.put("batchRows", b -> b.setBatchRows(8));
        changes.put("lingerMillis", b -> b.setLingerMillis(10));
        changes.put(
                "metadata positions",
                b -> b.setWritableMetadata(List.of("topic", "timestamp", "headers"), (RowType) DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                                DataTypes.FIELD("name", DataTypes.STRING()),
                                DataTypes.FIELD("topic", DataTypes.STRING().notNull()),
                                DataTypes.FIELD("timestamp", DataTypes.TIMESTAMP_LTZ(3)),
                                DataTypes.FIELD("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES())))
                        .getLogicalType()));
        changes.put(
                "consumedRowType",
                b -> b.setWritableMetadata(List.of("topic", "headers", "timestamp"), (RowType) CONSUMED.copy(false)));
        changes.put("bufferFlushMaxRows", b -> b.setBufferFlush(12, 13));
        changes.put("bufferFlushIntervalMillis", b -> b.setBufferFlush(11, 14));
        changes.forEach((field, change) -> {
            SinkSpec changed = change.apply(everything()).build();
            assertNotEquals(base, changed, field);
            assertNotEquals(base.hashCode(), changed.hashCode(), field);
        });
    }

    /** {@code spec}'s settings on another row type (the builder's row type is fixed at creation). */
    private static SinkSpec.Builder copyWithRow(SinkSpec spec, RowType rowType, RowType consumed) {
        return SinkSpec.builder(rowType)
                .setEncoderOptions(spec.encoderOptions())
                .setKeyProjection(spec.keyProjection)
                .setTopics(spec.topics())
                .setProducerProperties(spec.producerProperties)
                .setDeliveryGuarantee(spec.deliveryGuarantee())
                .setTransactionalIdPrefix(spec.transactionalIdPrefix)
                .setTransactionNamingStrategy(spec.transactionNamingStrategy)
                .setFixedPartitioner(spec.fixedPartitioner())
                .setUpsert(spec.upsert())
                .setParallelism(spec.parallelism)
                .setBatchRows(spec.batchRows())
                .setLingerMillis(spec.lingerMillis())
                .setWritableMetadata(List.of("topic", "headers", "timestamp"), consumed)
                .setBufferFlush(spec.bufferFlushMaxRows(), spec.bufferFlushIntervalMillis());
    }

    @Test
    void toStringShowsEverySettingButNoSecret() {
        // Each kind of secret a producer property can hold, with a value found nowhere else.
        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"alice\" password=\"jaas-s3cret-1\";");
        secrets.put("ssl.key.password", "key-s3cret-2");
        secrets.put("ssl.keystore.password", "keystore-s3cret-3");
        secrets.put("ssl.truststore.password", "truststore-s3cret-4");
        secrets.put("sasl.password", "sasl-s3cret-5");
        secrets.put("ssl.keystore.key", "-----BEGIN ENCRYPTED PRIVATE KEY----- pem-s3cret-6");
        secrets.put("sasl.oauthbearer.client.credentials.client.secret", "oauth-s3cret-7");
        secrets.put("sasl.oauthbearer.assertion.private.key.passphrase", "passphrase-s3cret-8");
        secrets.put("SSL.Keystore.Password", "mixed-case-s3cret-9");
        secrets.put("basic.auth.user.info", "alice:basic-s3cret-10");
        // Not secret: shown as they are.
        Map<String, String> shown = new LinkedHashMap<>();
        shown.put("bootstrap.servers", "127.0.0.1:19092");
        shown.put("security.protocol", "SASL_SSL");
        shown.put("sasl.mechanism", "SCRAM-SHA-512");
        shown.put("ssl.keystore.certificate.chain", "-----BEGIN CERTIFICATE----- public-chain");
        shown.put("ssl.truststore.certificates", "-----BEGIN CERTIFICATE----- public-ca");
        shown.put("ssl.keystore.location", "/etc/kafka/keystore.p12");
        shown.put("sasl.login.callback.handler.class", "com.example.LoginHandler");
        Properties producer = new Properties();
        secrets.forEach(producer::setProperty);
        shown.forEach(producer::setProperty);

        String text = everything().setProducerProperties(producer).build().toString();
        secrets.forEach((key, value) -> {
            assertFalse(text.contains(value), () -> key + "'s value is printed: " + text);
            assertTrue(text.contains(key + "=" + SensitiveConfigs.HIDDEN), () -> key + " is not shown hidden: " + text);
        });
        assertFalse(text.contains("s3cret"), text);
        shown.forEach((key, value) -> assertTrue(text.contains(key + "=" + value), () -> key + ": " + text));
        // And every other setting.
        for (String part : List.of(
                "rowType=",
                "encoderOptions={key.fields=id, changelog.mode=upsert}",
                "keyProjection=[0]",
                "topics=[a, b]",
                "deliveryGuarantee=exactly-once",
                "transactionalIdPrefix=tx",
                "transactionNamingStrategy=POOLING",
                "fixedPartitioner=true",
                "upsert=true",
                "parallelism=3",
                "batchRows=7",
                "lingerMillis=9",
                "consumedRowType=",
                "topicPosition=2",
                "timestampPosition=4",
                "headersPosition=3",
                "bufferFlushMaxRows=11",
                "bufferFlushIntervalMillis=13")) {
            assertTrue(text.contains(part), () -> part + ": " + text);
        }
        // The properties themselves are untouched.
        assertEquals(
                "key-s3cret-2",
                everything()
                        .setProducerProperties(producer)
                        .build()
                        .producerProperties
                        .getProperty("ssl.key.password"));
    }

    @Test
    void everyPasswordTypedProducerConfigOfKafkaIsSensitiveButThePublicCertificates() {
        // Kafka's own rule (ConfigDef.Type.PASSWORD, printed [hidden] by its config log), in this kafka-clients.
        List<String> publicCertificates = List.of("ssl.keystore.certificate.chain", "ssl.truststore.certificates");
        int passwords = 0;
        for (ConfigDef.ConfigKey key : ProducerConfig.configDef().configKeys().values()) {
            boolean sensitive = SensitiveConfigs.isSensitive(key.name);
            if (key.type == ConfigDef.Type.PASSWORD && !publicCertificates.contains(key.name)) {
                passwords++;
                assertTrue(sensitive, key.name);
                assertTrue(SensitiveConfigs.isSensitive(SinkPlanning.PROPERTIES_PREFIX + key.name), key.name);
            }
        }
        assertTrue(passwords >= 5, "sasl.jaas.config and the ssl passwords at least: " + passwords);
        // At least what Flink hides in the table options it prints, for every producer config and a few more.
        List<String> more = List.of(
                "properties.sasl.jaas.config",
                "sasl.password",
                "my.api-key",
                "a.token",
                "x.auth-params",
                "basic-auth.user",
                "http-headers");
        for (String key : ProducerConfig.configNames()) {
            assertTrue(!GlobalConfiguration.isSensitive(key) || SensitiveConfigs.isSensitive(key), key);
        }
        for (String key : more) {
            assertTrue(GlobalConfiguration.isSensitive(key), key);
            assertTrue(SensitiveConfigs.isSensitive(key), key);
        }
        for (String key : List.of(
                "bootstrap.servers",
                "sasl.login.callback.handler.class",
                "sasl.mechanism",
                "ssl.keystore.location",
                "ssl.keystore.type",
                "ssl.keystore.certificate.chain",
                "transactional.id",
                "client.id")) {
            assertFalse(SensitiveConfigs.isSensitive(key), key);
        }
        assertFalse(SensitiveConfigs.isSensitive(null));
    }

    @Test
    void theBuilderRejectsWhatTheStockSinkRejectsNamingTheOption() {
        assertThrows(
                NullPointerException.class,
                () -> SinkSpec.builder(null)
                        .setTopic("t")
                        .setProducerProperties(bootstrap())
                        .build());
        assertTrue(rejected(SinkSpec.builder(ROW).setProducerProperties(bootstrap()))
                .contains("'topic'"));
        assertTrue(rejected(minimal().setKeyProjection(0, 2)).contains("Key field position 2"));
        assertTrue(rejected(minimal().setKeyProjection(-1)).contains("Key field position -1"));
        assertTrue(rejected(minimal().setUpsert(true)).contains("PRIMARY KEY"));
        assertTrue(rejected(minimal().setBatchRows(0)).contains("'streamfusion.batch-rows' = '0'"));
        assertTrue(rejected(minimal().setLingerMillis(0)).contains("'streamfusion.linger' = '0 ms'"));
        assertTrue(rejected(SinkSpec.builder(ROW).setTopic("t")).contains("'properties.bootstrap.servers'"));
        assertEquals(
                "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.",
                rejected(minimal().setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)));
        assertTrue(rejected(
                        minimal().setTransactionalIdPrefix("x".repeat(SinkSpec.MAX_TRANSACTIONAL_ID_PREFIX_BYTES + 1)))
                .contains("'sink.transactional-id-prefix'"));
        minimal()
                .setTransactionalIdPrefix("x".repeat(SinkSpec.MAX_TRANSACTIONAL_ID_PREFIX_BYTES))
                .build();

        SinkSpec.Builder upsert = minimal().setUpsert(true).setKeyProjection(0);
        String together = "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater "
                + "than zero together to enable sink buffer flushing.";
        assertEquals(together, rejected(upsert.setBufferFlush(10, 0)));
        assertEquals(
                together, rejected(minimal().setUpsert(true).setKeyProjection(0).setBufferFlush(0, 10)));
        assertTrue(rejected(minimal().setUpsert(true).setKeyProjection(0).setBufferFlush(-1, -1))
                .contains("must not be negative"));
        assertTrue(rejected(minimal().setBufferFlush(10, 10)).contains("upsert connector only"));
        assertTrue(minimal()
                .setUpsert(true)
                .setKeyProjection(0)
                .setBufferFlush(10, 10)
                .build()
                .reducesByKey());

        // Metadata: the consumed row is the physical fields and one field per key, keys as KafkaDynamicSink's.
        SinkSpec.Builder twoTopics = minimal().setTopics(List.of("a", "b"));
        assertTrue(rejected(twoTopics.setWritableMetadata(List.of("topic"), CONSUMED))
                .contains("physical fields followed by the metadata"));
        assertTrue(rejected(minimal().setWritableMetadata(List.of("topic", "headers", "timestamp"), CONSUMED))
                .contains("not writable with one topic"));
        assertTrue(rejected(minimal()
                        .setTopics(List.of("a", "b"))
                        .setWritableMetadata(List.of("topic", "headers", "offset"), CONSUMED))
                .contains("not a writable metadata key: offset"));
        assertTrue(rejected(minimal()
                        .setTopics(List.of("a", "b"))
                        .setWritableMetadata(List.of("topic", "headers", "headers"), CONSUMED))
                .contains("written twice"));
        assertTrue(rejected(minimal()
                        .setTopics(List.of("a", "b"))
                        .setWritableMetadata(List.of("timestamp", "headers", "topic"), CONSUMED))
                .contains("metadata column timestamp has type"));

        // Setters refuse null where null means nothing.
        assertThrows(NullPointerException.class, () -> minimal().setTopic(null));
        assertThrows(NullPointerException.class, () -> minimal().setTopics(null));
        assertThrows(NullPointerException.class, () -> minimal().setEncoderOptions(null));
        assertThrows(NullPointerException.class, () -> minimal().setKeyProjection((int[]) null));
        assertThrows(NullPointerException.class, () -> minimal().setProducerProperties(null));
        assertThrows(NullPointerException.class, () -> minimal().setDeliveryGuarantee(null));
        assertThrows(NullPointerException.class, () -> minimal().setTransactionNamingStrategy(null));
        assertThrows(NullPointerException.class, () -> minimal().setWritableMetadata(null, CONSUMED));
        assertThrows(NullPointerException.class, () -> minimal().setWritableMetadata(List.of(), null));
    }

    @Test
    void theBuilderCopiesWhatItIsGiven() {
        Properties producer = bootstrap();
        int[] key = {0};
        Map<String, String> encoder = new LinkedHashMap<>(Map.of("key.fields", "id"));
        SinkSpec.Builder builder =
                minimal().setProducerProperties(producer).setKeyProjection(key).setEncoderOptions(encoder);
        SinkSpec spec = builder.build();
        producer.setProperty("linger.ms", "1");
        key[0] = 1;
        encoder.put("changelog.mode", "upsert");
        assertEquals(spec, builder.build(), "later changes to the arguments reach neither builder nor spec");
        assertEquals(bootstrap(), spec.producerProperties);
        assertThrows(
                UnsupportedOperationException.class, () -> spec.encoderOptions().put("a", "b"));
        assertThrows(UnsupportedOperationException.class, () -> spec.topics().add("u"));
    }
}
