package org.bijou64.perf.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.bijou64.perf.kafka.Bijou64SerdeConfig;
import org.bijou64.perf.kafka.Bijou64Serializer;

/**
 * What turns a {@code Long} value into record bytes in one run of the comparison. Every mode's serde is
 * created and configured exactly as Kafka would from {@code value.serializer} plus the given configs
 * ({@code configure(configs, false)}), and handed to the producer and consumer as an instance, so the
 * benchmark can ask the instance which implementation it really uses.
 */
public enum Mode {
    /** Kafka's {@code LongSerializer}: 8 big-endian bytes. The baseline. */
    LONG("long", Map.of()),
    /** bijou64, unsigned mapping, through the native (JNI) library. */
    BIJOU("bijou", Map.of(Bijou64SerdeConfig.USE_JAVA_CONFIG, "false", Bijou64SerdeConfig.MAPPING_CONFIG, "unsigned")),
    /** bijou64, unsigned mapping, the pure-Java codec. */
    BIJOU_JAVA("bijou-java", Map.of(Bijou64SerdeConfig.USE_JAVA_CONFIG, "true", Bijou64SerdeConfig.MAPPING_CONFIG, "unsigned")),
    /** bijou64s (zigzag mapping) through the native library. */
    BIJOU_ZIGZAG("bijou-zigzag", Map.of(Bijou64SerdeConfig.USE_JAVA_CONFIG, "false", Bijou64SerdeConfig.MAPPING_CONFIG, "zigzag"));

    /** Written for {@link #LONG}, whose serializer is neither bijou implementation. */
    public static final String NOT_APPLICABLE = "-";

    private final String cliName;
    private final Map<String, String> serdeConfigs;

    Mode(String cliName, Map<String, String> serdeConfigs) {
        this.cliName = cliName;
        this.serdeConfigs = serdeConfigs;
    }

    /** The command-line and CSV name, e.g. {@code bijou-java}. */
    public String cliName() {
        return cliName;
    }

    /** The serde configs this mode adds to the producer and consumer configs (empty for {@link #LONG}). */
    public Map<String, String> serdeConfigs() {
        return serdeConfigs;
    }

    /** The class a user would put in {@code value.serializer}. */
    public String serializerClassName() {
        return this == LONG ? LongSerializer.class.getName() : Bijou64Serializer.class.getName();
    }

    /** A new value serializer, configured with {@link #serdeConfigs()}. */
    public Serializer<Long> newSerializer() {
        Serializer<Long> serializer = this == LONG ? new LongSerializer() : new Bijou64Serializer();
        serializer.configure(serdeConfigs, false);
        return serializer;
    }

    /** A new value deserializer matching {@link #newSerializer()}. */
    public Deserializer<Long> newDeserializer() {
        Deserializer<Long> deserializer = this == LONG ? new LongDeserializer() : new Bijou64Deserializer();
        deserializer.configure(serdeConfigs, false);
        return deserializer;
    }

    /**
     * Which codec implementation a serializer made by {@link #newSerializer()} uses: {@code NATIVE} or
     * {@code JAVA} for the bijou modes, {@link #NOT_APPLICABLE} for {@link #LONG}.
     */
    public static String implementationOf(Serializer<Long> serializer) {
        if (serializer instanceof Bijou64Serializer bijou) {
            return bijou.implementation().name();
        }
        return NOT_APPLICABLE;
    }

    /** The implementation this mode asks for, to flag a silent fallback (native library not loaded). */
    public String expectedImplementation() {
        return switch (this) {
            case LONG -> NOT_APPLICABLE;
            case BIJOU_JAVA -> "JAVA";
            case BIJOU, BIJOU_ZIGZAG -> "NATIVE";
        };
    }

    /**
     * Parses a command-line name.
     *
     * @throws IllegalArgumentException naming the valid choices
     */
    public static Mode parse(String name) {
        for (Mode m : values()) {
            if (m.cliName.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + name + "' (choose from "
                + String.join(", ", Arrays.stream(values()).map(Mode::cliName).toList()) + ")");
    }
}
