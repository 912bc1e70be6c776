package org.streamfusion.flink.connector;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.connector.kafka.source.reader.KafkaRecordEmitter;
import org.apache.flink.connector.kafka.source.reader.KafkaSourceReader;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.connector.kafka.source.reader.fetcher.KafkaSourceFetcherManager;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.streamfusion.flink.NativeRowDataDecoder;

/**
 * Flink's {@link KafkaSource} with the JSON decoding moved into its split reader: everything Kafka is the stock
 * source's (the enumerator, its checkpoints and partition discovery, the splits and their serializers, the
 * consumer and its properties, offsets, commits, boundedness, per-partition watermarks through Flink's own source
 * reader and record emitter); the reader's split reader is a {@link NativeDecodingSplitReader}, which decodes each
 * split's fetch in one native call on the fetcher thread, and the emitter's deserializer a
 * {@link NativeRecordDeserializationSchema} around the stock source's own deserializer, whose value deserializer
 * ({@link NativeValueDeserializer}) collects those rows and decodes every other value as Flink does.
 *
 * <p>The reader is built as {@code KafkaSource.createReader} builds it (flink-connector-kafka 5.0.0), from the
 * stock source's consumer properties, rack id and deserializer, read from its private fields once, here. Where
 * they cannot be read, or when the native decoder cannot be made in a task (no native library, a type it does not
 * read), the reader decodes nothing natively and says so in the log.
 *
 * <p>Metrics, in the group {@code streamfusion} of the source reader's metric group: {@code numNativeMessages}
 * (records whose value the native decoder decoded), {@code numFlinkMessages} (records decoded by the stock
 * deserializer: every record of a table read without native decoding, and the messages the native decoder leaves
 * to Flink), {@code decodeTimeNanos} (time in the native decoder, the copy into its slab included).
 */
@Internal
public final class NativeKafkaSource
        implements Source<RowData, KafkaPartitionSplit, KafkaSourceEnumState>,
                ResultTypeQueryable<RowData>,
                LineageVertexProvider {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(NativeKafkaSource.class);

    private final KafkaSource<RowData> stock;
    private final String table;
    /** The value deserializer inside the stock source's deserializer, or null: no native decoding. */
    private final NativeValueDeserializer values;

    private final Properties props;
    private final SerializableSupplier<String> rackIdSupplier;
    private final KafkaRecordDeserializationSchema<RowData> deserializer;

    /**
     * @param stock the table's stock source
     * @param table the table's name, for the log
     * @param values the value deserializer inside the stock source's record deserializer (made by a
     *     {@link NativeValueFormat}), or null to decode nothing natively
     * @throws IllegalStateException if the stock source's consumer properties, rack id or deserializer cannot be
     *     read (another flink-connector-kafka than this class was built for)
     */
    NativeKafkaSource(KafkaSource<RowData> stock, String table, NativeValueDeserializer values) {
        this.stock = stock;
        this.table = table;
        this.values = values;
        this.props = field(stock, "props", Properties.class);
        this.rackIdSupplier = field(stock, "rackIdSupplier", SerializableSupplier.class);
        this.deserializer = field(stock, "deserializationSchema", KafkaRecordDeserializationSchema.class);
        if (props == null || deserializer == null) {
            throw new IllegalStateException("the KafkaSource has no consumer properties or deserializer");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T field(KafkaSource<RowData> source, String name, Class<?> type) {
        try {
            Field field = KafkaSource.class.getDeclaredField(name);
            if (!type.isAssignableFrom(field.getType())) {
                throw new IllegalStateException(
                        "KafkaSource." + name + " is a " + field.getType().getName());
            }
            field.setAccessible(true);
            return (T) field.get(source);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read KafkaSource." + name + ": " + e, e);
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return stock.getBoundedness();
    }

    @Override
    public SourceReader<RowData, KafkaPartitionSplit> createReader(SourceReaderContext readerContext) throws Exception {
        NativeRecordDeserializationSchema emitted = new NativeRecordDeserializationSchema(deserializer, values);
        emitted.open(new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return readerContext.metricGroup().addGroup("deserializer");
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return readerContext.getUserCodeClassLoader();
            }
        });
        SourceReaderMetricGroup readerMetrics = readerContext.metricGroup();
        MetricGroup group = readerMetrics.addGroup("streamfusion");
        Counter nativeMessages = group.counter("numNativeMessages");
        Counter decodeNanos = group.counter("decodeTimeNanos");
        emitted.countFlinkMessagesIn(group.counter("numFlinkMessages"));
        KafkaSourceReaderMetrics kafkaMetrics = new KafkaSourceReaderMetrics(readerMetrics);
        String rackId = Optional.ofNullable(rackIdSupplier).map(Supplier::get).orElse(null);
        Supplier<KafkaPartitionSplitReader> splitReaders = () -> {
            NativeRowDataDecoder decoder = nativeDecoder(readerContext.getIndexOfSubtask());
            return decoder == null
                    ? new KafkaPartitionSplitReader(props, readerContext, kafkaMetrics, rackId)
                    : new NativeDecodingSplitReader(
                            props, readerContext, kafkaMetrics, rackId, decoder, nativeMessages, decodeNanos);
        };
        FutureCompletingBlockingQueue<RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>>> elements =
                new FutureCompletingBlockingQueue<>();
        Consumer<Collection<String>> noSplitFinishedHook = splits -> {};
        return new KafkaSourceReader<>(
                elements,
                new KafkaSourceFetcherManager(elements, splitReaders::get, noSplitFinishedHook),
                new KafkaRecordEmitter<>(emitted),
                toConfiguration(props),
                readerContext,
                kafkaMetrics);
    }

    /** A native decoder for one split reader, or null (logged) when this table or task decodes nothing natively. */
    private NativeRowDataDecoder nativeDecoder(int subtask) {
        if (values == null) {
            return null;
        }
        try {
            NativeRowDataDecoder decoder = new NativeRowDataDecoder(values.type(), values.jsonOptions());
            LOG.info(
                    "Table '{}', subtask {}: Kafka JSON values are decoded natively, a fetch per split at a time.",
                    table,
                    subtask);
            return decoder;
        } catch (RuntimeException e) {
            LOG.warn(
                    "Table '{}', subtask {}: the values are decoded by Flink's json deserializer, not natively: {}",
                    table,
                    subtask,
                    e.toString());
            return null;
        }
    }

    private static Configuration toConfiguration(Properties props) {
        Configuration config = new Configuration();
        props.stringPropertyNames().forEach(key -> config.setString(key, props.getProperty(key)));
        return config;
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> enumContext) {
        return stock.createEnumerator(enumContext);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> enumContext, KafkaSourceEnumState checkpoint) throws Exception {
        return stock.restoreEnumerator(enumContext, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return stock.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return stock.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return stock.getProducedType();
    }

    /** The stock source's lineage (its topics and properties). */
    @Override
    public SourceLineageVertex getLineageVertex() {
        return stock.getLineageVertex();
    }
}
