package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.streamfusion.kafka.Vectors.longs;
import static org.streamfusion.kafka.Vectors.root;
import static org.streamfusion.kafka.Vectors.strings;
import static org.streamfusion.kafka.Vectors.utf8;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** An encoded batch through a (mock) Kafka producer: one record per row, bytes copied once, nulls kept. */
class KafkaRecordsTest {
    @Test
    void sendsOneRecordPerRowWithKeysValuesAndTombstones() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = root(
                        longs(allocator, "id", 1L, 2L),
                        strings(allocator, "v", "a", "b"),
                        strings(allocator, "op", "+I", "-D"));
                NativeJsonEncoder encoder =
                        new NativeJsonEncoder(Map.of("key.fields", "id", "changelog.row-kind-column", "op"))) {
            EncodedBatch batch = encoder.encode(root);
            MockProducer<byte[], byte[]> producer =
                    new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            AtomicInteger callbacks = new AtomicInteger();
            List<Future<RecordMetadata>> futures =
                    KafkaRecords.send(producer, "t", batch, (metadata, error) -> callbacks.incrementAndGet());
            assertEquals(2, futures.size());
            for (Future<RecordMetadata> f : futures) {
                assertEquals("t", f.get().topic());
            }
            assertEquals(2, callbacks.get());
            List<ProducerRecord<byte[], byte[]>> sent = producer.history();
            assertArrayEquals(utf8("{\"id\":1}"), sent.get(0).key());
            assertArrayEquals(utf8("{\"id\":1,\"v\":\"a\"}"), sent.get(0).value());
            assertArrayEquals(utf8("{\"id\":2}"), sent.get(1).key());
            assertNull(sent.get(1).value(), "a delete is a tombstone");
            assertNotSame(batch.keys(), sent.get(0).key(), "records own their bytes");
            ProducerRecord<byte[], byte[]> one = KafkaRecords.record("t", batch, 0);
            assertArrayEquals(sent.get(0).value(), one.value());
        }
    }
}
