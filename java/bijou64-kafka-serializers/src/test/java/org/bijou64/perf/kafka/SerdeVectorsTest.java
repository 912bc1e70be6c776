package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.bijou64.Bijou64Exception;
import org.bijou64.Implementation;
import org.bijou64.Implementations;
import org.bijou64.Mapping;
import org.bijou64.Vectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector row through the Kafka serde API, for both implementations and every overload. */
class SerdeVectorsTest {
    static List<Implementation> implementations() {
        return Implementations.all();
    }

    static Map<String, Object> configs(Implementation impl, Mapping mapping) {
        return Map.of(
                Bijou64SerdeConfig.IMPLEMENTATION_CONFIG,
                impl.name().toLowerCase(java.util.Locale.ROOT),
                Bijou64SerdeConfig.MAPPING_CONFIG,
                mapping.configName());
    }

    /** What a serde configured with {@code impl} uses: {@code auto} means the per-record default, pure Java. */
    static Implementation expected(Implementation impl) {
        return impl == Implementation.AUTO ? Implementation.JAVA : impl;
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void everyValidRow(Implementation impl) {
        for (Vectors.Valid row : Vectors.valid()) {
            Map<String, Object> configs = configs(impl, row.mapping());
            if (row.isLong()) {
                try (Bijou64Serializer ser = new Bijou64Serializer();
                        Bijou64Deserializer de = new Bijou64Deserializer()) {
                    ser.configure(configs, false);
                    de.configure(configs, true);
                    assertEquals(expected(impl), ser.implementation());
                    assertEquals(expected(impl), de.implementation());
                    Long value = row.longValue();
                    assertArrayEquals(row.bytes(), ser.serialize("t", value), row::toString);
                    assertArrayEquals(row.bytes(), ser.serialize("t", new RecordHeaders(), value), row::toString);
                    assertEquals(value, de.deserialize("t", row.bytes()), row::toString);
                    assertEquals(value, de.deserialize("t", new RecordHeaders(), row.bytes()), row::toString);
                    assertEquals(
                            value,
                            de.deserialize("t", new RecordHeaders(), ByteBuffer.wrap(row.bytes())),
                            row::toString);
                }
            } else {
                try (Bijou32Serializer ser = new Bijou32Serializer();
                        Bijou32Deserializer de = new Bijou32Deserializer()) {
                    ser.configure(configs, false);
                    de.configure(configs, false);
                    Integer value = row.intValue();
                    assertArrayEquals(row.bytes(), ser.serialize("t", value), row::toString);
                    assertEquals(value, de.deserialize("t", row.bytes()), row::toString);
                    assertEquals(
                            value,
                            de.deserialize("t", new RecordHeaders(), ByteBuffer.wrap(row.bytes())),
                            row::toString);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void everyInvalidRowIsASerializationException(Implementation impl) {
        try (Bijou64Deserializer de = new Bijou64Deserializer()) {
            de.configure(configs(impl, Mapping.UNSIGNED), false);
            for (Vectors.Invalid row : Vectors.invalid()) {
                if (row.expected().startsWith("ok:")) {
                    assertEquals(
                            Long.parseUnsignedLong(row.expected().substring(3)), de.deserialize("orders", row.bytes()));
                    continue;
                }
                SerializationException e = assertThrows(
                        SerializationException.class, () -> de.deserialize("orders", row.bytes()), row::toString);
                String hex = HexFormat.ofDelimiter(" ").formatHex(row.bytes());
                String expectedStart = "Error deserializing bijou64 Long from topic 'orders': " + row.bytes().length
                        + (row.bytes().length == 1 ? " byte [" : " bytes [") + hex + "]: ";
                assertTrue(
                        e.getMessage().startsWith(expectedStart),
                        () -> e.getMessage() + " should start with " + expectedStart);
                Bijou64Exception cause = (Bijou64Exception) e.getCause();
                assertEquals(row.expected(), cause.kind().word(), row::toString);
                assertTrue(e.getMessage().endsWith(cause.getMessage()), e::getMessage);
            }
        }
    }
}
