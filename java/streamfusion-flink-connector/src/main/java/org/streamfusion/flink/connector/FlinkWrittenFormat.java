package org.streamfusion.flink.connector;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The value format of a table that Flink's own Kafka sink writes (a table StreamFusion does not encode natively,
 * {@link SinkPlanning#notNative}): the stock format, put back into the stock {@link KafkaDynamicSink} in its
 * place, whose runtime encoder it wraps only to count the rows it serializes. Every byte is the wrapped format's.
 *
 * <p>Metric, per subtask, in the group {@code streamfusion} of the Kafka sink writer's metric group:
 * {@code numFlinkRows}, the rows whose value Flink's serializer wrote (upsert tombstones have no value and are
 * not counted).
 */
@Internal
final class FlinkWrittenFormat implements EncodingFormat<SerializationSchema<RowData>> {
    private static final Logger LOG = LoggerFactory.getLogger(FlinkWrittenFormat.class);
    /** The counter's name in the {@code streamfusion} group. */
    static final String NUM_FLINK_ROWS = "numFlinkRows";

    private final EncodingFormat<SerializationSchema<RowData>> flink;
    private final String reason;

    private FlinkWrittenFormat(EncodingFormat<SerializationSchema<RowData>> flink, String reason) {
        this.flink = flink;
        this.reason = reason;
    }

    /**
     * Puts a counting format in the place of the stock sink's value format ({@code KafkaDynamicSink}'s field
     * {@code valueEncodingFormat}, the only way in: the stock factories build the sink themselves). Where that
     * cannot be done (another flink-connector-kafka than this class was built for, or a JVM that forbids it), the
     * sink is left as it is, without the metric, and a warning says why.
     *
     * @param stock the stock factory's sink for the table
     * @param table the table's name, for the warning
     * @param reason why the table is not written natively ({@link #reasonOf})
     * @return {@code stock}
     */
    static DynamicTableSink countValuesOf(DynamicTableSink stock, String table, String reason) {
        try {
            EncodingFormat<SerializationSchema<RowData>> flink = valueFormatOf(stock);
            if (!(flink instanceof FlinkWrittenFormat)) {
                valueFormatField().set(stock, new FlinkWrittenFormat(flink, reason));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("Table '{}': the metric {} is not available: {}", table, NUM_FLINK_ROWS, e.toString());
        }
        return stock;
    }

    /**
     * @param sink a planned table sink
     * @return why the table is written by Flink's own sink, if {@link #countValuesOf} marked it so
     */
    static Optional<String> reasonOf(DynamicTableSink sink) {
        try {
            return valueFormatOf(sink) instanceof FlinkWrittenFormat format
                    ? Optional.of(format.reason)
                    : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Field valueFormatField() throws NoSuchFieldException {
        Field field = KafkaDynamicSink.class.getDeclaredField("valueEncodingFormat");
        field.setAccessible(true);
        return field;
    }

    @SuppressWarnings("unchecked")
    private static EncodingFormat<SerializationSchema<RowData>> valueFormatOf(DynamicTableSink sink)
            throws ReflectiveOperationException {
        if (!(sink instanceof KafkaDynamicSink)) {
            throw new IllegalStateException(
                    "the stock table sink is a " + sink.getClass().getName());
        }
        return (EncodingFormat<SerializationSchema<RowData>>) valueFormatField().get(sink);
    }

    @Override
    public SerializationSchema<RowData> createRuntimeEncoder(
            DynamicTableSink.Context context, DataType physicalDataType) {
        return new Counting(flink.createRuntimeEncoder(context, physicalDataType));
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        return flink.listWritableMetadata();
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys) {
        flink.applyWritableMetadata(metadataKeys);
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return flink.getChangelogMode();
    }

    @Override
    public String toString() {
        return flink.toString();
    }

    /** Flink's serializer, each row counted in {@link #NUM_FLINK_ROWS}. */
    private static final class Counting implements SerializationSchema<RowData> {
        private static final long serialVersionUID = 1L;
        private final SerializationSchema<RowData> flink;
        private transient Counter rows;

        Counting(SerializationSchema<RowData> flink) {
            this.flink = Objects.requireNonNull(flink, "flink");
        }

        @Override
        public void open(InitializationContext context) throws Exception {
            rows = context.getMetricGroup().addGroup("streamfusion").counter(NUM_FLINK_ROWS);
            flink.open(context);
        }

        @Override
        public byte[] serialize(RowData row) {
            if (rows != null) {
                rows.inc();
            }
            return flink.serialize(row);
        }
    }
}
