package org.bijou64.perf.kafka;

import static org.bijou64.ByteInputs.hex;
import static org.bijou64.ByteInputs.outcome;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
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
 * Property tests (QuickTheories) of the Kafka deserializers, every implementation ({@code bijou64.implementation})
 * and mapping: the inputs of {@link ByteInputs#records()} give the value the pure-Java codec decodes, through
 * the {@code byte[]} and the {@code ByteBuffer} overload (heap and direct), or a {@link SerializationException}
 * whose message is the same for every implementation, names the topic, the byte count and the hex preview, and
 * whose cause is the codec's {@link Bijou64Exception}. Never another value, never another exception type.
 */
class DeserializerProperties {
    private static final String TOPIC = "longs-topic";

    @Test
    void longDeserializersGiveTheJavaCodecsValueOrTheSameSerializationException() {
        qt().withExamples(10_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    String expected = outcome(
                            () -> Bijou64.codec(mapping, Implementation.JAVA).decode(record));
                    check(
                            record,
                            expected,
                            deserializers(mapping, Bijou64Deserializer::new),
                            "bijou64" + (mapping == Mapping.ZIGZAG ? "s" : "") + " Long");
                });
    }

    @Test
    void intDeserializersGiveTheJavaCodecsValueOrTheSameSerializationException() {
        qt().withExamples(10_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    String expected = outcome(
                            () -> Bijou32.codec(mapping, Implementation.JAVA).decode(record));
                    check(
                            record,
                            expected,
                            deserializers(mapping, Bijou32Deserializer::new),
                            "bijou32" + (mapping == Mapping.ZIGZAG ? "s" : "") + " Integer");
                });
    }

    @Test
    void nullIsNullInEveryOverload() {
        for (Mapping mapping : Mapping.values()) {
            for (Named<Long> d : deserializers(mapping, Bijou64Deserializer::new)) {
                assertNull(d.deserializer().deserialize(TOPIC, null));
                assertNull(d.deserializer().deserialize(TOPIC, new RecordHeaders(), (ByteBuffer) null));
            }
            for (Named<Integer> d : deserializers(mapping, Bijou32Deserializer::new)) {
                assertNull(d.deserializer().deserialize(TOPIC, null));
                assertNull(d.deserializer().deserialize(TOPIC, new RecordHeaders(), (ByteBuffer) null));
            }
        }
    }

    private static <T extends Number> void check(
            byte[] record, String expected, List<Named<T>> deserializers, String what) {
        String message = null;
        for (Named<T> named : deserializers) {
            Deserializer<T> d = named.deserializer();
            String where = named.implementation() + " " + hex(record);
            ByteBuffer heap = ByteBuffer.allocate(record.length + 3)
                    .put(new byte[] {9, 9})
                    .put(record);
            heap.position(2).limit(2 + record.length);
            ByteBuffer direct =
                    ByteBuffer.allocateDirect(record.length).put(record).flip();
            List<Supplier<T>> overloads = List.of(
                    () -> d.deserialize(TOPIC, record),
                    () -> d.deserialize(TOPIC, new RecordHeaders(), record),
                    () -> d.deserialize(TOPIC, new RecordHeaders(), heap),
                    () -> d.deserialize(TOPIC, new RecordHeaders(), direct));
            for (Supplier<T> overload : overloads) {
                if (expected.startsWith("ok:")) {
                    assertEquals(expected, "ok:" + overload.get(), where);
                } else {
                    SerializationException e = assertThrows(SerializationException.class, overload::get, where);
                    assertInstanceOf(Bijou64Exception.class, e.getCause(), where);
                    assertTrue(expected.startsWith("Bijou64Exception:"), () -> where + ": the codec threw " + expected);
                    assertTrue(
                            e.getMessage()
                                    .startsWith("Error deserializing " + what + " from topic '" + TOPIC + "': "
                                            + record.length + (record.length == 1 ? " byte [" : " bytes [")),
                            () -> where + ": " + e.getMessage());
                    assertTrue(e.getMessage().endsWith("]: " + e.getCause().getMessage()), where);
                    if (message == null) {
                        message = e.getMessage();
                    }
                    assertEquals(message, e.getMessage(), where);
                }
            }
            assertEquals(2, heap.position(), () -> where + ": the heap buffer's position moved");
            assertEquals(0, direct.position(), () -> where + ": the direct buffer's position moved");
        }
    }

    /** A deserializer and the implementation it was configured with. */
    private record Named<T>(Implementation implementation, Deserializer<T> deserializer) {}

    /** One deserializer per implementation (java, native, auto), configured for {@code mapping}. */
    private static <T extends Number> List<Named<T>> deserializers(
            Mapping mapping, Supplier<? extends Deserializer<T>> make) {
        return Implementations.all().stream()
                .map(implementation -> {
                    Deserializer<T> d = make.get();
                    d.configure(
                            Map.of(
                                    Bijou64SerdeConfig.IMPLEMENTATION_CONFIG,
                                    implementation.name().toLowerCase(),
                                    Bijou64SerdeConfig.MAPPING_CONFIG,
                                    mapping.name().toLowerCase()),
                            false);
                    return new Named<T>(implementation, d);
                })
                .toList();
    }

    @Test
    void serializersWriteTheJavaCodecsBytesForAnyValue() {
        qt().withExamples(10_000)
                .forAll(
                        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE),
                        Generate.range(0, 63),
                        Generate.enumValues(Mapping.class))
                .checkAssert((v, shift, mapping) -> {
                    long value = v >> shift;
                    byte[] expected =
                            Bijou64.codec(mapping, Implementation.JAVA).encode(value);
                    for (Implementation implementation : Implementations.all()) {
                        try (Bijou64Serializer s = new Bijou64Serializer()) {
                            s.configure(
                                    Map.of(
                                            Bijou64SerdeConfig.IMPLEMENTATION_CONFIG,
                                            implementation.name().toLowerCase(),
                                            Bijou64SerdeConfig.MAPPING_CONFIG,
                                            mapping.name().toLowerCase()),
                                    false);
                            assertArrayEquals(expected, s.serialize(TOPIC, value), () -> implementation + " " + value);
                        }
                        try (Bijou32Serializer s = new Bijou32Serializer()) {
                            s.configure(
                                    Map.of(
                                            Bijou64SerdeConfig.IMPLEMENTATION_CONFIG,
                                            implementation.name().toLowerCase(),
                                            Bijou64SerdeConfig.MAPPING_CONFIG,
                                            mapping.name().toLowerCase()),
                                    false);
                            assertArrayEquals(
                                    Bijou32.codec(mapping, Implementation.JAVA).encode((int) value),
                                    s.serialize(TOPIC, (int) value),
                                    () -> implementation + " " + (int) value);
                        }
                    }
                });
    }
}
