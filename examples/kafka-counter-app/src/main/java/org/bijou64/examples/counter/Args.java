package org.bijou64.examples.counter;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A minimal {@code --name value} command-line parser for the two example programs. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    private Args() {}

    /**
     * Parses {@code --name value} pairs; {@code flags} take no value and are stored as {@code "true"}.
     *
     * @throws IllegalArgumentException for an unknown option or a missing value
     */
    static Args parse(String[] args, Set<String> options, Set<String> flags) {
        Args parsed = new Args();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (flags.contains(name)) {
                parsed.values.put(name, "true");
            } else if (options.contains(name)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                parsed.values.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument " + name);
            }
        }
        return parsed;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    boolean flag(String name) {
        return values.containsKey(name);
    }

    int positiveInt(String name, int fallback) {
        String text = values.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a non-negative integer, got '" + text + "'");
    }
}
