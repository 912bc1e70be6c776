package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streamfusion.kafka.Vectors.longs;
import static org.streamfusion.kafka.Vectors.root;
import static org.streamfusion.kafka.Vectors.strings;
import static org.streamfusion.kafka.Vectors.values;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every documented misuse throws its documented exception, and the JVM (and the encoder) keep running. */
class BadInputTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        allocator.close(); // also after failed encodes: the native side released every export
    }

    @Test
    void encodeAfterCloseThrowsIllegalStateAndCloseIsIdempotent() {
        NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of());
        encoder.close();
        encoder.close();
        assertTrue(encoder.isClosed());
        try (VectorSchemaRoot root = root(longs(allocator, "id", 1L))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> encoder.encode(root));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void nullRootThrowsNullPointerNamingIt() {
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> encoder.encode(null));
            assertTrue(e.getMessage().contains("root"), e.getMessage());
        }
    }

    @Test
    void schemaDifferentFromTheFirstBatchThrowsAndTheEncoderStaysUsable() {
        try (VectorSchemaRoot first = root(longs(allocator, "id", 1L));
                VectorSchemaRoot other = root(strings(allocator, "id", "x"));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            encoder.encode(first);
            StreamFusionException e = assertThrows(StreamFusionException.class, () -> encoder.encode(other));
            assertEquals(StreamFusionException.Kind.SCHEMA_MISMATCH, e.kind());
            assertTrue(e.getMessage().contains("`id`"), e.getMessage());
            assertEquals(List.of("{\"id\":1}"), values(encoder.encode(first)));
            assertEquals(2, encoder.batches(), "failed batches are not counted");
        }
    }

    @Test
    void aRootWhoseRowCountDiffersFromItsVectorsThrows() {
        try (VectorSchemaRoot root = root(longs(allocator, "id", 1L, 2L), strings(allocator, "name", "a", "b"));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            assertEquals(2, encoder.encode(root).size());
            root.setRowCount(2);
            root.getVector("id").setValueCount(1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> encoder.encode(root));
            assertTrue(e.getMessage().contains("`id` has 1 values but the root has 2 rows"), e.getMessage());
            root.setRowCount(2); // every vector back to two values
            assertEquals(
                    "{\"id\":2,\"name\":\"b\"}",
                    new String(encoder.encode(root).value(1), java.nio.charset.StandardCharsets.UTF_8),
                    "the encoder stays usable");
        }
    }

    @Test
    void vectorsThatAreNotWhatTheSchemaSaysAreRefused() {
        // A schema claiming BIGINT over an INT vector (the public VectorSchemaRoot constructor allows it).
        try (org.apache.arrow.vector.IntVector ints = new org.apache.arrow.vector.IntVector("id", allocator);
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            ints.allocateNew(1);
            ints.set(0, 7);
            ints.setValueCount(1);
            org.apache.arrow.vector.types.pojo.Schema claimed = new org.apache.arrow.vector.types.pojo.Schema(
                    List.of(org.apache.arrow.vector.types.pojo.Field.nullable(
                            "id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true))));
            VectorSchemaRoot lying = new VectorSchemaRoot(claimed, List.of(ints), 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> encoder.encode(lying));
            assertTrue(e.getMessage().contains("column `id`: the root's schema says"), e.getMessage());
            assertTrue(e.getMessage().contains("syncSchema"), e.getMessage());
        }
    }

    @Test
    void dictionaryColumnsWithoutTheirDictionaryAreRefused() {
        org.apache.arrow.vector.types.pojo.DictionaryEncoding encoding =
                new org.apache.arrow.vector.types.pojo.DictionaryEncoding(5L, false, null);
        org.apache.arrow.vector.types.pojo.Field field = new org.apache.arrow.vector.types.pojo.Field(
                "c",
                new org.apache.arrow.vector.types.pojo.FieldType(
                        true, new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true), encoding),
                null);
        try (org.apache.arrow.vector.IntVector indices =
                        (org.apache.arrow.vector.IntVector) field.createVector(allocator);
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            indices.allocateNew(1);
            indices.set(0, 0);
            indices.setValueCount(1);
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(field), List.of(indices), 1);
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> encoder.encode(root));
            assertTrue(
                    none.getMessage().contains("column `c` is dictionary-encoded (dictionary 5)"), none.getMessage());
            IllegalArgumentException missing = assertThrows(
                    IllegalArgumentException.class,
                    () -> encoder.encode(
                            root, new org.apache.arrow.vector.dictionary.DictionaryProvider.MapDictionaryProvider()));
            assertTrue(missing.getMessage().contains("pass the DictionaryProvider"), missing.getMessage());
        }
    }

    @Test
    void stringsThatAreNotUtf8AreInvalidValuesNotWrongBytes() {
        try (org.apache.arrow.vector.VarCharVector s = new org.apache.arrow.vector.VarCharVector("s", allocator);
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            s.allocateNew(2);
            s.setSafe(0, "ok".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            s.setSafe(1, new byte[] {(byte) 0xff, 'a', 'b', 'c'}); // StringData.fromBytes allows this too
            s.setValueCount(2);
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(s));
            StreamFusionException e = assertThrows(StreamFusionException.class, () -> encoder.encode(root));
            assertEquals(StreamFusionException.Kind.INVALID_VALUE, e.kind());
            assertTrue(e.getMessage().contains("field `s`, row 1: the string is not valid UTF-8"), e.getMessage());
            s.setSafe(1, "abc".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(2, encoder.encode(root).size(), "the encoder stays usable");
        }
    }

    @Test
    void unsupportedTypesThrowNamingTheField() {
        NullVector nulls = new NullVector("n");
        nulls.setValueCount(1);
        UInt8Vector unsigned = new UInt8Vector("u64", allocator);
        unsigned.allocateNew(1);
        unsigned.set(0, 1L);
        unsigned.setValueCount(1);
        for (VectorSchemaRoot root : List.of(root(nulls), root(unsigned))) {
            String field = root.getSchema().getFields().get(0).getName();
            try (root;
                    NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
                StreamFusionException e = assertThrows(StreamFusionException.class, () -> encoder.encode(root));
                assertEquals(StreamFusionException.Kind.UNSUPPORTED_TYPE, e.kind(), e.getMessage());
                assertTrue(e.getMessage().contains("`" + field + "`"), e.getMessage());
            }
        }
    }

    @Test
    void fieldNamesWithNulAreRejectedBeforeTheyWouldBeTruncated() {
        try (VectorSchemaRoot root = root(strings(allocator, "a\0b", "x"));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of())) {
            StreamFusionException e = assertThrows(StreamFusionException.class, () -> encoder.encode(root));
            assertEquals(StreamFusionException.Kind.INVALID_FIELD_NAME, e.kind());
            assertTrue(e.getMessage().contains("`a\\u0000b`"), e.getMessage());
        }
    }

    @Test
    void layoutErrorsAreStreamFusionExceptions() {
        try (VectorSchemaRoot root = root(longs(allocator, "id", 1L));
                NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of("key.fields", "missing"))) {
            StreamFusionException e = assertThrows(StreamFusionException.class, () -> encoder.encode(root));
            assertEquals(StreamFusionException.Kind.INVALID_LAYOUT, e.kind(), e.getMessage());
        }
    }

    @Test
    void optionErrorsThrowIllegalArgumentAtConstruction() {
        for (Map<String, String> bad : List.of(
                Map.of("key.field", "id"),
                Map.of("map-null-key.mode", "KEEP"),
                Map.of("encode.ignore-null-fields", "yes"),
                Map.of("key.fields-prefix", "k_"),
                Map.of("flink.version", "3.0"))) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> new NativeJsonEncoder(bad), bad.toString());
            String name = bad.keySet().iterator().next();
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("key.fields", null);
        assertThrows(NullPointerException.class, () -> new NativeJsonEncoder(nullValue));
        assertThrows(NullPointerException.class, () -> new NativeJsonEncoder(null));
    }

    @Test
    void concurrentEncodesOnOneEncoderAreSerialisedAndCorrect() throws Exception {
        int threads = 4;
        int batchesPerThread = 200;
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of("key.fields", "id"))) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long id = t;
                    done.add(pool.submit(() -> {
                        String text = "thread-" + id + "-" + "x".repeat((int) id * 100);
                        try (VectorSchemaRoot root =
                                root(longs(allocator, "id", id, id), strings(allocator, "s", text, null))) {
                            List<String> expected = List.of(
                                    "{\"id\":" + id + ",\"s\":\"" + text + "\"}", "{\"id\":" + id + ",\"s\":null}");
                            for (int i = 0; i < batchesPerThread; i++) {
                                assertEquals(expected, values(encoder.encode(root)), "thread " + id);
                            }
                        }
                        return batchesPerThread;
                    }));
                }
                for (Future<Integer> f : done) {
                    assertEquals(batchesPerThread, f.get());
                }
            } finally {
                pool.shutdown();
            }
            assertEquals((long) threads * batchesPerThread, encoder.batches());
            assertEquals(2L * threads * batchesPerThread, encoder.rows());
        }
    }

    @Test
    void closeWhileOthersEncodeGivesResultsOrIllegalState() throws Exception {
        NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (VectorSchemaRoot root = root(longs(allocator, "id", 5L))) {
            Future<Integer> worker = pool.submit(() -> {
                int ok = 0;
                while (true) {
                    try {
                        assertEquals(List.of("{\"id\":5}"), values(encoder.encode(root)));
                        ok++;
                    } catch (IllegalStateException closed) {
                        return ok;
                    }
                }
            });
            Thread.sleep(50);
            encoder.close();
            assertTrue(worker.get() >= 0);
        } finally {
            pool.shutdown();
        }
    }
}
