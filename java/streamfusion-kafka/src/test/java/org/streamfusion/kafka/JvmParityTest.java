package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.Test;

/**
 * The parity corpus through the JVM: every case's Arrow IPC file is read with Arrow Java, encoded by
 * {@link NativeJsonEncoder} (Arrow Java vectors, C Data Interface, native encoder, six JVM arrays) and compared
 * record by record with the bytes the real Flink 2.2 {@code JsonRowDataSerializationSchema} wrote for the same
 * rows on JDK 25 ({@code goldens/flink-2.2-jdk25}); a case Flink rejects ({@code <case>.error}) must throw.
 *
 * <p>{@code scripts/parity.sh} writes {@code target/parity} (corpus and goldens) and runs before Maven in
 * {@code scripts/test.sh}; surefire passes its path as {@code streamfusion.parity.dir}. Without it the test
 * is skipped with a message saying so.
 */
class JvmParityTest {
    private static final String GOLDEN_SET = "flink-2.2-jdk25";
    private static final String FLINK_VERSION = "2.2";
    private static final int MAX_REPORTED = 30;

    private record Record(byte[] key, byte[] value) {}

    @Test
    void corpusMatchesFlinkGoldensThroughTheJvm() throws IOException {
        String dirProperty = System.getProperty("streamfusion.parity.dir", "");
        Path root = Path.of(dirProperty.isEmpty() ? "target/parity" : dirProperty);
        Path corpus = root.resolve("corpus");
        Path goldens = root.resolve("goldens").resolve(GOLDEN_SET);
        assumeTrue(
                Files.isDirectory(corpus) && Files.isDirectory(goldens),
                () -> "SKIPPED JVM parity: " + corpus + " or " + goldens + " is missing; run scripts/parity.sh "
                        + "first (scripts/test.sh does)");

        List<String> cases;
        try (Stream<Path> files = Files.list(corpus)) {
            cases = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".arrow"))
                    .map(n -> n.substring(0, n.length() - ".arrow".length()))
                    .sorted()
                    .toList();
        }
        assertTrue(!cases.isEmpty(), "no <case>.arrow in " + corpus);

        int recordCases = 0;
        int errorCases = 0;
        long rows = 0;
        long bytes = 0;
        List<String> mismatches = new ArrayList<>();
        int mismatchCount = 0;
        List<String> nulNameCases = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            for (String name : cases) {
                Map<String, String> options = options(corpus.resolve(name + ".properties"));
                Path records = goldens.resolve(name + ".records");
                Path error = goldens.resolve(name + ".error");
                List<Record> ours;
                String failure = null;
                try {
                    ours = encode(allocator, corpus.resolve(name + ".arrow"), options);
                } catch (IllegalArgumentException | StreamFusionException e) {
                    ours = null;
                    failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
                if (Files.exists(records)) {
                    List<Record> golden = readRecords(Files.readAllBytes(records));
                    if (ours == null && failure.contains("U+0000, which the Arrow C Data Interface cannot carry")) {
                        // Known limit of the C Data Interface (NUL-terminated names), rejected loudly in Java.
                        nulNameCases.add(name);
                        continue;
                    }
                    if (ours == null) {
                        mismatchCount++;
                        add(mismatches, name + ": Flink encodes the case but we throw " + failure);
                        continue;
                    }
                    recordCases++;
                    rows += golden.size();
                    for (Record r : golden) {
                        bytes += (r.key == null ? 0 : r.key.length) + (r.value == null ? 0 : r.value.length);
                    }
                    if (golden.size() != ours.size()) {
                        mismatchCount++;
                        add(mismatches, name + ": golden has " + golden.size() + " records, ours " + ours.size());
                    }
                    for (int i = 0; i < Math.min(golden.size(), ours.size()); i++) {
                        Record g = golden.get(i);
                        Record o = ours.get(i);
                        if (!Arrays.equals(g.key, o.key)) {
                            mismatchCount++;
                            add(
                                    mismatches,
                                    name + " row " + i + " key:\n    golden " + show(g.key) + "\n    ours   "
                                            + show(o.key));
                        }
                        if (!Arrays.equals(g.value, o.value)) {
                            mismatchCount++;
                            add(
                                    mismatches,
                                    name + " row " + i + " value:\n    golden " + show(g.value) + "\n    ours   "
                                            + show(o.value));
                        }
                    }
                } else if (Files.exists(error)) {
                    if (ours != null) {
                        mismatchCount++;
                        add(
                                mismatches,
                                name + ": Flink fails ("
                                        + Files.readString(error).trim() + ") but our encoder succeeds");
                    } else {
                        errorCases++;
                    }
                } else {
                    mismatchCount++;
                    add(mismatches, name + ": neither " + records + " nor " + error + " exists");
                }
            }
        }
        System.out.printf(
                "JVM parity against %s: %d cases (%d with records, %d rejected by both, %d with a "
                        + "U+0000 field name the C Data Interface cannot carry %s), %d rows, %d bytes compared, "
                        + "%d mismatches%n",
                GOLDEN_SET,
                cases.size(),
                recordCases,
                errorCases,
                nulNameCases.size(),
                nulNameCases,
                rows,
                bytes,
                mismatchCount);
        if (mismatchCount > 0) {
            fail(mismatchCount + " mismatches against " + GOLDEN_SET + " (first " + mismatches.size() + "):\n"
                    + String.join("\n", mismatches));
        }
    }

    private static void add(List<String> mismatches, String text) {
        if (mismatches.size() < MAX_REPORTED) {
            mismatches.add(text);
        }
    }

    /** The case's options (java.util.Properties syntax) plus {@code flink.version}. */
    private static Map<String, String> options(Path file) throws IOException {
        Map<String, String> options = new LinkedHashMap<>();
        if (Files.exists(file)) {
            Properties properties = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                properties.load(in);
            }
            properties.stringPropertyNames().stream().sorted().forEach(k -> options.put(k, properties.getProperty(k)));
        }
        options.put("flink.version", FLINK_VERSION);
        return options;
    }

    /** Every batch of the file through one encoder, the root refilled in place between batches. */
    private static List<Record> encode(BufferAllocator allocator, Path file, Map<String, String> options)
            throws IOException {
        List<Record> out = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator);
                NativeJsonEncoder encoder = new NativeJsonEncoder(options)) {
            while (reader.loadNextBatch()) {
                EncodedBatch batch = encoder.encode(reader.getVectorSchemaRoot(), reader);
                for (int i = 0; i < batch.size(); i++) {
                    out.add(new Record(batch.key(i), batch.value(i)));
                }
            }
        }
        return out;
    }

    /** Per record: i32 BE key length (-1 null) + bytes, i32 BE value length (-1 tombstone) + bytes. */
    private static List<Record> readRecords(byte[] data) {
        ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
        List<Record> out = new ArrayList<>();
        while (in.hasRemaining()) {
            byte[] key = part(in);
            byte[] value = part(in);
            out.add(new Record(key, value));
        }
        return out;
    }

    private static byte[] part(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static String show(byte[] bytes) {
        if (bytes == null) {
            return "<null>";
        }
        StringBuilder s = new StringBuilder("`");
        for (int i = 0; i < Math.min(bytes.length, 600); i++) {
            int b = bytes[i] & 0xff;
            if (b >= 0x20 && b < 0x7f) {
                s.append((char) b);
            } else {
                s.append(String.format("\\x%02x", b));
            }
        }
        if (bytes.length > 600) {
            s.append("...(").append(bytes.length).append(" bytes)");
        }
        return s.append('`').toString();
    }
}
