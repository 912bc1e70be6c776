package org.streamfusion.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;
import org.streamfusion.kafka.EncodedBatch;
import org.streamfusion.kafka.EncoderOptions;
import org.streamfusion.kafka.NativeJsonEncoder;
import org.streamfusion.kafka.StreamFusionException;

/**
 * Property tests (QuickTheories) of the native encoder from the JVM, against Flink 2.2's own serializer
 * ({@link FlinkReference}): random rows under random columns and options give exactly Flink's bytes through both
 * handoffs; corrupted binary rows and corrupted Arrow vectors give an exception the API documents
 * ({@link IllegalArgumentException}, {@link StreamFusionException}) or exactly Flink's bytes for what Flink (or
 * Arrow Java) reads from them; never a crash, never other bytes; and the encoder stays usable after each error.
 * A failure prints the shrunk input and the seed ({@code qt().withFixedSeed(seed)} replays it).
 */
class EncoderProperties {
    /** The options of a bare {@link NativeJsonEncoder}: FLOAT and DOUBLE with the digits of the JVM running Flink's serializer here. */
    private static final Map<String, String> RUNNING_JDK_DIGITS = Map.of(
            EncoderOptions.FLOAT_JAVA_DIGITS,
            RowDataJsonEncoder.floatDigits(Runtime.version().feature()));

    private static final RowType ALL = RandomRows.ALL_TYPES;

    @Test
    void anyRowsUnderAnyColumnsAndOptionsAreFlinksBytesThroughBothHandoffs() {
        int fields = ALL.getFieldCount();
        qt().withExamples(100)
                .forAll(
                        Generate.longRange(0, Long.MAX_VALUE),
                        Generate.range(1, 600),
                        Generate.range(1, (1 << fields) - 1),
                        Generate.range(0, 255))
                .checkAssert((seed, n, columns, bits) -> {
                    int[] picked = picked(columns);
                    RowType type = project(picked);
                    Map<String, String> options = options(type, bits);
                    List<RowData> rows = project(RandomRows.allTypes(seed, n), picked, type);
                    FlinkReference reference = unchecked(() -> new FlinkReference(type, options));
                    for (String handoff : List.of("binary-rows", "arrow")) {
                        Map<String, String> all = new HashMap<>(options);
                        all.put(RowDataJsonEncoder.NATIVE_HANDOFF, handoff);
                        all.put(RowDataJsonEncoder.NATIVE_MIN_BATCH_ROWS, "0");
                        try (RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, all)) {
                            EncodedBatch batch = encoder.encode(rows);
                            assertEquals(1, encoder.nativeBatches(), "the native path encoded the batch");
                            assertEquals(n, batch.size());
                            for (int i = 0; i < n; i++) {
                                String where = handoff + ", " + options + ", " + type + ", row " + i;
                                RowData row = rows.get(i);
                                int at = i;
                                unchecked(() -> {
                                    FlinkReference.assertSame(reference.key(row), batch.key(at), "key, " + where);
                                    FlinkReference.assertSame(reference.value(row), batch.value(at), "value, " + where);
                                    return null;
                                });
                            }
                        }
                    }
                });
    }

    /** The fields whose bits are set in {@code columns}, in order. */
    private static int[] picked(int columns) {
        return java.util.stream.IntStream.range(0, ALL.getFieldCount())
                .filter(f -> (columns >> f & 1) == 1)
                .toArray();
    }

    private static RowType project(int[] picked) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (int f : picked) {
            fields.add(ALL.getFields().get(f));
        }
        return new RowType(fields);
    }

    /** The rows' {@code picked} fields, row kinds kept; every other row in binary form, as in {@link RandomRows}. */
    private static List<RowData> project(List<RowData> rows, int[] picked, RowType type) {
        RowData.FieldGetter[] getters = new RowData.FieldGetter[picked.length];
        for (int i = 0; i < picked.length; i++) {
            getters[i] = RowData.createFieldGetter(ALL.getTypeAt(picked[i]), picked[i]);
        }
        RowDataSerializer binary = new RowDataSerializer(type);
        List<RowData> out = new ArrayList<>(rows.size());
        for (int r = 0; r < rows.size(); r++) {
            GenericRowData row = new GenericRowData(rows.get(r).getRowKind(), picked.length);
            for (int i = 0; i < picked.length; i++) {
                row.setField(i, getters[i].getFieldOrNull(rows.get(r)));
            }
            out.add(r % 2 == 0 ? binary.toBinaryRow(row).copy() : row);
        }
        return out;
    }

    /**
     * Options from 8 bits: ISO-8601 timestamps, plain decimals, null fields left out, a key (none, the first
     * field, the first two, the last), {@code EXCEPT_KEY} (when fields remain for the value), upsert (with a key).
     */
    private static Map<String, String> options(RowType type, int bits) {
        Map<String, String> options = new HashMap<>();
        if ((bits & 1) != 0) {
            options.put("timestamp-format.standard", "ISO-8601");
        }
        if ((bits & 2) != 0) {
            options.put("encode.decimal-as-plain-number", "true");
        }
        if ((bits & 4) != 0) {
            options.put("encode.ignore-null-fields", "true");
        }
        List<String> names = type.getFieldNames();
        List<String> key = switch (bits >> 3 & 3) {
            case 1 -> names.subList(0, 1);
            case 2 -> names.subList(0, Math.min(2, names.size()));
            case 3 -> names.subList(names.size() - 1, names.size());
            default -> List.of();
        };
        if (!key.isEmpty()) {
            options.put("key.fields", String.join(";", key));
            if ((bits & 32) != 0 && key.size() < names.size()) {
                options.put("value.fields-include", "EXCEPT_KEY");
            }
            if ((bits & 64) != 0) {
                options.put("changelog.mode", "upsert");
            }
        }
        return Map.copyOf(options);
    }

    /**
     * Binary rows of every type with one to three bytes changed anywhere (header, null bits, fixed-length slots,
     * variable-length part) or a row offset moved: an exception, or for every row the bytes Flink's serializer
     * writes for the row as Flink's {@link BinaryRowData} reads it (over that row's bytes only); if Flink cannot
     * read a row, the encoder must have refused the batch.
     */
    @Test
    void corruptBinaryRowsAreAnErrorOrFlinksBytes() {
        FlinkReference reference = unchecked(() -> new FlinkReference(ALL, Map.of()));
        Schema schema = RowDataArrowWriter.schema(ALL, null);
        RowDataSerializer serializer = new RowDataSerializer(ALL);
        int[] outcomes = new int[3];
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = new NativeJsonEncoder(RUNNING_JDK_DIGITS)) {
            qt().withExamples(3_000)
                    .forAll(Generate.longRange(0, Long.MAX_VALUE), Generate.range(1, 4), Generate.range(0, 3))
                    .checkAssert((seed, n, how) -> {
                        Random random = new Random(seed);
                        List<RowData> rows = RandomRows.allTypes(seed, n);
                        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                        int[] offsets = new int[n + 1];
                        for (int i = 0; i < n; i++) {
                            BinaryRowData form = serializer.toBinaryRow(rows.get(i));
                            out.writeBytes(BinarySegmentUtils.copyToBytes(
                                    form.getSegments(), form.getOffset(), form.getSizeInBytes()));
                            offsets[i + 1] = out.size();
                        }
                        byte[] bytes = out.toByteArray();
                        String change = corrupt(random, how, bytes, offsets);
                        String where = change + ", seed " + seed;
                        EncodedBatch batch = null;
                        RuntimeException refused = null;
                        try {
                            batch = encoder.encodeBinaryRows(
                                    schema, ALL.getFieldCount(), bytes, bytes.length, offsets, n);
                        } catch (IllegalArgumentException | StreamFusionException e) {
                            refused = e;
                        }
                        // The same rows read in place from native memory: the same records or the same refusal.
                        try (ArrowBuf inPlace = allocator.buffer(Math.max(1, bytes.length))) {
                            inPlace.setBytes(0, bytes);
                            EncodedBatch read = encoder.encodeBinaryRows(
                                    schema, ALL.getFieldCount(), inPlace, bytes.length, offsets, n);
                            assertTrue(refused == null, () -> "refused from byte[] only: " + where);
                            for (int i = 0; i < n; i++) {
                                assertArrayEquals(batch.value(i), read.value(i), "row " + i + " in place, " + where);
                            }
                        } catch (IllegalArgumentException | StreamFusionException e) {
                            assertEquals(String.valueOf(refused), String.valueOf(e), "refusal in place, " + where);
                        }
                        if (refused != null) {
                            outcomes[0]++;
                            return; // refused: allowed for any corruption
                        }
                        for (int i = 0; i < n; i++) {
                            byte[] flink = flinkValue(reference, bytes, offsets[i], offsets[i + 1]);
                            if (flink == null) {
                                fail("Flink cannot read binary row " + i + " (" + where + "), but the encoder wrote "
                                        + new String(batch.value(i), StandardCharsets.UTF_8));
                            }
                            int at = i;
                            EncodedBatch encoded = batch;
                            unchecked(() -> {
                                FlinkReference.assertSame(flink, encoded.value(at), "row " + at + ", " + where);
                                return null;
                            });
                        }
                        outcomes["none".equals(change) ? 2 : 1]++;
                    });
            // The encoder is still usable after every refusal.
            try (RowDataBinaryWriter writer = new RowDataBinaryWriter(ALL, allocator, null, false)) {
                assertEquals(
                        3,
                        writer.write(RandomRows.allTypes(1, 3)).encode(encoder).size());
            }
        }
        assertTrue(
                outcomes[0] > 100 && outcomes[1] > 100,
                () -> "refused / accepted corrupt / intact: " + java.util.Arrays.toString(outcomes)
                        + ": the corruptions should land on both sides");
    }

    /** Changes {@code bytes} or {@code offsets} as {@code how} says: 0 none, 1 one byte, 2 three bytes, 3 an offset. */
    private static String corrupt(Random random, int how, byte[] bytes, int[] offsets) {
        switch (how) {
            case 1, 2 -> {
                StringBuilder change = new StringBuilder("bytes");
                for (int k = 0; k < (how == 1 ? 1 : 3); k++) {
                    int at = random.nextInt(bytes.length);
                    byte value = (byte) random.nextInt(256);
                    change.append(' ').append(at).append('=').append(value & 0xff);
                    bytes[at] = value;
                }
                return change.toString();
            }
            case 3 -> {
                int at = random.nextInt(offsets.length);
                offsets[at] += random.nextInt(17) - 8;
                return "offset " + at + " = " + offsets[at];
            }
            default -> {
                return "none";
            }
        }
    }

    /**
     * Flink's value record for the binary row at {@code bytes[from..to)}, read by {@link BinaryRowData} over those
     * bytes only, or null when Flink cannot read it. A variable-length field whose declared length passes the
     * row is taken as unreadable without asking Flink, whose reader allocates the declared length (up to 2 GiB)
     * before it checks the bounds.
     */
    private static byte[] flinkValue(FlinkReference reference, byte[] bytes, int from, int to) {
        if (from < 0 || to < from || to > bytes.length) {
            return null;
        }
        BinaryRowData row = new BinaryRowData(ALL.getFieldCount());
        row.pointTo(MemorySegmentFactory.wrap(java.util.Arrays.copyOfRange(bytes, from, to)), 0, to - from);
        if (to - from < BinaryRowData.calculateFixPartSizeInBytes(ALL.getFieldCount())) {
            return null;
        }
        for (int f = 0; f < ALL.getFieldCount(); f++) {
            if (!row.isNullAt(f) && variableLength(ALL.getTypeAt(f))) {
                long slot = row.getLong(f);
                if (slot >= 0 && (int) slot > to - from) { // not inline (mark bit clear): offset << 32 | length
                    return null;
                }
            }
        }
        try {
            return reference.value(row);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean variableLength(LogicalType type) {
        return type instanceof VarCharType
                || type instanceof CharType
                || type instanceof VarBinaryType
                || type instanceof BinaryType
                || type instanceof DecimalType d && !DecimalData.isCompact(d.getPrecision());
    }

    private static final RowType SIMPLE = RowType.of(
            new LogicalType[] {
                new BigIntType(),
                new IntType(),
                new DoubleType(),
                new BooleanType(),
                new VarCharType(VarCharType.MAX_LENGTH)
            },
            new String[] {"id", "n", "d", "flag", "s"});

    /**
     * Arrow vectors (BIGINT, INT, DOUBLE, BOOLEAN, STRING with nulls) through the flat handoff, changed after
     * they were filled: a data byte of a fixed-width column or a validity bit (still a valid batch: Flink's
     * bytes for what Arrow Java reads, no exception allowed), a string byte (Flink's bytes when every string is
     * still UTF-8, else {@link StreamFusionException.Kind#INVALID_VALUE}), a string offset (an exception when a
     * non-null string's range leaves the buffer or runs backwards, else an exception or Flink's bytes), a
     * vector's value count (an {@link IllegalArgumentException}).
     */
    @Test
    void corruptArrowVectorsAreAnErrorOrFlinksBytes() {
        FlinkReference reference = unchecked(() -> new FlinkReference(SIMPLE, Map.of()));
        int[] refused = new int[1];
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = new NativeJsonEncoder(RUNNING_JDK_DIGITS)) {
            qt().withExamples(3_000)
                    .forAll(Generate.longRange(0, Long.MAX_VALUE), Generate.range(1, 40), Generate.range(0, 5))
                    .checkAssert((seed, n, how) -> {
                        Random random = new Random(seed);
                        try (VectorSchemaRoot root =
                                VectorSchemaRoot.create(RowDataArrowWriter.schema(SIMPLE, null), allocator)) {
                            fill(root, n, random);
                            String change = corrupt(root, n, how, random);
                            String where = change + ", seed " + seed;
                            Expected expected = expected(root, n, how);
                            EncodedBatch batch;
                            try {
                                batch = encoder.encode(root);
                            } catch (IllegalArgumentException | StreamFusionException e) {
                                refused[0]++;
                                assertTrue(expected.mayFail, () -> where + ": refused a valid batch: " + e);
                                if (expected.invalidUtf8) {
                                    assertTrue(
                                            e instanceof StreamFusionException s
                                                    && s.kind() == StreamFusionException.Kind.INVALID_VALUE,
                                            () -> where + ": " + e);
                                }
                                return;
                            }
                            assertTrue(!expected.mustFail, () -> where + ": encoded a batch it must refuse");
                            for (int i = 0; i < n; i++) {
                                RowData row = expected.rows.get(i);
                                int at = i;
                                unchecked(() -> {
                                    FlinkReference.assertSame(
                                            reference.value(row), batch.value(at), "row " + at + ", " + where);
                                    return null;
                                });
                            }
                        }
                    });
        }
        assertTrue(refused[0] > 100, () -> "only " + refused[0] + " of 3000 batches refused: the corruptions missed");
    }

    private static void fill(VectorSchemaRoot root, int n, Random random) {
        BigIntVector id = (BigIntVector) root.getVector(0);
        IntVector ints = (IntVector) root.getVector(1);
        Float8Vector d = (Float8Vector) root.getVector(2);
        BitVector flag = (BitVector) root.getVector(3);
        VarCharVector s = (VarCharVector) root.getVector(4);
        String[] texts = {"", "a", "quote \" and \\", "日本語", "emoji \uD83D\uDE00", "tab\t", "longer text of some bytes"
        };
        for (int i = 0; i < n; i++) {
            if (random.nextInt(5) == 0) {
                id.setNull(i);
            } else {
                id.setSafe(i, random.nextLong() >> random.nextInt(64));
            }
            if (random.nextInt(5) == 0) {
                ints.setNull(i);
            } else {
                ints.setSafe(i, random.nextInt());
            }
            if (random.nextInt(5) == 0) {
                d.setNull(i);
            } else {
                d.setSafe(
                        i,
                        random.nextBoolean()
                                ? random.nextGaussian() * 1e6
                                : Double.longBitsToDouble(random.nextLong()));
            }
            if (random.nextInt(5) == 0) {
                flag.setNull(i);
            } else {
                flag.setSafe(i, random.nextBoolean() ? 1 : 0);
            }
            if (random.nextInt(5) == 0) {
                s.setNull(i);
            } else {
                s.setSafe(i, texts[random.nextInt(texts.length)].getBytes(StandardCharsets.UTF_8));
            }
        }
        root.setRowCount(n);
    }

    /** Changes the vectors as {@code how} says (see the test's comment); returns what it did. */
    private static String corrupt(VectorSchemaRoot root, int n, int how, Random random) {
        switch (how) {
            case 1 -> {
                int column = random.nextInt(3);
                int width = column == 1 ? 4 : 8;
                long at = random.nextInt(n * width);
                byte value = (byte) random.nextInt(256);
                root.getVector(column).getDataBuffer().setByte(at, value);
                return "column " + column + " data byte " + at + " = " + (value & 0xff);
            }
            case 2 -> {
                int column = random.nextInt(5);
                int row = random.nextInt(n);
                org.apache.arrow.memory.ArrowBuf validity =
                        root.getVector(column).getValidityBuffer();
                validity.setByte(row / 8, validity.getByte(row / 8) ^ (1 << (row % 8)));
                return "column " + column + " validity of row " + row + " flipped";
            }
            case 3 -> {
                VarCharVector s = (VarCharVector) root.getVector(4);
                int length = s.getOffsetBuffer().getInt((long) n * 4);
                if (length == 0) {
                    return "none (no string bytes)";
                }
                int at = random.nextInt(length);
                byte value = (byte) (0x80 | random.nextInt(128));
                s.getDataBuffer().setByte(at, value);
                return "string byte " + at + " = " + (value & 0xff);
            }
            case 4 -> {
                VarCharVector s = (VarCharVector) root.getVector(4);
                int at = random.nextInt(n + 1);
                int value = s.getOffsetBuffer().getInt((long) at * 4) + random.nextInt(33) - 16;
                s.getOffsetBuffer().setInt((long) at * 4, value);
                return "string offset " + at + " = " + value;
            }
            case 5 -> {
                int column = random.nextInt(5);
                root.getVector(column).setValueCount(n - 1 + 2 * random.nextInt(2));
                return "column " + column + " value count "
                        + root.getVector(column).getValueCount() + " of " + n;
            }
            default -> {
                return "none";
            }
        }
    }

    /** What the batch must give: Flink's rows as Arrow Java reads them, and whether it may, or must, fail. */
    private record Expected(List<RowData> rows, boolean mayFail, boolean mustFail, boolean invalidUtf8) {}

    private static Expected expected(VectorSchemaRoot root, int n, int how) {
        if (how == 5) {
            return new Expected(List.of(), true, true, false);
        }
        VarCharVector s = (VarCharVector) root.getVector(4);
        long capacity = s.getDataBuffer().capacity();
        boolean offsetsOutside = false;
        boolean invalidUtf8 = false;
        List<RowData> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            GenericRowData row = new GenericRowData(5);
            for (int c = 0; c < 4; c++) {
                row.setField(c, root.getVector(c).getObject(i));
            }
            if (!s.isNull(i)) {
                int start = s.getOffsetBuffer().getInt((long) i * 4);
                int end = s.getOffsetBuffer().getInt((long) (i + 1) * 4);
                if (start < 0 || end < start || end > capacity) {
                    offsetsOutside = true;
                    continue;
                }
                byte[] value = new byte[end - start];
                s.getDataBuffer().getBytes(start, value);
                invalidUtf8 |= !utf8(value);
                row.setField(4, StringData.fromBytes(value));
            }
            rows.add(row);
        }
        boolean mustFail = offsetsOutside || invalidUtf8;
        return new Expected(rows, how == 4 || mustFail, mustFail, invalidUtf8 && !offsetsOutside && how == 3);
    }

    private static boolean utf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @FunctionalInterface
    private interface Checked<T> {
        T get() throws Exception;
    }

    private static <T> T unchecked(Checked<T> body) {
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
