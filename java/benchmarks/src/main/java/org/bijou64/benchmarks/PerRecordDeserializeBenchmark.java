package org.bijou64.benchmarks;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.bijou64.Bijou64;
import org.bijou64.Implementation;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One Long record deserialized per operation through Kafka's {@link Deserializer} API, as a consumer calls it:
 * Kafka's {@link LongDeserializer} on its own 8-byte records (the baseline) against {@link Bijou64Deserializer}
 * with {@code bijou64.useJava=true} (pure Java) and with {@code bijou64.implementation=native} (JNI, one
 * crossing per record) on bijou64
 * records of the same values. Each invocation deserializes {@value Fixtures#RECORDS} pre-serialized records,
 * so the score is nanoseconds per record. Every record is fully validated (whole-record rule).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:G1HeapRegionSize=4m", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class PerRecordDeserializeBenchmark {
    /** The value distribution (see {@link org.bijou64.perf.compare.Distribution}). */
    @Param({"sequential", "uniform", "boundary"})
    public String distribution;

    private long[] expected;
    private byte[][] longRecords;
    private byte[][] bijou64Records;
    private Deserializer<Long> longDeserializer;
    private Deserializer<Long> bijou64Java;

    /** The JNI deserializer, in its own state so only its benchmark fails when the library is missing. */
    @State(Scope.Thread)
    public static class Jni {
        Deserializer<Long> deserializer;

        /** Configures {@code bijou64.implementation=native} and checks that the native codec is in use. */
        @Setup
        public void setup() {
            Bijou64Deserializer d = new Bijou64Deserializer();
            d.configure(Fixtures.serdeConfigs(Implementation.NATIVE), false);
            Fixtures.requireImplementation(Implementation.NATIVE, d.implementation());
            LongCodec java = Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA);
            for (long v : Fixtures.tierEdges()) {
                if (d.deserialize(Fixtures.TOPIC, java.encode(v)) != v) {
                    throw new IllegalStateException("the JNI deserializer does not read back " + v);
                }
            }
            deserializer = d;
        }

        /** Closes the deserializer. */
        @TearDown
        public void tearDown() {
            deserializer.close();
        }
    }

    /** Serializes the values both ways and configures the deserializers; checks both round trips. */
    @Setup
    public void setup() {
        expected = Fixtures.values(distribution, Fixtures.RECORDS);
        longRecords = new byte[expected.length][];
        bijou64Records = new byte[expected.length][];
        try (LongSerializer kafka = new LongSerializer()) {
            for (int i = 0; i < expected.length; i++) {
                longRecords[i] = kafka.serialize(Fixtures.TOPIC, expected[i]);
                bijou64Records[i] =
                        Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA).encode(expected[i]);
            }
        }
        longDeserializer = new LongDeserializer();
        Bijou64Deserializer java = new Bijou64Deserializer();
        java.configure(Fixtures.serdeConfigs(Implementation.JAVA), false);
        Fixtures.requireImplementation(Implementation.JAVA, java.implementation());
        bijou64Java = java;
        for (int i = 0; i < expected.length; i++) {
            if (longDeserializer.deserialize(Fixtures.TOPIC, longRecords[i]) != expected[i]
                    || bijou64Java.deserialize(Fixtures.TOPIC, bijou64Records[i]) != expected[i]) {
                throw new IllegalStateException("deserializers do not round-trip " + expected[i]);
            }
        }
    }

    /** Closes the deserializers. */
    @TearDown
    public void tearDown() {
        longDeserializer.close();
        bijou64Java.close();
    }

    /**
     * @param bh consumes each value
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void longDeserializer(Blackhole bh) {
        Deserializer<Long> deserializer = longDeserializer;
        byte[][] records = longRecords;
        for (int i = 0; i < records.length; i++) {
            bh.consume(deserializer.deserialize(Fixtures.TOPIC, records[i]));
        }
    }

    /**
     * @param bh consumes each value
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void bijou64Java(Blackhole bh) {
        Deserializer<Long> deserializer = bijou64Java;
        byte[][] records = bijou64Records;
        for (int i = 0; i < records.length; i++) {
            bh.consume(deserializer.deserialize(Fixtures.TOPIC, records[i]));
        }
    }

    /**
     * @param jni the JNI deserializer
     * @param bh consumes each value
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void bijou64Jni(Jni jni, Blackhole bh) {
        Deserializer<Long> deserializer = jni.deserializer;
        byte[][] records = bijou64Records;
        for (int i = 0; i < records.length; i++) {
            bh.consume(deserializer.deserialize(Fixtures.TOPIC, records[i]));
        }
    }
}
