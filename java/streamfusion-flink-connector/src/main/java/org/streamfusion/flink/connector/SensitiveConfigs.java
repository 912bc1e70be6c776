package org.streamfusion.flink.connector;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;

/**
 * The one rule for which Kafka client properties hold a secret, and a printable copy of a set of properties with
 * those values hidden: what a {@code toString} or a log line may show of the producer properties.
 *
 * <p>A key is secret when, lower-cased, it contains one of the parts Flink's {@code FactoryUtil} hides in the
 * table options it prints ({@code GlobalConfiguration.isSensitive}: {@code password}, {@code secret},
 * {@code token}, {@code jaas.config}, {@code apikey}, {@code api-key}, {@code auth-params},
 * {@code service-key}, {@code basic-auth}, {@code http-headers}, {@code fs.azure.account.key}), or
 * {@code passphrase} or {@code basic.auth} (a Schema Registry client's {@code basic.auth.user.info}, often
 * passed along with the producer's), or is {@code ssl.keystore.key} (the PEM private key); Flink's list misses
 * {@code passphrase} and {@code ssl.keystore.key}, which Kafka types as passwords. That covers every property Kafka's {@code ProducerConfig} types as a password
 * ({@code ConfigDef.Type.PASSWORD}, printed {@code [hidden]} by Kafka's own config log) except the public
 * certificates {@code ssl.keystore.certificate.chain} and {@code ssl.truststore.certificates}, which are shown:
 * {@code sasl.jaas.config}, {@code ssl.key.password}, {@code ssl.keystore.password},
 * {@code ssl.truststore.password}, {@code ssl.keystore.key},
 * {@code sasl.oauthbearer.client.credentials.client.secret},
 * {@code sasl.oauthbearer.assertion.private.key.passphrase}. Class names such as
 * {@code sasl.login.callback.handler.class} are not secret.
 */
@Internal
final class SensitiveConfigs {
    /** What a secret value prints as, as Kafka's {@code Password.toString()} prints one. */
    static final String HIDDEN = "[hidden]";

    /** Parts of a lower-cased key that make its value secret. */
    private static final List<String> SECRET_PARTS = List.of(
            "password",
            "passphrase",
            "secret",
            "token",
            "jaas.config",
            "apikey",
            "api-key",
            "auth-params",
            "service-key",
            "basic-auth",
            "basic.auth",
            "http-headers",
            "fs.azure.account.key");

    /** Whole keys whose value is secret though no part above says so. */
    private static final Set<String> SECRET_KEYS = Set.of("ssl.keystore.key");

    private SensitiveConfigs() {}

    /**
     * @param key a Kafka client property name, without the table's {@code properties.} prefix (with it, the
     *     answer is the same)
     * @return true when the property's value is a secret (see the class comment); false for null
     */
    static boolean isSensitive(String key) {
        if (key == null) {
            return false;
        }
        String lower = key.toLowerCase(Locale.ROOT);
        if (SECRET_KEYS.contains(lower)
                || (lower.startsWith(SinkPlanning.PROPERTIES_PREFIX)
                        && SECRET_KEYS.contains(lower.substring(SinkPlanning.PROPERTIES_PREFIX.length())))) {
            return true;
        }
        return SECRET_PARTS.stream().anyMatch(lower::contains);
    }

    /**
     * @param properties Kafka client properties (keys and values of any type, printed with
     *     {@code String.valueOf}); not modified
     * @return an unmodifiable copy sorted by key, each secret value replaced by {@value #HIDDEN}: its
     *     {@code toString} is what may be printed
     */
    static SortedMap<String, String> redact(Properties properties) {
        SortedMap<String, String> shown = new TreeMap<>();
        for (Map.Entry<Object, Object> entry : properties.entrySet()) {
            String key = String.valueOf(entry.getKey());
            shown.put(key, isSensitive(key) ? HIDDEN : String.valueOf(entry.getValue()));
        }
        return Collections.unmodifiableSortedMap(shown);
    }
}
