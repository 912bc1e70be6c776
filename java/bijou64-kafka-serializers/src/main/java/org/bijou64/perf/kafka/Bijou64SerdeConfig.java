package org.bijou64.perf.kafka;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.bijou64.Bijou32;
import org.bijou64.Bijou64;
import org.bijou64.Implementation;
import org.bijou64.IntCodec;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;

/**
 * The serdes' configuration, read from the producer/consumer configs in
 * {@code configure(configs, isKey)}; the same keys serve key and value serdes. Documented in
 * {@code docs/configuration.md}.
 */
public final class Bijou64SerdeConfig extends AbstractConfig {
    /** {@code bijou64.useJava}: true forces the pure-Java codec (default false: native when it loads). */
    public static final String USE_JAVA_CONFIG = "bijou64.useJava";
    /** {@code bijou64.mapping}: {@code unsigned} (default) or {@code zigzag}. */
    public static final String MAPPING_CONFIG = "bijou64.mapping";

    /** The definition of both keys, with defaults, validators and documentation. */
    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(USE_JAVA_CONFIG, Type.BOOLEAN, false, new ConfigDef.NonNullValidator(), Importance.LOW,
                    "Use the pure-Java codec instead of the native library. The system property "
                            + "-Dbijou64.useJava=true has the same effect for the whole JVM. Both write the same bytes.")
            .define(MAPPING_CONFIG, Type.STRING, "unsigned", (name, value) -> {
                try {
                    Mapping.parse((String) value);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }, Importance.MEDIUM,
                    "How signed values map onto the format: 'unsigned' (bijou64/bijou32 of the two's-complement "
                            + "bits; non-negative values sort by their bytes) or 'zigzag' (bijou64s/bijou32s; small "
                            + "negative values stay short). Producer and consumer must agree.");

    private Bijou64SerdeConfig(Map<String, ?> configs) {
        super(CONFIG_DEF, configs, false);
    }

    /**
     * @param configs the client configs passed to {@code configure}
     * @return the parsed configuration
     * @throws ConfigException for a value that is not a boolean, or a mapping other than unsigned/zigzag
     */
    public static Bijou64SerdeConfig from(Map<String, ?> configs) {
        return new Bijou64SerdeConfig(configs);
    }

    /** @return the configured mapping */
    public Mapping mapping() {
        return Mapping.parse(getString(MAPPING_CONFIG));
    }

    /**
     * @return JAVA when {@code bijou64.useJava} is true in the configs or as a system property, else the
     *     active implementation (NATIVE when the library loaded)
     */
    public Implementation implementation() {
        return getBoolean(USE_JAVA_CONFIG) ? Implementation.JAVA : Bijou64.implementation();
    }

    LongCodec longCodec() {
        return Bijou64.codec(mapping(), implementation());
    }

    IntCodec intCodec() {
        return Bijou32.codec(mapping(), implementation());
    }
}
