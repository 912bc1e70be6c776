package org.bijou64.examples.counter;

import java.util.Locale;

/** How the counter ids (record keys) are typed and serialized. */
public enum KeyType {
    /** {@code Integer} ids in bijou32: {@code key.serializer=org.bijou64.perf.kafka.Bijou32Serializer}. */
    INT("org.bijou64.perf.kafka.Bijou32Serializer", "org.bijou64.perf.kafka.Bijou32Deserializer"),
    /** {@code Long} ids in bijou64: {@code key.serializer=org.bijou64.perf.kafka.Bijou64Serializer}. */
    LONG("org.bijou64.perf.kafka.Bijou64Serializer", "org.bijou64.perf.kafka.Bijou64Deserializer");

    private final String serializer;
    private final String deserializer;

    KeyType(String serializer, String deserializer) {
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    /** The {@code key.serializer} class name. */
    public String serializer() {
        return serializer;
    }

    /** The {@code key.deserializer} class name. */
    public String deserializer() {
        return deserializer;
    }

    /** The key object for counter id {@code id}: an {@code Integer} or a {@code Long}. */
    public Number key(int id) {
        // Not a ?: expression: that would unbox both and promote the Integer to a Long.
        if (this == INT) {
            return Integer.valueOf(id);
        }
        return Long.valueOf(id);
    }

    /** Parses {@code int} or {@code long}. */
    public static KeyType parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "int", "integer" -> INT;
            case "long" -> LONG;
            default -> throw new IllegalArgumentException("--key-type must be int or long, got '" + text + "'");
        };
    }
}
