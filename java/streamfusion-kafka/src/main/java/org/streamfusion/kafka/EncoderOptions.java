package org.streamfusion.kafka;

import java.util.List;

/**
 * The names of the native JSON encoder's options: the keys of the map
 * {@link NativeJsonEncoder#NativeJsonEncoder(java.util.Map)} takes. Each option is declared once natively, with
 * its default and meaning, in {@code streamfusion_json::OPTIONS} ({@code rust/streamfusion-json/src/options.rs};
 * the table in {@code docs/json-format.md}); these constants mirror the names, and {@code EncoderOptionsTest}
 * fails when {@link #NAMES} differs from the native table (same names, same order). Flink's names where Flink
 * has the option ({@code JsonFormatOptions} without the {@code json.} prefix, {@code KafkaConnectorOptions});
 * the others are StreamFusion's. Options of the JVM front ends ({@code native.min-batch-rows},
 * {@code native.handoff}, {@code changelog.mode} of {@code RowDataJsonEncoder}) are not encoder options and are
 * not listed here.
 */
public final class EncoderOptions {
    /** {@code mode}: {@code flink} (default, Flink's {@code json} format) or {@code plain} (arrow-json's writer). */
    public static final String MODE = "mode";
    /** {@code flink.version}: the Flink release reproduced where releases differ, {@code 1.19} to {@code 2.3}. */
    public static final String FLINK_VERSION = "flink.version";
    /**
     * {@code float.java-digits}: whose {@code Float}/{@code Double.toString} digits FLOAT and DOUBLE are written
     * with, {@code jdk19} (default: JDK 19 and later, shortest) or {@code jdk17} (JDK 18 and earlier,
     * {@code FloatingDecimal}). The Flink front ends set it from the JVM they run on.
     */
    public static final String FLOAT_JAVA_DIGITS = "float.java-digits";
    /** Flink's {@code timestamp-format.standard}: {@code SQL} (default) or {@code ISO-8601}. */
    public static final String TIMESTAMP_FORMAT_STANDARD = "timestamp-format.standard";
    /** Flink's {@code map-null-key.mode}: {@code FAIL} (default), {@code DROP} or {@code LITERAL}. */
    public static final String MAP_NULL_KEY_MODE = "map-null-key.mode";
    /** Flink's {@code map-null-key.literal}: the key written for a null map key under {@code LITERAL}. */
    public static final String MAP_NULL_KEY_LITERAL = "map-null-key.literal";
    /** Flink's {@code encode.decimal-as-plain-number}: {@code true} or {@code false} (default). */
    public static final String ENCODE_DECIMAL_AS_PLAIN_NUMBER = "encode.decimal-as-plain-number";
    /** Flink's {@code encode.ignore-null-fields} (Flink 1.20+): {@code true} or {@code false} (default). */
    public static final String ENCODE_IGNORE_NULL_FIELDS = "encode.ignore-null-fields";
    /**
     * The key row's own {@code timestamp-format.standard} (as Flink's {@code key.json.timestamp-format.standard}
     * beside {@code value.json.*}); unset: the value row's. Likewise the four below for the other format options.
     */
    public static final String KEY_TIMESTAMP_FORMAT_STANDARD = "key.timestamp-format.standard";
    /** The key row's own {@code map-null-key.mode}; unset: the value row's. */
    public static final String KEY_MAP_NULL_KEY_MODE = "key.map-null-key.mode";
    /** The key row's own {@code map-null-key.literal}; unset: the value row's. */
    public static final String KEY_MAP_NULL_KEY_LITERAL = "key.map-null-key.literal";
    /** The key row's own {@code encode.decimal-as-plain-number}; unset: the value row's. */
    public static final String KEY_ENCODE_DECIMAL_AS_PLAIN_NUMBER = "key.encode.decimal-as-plain-number";
    /** The key row's own {@code encode.ignore-null-fields}; unset: the value row's. */
    public static final String KEY_ENCODE_IGNORE_NULL_FIELDS = "key.encode.ignore-null-fields";
    /** The Kafka connector's {@code key.fields}: the key row's columns, {@code ;}-separated; none: null keys. */
    public static final String KEY_FIELDS = "key.fields";
    /** The Kafka connector's {@code key.fields-prefix}, stripped from the key row's field names. */
    public static final String KEY_FIELDS_PREFIX = "key.fields-prefix";
    /** The Kafka connector's {@code value.fields-include}: {@code ALL} (default) or {@code EXCEPT_KEY}. */
    public static final String VALUE_FIELDS_INCLUDE = "value.fields-include";
    /** {@code changelog.row-kind-column}: the column of Flink row kinds that makes the output an upsert stream. */
    public static final String CHANGELOG_ROW_KIND_COLUMN = "changelog.row-kind-column";
    /** {@code plain.explicit-nulls} (plain mode): {@code true} writes null fields; {@code false} (default) omits. */
    public static final String PLAIN_EXPLICIT_NULLS = "plain.explicit-nulls";

    /**
     * Every option name above, in the order of the native table (and of the native encoder's
     * "unknown option; known: ..." message). Immutable.
     */
    public static final List<String> NAMES = List.of(
            MODE,
            FLINK_VERSION,
            FLOAT_JAVA_DIGITS,
            TIMESTAMP_FORMAT_STANDARD,
            MAP_NULL_KEY_MODE,
            MAP_NULL_KEY_LITERAL,
            ENCODE_DECIMAL_AS_PLAIN_NUMBER,
            ENCODE_IGNORE_NULL_FIELDS,
            KEY_TIMESTAMP_FORMAT_STANDARD,
            KEY_MAP_NULL_KEY_MODE,
            KEY_MAP_NULL_KEY_LITERAL,
            KEY_ENCODE_DECIMAL_AS_PLAIN_NUMBER,
            KEY_ENCODE_IGNORE_NULL_FIELDS,
            KEY_FIELDS,
            KEY_FIELDS_PREFIX,
            VALUE_FIELDS_INCLUDE,
            CHANGELOG_ROW_KIND_COLUMN,
            PLAIN_EXPLICIT_NULLS);

    private EncoderOptions() {}
}
