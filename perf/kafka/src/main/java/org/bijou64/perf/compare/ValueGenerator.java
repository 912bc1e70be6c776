package org.bijou64.perf.compare;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The values of a distribution, from the comparison's one generator: {@code streamfusion-bench values} (the Rust
 * modes call the same function in-process), which writes each value as 8 big-endian bytes, the format of
 * {@link DataInputStream#readLong()}. So every mode sends exactly the same values, and the JMH benchmarks
 * ({@code java/benchmarks}) measure them too.
 */
public final class ValueGenerator {
    /** The generator writes 50,000 values in milliseconds; this only bounds a hung process. */
    private static final long TIMEOUT_SECONDS = 120;

    private final Path binary;

    /** @param binary the {@code streamfusion-bench} binary ({@code perf/rust}) */
    public ValueGenerator(Path binary) {
        this.binary = binary;
    }

    /** The command line that writes the values to stdout. */
    List<String> command(Distribution distribution, int n, long seed) {
        return List.of(
                binary.toString(),
                "values",
                "--distribution",
                distribution.cliName(),
                "--messages",
                Integer.toString(n),
                "--seed",
                Long.toString(seed));
    }

    /**
     * Runs the generator.
     *
     * @return n values
     * @throws IOException when the binary cannot be run, fails, times out or writes another number of values
     */
    public long[] generate(Distribution distribution, int n, long seed) throws IOException {
        List<String> command = command(distribution, n, seed);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        process.getOutputStream().close();
        long[] values;
        try (InputStream out = process.getInputStream()) {
            values = read(out, n);
        } catch (IOException e) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": " + e.getMessage(), e);
        }
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while waiting for " + String.join(" ", command), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(
                    String.join(" ", command) + " exited with status " + process.exitValue() + " (its error is above)");
        }
        return values;
    }

    /**
     * Reads exactly n big-endian longs and then the end of the stream.
     *
     * @throws IOException when the stream ends early, mid-value, or holds more than n values
     */
    static long[] read(InputStream in, int n) throws IOException {
        DataInputStream data = new DataInputStream(in);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            try {
                values[i] = data.readLong();
            } catch (EOFException e) {
                throw new IOException("the generator wrote " + i + " complete values, expected " + n, e);
            }
        }
        if (data.read() != -1) {
            throw new IOException("the generator wrote more than the " + n + " values asked for");
        }
        return values;
    }
}
