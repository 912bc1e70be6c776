package org.bijou64.kafka.connect;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.storage.HeaderConverter;
import org.bijou64.Bijou64;
import org.bijou64.perf.kafka.Bijou64SerdeConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link Bijou64Converter} and {@link Bijou32Converter} share, shaped like Connect's own
 * {@code org.apache.kafka.connect.converters.NumberConverter} (the base of {@code LongConverter} and
 * {@code IntegerConverter}): a Kafka serde does the bytes, {@code converter.type} says key, value or header, the
 * serde's {@code bijou64.*} options come from the converter's configuration.
 *
 * <p>Public, as Connect's {@code NumberConverter} is: a Connect worker's plugin scanner (the {@code only_scan} and
 * {@code hybrid_*} modes of {@code plugin.discovery}) skips a converter whose chain of supertypes passes through a
 * class it cannot access; {@code META-INF/services} lists the two concrete converters for {@code service_load}.
 *
 * @param <T> {@code Long} or {@code Integer}
 */
public abstract class BijouNumberConverter<T extends Number> implements Converter, HeaderConverter {
    private static final Logger LOG = LoggerFactory.getLogger(BijouNumberConverter.class);
    private static final String VERSION = readVersion();

    private final Class<T> type;
    private final String typeName;
    private final Schema schema;
    private final Serializer<T> serializer;
    private final Deserializer<T> deserializer;

    /**
     * @param type the Java type Connect hands over ({@code Long} for INT64, {@code Integer} for INT32)
     * @param typeName the format and type in error messages, e.g. {@code bijou64 Long}
     * @param schema the optional schema of the values read ({@code OPTIONAL_INT64_SCHEMA} / {@code _INT32_})
     * @param serializer the serde writing the values, configured by {@link #configure(Map)}
     * @param deserializer the serde reading them, configured by {@link #configure(Map)}
     */
    protected BijouNumberConverter(
            Class<T> type, String typeName, Schema schema, Serializer<T> serializer, Deserializer<T> deserializer) {
        this.type = type;
        this.typeName = typeName;
        this.schema = schema;
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    /**
     * @return {@code converter.type} and the serdes' options ({@code bijou64.mapping}, {@code bijou64.implementation},
     *     {@code bijou64.useJava})
     */
    @Override
    public ConfigDef config() {
        ConfigDef def = ConverterConfig.newConfigDef();
        Bijou64SerdeConfig.CONFIG_DEF.configKeys().values().forEach(def::define);
        return def;
    }

    /**
     * Configures both directions; {@code converter.type} ({@code key}, {@code value} or {@code header}) says
     * whether this converter handles keys. Logs one INFO line with the mapping, the implementation that does the
     * work (pure Java or the native library), whether the native library is loaded and the class loader (in a
     * Connect worker, the plugin's).
     *
     * @throws org.apache.kafka.common.config.ConfigException for a missing or bad {@code converter.type}, or a bad
     *     {@code bijou64.*} value
     */
    @Override
    public void configure(Map<String, ?> configs) {
        AbstractConfig parsed = new AbstractConfig(config(), configs);
        ConverterType converterType = ConverterType.withName(parsed.getString(ConverterConfig.TYPE_CONFIG));
        boolean isKey = converterType == ConverterType.KEY;
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
        Bijou64SerdeConfig serde = Bijou64SerdeConfig.from(configs);
        LOG.info(
                "{} for {}: mapping {}, implementation {} (native library {}), version {}, class loader {}",
                getClass().getSimpleName(),
                converterType.getName(),
                serde.mapping(),
                serde.implementation(),
                Bijou64.nativeAvailable() ? "loaded" : "not loaded",
                VERSION,
                getClass().getClassLoader());
    }

    /** As {@link #configure(Map)} with {@code converter.type} set from {@code isKey}. */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> conf = new HashMap<>(configs);
        conf.put(ConverterConfig.TYPE_CONFIG, isKey ? ConverterType.KEY.getName() : ConverterType.VALUE.getName());
        configure(conf);
    }

    /**
     * @param schema the value's schema: any, as with Connect's {@code NumberConverter}, or null (schemaless)
     * @param value a {@code Long} / {@code Integer}, or null (a tombstone, written as null)
     * @throws DataException when the value is of another type
     */
    @Override
    public byte[] fromConnectData(String topic, Schema schema, Object value) {
        if (value != null && !type.isInstance(value)) {
            throw new DataException("Failed to serialize to " + typeName + " (was " + value.getClass() + ")");
        }
        return serializer.serialize(topic, type.cast(value));
    }

    /**
     * @return the value with the optional schema; null bytes (a tombstone) give a null value
     * @throws DataException when the bytes are not exactly one canonical value; the message and the cause are
     *     the deserializer's (topic, byte count, hex preview, reason)
     */
    @Override
    public SchemaAndValue toConnectData(String topic, byte[] value) {
        try {
            return new SchemaAndValue(schema, deserializer.deserialize(topic, value));
        } catch (SerializationException e) {
            throw new DataException("Failed to deserialize " + typeName + ": " + e.getMessage(), e);
        }
    }

    /** A header value, as {@link #fromConnectData}. */
    @Override
    public byte[] fromConnectHeader(String topic, String headerKey, Schema schema, Object value) {
        return fromConnectData(topic, schema, value);
    }

    /** A header value, as {@link #toConnectData}. */
    @Override
    public SchemaAndValue toConnectHeader(String topic, String headerKey, byte[] value) {
        return toConnectData(topic, value);
    }

    /**
     * @return this artifact's version, from the {@code pom.properties} Maven packs into the jar ({@code unknown}
     *     when run from classes, e.g. in tests)
     */
    @Override
    public String version() {
        return VERSION;
    }

    private static String readVersion() {
        try (InputStream in = BijouNumberConverter.class.getResourceAsStream(
                "/META-INF/maven/org.bijou64/bijou64-kafka-connect/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Closes the serdes. */
    @Override
    public void close() {
        Utils.closeQuietly(serializer, "bijou serializer");
        Utils.closeQuietly(deserializer, "bijou deserializer");
    }
}
