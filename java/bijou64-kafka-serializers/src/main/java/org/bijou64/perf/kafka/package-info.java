/**
 * Drop-in Kafka serdes over the bijou64 codec: {@link org.bijou64.perf.kafka.Bijou64Serializer} and
 * {@link org.bijou64.perf.kafka.Bijou64Deserializer} for {@code Long} keys or values (bijou64, 1 to 9 bytes
 * instead of {@code LongSerializer}'s 8), {@link org.bijou64.perf.kafka.Bijou32Serializer} and
 * {@link org.bijou64.perf.kafka.Bijou32Deserializer} for {@code Integer} (bijou32), and their configuration,
 * {@link org.bijou64.perf.kafka.Bijou64SerdeConfig} ({@code bijou64.mapping}, {@code bijou64.implementation},
 * {@code bijou64.useJava}, read in {@code configure(configs, isKey)}). For Kafka Streams,
 * {@link org.bijou64.perf.kafka.Bijou64Serde} and {@link org.bijou64.perf.kafka.Bijou32Serde} pair them, and
 * {@link org.bijou64.perf.kafka.Bijou64Serdes} makes them as {@code Serdes} does ({@code Bijou64Serdes.Long()}).
 * The deserializers are strict: bytes
 * that are not exactly one canonical value become Kafka's
 * {@link org.apache.kafka.common.errors.SerializationException} with a hex preview, never a wrong number;
 * null stays null, so tombstones stay tombstones.
 *
 * <pre>{@code
 * value.serializer=org.bijou64.perf.kafka.Bijou64Serializer
 * value.deserializer=org.bijou64.perf.kafka.Bijou64Deserializer
 * bijou64.mapping=zigzag
 * }</pre>
 *
 * <p><b>Why the package is named {@code perf.kafka}.</b> The name is historical. Users' Kafka configs name
 * these classes by their full names, as above, so renaming the package would break every such config: the
 * name stays, although the package holds the product, not a benchmark.
 */
package org.bijou64.perf.kafka;
