package org.bijou64.benchmarks;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.bijou64.Bijou64;
import org.bijou64.EncodedSlab;
import org.bijou64.Implementation;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole arrays through the codec's bulk calls: {@link LongCodec#encodeAll(long[])} (one slab plus
 * {@code size + 1} offsets) and {@link LongCodec#decodeAll(byte[], int[])} (every record validated), pure Java
 * against JNI, where each call is one crossing however large the array. The score is nanoseconds per call;
 * divide by {@code size} for nanoseconds per value ({@code scripts/run-jmh.sh} prints that table). Each call
 * allocates its result arrays, as the API does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:G1HeapRegionSize=4m", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class BulkBenchmark {
    /** The value distribution (see {@link org.bijou64.perf.compare.Distribution}). */
    @Param({"sequential", "uniform", "boundary"})
    public String distribution;

    /** Values per call. */
    @Param({"16", "256", "4096", "65536"})
    public int size;

    private final LongCodec java = Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA);
    private long[] values;
    private byte[] slab;
    private int[] offsets;

    /** The JNI codec, in its own state so only its benchmarks fail when the library is missing. */
    @State(Scope.Thread)
    public static class Jni {
        LongCodec codec;

        /** Takes the native codec; throws (naming the loader's reason) when the library did not load. */
        @Setup
        public void setup() {
            codec = Fixtures.nativeCodec();
            long[] edges = Fixtures.tierEdges();
            EncodedSlab slab = codec.encodeAll(edges);
            if (!slab.equals(
                            Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA).encodeAll(edges))
                    || !Arrays.equals(codec.decodeAll(slab.bytes(), slab.offsets()), edges)) {
                throw new IllegalStateException("the JNI bulk calls differ from the Java codec on the tier edges");
            }
        }
    }

    /** Generates the values and the slab to decode; checks the Java round trip. */
    @Setup
    public void setup() {
        values = Fixtures.values(distribution, size);
        EncodedSlab encoded = java.encodeAll(values);
        slab = encoded.bytes();
        offsets = encoded.offsets();
        if (!Arrays.equals(java.decodeAll(slab, offsets), values)) {
            throw new IllegalStateException("Java encodeAll/decodeAll does not round-trip " + distribution);
        }
    }

    /** @return the slab */
    @Benchmark
    public EncodedSlab encodeAllJava() {
        return java.encodeAll(values);
    }

    /**
     * @param jni the native codec
     * @return the slab
     */
    @Benchmark
    public EncodedSlab encodeAllJni(Jni jni) {
        return jni.codec.encodeAll(values);
    }

    /** @return the values */
    @Benchmark
    public long[] decodeAllJava() {
        return java.decodeAll(slab, offsets);
    }

    /**
     * @param jni the native codec
     * @return the values
     */
    @Benchmark
    public long[] decodeAllJni(Jni jni) {
        return jni.codec.decodeAll(slab, offsets);
    }
}
