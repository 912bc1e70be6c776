package org.streamfusion.parity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the harness on a small Arrow IPC file against the Flink release on the test classpath (the pom's
 * default) and checks the bytes against values printed by the real Flink serializer.
 */
class FlinkGoldensTest {
    @TempDir
    Path tmp;

    private static Field field(String name, ArrowType type, Field... children) {
        return new Field(name, FieldType.nullable(type), List.of(children));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Columns k_id, op, v, ts, bin, r, m; rows: +I with values, -D, +I with all value columns null. */
    private static void writeCorpusFile(Path file) throws IOException {
        Field entries = new Field(
                "entries",
                FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(
                        new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                        field("value", new ArrowType.Int(64, true))));
        Schema schema = new Schema(List.of(
                field("k_id", new ArrowType.Int(64, true)),
                field("op", ArrowType.Utf8.INSTANCE),
                field("v", new ArrowType.Decimal(10, 0, 128)),
                field("ts", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                field("bin", ArrowType.Binary.INSTANCE),
                field(
                        "r",
                        ArrowType.Struct.INSTANCE,
                        field("z", new ArrowType.Int(32, true)),
                        field("a", ArrowType.Utf8.INSTANCE)),
                new Field("m", FieldType.nullable(new ArrowType.Map(false)), List.of(entries))));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            BigIntVector id = (BigIntVector) root.getVector("k_id");
            id.setSafe(0, 1);
            id.setSafe(1, 2);
            id.setNull(2);
            VarCharVector op = (VarCharVector) root.getVector("op");
            op.setSafe(0, utf8("+I"));
            op.setSafe(1, utf8("-D"));
            op.setSafe(2, utf8("+I"));
            DecimalVector v = (DecimalVector) root.getVector("v");
            v.setSafe(0, new BigDecimal("100"));
            v.setSafe(1, new BigDecimal("5"));
            v.setNull(2);
            TimeStampMilliVector ts = (TimeStampMilliVector) root.getVector("ts");
            ts.setSafe(0, 1_704_164_645_500L); // 2024-01-02T03:04:05.5
            ts.setSafe(1, 0);
            ts.setNull(2);
            VarBinaryVector bin = (VarBinaryVector) root.getVector("bin");
            bin.setSafe(0, new byte[] {0, 1});
            bin.setSafe(1, new byte[] {(byte) 0xfb, (byte) 0xff, (byte) 0xbf});
            bin.setNull(2);
            StructVector r = (StructVector) root.getVector("r");
            IntVector z = r.getChild("z", IntVector.class);
            VarCharVector a = r.getChild("a", VarCharVector.class);
            r.setIndexDefined(0);
            z.setSafe(0, 1);
            a.setNull(0);
            r.setIndexDefined(1);
            z.setSafe(1, 2);
            a.setSafe(1, utf8("x"));
            r.setNull(2);
            z.setNull(2);
            a.setNull(2);
            MapVector m = (MapVector) root.getVector("m");
            StructVector e = (StructVector) m.getDataVector();
            VarCharVector keys = e.getChild("key", VarCharVector.class);
            BigIntVector values = e.getChild("value", BigIntVector.class);
            // Row 0: b=9, a=1, n=null, b=2 (a duplicate key); row 1: empty map; row 2: null map.
            m.startNewValue(0);
            String[] ks = {"b", "a", "n", "b"};
            Long[] vs = {9L, 1L, null, 2L};
            for (int j = 0; j < ks.length; j++) {
                e.setIndexDefined(j);
                keys.setSafe(j, utf8(ks[j]));
                if (vs[j] == null) {
                    values.setNull(j);
                } else {
                    values.setSafe(j, vs[j]);
                }
            }
            m.endValue(0, ks.length);
            m.startNewValue(1);
            m.endValue(1, 0);
            m.setNull(2);
            e.setValueCount(ks.length);
            root.setRowCount(3);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
        }
    }

    /** Reads a .records file: per row the key then the value, null for a -1 length. */
    private static List<byte[]> readRecords(Path file) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            while (in.available() > 0) {
                int len = in.readInt();
                out.add(len < 0 ? null : in.readNBytes(len));
            }
        }
        return out;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void flinkBytesForKeyValueUpsertAndErrors() throws IOException {
        Path corpus = Files.createDirectories(tmp.resolve("corpus"));
        Path out = tmp.resolve("out");
        writeCorpusFile(corpus.resolve("upsert.arrow"));
        Files.writeString(
                corpus.resolve("upsert.properties"),
                String.join(
                        "\n",
                        "key.fields=k_id",
                        "key.fields-prefix=k_",
                        "value.fields-include=EXCEPT_KEY",
                        "changelog.row-kind-column=op",
                        "mode=flink",
                        "plain.explicit-nulls=true",
                        ""));
        Files.copy(corpus.resolve("upsert.arrow"), corpus.resolve("plain.arrow"));
        Files.copy(corpus.resolve("upsert.arrow"), corpus.resolve("iso.arrow"));
        Files.writeString(
                corpus.resolve("iso.properties"),
                "timestamp-format.standard=ISO-8601\nencode.decimal-as-plain-number=true\nkey.fields=k_id\n"
                        + "changelog.row-kind-column=op\n");
        Files.copy(corpus.resolve("upsert.arrow"), corpus.resolve("bad.arrow"));
        Files.writeString(corpus.resolve("bad.properties"), "timestamp-format.standard=iso-8601\n");

        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int errors = FlinkGoldens.run(corpus, out, new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(1, errors, log.toString(StandardCharsets.UTF_8));

        List<byte[]> upsert = readRecords(out.resolve("upsert.records"));
        assertEquals(6, upsert.size());
        // Key prefix stripped; decimal 100 as 1E+2; SQL timestamp with trimmed fraction; Base64 bytes;
        // nested row with an explicit null; map in data order, the duplicate key's later value in its first place.
        assertEquals("{\"id\":1}", text(upsert.get(0)));
        assertEquals(
                "{\"v\":1E+2,\"ts\":\"2024-01-02 03:04:05.5\",\"bin\":\"AAE=\",\"r\":{\"z\":1,\"a\":null},"
                        + "\"m\":{\"b\":2,\"a\":1,\"n\":null}}",
                text(upsert.get(1)));
        // -D: tombstone (null value), key still written.
        assertEquals("{\"id\":2}", text(upsert.get(2)));
        assertNull(upsert.get(3));
        // An all-null key is still an object, never a null key.
        assertEquals("{\"id\":null}", text(upsert.get(4)));
        assertEquals("{\"v\":null,\"ts\":null,\"bin\":null,\"r\":null,\"m\":null}", text(upsert.get(5)));

        // No properties: no key format (null key), every column in the value, all rows inserts.
        List<byte[]> plain = readRecords(out.resolve("plain.records"));
        assertEquals(6, plain.size());
        assertNull(plain.get(0));
        assertEquals(
                "{\"k_id\":2,\"op\":\"-D\",\"v\":5,\"ts\":\"1970-01-01 00:00:00\",\"bin\":\"+/+/\","
                        + "\"r\":{\"z\":2,\"a\":\"x\"},\"m\":{}}",
                text(plain.get(3)));
        byte[] raw = Files.readAllBytes(out.resolve("plain.records"));
        assertArrayEquals(new byte[] {-1, -1, -1, -1}, java.util.Arrays.copyOf(raw, 4));

        // ISO-8601 and plain decimals; the key column stays in the value (ALL), the row-kind column never appears.
        List<byte[]> iso = readRecords(out.resolve("iso.records"));
        assertEquals("{\"k_id\":1}", text(iso.get(0)));
        assertEquals(
                "{\"k_id\":1,\"v\":100,\"ts\":\"2024-01-02T03:04:05.5\",\"bin\":\"AAE=\","
                        + "\"r\":{\"z\":1,\"a\":null},\"m\":{\"b\":2,\"a\":1,\"n\":null}}",
                text(iso.get(1)));
        assertNull(iso.get(3));

        // Flink's own validation rejects a lower-case timestamp standard.
        assertFalse(Files.exists(out.resolve("bad.records")));
        String error = Files.readString(out.resolve("bad.error"));
        assertTrue(
                error.startsWith("org.apache.flink.table.api.ValidationException: Unsupported value 'iso-8601'"),
                error);
        assertTrue(error.endsWith("\n") && error.indexOf('\n') == error.length() - 1, error);

        String env = Files.readString(out.resolve("ENV"));
        assertTrue(env.startsWith("flink.version=2."), env);
        assertTrue(env.contains("\njava.version=" + System.getProperty("java.version") + "\n"), env);
    }
}
