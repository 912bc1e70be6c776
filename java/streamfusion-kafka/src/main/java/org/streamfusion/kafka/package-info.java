/**
 * StreamFusion for the JVM: Arrow Java batches encoded to Kafka JSON records by the native encoder, one JNI
 * crossing per batch, byte-identical to Apache Flink's {@code json} format with the Kafka connector's
 * key/value layout.
 *
 * <pre>{@code
 * try (NativeJsonEncoder encoder = new NativeJsonEncoder(Map.of("key.fields", "auction"))) {
 *     EncodedBatch batch = encoder.encode(root);          // root: a filled VectorSchemaRoot
 *     KafkaRecords.send(producer, "bids", batch, null);   // one ProducerRecord per row
 * }
 * }</pre>
 *
 * <p>Memory: the {@link org.apache.arrow.vector.VectorSchemaRoot} stays the caller's; the native side
 * borrows it through the Arrow C Data Interface only for the duration of
 * {@link org.streamfusion.kafka.NativeJsonEncoder#encode}. An {@link org.streamfusion.kafka.EncodedBatch}
 * holds six ordinary Java arrays owned by the JVM. See {@code docs/jni.md} in the repository.
 */
package org.streamfusion.kafka;
