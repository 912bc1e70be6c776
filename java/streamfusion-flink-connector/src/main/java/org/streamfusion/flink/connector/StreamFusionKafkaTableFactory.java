package org.streamfusion.flink.connector;

import static org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions.SINK_PARTITIONER;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory;
import org.apache.flink.table.connector.sink.DynamicTableSink;

/**
 * The {@code streamfusion-kafka} table connector: a drop-in for Flink's {@code kafka} connector
 * ({@code KafkaDynamicTableFactory}) with the {@code json} format. It accepts the stock sink's options exactly as
 * Flink spells them, and Flink's own factory validates them (same messages for the same mistakes); the records
 * are the stock sink's (key, value, partition), made in batches and written by Flink's own {@code KafkaSink}.
 *
 * <p><b>Written by Flink's own sink</b> (the stock factory's {@code KafkaDynamicSink}, the stock records; one INFO
 * line names the reason, and the writer's {@code streamfusion.numFlinkRows} metric counts the rows, see
 * {@link SinkPlanning#notNative}): a table with a format other than {@code json} (value or key),
 * {@code topic-pattern}, or a column type the encoder does not write. A custom {@code sink.partitioner} class is
 * native: each writer subtask instantiates, opens and calls it per record as the stock sink does.
 * Key and value json options that differ ({@code key.json.*} beside {@code value.json.*}) are native: the key row
 * is written with its own. Nothing the stock sink accepts is refused. The writable metadata columns {@code timestamp}
 * ({@code TIMESTAMP_LTZ(3)}, the record timestamp) and {@code headers} ({@code MAP<STRING, BYTES>}) are written
 * as the stock sink writes them. {@code topic} may be a list ({@code 'topic' = 'a;b'}), as in the stock sink:
 * then the writable {@code topic} metadata column ({@code STRING NOT NULL}) picks each row's topic, which must be
 * one of the list, and a row without it (no such column) or with another topic fails the task with the stock
 * sink's {@code IllegalArgumentException}; with one topic, {@code topic} is not writable (the planner rejects the
 * column, as for the stock sink). {@code sink.partitioner} {@code default} and
 * {@code round-robin} leave the partition to Kafka's producer, {@code fixed} is Flink's
 * {@code FlinkFixedPartitioner}, as in the stock sink. Plus the {@code streamfusion.} options of
 * {@link StreamFusionOptions}. A table read through {@code streamfusion-kafka} is read by the stock {@code kafka}
 * source, with every option and format it accepts ({@link StockOptionsFactory}).
 *
 * <p>Found by Flink's {@code FactoryUtil} through {@code META-INF/services}, not called by users (as Flink's
 * {@code KafkaDynamicTableFactory}, internal); the connector name {@link #IDENTIFIER} is the API.
 */
@Internal
public final class StreamFusionKafkaTableFactory extends StockOptionsFactory<KafkaDynamicTableFactory> {
    /** The connector name in DDL: {@code 'connector' = 'streamfusion-kafka'}. */
    @PublicEvolving
    public static final String IDENTIFIER = "streamfusion-kafka";

    /** A factory for Flink's {@code FactoryUtil} (found through {@code META-INF/services}). */
    public StreamFusionKafkaTableFactory() {
        super(new KafkaDynamicTableFactory(), IDENTIFIER, false);
    }

    /**
     * Plans the sink.
     *
     * @param context the table being written
     * @return the sink: StreamFusion's, or Flink's own for a table StreamFusion does not write natively (see the
     *     class comment)
     * @throws org.apache.flink.table.api.ValidationException for any option Flink's {@code kafka} sink rejects
     *     (its own message), and for an unknown or bad {@code streamfusion.} option
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        SinkPlanning planning = new SinkPlanning(IDENTIFIER, stock().factoryIdentifier(), context);
        planning.rejectUnknownOwnOptions();
        planning.checkOwnOptions();
        // Flink's own validation of every Flink option, exactly as for 'kafka'.
        DynamicTableSink stock = stock().createDynamicTableSink(planning.stockContext());
        Configuration options = Configuration.fromMap(context.getCatalogTable().getOptions());
        int[] keyProjection = SinkPlanning.keyProjection(
                options.get(KafkaConnectorOptions.KEY_FIELDS), context.getPhysicalRowDataType());
        Optional<String> notNative = planning.notNative(keyProjection, false);
        if (notNative.isPresent()) {
            return planning.flinkWritten(stock, notNative.get());
        }
        boolean fixed = options.getOptional(SINK_PARTITIONER)
                .map(SinkPlanning.PARTITIONER_FIXED::equals)
                .orElse(false);
        return new StreamFusionKafkaDynamicSink(
                planning.spec(keyProjection, fixed, false),
                IDENTIFIER,
                context.getObjectIdentifier().getObjectName());
    }
}
