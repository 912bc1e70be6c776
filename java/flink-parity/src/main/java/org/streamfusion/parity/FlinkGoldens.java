package org.streamfusion.parity;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Golden-output harness: runs the real Flink {@link JsonRowDataSerializationSchema} over a corpus of Arrow
 * IPC files and writes Flink's key/value bytes per row. See docs/flink-parity.md for the corpus and output
 * contracts.
 *
 * <p>Usage: {@code FlinkGoldens <corpus-dir> <out-dir>}. Exit code 0 when every case was processed (a case
 * that Flink rejects is a golden too: its {@code .error} file); 1 on an I/O problem; 2 on bad usage.
 */
public final class FlinkGoldens {
    private FlinkGoldens() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: FlinkGoldens <corpus-dir> <out-dir>");
            System.exit(2);
        }
        Path corpus = Paths.get(args[0]);
        Path out = Paths.get(args[1]);
        if (!Files.isDirectory(corpus)) {
            System.err.println("error: corpus directory " + corpus + " does not exist");
            System.exit(2);
        }
        int errors = run(corpus, out, System.out);
        System.out.println("flink " + flinkVersion() + ", java " + System.getProperty("java.version") + ": " + errors
                + " case(s) with an .error golden; output in " + out);
    }

    /** Processes every case; returns how many cases produced an {@code .error} file. */
    public static int run(Path corpus, Path out, PrintStream log) throws IOException {
        Files.createDirectories(out);
        Files.writeString(
                out.resolve("ENV"),
                "flink.version=" + flinkVersion() + "\n" + "java.version=" + System.getProperty("java.version") + "\n",
                StandardCharsets.UTF_8);
        List<String> names;
        try (Stream<Path> files = Files.list(corpus)) {
            names = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".arrow"))
                    .map(n -> n.substring(0, n.length() - ".arrow".length()))
                    .sorted()
                    .collect(Collectors.toList());
        }
        int errors = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (String name : names) {
                Path records = out.resolve(name + ".records");
                Path error = out.resolve(name + ".error");
                Files.deleteIfExists(records);
                Files.deleteIfExists(error);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                long[] counts = new long[3];
                try {
                    runCase(corpus, name, allocator, new DataOutputStream(bytes), counts);
                } catch (Throwable t) {
                    if (t instanceof Error && !(t instanceof LinkageError || t instanceof StackOverflowError)) {
                        throw (Error) t;
                    }
                    String line = describe(t);
                    Files.writeString(error, line + "\n", StandardCharsets.UTF_8);
                    log.println(name + ": ERROR " + line);
                    errors++;
                    continue;
                }
                Files.write(records, bytes.toByteArray());
                log.println(
                        name + ": " + counts[0] + " rows, " + counts[1] + " key bytes, " + counts[2] + " value bytes");
            }
        }
        return errors;
    }

    private static void runCase(
            Path corpus, String name, BufferAllocator allocator, DataOutputStream out, long[] counts) throws Exception {
        Properties props = new Properties();
        Path propsFile = corpus.resolve(name + ".properties");
        if (Files.exists(propsFile)) {
            try (Reader r = Files.newBufferedReader(propsFile, StandardCharsets.UTF_8)) {
                props.load(r);
            }
        }
        try (SeekableByteChannel channel = Files.newByteChannel(corpus.resolve(name + ".arrow"));
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<FieldVector> vectors = root.getFieldVectors();
            List<String> columnNames =
                    vectors.stream().map(FieldVector::getName).collect(Collectors.toList());

            FlinkJson json = new FlinkJson(props);
            KafkaLayout layout = new KafkaLayout(props, columnNames);
            List<ArrowColumns.Column> columns = new ArrayList<>();
            for (int c = 0; c < vectors.size(); c++) {
                columns.add(c == layout.rowKindPosition ? null : ArrowColumns.of(vectors.get(c)));
            }
            VarCharVector rowKinds = null;
            if (layout.upsert()) {
                FieldVector v = vectors.get(layout.rowKindPosition);
                if (!(v.getField().getType() instanceof ArrowType.Utf8)) {
                    throw new IllegalArgumentException("row-kind column '" + v.getName() + "' must be Utf8, not "
                            + v.getField().getType());
                }
                rowKinds = (VarCharVector) v;
            }
            List<ArrowColumns.Column> keyColumns = new ArrayList<>();
            List<String> keyNames = layout.keyNames;
            for (int p : layout.keyPositions) {
                keyColumns.add(columns.get(p));
            }
            List<ArrowColumns.Column> valueColumns = new ArrayList<>();
            for (int p : layout.valuePositions) {
                valueColumns.add(columns.get(p));
            }
            SerializationSchema<RowData> keySerializer = null;
            if (layout.hasKey()) {
                List<RowType.RowField> fields = new ArrayList<>();
                for (int k = 0; k < keyColumns.size(); k++) {
                    fields.add(new RowType.RowField(keyNames.get(k), keyColumns.get(k).type));
                }
                keySerializer = json.serializer(new RowType(fields));
            }
            SerializationSchema<RowData> valueSerializer = json.serializer(ArrowColumns.rowType(valueColumns));

            long rowNumber = 0;
            while (reader.loadNextBatch()) {
                int n = root.getRowCount();
                for (int i = 0; i < n; i++, rowNumber++) {
                    RowKind kind = RowKind.INSERT;
                    if (rowKinds != null) {
                        if (rowKinds.isNull(i)) {
                            throw new IllegalArgumentException("row " + rowNumber + ": null row kind");
                        }
                        kind = rowKind(new String(rowKinds.get(i), StandardCharsets.UTF_8), rowNumber);
                    }
                    byte[] key = null;
                    if (keySerializer != null) {
                        key = keySerializer.serialize(ArrowColumns.row(keyColumns, i));
                    }
                    byte[] value = null;
                    if (!(layout.upsert() && KafkaLayout.isTombstone(kind))) {
                        GenericRowData row = ArrowColumns.row(valueColumns, i);
                        row.setRowKind(RowKind.INSERT);
                        value = valueSerializer.serialize(row);
                    }
                    write(out, key);
                    write(out, value);
                    counts[0]++;
                    counts[1] += key == null ? 0 : key.length;
                    counts[2] += value == null ? 0 : value.length;
                }
            }
            out.flush();
        }
    }

    /** Parses a RowKind short string ({@code +I}, {@code -U}, {@code +U}, {@code -D}). */
    private static RowKind rowKind(String text, long rowNumber) {
        for (RowKind k : RowKind.values()) {
            if (k.shortString().equals(text)) {
                return k;
            }
        }
        throw new IllegalArgumentException("row " + rowNumber + ": unknown row kind '" + text + "'");
    }

    private static void write(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /**
     * {@code <class>: <message>} of the innermost cause that has a message (Flink wraps serialization
     * failures in "Could not serialize row ..."), on one line: line breaks become the two characters
     * {@code \n}.
     */
    static String describe(Throwable t) {
        Throwable chosen = null;
        Throwable innermost = t;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            innermost = c;
            if (c.getMessage() != null && !(c instanceof InvocationTargetException)) {
                chosen = c;
            }
        }
        if (chosen == null) {
            chosen = innermost;
        }
        String message = String.valueOf(chosen.getMessage())
                .replace("\r\n", "\\n")
                .replace("\n", "\\n")
                .replace("\r", "\\n");
        return chosen.getClass().getName() + ": " + message;
    }

    /** The version of the flink-json jar on the classpath (manifest, else the jar file name). */
    static String flinkVersion() {
        Package p = JsonRowDataSerializationSchema.class.getPackage();
        if (p != null && p.getImplementationVersion() != null) {
            return p.getImplementationVersion();
        }
        CodeSource source =
                JsonRowDataSerializationSchema.class.getProtectionDomain().getCodeSource();
        if (source != null) {
            try {
                String file =
                        Paths.get(source.getLocation().toURI()).getFileName().toString();
                Matcher m = Pattern.compile("flink-json-(.+)\\.jar").matcher(file);
                if (m.matches()) {
                    return m.group(1);
                }
            } catch (URISyntaxException | RuntimeException e) {
                // fall through
            }
        }
        return "unknown";
    }
}
