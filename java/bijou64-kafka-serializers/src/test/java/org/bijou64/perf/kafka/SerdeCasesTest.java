package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.LongSerializer;
import org.bijou64.Bijou64;
import org.bijou64.Bijou64Exception;
import org.bijou64.Implementation;
import org.bijou64.Implementations;
import org.bijou64.Mapping;
import org.bijou64.Vectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Small inputs that broke other varint serdes, through the Kafka serdes (a lone tag byte, trailing bytes, overflow,
 * a short payload, an empty record, {@code LongSerializer}'s bytes, tombstones, byte buffers at a position, the
 * extreme values), and the configuration contract.
 */
class SerdeCasesTest {
    static List<Implementation> implementations() {
        return Implementations.all();
    }

    private static Bijou64Deserializer longDeserializer(Implementation impl, Mapping mapping) {
        Bijou64Deserializer de = new Bijou64Deserializer();
        de.configure(SerdeVectorsTest.configs(impl, mapping), false);
        return de;
    }

    private static Bijou64Exception.Kind failure(Bijou64Deserializer de, byte[] bytes) {
        SerializationException e = assertThrows(SerializationException.class, () -> de.deserialize("t", bytes));
        return ((Bijou64Exception) e.getCause()).kind();
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void malformedRecordsFailWithTheirKind(Implementation impl) {
        Bijou64Deserializer de = longDeserializer(impl, Mapping.UNSIGNED);
        assertEquals(Bijou64Exception.Kind.TRUNCATED, failure(de, Vectors.hex("f8")));
        assertEquals(Bijou64Exception.Kind.TRUNCATED, failure(de, Vectors.hex("ff")));
        assertEquals(Bijou64Exception.Kind.TRAILING_BYTES, failure(de, Vectors.hex("2a99")));
        assertEquals(Bijou64Exception.Kind.OVERFLOW, failure(de, Vectors.hex("fffefefefefefefe08")));
        assertEquals(Bijou64Exception.Kind.OVERFLOW, failure(de, Vectors.hex("ffffffffffffffffff")));
        assertEquals(Bijou64Exception.Kind.TRUNCATED, failure(de, Vectors.hex("fb000000")));
        assertEquals(Bijou64Exception.Kind.EMPTY, failure(de, new byte[0]));
        assertThrows(
                SerializationException.class, () -> de.deserialize("t", new RecordHeaders(), ByteBuffer.allocate(0)));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void longSerializerBytesAreNeverReadAsAValue(Implementation impl) {
        Bijou64Deserializer de = longDeserializer(impl, Mapping.UNSIGNED);
        try (LongSerializer stock = new LongSerializer()) {
            byte[] bytes = stock.serialize("orders", 42L);
            SerializationException e =
                    assertThrows(SerializationException.class, () -> de.deserialize("orders", bytes));
            assertEquals(
                    "Error deserializing bijou64 Long from topic 'orders': 8 bytes [00 00 00 00 00 00 00 2a]: "
                            + "trailing bytes: a 1-byte bijou64 value is followed by 7 more bytes",
                    e.getMessage());
            // No LongSerializer payload of a value below 2^56 is ever one bijou64 value (the first byte
            // 00 is a one-byte value followed by 7 more), for any mapping.
            for (long v : new long[] {0, 1, 247, 248, 1L << 40, 1_700_000_000_000L, (1L << 56) - 1}) {
                for (Mapping mapping : Mapping.values()) {
                    Bijou64Deserializer other = longDeserializer(impl, mapping);
                    assertThrows(
                            SerializationException.class,
                            () -> other.deserialize("orders", stock.serialize("orders", v)));
                }
            }
            // The one range docs/format.md describes: LongSerializer bytes starting with fe (longs whose top byte
            // is 0xfe) are a complete 8-byte bijou64 value, so they cannot be told apart: fe 00.. reads as OFFSET[7].
            byte[] ambiguous = stock.serialize("orders", 0xfe00_0000_0000_0000L);
            assertEquals(282_578_800_148_984L, de.deserialize("orders", ambiguous));
        }
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void tombstonesStayNull(Implementation impl) {
        Bijou64Deserializer de = longDeserializer(impl, Mapping.UNSIGNED);
        assertNull(de.deserialize("t", null));
        assertNull(de.deserialize("t", new RecordHeaders(), (byte[]) null));
        assertNull(de.deserialize("t", new RecordHeaders(), (ByteBuffer) null));
        try (Bijou64Serializer ser = new Bijou64Serializer();
                Bijou32Serializer ser32 = new Bijou32Serializer();
                Bijou32Deserializer de32 = new Bijou32Deserializer()) {
            assertNull(ser.serialize("t", null));
            assertNull(ser.serialize("t", new RecordHeaders(), null));
            assertNull(ser32.serialize("t", null));
            assertNull(de32.deserialize("t", null));
            assertNull(de32.deserialize("t", new RecordHeaders(), (ByteBuffer) null));
        }
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void byteBuffersKeepTheirPosition(Implementation impl) {
        Bijou64Deserializer de = longDeserializer(impl, Mapping.UNSIGNED);
        byte[] value = Vectors.hex("fd008acee46608"); // 1,700,000,000,000
        byte[] backing = new byte[5 + value.length];
        System.arraycopy(value, 0, backing, 5, value.length);

        ByteBuffer heap = ByteBuffer.wrap(backing).position(5);
        assertEquals(1_700_000_000_000L, de.deserialize("t", new RecordHeaders(), heap));
        assertEquals(5, heap.position());

        // A heap buffer with an array offset: a slice starting at backing[3], positioned at 2.
        ByteBuffer sliced =
                ByteBuffer.wrap(backing, 3, backing.length - 3).slice().position(2);
        assertEquals(1_700_000_000_000L, de.deserialize("t", new RecordHeaders(), sliced));
        assertEquals(2, sliced.position());

        ByteBuffer direct =
                ByteBuffer.allocateDirect(backing.length).put(backing).position(5);
        assertEquals(1_700_000_000_000L, de.deserialize("t", new RecordHeaders(), direct));
        assertEquals(5, direct.position());

        ByteBuffer readOnly = ByteBuffer.wrap(backing).position(5).asReadOnlyBuffer();
        assertEquals(1_700_000_000_000L, de.deserialize("t", new RecordHeaders(), readOnly));
        assertEquals(5, readOnly.position());
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void extremesRoundTripWithBothMappings(Implementation impl) {
        for (Vectors.Valid row : Vectors.valid()) {
            if (!row.format().equals("bijou64-long") && !row.format().equals("bijou64s")) {
                continue;
            }
            long v = row.longValue();
            if (v == Long.MIN_VALUE || v == Long.MAX_VALUE || v == -1 || v == 0) {
                try (Bijou64Serializer ser = new Bijou64Serializer()) {
                    ser.configure(SerdeVectorsTest.configs(impl, row.mapping()), false);
                    assertArrayEquals(row.bytes(), ser.serialize("t", v), row::toString);
                    assertEquals(v, longDeserializer(impl, row.mapping()).deserialize("t", row.bytes()));
                }
            }
        }
    }

    @Test
    void implementationDefaultsToJavaPerRecordAndCanBeChosen() {
        Bijou64Serializer ser = new Bijou64Serializer();
        assertEquals(Implementation.JAVA, ser.implementation(), "unconfigured");
        ser.configure(Map.of(), false);
        assertEquals(Implementation.JAVA, ser.implementation(), "auto: the measured per-record default");
        Map<String, Object> wantsNative = Map.of("bijou64.implementation", "NATIVE");
        if (Bijou64.nativeAvailable()) {
            ser.configure(wantsNative, false);
            assertEquals(Implementation.NATIVE, ser.implementation());
        } else {
            assertThrows(ConfigException.class, () -> ser.configure(wantsNative, false));
        }
        ser.configure(Map.of("bijou64.implementation", "native", "bijou64.useJava", "true"), false);
        assertEquals(Implementation.JAVA, ser.implementation(), "useJava wins");
        ConfigException e = assertThrows(
                ConfigException.class, () -> ser.configure(Map.of("bijou64.implementation", "jni"), false));
        assertTrue(e.getMessage().contains("bijou64.implementation"), e::getMessage);
    }

    @Test
    void configurationIsValidatedAndAcceptsStringsAndBooleans() {
        Bijou64Serializer ser = new Bijou64Serializer();
        ser.configure(Map.of("bijou64.useJava", "true", "bijou64.mapping", "zigzag"), false);
        assertEquals(Implementation.JAVA, ser.implementation());
        assertEquals(Mapping.ZIGZAG, ser.mapping());
        assertArrayEquals(new byte[] {0x01}, ser.serialize("t", -1L));

        ser.configure(Map.of("bijou64.useJava", Boolean.TRUE), true);
        assertEquals(Mapping.UNSIGNED, ser.mapping());

        Map<String, Object> unrelated = new HashMap<>();
        unrelated.put("bootstrap.servers", "127.0.0.1:19092");
        ser.configure(unrelated, false);
        assertEquals(Mapping.UNSIGNED, ser.mapping());

        ConfigException mapping =
                assertThrows(ConfigException.class, () -> ser.configure(Map.of("bijou64.mapping", "zig-zag"), false));
        assertTrue(mapping.getMessage().contains("bijou64.mapping"), mapping::getMessage);
        assertTrue(mapping.getMessage().contains("'unsigned' or 'zigzag'"), mapping::getMessage);
        assertThrows(ConfigException.class, () -> ser.configure(Map.of("bijou64.useJava", "yes"), false));
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("bijou64.useJava", null);
        assertThrows(ConfigException.class, () -> ser.configure(nullValue, false));
    }
}
