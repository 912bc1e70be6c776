package org.streamfusion.flink.connector;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.streamfusion.flink.RowDataJsonEncoder;

/**
 * The options {@code streamfusion-kafka} and {@code streamfusion-upsert-kafka} add to Flink's {@code kafka} /
 * {@code upsert-kafka} options, all prefixed {@code streamfusion.}. Every other option is Flink's own
 * ({@code KafkaConnectorOptions}, {@code JsonFormatOptions}) and means what it means there.
 */
@PublicEvolving
public final class StreamFusionOptions {
    /** The prefix of every StreamFusion option. */
    public static final String PREFIX = "streamfusion.";

    /**
     * The default of {@link #BATCH_ROWS}: the highest median end-to-end rate of 1024, 4096, 8192 and 16384 in
     * both passes of {@code perf/streamfusion-flink-sql} (a MiniCluster SQL job of Nexmark-bid-shaped rows to the
     * broker, {@code docs/benchmarks.md}); 8192 and 16384 were not faster within the noise, and 4096 halves the
     * per-task vectors and the time a batch takes to fill.
     */
    public static final int DEFAULT_BATCH_ROWS = 4096;

    /**
     * The default of {@link #LINGER}: a latency bound, not a throughput setting (at the rates measured, at least
     * 100,000 rows/s per task, a batch of {@link #DEFAULT_BATCH_ROWS} rows fills in about 40 ms or less, so the
     * timer only fires at lower rates); not measured.
     */
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(100);

    /**
     * Rows per encoded batch, an integer ≥ 1: a batch is encoded (one JNI crossing) as soon as this many rows
     * are buffered. Smaller batches are encoded earlier on the linger timer, before a checkpoint barrier, before
     * a watermark and at end of input.
     */
    public static final ConfigOption<Integer> BATCH_ROWS = ConfigOptions.key(PREFIX + "batch-rows")
            .intType()
            .defaultValue(DEFAULT_BATCH_ROWS)
            .withDescription(
                    "Rows per encoded batch (>= 1): a batch is encoded as soon as this many rows are " + "buffered.");

    /**
     * The longest a buffered row waits for its batch to fill, a duration ≥ 1 ms (processing time, measured from
     * the first row of the batch): the latency StreamFusion may add before a row reaches Kafka's producer.
     */
    public static final ConfigOption<Duration> LINGER = ConfigOptions.key(PREFIX + "linger")
            .durationType()
            .defaultValue(DEFAULT_LINGER)
            .withDescription("The longest a buffered row waits for its batch to fill (processing time, >= 1 ms).");

    /**
     * The smallest batch encoded natively, an integer ≥ 0; smaller batches are written by Flink's own
     * {@code JsonRowDataSerializationSchema} (same bytes). 0 encodes every batch natively.
     */
    public static final ConfigOption<Integer> NATIVE_MIN_BATCH_ROWS = ConfigOptions.key(
                    PREFIX + RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS)
            .intType()
            .defaultValue(RowDataJsonEncoder.DEFAULT_NATIVE_MIN_BATCH_ROWS)
            .withDescription("The smallest batch (rows) encoded natively; smaller batches go through Flink's "
                    + "json serializer.");

    private StreamFusionOptions() {}
}
