package org.bijou64.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import org.bijou64.Bijou64;
import org.bijou64.Implementation;
import org.bijou64.LongCodec;
import org.bijou64.Mapping;
import org.bijou64.perf.compare.Distribution;
import org.bijou64.perf.compare.ValueGenerator;
import org.bijou64.perf.kafka.Bijou64SerdeConfig;

/**
 * What every benchmark shares: the values (the producer comparison's {@link Distribution}s from its one generator,
 * {@code streamfusion-bench values}, so both benchmarks measure the same numbers; the binary is named by the
 * environment variable {@value #GENERATOR_ENV}, which {@code scripts/run-jmh.sh} sets), the fixed seed, and the
 * serde configs.
 */
final class Fixtures {
    /** Values per invocation of a per-record benchmark; every score is divided by this. */
    static final int RECORDS = 1024;
    /** The seed of the {@code uniform} distribution (the others ignore it). */
    static final long SEED = Distribution.DEFAULT_SEED;
    /** The environment variable naming the {@code streamfusion-bench} binary that generates the values. */
    static final String GENERATOR_ENV = "STREAMFUSION_BENCH_BIN";
    /** The topic passed to the serdes (they ignore it). */
    static final String TOPIC = "bijou64-jmh";

    private Fixtures() {}

    /**
     * @param distribution {@code sequential}, {@code uniform} or {@code boundary} (or {@code mixed})
     * @param n how many
     * @return the first {@code n} values of that distribution with {@link #SEED}
     * @throws IllegalStateException when {@value #GENERATOR_ENV} is unset or the generator fails (the message says
     *     why)
     */
    static long[] values(String distribution, int n) {
        String binary = System.getenv(GENERATOR_ENV);
        if (binary == null || binary.isBlank()) {
            throw new IllegalStateException(GENERATOR_ENV + " is not set: it names the streamfusion-bench binary that"
                    + " generates the values (scripts/run-jmh.sh builds and sets it)");
        }
        try {
            return new ValueGenerator(Path.of(binary)).generate(Distribution.parse(distribution), n, SEED);
        } catch (IOException e) {
            throw new IllegalStateException("generating the " + distribution + " values: " + e.getMessage(), e);
        }
    }

    /** @return the values boxed once, as a producer's application would hand them to the serializer */
    static Long[] boxed(long[] values) {
        Long[] boxed = new Long[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }

    /**
     * @param implementation JAVA ({@code bijou64.useJava=true}) or NATIVE ({@code bijou64.implementation=native},
     *     which fails at configure time, naming the reason, when the library is not available)
     * @return the configs a producer or consumer would pass to {@code configure}
     */
    static Map<String, Object> serdeConfigs(Implementation implementation) {
        boolean java = implementation == Implementation.JAVA;
        return Map.of(
                Bijou64SerdeConfig.USE_JAVA_CONFIG,
                Boolean.toString(java),
                Bijou64SerdeConfig.IMPLEMENTATION_CONFIG,
                java ? "java" : "native",
                Bijou64SerdeConfig.MAPPING_CONFIG,
                "unsigned");
    }

    /**
     * Refuses to measure another codec under a label: checks the implementation a configured serde reports.
     *
     * @param expected the implementation the benchmark is named after
     * @param actual the implementation the configured serde reports
     * @throws IllegalStateException when they differ, with the native loader's reason if it did not load
     */
    static void requireImplementation(Implementation expected, Implementation actual) {
        if (actual != expected) {
            throw new IllegalStateException("configured for " + expected + " but the serde uses " + actual
                    + Bijou64.nativeLoadError()
                            .map(e -> " (native library: " + e.getMessage() + ")")
                            .orElse(""));
        }
    }

    /**
     * @return the unsigned-mapping JNI codec, checked against the Java codec on every tier edge
     * @throws IllegalStateException when the native library did not load (the message gives the reason)
     */
    static LongCodec nativeCodec() {
        LongCodec codec = Bijou64.codec(Mapping.UNSIGNED, Implementation.NATIVE);
        checkTierEdges("the JNI codec", codec::encode);
        return codec;
    }

    /** @return every bijou64 tier edge once (the {@code boundary} distribution's cycle) */
    static long[] tierEdges() {
        return values("boundary", TIER_EDGE_COUNT);
    }

    /**
     * Checks that an encoder under test writes the Java codec's bytes for every tier edge, so a JNI benchmark
     * cannot measure a library that does something else (the differential tests of {@code java/bijou64} cover
     * the rest).
     *
     * @param what names the encoder in the error
     * @param encoder the encoder under test
     * @throws IllegalStateException at the first difference
     */
    static void checkTierEdges(String what, Function<Long, byte[]> encoder) {
        LongCodec java = Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA);
        for (long v : tierEdges()) {
            if (!Arrays.equals(encoder.apply(v), java.encode(v))) {
                throw new IllegalStateException(what + " and the Java codec write different bytes for " + v);
            }
        }
    }

    /** The number of values in {@code Distribution.TIER_EDGES}: the first and last of 9 tiers, and 2 negatives. */
    private static final int TIER_EDGE_COUNT = 20;
}
