package org.bijou64.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.zip.Adler32;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The fixed cost of one JNI crossing, measured as the smallest calls of the public codec API made through JNI
 * and through pure Java; the difference of each pair is what crossing costs:
 * <ul>
 *   <li>{@code decodeOneByte*}: decode the one-byte record {@code 2a}: one byte copied in, a primitive
 *       {@code long} back, nothing allocated. The purest crossing.</li>
 *   <li>{@code encodeAllEmpty*}: {@code encodeAll(new long[0])}: an empty slab, one offset, and (native) an
 *       array created from native code.</li>
 *   <li>{@code decodeAllEmpty*}: {@code decodeAll(new byte[0], {0})}: no records, an empty result.</li>
 *   <li>{@code encodeOne*}: {@code encode(value)} of one value of the distribution per operation
 *       ({@value Fixtures#RECORDS} per invocation): the codec-level cost the serializer adds its null check to.</li>
 *   <li>{@code jdkJniFloor*}: the JVM's own floor, calls into JNI natives of the JDK itself that do almost
 *       nothing, so no code of ours is involved: {@code jdkJniFloorPrimitives} is {@link Adler32#update(int)}
 *       (the static native {@code Adler32.update(int, int)}: two ints in, one back; HotSpot has no intrinsic
 *       for it), {@code jdkJniFloorByteArray} is {@link Adler32#update(byte[], int, int)} of one byte with
 *       HotSpot's Adler32 intrinsic switched off (the static native {@code updateBytes}: a {@code byte[]}
 *       argument read through {@code GetPrimitiveArrayCritical}). What a crossing costs before any work is
 *       done, against which {@code decodeOneByteJni} and {@code encodeOneJni} are read.</li>
 * </ul>
 * Scores are nanoseconds per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:G1HeapRegionSize=4m", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class JniCrossingBenchmark {
    private final LongCodec java = Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA);
    private final byte[] oneByteRecord = {0x2a};
    private final long[] noValues = new long[0];
    private final byte[] noBytes = new byte[0];
    private final int[] oneOffset = {0};

    /** The JNI codec, in its own state so only its benchmarks fail when the library is missing. */
    @State(Scope.Thread)
    public static class Jni {
        LongCodec codec;

        /** Takes the native codec; throws (naming the loader's reason) when the library did not load. */
        @Setup
        public void setup() {
            codec = Fixtures.nativeCodec();
        }
    }

    /** The values of the single-value encodes; only those benchmarks depend on the distribution. */
    @State(Scope.Thread)
    public static class Values {
        /** The value distribution (see {@link org.bijou64.perf.compare.Distribution}). */
        @Param({"sequential", "uniform", "boundary"})
        public String distribution;

        long[] values;

        /** Generates {@value Fixtures#RECORDS} values. */
        @Setup
        public void setup() {
            values = Fixtures.values(distribution, Fixtures.RECORDS);
        }
    }

    /** The Adler32 checksums of the floor benchmarks (their state is one int; reused across calls). */
    private final Adler32 adler = new Adler32();

    /** @return the checksum after one more byte: a JDK JNI native with only primitive arguments */
    @Benchmark
    public long jdkJniFloorPrimitives() {
        adler.update(0x2a);
        return adler.getValue();
    }

    /** @return the checksum after one more byte, read by a JDK JNI native from a {@code byte[]} argument */
    @Benchmark
    @Fork(
            value = 1,
            jvmArgsAppend = {
                "-Xms2g",
                "-Xmx2g",
                "-XX:G1HeapRegionSize=4m",
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:-UseAdler32Intrinsics"
            })
    public long jdkJniFloorByteArray() {
        adler.update(oneByteRecord, 0, 1);
        return adler.getValue();
    }

    /** @return 42 */
    @Benchmark
    public long decodeOneByteJava() {
        return java.decode(oneByteRecord, 0, 1);
    }

    /**
     * @param jni the native codec
     * @return 42
     */
    @Benchmark
    public long decodeOneByteJni(Jni jni) {
        return jni.codec.decode(oneByteRecord, 0, 1);
    }

    /** @return an empty slab */
    @Benchmark
    public EncodedSlab encodeAllEmptyJava() {
        return java.encodeAll(noValues);
    }

    /**
     * @param jni the native codec
     * @return an empty slab
     */
    @Benchmark
    public EncodedSlab encodeAllEmptyJni(Jni jni) {
        return jni.codec.encodeAll(noValues);
    }

    /** @return no values */
    @Benchmark
    public long[] decodeAllEmptyJava() {
        return java.decodeAll(noBytes, oneOffset);
    }

    /**
     * @param jni the native codec
     * @return no values
     */
    @Benchmark
    public long[] decodeAllEmptyJni(Jni jni) {
        return jni.codec.decodeAll(noBytes, oneOffset);
    }

    /**
     * @param values the distribution's values
     * @param bh consumes each encoding
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void encodeOneJava(Values values, Blackhole bh) {
        LongCodec codec = java;
        long[] v = values.values;
        for (int i = 0; i < v.length; i++) {
            bh.consume(codec.encode(v[i]));
        }
    }

    /**
     * @param jni the native codec
     * @param values the distribution's values
     * @param bh consumes each encoding
     */
    @Benchmark
    @OperationsPerInvocation(Fixtures.RECORDS)
    public void encodeOneJni(Jni jni, Values values, Blackhole bh) {
        LongCodec codec = jni.codec;
        long[] v = values.values;
        for (int i = 0; i < v.length; i++) {
            bh.consume(codec.encode(v[i]));
        }
    }
}
