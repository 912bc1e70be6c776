package org.bijou64.kafka.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.apache.kafka.connect.storage.HeaderConverter;
import org.junit.jupiter.api.Test;

/**
 * The converters through Connect's converter API, as a worker calls them: configured by class name and options,
 * schema and schemaless values, null and tombstones, bad bytes. The bytes are the serdes' (pinned by the vector
 * suites): 248 is {@code f8 00} in bijou64, 251 is {@code fb} in bijou32.
 */
class ConvertersTest {
    private static Bijou64Converter longs(Map<String, ?> configs, boolean isKey) {
        Bijou64Converter converter = new Bijou64Converter();
        converter.configure(configs, isKey);
        return converter;
    }

    /**
     * What a Connect worker's plugin discovery needs (the real worker: java/bijou64-kafka-connect-worker-test):
     * the ServiceLoader manifests name both converters for both interfaces ({@code plugin.discovery=service_load}),
     * and every class from a converter up to its interfaces is public (the scanning modes skip the others).
     */
    @Test
    void connectPluginDiscoveryFindsBothConverters() {
        List<String> expected = List.of(Bijou64Converter.class.getName(), Bijou32Converter.class.getName());
        for (Class<?> service : List.of(Converter.class, HeaderConverter.class)) {
            List<String> found = ServiceLoader.load(service).stream()
                    .map(provider -> provider.type().getName())
                    .filter(name -> name.startsWith("org.bijou64."))
                    .toList();
            assertEquals(expected, found, service.getName());
        }
        for (Class<?> type = Bijou64Converter.class; type != Object.class; type = type.getSuperclass()) {
            assertTrue(Modifier.isPublic(type.getModifiers()), type + " is public");
        }
        assertTrue(Modifier.isPublic(Bijou32Converter.class.getModifiers()));
    }

    @Test
    void writesAndReadsInt64WithAndWithoutASchema() {
        Bijou64Converter converter = longs(Map.of(), false);
        byte[] withSchema = converter.fromConnectData("t", Schema.INT64_SCHEMA, 248L);
        assertArrayEquals(new byte[] {(byte) 0xf8, 0x00}, withSchema);
        assertArrayEquals(withSchema, converter.fromConnectData("t", null, 248L), "schemaless");
        SchemaAndValue read = converter.toConnectData("t", withSchema);
        assertEquals(Schema.OPTIONAL_INT64_SCHEMA, read.schema());
        assertEquals(248L, read.value());
        assertEquals(
                Long.MIN_VALUE,
                converter
                        .toConnectData(
                                "t", converter.fromConnectData("t", Schema.OPTIONAL_INT64_SCHEMA, Long.MIN_VALUE))
                        .value());
    }

    @Test
    void nullStaysNull() {
        Bijou64Converter converter = longs(Map.of(), true);
        assertNull(converter.fromConnectData("t", Schema.OPTIONAL_INT64_SCHEMA, null));
        SchemaAndValue tombstone = converter.toConnectData("t", null);
        assertEquals(Schema.OPTIONAL_INT64_SCHEMA, tombstone.schema());
        assertNull(tombstone.value());
    }

    @Test
    void anotherTypeIsADataException() {
        DataException e = assertThrows(
                DataException.class, () -> longs(Map.of(), false).fromConnectData("t", Schema.INT32_SCHEMA, 7));
        assertEquals("Failed to serialize to bijou64 Long (was class java.lang.Integer)", e.getMessage());
    }

    @Test
    void badBytesAreADataExceptionWithTheReason() {
        // LongConverter's 42: eight bytes, not one bijou64 value.
        DataException e = assertThrows(
                DataException.class,
                () -> longs(Map.of(), false).toConnectData("orders", new byte[] {0, 0, 0, 0, 0, 0, 0, 0x2a}));
        assertTrue(
                e.getMessage()
                        .startsWith("Failed to deserialize bijou64 Long: Error deserializing bijou64 Long "
                                + "from topic 'orders': 8 bytes [00 00 00 00 00 00 00 2a]: "),
                e.getMessage());
        assertInstanceOf(SerializationException.class, e.getCause());
        assertThrows(DataException.class, () -> longs(Map.of(), false).toConnectData("t", new byte[0]), "empty");
        // f8 followed by nothing: a two-byte value cut short.
        assertThrows(DataException.class, () -> longs(Map.of(), false).toConnectData("t", new byte[] {(byte) 0xf8}));
    }

    @Test
    void theMappingIsAConverterOption() {
        Bijou64Converter zigzag = longs(Map.of("bijou64.mapping", "zigzag"), false);
        assertArrayEquals(new byte[] {0x01}, zigzag.fromConnectData("t", null, -1L), "zigzag(-1) = 1");
        assertArrayEquals(
                new byte[] {
                    (byte) 0xff,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    (byte) 0xfe,
                    0x07
                },
                longs(Map.of(), false).fromConnectData("t", null, -1L),
                "unsigned: -1 is u64::MAX");
        ConfigException bad = assertThrows(ConfigException.class, () -> longs(Map.of("bijou64.mapping", "leb"), false));
        assertTrue(bad.getMessage().contains("bijou64.mapping"), bad.getMessage());
        assertTrue(new Bijou64Converter()
                .config()
                .names()
                .containsAll(java.util.Set.of(
                        "converter.type", "bijou64.mapping", "bijou64.implementation", "bijou64.useJava")));
    }

    @Test
    void asAHeaderConverter() {
        Bijou64Converter headers = new Bijou64Converter();
        headers.configure(Map.of(ConverterConfig.TYPE_CONFIG, "header"));
        byte[] bytes = headers.fromConnectHeader("t", "version", Schema.INT64_SCHEMA, 3L);
        assertArrayEquals(new byte[] {0x03}, bytes);
        assertEquals(3L, headers.toConnectHeader("t", "version", bytes).value());
        assertThrows(
                ConfigException.class,
                () -> new Bijou64Converter().configure(Map.of()),
                "converter.type is required, as for Connect's own converters");
    }

    @Test
    void int32UsesBijou32() {
        Bijou32Converter converter = new Bijou32Converter();
        converter.configure(Map.of(), false);
        assertArrayEquals(new byte[] {(byte) 0xfb}, converter.fromConnectData("t", Schema.INT32_SCHEMA, 251));
        SchemaAndValue read = converter.toConnectData("t", new byte[] {(byte) 0xfb});
        assertEquals(Schema.OPTIONAL_INT32_SCHEMA, read.schema());
        assertEquals(251, read.value());
        assertThrows(DataException.class, () -> converter.fromConnectData("t", Schema.INT64_SCHEMA, 251L));
        converter.close();
    }
}
