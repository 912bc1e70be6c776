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
 * What turns a {@code Long} value into record bytes in one run of the comparison. Every Java mode's serde is
 * created and configured exactly as Kafka would from {@code value.serializer} plus the given configs
 * ({@code configure(configs, false)}), and handed to the producer and consumer as an instance, so the
 * benchmark can ask the instance which implementation it really uses.
 *
 * <p>The {@linkplain #isRust() Rust modes} are not run in this JVM: {@link RustBench} starts the
 * {@code streamfusion-bench bench} binary (rdkafka) for them, with the same settings, and reads its result row.
 */
public enum Mode {
    /** Kafka's {@code LongSerializer}: 8 big-endian bytes. The baseline. */
    LONG("long", Map.of()),
    /** bijou64, unsigned mapping, through the native (JNI) library. */
    BIJOU(
            "bijou",
            Map.of(Bijou64SerdeConfig.IMPLEMENTATION_CONFIG, "native", Bijou64SerdeConfig.MAPPING_CONFIG, "unsigned")),
    /** bijou64, unsigned mapping, the pure-Java codec. */
    BIJOU_JAVA(
            "bijou-java",
            Map.of(Bijou64SerdeConfig.USE_JAVA_CONFIG, "true", Bijou64SerdeConfig.MAPPING_CONFIG, "unsigned")),
    /** bijou64s (zigzag mapping) through the native library. */
    BIJOU_ZIGZAG(
            "bijou-zigzag",
            Map.of(Bijou64SerdeConfig.IMPLEMENTATION_CONFIG, "native", Bijou64SerdeConfig.MAPPING_CONFIG, "zigzag")),
    /** Rust (rdkafka): 8 big-endian bytes like {@code LongSerializer}; {@code streamfusion-bench bench --mode long}. */
    RUST_LONG("rust-long", Map.of()),
    /** Rust (rdkafka): bijou64, unsigned mapping, one slab per pass; {@code streamfusion-bench bench --mode bijou}. */
    RUST_BIJOU("rust-bijou", Map.of());

    /** The {@code implementation} of the Rust modes. */
    public static final String RUST = "RUST";

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

    /** True for the modes run by the {@code streamfusion-bench bench} binary instead of this JVM. */
    public boolean isRust() {
        return this == RUST_LONG || this == RUST_BIJOU;
    }

    /** The {@code --mode} of {@code streamfusion-bench bench} for a Rust mode. */
    public String rustBenchMode() {
        return switch (this) {
            case RUST_LONG -> "long";
            case RUST_BIJOU -> "bijou";
            default -> throw new IllegalStateException(cliName + " is not a Rust mode");
        };
    }

    /**
     * The mode whose median the {@code vs long} column divides by: the 8-byte baseline of the same client,
     * {@link #LONG} for the Java modes and {@link #RUST_LONG} for the Rust ones.
     */
    public Mode baseline() {
        return isRust() ? RUST_LONG : LONG;
    }

    /** The class a user would put in {@code value.serializer}, or what makes the bytes for a Rust mode. */
    public String serializerClassName() {
        return switch (this) {
            case LONG -> LongSerializer.class.getName();
            case RUST_LONG -> "streamfusion-bench bench --mode long (rdkafka; 8 big-endian bytes, like LongSerializer)";
            case RUST_BIJOU ->
                "streamfusion-bench bench --mode bijou (rdkafka; bijou64 unsigned, bijou64_kafka::encode_slab)";
            default -> Bijou64Serializer.class.getName();
        };
    }

    /** A new value serializer, configured with {@link #serdeConfigs()} (Java modes only). */
    public Serializer<Long> newSerializer() {
        requireJava();
        Serializer<Long> serializer = this == LONG ? new LongSerializer() : new Bijou64Serializer();
        serializer.configure(serdeConfigs, false);
        return serializer;
    }

    /** A new value deserializer matching {@link #newSerializer()} (Java modes only). */
    public Deserializer<Long> newDeserializer() {
        requireJava();
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
            case RUST_LONG, RUST_BIJOU -> RUST;
        };
    }

    private void requireJava() {
        if (isRust()) {
            throw new IllegalStateException(cliName + " runs in the streamfusion-bench binary, not in this JVM");
        }
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
