package org.streamfusion.parity;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonFormatOptionsUtil;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.util.Collector;

/**
 * Decode golden harness: runs the real Flink {@link JsonParserRowDataDeserializationSchema} (the default
 * {@code json} format deserializer) over hand-written {@code .case} files and writes the rows Flink produces,
 * one {@code .rows} file per case. See docs/flink-parity.md ("Decode goldens") for both formats; the row text
 * is {@link RowText}'s.
 *
 * <p>Usage: {@code FlinkDecodeGoldens <cases-dir> <out-dir>}. Exit code 0 when every case ran (a message or
 * a set of options Flink rejects is a golden too); 1 on an I/O error or a malformed {@code .case} file; 2 on
 * bad usage.
 *
 * <p>Compiled against Flink 2.2.1; it also runs against 1.20.4, whose deserializer has no
 * {@code deserialize(byte[], Collector)} of its own (the interface's default collects the single row of
 * {@code deserialize(byte[])}, so an array root is an error there).
 */
public final class FlinkDecodeGoldens {
    /** The option keys a case may set (Flink's json format options without the {@code json.} prefix). */
    static final List<String> OPTION_KEYS = List.of(
            JsonFormatOptions.FAIL_ON_MISSING_FIELD.key(),
            JsonFormatOptions.IGNORE_PARSE_ERRORS.key(),
            JsonFormatOptions.TIMESTAMP_FORMAT.key());

    private FlinkDecodeGoldens() {}

    /** Command-line entry point; see the class comment for arguments and exit codes. */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: FlinkDecodeGoldens <cases-dir> <out-dir>");
            System.exit(2);
        }
        Path cases = Paths.get(args[0]);
        Path out = Paths.get(args[1]);
        if (!Files.isDirectory(cases)) {
            System.err.println("error: cases directory " + cases + " does not exist");
            System.exit(2);
        }
        try {
            int count = run(cases, out, System.out);
            System.out.println("flink " + FlinkGoldens.flinkVersion() + ", java " + System.getProperty("java.version")
                    + ": " + count + " case(s); output in " + out);
        } catch (MalformedCaseException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        } catch (IOException e) {
            System.err.println("error: " + e);
            System.exit(1);
        }
    }

    /**
     * Parses every {@code <name>.case} of {@code cases} (all of them first, so a malformed one writes
     * nothing), then writes {@code <name>.rows} for each and {@code ENV} into {@code out}. Returns the number
     * of cases.
     */
    public static int run(Path cases, Path out, PrintStream log) throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(cases)) {
            names = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".case"))
                    .map(n -> n.substring(0, n.length() - ".case".length()))
                    .sorted()
                    .collect(Collectors.toList());
        }
        List<Case> parsed = new ArrayList<>();
        for (String name : names) {
            parsed.add(Case.parse(cases.resolve(name + ".case")));
        }
        Files.createDirectories(out);
        Files.writeString(
                out.resolve("ENV"),
                "flink.version=" + FlinkGoldens.flinkVersion() + "\n" + "java.version="
                        + System.getProperty("java.version") + "\n",
                StandardCharsets.UTF_8);
        for (int i = 0; i < names.size(); i++) {
            Case c = parsed.get(i);
            String text = runCase(c);
            Files.writeString(out.resolve(names.get(i) + ".rows"), text, StandardCharsets.US_ASCII);
            log.println(names.get(i) + ": " + c.summary);
        }
        return names.size();
    }

    /** The {@code .rows} text of one parsed case. */
    static String runCase(Case c) {
        DeserializationSchema<RowData> schema;
        try {
            schema = deserializer(c.rowType, c.options);
        } catch (Exception e) {
            c.summary = "refused: " + oneLine(e);
            return "refused " + RowText.escape(String.valueOf(e.getMessage())) + "\n";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("type ").append(c.rowType.asSerializableString()).append('\n');
        int rows = 0;
        int errors = 0;
        for (int m = 0; m < c.messages.size(); m++) {
            sb.append("= ").append(m).append('\n');
            List<String> collected = new ArrayList<>();
            RuntimeException[] harnessFailure = new RuntimeException[1];
            Collector<RowData> collector = new Collector<RowData>() {
                @Override
                public void collect(RowData record) {
                    // Formatted at once: nothing says Flink does not reuse the row object.
                    try {
                        collected.add(RowText.row(record, c.rowType));
                    } catch (RuntimeException e) {
                        // Flink would catch it (and hide it under ignore-parse-errors): remember it is ours.
                        harnessFailure[0] = e;
                        throw e;
                    }
                }

                @Override
                public void close() {}
            };
            Throwable failure = null;
            try {
                schema.deserialize(c.messages.get(m), collector);
            } catch (Exception | StackOverflowError e) {
                failure = e;
            }
            if (harnessFailure[0] != null) {
                throw new IllegalStateException(
                        "message " + m + ": cannot write a row Flink produced", harnessFailure[0]);
            }
            for (String row : collected) {
                sb.append(row).append('\n');
            }
            rows += collected.size();
            if (failure != null) {
                sb.append("error ").append(describe(failure)).append('\n');
                errors++;
            }
        }
        c.summary = c.messages.size() + " messages, " + rows + " rows, " + errors + " errors";
        return sb.toString();
    }

    /**
     * A new, opened deserializer configured as Flink's json format factory would: the options are parsed and
     * validated by Flink's {@link Configuration} and {@link JsonFormatOptionsUtil}.
     */
    public static DeserializationSchema<RowData> deserializer(RowType rowType, Map<String, String> options)
            throws Exception {
        Configuration conf = Configuration.fromMap(options);
        JsonFormatOptionsUtil.validateDecodingFormatOptions(conf);
        boolean failOnMissingField = conf.get(JsonFormatOptions.FAIL_ON_MISSING_FIELD);
        boolean ignoreParseErrors = conf.get(JsonFormatOptions.IGNORE_PARSE_ERRORS);
        TimestampFormat timestampFormat = JsonFormatOptionsUtil.getTimestampFormat(conf);
        DeserializationSchema<RowData> schema = new JsonParserRowDataDeserializationSchema(
                rowType, InternalTypeInfo.of(rowType), failOnMissingField, ignoreParseErrors, timestampFormat);
        schema.open(initializationContext());
        return schema;
    }

    /** An InitializationContext whose every method throws: the json deserializer's open() calls none. */
    private static DeserializationSchema.InitializationContext initializationContext() {
        return (DeserializationSchema.InitializationContext) Proxy.newProxyInstance(
                FlinkDecodeGoldens.class.getClassLoader(),
                new Class<?>[] {DeserializationSchema.InitializationContext.class},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException("InitializationContext." + method.getName());
                });
    }

    /**
     * {@code <simple class name>: <message>}, then {@code  <- <simple class name>: <message>} per cause, each
     * message escaped with {@link RowText#escape(String)} ({@code null} when there is none).
     */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        List<Throwable> seen = new ArrayList<>();
        for (Throwable c = t; c != null && !seen.contains(c); c = c.getCause()) {
            if (!seen.isEmpty()) {
                sb.append(" <- ");
            }
            seen.add(c);
            sb.append(c.getClass().getSimpleName()).append(": ").append(RowText.escape(String.valueOf(c.getMessage())));
        }
        return sb.toString();
    }

    private static String oneLine(Throwable t) {
        return t.getClass().getSimpleName() + ": " + RowText.escape(String.valueOf(t.getMessage()));
    }

    /** A {@code .case} file that does not follow the format; the message names the file and line. */
    static final class MalformedCaseException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedCaseException(Path file, int line, String message) {
            super(file + ":" + line + ": " + message);
        }
    }

    /** One parsed {@code .case} file (also read by the JVM tests of the native decoder). */
    public static final class Case {
        /** The row type. */
        public final RowType rowType;
        /** Flink's json options without the {@code json.} prefix. */
        public final Map<String, String> options;
        /** The messages in file order; a null entry is a null message. */
        public final List<byte[]> messages;

        String summary = "";

        private Case(RowType rowType, Map<String, String> options, List<byte[]> messages) {
            this.rowType = rowType;
            this.options = options;
            this.messages = messages;
        }

        /** Reads and parses a {@code .case} file. */
        public static Case parse(Path file) throws IOException {
            String text;
            try {
                text = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new MalformedCaseException(file, 0, "not valid UTF-8");
            }
            List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
            if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1);
            }
            RowType rowType = null;
            Map<String, String> options = new HashMap<>();
            List<byte[]> messages = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                int lineNo = i + 1;
                String line = lines.get(i);
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                int space = line.indexOf(' ');
                String directive = space < 0 ? line : line.substring(0, space);
                String rest = space < 0 ? "" : line.substring(space + 1);
                switch (directive) {
                    case "type":
                        if (rowType != null) {
                            throw new MalformedCaseException(file, lineNo, "a second 'type' line");
                        }
                        LogicalType type;
                        try {
                            type = LogicalTypeParser.parse(rest.trim(), FlinkDecodeGoldens.class.getClassLoader());
                        } catch (RuntimeException e) {
                            throw new MalformedCaseException(file, lineNo, "bad type: " + oneLine(e));
                        }
                        if (!(type instanceof RowType)) {
                            throw new MalformedCaseException(
                                    file, lineNo, "the type must be a ROW, not " + type.asSummaryString());
                        }
                        rowType = (RowType) type;
                        break;
                    case "option":
                        int eq = rest.indexOf('=');
                        if (eq < 0) {
                            throw new MalformedCaseException(file, lineNo, "an option needs <key>=<value>");
                        }
                        String key = rest.substring(0, eq).trim();
                        if (!OPTION_KEYS.contains(key)) {
                            throw new MalformedCaseException(
                                    file, lineNo, "unknown option '" + key + "' (known: " + OPTION_KEYS + ")");
                        }
                        if (options.put(key, rest.substring(eq + 1).trim()) != null) {
                            throw new MalformedCaseException(file, lineNo, "option '" + key + "' set twice");
                        }
                        break;
                    case "message":
                        messages.add(rest.getBytes(StandardCharsets.UTF_8));
                        break;
                    case "hex":
                        messages.add(hex(file, lineNo, rest));
                        break;
                    case "null":
                        if (!rest.isBlank()) {
                            throw new MalformedCaseException(file, lineNo, "'null' takes nothing after it");
                        }
                        messages.add(null);
                        break;
                    default:
                        throw new MalformedCaseException(
                                file,
                                lineNo,
                                "unknown directive '" + directive
                                        + "' (type, option, message, hex, null or # comment)");
                }
            }
            if (rowType == null) {
                throw new MalformedCaseException(file, lines.size(), "no 'type' line");
            }
            return new Case(rowType, options, messages);
        }

        private static byte[] hex(Path file, int lineNo, String text) throws MalformedCaseException {
            String digits = text.replace(" ", "");
            if (digits.length() % 2 != 0) {
                throw new MalformedCaseException(file, lineNo, "an odd number of hex digits");
            }
            byte[] bytes = new byte[digits.length() / 2];
            for (int i = 0; i < bytes.length; i++) {
                int hi = hexDigit(digits.charAt(2 * i));
                int lo = hexDigit(digits.charAt(2 * i + 1));
                if (hi < 0 || lo < 0) {
                    throw new MalformedCaseException(
                            file, lineNo, "not a hex digit pair: '" + digits.substring(2 * i, 2 * i + 2) + "'");
                }
                bytes[i] = (byte) (hi << 4 | lo);
            }
            return bytes;
        }

        /** The value of an ASCII hex digit, else -1. */
        private static int hexDigit(char c) {
            return c < 0x80 ? Character.digit(c, 16) : -1;
        }
    }
}
