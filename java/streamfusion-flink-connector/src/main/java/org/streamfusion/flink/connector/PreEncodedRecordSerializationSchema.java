package org.streamfusion.flink.connector;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
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
 * one copy per record) into a {@link ProducerRecord}. The topic is chosen as
 * {@code DynamicKafkaRecordSerializationSchema.getTargetTopic} chooses it: with one topic, that topic (a
 * record's own topic is ignored); with a list, the record's ({@code topic} metadata column), which must be in
 * the list; a record without one (no column, or null) or with another topic fails with the
 * {@link IllegalArgumentException} and text of the stock sink. The partition is chosen as
 * {@code DynamicKafkaRecordSerializationSchema} chooses it: by Flink's {@link FlinkFixedPartitioner} for
 * {@code sink.partitioner=fixed}; with a custom {@code sink.partitioner} class, the partition it chose for the
 * record ({@link EncodedRecord#partition()}, chosen by {@link BatchingEncoderOperator} as the stock schema
 * chooses it); otherwise null (Kafka's producer partitions: murmur2 of the key, sticky for null keys). The record timestamp and headers are the record's ({@code timestamp} and {@code headers} metadata
 * columns, as {@code DynamicKafkaRecordSerializationSchema} writes them): a null timestamp leaves it to the
 * producer's clock, null headers write none.
 */
@Internal
public final class PreEncodedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<EncodedRecord>, KafkaDatasetFacetProvider {
    private static final long serialVersionUID = 1L;

    /** The topics in the given order, for lineage. */
    private final List<String> topicList;
    /** As {@code DynamicKafkaRecordSerializationSchema}'s set (its text in the error names it). */
    private final Set<String> topics;

    private final FlinkFixedPartitioner<EncodedRecord> partitioner;

    /**
     * @param topic the topic every record goes to
     * @param fixedPartitioner true for Flink's {@code FlinkFixedPartitioner} (subtask index modulo partitions)
     */
    public PreEncodedRecordSerializationSchema(String topic, boolean fixedPartitioner) {
        this(List.of(Objects.requireNonNull(topic, "topic")), fixedPartitioner);
    }

    /**
     * @param topics the {@code topic} option's topics, at least one; with more than one, each record's
     *     {@link EncodedRecord#topic()} must be one of them
     * @param fixedPartitioner true for Flink's {@code FlinkFixedPartitioner} (subtask index modulo partitions of
     *     the record's topic)
     * @throws IllegalArgumentException if {@code topics} is empty
     */
    public PreEncodedRecordSerializationSchema(List<String> topics, boolean fixedPartitioner) {
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("Either Topic or Topic Pattern must be set.");
        }
        this.topicList = new ArrayList<>(topics);
        this.topics = new HashSet<>(topics);
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
     * @throws IllegalArgumentException with several topics, for a record without a topic or with one not in the
     *     list (the stock sink's text)
     */
    @Override
    public ProducerRecord<byte[], byte[]> serialize(EncodedRecord record, KafkaSinkContext context, Long timestamp) {
        String topic = targetTopic(record);
        byte[] key = record.producerKey();
        byte[] value = record.producerValue();
        Integer partition = record.partition() != null
                ? record.partition()
                : partitioner == null
                        ? null
                        : partitioner.partition(record, key, value, topic, context.getPartitionsForTopic(topic));
        return new ProducerRecord<>(topic, partition, record.timestamp(), key, value, record.headers());
    }

    /** As {@code DynamicKafkaRecordSerializationSchema.getTargetTopic} with a topic list (no pattern). */
    private String targetTopic(EncodedRecord record) {
        if (topics.size() == 1) {
            return topicList.get(0);
        }
        String topic = record.topic();
        if (topic == null) {
            throw new IllegalArgumentException(
                    "The topic of the sink record is not valid. Expected a single topic but no topic is set.");
        }
        if (!topics.contains(topic)) {
            throw new IllegalArgumentException(String.format(
                    "The topic of the sink record is not valid. Expected topic to be in: %s but was: %s",
                    topics, topic));
        }
        return topic;
    }

    /** @return the topics, for Flink's lineage (and the {@code POOLING} naming strategy's builder check) */
    @Override
    public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
        return Optional.of(
                new DefaultKafkaDatasetFacet(DefaultKafkaDatasetIdentifier.ofTopics(new ArrayList<>(topicList))));
    }
}
