/**
 * Kafka Connect converters over the bijou serdes: {@link org.bijou64.kafka.connect.Bijou64Converter} for INT64
 * (where {@code LongConverter} is used) and {@link org.bijou64.kafka.connect.Bijou32Converter} for INT32 (where
 * {@code IntegerConverter} is used), each a {@code Converter} and a {@code HeaderConverter}.
 *
 * <pre>{@code
 * value.converter=org.bijou64.kafka.connect.Bijou64Converter
 * value.converter.bijou64.mapping=zigzag
 * }</pre>
 */
package org.bijou64.kafka.connect;
