package org.bijou64.perf.compare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.perf.common.ProducerSettings;

/**
 * The runs of one (distribution, compression): one per mode, each with its own topic and producer. The Java modes
 * run in this JVM as described below; the Rust modes run afterwards, one {@code streamfusion-bench bench} process each
 * ({@link RustBench}), with the same settings, timed region and verification.
 *
 * <h2>Order</h2>
 * The passes of the modes are interleaved: round 0 is every mode's warm-up pass, then round r runs one
 * measured pass of every mode, starting with a different mode each round. JIT compilation of the shared
 * producer path, GC and broker background work therefore fall on all modes alike instead of on whichever
 * mode runs first.
 *
 * <h2>What is timed</h2>
 * Each mode's producer is created, and its topic's metadata fetched, <em>before</em> any timed region, once
 * per run; the warm-up pass then opens the connections, obtains the idempotent producer id and warms the
 * JIT. A timed pass starts at the first {@code send()} of N records and ends when {@code flush()} has
 * returned and every send callback has completed without error. Serialization happens inside
 * {@code send()} on the calling thread, so it is inside the timed region; the values are boxed to
 * {@code Long} before it, so boxing is not.
 *
 * <h2>What is verified</h2>
 * After the producers are closed, each topic's end offset is read ({@code read_committed}) and a consumer
 * with the mode's deserializer reads from the beginning to that offset. Every record must equal the value
 * sent at that position (the values repeated once per pass, warm-up included), and the count must match.
 * The mean serialized value size is the sum of {@link RecordMetadata#serializedValueSize()} the producer
 * reported for every record, cross-checked against the sizes of the records read back.
 */
final class ProducerComparison {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    /** A verification that receives nothing for this long gives up. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final Options options;
    private final Admin admin;
    private final Progress progress;
    private final String stamp;
    private final RustBench rustBench;

    ProducerComparison(Options options, Admin admin, Progress progress, String stamp) {
        this.options = options;
        this.admin = admin;
        this.progress = progress;
        this.stamp = stamp;
        this.rustBench = new RustBench(options, progress);
    }

    /** The topic of one run: {@code TOPIC-<distribution>-<mode>-<compression>-<UTC stamp>}. */
    String topicName(Distribution distribution, Mode mode, String compression) {
        return options.topic() + "-" + distribution.cliName() + "-" + mode.cliName() + "-" + compression + "-" + stamp;
    }

    /** The state of one mode's run while the rounds go on. */
    private static final class Lane {
        final Mode mode;
        final String topic;
        final String label;
        final double[] rates;
        String implementation = "?";
        KafkaProducer<byte[], Long> producer;
        long producedValueBytes;
        int passesDone;
        boolean topicCreated;
        String problem;

        Lane(Mode mode, String topic, String label, int iterations) {
            this.mode = mode;
            this.topic = topic;
            this.label = label;
            this.rates = new double[iterations];
        }
    }

    /**
     * Runs every mode for one (distribution, compression): first the Java modes, interleaved, then each Rust mode
     * with {@link RustBench}. Never throws for a failure of a run itself: that run's result is then not verified
     * and names the problem.
     *
     * @param values the values, in send order
     * @param boxed the same values boxed, so boxing stays out of the timed region
     * @return one result per mode, in the order of {@code modes}
     */
    List<RunResult> runAll(Distribution distribution, long[] values, Long[] boxed, List<Mode> modes,
            String compression) {
        Map<Mode, RunResult> byMode = new EnumMap<>(Mode.class);
        List<Mode> javaModes = modes.stream().filter(m -> !m.isRust()).toList();
        if (!javaModes.isEmpty()) {
            for (RunResult result : runJava(distribution, values, boxed, javaModes, compression)) {
                byMode.put(result.mode(), result);
            }
        }
        for (Mode mode : modes) {
            if (mode.isRust()) {
                byMode.put(mode, rustBench.run(distribution, mode, compression,
                        topicName(distribution, mode, compression)));
            }
        }
        return modes.stream().map(byMode::get).toList();
    }

    /** The Java modes of {@link #runAll}, their passes interleaved (see the class comment). */
    private List<RunResult> runJava(Distribution distribution, long[] values, Long[] boxed, List<Mode> modes,
            String compression) {
        List<Lane> lanes = new ArrayList<>();
        for (Mode mode : modes) {
            lanes.add(new Lane(mode, topicName(distribution, mode, compression),
                    String.format("[%s %s %s]", distribution.cliName(), compression, mode.cliName()),
                    options.iterations()));
        }
        List<RunResult> results = new ArrayList<>();
        try {
            for (Lane lane : lanes) {
                try {
                    createTopic(lane.topic);
                    lane.topicCreated = true;
                    Serializer<Long> serializer = lane.mode.newSerializer();
                    lane.implementation = Mode.implementationOf(serializer);
                    lane.producer = new KafkaProducer<>(producerConfigs(lane.mode, compression),
                            new ByteArraySerializer(), serializer);
                    lane.producer.partitionsFor(lane.topic); // metadata before the clock starts
                } catch (Exception e) {
                    fail(lane, e);
                }
            }
            for (int round = 0; round <= options.iterations(); round++) {
                for (int k = 0; k < lanes.size(); k++) {
                    Lane lane = lanes.get((k + round) % lanes.size());
                    if (lane.problem != null) {
                        continue;
                    }
                    try {
                        System.gc();
                        Pass pass = timedPass(lane.producer, lane.topic, boxed);
                        lane.producedValueBytes += pass.valueBytes();
                        lane.passesDone++;
                        double rate = values.length / (pass.nanos() / 1e9);
                        if (round > 0) {
                            lane.rates[round - 1] = rate;
                        }
                        progress.pass(lane.label, round, options.iterations(), rate, pass.nanos() / 1e9);
                    } catch (Exception e) {
                        fail(lane, e);
                    }
                }
            }
            for (Lane lane : lanes) {
                closeProducer(lane);
            }
            for (Lane lane : lanes) {
                results.add(finish(lane, distribution, compression, values));
            }
            return results;
        } finally {
            for (Lane lane : lanes) {
                closeProducer(lane);
                if (lane.topicCreated && !options.keepTopics()) {
                    deleteTopic(lane.topic);
                }
            }
        }
    }

    private void fail(Lane lane, Exception e) {
        lane.problem = describe(e);
        progress.message(lane.label + " FAILED: " + lane.problem);
    }

    private void closeProducer(Lane lane) {
        if (lane.producer != null) {
            try {
                lane.producer.close(ADMIN_TIMEOUT);
            } catch (RuntimeException e) {
                if (lane.problem == null) {
                    fail(lane, e);
                }
            }
            lane.producer = null;
        }
    }

    /** Verifies a lane's topic (unless it already failed) and makes its result. */
    private RunResult finish(Lane lane, Distribution distribution, String compression, long[] values) {
        if (lane.problem == null) { // all passes sent without error
            try {
                Verification check = verify(lane.topic, lane.mode, values, options.iterations() + 1);
                lane.problem = check.problem();
                if (lane.problem == null && check.valueBytes() != lane.producedValueBytes) {
                    lane.problem = "consumer read " + check.valueBytes() + " value bytes, producer reported "
                            + lane.producedValueBytes;
                }
            } catch (Exception e) {
                lane.problem = describe(e);
            }
        }
        boolean measured = lane.passesDone == options.iterations() + 1;
        // What the producer reported for every record sent (equal to the consumer's sum when verified).
        double avgBytes = lane.passesDone == 0 ? Double.NaN
                : (double) lane.producedValueBytes / ((long) lane.passesDone * values.length);
        progress.done(String.format("%s verified=%s, %.3f bytes/value, median %,.0f msgs/s%s", lane.label,
                lane.problem == null, avgBytes, RunResult.median(lane.rates),
                lane.problem == null ? "" : ": " + lane.problem));
        return RunResult.of(distribution, lane.mode, compression, lane.implementation, values.length,
                measured ? lane.rates : new double[0], avgBytes, lane.problem == null, lane.problem);
    }

    /**
     * The producer configuration of a run. The serializers are passed to the producer as instances already
     * configured with {@link Mode#serdeConfigs()}, so those keys are not repeated here.
     */
    Map<String, Object> producerConfigs(Mode mode, String compression) {
        Map<String, Object> configs = new LinkedHashMap<>(ProducerSettings.get());
        configs.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap());
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, "compare-" + mode.cliName() + "-" + compression);
        return configs;
    }

    private record Pass(long nanos, long valueBytes) {}

    private static Pass timedPass(KafkaProducer<byte[], Long> producer, String topic, Long[] boxed)
            throws InterruptedException {
        SendTracker tracker = new SendTracker(boxed.length);
        long start = System.nanoTime();
        for (Long value : boxed) {
            producer.send(new ProducerRecord<>(topic, 0, null, value), tracker);
        }
        producer.flush();
        tracker.await();
        long nanos = System.nanoTime() - start;
        Exception error = tracker.firstError.get();
        if (error != null) {
            throw new IllegalStateException("send failed: " + error, error);
        }
        return new Pass(nanos, tracker.valueBytes);
    }

    /** One callback instance for a whole pass: counts completions, keeps the first error, sums value sizes. */
    private static final class SendTracker implements Callback {
        private final CountDownLatch pending;
        private final AtomicReference<Exception> firstError = new AtomicReference<>();
        /** Written only by the producer's I/O thread (successful completions); read after {@link #await()}. */
        private long valueBytes;

        SendTracker(int count) {
            this.pending = new CountDownLatch(count);
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                firstError.compareAndSet(null, exception);
            } else {
                valueBytes += metadata.serializedValueSize();
            }
            pending.countDown();
        }

        void await() throws InterruptedException {
            // flush() returns only after every callback ran; the bound is a guard against a producer bug.
            if (!pending.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException(pending.getCount() + " sends still incomplete after flush()");
            }
        }
    }

    private record Verification(long valueBytes, String problem) {}

    private Verification verify(String topic, Mode mode, long[] values, int passes) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        long end = admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(partition).get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).offset();
        long expectedRecords = (long) values.length * passes;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "compare-verify-" + mode.cliName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20000");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
        long read = 0;
        long valueBytes = 0;
        try (KafkaConsumer<byte[], Long> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), mode.newDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long lastData = System.nanoTime();
            while (consumer.position(partition) < end) {
                ConsumerRecords<byte[], Long> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (System.nanoTime() - lastData > IDLE_TIMEOUT.toNanos()) {
                        return new Verification(valueBytes, "no records for " + IDLE_TIMEOUT.toSeconds()
                                + " s at offset " + consumer.position(partition) + " of " + end);
                    }
                    continue;
                }
                lastData = System.nanoTime();
                for (ConsumerRecord<byte[], Long> record : records) {
                    if (read >= expectedRecords) {
                        return new Verification(valueBytes, "more records than the " + expectedRecords
                                + " produced (offset " + record.offset() + ")");
                    }
                    long expected = values[(int) (read % values.length)];
                    Long actual = record.value();
                    if (actual == null || actual != expected) {
                        return new Verification(valueBytes, "record " + read + " (offset " + record.offset()
                                + "): sent " + expected + ", read back " + actual);
                    }
                    valueBytes += record.serializedValueSize();
                    read++;
                }
            }
        } catch (SerializationException e) {
            return new Verification(valueBytes, "deserialization failed after " + read + " records: "
                    + e.getMessage());
        }
        if (read != expectedRecords) {
            return new Verification(valueBytes, "read " + read + " records up to end offset " + end
                    + ", produced " + expectedRecords);
        }
        return new Verification(valueBytes, null);
    }

    private void createTopic(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                .all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        // Wait until the partition has a leader, so the producer's first metadata request finds it.
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
                if (!description.partitions().isEmpty() && description.partitions().get(0).leader() != null) {
                    return;
                }
            } catch (ExecutionException e) {
                // Not yet known to the broker's metadata cache: retry until the deadline.
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topic " + topic + " has no leader after " + ADMIN_TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }

    private void deleteTopic(String topic) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            progress.message("warning: could not delete topic " + topic + ": " + describe(e));
        }
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getMessage() == null) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
