package org.bijou64.perf.kafka;

import java.util.Locale;
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
    /**
     * {@code bijou64.implementation}: {@code auto} (default: the implementation measured fastest for one record
     * at a time, which is pure Java — see {@code docs/benchmarks.md}), {@code native} (the Rust core through JNI,
     * one crossing per record; a {@link ConfigException} when the library is not available) or {@code java}.
     */
    public static final String IMPLEMENTATION_CONFIG = "bijou64.implementation";
    /** {@code bijou64.useJava}: true forces the pure-Java codec, whatever {@code bijou64.implementation} says. */
    public static final String USE_JAVA_CONFIG = "bijou64.useJava";

    /**
     * What {@code auto} means for the serdes, which handle one record per call: pure Java, measured at about the
     * speed of Kafka's {@code LongSerializer}, while a JNI crossing costs several times the whole encode
     * ({@code docs/benchmarks.md}).
     */
    static final Implementation PER_RECORD_DEFAULT = Implementation.JAVA;
    /** {@code bijou64.mapping}: {@code unsigned} (default) or {@code zigzag}. */
    public static final String MAPPING_CONFIG = "bijou64.mapping";

    /** The definition of both keys, with defaults, validators and documentation. */
    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(
                    IMPLEMENTATION_CONFIG,
                    Type.STRING,
                    "auto",
                    ConfigDef.CaseInsensitiveValidString.in("auto", "native", "java"),
                    Importance.LOW,
                    "Which codec does the work: 'auto' (the one measured fastest per record: pure Java), 'native' "
                            + "(the Rust core through JNI; fails at configure time when the library is not available) "
                            + "or 'java'. All write the same bytes.")
            .define(
                    USE_JAVA_CONFIG,
                    Type.BOOLEAN,
                    false,
                    new ConfigDef.NonNullValidator(),
                    Importance.LOW,
                    "Use the pure-Java codec instead of the native library. The system property "
                            + "-Dbijou64.useJava=true has the same effect for the whole JVM. Both write the same bytes.")
            .define(
                    MAPPING_CONFIG,
                    Type.STRING,
                    "unsigned",
                    (name, value) -> {
                        try {
                            Mapping.parse((String) value);
                        } catch (IllegalArgumentException e) {
                            throw new ConfigException(name, value, e.getMessage());
                        }
                    },
                    Importance.MEDIUM,
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
     * @return JAVA when {@code bijou64.useJava} is true, NATIVE for {@code bijou64.implementation=native}, else the
     *     per-record default (JAVA, by measurement)
     * @throws ConfigException for {@code native} when the native library is not available (the message says why)
     */
    public Implementation implementation() {
        if (getBoolean(USE_JAVA_CONFIG)) {
            return Implementation.JAVA;
        }
        switch (getString(IMPLEMENTATION_CONFIG).toLowerCase(Locale.ROOT)) {
            case "native":
                if (!Bijou64.nativeAvailable()) {
                    throw new ConfigException(
                            IMPLEMENTATION_CONFIG,
                            "native",
                            "the bijou64 native library is not " + "available: "
                                    + Bijou64.nativeLoadError()
                                            .map(Throwable::getMessage)
                                            .orElse("?"));
                }
                return Implementation.NATIVE;
            case "java":
                return Implementation.JAVA;
            default:
                return PER_RECORD_DEFAULT;
        }
    }

    /**
     * @param pinned the mapping fixed in code, or null for the configured one
     * @throws ConfigException when {@code bijou64.mapping} is set to another mapping than {@code pinned}: a
     *     producer and a consumer that disagree on the mapping read each other's values wrongly
     */
    LongCodec longCodec(Mapping pinned) {
        return Bijou64.codec(mapping(pinned), implementation());
    }

    /** As {@link #longCodec(Mapping)}, for bijou32. */
    IntCodec intCodec(Mapping pinned) {
        return Bijou32.codec(mapping(pinned), implementation());
    }

    private Mapping mapping(Mapping pinned) {
        if (pinned == null) {
            return mapping();
        }
        if (originals().containsKey(MAPPING_CONFIG) && mapping() != pinned) {
            throw new ConfigException(
                    MAPPING_CONFIG,
                    getString(MAPPING_CONFIG),
                    "this serde was created for the "
                            + pinned.name().toLowerCase(Locale.ROOT)
                            + " mapping (Bijou64Serdes); remove the setting or use "
                            + "the same mapping");
        }
        return pinned;
    }
}
