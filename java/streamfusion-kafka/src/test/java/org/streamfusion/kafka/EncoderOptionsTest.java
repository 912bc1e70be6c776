package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.Test;

/**
 * The option names the JVM spells ({@link EncoderOptions}) are the native encoder's, declared once in
 * {@code streamfusion_json::OPTIONS}: same names, same order. A name added, renamed or dropped on one side only
 * fails here, not as an "unknown option" at run time.
 */
class EncoderOptionsTest {
    private static void requireNative() {
        assertTrue(
                NativeLibrary.isLoaded(),
                () -> "native library not loaded: "
                        + NativeLibrary.loadError().map(Throwable::getMessage).orElse("unknown reason"));
    }

    @Test
    void namesEqualTheNativeTable() {
        requireNative();
        assertEquals(
                List.of(NativeJsonEncoder.optionNames()),
                EncoderOptions.NAMES,
                "EncoderOptions.NAMES (Java) vs optionNames() (native, streamfusion_json::OPTIONS)");
    }

    @Test
    void namesHoldEveryConstantOnce() throws IllegalAccessException {
        List<String> constants = new ArrayList<>();
        for (Field field : EncoderOptions.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (field.getType() == String.class
                    && Modifier.isPublic(modifiers)
                    && Modifier.isStatic(modifiers)
                    && Modifier.isFinal(modifiers)) {
                constants.add((String) field.get(null));
            }
        }
        assertEquals(new HashSet<>(constants), new HashSet<>(EncoderOptions.NAMES));
        assertEquals(constants.size(), EncoderOptions.NAMES.size(), "a name is declared twice: " + constants);
        assertEquals(EncoderOptions.NAMES.size(), new HashSet<>(EncoderOptions.NAMES).size());
    }

    /**
     * Null map keys in binary rows are the native encoder's to apply unless the key row has a mode or literal of
     * its own (a map is read once for both rows); the Flink front end asks this instead of deciding for itself.
     */
    @Test
    void nullMapKeysAreAppliedNativelyWhenOneModeHoldsForEveryMap() {
        requireNative();
        Map<Map<String, String>, Boolean> cases = new LinkedHashMap<>();
        cases.put(Map.of(), true);
        cases.put(Map.of("map-null-key.mode", "DROP"), true);
        cases.put(Map.of("key.fields", "id", "key.map-null-key.mode", "FAIL"), true);
        cases.put(Map.of("key.fields", "id", "key.map-null-key.mode", "DROP"), false);
        cases.put(
                Map.of(
                        "key.fields", "id",
                        "map-null-key.mode", "LITERAL",
                        "map-null-key.literal", "nil",
                        "key.map-null-key.mode", "LITERAL",
                        "key.map-null-key.literal", "nil"),
                true);
        cases.put(
                Map.of(
                        "key.fields", "id",
                        "map-null-key.mode", "LITERAL",
                        "key.map-null-key.mode", "LITERAL",
                        "key.map-null-key.literal", "nil"),
                false);
        // Without key fields the key row's options reach no record.
        cases.put(Map.of("key.map-null-key.mode", "DROP"), true);
        cases.forEach((options, expected) -> {
            try (NativeJsonEncoder encoder = new NativeJsonEncoder(options)) {
                assertEquals(expected, encoder.appliesNullMapKeys(), options.toString());
            }
        });
        NativeJsonEncoder closed = new NativeJsonEncoder(Map.of());
        closed.close();
        assertThrows(IllegalStateException.class, closed::appliesNullMapKeys);
    }

    @Test
    void anUnknownNameIsRefusedListingTheNames() {
        requireNative();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new NativeJsonEncoder(Map.of("key.field", "id")).close());
        assertEquals(
                "option `key.field`: unknown option; known: " + String.join(", ", EncoderOptions.NAMES),
                e.getMessage());
    }
}
