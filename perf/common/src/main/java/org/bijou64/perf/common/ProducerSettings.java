package org.bijou64.perf.common;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The producer settings every producer comparison uses ({@code batch.size}, {@code linger.ms}, {@code acks},
 * {@code enable.idempotence}), read from {@code perf/common/producer.properties}, the file {@code perf/rust}
 * compiles in too; {@code compression.type} is added per run by each tool.
 */
public final class ProducerSettings {
    private static final String RESOURCE = "producer.properties";
    private static final Map<String, String> SETTINGS = load();

    private ProducerSettings() {}

    /**
     * The settings in the file's order (the order the tools print them).
     *
     * @return an unmodifiable map of Kafka producer config names to values
     */
    public static Map<String, String> get() {
        return SETTINGS;
    }

    /** The settings as one line, {@code key=value} separated by spaces, in the file's order. */
    public static String line() {
        return SETTINGS.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    /**
     * Parses {@code key=value} lines; blank lines and lines starting with {@code #} are skipped, spaces around
     * keys and values are trimmed.
     *
     * @throws IllegalArgumentException for a line without {@code =}, an empty key or a key given twice
     */
    static Map<String, String> parse(String text) {
        Map<String, String> settings = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String key = eq < 0 ? "" : line.substring(0, eq).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException(
                        RESOURCE + ":" + (i + 1) + ": expected key=value, got '" + line + "'");
            }
            if (settings.put(key, line.substring(eq + 1).strip()) != null) {
                throw new IllegalArgumentException(RESOURCE + ":" + (i + 1) + ": " + key + " is set twice");
            }
        }
        return Collections.unmodifiableMap(settings);
    }

    private static Map<String, String> load() {
        return parse(Resources.text(RESOURCE));
    }
}
