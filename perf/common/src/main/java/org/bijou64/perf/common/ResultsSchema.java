package org.bijou64.perf.common;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one results schema of the producer comparisons: the columns of every results CSV that {@code perf/kafka},
 * {@code perf/streamfusion} and {@code streamfusion-bench} write, defined in {@code perf/common/results-schema.csv}
 * (name, kind, decimals, description), which {@code perf/rust} compiles in too. A tool fills the columns it
 * measures by name and leaves the others empty; the header is always every column, in the schema's order.
 *
 * <p>Numbers are written with the column's decimals ({@link String#format} with {@link Locale#ROOT}, half up),
 * NaN as an empty cell; text is quoted as RFC 4180 says when it holds a comma, a quote or a line break.
 */
public final class ResultsSchema {
    private static final String RESOURCE = "results-schema.csv";

    /** What a column holds. */
    public enum Kind {
        /** Free text. */
        TEXT,
        /** A whole number. */
        COUNT,
        /** A decimal number with the column's decimals. */
        NUMBER,
        /** {@code true} or {@code false}. */
        BOOL
    }

    /**
     * One column.
     *
     * @param name the CSV header name, snake case
     * @param kind what it holds
     * @param decimals the decimals of a {@link Kind#NUMBER}, 0 for the other kinds
     * @param description what it means, with its unit
     */
    public record Column(String name, Kind kind, int decimals, String description) {}

    private static final List<Column> COLUMNS = parseSchema(Resources.text(RESOURCE));
    private static final Map<String, Column> BY_NAME =
            COLUMNS.stream().collect(Collectors.toMap(Column::name, c -> c, (a, b) -> a, LinkedHashMap::new));

    private ResultsSchema() {}

    /** Every column, in the CSV's order. */
    public static List<Column> columns() {
        return COLUMNS;
    }

    /** The CSV header line (no line break). */
    public static String header() {
        return COLUMNS.stream().map(Column::name).collect(Collectors.joining(","));
    }

    /** A new, empty row. */
    public static Row row() {
        return new Row();
    }

    /**
     * Appends rows to a results CSV, writing the header first when the file is new or empty; creates the
     * directory.
     *
     * @throws IOException when the file cannot be written
     */
    public static void append(Path csv, List<Row> rows) throws IOException {
        Path dir = csv.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean needsHeader = !Files.exists(csv) || Files.size(csv) == 0;
        try (Writer out = Files.newBufferedWriter(
                csv, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            if (needsHeader) {
                out.write(header() + "\n");
            }
            for (Row row : rows) {
                out.write(row.csv() + "\n");
            }
        }
    }

    /**
     * The cells of one CSV line by column name, as another tool (e.g. {@code streamfusion-bench bench}) wrote
     * it under {@code header}. The header may name fewer columns than this schema, in any order (a tool built
     * before columns were added to the schema); the columns it does not name read as empty, as unmeasured
     * figures do.
     *
     * @return every column of this schema, in its order, to the cell under that name (empty when not named)
     * @throws IllegalArgumentException when the header names a column this schema does not have, or names one
     *     twice, or the line has another number of cells than the header
     */
    public static Map<String, String> parse(String header, String line) {
        List<String> names = split(header.strip());
        for (int i = 0; i < names.size(); i++) {
            if (!BY_NAME.containsKey(names.get(i))) {
                throw new IllegalArgumentException("a results header with a column this schema does not have: '"
                        + names.get(i) + "' in '" + header.strip() + "'");
            }
            if (names.subList(0, i).contains(names.get(i))) {
                throw new IllegalArgumentException("the results header names " + names.get(i) + " twice");
            }
        }
        List<String> cells = split(line);
        if (cells.size() != names.size()) {
            throw new IllegalArgumentException(
                    "'" + line + "' has " + cells.size() + " cells, its header " + names.size() + " columns");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Column column : COLUMNS) {
            out.put(column.name(), "");
        }
        for (int i = 0; i < cells.size(); i++) {
            out.put(names.get(i), cells.get(i));
        }
        return out;
    }

    /**
     * The cells of one CSV line (RFC 4180: a quoted cell may hold commas and doubled quotes).
     *
     * @throws IllegalArgumentException for an unterminated quote or text after a closing quote
     */
    public static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        int i = 0;
        while (true) {
            if (i < line.length() && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= line.length()) {
                        throw new IllegalArgumentException("unterminated quote in '" + line + "'");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < line.length() && line.charAt(i) == '"') {
                            cell.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        cell.append(c);
                    }
                }
                if (i < line.length() && line.charAt(i) != ',') {
                    throw new IllegalArgumentException("text after a closing quote in '" + line + "'");
                }
            } else {
                while (i < line.length() && line.charAt(i) != ',') {
                    cell.append(line.charAt(i++));
                }
            }
            cells.add(cell.toString());
            cell.setLength(0);
            if (i >= line.length()) {
                return cells;
            }
            i++; // the comma
        }
    }

    /** One result row: cells set by column name, every other cell empty. */
    public static final class Row {
        private final Map<String, String> cells = new LinkedHashMap<>();

        private Row() {}

        /**
         * Sets a text or bool column.
         *
         * @throws IllegalArgumentException for a column the schema does not have, or one that holds numbers
         */
        public Row set(String column, String text) {
            Kind kind = column(column).kind();
            if (kind != Kind.TEXT && kind != Kind.BOOL) {
                throw new IllegalArgumentException(column + " holds " + kind + ", not text");
            }
            cells.put(column, text == null ? "" : text);
            return this;
        }

        /**
         * Sets a count column.
         *
         * @throws IllegalArgumentException for a column the schema does not have, or one that is not a count
         */
        public Row set(String column, long count) {
            require(column, Kind.COUNT);
            cells.put(column, Long.toString(count));
            return this;
        }

        /**
         * Sets a number column, formatted with its decimals; NaN leaves it empty.
         *
         * @throws IllegalArgumentException for a column the schema does not have, or one that is not a number
         */
        public Row set(String column, double value) {
            Column c = require(column, Kind.NUMBER);
            cells.put(column, Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%." + c.decimals() + "f", value));
            return this;
        }

        /**
         * Sets a bool column.
         *
         * @throws IllegalArgumentException for a column the schema does not have, or one that is not a bool
         */
        public Row set(String column, boolean value) {
            require(column, Kind.BOOL);
            cells.put(column, Boolean.toString(value));
            return this;
        }

        /** The cell of a column as written, empty when unset. */
        public String get(String column) {
            column(column);
            return cells.getOrDefault(column, "");
        }

        /** The CSV line (no line break): every column in the schema's order. */
        public String csv() {
            return COLUMNS.stream()
                    .map(c -> quote(cells.getOrDefault(c.name(), "")))
                    .collect(Collectors.joining(","));
        }

        private static Column require(String column, Kind kind) {
            Column c = column(column);
            if (c.kind() != kind) {
                throw new IllegalArgumentException(column + " holds " + c.kind() + ", not " + kind);
            }
            return c;
        }
    }

    private static Column column(String name) {
        Column c = BY_NAME.get(name);
        if (c == null) {
            throw new IllegalArgumentException("the results schema has no column " + name);
        }
        return c;
    }

    private static String quote(String text) {
        if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    /**
     * Parses the schema file: a header line {@code column,kind,decimals,description}, then one column per line.
     *
     * @throws IllegalArgumentException for a malformed line, an unknown kind or a column given twice
     */
    static List<Column> parseSchema(String text) {
        List<Column> columns = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            List<String> f = split(lines[i].strip());
            if (f.size() != 4) {
                throw new IllegalArgumentException(RESOURCE + ":" + (i + 1) + ": expected 4 cells, got " + f.size());
            }
            Kind kind = Kind.valueOf(f.get(1).toUpperCase(Locale.ROOT));
            int decimals = f.get(2).isEmpty() ? 0 : Integer.parseInt(f.get(2));
            if (columns.stream().anyMatch(c -> c.name().equals(f.get(0)))) {
                throw new IllegalArgumentException(RESOURCE + ":" + (i + 1) + ": " + f.get(0) + " given twice");
            }
            columns.add(new Column(f.get(0), kind, decimals, f.get(3)));
        }
        return Collections.unmodifiableList(columns);
    }
}
