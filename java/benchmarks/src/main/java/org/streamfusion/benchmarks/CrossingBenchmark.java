package org.streamfusion.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.NativeJsonEncoder;

/**
 * The fixed cost of one {@link NativeJsonEncoder#encode} crossing: a batch of one row of one BIGINT column
 * (export of one column, the JNI call, import, encode of {@code {"id":42}}, six arrays back). Nanoseconds per
 * call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Xms2g",
            "-Xmx2g",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED"
        })
@State(Scope.Thread)
public class CrossingBenchmark {
    private BufferAllocator allocator;
    private VectorSchemaRoot root;
    private NativeJsonEncoder encoder;

    /** A one-row root and an encoder whose plan and schema are in place. */
    @Setup(Level.Trial)
    public void setup() {
        allocator = new RootAllocator();
        BigIntVector id = new BigIntVector("id", allocator);
        id.allocateNew(1);
        id.set(0, 42);
        id.setValueCount(1);
        root = VectorSchemaRoot.of(id);
        encoder = new NativeJsonEncoder(Map.of());
        encoder.encode(root);
    }

    /** Frees them. */
    @TearDown(Level.Trial)
    public void tearDown() {
        encoder.close();
        root.close();
        allocator.close();
    }

    /** @return the records of the one-row batch */
    @Benchmark
    public EncodedBatch oneCell() {
        return encoder.encode(root);
    }
}
