package org.bijou64.kafka.connect;

import static org.bijou64.ByteInputs.hex;
import static org.bijou64.ByteInputs.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.bijou64.Bijou32;
import org.bijou64.Bijou64;
import org.bijou64.Bijou64Exception;
import org.bijou64.ByteInputs;
import org.bijou64.Implementation;
import org.bijou64.Implementations;
import org.bijou64.Mapping;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/**
 * Property tests (QuickTheories) of the converters as a Connect worker calls them, every implementation and
 * mapping, as value, key and header converter: the inputs of {@link ByteInputs#records()} give the value the
 * pure-Java codec decodes with the optional INT64/INT32 schema, or a {@link DataException} whose message is
 * the same for every implementation and whose cause chain is the deserializer's {@link SerializationException}
 * and the codec's {@link Bijou64Exception}. Never another value.
 */
class ConverterProperties {
    @Test
    void int64ConvertersGiveTheJavaCodecsValueOrADataException() {
        qt().withExamples(5_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    String expected = outcome(
                            () -> Bijou64.codec(mapping, Implementation.JAVA).decode(record));
                    check(record, expected, Schema.OPTIONAL_INT64_SCHEMA, mapping, true);
                });
    }

    @Test
    void int32ConvertersGiveTheJavaCodecsValueOrADataException() {
        qt().withExamples(5_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    String expected = outcome(
                            () -> Bijou32.codec(mapping, Implementation.JAVA).decode(record));
                    check(record, expected, Schema.OPTIONAL_INT32_SCHEMA, mapping, false);
                });
    }

    /** Value, key and header converter per implementation, mapping and width, each configured once. */
    private static final Map<String, List<BijouNumberConverter<?>>> CONVERTERS = new HashMap<>();

    private static List<BijouNumberConverter<?>> converters(
            Implementation implementation, Mapping mapping, boolean int64) {
        Supplier<BijouNumberConverter<?>> make = int64 ? Bijou64Converter::new : Bijou32Converter::new;
        return CONVERTERS.computeIfAbsent(implementation + "/" + mapping + "/" + int64, k -> {
            Map<String, String> options = Map.of(
                    "bijou64.implementation",
                    implementation.name().toLowerCase(),
                    "bijou64.mapping",
                    mapping.name().toLowerCase());
            BijouNumberConverter<?> values = make.get();
            values.configure(options, false);
            BijouNumberConverter<?> keys = make.get();
            keys.configure(options, true);
            BijouNumberConverter<?> headers = make.get();
            Map<String, String> headerOptions = new HashMap<>(options);
            headerOptions.put(ConverterConfig.TYPE_CONFIG, "header");
            headers.configure(headerOptions);
            return List.of(values, keys, headers);
        });
    }

    private static void check(byte[] record, String expected, Schema schema, Mapping mapping, boolean int64) {
        String message = null;
        for (Implementation implementation : Implementations.all()) {
            List<BijouNumberConverter<?>> c = converters(implementation, mapping, int64);
            List<Supplier<SchemaAndValue>> calls = List.of(
                    () -> c.get(0).toConnectData("t", record),
                    () -> c.get(1).toConnectData("t", record),
                    () -> c.get(2).toConnectHeader("t", "h", record));
            for (Supplier<SchemaAndValue> call : calls) {
                String where = implementation + " " + mapping + " " + hex(record);
                if (expected.startsWith("ok:")) {
                    SchemaAndValue read = call.get();
                    assertEquals(schema, read.schema(), where);
                    assertEquals(expected, "ok:" + read.value(), where);
                } else {
                    DataException e = assertThrows(DataException.class, call::get, where);
                    assertInstanceOf(SerializationException.class, e.getCause(), where);
                    assertInstanceOf(Bijou64Exception.class, e.getCause().getCause(), where);
                    assertTrue(e.getMessage().endsWith(e.getCause().getMessage()), where);
                    if (message == null) {
                        message = e.getMessage();
                    }
                    assertEquals(message, e.getMessage(), where);
                }
            }
        }
    }
}
