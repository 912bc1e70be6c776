package org.bijou64.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Prints the ratio tables of one JMH JSON result file ({@code -rf json}): per-record serde against Kafka's Long
 * serde, bulk calls per value with JNI/Java, the JNI crossing pairs, and StreamFusion's JSON paths against
 * Flink's serializer per row (with the crossover batch size and the fixed cost of one crossing). Every ratio is between two scores of the
 * same file, so of the same run on the same machine. Benchmarks missing from the file (a filtered run) are left
 * out. {@code scripts/run-jmh.sh} calls it after JMH:
 *
 * <pre>{@code java -cp java/benchmarks/target/benchmarks.jar org.bijou64.benchmarks.Summary perf/jmh/results-<UTC>.json}</pre>
 */
public final class Summary {
    private static final String[] DISTRIBUTIONS = {"sequential", "uniform", "boundary"};

    /** JMH score (nanoseconds per op) by {@code SimpleClass.method} and parameters. */
    private final Map<String, Double> scores = new LinkedHashMap<>();

    private final TreeSet<Integer> sizes = new TreeSet<>();
    private final TreeSet<Integer> batches = new TreeSet<>();

    private Summary() {}

    /**
     * @param args the JSON file written by JMH
     * @throws IOException when it cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Summary RESULTS.json");
            System.exit(2);
        }
        Summary summary = new Summary();
        summary.read(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        System.out.print(summary.render());
    }

    @SuppressWarnings("unchecked")
    private void read(String json) {
        for (Object entry : (List<Object>) new Json(json).value()) {
            Map<String, Object> run = (Map<String, Object>) entry;
            String benchmark = (String) run.get("benchmark");
            String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            Map<String, Object> params = (Map<String, Object>) run.getOrDefault("params", Map.of());
            Map<String, Object> metric = (Map<String, Object>) run.get("primaryMetric");
            if (!"ns/op".equals(metric.get("scoreUnit"))) {
                throw new IllegalArgumentException(benchmark + ": expected ns/op scores, found "
                        + metric.get("scoreUnit") + " (run without -bm/-tu overrides)");
            }
            Object size = params.get("size");
            if (size != null) {
                sizes.add(Integer.parseInt((String) size));
            }
            Object batch = params.get("batch");
            if (batch != null) {
                batches.add(Integer.parseInt((String) batch));
            }
            scores.put(key(name, new TreeMap<>(params)), ((Number) metric.get("score")).doubleValue());
        }
    }

    /** {@code name}, then its parameters in name order: {@code BulkBenchmark.encodeAllJava|distribution=d|size=16}. */
    private static String key(String name, Map<String, ?> params) {
        StringBuilder key = new StringBuilder(name);
        params.forEach(
                (param, value) -> key.append('|').append(param).append('=').append(value));
        return key.toString();
    }

    /**
     * The score of {@code name} run with the parameters given as name, value pairs (a null value: the parameter
     * is absent), or null when the results hold none.
     */
    private Double score(String name, Object... params) {
        Map<String, Object> wanted = new TreeMap<>();
        for (int i = 0; i < params.length; i += 2) {
            if (params[i + 1] != null) {
                wanted.put((String) params[i], params[i + 1].toString());
            }
        }
        return scores.get(key(name, wanted));
    }

    private String render() {
        StringBuilder out = new StringBuilder();
        perRecord(
                out,
                "Per-record serialize through Kafka's Serializer<Long>",
                "PerRecordSerializeBenchmark",
                "longSerializer",
                "LongSerializer");
        perRecord(
                out,
                "Per-record deserialize through Kafka's Deserializer<Long>",
                "PerRecordDeserializeBenchmark",
                "longDeserializer",
                "LongDeserializer");
        bulk(out);
        crossing(out);
        rowDataJson(out);
        if (out.length() == 0) {
            out.append("(no results of org.bijou64.benchmarks or org.streamfusion.benchmarks in this file)\n");
        }
        return out.toString();
    }

    private void perRecord(StringBuilder out, String title, String clazz, String baseline, String baselineLabel) {
        List<String[]> rows = new ArrayList<>();
        for (String d : DISTRIBUTIONS) {
            Double base = score(clazz + "." + baseline, "distribution", d);
            Double java = score(clazz + ".bijou64Java", "distribution", d);
            Double jni = score(clazz + ".bijou64Jni", "distribution", d);
            if (base == null && java == null && jni == null) {
                continue;
            }
            rows.add(new String[] {d, ns(base), withRatio(java, base), withRatio(jni, base)});
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append(title)
                .append(": ns per record (x = time / ")
                .append(baselineLabel)
                .append(" time)\n");
        table(out, new String[] {"distribution", baselineLabel, "bijou64 Java", "bijou64 JNI"}, rows);
    }

    private void bulk(StringBuilder out) {
        List<String[]> rows = new ArrayList<>();
        List<String> crossovers = new ArrayList<>();
        for (String d : DISTRIBUTIONS) {
            for (String op : new String[] {"encodeAll", "decodeAll"}) {
                Integer from = null;
                for (int size : sizes.descendingSet()) {
                    Double java = score("BulkBenchmark." + op + "Java", "distribution", d, "size", size);
                    Double jni = score("BulkBenchmark." + op + "Jni", "distribution", d, "size", size);
                    if (java == null || jni == null || jni >= java) {
                        break;
                    }
                    from = size;
                }
                if (!sizes.isEmpty()
                        && score("BulkBenchmark." + op + "Java", "distribution", d, "size", sizes.last()) != null) {
                    crossovers.add(String.format(
                            Locale.ROOT,
                            "  %-10s %-9s %s",
                            d,
                            op,
                            from == null
                                    ? "Java is faster at every size measured"
                                    : "JNI is faster from " + from + " values per call up"));
                }
            }
            for (int size : sizes) {
                Double ej = score("BulkBenchmark.encodeAllJava", "distribution", d, "size", size);
                Double en = score("BulkBenchmark.encodeAllJni", "distribution", d, "size", size);
                Double dj = score("BulkBenchmark.decodeAllJava", "distribution", d, "size", size);
                Double dn = score("BulkBenchmark.decodeAllJni", "distribution", d, "size", size);
                if (ej == null && en == null && dj == null && dn == null) {
                    continue;
                }
                rows.add(new String[] {
                    d,
                    Integer.toString(size),
                    ns(per(ej, size)),
                    ns(per(en, size)),
                    ratio(en, ej),
                    ns(per(dj, size)),
                    ns(per(dn, size)),
                    ratio(dn, dj)
                });
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append("Bulk encodeAll / decodeAll: ns per value (JNI/Java = time ratio, below 1 means JNI is faster)\n");
        table(
                out,
                new String[] {
                    "distribution",
                    "size",
                    "encode Java",
                    "encode JNI",
                    "JNI/Java",
                    "decode Java",
                    "decode JNI",
                    "JNI/Java"
                },
                rows);
        out.append("Crossover:\n");
        for (String line : crossovers) {
            out.append(line).append('\n');
        }
        out.append('\n');
    }

    private void crossing(StringBuilder out) {
        List<String[]> rows = new ArrayList<>();
        String[][] pairs = {
            {"decodeOneByte", null, "decode(2a): one byte in, a long out"},
            {"encodeAllEmpty", null, "encodeAll(new long[0])"},
            {"decodeAllEmpty", null, "decodeAll(new byte[0], {0})"},
            {"encodeOne", "sequential", "encode(value), sequential"},
            {"encodeOne", "uniform", "encode(value), uniform"},
            {"encodeOne", "boundary", "encode(value), boundary"},
        };
        for (String[] pair : pairs) {
            Double java = score("JniCrossingBenchmark." + pair[0] + "Java", "distribution", pair[1]);
            Double jni = score("JniCrossingBenchmark." + pair[0] + "Jni", "distribution", pair[1]);
            if (java == null && jni == null) {
                continue;
            }
            rows.add(new String[] {pair[2], ns(java), ns(jni), java == null || jni == null ? "-" : ns(jni - java)});
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append("JNI crossing: ns per call (JNI - Java = the fixed cost of one crossing)\n");
        table(out, new String[] {"call", "Java", "JNI", "JNI - Java"}, rows);
    }

    /**
     * StreamFusion: Flink's serializer per row against the native batch paths, per row, with the speed-ups
     * (Flink time / path time) and, per shape, the smallest measured batch from which each path beats Flink
     * at every larger measured size (the crossover).
     */
    private void rowDataJson(StringBuilder out) {
        String[] paths = {
            "nativeFromArrow", "nativeFromRowData", "nativeFromBinaryBuffer", "nativeFromBinaryRows", "auto"
        };
        List<String[]> rows = new ArrayList<>();
        List<String> crossovers = new ArrayList<>();
        for (String shape : new String[] {"bid", "q9"}) {
            for (int batch : batches) {
                Double flink = score("RowDataJsonBenchmark.flinkPerRow", "shape", shape, "batch", batch);
                if (flink == null) {
                    continue;
                }
                String[] row = new String[3 + paths.length];
                row[0] = shape;
                row[1] = Integer.toString(batch);
                row[2] = ns(per(flink, batch));
                for (int p = 0; p < paths.length; p++) {
                    Double path = score("RowDataJsonBenchmark." + paths[p], "shape", shape, "batch", batch);
                    row[3 + p] = path == null ? "-" : ns(per(path, batch)) + " (" + speedup(flink, path) + ")";
                }
                rows.add(row);
            }
            for (String path : paths) {
                Integer from = null;
                for (int batch : batches.descendingSet()) {
                    Double flink = score("RowDataJsonBenchmark.flinkPerRow", "shape", shape, "batch", batch);
                    Double ours = score("RowDataJsonBenchmark." + path, "shape", shape, "batch", batch);
                    if (flink == null || ours == null || ours >= flink) {
                        break;
                    }
                    from = batch;
                }
                // A path this run did not measure gets no line (a filtered run, for example).
                if (!batches.isEmpty()
                        && score("RowDataJsonBenchmark.flinkPerRow", "shape", shape, "batch", batches.last()) != null
                        && score("RowDataJsonBenchmark." + path, "shape", shape, "batch", batches.last()) != null) {
                    crossovers.add(String.format(
                            Locale.ROOT,
                            "  %-4s %-22s %s",
                            shape,
                            path,
                            from == null
                                    ? "Flink's serializer is faster at every batch size measured"
                                    : "faster than Flink per row from " + from + " rows per batch up"));
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append("StreamFusion JSON, Flink rows to Kafka records: ns per row (x = Flink time / path time, above 1 "
                + "means faster than Flink)\n");
        table(
                out,
                new String[] {
                    "shape",
                    "batch",
                    "Flink per row",
                    "native from Arrow",
                    "native from RowData via Arrow",
                    "native from binary buffer",
                    "native from binary rows",
                    "auto"
                },
                rows);
        out.append("Crossover:\n");
        for (String line : crossovers) {
            out.append(line).append('\n');
        }
        Double crossing = score("CrossingBenchmark.oneCell");
        if (crossing != null) {
            out.append("Fixed cost of one crossing (one BIGINT row, export to six arrays back): ")
                    .append(ns(crossing))
                    .append(" ns\n");
        }
        out.append('\n');
    }

    private static String speedup(Double base, Double value) {
        return String.format(Locale.ROOT, "%.1fx", base / value);
    }

    private static Double per(Double score, int size) {
        return score == null ? null : score / size;
    }

    private static String ns(Double value) {
        if (value == null) {
            return "-";
        }
        return String.format(
                Locale.ROOT, Math.abs(value) >= 100 ? "%.0f" : Math.abs(value) >= 10 ? "%.1f" : "%.2f", value);
    }

    private static String ratio(Double value, Double base) {
        return value == null || base == null ? "-" : String.format(Locale.ROOT, "%.2f", value / base);
    }

    private static String withRatio(Double value, Double base) {
        return value == null ? "-" : base == null ? ns(value) : ns(value) + " (" + ratio(value, base) + "x)";
    }

    private static void table(StringBuilder out, String[] header, List<String[]> rows) {
        int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            widths[c] = header[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        line(out, header, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
        out.append('\n');
    }

    private static void line(StringBuilder out, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder("  ");
        for (int c = 0; c < cells.length; c++) {
            String cell = cells[c];
            String pad = " ".repeat(widths[c] - cell.length());
            line.append(c == 0 ? cell + pad : pad + cell).append(c == cells.length - 1 ? "" : "  ");
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    /** A minimal reader for the JSON JMH writes: objects, arrays, strings, numbers, true, false, null. */
    private static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object value() {
            skipSpace();
            if (at >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(at);
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                default:
                    return literal();
            }
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            skipSpace();
            if (text.charAt(at) == '}') {
                at++;
                return map;
            }
            while (true) {
                skipSpace();
                String name = string();
                skipSpace();
                expect(':');
                map.put(name, value());
                skipSpace();
                if (text.charAt(at) == ',') {
                    at++;
                    continue;
                }
                expect('}');
                return map;
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            at++;
            skipSpace();
            if (text.charAt(at) == ']') {
                at++;
                return list;
            }
            while (true) {
                list.add(value());
                skipSpace();
                if (text.charAt(at) == ',') {
                    at++;
                    continue;
                }
                expect(']');
                return list;
            }
        }

        private String string() {
            expect('"');
            StringBuilder s = new StringBuilder();
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return s.toString();
                }
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> s.append(e);
                }
            }
        }

        private Object literal() {
            int start = at;
            while (at < text.length() && ",]} \t\r\n".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            String word = text.substring(start, at);
            switch (word) {
                case "true":
                    return Boolean.TRUE;
                case "false":
                    return Boolean.FALSE;
                case "null":
                    return null;
                case "NaN":
                    return Double.NaN;
                default:
                    try {
                        return Double.parseDouble(word);
                    } catch (NumberFormatException e) {
                        throw error("unexpected '" + word + "'");
                    }
            }
        }

        private void expect(char c) {
            if (at >= text.length() || text.charAt(at) != c) {
                throw error("expected '" + c + "'");
            }
            at++;
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JMH JSON: " + what + " at character " + at);
        }
    }
}
