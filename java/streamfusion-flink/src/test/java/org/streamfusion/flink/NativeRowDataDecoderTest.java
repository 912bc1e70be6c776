package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.util.Collector;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.streamfusion.parity.FlinkDecodeGoldens;
import org.streamfusion.parity.RowText;

/**
 * {@link NativeRowDataDecoder} against Flink's own {@code json} deserializer, live, on every message of the
 * decode corpus ({@code rust/streamfusion-json/tests/data/flink-decode/*.case}): each case's messages are
 * decoded as one chunk (resumed after each message Flink fails on), and every row must be Flink's, byte for
 * byte as {@link RowDataSerializer#toBinaryRow} writes Flink's row (maps and multisets in the order of Flink's
 * {@code HashMap}), null rows included; every failure must be Flink's, with Flink's message.
 */
class NativeRowDataDecoderTest {
    private static Path cases;

    @BeforeAll
    static void requirements() {
        assumeTrue(NativeLibrary.isLoaded(), "the native library is not loaded");
        cases = Paths.get(System.getProperty(
                "streamfusion.decode.cases", "../../rust/streamfusion-json/tests/data/flink-decode"));
        assertTrue(Files.isDirectory(cases), "no decode corpus at " + cases.toAbsolutePath());
    }

    /** What Flink made of one message: its rows (null for a null row), or its failure. */
    private static final class Outcome {
        final List<RowData> rows = new ArrayList<>();
        Exception failure;
    }

    @Test
    void everyCaseOfTheCorpusGivesFlinksRows() throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(cases)) {
            files = list.filter(p -> p.toString().endsWith(".case")).sorted().collect(Collectors.toList());
        }
        assertTrue(files.size() >= 39, "cases: " + files.size());
        int messages = 0;
        int rows = 0;
        int failures = 0;
        long flinkMessages = 0;
        for (Path file : files) {
            FlinkDecodeGoldens.Case c = FlinkDecodeGoldens.Case.parse(file);
            String name = file.getFileName().toString();
            DeserializationSchema<RowData> flink;
            try {
                flink = FlinkDecodeGoldens.deserializer(c.rowType, c.options);
            } catch (Exception refused) {
                // Options Flink refuses are refused natively too.
                assertThrows(
                        IllegalArgumentException.class, () -> new NativeRowDataDecoder(c.rowType, c.options), name);
                continue;
            }
            long[] counts = compare(name, c.rowType, c.options, c.messages, flink);
            messages += (int) counts[0];
            rows += (int) counts[1];
            failures += (int) counts[2];
            flinkMessages += counts[3];
        }
        // Pinned, so that a change in how many messages go native shows: every message Flink fails on is left
        // to Flink (which then throws its own failure), and 31 more whose result the native decoder does not
        // reproduce.
        String counts = "messages " + messages + ", rows " + rows + ", failures " + failures + ", left to Flink "
                + flinkMessages;
        System.out.println("decode corpus: " + counts);
        assertEquals("messages 784, rows 544, failures 245, left to Flink 276", counts);
    }

    /**
     * Decodes {@code messages} as one chunk natively (resumed after each message Flink fails on) and with Flink's
     * deserializer message by message, and asserts the same rows and failures; returns the messages, the rows,
     * the failures and the messages left to Flink.
     */
    private static long[] compare(
            String name,
            RowType type,
            Map<String, String> options,
            List<byte[]> messages,
            DeserializationSchema<RowData> flink)
            throws Exception {
        List<Outcome> expected = new ArrayList<>();
        for (byte[] message : messages) {
            expected.add(flinkOutcome(flink, message));
        }
        long rows = 0;
        long failures = 0;
        DeserializationSchema<RowData> fallback = FlinkDecodeGoldens.deserializer(type, options);
        try (NativeRowDataDecoder decoder = new NativeRowDataDecoder(type, options)) {
            byte[][] all = messages.toArray(new byte[0][]);
            int start = 0;
            while (start < all.length) {
                byte[][] chunk = java.util.Arrays.copyOfRange(all, start, all.length);
                List<RowData> ours = new ArrayList<>();
                IOException failure = null;
                try {
                    decoder.decode(chunk, chunk.length, collector(ours), fallback);
                } catch (IOException e) {
                    failure = e;
                }
                int end = start;
                List<RowData> theirs = new ArrayList<>();
                while (end < all.length && expected.get(end).failure == null) {
                    theirs.addAll(expected.get(end).rows);
                    end++;
                }
                String where = name + ", messages " + start + ".." + end;
                if (end < all.length) {
                    theirs.addAll(expected.get(end).rows);
                    assertNotNull(failure, where + ": Flink fails on message " + end);
                    assertEquals(expected.get(end).failure.getMessage(), failure.getMessage(), where);
                    failures++;
                } else {
                    assertNull(failure, where);
                }
                assertRowsEqual(theirs, ours, type, where);
                rows += ours.size();
                start = end + 1;
            }
            return new long[] {all.length, rows, failures, decoder.flinkMessages()};
        }
    }

    /**
     * Random rows of every type the json format reads (nulls, extremes, awkward text, all timestamp
     * precisions), written by Flink's own serializer, then mutated (kept, cut short, a byte replaced, removed or
     * inserted, a value swapped for another JSON token), decoded natively and by Flink with and without
     * {@code ignore-parse-errors}: the same rows and the same failures, message for message.
     */
    @Test
    void mutatedMessagesOfFlinksSerializerGiveFlinksRows() throws Exception {
        List<RowType.RowField> fields = RandomRows.ALL_TYPES.getFields().subList(0, 22); // no INTERVAL columns
        RowType type = new RowType(fields);
        RowDataSerializer projection = new RowDataSerializer(RandomRows.ALL_TYPES);
        JsonRowDataSerializationSchema writer = new JsonRowDataSerializationSchema(
                type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        writer.open(null);
        Random random = new Random(7);
        List<byte[]> messages = new ArrayList<>();
        for (RowData row : RandomRows.allTypes(11, 600)) {
            GenericRowData generic = new GenericRowData(fields.size());
            RowData binary = projection.toBinaryRow(row);
            for (int f = 0; f < fields.size(); f++) {
                generic.setField(
                        f, RowData.createFieldGetter(fields.get(f).getType(), f).getFieldOrNull(binary));
            }
            byte[] json = writer.serialize(generic);
            byte[] mutated = mutate(json, random, fields);
            messages.add(mutated);
        }
        for (Map<String, String> options : List.of(Map.<String, String>of(), Map.of("ignore-parse-errors", "true"))) {
            long[] counts = compare(
                    "mutated " + options, type, options, messages, FlinkDecodeGoldens.deserializer(type, options));
            System.out.println("mutated messages " + options + ": " + counts[0] + " messages, " + counts[1] + " rows, "
                    + counts[2] + " failures, " + counts[3] + " left to Flink");
            assertTrue(counts[1] > 100, "rows: " + counts[1]);
        }
    }

    /**
     * Random row types nested to depth 3 (arrays, maps, multisets and rows of every scalar type, in one another),
     * 40 random rows of each written by Flink's own serializer, then mutated half of the time: decoded natively and
     * by Flink with and without {@code ignore-parse-errors}, the same rows (byte for byte, maps in Flink's order)
     * and the same failures, message for message.
     */
    @Test
    void randomNestedRowTypesWrittenByFlinkGiveFlinksRows() throws Exception {
        Random random = new Random(19);
        long[] totals = new long[4];
        for (int t = 0; t < 40; t++) {
            RowType type = RandomNestedRows.rowType(random, 3);
            JsonRowDataSerializationSchema writer = new JsonRowDataSerializationSchema(
                    type, TimestampFormat.SQL, JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
            writer.open(null);
            List<byte[]> messages = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                byte[] json = writer.serialize(RandomNestedRows.row(random, type));
                messages.add(random.nextBoolean() ? json : mutate(json, random, type.getFields()));
            }
            for (Map<String, String> options :
                    List.of(Map.<String, String>of(), Map.of("ignore-parse-errors", "true"))) {
                long[] counts = compare(
                        "random type " + t + " " + type + " " + options,
                        type,
                        options,
                        messages,
                        FlinkDecodeGoldens.deserializer(type, options));
                for (int c = 0; c < counts.length; c++) {
                    totals[c] += counts[c];
                }
            }
        }
        System.out.println("random nested types: " + totals[0] + " messages, " + totals[1] + " rows, " + totals[2]
                + " failures, " + totals[3] + " left to Flink");
        assertTrue(totals[1] > 2000, "rows: " + totals[1]);
    }

    /**
     * Maps and multisets of 0 to 300 keys (repeated keys, non-ASCII and escaped keys, nested in arrays and rows):
     * their entries in the order of Flink's {@code HashMap} across its resizes, byte for byte.
     */
    @Test
    void mapsHaveTheEntryOrderOfFlinksHashMap() throws Exception {
        RowType type = (RowType) DataTypes.ROW(
                        DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                        DataTypes.FIELD("s", DataTypes.MULTISET(DataTypes.STRING())),
                        DataTypes.FIELD(
                                "a",
                                DataTypes.ARRAY(DataTypes.ROW(
                                        DataTypes.FIELD("n", DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()))))))
                .getLogicalType();
        Random random = new Random(11);
        String[] alphabet = {"a", "b", "k", "\\u00e9", "\u00fc", "\\n", "\\\"", "\u4e2d", "\ud83d\ude00", "7", "_"};
        List<byte[]> messages = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            int keys = i < 20 ? i : random.nextInt(300);
            StringBuilder m = new StringBuilder("{");
            StringBuilder s = new StringBuilder("{");
            StringBuilder n = new StringBuilder("{");
            for (int k = 0; k < keys; k++) {
                StringBuilder key = new StringBuilder();
                int length = 1 + random.nextInt(keys < 40 ? 2 : 4);
                for (int c = 0; c < length; c++) {
                    key.append(alphabet[random.nextInt(alphabet.length)]);
                }
                String sep = k == 0 ? "" : ",";
                m.append(sep).append('"').append(key).append("\":").append(random.nextInt(1000));
                s.append(sep).append('"').append(key).append("\":").append(1 + random.nextInt(3));
                n.append(sep).append('"').append(key).append("\":\"v").append(k).append('"');
            }
            messages.add(("{\"m\":" + m + "},\"s\":" + s + "},\"a\":[{\"n\":" + n + "}},null]}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        // Keys with a lone surrogate: Flink stores each as "?", yet its HashMap keeps them apart by their Java strings
        // (left to Flink).
        messages.add(
                "{\"m\":{\"\\ud800\":1,\"?\":2},\"s\":{\"\\udc00\":1,\"\\ud800\":2}}".getBytes(StandardCharsets.UTF_8));
        long[] counts = compare("maps", type, Map.of(), messages, FlinkDecodeGoldens.deserializer(type, Map.of()));
        assertEquals("121 rows, 1 left to Flink", counts[1] + " rows, " + counts[3] + " left to Flink");
    }

    /**
     * {@code json} kept, cut short, with a byte replaced, removed or inserted, or with one field's value swapped for
     * another JSON token (a string for a number, a number for a string...), at random.
     */
    private static byte[] mutate(byte[] json, Random random, List<RowType.RowField> fields) {
        byte[] tokens = "{}[]\",:-.0123456789eEtrufalsn \\x".getBytes(StandardCharsets.UTF_8);
        String[] values = {"null", "true", "\"x\"", "1.5", "-0", "{}", "[1]", "\"2026-01-01 00:00:00\"", "1e400"};
        int at = json.length == 0 ? 0 : random.nextInt(json.length);
        return switch (random.nextInt(6)) {
            case 0 -> json;
            case 1 -> java.util.Arrays.copyOf(json, at);
            case 2 -> {
                byte[] copy = json.clone();
                copy[at] = tokens[random.nextInt(tokens.length)];
                yield copy;
            }
            case 3 -> {
                byte[] copy = new byte[json.length - 1];
                System.arraycopy(json, 0, copy, 0, at);
                System.arraycopy(json, at + 1, copy, at, json.length - at - 1);
                yield copy;
            }
            case 4 -> {
                byte[] copy = new byte[json.length + 1];
                System.arraycopy(json, 0, copy, 0, at);
                copy[at] = tokens[random.nextInt(tokens.length)];
                System.arraycopy(json, at, copy, at + 1, json.length - at);
                yield copy;
            }
            default -> {
                // One field's value replaced by another token: a string for a number, a number for a string...
                String text = new String(json, StandardCharsets.UTF_8);
                String field = "\"" + fields.get(random.nextInt(fields.size())).getName() + "\":";
                int start = text.indexOf(field);
                if (start < 0) {
                    yield json;
                }
                int valueStart = start + field.length();
                int valueEnd = valueStart;
                boolean quoted = text.charAt(valueStart) == '"';
                valueEnd += quoted ? 1 : 0;
                while (valueEnd < text.length()
                        && (quoted
                                ? text.charAt(valueEnd) != '"' || text.charAt(valueEnd - 1) == '\\'
                                : text.charAt(valueEnd) != ',' && text.charAt(valueEnd) != '}')) {
                    valueEnd++;
                }
                valueEnd += quoted ? 1 : 0;
                yield (text.substring(0, valueStart)
                                + values[random.nextInt(values.length)]
                                + text.substring(Math.min(valueEnd, text.length())))
                        .getBytes(StandardCharsets.UTF_8);
            }
        };
    }

    @Test
    void nexmarkBidsAreDecodedNativelyIntoBinaryRows() throws Exception {
        RowType bid = (RowType) LogicalTypeParser.parse(
                "ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                        + " dateTime TIMESTAMP(3), extra STRING>",
                getClass().getClassLoader());
        byte[][] messages = {
            json("{\"auction\":1000,\"bidder\":2001,\"price\":2597,\"channel\":\"Google\",\"url\":"
                    + "\"https://www.nexmark.com/abc/item.htm?query=1\",\"dateTime\":\"2026-12-05 10:00:00.123\","
                    + "\"extra\":\"\"}"),
            null,
            json("{\"auction\":\"7\",\"price\":1.9}"),
        };
        try (NativeRowDataDecoder decoder = new NativeRowDataDecoder(bid, Map.of())) {
            List<RowData> rows = new ArrayList<>();
            decoder.decode(messages, messages.length, collector(rows), FlinkDecodeGoldens.deserializer(bid, Map.of()));
            assertEquals(2, rows.size());
            assertEquals(2, decoder.nativeMessages() - 1); // the null message counts as decoded, giving no row
            assertEquals(0, decoder.flinkMessages());
            BinaryRowData first = (BinaryRowData) rows.get(0);
            assertEquals(1000L, first.getLong(0));
            assertEquals("Google", first.getString(3).toString());
            assertEquals(1_796_464_800_123L, first.getTimestamp(5, 3).getMillisecond());
            assertEquals("", first.getString(6).toString());
            BinaryRowData second = (BinaryRowData) rows.get(1);
            assertEquals(7L, second.getLong(0));
            assertTrue(second.isNullAt(1));
            assertEquals(1L, second.getLong(2));
        }
    }

    @Test
    void aMessageFlinkFailsOnFailsWithFlinksMessageAfterTheRowsBeforeIt() throws Exception {
        RowType type =
                (RowType) LogicalTypeParser.parse("ROW<a INT>", getClass().getClassLoader());
        byte[][] messages = {json("{\"a\":1}"), json("{\"a\":"), json("{\"a\":3}")};
        DeserializationSchema<RowData> flink = FlinkDecodeGoldens.deserializer(type, Map.of());
        try (NativeRowDataDecoder decoder = new NativeRowDataDecoder(type, Map.of())) {
            List<RowData> rows = new ArrayList<>();
            IOException failure = assertThrows(
                    IOException.class, () -> decoder.decode(messages, messages.length, collector(rows), flink));
            assertEquals("Failed to deserialize JSON '{\"a\":'.", failure.getMessage());
            assertEquals(1, rows.size());
            assertEquals(1, rows.get(0).getInt(0));
            assertEquals(1, decoder.flinkMessages());
        }
    }

    private static Outcome flinkOutcome(DeserializationSchema<RowData> flink, byte[] message) {
        Outcome outcome = new Outcome();
        try {
            flink.deserialize(message, collector(outcome.rows));
        } catch (Exception e) {
            outcome.failure = e;
        }
        return outcome;
    }

    private static void assertRowsEqual(List<RowData> flink, List<RowData> ours, RowType type, String where) {
        assertEquals(texts(flink, type), texts(ours, type), where);
        for (int i = 0; i < flink.size(); i++) {
            if (flink.get(i) == null) {
                continue;
            }
            // Fresh serializers: a reused one leaves the padding of an earlier row's values in its buffer.
            BinaryRowData expected = new RowDataSerializer(type).toBinaryRow(flink.get(i));
            // Rows of messages left to Flink are Flink's own GenericRowData.
            BinaryRowData actual = new RowDataSerializer(type).toBinaryRow(ours.get(i));
            assertArrayEquals(bytes(expected), bytes(actual), where + ", row " + i);
        }
    }

    private static List<String> texts(List<RowData> rows, RowType type) {
        List<String> texts = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            texts.add(row == null ? "null" : RowText.row(row, type));
        }
        return texts;
    }

    private static byte[] bytes(BinaryRowData row) {
        byte[] bytes = new byte[row.getSizeInBytes()];
        row.getSegments()[0].get(row.getOffset(), bytes, 0, bytes.length);
        return bytes;
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Collects rows as they come, copying binary rows' bytes would not be needed: they are never rewritten. */
    private static Collector<RowData> collector(List<RowData> into) {
        return new Collector<RowData>() {
            @Override
            public void collect(RowData record) {
                into.add(record);
            }

            @Override
            public void close() {}
        };
    }
}
