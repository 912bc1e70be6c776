package org.bijou64.benchmarks;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.bijou64.Bijou64;
import org.bijou64.Implementation;
import org.bijou64.Mapping;
import org.bijou64.perf.kafka.Bijou64Serializer;
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
 * One Long record serialized per operation through Kafka's {@link Serializer} API, as a producer calls it:
 * Kafka's {@link LongSerializer} (8 bytes, the baseline) against {@link Bijou64Serializer} configured with
 * {@code bijou64.useJava=true} (pure Java) and with {@code bijou64.implementation=native} (JNI, one
 * crossing per record). Each invocation
 * serializes {@value Fixtures#RECORDS} pre-boxed values, so the score is nanoseconds per record.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:G1HeapRegionSize=4m", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class PerRecordSerializeBenchmark {
    /** The value distribution (see {@link org.bijou64.perf.compare.Distribution}). */
    @Param({"sequential", "uniform", "boundary"})
    public String distribution;

    private Long[] values;
    private Serializer<Long> longSerializer;
    private Serializer<Long> bijou64Java;

    /** The JNI serializer, in its own state so only its benchmark fails when the library is missing. */
    @State(Scope.Thread)
    public static class Jni {
        Serializer<Long> serializer;

        /** Configures {@code bijou64.implementation=native} and checks that the native codec is in use. */
        @Setup
        public void setup() {
            Bijou64Serializer s = new Bijou64Serializer();
            s.configure(Fixtures.serdeConfigs(Implementation.NATIVE), false);
            Fixtures.requireImplementation(Implementation.NATIVE, s.implementation());
            Fixtures.checkTierEdges("the JNI serializer", v -> s.serialize(Fixtures.TOPIC, v));
            serializer = s;
        }

        /** Closes the serializer. */
        @TearDown
        public void tearDown() {
            serializer.close();
        }
    }

    /** Boxes the values and configures the serializers; checks that the pure-Java one writes bijou64. */
    @Setup
    public void setup() {
        long[] raw = Fixtures.values(distribution, Fixtures.RECORDS);
        values = Fixtures.boxed(raw);
        longSerializer = new LongSerializer();
        Bijou64Serializer java = new Bijou64Serializer();
        java.configure(Fixtures.serdeConfigs(Implementation.JAVA), false);
        Fixtures.requireImplementation(Implementation.JAVA, java.implementation());
        bijou64Java = java;
        for (long v : raw) {
            if (Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA).decode(java.serialize(Fixtures.TOPIC, v)) != v) {
                throw new IllegalStateException("bijou64 Java serializer does not round-trip " + v);
            }
        }
    }

    /** Closes the serializers. */
    @TearDown
    public void tearDown() {
        longSerializer.close();
        bijou64Java.close();
    }

    /**
     * @param bh consumes each record's bytes
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void longSerializer(Blackhole bh) {
        Serializer<Long> serializer = longSerializer;
        Long[] v = values;
        for (int i = 0; i < v.length; i++) {
            bh.consume(serializer.serialize(Fixtures.TOPIC, v[i]));
        }
    }

    /**
     * @param bh consumes each record's bytes
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void bijou64Java(Blackhole bh) {
        Serializer<Long> serializer = bijou64Java;
        Long[] v = values;
        for (int i = 0; i < v.length; i++) {
            bh.consume(serializer.serialize(Fixtures.TOPIC, v[i]));
        }
    }

    /**
     * @param jni the JNI serializer
     * @param bh consumes each record's bytes
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void bijou64Jni(Jni jni, Blackhole bh) {
        Serializer<Long> serializer = jni.serializer;
        Long[] v = values;
        for (int i = 0; i < v.length; i++) {
            bh.consume(serializer.serialize(Fixtures.TOPIC, v[i]));
        }
    }
}
