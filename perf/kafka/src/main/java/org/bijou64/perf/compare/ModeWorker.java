package org.bijou64.perf.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
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
import org.bijou64.perf.common.BenchTopics;
import org.bijou64.perf.common.ProducerSettings;

/**
 * One Java mode of the producer comparison in a JVM of its own, as a JMH fork would be, so the producer's
 * serializer call sites only ever see this mode's serializer class. Started by {@link ProducerComparison} with
 * the coordinator's classpath as {@code java -cp ... org.bijou64.perf.compare.ModeWorker MODE COMPRESSION TOPIC
 * BOOTSTRAP}, and driven over stdin and stdout by {@link WorkerProtocol}; everything else it prints (Kafka's log)
 * goes to stderr.
 *
 * <h2>What is timed</h2>
 * The topic (1 partition, replication factor 1) is created and the producer made, its metadata fetched, before
 * {@code ready} is sent; the coordinator's warm-up passes then open the connections, obtain the idempotent producer
 * id and warm the JIT. A timed {@code pass} starts at the first {@code send()} of the current values and ends when
 * {@code flush()} has returned and every send callback has completed without error. Serialization happens inside
 * {@code send()} on the calling thread, so it is inside the timed region; the values are boxed to {@code Long} when
 * they are loaded, so boxing is not. The process CPU time ({@code OperatingSystemMXBean.getProcessCpuTime}) is read
 * at both ends: every thread of this JVM, the producer's I/O thread, GC and JIT included.
 *
 * <h2>What is verified</h2>
 * {@code verify} closes the producer, reads the topic's end offset ({@code read_committed}) and reads the topic from
 * the beginning with the mode's deserializer: every record must equal the value sent at that position (the values
 * of every pass, warm-up included, in order), the count must match, and the value bytes read back must equal the
 * sum of {@link RecordMetadata#serializedValueSize()} the producer reported.
 *
 * <p>Exit status: 0 after {@code quit} or the end of stdin; 1 when the set-up failed (after an {@code error} reply);
 * 2 bad arguments.
 */
public final class ModeWorker {
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    /** A verification that receives nothing for this long gives up. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final Mode mode;
    private final String topic;
    private final String bootstrap;
    private final Admin admin;
    private final com.sun.management.OperatingSystemMXBean os;
    /** {@code NATIVE}, {@code JAVA} or {@code -}, as the serializer instance reports it. */
    private final String implementation;

    private KafkaProducer<byte[], Long> producer;
    private long[] values = new long[0];
    private Long[] boxed = new Long[0];
    /** The values of every pass sent so far, in order (one array per values file, repeated per pass). */
    private final List<long[]> sent = new ArrayList<>();

    private long producedValueBytes;

    private ModeWorker(Mode mode, String compression, String topic, String bootstrap) throws Exception {
        this.mode = mode;
        this.topic = topic;
        this.bootstrap = bootstrap;
        this.os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.CLIENT_ID_CONFIG,
                "compare-worker-" + mode.cliName()));
        createTopic();
        Serializer<Long> serializer = mode.newSerializer();
        this.implementation = Mode.implementationOf(serializer);
        this.producer = new KafkaProducer<>(
                producerConfigs(mode, compression, bootstrap), new ByteArraySerializer(), serializer);
        producer.partitionsFor(topic); // metadata before the clock starts
    }

    /**
     * Entry point: {@code MODE COMPRESSION TOPIC BOOTSTRAP}, then commands on stdin (see {@link WorkerProtocol}).
     * The exit status is in the class comment.
     */
    public static void main(String[] args) {
        PrintStream protocol = System.out;
        System.setOut(System.err); // nothing but replies on the protocol stream
        if (args.length != 4) {
            protocol.println(
                    WorkerProtocol.wrap(WorkerProtocol.error("usage: ModeWorker MODE COMPRESSION TOPIC BOOTSTRAP")));
            protocol.flush();
            System.exit(2);
            return;
        }
        ModeWorker worker;
        try {
            Mode mode = Mode.parse(args[0]);
            if (mode.isRust()) {
                throw new IllegalArgumentException(mode.cliName() + " runs in streamfusion-bench, not in a JVM");
            }
            worker = new ModeWorker(mode, args[1], args[2], args[3]);
        } catch (Exception e) {
            protocol.println(WorkerProtocol.wrap(WorkerProtocol.error(ProducerComparison.describe(e))));
            protocol.flush();
            System.exit(1);
            return;
        }
        protocol.println(WorkerProtocol.wrap(WorkerProtocol.READY + " " + worker.implementation));
        protocol.flush();
        int status =
                worker.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), protocol);
        System.exit(status);
    }

    /** Answers commands until {@code quit} or the end of stdin; returns the exit status. */
    private int serve(BufferedReader in, PrintStream protocol) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                List<String> command = WorkerProtocol.parseCommand(line);
                String reply;
                try {
                    reply = handle(command);
                } catch (Exception e) {
                    reply = WorkerProtocol.error(ProducerComparison.describe(e));
                }
                protocol.println(WorkerProtocol.wrap(reply));
                protocol.flush();
                if (command.get(0).equals(WorkerProtocol.QUIT)) {
                    break;
                }
            }
        } catch (IOException e) {
            System.err.println("ModeWorker " + mode.cliName() + ": stdin failed: " + e.getMessage());
        } finally {
            close();
        }
        return 0;
    }

    private String handle(List<String> command) throws Exception {
        return switch (command.get(0)) {
            case WorkerProtocol.VALUES -> {
                if (command.size() != 3) {
                    throw new IllegalArgumentException("usage: values FILE N");
                }
                load(Path.of(command.get(1)), Integer.parseInt(command.get(2)));
                yield WorkerProtocol.OK + " " + values.length;
            }
            case WorkerProtocol.PASS -> pass().line();
            case WorkerProtocol.VERIFY -> verify().line();
            case WorkerProtocol.QUIT -> WorkerProtocol.OK;
            default -> throw new IllegalArgumentException("unknown command '" + command.get(0) + "'");
        };
    }

    private void load(Path file, int n) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            values = ValueGenerator.read(new java.io.BufferedInputStream(in, 1 << 16), n);
        }
        boxed = new Long[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = values[i];
        }
    }

    private WorkerProtocol.PassReply pass() throws InterruptedException {
        if (producer == null) {
            throw new IllegalStateException("the producer is closed (after verify)");
        }
        if (values.length == 0) {
            throw new IllegalStateException("no values yet: send 'values FILE N' first");
        }
        System.gc(); // the previous pass's garbage is not this pass's cost
        SendTracker tracker = new SendTracker(boxed.length);
        long cpuStart = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (Long value : boxed) {
            producer.send(new ProducerRecord<>(topic, 0, null, value), tracker);
        }
        producer.flush();
        tracker.await();
        long wall = System.nanoTime() - start;
        long cpu = os.getProcessCpuTime() - cpuStart;
        Exception error = tracker.firstError.get();
        if (error != null) {
            throw new IllegalStateException("send failed: " + error, error);
        }
        sent.add(values);
        producedValueBytes += tracker.valueBytes;
        return new WorkerProtocol.PassReply(wall, cpu, boxed.length, tracker.valueBytes);
    }

    /** The producer configuration: the shared settings plus compression, bootstrap and a client id. */
    static Map<String, Object> producerConfigs(Mode mode, String compression, String bootstrap) {
        Map<String, Object> configs = new LinkedHashMap<>(ProducerSettings.get());
        configs.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, "compare-" + mode.cliName() + "-" + compression);
        return configs;
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

    private WorkerProtocol.Verified verify() throws Exception {
        if (producer != null) {
            producer.close(ADMIN_TIMEOUT);
            producer = null;
        }
        TopicPartition partition = new TopicPartition(topic, 0);
        long end = admin.listOffsets(
                        Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(partition)
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .offset();
        long expectedRecords = sent.stream().mapToLong(a -> a.length).sum();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "compare-verify-" + mode.cliName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "20000");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 << 20));
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
        long read = 0;
        long valueBytes = 0;
        int passIndex = 0;
        int inPass = 0;
        try (KafkaConsumer<byte[], Long> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), mode.newDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long lastData = System.nanoTime();
            while (consumer.position(partition) < end) {
                ConsumerRecords<byte[], Long> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    if (System.nanoTime() - lastData > IDLE_TIMEOUT.toNanos()) {
                        throw new IllegalStateException("no records for " + IDLE_TIMEOUT.toSeconds() + " s at offset "
                                + consumer.position(partition) + " of " + end);
                    }
                    continue;
                }
                lastData = System.nanoTime();
                for (ConsumerRecord<byte[], Long> record : records) {
                    if (read >= expectedRecords) {
                        throw new IllegalStateException("more records than the " + expectedRecords
                                + " produced (offset " + record.offset() + ")");
                    }
                    long expected = sent.get(passIndex)[inPass];
                    Long actual = record.value();
                    if (actual == null || actual != expected) {
                        throw new IllegalStateException("record " + read + " (offset " + record.offset() + "): sent "
                                + expected + ", read back " + actual);
                    }
                    valueBytes += record.serializedValueSize();
                    read++;
                    if (++inPass == sent.get(passIndex).length) {
                        passIndex++;
                        inPass = 0;
                    }
                }
            }
        } catch (SerializationException e) {
            throw new IllegalStateException("deserialization failed after " + read + " records: " + e.getMessage(), e);
        }
        if (read != expectedRecords) {
            throw new IllegalStateException(
                    "read " + read + " records up to end offset " + end + ", produced " + expectedRecords);
        }
        if (valueBytes != producedValueBytes) {
            throw new IllegalStateException(
                    "consumer read " + valueBytes + " value bytes, producer reported " + producedValueBytes);
        }
        return new WorkerProtocol.Verified(read, valueBytes);
    }

    private void createTopic() throws Exception {
        BenchTopics.create(admin, topic, ADMIN_TIMEOUT);
    }

    private void close() {
        if (producer != null) {
            try {
                producer.close(ADMIN_TIMEOUT);
            } catch (RuntimeException e) {
                System.err.println("ModeWorker " + mode.cliName() + ": closing the producer: " + e.getMessage());
            }
            producer = null;
        }
        admin.close(ADMIN_TIMEOUT);
    }
}
