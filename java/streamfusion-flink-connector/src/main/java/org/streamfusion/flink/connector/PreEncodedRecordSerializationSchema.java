package org.streamfusion.flink.connector;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.streaming.connectors.kafka.partitioner.FlinkFixedPartitioner;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The pass-through {@link KafkaRecordSerializationSchema} in front of Flink's {@code KafkaSink}: an
 * {@link EncodedRecord} already holds the key and value bytes, so this only copies them out of the batch (the
 * one copy per record) into a {@link ProducerRecord} for the one topic. The partition is chosen as
 * {@code DynamicKafkaRecordSerializationSchema} chooses it: by Flink's {@link FlinkFixedPartitioner} for
 * {@code sink.partitioner=fixed}, otherwise null (Kafka's producer partitions: murmur2 of the key, sticky for
 * null keys). The record timestamp and headers are the record's ({@code timestamp} and {@code headers} metadata
 * columns, as {@code DynamicKafkaRecordSerializationSchema} writes them): a null timestamp leaves it to the
 * producer's clock, null headers write none.
 */
public final class PreEncodedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<EncodedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final FlinkFixedPartitioner<EncodedRecord> partitioner;

    /**
     * @param topic the topic every record goes to
     * @param fixedPartitioner true for Flink's {@code FlinkFixedPartitioner} (subtask index modulo partitions)
     */
    public PreEncodedRecordSerializationSchema(String topic, boolean fixedPartitioner) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.partitioner = fixedPartitioner ? new FlinkFixedPartitioner<>() : null;
    }

    /** Opens the partitioner with this subtask's index, as {@code DynamicKafkaRecordSerializationSchema} does. */
    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        if (partitioner != null) {
            partitioner.open(sinkContext.getParallelInstanceId(), sinkContext.getNumberOfParallelInstances());
        }
    }

    /**
     * @param record the finished record
     * @param context the sink's context (partitions of the topic)
     * @param timestamp the stream record's timestamp, ignored (as the table sink does)
     * @return the producer record: topic, partition or null, the record's timestamp (epoch ms) or null, key,
     *     value, the record's headers or null
     */
    @Override
    public ProducerRecord<byte[], byte[]> serialize(EncodedRecord record, KafkaSinkContext context, Long timestamp) {
        byte[] key = record.key();
        byte[] value = record.value();
        Integer partition = partitioner == null ? null
                : partitioner.partition(record, key, value, topic, context.getPartitionsForTopic(topic));
        return new ProducerRecord<>(topic, partition, record.timestamp(), key, value, record.headers());
    }

    /** @return the topic, for Flink's lineage (and the {@code POOLING} naming strategy's builder check) */
    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        List<String> topics = new ArrayList<>(List.of(topic));
        return Optional.of(new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(topics)));
    }
}
