package org.bijou64.perf.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Utils;
import org.bijou64.Mapping;
import org.junit.jupiter.api.Test;

/** The Streams-facing serdes: the bytes of the serializers (pinned by the vector suites), configuration, errors. */
class SerdesTest {
    @Test
    void theLongSerdeWritesBijou64AndReadsItBack() {
        Serde<Long> serde = Bijou64Serdes.Long();
        // u64 tier edges of the format: 247 is one byte, 248 the first two-byte value (f8 00).
        assertArrayEquals(new byte[] {(byte) 0xf7}, serde.serializer().serialize("t", 247L));
        assertArrayEquals(new byte[] {(byte) 0xf8, 0x00}, serde.serializer().serialize("t", 248L));
        assertEquals(248L, serde.deserializer().deserialize("t", new byte[] {(byte) 0xf8, 0x00}));
        assertNull(serde.serializer().serialize("t", null), "a tombstone stays a tombstone");
        assertNull(serde.deserializer().deserialize("t", null));
    }

    @Test
    void theIntegerSerdeWritesBijou32() {
        Serde<Integer> serde = Bijou64Serdes.Integer();
        // bijou32's one-byte range ends at 251 (bijou64's at 247).
        assertArrayEquals(new byte[] {(byte) 0xfb}, serde.serializer().serialize("t", 251));
        assertEquals(251, serde.deserializer().deserialize("t", new byte[] {(byte) 0xfb}));
    }

    @Test
    void theMappingComesFromTheConfigsOrIsPinned() {
        Serde<Long> configured = Bijou64Serdes.Long();
        configured.configure(Map.of(Bijou64SerdeConfig.MAPPING_CONFIG, "zigzag"), false);
        // zigzag(-1) = 1
        assertArrayEquals(new byte[] {0x01}, configured.serializer().serialize("t", -1L));
        assertEquals(-1L, configured.deserializer().deserialize("t", new byte[] {0x01}));

        Serde<Long> pinned = Bijou64Serdes.Long(Mapping.ZIGZAG);
        pinned.configure(Map.of(), false);
        assertArrayEquals(new byte[] {0x01}, pinned.serializer().serialize("t", -1L));
        pinned.configure(Map.of(Bijou64SerdeConfig.MAPPING_CONFIG, "zigzag"), true);
        ConfigException conflict = assertThrows(
                ConfigException.class,
                () -> pinned.configure(Map.of(Bijou64SerdeConfig.MAPPING_CONFIG, "unsigned"), false));
        assertTrue(
                conflict.getMessage().contains("this serde was created for the zigzag mapping"), conflict.getMessage());
        assertEquals(Mapping.ZIGZAG, ((Bijou64Serializer) pinned.serializer()).mapping(), "unchanged");
        assertThrows(NullPointerException.class, () -> Bijou64Serdes.Long(null));
    }

    @Test
    void streamsCanInstantiateItByClassName() throws ClassNotFoundException {
        // What StreamsConfig.defaultValueSerde() does with default.value.serde.
        Serde<?> serde = Utils.newInstance(Bijou64Serde.class.getName(), Serde.class);
        serde.configure(Map.of(), false);
        assertInstanceOf(Bijou64Serializer.class, serde.serializer());
        assertInstanceOf(
                Bijou32Deserializer.class,
                Utils.newInstance(Bijou32Serde.class.getName(), Serde.class).deserializer());
    }

    @Test
    void badBytesNameTopicLengthReasonAndPreview() {
        // LongSerializer's 42: eight bytes, not one bijou64 value.
        byte[] longSerializer = {0, 0, 0, 0, 0, 0, 0, 0x2a};
        SerializationException e = assertThrows(
                SerializationException.class,
                () -> Bijou64Serdes.Long().deserializer().deserialize("counts", longSerializer));
        assertTrue(
                e.getMessage()
                        .startsWith("Error deserializing bijou64 Long from topic 'counts': 8 bytes "
                                + "[00 00 00 00 00 00 00 2a]: "),
                e.getMessage());
    }
}
